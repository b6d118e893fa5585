-- VACUUM compacts underfull leaves (src/storage/cfmerge.c): from right to
-- left, a leaf less than 90% full takes whole runs from the end of its left
-- sibling, and a sibling that gives them all is unlinked.  Every read
-- answers as before.
\set VERBOSITY terse

\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('Mrg');

-- 200 rows of 100 columns, TimeUUID names, 24-byte values, arriving
-- interleaved (each round visits every row, in its own order): each row
-- ends up alone on a leaf about 60% full, and VACUUM used to leave it so.
SELECT cfstore.create_column_family('Mrg', 'Wide', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Mrg', 'Wide') AS wide \gset
-- VACUUM runs where the test says: an autovacuum after the load (a slow
-- machine, valgrind) would compact the leaves first, or hold the table
-- when VACUUM wants to cut the file
ALTER TABLE :wide SET (autovacuum_enabled = off);
SELECT txid_current()::text AS before_load \gset
INSERT INTO :wide (key, column_name, value, writetime)
SELECT convert_to('row' || r, 'UTF8'),
       uuid_send(cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '10 milliseconds')::uuid),
       convert_to(substr(md5('v' || i), 1, 24), 'UTF8'), 1577836800000000 + i * 10000
  FROM generate_series(0::bigint, 200 * 100 - 1) i,
       LATERAL (SELECT ((i % 200) * 7919 + (i / 200) * 104729) % 200 AS r) x;
CREATE TEMP TABLE wide_model AS
  SELECT convert_from(key, 'UTF8') AS k, cfstore.to_string('TimeUUIDType', column_name) AS name,
         convert_from(value, 'UTF8') AS value, writetime
    FROM :wide;
SELECT leaf_pages AS leaves_before, pages AS pages_before FROM cfstore.stats('Mrg', 'Wide') \gset
SELECT leaf_pages >= 190 AS a_leaf_per_row, leaf_fill < 70 AS underfull, live_cells
  FROM cfstore.stats('Mrg', 'Wide');
SELECT autovacuum_quiet();
VACUUM :wide;
-- (the leaves given away are cut off the end of the file, the tree pages
-- there moving into them first: the file shrinks with the tree, cfshrink.c)
SELECT leaf_fill >= 90 AS full_after, leaf_pages <= :leaves_before * 0.7 AS fewer_leaves,
       tree_pages < :pages_before * 0.7 AS tree_shrank, pages = tree_pages AS file_is_tree,
       live_cells
  FROM cfstore.stats('Mrg', 'Wide');
SELECT cfstore.verify('Mrg', 'Wide');
-- the leaves it filled were rewritten anyway: their cells lost their
-- transaction ids at once (as VACUUM FREEZE would take them), so
-- relfrozenxid passed the loading transaction's
SELECT age(relfrozenxid) < age(:'before_load'::xid) - 1 AS cells_frozen
  FROM pg_class WHERE oid = :'wide'::regclass;

-- the storage relation holds exactly the cells it held
SELECT count(*) AS differing
  FROM ((TABLE wide_model
         EXCEPT SELECT convert_from(key, 'UTF8'), cfstore.to_string('TimeUUIDType', column_name),
                       convert_from(value, 'UTF8'), writetime FROM :wide)
        UNION ALL
        (SELECT convert_from(key, 'UTF8'), cfstore.to_string('TimeUUIDType', column_name),
                convert_from(value, 'UTF8'), writetime FROM :wide
         EXCEPT TABLE wide_model)) d;

-- every row read whole, its latest 10 reversed, and 20 from its 50th column
SELECT count(*) AS rows_differing_whole
  FROM (SELECT DISTINCT k FROM wide_model) r
 WHERE (SELECT array_agg(column_name || '=' || value)
          FROM cfstore.get_slice('Mrg', 'Wide', r.k, count => 1000))
       IS DISTINCT FROM
       (SELECT array_agg(name || '=' || value ORDER BY writetime) FROM wide_model m WHERE m.k = r.k);
SELECT count(*) AS rows_differing_latest
  FROM (SELECT DISTINCT k FROM wide_model) r
 WHERE (SELECT array_agg(column_name) FROM cfstore.get_slice('Mrg', 'Wide', r.k, reversed => true, count => 10))
       IS DISTINCT FROM
       (SELECT array_agg(name) FROM (SELECT name FROM wide_model m WHERE m.k = r.k
                                      ORDER BY writetime DESC LIMIT 10) s);
SELECT count(*) AS rows_differing_middle
  FROM (SELECT k, (array_agg(name ORDER BY writetime))[50] AS start FROM wide_model GROUP BY k) r
 WHERE (SELECT array_agg(column_name) FROM cfstore.get_slice('Mrg', 'Wide', r.k, start => r.start::uuid, count => 20))
       IS DISTINCT FROM
       (SELECT array_agg(name) FROM (SELECT name FROM wide_model m WHERE m.k = r.k
                                      ORDER BY writetime OFFSET 49 LIMIT 20) s);
SELECT count(*) AS rows FROM cfstore.get_range_slices('Mrg', 'Wide', count => 1, key_count => 1000);

-- writes after the compaction land where their keys now live; a second
-- VACUUM finds the leaves full and changes nothing
SELECT count(cfstore.insert('Mrg', 'Wide', 'row' || r,
                            cfstore.min_timeuuid(timestamptz '2021-01-01 UTC' + r * interval '1 second'),
                            'late', writetime => 1609459200000000 + r))
  FROM generate_series(0, 199, 7) r;
SELECT count(*) AS late_cells_read_back
  FROM generate_series(0, 199, 7) r,
       cfstore.get_slice('Mrg', 'Wide', 'row' || r, reversed => true, count => 1) s
 WHERE s.value = 'late';
SELECT leaf_pages AS leaves_once FROM cfstore.stats('Mrg', 'Wide') \gset
VACUUM :wide;
SELECT leaf_pages - :leaves_once AS leaves_changed, leaf_fill >= 90 AS full_after
  FROM cfstore.stats('Mrg', 'Wide');
SELECT cfstore.verify('Mrg', 'Wide');

-- A row tombstone stays in front of its row when the row's tail moves to
-- the next leaf: cells written later with older timestamps, which land on
-- the leaf that took the tail, are still deleted by it.
SELECT cfstore.create_column_family('Mrg', 'Del', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Mrg', 'Del') AS del \gset
ALTER TABLE :del SET (autovacuum_enabled = off);
SELECT count(cfstore.remove('Mrg', 'Del', 'r' || r, writetime => 500)) FROM generate_series(1, 60) r;
SELECT count(cfstore.insert('Mrg', 'Del', 'r' || r, i, repeat('d', 30), writetime => 1000))
  FROM generate_series(1, 80) i, generate_series(1, 60) r;
SELECT leaf_fill < 75 AS underfull FROM cfstore.stats('Mrg', 'Del');
VACUUM :del;
SELECT leaf_fill >= 85 AS fuller FROM cfstore.stats('Mrg', 'Del');
SELECT cfstore.verify('Mrg', 'Del');
-- names 1000 + i sort after every cell of the row: older than the row tombstone
SELECT count(cfstore.insert('Mrg', 'Del', 'r' || r, 1000 + r, 'old', writetime => 100))
  FROM generate_series(1, 60) r;
SELECT count(*) AS old_cells_seen
  FROM generate_series(1, 60) r,
       cfstore.get_slice('Mrg', 'Del', 'r' || r, start => 70::bigint, count => 100) s
 WHERE s.value = 'old';
SELECT count(*) AS cells_per_row_differing
  FROM generate_series(1, 60) r
 WHERE (SELECT count(*) FROM cfstore.get_slice('Mrg', 'Del', 'r' || r, count => 1000)) <> 80
    OR (SELECT count(*) FROM cfstore.get_slice('Mrg', 'Del', 'r' || r, start => 41::bigint, count => 1000)) <> 40;

-- Leaves over 90% full, too full for the compaction, of cells one
-- transaction inserted (5 rows of 4,000 columns of 8-byte values, in key
-- order): freezing them gives back about a tenth of each leaf (2 bytes a
-- cell), which would leave it underfull, and each leaf's row goes on into
-- a neighbour, so the pass freezes them at once and the compaction fills
-- them (cfvacuum.c): fewer leaves (not so without that freezing), every
-- cell frozen.  (Arrivals in key order give the same leaves on every
-- cluster; interleaved ones leave leaves fuller where transaction ids are
-- longer.)
SELECT cfstore.create_column_family('Mrg', 'Frz', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Mrg', 'Frz') AS frz \gset
ALTER TABLE :frz SET (autovacuum_enabled = off);
SELECT txid_current()::text AS before_frz \gset
INSERT INTO :frz (key, column_name, value, writetime)
SELECT convert_to('row' || r, 'UTF8'), int8send(i), convert_to(substr(md5(r || '/' || i), 1, 8), 'UTF8'), 1000 + i
  FROM generate_series(1, 5) r, generate_series(1, 4000) i
 ORDER BY r, i;
SELECT md5(string_agg(encode(key, 'hex') || encode(column_name, 'hex') || encode(value, 'hex'), ',')) AS frz_cells
  FROM :frz \gset
SELECT leaf_pages AS frz_leaves FROM cfstore.stats('Mrg', 'Frz') \gset
SELECT leaf_fill >= 90 AS too_full_to_fill FROM cfstore.stats('Mrg', 'Frz');
SELECT autovacuum_quiet();
VACUUM :frz;
SELECT leaf_fill >= 90 AS full, leaf_pages <= :frz_leaves * 0.9 AS fewer_leaves,
       pages = tree_pages AS file_is_tree, live_cells
  FROM cfstore.stats('Mrg', 'Frz');
SELECT age(relfrozenxid) < age(:'before_frz'::xid) AS cells_frozen FROM pg_class WHERE oid = :'frz'::regclass;
SELECT md5(string_agg(encode(key, 'hex') || encode(column_name, 'hex') || encode(value, 'hex'), ',')) = :'frz_cells'
       AS same_cells
  FROM :frz;
SELECT cfstore.verify('Mrg', 'Frz');

SELECT cfstore.drop_keyspace('Mrg');
DROP FUNCTION autovacuum_quiet();
