-- Range tombstones (src/storage/cfrangedel.c): the deletion, at one
-- timestamp, of every column of a row in [start, finish].  cql() writes
-- one for the deletion of CQL rows, the foreign table for DELETE of a
-- CQL row, batch_mutate for a slice_range deletion in a standard column
-- family.  Unlike a tombstone per existing cell, it also hides what is
-- written into the range later with an older timestamp.
\set VERBOSITY terse
SET search_path = public, cfstore;
\i test/sql/include/autovacuum_quiet.sql

SELECT cfstore.cql($$CREATE KEYSPACE rt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}$$);
SELECT cfstore.cql('CREATE TABLE t (p text, a int, b int, v text, PRIMARY KEY (p, a, b))', 'rt');
SELECT cfstore.cql(format($$INSERT INTO t (p, a, b, v) VALUES ('x', %s, %s, 'v%s.%s') USING TIMESTAMP 10$$, a, b, a, b), 'rt')
  FROM generate_series(1, 3) a, generate_series(1, 3) b;

-- 1. CQL: the rows under a partial prefix, then a whole row; one cell each
SELECT cfstore.cql($$DELETE FROM t USING TIMESTAMP 20 WHERE p = 'x' AND a = 2$$, 'rt');
SELECT cfstore.cql($$DELETE FROM t USING TIMESTAMP 20 WHERE p = 'x' AND a = 3 AND b = 1$$, 'rt');
SELECT tombstones FROM cfstore.stats('rt', 't');
-- written later, under the deleted prefixes: older stays deleted, newer shows
SELECT cfstore.cql($$INSERT INTO t (p, a, b, v) VALUES ('x', 2, 7, 'older') USING TIMESTAMP 15$$, 'rt');
SELECT cfstore.cql($$INSERT INTO t (p, a, b, v) VALUES ('x', 2, 8, 'tie') USING TIMESTAMP 20$$, 'rt');
SELECT cfstore.cql($$INSERT INTO t (p, a, b, v) VALUES ('x', 2, 9, 'newer') USING TIMESTAMP 25$$, 'rt');
SELECT cfstore.cql($$UPDATE t USING TIMESTAMP 19 SET v = 'older' WHERE p = 'x' AND a = 3 AND b = 1$$, 'rt');
SELECT cfstore.cql($$INSERT INTO t (p, a, b, v) VALUES ('x', 3, 2, 'beside') USING TIMESTAMP 5$$, 'rt');
SELECT * FROM cfstore.cql($$SELECT a, b, v FROM t WHERE p = 'x'$$, 'rt');
-- every way of reading agrees: backwards, from inside a deleted range, the foreign table, a scan
SELECT * FROM cfstore.cql($$SELECT a, b, v FROM t WHERE p = 'x' ORDER BY a DESC$$, 'rt');
SELECT * FROM cfstore.cql($$SELECT a, b, v FROM t WHERE p = 'x' AND a = 2 AND b > 3$$, 'rt');
SELECT column_name, value FROM cfstore.get_slice('rt', 't', 'x', '2:5'::text, NULL::text, false, 100);
SELECT column_name, value FROM cfstore.get_slice('rt', 't', 'x', '2:9'::text, NULL::text, true, 100);
SELECT a, b, v FROM rt.t WHERE p = 'x' ORDER BY a DESC, b DESC;
SELECT key, column_name, value FROM cfstore.get_range_slices('rt', 't', count => 100);
SELECT cfstore._storage_relation('rt', 't') AS t_rel \gset
SELECT count(*) FROM :t_rel;

-- 2. the foreign table: DELETE of a CQL row writes what cql() writes
DELETE FROM rt.t WHERE p = 'x' AND a = 1 AND b = 2;
SELECT tombstones FROM cfstore.stats('rt', 't');
SELECT cfstore.cql($$INSERT INTO t (p, a, b, v) VALUES ('x', 1, 2, 'older') USING TIMESTAMP 11$$, 'rt');
SELECT a, b, v FROM rt.t WHERE p = 'x' AND a = 1;

-- 3. batch_mutate: a slice_range deletion in a standard column family
SELECT cfstore.create_column_family('rt', 'Std', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore.insert('rt', 'Std', 'k', c, 'v', writetime => 10) FROM unnest(ARRAY['a', 'c', 'e', 'g']) c;
SELECT cfstore.batch_mutate('rt', '{"k": {"Std": [
    {"deletion": {"timestamp": 20, "predicate": {"slice_range": {"start": "f", "finish": "b", "reversed": true}}}}]}}');
SELECT cfstore.insert('rt', 'Std', 'k', 'd', 'older', writetime => 19);
SELECT cfstore.insert('rt', 'Std', 'k', 'b', 'newer', writetime => 21);
SELECT column_name, value, writetime FROM cfstore.get_slice('rt', 'Std', 'k');
SELECT cfstore.get_count('rt', 'Std', 'k');
-- an open range: from "f" to the row's end
SELECT cfstore.batch_mutate('rt', '{"k": {"Std": [
    {"deletion": {"timestamp": 30, "predicate": {"slice_range": {"start": "f", "finish": ""}}}}]}}');
SELECT cfstore.insert('rt', 'Std', 'k', 'zzz', 'older', writetime => 29);
SELECT column_name, value FROM cfstore.get_slice('rt', 'Std', 'k');

-- 4. VACUUM: what an all-visible range tombstone hides goes, and the
-- tombstone too once past gc_grace_seconds (0 here)
SELECT autovacuum_quiet();
SELECT cell_versions, live_cells, tombstones FROM cfstore.stats('rt', 'Std');
SELECT pg_sleep(1.1);			-- the tombstones' local deletion second is past
SELECT cfstore._storage_relation('rt', 'Std') AS std_rel \gset
VACUUM :std_rel;
SELECT cell_versions, live_cells, tombstones FROM cfstore.stats('rt', 'Std');
SELECT column_name, value FROM cfstore.get_slice('rt', 'Std', 'k');
SELECT cfstore.verify('rt', 'Std');

-- 5. a row over many pages: the range tombstone, at the row's head, is
-- read ahead by a slice that lands pages later, forwards and backwards
SELECT cfstore.create_column_family('rt', 'Long', comparator => 'LongType', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('rt', 'Long', 'k', n, repeat('v', 60) || n, writetime => 10))
  FROM generate_series(1, 3000) n;
SELECT leaf_pages > 20 AS long_row FROM cfstore.stats('rt', 'Long');
SELECT cfstore._remove_range('rt', 'Long', 'k', 2900, 2950, 20);
SELECT cfstore.insert('rt', 'Long', 'k', 2925, 'older', writetime => 15);
SELECT cfstore.insert('rt', 'Long', 'k', 2926, 'newer', writetime => 25);
SELECT string_agg(column_name, ' ')
  FROM cfstore.get_slice('rt', 'Long', 'k', 2895, 2960, false, 100);
SELECT string_agg(column_name, ' ')
  FROM cfstore.get_slice('rt', 'Long', 'k', 2955, NULL::bigint, true, 10);
SELECT cfstore.get_count('rt', 'Long', 'k');
-- bounds longer than a page's inline value (stored out of line)
SELECT cfstore.create_column_family('rt', 'Wide', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore.insert('rt', 'Wide', 'k', repeat('m', 3000) || n, 'v', writetime => 10) FROM generate_series(1, 3) n;
SELECT cfstore.insert('rt', 'Wide', 'k', 'z', 'v', writetime => 10);
SELECT cfstore._remove_range('rt', 'Wide', 'k', repeat('m', 3000), repeat('m', 3000) || '2', 20);
SELECT left(column_name, 3), length(column_name) FROM cfstore.get_slice('rt', 'Wide', 'k');
SELECT pg_sleep(1.1);
SELECT cfstore._storage_relation('rt', 'Wide') AS wide_rel \gset
VACUUM :wide_rel;
SELECT cell_versions, tombstones FROM cfstore.stats('rt', 'Wide');
SELECT left(column_name, 3), length(column_name) FROM cfstore.get_slice('rt', 'Wide', 'k');

-- 6. many ranges in a row (looked up sorted by start): nested, overlapping
-- and disjoint ones, with timestamps either side of the cells', against a
-- model of the rule in SQL, forwards, backwards, from inside, after VACUUM
SELECT cfstore.create_column_family('rt', 'Many', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'UTF8Type');
CREATE TEMP TABLE many_cells AS
  SELECT 'n' || lpad(n::text, 3, '0') AS name, 10 + (n * 7) % 23 AS ts FROM generate_series(0, 199) n;
CREATE TEMP TABLE many_ranges AS
  SELECT 'n' || lpad(lo::text, 3, '0') AS lo, CASE WHEN r % 9 = 0 THEN '' ELSE 'n' || lpad((lo + len)::text, 3, '0') END AS hi,
         5 + (r * 11) % 20 AS ts
    FROM (SELECT r, (r * 37) % 190 AS lo, 1 + (r * 13) % 12 AS len FROM generate_series(1, 20) r) x;
SELECT count(cfstore.insert('rt', 'Many', 'k', name, 'v' || ts, writetime => ts)) FROM many_cells;
SELECT count(cfstore._remove_range('rt', 'Many', 'k', lo, nullif(hi, ''), ts)) FROM many_ranges;
CREATE TEMP VIEW many_model AS
  SELECT c.name FROM many_cells c
   WHERE NOT EXISTS (SELECT FROM many_ranges r
                      WHERE c.name >= r.lo COLLATE "C" AND (r.hi = '' OR c.name <= r.hi COLLATE "C") AND r.ts >= c.ts);
SELECT (SELECT count(*) FROM many_model) AS live,
       (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C") FROM many_model)
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', 'k', count => 1000)) AS forwards,
       (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C" DESC) FROM many_model)
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', 'k', reversed => true, count => 1000)) AS backwards,
       (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C") FROM many_model WHERE name >= 'n120')
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', 'k', 'n120', NULL::text, false, 1000)) AS from_inside,
       (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C") FROM many_model)
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_range_slices('rt', 'Many', count => 1000)) AS scan;
-- the set read again is not sorted again (the backend keeps its order);
-- one more range makes it another set
INSERT INTO many_ranges VALUES ('n150', 'n152', 40);
SELECT cfstore._remove_range('rt', 'Many', 'k', 'n150', 'n152', 40);
SELECT (SELECT count(*) FROM many_model) AS live,
       (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C") FROM many_model)
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', 'k', count => 1000)) AS forwards,
       (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C" DESC) FROM many_model)
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', 'k', reversed => true, count => 1000)) AS backwards;
-- another row with as many ranges, the first row's mirrored (so in another
-- order), read in turn with the first
CREATE TEMP TABLE k2_ranges AS
  SELECT CASE WHEN hi = '' THEN '' ELSE 'n' || lpad((199 - substr(hi, 2)::int)::text, 3, '0') END AS lo,
         'n' || lpad((199 - substr(lo, 2)::int)::text, 3, '0') AS hi, ts
    FROM many_ranges;
SELECT count(cfstore.insert('rt', 'Many', 'k2', name, 'v' || ts, writetime => ts)) FROM many_cells;
SELECT count(cfstore._remove_range('rt', 'Many', 'k2', nullif(lo, ''), hi, ts)) FROM k2_ranges;
CREATE TEMP VIEW k2_model AS
  SELECT c.name FROM many_cells c
   WHERE NOT EXISTS (SELECT FROM k2_ranges r
                      WHERE c.name >= r.lo COLLATE "C" AND (r.hi = '' OR c.name <= r.hi COLLATE "C") AND r.ts >= c.ts);
SELECT k, (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C") FROM (SELECT name FROM many_model WHERE k = 'k'
                                                                          UNION ALL SELECT name FROM k2_model WHERE k = 'k2') m)
          IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', k, count => 1000)) AS agrees
  FROM unnest(ARRAY['k', 'k2', 'k', 'k2']) k;
SELECT cfstore._storage_relation('rt', 'Many') AS many_rel \gset
VACUUM :many_rel;
SELECT (SELECT string_agg(name, ' ' ORDER BY name COLLATE "C") FROM many_model)
       IS NOT DISTINCT FROM (SELECT string_agg(column_name, ' ') FROM cfstore.get_slice('rt', 'Many', 'k', count => 1000)) AS after_vacuum,
       (SELECT live_cells FROM cfstore.stats('rt', 'Many')) = (SELECT count(*) FROM many_model) + (SELECT count(*) FROM k2_model)
         AS vacuum_kept_the_live;
SELECT cfstore.verify('rt', 'Many');

-- 7. bad input: nothing written
SELECT cfstore._remove_range('rt', 'Std', 'k', 'b', 'a');
SELECT cfstore._remove_range('rt', 'Long', 'k', 'x', NULL);
SELECT cfstore._remove_range('rt', 'Std', NULL, 'a', 'b');
SELECT cfstore.create_column_family('rt', 'Sup', column_type => 'Super', comparator => 'UTF8Type');
SELECT cfstore._remove_range('rt', 'Sup', 'k', 'a', 'b');
SELECT cfstore.create_column_family('rt', 'Cnt', default_validation_class => 'CounterColumnType');
SELECT cfstore._remove_range('rt', 'Cnt', 'k', 'a', 'b');
SELECT cfstore.cql('DROP KEYSPACE rt');
DROP FUNCTION autovacuum_quiet();
