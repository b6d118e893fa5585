-- Reading column families through cfstore_fdw: what the planner pushes into
-- the storage engine (key = const, key = $1 in a generic plan, key = ANY,
-- column ranges, ORDER BY ... DESC LIMIT, composite prefixes, nested-loop
-- probes), what it must not push (orders the comparator does not share),
-- and that the rows are the function API's.
\set VERBOSITY terse
SET search_path = public, cfstore;

SELECT cfstore.create_keyspace('FdwScan');
CREATE SCHEMA fdw_scan;
-- a timeline: 200 rows x 20 TimeUUID columns, arriving interleaved
SELECT cfstore.create_column_family('FdwScan', 'Userline', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('FdwScan', 'Userline') AS userline_rel \gset
-- EXPLAIN ANALYZE below pins the pages a slice touches: no autovacuum may
-- compact the leaves while they are loaded (a slow server leaves it time to)
ALTER TABLE :userline_rel SET (autovacuum_enabled = off);
SELECT count(cfstore.insert('FdwScan', 'Userline', 'user' || (i % 200),
                            cfstore.min_timeuuid('2020-01-01 UTC'::timestamptz + i * interval '1 second'),
                            'tweet ' || i, writetime => i))
  FROM generate_series(0, 3999) i;
CREATE FOREIGN TABLE fdw_scan.userline (key text COLLATE "C" NOT NULL, column_name cfstore.timeuuid NOT NULL,
    value text COLLATE "C", writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Userline');
-- composite names: (UTF8Type, LongType)
SELECT cfstore.create_column_family('FdwScan', 'Readings', comparator => 'CompositeType(UTF8Type, LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('FdwScan', 'Readings', 'hvac' || (i % 3), ROW('sensor' || (i % 4), i)::record,
                            'r' || i, writetime => i))
  FROM generate_series(1, 120) i;
CREATE FOREIGN TABLE fdw_scan.readings (key text COLLATE "C" NOT NULL, column1 text COLLATE "C" NOT NULL,
    column2 bigint NOT NULL, value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Readings');
-- orders SQL does not share: LexicalUUIDType, DateType, ReversedType
SELECT cfstore.create_column_family('FdwScan', 'Lexical', comparator => 'LexicalUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.insert('FdwScan', 'Lexical', 'k', u::uuid, 'v' || n, writetime => 1)
  FROM (VALUES (1, '00000000-0000-0000-0000-000000000001'), (2, 'ffffffff-0000-0000-0000-000000000001'),
               (3, '7fffffff-0000-0000-0000-000000000001')) v(n, u);
CREATE FOREIGN TABLE fdw_scan.lexical (key text COLLATE "C", column_name uuid, value text)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Lexical');
SELECT cfstore.create_column_family('FdwScan', 'Dates', comparator => 'DateType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.insert('FdwScan', 'Dates', 'k', d::timestamptz, 'v', writetime => 1)
  FROM (VALUES ('1960-01-01 UTC'), ('1980-01-01 UTC'), ('2020-01-01 UTC')) v(d);
CREATE FOREIGN TABLE fdw_scan.dates (key text COLLATE "C", column_name timestamptz, value text)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Dates');
SELECT cfstore.create_column_family('FdwScan', 'Rev', comparator => 'ReversedType(LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('FdwScan', 'Rev', 'k', n::bigint, 'v' || n, writetime => 1)) FROM generate_series(1, 5) n;
CREATE FOREIGN TABLE fdw_scan.rev (key text COLLATE "C", column_name bigint, value text)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Rev');
-- a Super column family
SELECT cfstore.create_column_family('FdwScan', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'LongType', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('FdwScan', 'Sup', 'k' || r, c::bigint, 'v' || r || s || c, super_column => 's' || s,
                            writetime => 1))
  FROM generate_series(1, 2) r, generate_series(1, 3) s, generate_series(1, 4) c;
CREATE FOREIGN TABLE fdw_scan.sup (key text COLLATE "C", super_column text COLLATE "C", column_name bigint,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Sup');

-- key = const
EXPLAIN (VERBOSE, COSTS OFF)
SELECT column_name, value FROM fdw_scan.userline WHERE key = 'user7';
SELECT count(*), min(value), max(value) FROM fdw_scan.userline WHERE key = 'user7';
-- the same cells as get_slice, in the same order
SELECT (SELECT array_agg(value) FROM fdw_scan.userline WHERE key = 'user7')
     = (SELECT array_agg(value) FROM cfstore.get_slice('FdwScan', 'Userline', 'user7', count => 1000));

-- key = $1 in a prepared statement: the generic plan still pushes the key
PREPARE latest(text) AS
  SELECT column_name, value FROM fdw_scan.userline WHERE key = $1 ORDER BY column_name DESC LIMIT 10;
EXECUTE latest('user1');
EXECUTE latest('user2');
EXECUTE latest('user3');
EXECUTE latest('user4');
EXECUTE latest('user5');
EXECUTE latest('user6');
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE latest('user6');
EXECUTE latest('user6');
EXECUTE latest('nobody');
DEALLOCATE latest;

-- key = ANY: one slice per distinct key, in key order
EXPLAIN (VERBOSE, COSTS OFF)
SELECT key, count(*) FROM fdw_scan.userline WHERE key = ANY (ARRAY['user3', 'user1', 'user3', NULL, 'nobody'])
 GROUP BY key;
SELECT key, count(*) FROM fdw_scan.userline WHERE key = ANY (ARRAY['user3', 'user1', 'user3', NULL, 'nobody'])
 GROUP BY key ORDER BY key;
SELECT key, count(*) FROM fdw_scan.userline WHERE key IN ('user9', 'user8') GROUP BY key ORDER BY key;

-- a column range, bounds exclusive and inclusive
EXPLAIN (VERBOSE, COSTS OFF)
SELECT value FROM fdw_scan.userline
 WHERE key = 'user0' AND column_name > min_timeuuid('2020-01-01 00:10 UTC')
   AND column_name <= min_timeuuid('2020-01-01 00:20 UTC');
SELECT value FROM fdw_scan.userline
 WHERE key = 'user0' AND column_name > min_timeuuid('2020-01-01 00:10 UTC')
   AND column_name <= min_timeuuid('2020-01-01 00:20 UTC');
-- the bound itself: > excludes it, >= includes it, an empty range reads nothing
SELECT count(*) FROM fdw_scan.userline WHERE key = 'user0' AND column_name > min_timeuuid('2020-01-01 00:10 UTC');
SELECT count(*) FROM fdw_scan.userline WHERE key = 'user0' AND column_name >= min_timeuuid('2020-01-01 00:10 UTC');
SELECT count(*) FROM fdw_scan.userline
 WHERE key = 'user0' AND column_name > min_timeuuid('2020-01-01 00:20 UTC')
   AND column_name < min_timeuuid('2020-01-01 00:10 UTC');
SELECT count(*) FROM fdw_scan.userline WHERE key = 'user0' AND column_name = min_timeuuid('2020-01-01 00:10 UTC');
-- a range without a key: every row sliced
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM fdw_scan.userline WHERE column_name >= min_timeuuid('2020-01-01 01:06 UTC');
SELECT count(*) FROM fdw_scan.userline WHERE column_name >= min_timeuuid('2020-01-01 01:06 UTC');

-- latest 10: ORDER BY column_name DESC LIMIT 10 is a backward slice of 10
EXPLAIN (VERBOSE, COSTS OFF)
SELECT column_name, value FROM fdw_scan.userline WHERE key = 'user42' ORDER BY column_name DESC LIMIT 10;
SELECT value FROM fdw_scan.userline WHERE key = 'user42' ORDER BY column_name DESC LIMIT 10;
-- a local condition keeps LIMIT out of the engine (the order is still pushed)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT value FROM fdw_scan.userline WHERE key = 'user42' AND value LIKE '%2' ORDER BY column_name DESC LIMIT 3;
SELECT value FROM fdw_scan.userline WHERE key = 'user42' AND value LIKE '%2' ORDER BY column_name DESC LIMIT 3;
-- ascending order is the storage order, also across rows
EXPLAIN (VERBOSE, COSTS OFF)
SELECT key, value FROM fdw_scan.userline WHERE key IN ('user5', 'user4') ORDER BY key, column_name LIMIT 3;
SELECT key, value FROM fdw_scan.userline WHERE key IN ('user5', 'user4') ORDER BY key, column_name LIMIT 3;

-- composite names: equality on column1, a range on column2
EXPLAIN (VERBOSE, COSTS OFF)
SELECT column1, column2, value FROM fdw_scan.readings
 WHERE key = 'hvac1' AND column1 = 'sensor2' AND column2 > 20 AND column2 <= 70;
SELECT column1, column2, value FROM fdw_scan.readings
 WHERE key = 'hvac1' AND column1 = 'sensor2' AND column2 > 20 AND column2 <= 70;
-- a prefix alone, and a range on column1 alone
SELECT count(*) FROM fdw_scan.readings WHERE key = 'hvac0' AND column1 = 'sensor3';
SELECT count(*) FROM fdw_scan.readings WHERE key = 'hvac0' AND column1 >= 'sensor1' AND column1 < 'sensor3';
-- a range on column2 without column1 stays local
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM fdw_scan.readings WHERE key = 'hvac0' AND column2 < 10;
SELECT count(*) FROM fdw_scan.readings WHERE key = 'hvac0' AND column2 < 10;
-- DESC over the components of one row
SELECT column1, column2 FROM fdw_scan.readings WHERE key = 'hvac2' ORDER BY column1 DESC, column2 DESC LIMIT 4;

-- Super column family: super_column = const and a subcolumn range
EXPLAIN (VERBOSE, COSTS OFF)
SELECT super_column, column_name, value FROM fdw_scan.sup WHERE key = 'k2' AND super_column = 's2' AND column_name >= 3;
SELECT super_column, column_name, value FROM fdw_scan.sup WHERE key = 'k2' AND super_column = 's2' AND column_name >= 3;
SELECT super_column, column_name, value FROM fdw_scan.sup WHERE key = 'k1' ORDER BY super_column, column_name LIMIT 5;

-- nested loop: one probe of the row key per outer row
CREATE TABLE fdw_scan.users (name text COLLATE "C" PRIMARY KEY, active boolean);
INSERT INTO fdw_scan.users SELECT 'user' || i, i % 2 = 0 FROM generate_series(0, 399) i;
ANALYZE fdw_scan.users;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, l.value FROM fdw_scan.users u JOIN fdw_scan.userline l ON l.key = u.name
 WHERE u.name IN ('user10', 'user11', 'user999');
SELECT u.name, count(l.value) FROM fdw_scan.users u JOIN fdw_scan.userline l ON l.key = u.name
 WHERE u.name IN ('user10', 'user11', 'user999') GROUP BY u.name ORDER BY u.name;
-- the latest 2 of each of several users (LATERAL: a parameter per outer row)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, l.value FROM fdw_scan.users u
  CROSS JOIN LATERAL (SELECT value FROM fdw_scan.userline WHERE key = u.name
                      ORDER BY column_name DESC LIMIT 2) l
 WHERE u.name < 'user102';
SELECT u.name, l.value FROM fdw_scan.users u
  CROSS JOIN LATERAL (SELECT value FROM fdw_scan.userline WHERE key = u.name
                      ORDER BY column_name DESC LIMIT 2) l
 WHERE u.name < 'user102' ORDER BY 1, 2;

-- must NOT push: orders the comparator does not share
-- LexicalUUIDType compares the halves as signed numbers, uuid bytewise
EXPLAIN (VERBOSE, COSTS OFF) SELECT column_name FROM fdw_scan.lexical WHERE key = 'k' ORDER BY column_name;
SELECT column_name FROM fdw_scan.lexical WHERE key = 'k' ORDER BY column_name;
SELECT column_name FROM cfstore.get_slice('FdwScan', 'Lexical', 'k');
EXPLAIN (VERBOSE, COSTS OFF)
SELECT column_name FROM fdw_scan.lexical WHERE key = 'k' AND column_name > '10000000-0000-0000-0000-000000000000';
SELECT column_name FROM fdw_scan.lexical WHERE key = 'k' AND column_name > '10000000-0000-0000-0000-000000000000';
-- DateType sorts dates before 1970 last
EXPLAIN (VERBOSE, COSTS OFF) SELECT column_name FROM fdw_scan.dates WHERE key = 'k' ORDER BY column_name DESC LIMIT 2;
SELECT column_name FROM fdw_scan.dates WHERE key = 'k' ORDER BY column_name DESC LIMIT 2;
-- ReversedType: storage order is descending, so ascending SQL order is a backward slice
EXPLAIN (VERBOSE, COSTS OFF) SELECT column_name FROM fdw_scan.rev WHERE key = 'k' ORDER BY column_name LIMIT 2;
SELECT column_name FROM fdw_scan.rev WHERE key = 'k' ORDER BY column_name LIMIT 2;
-- text under another collation than "C", an operator of another family
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM fdw_scan.readings WHERE key = 'hvac0' AND column1 > 'sensor1' COLLATE "und-x-icu";
EXPLAIN (VERBOSE, COSTS OFF)
SELECT count(*) FROM fdw_scan.userline WHERE key LIKE 'user1%';
SELECT count(*) FROM fdw_scan.userline WHERE key LIKE 'user1%';

-- EXPLAIN ANALYZE reports the cells read and the pages touched
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT value FROM fdw_scan.userline WHERE key = 'user42' ORDER BY column_name DESC LIMIT 10;

-- a cursor moving backwards over a pushed scan, and a rescan
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT value FROM fdw_scan.userline WHERE key = 'user3' ORDER BY column_name LIMIT 3;
FETCH ALL FROM c;
FETCH BACKWARD 2 FROM c;
COMMIT;

-- the table map: unknown columns and missing options are errors
CREATE FOREIGN TABLE fdw_scan.bad (key text, column_name text, colour text)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Userline');
SELECT * FROM fdw_scan.bad;
CREATE FOREIGN TABLE fdw_scan.noname (key text)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Userline');
SELECT * FROM fdw_scan.noname;
CREATE FOREIGN TABLE fdw_scan.noopt (key text, column_name text) SERVER cfstore;
SELECT * FROM fdw_scan.noopt;
CREATE FOREIGN TABLE fdw_scan.badopt (key text) SERVER cfstore OPTIONS (keyspace 'FdwScan', colour 'red');
CREATE FOREIGN TABLE fdw_scan.nocf (key text, column_name text)
  SERVER cfstore OPTIONS (keyspace 'FdwScan', column_family 'Nope');
SELECT * FROM fdw_scan.nocf;

-- Row estimates: a row's cells are the cells over the distinct row keys that
-- ANALYZE of the storage relation counted (before any, 100 are assumed)
SELECT cfstore.create_column_family('FdwScan', 'Est', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
INSERT INTO "FdwScan"."Est" (key, column_name, value)
  SELECT 'k' || (i % 3), 'c' || i, 'v' FROM generate_series(1, 600) i;
DO $$ BEGIN EXECUTE format('ANALYZE %s', cfstore._storage_relation('FdwScan', 'Est')); END $$;
CREATE FUNCTION pg_temp.plan_rows(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  j json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
  RETURN (j -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
SELECT pg_temp.plan_rows($$SELECT * FROM "FdwScan"."Est" WHERE key = 'k1'$$) AS one_key,
       pg_temp.plan_rows($$SELECT * FROM "FdwScan"."Est" WHERE key = ANY ('{k1,k2}')$$) AS two_keys,
       pg_temp.plan_rows($$SELECT * FROM "FdwScan"."Est"$$) AS all_rows;

-- conditions on a cell's value, writetime and ttl stay filters: they are
-- no part of a key or a name (writetime and ttl have no Cassandra type)
EXPLAIN (COSTS OFF) SELECT column_name FROM fdw_scan.userline WHERE key = 'user7' AND writetime = 1407;
SELECT value, writetime FROM fdw_scan.userline WHERE key = 'user7' AND writetime = 1407;
SELECT count(*) FROM fdw_scan.userline WHERE writetime > 3990 AND ttl IS NULL AND value <> 'x';
SELECT count(*) FROM fdw_scan.userline WHERE ttl = 1 OR ttl > 0 OR ttl IN (1, 2);
SELECT count(*) FROM fdw_scan.readings r JOIN fdw_scan.userline u ON u.writetime = r.writetime WHERE r.key = 'hvac1';
PREPARE wt(bigint) AS SELECT value FROM fdw_scan.userline WHERE writetime = $1 AND key = 'user0';
EXECUTE wt(200);
DEALLOCATE wt;

-- every column family written here verifies
SELECT name, cfstore.verify(keyspace, name) FROM cfstore.column_family WHERE keyspace = 'FdwScan' ORDER BY name;

DROP SCHEMA fdw_scan CASCADE;
SELECT cfstore.drop_keyspace('FdwScan');
