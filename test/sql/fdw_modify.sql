-- Writing through cfstore foreign tables (README.md "Foreign tables"): INSERT is an
-- upsert by timestamp, UPDATE writes a new version (and moves a cell whose
-- address changes), DELETE writes tombstones, a counter's INSERT and
-- UPDATE add, COPY FROM and INSERT ... SELECT are batched, TRUNCATE is
-- cfstore.truncate.  Every write goes through the function API's write
-- path, so the function API reads back exactly what the foreign table
-- shows (doc/semantics.md §4-§7).  The foreign tables live in a
-- schema of their own.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('FdwMod');
SELECT cfstore.create_column_family('FdwMod', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('FdwMod', 'Ttl', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         default_time_to_live => 1000);
SELECT cfstore.create_column_family('FdwMod', 'Longs', comparator => 'LongType',
         key_validation_class => 'LongType', default_validation_class => 'LongType');
SELECT cfstore.create_column_family('FdwMod', 'Cnt', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('FdwMod', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'LongType', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('FdwMod', 'Comp', comparator => 'CompositeType(UTF8Type, LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('FdwMod', 'Comp3', comparator => 'CompositeType(UTF8Type, LongType, LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('FdwMod', 'Idx', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');

CREATE SCHEMA fdwmod;
CREATE FOREIGN TABLE fdwmod.std (key text COLLATE "C", column_name text COLLATE "C", value text,
    writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Std');
CREATE FOREIGN TABLE fdwmod.ttl (key text COLLATE "C", column_name text COLLATE "C", value text,
    writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Ttl');
CREATE FOREIGN TABLE fdwmod.longs (key bigint, column_name bigint, value bigint, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Longs');
CREATE FOREIGN TABLE fdwmod.cnt (key text COLLATE "C", column_name text COLLATE "C", value bigint)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Cnt');
CREATE FOREIGN TABLE fdwmod.sup (key text COLLATE "C", super_column text COLLATE "C", column_name bigint,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Sup');
CREATE FOREIGN TABLE fdwmod.comp (key text COLLATE "C", column1 text COLLATE "C", column2 bigint,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Comp');
CREATE FOREIGN TABLE fdwmod.comp3 (key text COLLATE "C", column1 text COLLATE "C", column2 bigint,
    column3 bigint, value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Comp3');
CREATE FOREIGN TABLE fdwmod.idx (key text COLLATE "C", column_name text COLLATE "C", value text,
    writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Idx');

-- ---------------------------------------------------------------------------
-- 1. INSERT, read back through the foreign table and the function API
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'va', 10, NULL), ('k1', 'b', 'vb', 10, 5000),
  ('k2', 'a', 'other row', 20, NULL);
INSERT INTO fdwmod.std (key, column_name, value, writetime) VALUES ('k0', 'z', 'first key', 1);
SELECT * FROM fdwmod.std;
SELECT * FROM cfstore.get_slice('FdwMod', 'Std', 'k1');
SELECT * FROM cfstore.get('FdwMod', 'Std', 'k0', 'z');
-- the two views agree cell for cell
SELECT count(*) AS only_in_table FROM (
  SELECT key, column_name, value, writetime, ttl FROM fdwmod.std
  EXCEPT ALL
  SELECT key, column_name, value, writetime, ttl FROM cfstore.get_range_slices('FdwMod', 'Std')) d;
SELECT count(*) AS only_in_api FROM (
  SELECT key, column_name, value, writetime, ttl FROM cfstore.get_range_slices('FdwMod', 'Std')
  EXCEPT ALL
  SELECT key, column_name, value, writetime, ttl FROM fdwmod.std) d;

-- the default writetime is now, in microseconds; RETURNING shows what was written
INSERT INTO fdwmod.std (key, column_name, value) VALUES ('now', 'c', 'default ts')
  RETURNING key, column_name, value,
            abs(writetime - (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) < 60000000 AS about_now,
            ttl;
SELECT column_name, value,
       abs(writetime - (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) < 60000000 AS about_now
  FROM cfstore.get('FdwMod', 'Std', 'now', 'c');
INSERT INTO fdwmod.std VALUES ('ret', 'c', 'v', 7, 60) RETURNING *;
INSERT INTO fdwmod.std VALUES ('ret', 'd', 'v', 7) RETURNING column_name, writetime, ttl;

-- ---------------------------------------------------------------------------
-- 2. Last write wins (doc/semantics.md §4): an older timestamp loses, a bigger
--    value wins a tie, a newer timestamp wins
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'older', 9);
SELECT value, writetime FROM fdwmod.std WHERE key = 'k1' AND column_name = 'a';
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'vA tie smaller', 10);
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'vz tie bigger', 10);
SELECT value, writetime FROM fdwmod.std WHERE key = 'k1' AND column_name = 'a';
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'newer', 11);
SELECT value, writetime FROM fdwmod.std WHERE key = 'k1' AND column_name = 'a';
SELECT value, writetime FROM cfstore.get('FdwMod', 'Std', 'k1', 'a');
-- two versions in one statement: timestamps decide, not the order
INSERT INTO fdwmod.std VALUES ('k1', 'c', 'later', 30), ('k1', 'c', 'earlier', 29);
SELECT value, writetime FROM fdwmod.std WHERE key = 'k1' AND column_name = 'c';

-- ---------------------------------------------------------------------------
-- 3. TTL (doc/semantics.md §6): the ttl written shows; NULL is the column family's
--    default_time_to_live; an expired column is gone
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.ttl VALUES ('k', 'default', 'v', 10, NULL), ('k', 'explicit', 'v', 10, 5000),
  ('k', 'short', 'gone soon', 10, 1);
SELECT * FROM fdwmod.ttl;
SELECT * FROM cfstore.get_slice('FdwMod', 'Ttl', 'k');
INSERT INTO fdwmod.ttl VALUES ('k', 'returned', 'v', 10) RETURNING ttl;
INSERT INTO fdwmod.std VALUES ('ttl', 'short', 'gone soon', 10, 1), ('ttl', 'plain', 'stays', 10, NULL);
SELECT pg_sleep(2.1);
SELECT column_name, value, ttl FROM fdwmod.ttl;
SELECT column_name, value, ttl FROM fdwmod.std WHERE key = 'ttl';
SELECT count(*) FROM cfstore.get_slice('FdwMod', 'Std', 'ttl');
INSERT INTO fdwmod.std VALUES ('ttl', 'bad', 'v', 10, 0);
INSERT INTO fdwmod.std VALUES ('ttl', 'bad', 'v', 10, -5);
INSERT INTO fdwmod.std VALUES ('ttl', 'bad', 'v', 10, 630720001);

-- ---------------------------------------------------------------------------
-- 4. UPDATE: a new version at now (or at the writetime the SET list
--    gives); the ttl is the SET list's or the default, as for an INSERT
-- ---------------------------------------------------------------------------
UPDATE fdwmod.std SET value = 'updated' WHERE key = 'k1' AND column_name = 'b'
  RETURNING key, column_name, value, writetime > 1000000000000000 AS now_ts, ttl;
SELECT value, writetime > 1000000000000000 AS now_ts, ttl FROM cfstore.get('FdwMod', 'Std', 'k1', 'b');
UPDATE fdwmod.std SET value = 'at 100', writetime = 100, ttl = 7000 WHERE key = 'k2' AND column_name = 'a'
  RETURNING *;
SELECT * FROM cfstore.get('FdwMod', 'Std', 'k2', 'a');
-- an older writetime loses to the version there
UPDATE fdwmod.std SET value = 'at 50', writetime = 50 WHERE key = 'k2' AND column_name = 'a';
SELECT value, writetime FROM fdwmod.std WHERE key = 'k2';
-- SET writetime = NULL is now
UPDATE fdwmod.std SET writetime = NULL WHERE key = 'k2' AND column_name = 'a'
  RETURNING value, writetime > 1000000000000000 AS now_ts;
-- an UPDATE of several cells of several rows
UPDATE fdwmod.std SET value = value || '!', writetime = writetime + 1000 WHERE key IN ('k0', 'ret');
SELECT key, column_name, value, writetime FROM fdwmod.std WHERE key IN ('k0', 'ret');
-- the row identity is the cell's address, not ctid
EXPLAIN (VERBOSE, COSTS OFF) UPDATE fdwmod.std SET value = 'x' WHERE key = 'k1';
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM fdwmod.std WHERE key = 'k1';

-- changing the name moves the cell: a tombstone of the old one, the new
-- one at the same timestamp
UPDATE fdwmod.std SET column_name = 'moved', writetime = 200 WHERE key = 'k1' AND column_name = 'c'
  RETURNING *;
SELECT column_name, value, writetime FROM fdwmod.std WHERE key = 'k1' AND column_name <> 'b';
SELECT column_name, value, writetime FROM cfstore.get_slice('FdwMod', 'Std', 'k1') WHERE column_name <> 'b';
-- the old cell's tombstone is at 200: older versions stay hidden
INSERT INTO fdwmod.std VALUES ('k1', 'c', 'older than the move', 150);
SELECT count(*) FROM cfstore.get('FdwMod', 'Std', 'k1', 'c');
-- changing the key moves it to another row
UPDATE fdwmod.std SET key = 'k3' WHERE key = 'k1' AND column_name = 'moved';
SELECT key, column_name, value FROM fdwmod.std WHERE key IN ('k1', 'k3');
SELECT key, column_name, value FROM cfstore.multiget_slice('FdwMod', 'Std', ARRAY['k1', 'k3']);

-- ---------------------------------------------------------------------------
-- 5. DELETE: column tombstones at now (doc/semantics.md §5)
-- ---------------------------------------------------------------------------
DELETE FROM fdwmod.std WHERE key = 'k1' AND column_name = 'a' RETURNING *;
SELECT column_name FROM fdwmod.std WHERE key = 'k1';
SELECT count(*) FROM cfstore.get('FdwMod', 'Std', 'k1', 'a');
-- a later write with an older timestamp stays hidden; a newer one resurrects
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'older than the tombstone', 12);
SELECT count(*) FROM fdwmod.std WHERE key = 'k1' AND column_name = 'a';
INSERT INTO fdwmod.std VALUES ('k1', 'a', 'resurrected', 4000000000000000);
SELECT column_name, value FROM fdwmod.std WHERE key = 'k1' AND column_name = 'a';
-- a DELETE of several rows
DELETE FROM fdwmod.std WHERE column_name = 'c';
SELECT key, column_name FROM fdwmod.std;
SELECT cfstore.verify('FdwMod', 'Std');
SELECT cfstore.verify('FdwMod', 'Ttl');

-- ---------------------------------------------------------------------------
-- 6. Counters (doc/semantics.md §7): INSERT adds its value, UPDATE adds the
--    change (new - old), DELETE is remove_counter
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.cnt VALUES ('k', 'hits', 5), ('k', 'misses', 0);
INSERT INTO fdwmod.cnt VALUES ('k', 'hits', 2);
SELECT * FROM fdwmod.cnt;
UPDATE fdwmod.cnt SET value = value + 10 WHERE key = 'k' AND column_name = 'hits';
UPDATE fdwmod.cnt SET value = value + 10 WHERE key = 'k' AND column_name = 'hits' RETURNING *;
SELECT * FROM cfstore.get('FdwMod', 'Cnt', 'k', 'hits');
UPDATE fdwmod.cnt SET value = value - 3;
SELECT * FROM fdwmod.cnt;
SELECT * FROM cfstore.get_slice('FdwMod', 'Cnt', 'k');
-- an increment made after the UPDATE read the counter (here by the
-- statement itself, in a condition checked after the row was read) is
-- kept: the UPDATE adds new - old, it does not set the total
UPDATE fdwmod.cnt SET value = value + 1
 WHERE key = 'k' AND column_name = 'hits' AND cfstore.add('FdwMod', 'Cnt', 'k', 'hits', 1000) IS NOT NULL
 RETURNING value;
SELECT value FROM fdwmod.cnt WHERE key = 'k' AND column_name = 'hits';
-- the change is added modulo 2^64, so the total set is exact even when
-- new - old does not fit in a bigint
INSERT INTO fdwmod.cnt VALUES ('w', 'c', -1);
UPDATE fdwmod.cnt SET value = 9223372036854775807 WHERE key = 'w' RETURNING value;
UPDATE fdwmod.cnt SET value = -9223372036854775808 WHERE key = 'w' RETURNING value;
SELECT value FROM cfstore.get('FdwMod', 'Cnt', 'w', 'c');
-- value - 1 overflows in SQL before cfstore sees it, as for any bigint
UPDATE fdwmod.cnt SET value = value - 1 WHERE key = 'w';
DELETE FROM fdwmod.cnt WHERE key = 'w';
-- a counter cannot move, and needs a value
UPDATE fdwmod.cnt SET column_name = 'renamed' WHERE column_name = 'hits';
INSERT INTO fdwmod.cnt VALUES ('k', 'hits', NULL);
DELETE FROM fdwmod.cnt WHERE column_name = 'misses';
SELECT * FROM fdwmod.cnt;
-- increments after a deletion start again from 0
INSERT INTO fdwmod.cnt VALUES ('k', 'misses', 4);
SELECT * FROM cfstore.get_slice('FdwMod', 'Cnt', 'k');
SELECT cfstore.verify('FdwMod', 'Cnt');

-- ---------------------------------------------------------------------------
-- 7. Super column families: the super column is part of the address
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.sup VALUES ('k', 'sc1', 1, 'one', 1), ('k', 'sc1', 2, 'two', 1), ('k', 'sc2', 1, 'other', 1);
INSERT INTO fdwmod.sup (key, column_name, value) VALUES ('k', 3, 'no super column');
SELECT * FROM fdwmod.sup;
SELECT * FROM cfstore.get_slice('FdwMod', 'Sup', 'k');
DELETE FROM fdwmod.sup WHERE key = 'k' AND super_column = 'sc1' AND column_name = 2;
SELECT * FROM cfstore.get_slice('FdwMod', 'Sup', 'k', super_column => 'sc1');
UPDATE fdwmod.sup SET super_column = 'sc3', writetime = 5 WHERE super_column = 'sc2'
  RETURNING key, super_column, column_name, value, writetime;
SELECT key, super_column, column_name, value, writetime FROM fdwmod.sup;
SELECT cfstore.verify('FdwMod', 'Sup');

-- ---------------------------------------------------------------------------
-- 8. Composite names: column1 .. columnN; trailing NULLs are a prefix
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.comp VALUES ('k', 'a', 1, 'a:1', 1), ('k', 'a', 2, 'a:2', 1), ('k', 'b', NULL, 'prefix b', 1),
  ('k', 'a', -1, 'a:-1', 1);
SELECT * FROM fdwmod.comp;
SELECT column_name, value FROM cfstore.get_slice('FdwMod', 'Comp', 'k');
SELECT column_name, value FROM cfstore.get('FdwMod', 'Comp', 'k', ROW('a', 2::bigint));
INSERT INTO fdwmod.comp VALUES ('k', NULL, 2, 'no first component', 1);
INSERT INTO fdwmod.comp VALUES ('k', NULL, NULL, 'no name', 1);
UPDATE fdwmod.comp SET column2 = 3, writetime = 2 WHERE column1 = 'a' AND column2 = 2;
DELETE FROM fdwmod.comp WHERE column1 = 'b';
SELECT column1, column2, value FROM fdwmod.comp;
SELECT column_name, value FROM cfstore.get_slice('FdwMod', 'Comp', 'k');
-- An empty LongType component reads as NULL, as a name that ends before it
-- does: the old row of an UPDATE or DELETE is the one of those cells that
-- is there, and a row that could be either is refused.  (Names as bytes:
-- each component is a 2-byte length, its bytes and an end-of-component byte.)
SELECT cfstore.insert('FdwMod', 'Comp', 'k2', '\x00016300'::bytea, 'prefix c', 1),
       cfstore.insert('FdwMod', 'Comp', 'k2', '\x00016300000000'::bytea, 'c, empty', 1),
       cfstore.insert('FdwMod', 'Comp', 'k2', '\x00016400000000'::bytea, 'd, empty', 1),
       cfstore.insert('FdwMod', 'Comp', 'k2', '\x00016500'::bytea, 'prefix e', 1);
SELECT column1, column2, value FROM fdwmod.comp WHERE key = 'k2';
DELETE FROM fdwmod.comp WHERE key = 'k2' AND column1 = 'd' RETURNING column1, column2, value;
UPDATE fdwmod.comp SET value = 'prefix e, updated' WHERE key = 'k2' AND column1 = 'e';
DELETE FROM fdwmod.comp WHERE key = 'k2' AND column1 = 'c';
UPDATE fdwmod.comp SET value = 'c?' WHERE key = 'k2' AND column1 = 'c';
SELECT column_name, value FROM cfstore.get_slice('FdwMod', 'Comp', 'k2');
-- a NULL before a given component is the empty component
INSERT INTO fdwmod.comp3 VALUES ('k', 'a', NULL, 5, 'a, empty, 5', 1);
SELECT column1, column2, column3, value FROM fdwmod.comp3;
SELECT column_name, value FROM cfstore.get_slice('FdwMod', 'Comp3', 'k');
DELETE FROM fdwmod.comp3 WHERE column3 = 5;
SELECT count(*) FROM cfstore.get_slice('FdwMod', 'Comp3', 'k');
SELECT cfstore.verify('FdwMod', 'Comp');
SELECT cfstore.verify('FdwMod', 'Comp3');

-- ---------------------------------------------------------------------------
-- 9. NULLs and invalid requests (doc/semantics.md §11); none of them writes
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.std VALUES (NULL, 'c', 'v', 1);
INSERT INTO fdwmod.std VALUES ('', 'c', 'v', 1);
INSERT INTO fdwmod.std VALUES ('k', NULL, 'v', 1);
INSERT INTO fdwmod.std VALUES ('k', '', 'v', 1);
INSERT INTO fdwmod.std VALUES ('k', 'c', NULL, 1);
INSERT INTO fdwmod.std VALUES ('k', 'c', 'v', 1), (NULL, 'c', 'v', 1);
UPDATE fdwmod.std SET key = NULL WHERE key = 'k1';
UPDATE fdwmod.std SET column_name = NULL WHERE key = 'k1';
UPDATE fdwmod.std SET value = NULL WHERE key = 'k1';
SELECT count(*) FROM fdwmod.std WHERE key = 'k';
-- reading shows the empty value as NULL for types other than text and
-- bytea: writing NULL there writes the empty value
INSERT INTO fdwmod.longs VALUES (1, 10, 100, 1), (1, 20, NULL, 1);
SELECT * FROM fdwmod.longs;
SELECT column_name, value FROM cfstore.get_slice('FdwMod', 'Longs', 1);
INSERT INTO fdwmod.longs (key, column_name, value) VALUES (NULL, 30, 1);
-- a column of another SQL type takes the text form of its Cassandra type
CREATE FOREIGN TABLE fdwmod.longs_as_text (key text, column_name text, value text, writetime bigint, ttl bigint)
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Longs');
INSERT INTO fdwmod.longs_as_text VALUES ('1', '30', '300', 1, 100) RETURNING *;
INSERT INTO fdwmod.longs_as_text VALUES ('1', '40', 'x', 1);
INSERT INTO fdwmod.longs_as_text VALUES ('1', 'x', '1', 1);
INSERT INTO fdwmod.longs_as_text VALUES ('1', '40', '', 1);
SELECT * FROM fdwmod.longs;
SELECT cfstore.verify('FdwMod', 'Longs');

-- ---------------------------------------------------------------------------
-- 10. INSERT ... SELECT (batched), COPY FROM, one statement reading what it
--     writes, rollback
-- ---------------------------------------------------------------------------
EXPLAIN (VERBOSE, COSTS OFF)
INSERT INTO fdwmod.std SELECT 'bulk' || (g % 10), lpad(g::text, 4, '0'), 'v' || g, 1 FROM generate_series(1, 1000) g;
INSERT INTO fdwmod.std SELECT 'bulk' || (g % 10), lpad(g::text, 4, '0'), 'v' || g, 1 FROM generate_series(1, 1000) g;
SELECT count(*), count(DISTINCT key), min(column_name), max(column_name) FROM fdwmod.std WHERE key LIKE 'bulk%';
SELECT sum(cfstore.get_count('FdwMod', 'Std', 'bulk' || i)) FROM generate_series(0, 9) i;
SELECT * FROM fdwmod.std WHERE key = 'bulk7' AND column_name = '0777';
-- RETURNING turns batching off
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO fdwmod.std VALUES ('x', 'y', 'z', 1) RETURNING key;
COPY fdwmod.std (key, column_name, value, writetime, ttl) FROM stdin;
copy1	a	first	5	\N
copy1	b	second	5	3000
copy2	a	third	\N	\N
\.
SELECT key, column_name, value, writetime > 1000000000000000 AS now_ts, ttl FROM fdwmod.std WHERE key LIKE 'copy%';
COPY fdwmod.std (key, column_name, value) FROM stdin;
copy3	a	x
\N	a	no key
\.
SELECT count(*) FROM fdwmod.std WHERE key = 'copy3';
-- a statement does not see its own writes
INSERT INTO fdwmod.std SELECT key, column_name || '+', value, writetime FROM fdwmod.std WHERE key LIKE 'copy%';
SELECT key, column_name, value FROM fdwmod.std WHERE key LIKE 'copy%';
UPDATE fdwmod.std SET column_name = column_name || '-' WHERE key = 'copy1';
SELECT key, column_name, value FROM fdwmod.std WHERE key LIKE 'copy%';
DELETE FROM fdwmod.std WHERE key LIKE 'bulk%';
SELECT count(*) FROM fdwmod.std WHERE key LIKE 'bulk%';
SELECT count(*) FROM cfstore.get_range_slices('FdwMod', 'Std', 'bulk0', 'bulk9');
-- a rolled back write leaves nothing
BEGIN;
INSERT INTO fdwmod.std VALUES ('rolled back', 'c', 'v', 1);
UPDATE fdwmod.std SET value = 'rolled back' WHERE key = 'copy2';
DELETE FROM fdwmod.std WHERE key = 'copy1';
ROLLBACK;
SELECT key, column_name, value FROM fdwmod.std WHERE key LIKE 'copy%' OR key = 'rolled back';
SELECT cfstore.verify('FdwMod', 'Std');

-- ---------------------------------------------------------------------------
-- 11. A foreign table as a partition: rows are routed to it, and moved
--     into it; ON CONFLICT cannot be honoured
-- ---------------------------------------------------------------------------
CREATE TABLE fdwmod.parted (key text COLLATE "C", column_name text COLLATE "C", value text,
    writetime bigint, ttl integer) PARTITION BY LIST (key);
CREATE FOREIGN TABLE fdwmod.parted_cf PARTITION OF fdwmod.parted FOR VALUES IN ('p1', 'p2')
  SERVER cfstore OPTIONS (keyspace 'FdwMod', column_family 'Std');
CREATE TABLE fdwmod.parted_local PARTITION OF fdwmod.parted DEFAULT;
INSERT INTO fdwmod.parted VALUES ('p1', 'a', 'routed', 1, NULL), ('local', 'a', 'stays here', 1, NULL);
COPY fdwmod.parted (key, column_name, value, writetime) FROM stdin;
p2	a	copied	2
\.
UPDATE fdwmod.parted SET key = 'p2', column_name = 'moved' WHERE key = 'local';
SELECT tableoid::regclass, key, column_name, value, writetime FROM fdwmod.parted WHERE key IN ('p1', 'p2', 'local');
SELECT key, column_name, value FROM cfstore.multiget_slice('FdwMod', 'Std', ARRAY['p1', 'p2']);
INSERT INTO fdwmod.std VALUES ('p1', 'a', 'v', 1) ON CONFLICT DO NOTHING;
INSERT INTO fdwmod.parted VALUES ('p1', 'a', 'v', 1) ON CONFLICT DO NOTHING;
DELETE FROM fdwmod.parted WHERE key IN ('p1', 'p2');
SELECT count(*) FROM fdwmod.parted WHERE key IN ('p1', 'p2', 'local');

-- ---------------------------------------------------------------------------
-- 12. Secondary indexes follow the writes; TRUNCATE empties the column
--     family and its indexes
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.idx VALUES ('u1', 'state', 'TX', 1), ('u2', 'state', 'CA', 1), ('u3', 'state', 'TX', 1),
  ('u1', 'name', 'one', 1);
SELECT key, column_name, value FROM cfstore.get_indexed_slices('FdwMod', 'Idx',
    '[{"column_name": "state", "op": "EQ", "value": "TX"}]');
UPDATE fdwmod.idx SET value = 'CA' WHERE key = 'u3' AND column_name = 'state';
DELETE FROM fdwmod.idx WHERE key = 'u2';
SELECT key, column_name, value FROM cfstore.get_indexed_slices('FdwMod', 'Idx',
    '[{"column_name": "state", "op": "EQ", "value": "CA"}]');
TRUNCATE fdwmod.idx;
SELECT count(*) FROM fdwmod.idx;
SELECT count(*) FROM cfstore.get_indexed_slices('FdwMod', 'Idx',
    '[{"column_name": "state", "op": "EQ", "value": "TX"}]');
INSERT INTO fdwmod.idx VALUES ('u4', 'state', 'TX', 1);
SELECT key, column_name, value FROM cfstore.get_indexed_slices('FdwMod', 'Idx',
    '[{"column_name": "state", "op": "EQ", "value": "TX"}]');
SELECT cfstore.verify('FdwMod', 'Idx');
TRUNCATE fdwmod.std, fdwmod.cnt;
SELECT count(*) FROM fdwmod.std;
SELECT count(*) FROM cfstore.get_range_slices('FdwMod', 'Cnt');
INSERT INTO fdwmod.std VALUES ('after', 'truncate', 'v', 1);
SELECT * FROM fdwmod.std;
SELECT cfstore.verify('FdwMod', 'Std');

-- ---------------------------------------------------------------------------
-- 12b. A join that meets a row several times changes it once, as the first
--      match says, and counts it once (as PostgreSQL does for its tables)
-- ---------------------------------------------------------------------------
INSERT INTO fdwmod.std (key, column_name, value, writetime) VALUES ('j', 'a', 'old', 1), ('j', 'b', 'old', 1);
CREATE TEMP TABLE matches (n int, v text);
INSERT INTO matches VALUES (1, 'first'), (2, 'second'), (3, 'third');
WITH u AS (UPDATE fdwmod.std s SET value = m.v, writetime = 10 + m.n
             FROM (SELECT * FROM matches ORDER BY n) m WHERE s.key = 'j' RETURNING s.column_name)
SELECT count(*) FROM u;
SELECT column_name, value, writetime FROM cfstore.get_slice('FdwMod', 'Std', 'j');
WITH d AS (DELETE FROM fdwmod.std s USING matches m WHERE s.key = 'j' RETURNING s.column_name)
SELECT count(*) FROM d;
INSERT INTO fdwmod.cnt VALUES ('jc', 'hits', 1);
UPDATE fdwmod.cnt c SET value = c.value + m.n FROM matches m WHERE c.key = 'jc';
SELECT value FROM cfstore.get('FdwMod', 'Cnt', 'jc', 'hits');
-- a statement of the one table is not tracked (each row comes once)
UPDATE fdwmod.cnt SET value = value + 1 WHERE key = 'jc';
SELECT value FROM cfstore.get('FdwMod', 'Cnt', 'jc', 'hits');
DELETE FROM fdwmod.cnt WHERE key = 'jc';
DROP TABLE matches;

-- ---------------------------------------------------------------------------
-- 13. Privileges: the foreign table's (checked by the executor) and the
--     storage relation's, as the function API checks them: INSERT to
--     write, DELETE to write tombstones, TRUNCATE to truncate
-- ---------------------------------------------------------------------------
CREATE ROLE regress_fdwmod_reader;
CREATE ROLE regress_fdwmod_writer;
GRANT USAGE ON SCHEMA fdwmod TO regress_fdwmod_reader, regress_fdwmod_writer;
GRANT SELECT ON fdwmod.std TO regress_fdwmod_reader;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON fdwmod.std, fdwmod.cnt TO regress_fdwmod_writer;
DO $$
BEGIN
  EXECUTE format('GRANT SELECT ON %s, %s TO regress_fdwmod_reader, regress_fdwmod_writer',
                 cfstore._storage_relation('FdwMod', 'Std'), cfstore._storage_relation('FdwMod', 'Cnt'));
END $$;
SET ROLE regress_fdwmod_reader;
SELECT * FROM fdwmod.std;
INSERT INTO fdwmod.std VALUES ('r', 'c', 'v', 1);
UPDATE fdwmod.std SET value = 'r';
DELETE FROM fdwmod.std;
TRUNCATE fdwmod.std;
-- the foreign table allows it, the column family does not
SET ROLE regress_fdwmod_writer;
INSERT INTO fdwmod.std VALUES ('w', 'c', 'v', 1);
COPY fdwmod.std (key, column_name, value) FROM stdin;
w	c	v
\.
UPDATE fdwmod.std SET value = 'w';
DELETE FROM fdwmod.std;
INSERT INTO fdwmod.cnt VALUES ('w', 'c', 1);
TRUNCATE fdwmod.std;
RESET ROLE;
DO $$
BEGIN
  EXECUTE format('GRANT INSERT ON %s, %s TO regress_fdwmod_writer',
                 cfstore._storage_relation('FdwMod', 'Std'), cfstore._storage_relation('FdwMod', 'Cnt'));
END $$;
SET ROLE regress_fdwmod_writer;
INSERT INTO fdwmod.std VALUES ('w', 'c', 'v', 1);
UPDATE fdwmod.std SET value = 'updated by w' WHERE key = 'w';
INSERT INTO fdwmod.cnt VALUES ('w', 'c', 1);
UPDATE fdwmod.cnt SET value = value + 1;
-- tombstones need DELETE: a DELETE, and an UPDATE that may move a cell
DELETE FROM fdwmod.std WHERE key = 'w';
UPDATE fdwmod.std SET column_name = 'd' WHERE key = 'w';
TRUNCATE fdwmod.std;
RESET ROLE;
DO $$
BEGIN
  EXECUTE format('GRANT DELETE, TRUNCATE ON %s TO regress_fdwmod_writer', cfstore._storage_relation('FdwMod', 'Std'));
END $$;
SET ROLE regress_fdwmod_writer;
UPDATE fdwmod.std SET column_name = 'd' WHERE key = 'w';
DELETE FROM fdwmod.std WHERE key = 'after';
SELECT key, column_name, value FROM fdwmod.std;
SELECT * FROM fdwmod.cnt;
TRUNCATE fdwmod.std;
SELECT count(*) FROM fdwmod.std;
RESET ROLE;

-- ---------------------------------------------------------------------------
-- 14. Clean up
-- ---------------------------------------------------------------------------
SELECT cfstore.verify('FdwMod', 'Std');
SELECT cfstore.verify('FdwMod', 'Cnt');
DROP SCHEMA fdwmod CASCADE;
SELECT cfstore.drop_keyspace('FdwMod');
DROP ROLE regress_fdwmod_reader;
DROP ROLE regress_fdwmod_writer;
