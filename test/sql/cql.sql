-- cfstore.cql(): CQL3 statements (Cassandra 1.2), the cells each kind of
-- statement writes (read back through get_slice: Cassandra 1.2's layout),
-- the rows SELECT returns, and the errors, with Cassandra's texts.
\set VERBOSITY terse

-- keyspaces
SELECT cfstore.cql($$CREATE KEYSPACE twissandra WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}$$);
SELECT cfstore.cql($$CREATE SCHEMA "Ks2" WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': '2'};$$);
SELECT name, strategy_class, strategy_options FROM cfstore.keyspace ORDER BY name;
SELECT cfstore.cql($$CREATE KEYSPACE k3 WITH strategy_class = SimpleStrategy$$);
SELECT cfstore.cql($$CREATE KEYSPACE k3 WITH replication = {'replication_factor': 1}$$);
SELECT cfstore.cql($$CREATE KEYSPACE k3 WITH durability = 1$$);
SELECT cfstore.cql($$CREATE KEYSPACE twissandra WITH replication = {'class': 'SimpleStrategy'}$$);
SELECT cfstore.cql($$DROP KEYSPACE "Ks2"$$);
SELECT cfstore.cql($$DROP KEYSPACE "Ks2"$$);

-- seed 003: the tweets and timeline tables
SELECT cfstore.cql($$CREATE TABLE tweets (
  tweet_id uuid PRIMARY KEY,
  author varchar,
  body varchar
 );$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE timeline (
  user_id varchar,
  tweet_id uuid,
  author varchar,
  body varchar,
  PRIMARY KEY (user_id, tweet_id)
)$$, 'twissandra');
-- their definitions, as Cassandra 1.2 stores them
SELECT cf -> 'name' AS name, cf -> 'comparator_type' AS comparator, cf -> 'key_validation_class' AS key,
       cf -> 'default_validation_class' AS default, cf -> 'key_aliases' AS key_aliases,
       cf -> 'column_aliases' AS column_aliases, cf -> 'value_alias' AS value_alias,
       cf -> 'column_metadata' AS column_metadata
  FROM jsonb_array_elements(cfstore.describe_keyspace('twissandra') -> 'cf_defs') cf;

-- INSERT: the row marker (tweet_id, '') and a cell per column, one timestamp
SELECT cfstore.cql($$INSERT INTO timeline (user_id, tweet_id, author, body)
  VALUES ('gmason', 1765a000-0000-1000-8000-000000000000, 'phenry', 'Give me liberty or give me death')
  USING TIMESTAMP 1000$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO twissandra.timeline (user_id, tweet_id, author, body)
  VALUES ('gmason', 1742a000-0000-1000-8000-000000000000, 'gwashington', 'I chopped down the cherry tree')
  USING TTL 86400 AND TIMESTAMP 2000$$);
SELECT cfstore.cql($$INSERT INTO timeline (user_id, tweet_id, author, body)
  VALUES ('ahamilton', 1742a000-0000-1000-8000-000000000000, 'gwashington', 'I chopped down the cherry tree')
  USING TIMESTAMP 3000$$, 'twissandra');
SELECT column_name, value, writetime, ttl FROM cfstore.get_slice('twissandra', 'timeline', 'gmason');
-- the same rows through SQL: the foreign table shows the CQL3 rows
SELECT * FROM twissandra.timeline;
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id = 'gmason'$$, 'twissandra');
-- the seed's query
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 50$$, 'twissandra');
SELECT cfstore.cql($$SELECT author, WRITETIME(author) FROM timeline WHERE user_id = 'gmason'$$, 'twissandra');
-- TTL(c) is what is left of the TTL
SELECT r ->> 'author' AS author, (r ->> 'ttl(body)')::int BETWEEN 86390 AND 86400 AS ttl_left
  FROM cfstore.cql($$SELECT author, TTL(body) FROM timeline WHERE user_id = 'gmason'$$, 'twissandra') r;
SELECT cfstore.cql($$SELECT user_id, tweet_id FROM timeline$$, 'twissandra');
SELECT cfstore.cql($$SELECT COUNT(*) FROM timeline$$, 'twissandra');
SELECT cfstore.cql($$SELECT count(1) FROM timeline LIMIT 2$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id IN ('gmason', 'nobody', 'ahamilton')$$, 'twissandra');
SELECT cfstore.cql($$SELECT body FROM timeline WHERE user_id = 'gmason' AND tweet_id = 1765a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$SELECT tweet_id FROM timeline WHERE user_id = 'gmason' AND tweet_id > 1742a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$SELECT tweet_id FROM timeline WHERE user_id = 'gmason' AND tweet_id >= 1742a000-0000-1000-8000-000000000000 AND tweet_id < 1765a000-0000-1000-8000-000000000000$$, 'twissandra');

-- UPDATE: cells and the marker (Cassandra 1.2.4 writes it for UPDATE too)
SELECT cfstore.cql($$UPDATE tweets USING TIMESTAMP 10 SET author = 'jadams', body = 'Facts are stubborn things'
  WHERE tweet_id = 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT column_name, value, writetime FROM cfstore.get_slice('twissandra', 'tweets', '1776a000-0000-1000-8000-000000000000');
SELECT * FROM twissandra.tweets;
-- last write wins by timestamp: an older UPDATE changes nothing
SELECT cfstore.cql($$UPDATE tweets USING TIMESTAMP 5 SET author = 'nobody' WHERE tweet_id = 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets$$, 'twissandra');
-- a null is a tombstone
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, body) VALUES (1776a000-0000-1000-8000-000000000000, null) USING TIMESTAMP 20$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets$$, 'twissandra');

-- DELETE: a column (the marker keeps the row), a row, a partition
SELECT cfstore.cql($$DELETE author FROM tweets USING TIMESTAMP 30 WHERE tweet_id = 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets$$, 'twissandra');
SELECT cfstore.cql($$DELETE FROM timeline USING TIMESTAMP 2500 WHERE user_id = 'gmason' AND tweet_id = 1742a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'timeline', 'gmason');
SELECT * FROM twissandra.timeline;
SELECT cfstore.cql($$DELETE FROM timeline WHERE user_id = 'ahamilton'$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline$$, 'twissandra');

-- clustering columns: two of them, one DESC; composite partition key
SELECT cfstore.cql($$CREATE TABLE events (
  site text, day int, at timestamp, seq bigint, kind ascii, n varint, ok boolean, ratio double,
  PRIMARY KEY ((site, day), at, seq)
) WITH CLUSTERING ORDER BY (at DESC) AND comment = 'events' AND gc_grace_seconds = 3600$$, 'twissandra');
SELECT comparator, key_validation_class, key_aliases, column_aliases, gc_grace_seconds, comment
  FROM cfstore.column_family WHERE name = 'events';
SELECT cfstore.cql($$INSERT INTO events (site, day, at, seq, kind, n, ok, ratio)
  VALUES ('a', 1, '2013-06-10 10:00:00+0000', 1, 'x', 123456789012345678901234567890, true, 0.5)$$, 'twissandra');
-- a timestamp without a zone is in the session's TimeZone (Cassandra: the server's)
SHOW TimeZone;
SELECT cfstore.cql($$INSERT INTO events (site, day, at, seq, kind) VALUES ('a', 1, '2013-06-10 04:00', 1, 'y')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO events (site, day, at, seq, kind) VALUES ('a', 1, 1370862000000, 2, 'z')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO events (site, day, at, seq, kind) VALUES ('a', 2, '2013-06-10 12:00+0000', 1, 'w')$$, 'twissandra');
SELECT key, column_name, value FROM cfstore.get_range_slices('twissandra', 'events');
\d twissandra.events
SELECT * FROM twissandra.events;
SELECT cfstore.cql($$SELECT * FROM events WHERE site = 'a' AND day = 1$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, seq, kind FROM events WHERE site = 'a' AND day = 1 ORDER BY at ASC$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, seq FROM events WHERE site = 'a' AND day = 1 AND at = '2013-06-10 11:00+0000' AND seq > 1$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, seq FROM events WHERE site = 'a' AND day = 1 AND at = '2013-06-10 11:00+0000' AND seq IN (2, 1, 7)$$, 'twissandra');
-- IN names a set of rows: each once, in clustering order (Cassandra 1.2's TreeSet)
SELECT cfstore.cql($$SELECT at, seq FROM events WHERE site = 'a' AND day = 1 AND at = '2013-06-10 11:00+0000' AND seq IN (2, 1, 2, 7, 1)$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, seq FROM events WHERE site = 'a' AND day = 1 AND at = '2013-06-10 11:00+0000' AND seq IN (1, 2, 1) ORDER BY at ASC$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, day FROM events WHERE site = 'a' AND day IN (2, 1) ORDER BY at ASC$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, kind FROM events WHERE site = 'a' AND day = 1 AND at < '2013-06-10 11:00+0000'$$, 'twissandra');
SELECT cfstore.cql($$DELETE FROM events WHERE site = 'a' AND day = 1 AND at = '2013-06-10 11:00+0000'$$, 'twissandra');
SELECT cfstore.cql($$SELECT at, seq FROM events WHERE site = 'a' AND day = 1$$, 'twissandra');
-- the foreign table: an equality on every part of a composite partition key
-- reads that one row key (in any order of the conditions), with the
-- clustering order and the LIMIT
EXPLAIN (VERBOSE, COSTS OFF) SELECT at, seq, kind FROM twissandra.events WHERE day = 1 AND site = 'a';
SELECT at, seq, kind FROM twissandra.events WHERE day = 1 AND site = 'a';
SELECT at, seq, kind FROM twissandra.events WHERE site = 'a' AND day = 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT at, seq FROM twissandra.events WHERE site = 'a' AND day = 1 ORDER BY at DESC, seq LIMIT 1;
SELECT at, seq FROM twissandra.events WHERE site = 'a' AND day = 1 ORDER BY at DESC, seq LIMIT 1;
SELECT at, seq FROM twissandra.events WHERE site = 'a' AND day = 1 ORDER BY at, seq DESC LIMIT 1;
-- a part left open, or given by IN: every row key is read, the conditions filter
EXPLAIN (COSTS OFF) SELECT at FROM twissandra.events WHERE site = 'a';
EXPLAIN (COSTS OFF) SELECT at FROM twissandra.events WHERE site = 'a' AND day IN (1, 2);
SELECT day, at FROM twissandra.events WHERE site = 'a' AND day IN (2, 1) ORDER BY day, at;
-- a value no part can hold, or a NULL, reads nothing
SELECT count(*) FROM twissandra.events WHERE site = 'a' AND day = 3000000000;
SELECT count(*) FROM twissandra.events WHERE site = 'a' AND day = NULL::int;
-- the parts from an outer row: one row key per probe
EXPLAIN (COSTS OFF)
SELECT v.site, v.day, e.at FROM (VALUES ('a', 1), ('a', 2), ('b', 1)) v(site, day),
  LATERAL (SELECT at FROM twissandra.events e WHERE e.site = v.site AND e.day = v.day ORDER BY at DESC LIMIT 1) e;
SELECT v.site, v.day, e.at FROM (VALUES ('a', 1), ('a', 2), ('b', 1)) v(site, day),
  LATERAL (SELECT at FROM twissandra.events e WHERE e.site = v.site AND e.day = v.day ORDER BY at DESC LIMIT 1) e;

-- CLUSTERING ORDER BY ... DESC: the storage order is descending, so ORDER BY
-- tweet_id DESC reads forward and ORDER BY tweet_id a backward slice; a
-- bound in SQL's order is the opposite bound of the storage's
SELECT cfstore.cql($$CREATE TABLE newest (user_id text, tweet_id timeuuid, body text, PRIMARY KEY (user_id, tweet_id))
  WITH CLUSTERING ORDER BY (tweet_id DESC)$$, 'twissandra');
SELECT cfstore.cql(format($$INSERT INTO newest (user_id, tweet_id, body) VALUES ('gmason', %s, 'tweet %s')$$,
                          cfstore.min_timeuuid(timestamptz '2013-01-01 00:00+00' + i * interval '1 minute'), i), 'twissandra')
  FROM generate_series(1, 6) i \g /dev/null
EXPLAIN (VERBOSE, COSTS OFF) SELECT body FROM twissandra.newest WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 2;
SELECT body FROM twissandra.newest WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT body FROM twissandra.newest WHERE user_id = 'gmason' ORDER BY tweet_id LIMIT 2;
SELECT body FROM twissandra.newest WHERE user_id = 'gmason' ORDER BY tweet_id LIMIT 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT body FROM twissandra.newest WHERE user_id = 'gmason'
  AND tweet_id OPERATOR(cfstore.>) cfstore.min_timeuuid('2013-01-01 00:02+00')
  AND tweet_id OPERATOR(cfstore.<=) cfstore.min_timeuuid('2013-01-01 00:05+00') ORDER BY tweet_id;
SELECT body FROM twissandra.newest WHERE user_id = 'gmason'
  AND tweet_id OPERATOR(cfstore.>) cfstore.min_timeuuid('2013-01-01 00:02+00')
  AND tweet_id OPERATOR(cfstore.<=) cfstore.min_timeuuid('2013-01-01 00:05+00') ORDER BY tweet_id;
SELECT body FROM twissandra.newest WHERE user_id = 'gmason'
  AND tweet_id OPERATOR(cfstore.<) cfstore.min_timeuuid('2013-01-01 00:03+00') ORDER BY tweet_id DESC;
SELECT body FROM twissandra.newest WHERE user_id = 'gmason'
  AND tweet_id OPERATOR(cfstore.=) cfstore.min_timeuuid('2013-01-01 00:04+00');

-- COMPACT STORAGE: one clustering column and a value (a dynamic column family)
SELECT cfstore.cql($$CREATE TABLE stats (k text, c int, v bigint, PRIMARY KEY (k, c)) WITH COMPACT STORAGE$$, 'twissandra');
SELECT comparator, default_validation_class, column_aliases, value_alias FROM cfstore.column_family WHERE name = 'stats';
SELECT cfstore.cql($$INSERT INTO stats (k, c, v) VALUES ('x', 2, 20)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO stats (k, c, v) VALUES ('x', 1, 10)$$, 'twissandra');
SELECT cfstore.cql($$UPDATE stats SET v = 30 WHERE k = 'x' AND c = 3$$, 'twissandra');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'stats', 'x');
SELECT * FROM twissandra.stats;
SELECT cfstore.cql($$SELECT * FROM stats WHERE k = 'x' AND c > 1$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM stats WHERE k = 'x' AND c IN (3, 1)$$, 'twissandra');
SELECT cfstore.cql($$DELETE FROM stats WHERE k = 'x' AND c = 2$$, 'twissandra');
SELECT cfstore.cql($$SELECT c, v FROM stats WHERE k = 'x' ORDER BY c DESC$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO stats (k, c) VALUES ('x', 4)$$, 'twissandra');
-- COMPACT STORAGE without clustering columns: a static column family
SELECT cfstore.cql($$CREATE TABLE users (name text PRIMARY KEY, email text, age int) WITH COMPACT STORAGE$$, 'twissandra');
SELECT comparator, (SELECT array_agg(convert_from(d.name, 'UTF8') || ' ' || d.validation_class || ' ' || coalesce(d.component_index::text, '-') ORDER BY d.name)
                      FROM cfstore.column_definition d WHERE d.column_family_id = cf.id) AS columns
  FROM cfstore.column_family cf WHERE name = 'users';
SELECT cfstore.cql($$INSERT INTO users (name, email, age) VALUES ('ada', 'ada@example.org', 36)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO users (name) VALUES ('nobody')$$, 'twissandra');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'users', 'ada');
SELECT * FROM twissandra.users;
SELECT cfstore.cql($$SELECT * FROM users$$, 'twissandra');
-- a static table gains a column, and its foreign table too
SELECT cfstore.cql($$ALTER TABLE users ADD city text$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO users (name, city) VALUES ('ada', 'London')$$, 'twissandra');
SELECT * FROM twissandra.users;
-- COMPACT STORAGE, two clustering columns, no value
SELECT cfstore.cql($$CREATE TABLE pairs (a int, b int, c text, PRIMARY KEY (a, b, c)) WITH COMPACT STORAGE$$, 'twissandra');
SELECT comparator, value_alias FROM cfstore.column_family WHERE name = 'pairs';
SELECT cfstore.cql($$INSERT INTO pairs (a, b, c) VALUES (1, 2, 'x')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO pairs (a, b) VALUES (1, 3)$$, 'twissandra');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'pairs', 1);
SELECT * FROM twissandra.pairs;
SELECT cfstore.cql($$SELECT * FROM pairs WHERE a = 1$$, 'twissandra');

-- counters
SELECT cfstore.cql($$CREATE TABLE hits (page text PRIMARY KEY, views counter, likes counter)$$, 'twissandra');
SELECT cfstore.cql($$UPDATE hits SET views = views + 3, likes = likes - 1 WHERE page = '/'$$, 'twissandra');
SELECT cfstore.cql($$UPDATE hits SET views = views -1 WHERE page = '/'$$, 'twissandra');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'hits', '/');
SELECT * FROM twissandra.hits;
SELECT cfstore.cql($$SELECT * FROM hits$$, 'twissandra');
SELECT cfstore.cql($$UPDATE hits SET views = 3 WHERE page = '/'$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO hits (page, views) VALUES ('/', 1)$$, 'twissandra');
SELECT cfstore.cql($$UPDATE hits USING TTL 5 SET views = views + 1 WHERE page = '/'$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE mixed (k int PRIMARY KEY, c counter, v int)$$, 'twissandra');

-- BATCH: all or nothing
SELECT cfstore.cql($$BEGIN BATCH USING TIMESTAMP 100
  INSERT INTO stats (k, c, v) VALUES ('y', 1, 1);
  UPDATE stats SET v = 2 WHERE k = 'y' AND c = 2;
  DELETE FROM stats WHERE k = 'x' AND c = 1;
APPLY BATCH$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM stats$$, 'twissandra');
SELECT cfstore.cql($$BEGIN BATCH
  INSERT INTO stats (k, c, v) VALUES ('z', 1, 1);
  UPDATE hits SET views = views + 1 WHERE page = '/';
APPLY BATCH$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM stats WHERE k = 'z'$$, 'twissandra');
SELECT cfstore.cql($$BEGIN BATCH USING TIMESTAMP 1 INSERT INTO stats (k, c, v) VALUES ('z', 1, 1) USING TIMESTAMP 2 APPLY BATCH$$, 'twissandra');

-- ALTER TABLE ADD, CREATE INDEX and a query through it
SELECT cfstore.cql($$ALTER TABLE timeline ADD likes int$$, 'twissandra');
\d twissandra.timeline
SELECT cfstore.cql($$INSERT INTO timeline (user_id, tweet_id, author, likes) VALUES ('jjay', 1787a000-0000-1000-8000-000000000000, 'jjay', 7)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO timeline (user_id, tweet_id, author, likes) VALUES ('jjay', 1788a000-0000-1000-8000-000000000000, 'amadison', 8)$$, 'twissandra');
SELECT cfstore.cql($$CREATE INDEX ON timeline (author)$$, 'twissandra');
SELECT name, index_type, index_name, component_index FROM cfstore.column_definition
 WHERE column_family_id = (SELECT id FROM cfstore.column_family WHERE name = 'timeline') ORDER BY name;
SELECT cfstore.cql($$SELECT tweet_id, likes FROM timeline WHERE author = 'amadison'$$, 'twissandra');
SELECT cfstore.cql($$SELECT tweet_id, likes FROM timeline WHERE author = 'phenry'$$, 'twissandra');
SELECT cfstore.cql($$SELECT tweet_id FROM timeline WHERE author = 'jjay' AND likes = 7$$, 'twissandra');
SELECT cfstore.cql($$SELECT tweet_id FROM timeline WHERE author = 'jjay' AND likes = 7 ALLOW FILTERING$$, 'twissandra');
SELECT cfstore.cql($$SELECT tweet_id FROM timeline WHERE likes = 7$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE stats ADD w int$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE timeline ADD likes int$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE timeline DROP likes$$, 'twissandra');

-- the tables as SQL: the seed's query.  UUIDType does not order as SQL's
-- uuid does, so ORDER BY tweet_id is SQL's sort; with timeuuid (TimeUUIDType
-- orders as cfstore.timeuuid) the key, the order and the limit are pushed
EXPLAIN (VERBOSE, COSTS OFF)
SELECT * FROM twissandra.timeline WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 50;
SELECT cfstore.cql($$CREATE TABLE userline (user_id text, tweet_id timeuuid, body text, PRIMARY KEY (user_id, tweet_id))$$, 'twissandra');
SELECT cfstore.cql(format($$INSERT INTO userline (user_id, tweet_id, body) VALUES ('gmason', %s, 'tweet %s')$$,
                          cfstore.min_timeuuid(timestamptz '2013-01-01 00:00+00' + i * interval '1 minute'), i), 'twissandra')
  FROM generate_series(1, 60) i \g /dev/null
EXPLAIN (VERBOSE, COSTS OFF)
SELECT * FROM twissandra.userline WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 3;
SELECT * FROM twissandra.userline WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 3;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT * FROM twissandra.userline WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 3;
-- SQL writes what cql() writes: INSERT a row (the marker and its columns)
INSERT INTO twissandra.timeline (user_id, tweet_id, author, body)
  VALUES ('sql', '1800a000-0000-1000-8000-000000000000', 'tjefferson', 'all men are created equal');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'timeline', 'sql');
SELECT cfstore.cql($$SELECT user_id, author, body, likes FROM timeline WHERE user_id = 'sql'$$, 'twissandra');
-- UPDATE writes the columns SET (a NULL is a tombstone), not the key
UPDATE twissandra.timeline SET body = NULL, likes = 3 WHERE user_id = 'sql';
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'timeline', 'sql');
UPDATE twissandra.timeline SET user_id = 'x' WHERE user_id = 'sql';
-- a join meeting the row three times changes it once, as the first match says
WITH u AS (UPDATE twissandra.timeline t SET likes = v.n FROM (VALUES (7), (8), (9)) v(n)
             WHERE t.user_id = 'sql' RETURNING t.likes)
SELECT count(*), min(likes) FROM u;
SELECT cfstore.cql($$SELECT likes FROM timeline WHERE user_id = 'sql'$$, 'twissandra');
-- DELETE removes the row: every cell under its clustering values
DELETE FROM twissandra.timeline WHERE user_id = 'sql';
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'timeline', 'sql');
SELECT count(*) FROM twissandra.timeline WHERE user_id = 'sql';
-- a compact table and a counter table through SQL
INSERT INTO twissandra.stats VALUES ('q', 5, 50);
UPDATE twissandra.stats SET v = v + 1 WHERE k = 'q';
SELECT cfstore.cql($$SELECT * FROM stats WHERE k = 'q'$$, 'twissandra');
UPDATE twissandra.hits SET views = views + 10 WHERE page = '/';
SELECT cfstore.cql($$SELECT * FROM hits$$, 'twissandra');
INSERT INTO twissandra.hits VALUES ('/', 1, 1);
INSERT INTO twissandra.stats (k, c) VALUES ('q', 6);

-- column families made with the Thrift-style API, as CQL3 sees them
SELECT cfstore.create_column_family('twissandra', 'Dynamic1', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.insert('twissandra', 'Dynamic1', 'r', 5, 'five');
SELECT cfstore.insert('twissandra', 'Dynamic1', 'r', 6, 'six');
SELECT cfstore.cql($$SELECT * FROM "Dynamic1"$$, 'twissandra');
SELECT cfstore.cql($$SELECT value FROM "Dynamic1" WHERE key = 'r' AND column1 = 6$$, 'twissandra');
SELECT cfstore.create_column_family('twissandra', 'Static1', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "email", "validation_class": "UTF8Type"}, {"column_name": "age", "validation_class": "LongType"}]');
SELECT cfstore.insert('twissandra', 'Static1', 'ada', 'age', 36::bigint);
SELECT cfstore.insert('twissandra', 'Static1', 'ada', 'undeclared', 'x'::bytea);
SELECT cfstore.insert('twissandra', 'Static1', 'bob', 'undeclared', 'x'::bytea);
SELECT cfstore.cql($$SELECT * FROM "Static1"$$, 'twissandra');
-- their foreign tables can show the CQL3 rows too
CREATE FOREIGN TABLE dynamic_rows (key text, column1 bigint, value text)
  SERVER cfstore OPTIONS (keyspace 'twissandra', column_family 'Dynamic1', rows 'cql');
CREATE FOREIGN TABLE static_rows (key text, age bigint, email text)
  SERVER cfstore OPTIONS (keyspace 'twissandra', column_family 'Static1', rows 'cql');
SELECT * FROM dynamic_rows WHERE key = 'r' AND column1 > 5;
SELECT * FROM static_rows;
INSERT INTO static_rows VALUES ('cy', 20, 'cy@example.org');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 'Static1', 'cy');
CREATE FOREIGN TABLE bad_rows (key text, nope int)
  SERVER cfstore OPTIONS (keyspace 'twissandra', column_family 'Static1', rows 'cql');
SELECT * FROM bad_rows;
CREATE FOREIGN TABLE bad_rows2 (key text) SERVER cfstore OPTIONS (keyspace 'twissandra', column_family 'Static1', rows 'rows');
SELECT cfstore.create_column_family('twissandra', 'Composite1', comparator => 'CompositeType(UTF8Type, LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'DoubleType');
SELECT cfstore.insert('twissandra', 'Composite1', 'b1', 'floor1:3', 21.5::float8);
SELECT cfstore.cql($$SELECT * FROM "Composite1" WHERE key = 'b1'$$, 'twissandra');
-- seed 002's buildingControl: made with a composite comparator, seen as a
-- compact table; naming its key and first four components (RENAME) makes it
-- a sparse table whose columns ALTER TABLE ADD gives
SELECT cfstore.create_column_family('twissandra', 'buildingControl', key_validation_class => 'IntegerType',
         comparator => 'CompositeType(UTF8Type, IntegerType, IntegerType, LongType, UTF8Type)',
         default_validation_class => 'DoubleType');
SELECT cfstore.insert('twissandra', 'buildingControl', 20130421, 'Los Angeles:2658:295016:1361237156:temp', 71.2::float8);
SELECT cfstore.insert('twissandra', 'buildingControl', 20130421, 'Los Angeles:2658:295016:1361237156:humidity', 30.7::float8);
SELECT cfstore.cql($$SELECT * FROM "buildingControl"$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" RENAME key TO day AND column1 TO city AND column2 TO buildingID
                     AND column3 TO sensorID AND column4 TO time$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" ADD temp double$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" ADD humidity double$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM "buildingControl" WHERE day = 20130421 AND city = 'Los Angeles'$$, 'twissandra');
SELECT * FROM twissandra."buildingControl";
SELECT cfstore.cql($$ALTER TABLE "buildingControl" RENAME temp TO t$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" RENAME day TO city$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" RENAME nope TO x$$, 'twissandra');
SELECT cfstore.create_column_family('twissandra', 'Super1', column_type => 'Super');
SELECT cfstore.cql($$SELECT * FROM "Super1"$$, 'twissandra');

-- types and literals
SELECT cfstore.cql($$CREATE TABLE typed (k int PRIMARY KEY, b blob, f float, d decimal, u uuid, t timeuuid, a ascii, l bigint)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, b, f, d, u, a, l) VALUES (-1, 0xCAFE, 1.5, -12.50, 00000000-0000-4000-8000-000000000000, 'x', -9223372036854775808)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, t) VALUES (2, minTimeuuid('2013-01-01 00:00+0000'))$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, t, b) VALUES (3, now(), textAsBlob('hi'))$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM typed WHERE k = -1$$, 'twissandra');
SELECT cfstore.cql($$SELECT t FROM typed WHERE k = 2$$, 'twissandra');
SELECT cfstore.cql($$SELECT b FROM typed WHERE k = 3$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, f) VALUES ('1', 1.5)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, f) VALUES (1, 'x')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, l) VALUES (1, 1.5)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, u) VALUES (1, now())$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, b) VALUES (1, 0xABC)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, t) VALUES (1, 00000000-0000-4000-8000-000000000000)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO typed (k, a) VALUES (1, foo(2))$$, 'twissandra');

-- bad input: syntax, names, restrictions; none of them writes anything
SELECT cfstore.cql($$SELECT * FROM tweets WHERE$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, author) VALUES (1776a000-0000-1000-8000-000000000000, 'x'$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets; SELECT * FROM tweets$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets @$$, 'twissandra');
SELECT cfstore.cql($$UPDATE tweets SET author = 'a'$$, 'twissandra');
SELECT cfstore.cql($$SELECT COUNT(2) FROM tweets$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets$$);
SELECT cfstore.cql($$SELECT * FROM nope$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM nope.tweets$$);
SELECT cfstore.cql($$SELECT nope FROM tweets$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets WHERE nope = 1$$, 'twissandra');
SELECT cfstore.cql($$SELECT writetime(tweet_id) FROM tweets$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM tweets LIMIT 0$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id = 'gmason' ORDER BY author$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline ORDER BY tweet_id$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM events WHERE site = 'a' AND day = 1 ORDER BY seq$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM events WHERE site = 'a' AND day = 1 ORDER BY at, seq DESC$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM events WHERE site = 'a'$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM events WHERE site = 'a' AND day = 1 AND seq = 1$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM events WHERE site = 'a' AND day = 1 AND at IN ('2013-06-10 11:00+0000', '2013-06-10 10:00+0000')$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM events WHERE site IN ('a', 'b') AND day = 1$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline WHERE tweet_id = 1765a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id > 'a'$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id = 'a' AND user_id = 'b'$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id = 'a' AND tweet_id > 1765a000-0000-1000-8000-000000000000 AND tweet_id < 1742a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM stats WHERE k = 'x' AND v = 1$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (author) VALUES ('x')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, nope) VALUES (1776a000-0000-1000-8000-000000000000, 'x')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, author, author) VALUES (1776a000-0000-1000-8000-000000000000, 'x', 'y')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, author) VALUES (1776a000-0000-1000-8000-000000000000)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO timeline (user_id, author) VALUES ('x', 'y')$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO timeline (user_id, tweet_id) VALUES ('', 1765a000-0000-1000-8000-000000000000)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, author) VALUES (1776a000-0000-1000-8000-000000000000, 'x') USING TTL -1$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO tweets (tweet_id, author) VALUES (1776a000-0000-1000-8000-000000000000, 'x') USING TTL 630720001$$, 'twissandra');
SELECT cfstore.cql($$UPDATE tweets SET tweet_id = 1776a000-0000-1000-8000-000000000000 WHERE tweet_id = 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$UPDATE tweets SET author = author + 'x' WHERE tweet_id = 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$UPDATE tweets SET author = 'a' WHERE author = 'b'$$, 'twissandra');
SELECT cfstore.cql($$UPDATE tweets SET author = 'a' WHERE tweet_id > 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$UPDATE timeline SET author = 'a' WHERE user_id = 'x'$$, 'twissandra');
SELECT cfstore.cql($$DELETE tweet_id FROM tweets WHERE tweet_id = 1776a000-0000-1000-8000-000000000000$$, 'twissandra');
SELECT cfstore.cql($$DELETE author FROM timeline WHERE user_id = 'x'$$, 'twissandra');
SELECT cfstore.cql($$DELETE FROM events WHERE site = 'a' AND day = 1 AND seq = 1$$, 'twissandra');
SELECT cfstore.cql($$USE twissandra$$);
SELECT cfstore.cql(NULL);
-- an empty IN list is a syntax error, as in Cassandra 1.2's grammar
SELECT cfstore.cql($$SELECT * FROM timeline WHERE user_id IN ()$$, 'twissandra');
-- nesting deeper than the stack allows is an error, not a crash
SELECT cfstore.cql('SELECT * FROM timeline WHERE user_id = ' || repeat('f(', 200000), 'twissandra');
-- a long dotted property name takes linear time (and the statement timeout holds)
SET statement_timeout = '20s';
DO $$
BEGIN
  PERFORM cfstore.cql('CREATE KEYSPACE zz WITH a' || repeat(':a', 60000) || ' = 1');
EXCEPTION WHEN invalid_parameter_value OR syntax_error OR feature_not_supported THEN
  RAISE NOTICE '%...', left(SQLERRM, 30);
END $$;
RESET statement_timeout;

-- CREATE TABLE errors
SELECT cfstore.cql($$CREATE TABLE t (k int, v int)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY, v int PRIMARY KEY)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY, k text)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int, v int, PRIMARY KEY (k, nope))$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int, c int, v int, w int, PRIMARY KEY (k, c)) WITH COMPACT STORAGE$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int, v int, PRIMARY KEY (k, k))$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY) WITH COMPACT STORAGE$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k counter PRIMARY KEY, v int)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (v DESC)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int, c int, d int, v int, PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (d DESC, c ASC)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY, v int) WITH nope = 1$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY, v int) WITH gc_grace_seconds = 'x'$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY, v nope)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY, v list<int>)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE tweets (k int PRIMARY KEY, v int)$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE "a-b" (k int PRIMARY KEY, v int)$$, 'twissandra');
SELECT count(*) AS tables FROM cfstore.column_family WHERE keyspace = 'twissandra';
-- a table of only a primary key: its rows are their markers
SELECT cfstore.cql($$CREATE TABLE t (k int PRIMARY KEY)$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO t (k) VALUES (1)$$, 'twissandra');
SELECT column_name, value FROM cfstore.get_slice('twissandra', 't', 1);
SELECT cfstore.cql($$SELECT * FROM t$$, 'twissandra');

-- WITH compression: the column family's compression_options
SELECT cfstore.cql($$CREATE TABLE docs (id text PRIMARY KEY, body text)
  WITH compression = {'sstable_compression': 'LZ4Compressor', 'chunk_length_kb': 64}$$, 'twissandra');
SELECT cfstore.cql($$INSERT INTO docs (id, body) VALUES ('d1', 'a document that is long enough to be compressed, and it is')$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM docs$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE docs WITH compression = {'sstable_compression': 'DeflateCompressor'}$$, 'twissandra');
SELECT compression_options, compression FROM cfstore.column_family WHERE name = 'docs';
SELECT cfstore.cql($$ALTER TABLE docs WITH compression = {'chunk_length_kb': 64}$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE docs WITH compression = 'LZ4Compressor'$$, 'twissandra');
SELECT cfstore.cql($$CREATE TABLE docs2 (id text PRIMARY KEY) WITH compression = {'sstable_compression': 'ZipCompressor'}$$, 'twissandra');
SELECT cfstore.cql($$ALTER TABLE docs WITH compression = {}$$, 'twissandra');
SELECT compression_options, compression FROM cfstore.column_family WHERE name = 'docs';

-- TRUNCATE, DROP TABLE, DROP KEYSPACE
SELECT cfstore.cql($$TRUNCATE stats$$, 'twissandra');
SELECT cfstore.cql($$SELECT * FROM stats$$, 'twissandra');
SELECT cfstore.cql($$DROP TABLE stats$$, 'twissandra');
SELECT cfstore.cql($$DROP TABLE stats$$, 'twissandra');
DROP FOREIGN TABLE dynamic_rows, static_rows, bad_rows;
SELECT cfstore.cql($$DROP KEYSPACE twissandra$$);
SELECT count(*) FROM cfstore.keyspace;
