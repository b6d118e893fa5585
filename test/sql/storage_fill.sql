-- Leaf fill (the timeline benchmark's bytes per cell): a leaf splits only when its cells
-- do not fit, and a leaf holding one row that grows at its end splits
-- 90/10, not in the middle.  The cells are those of bench/timeline.sh:
-- TimeUUID names rising with arrival, 20-byte values, writetime = the
-- name's time, loaded through the storage relation in one statement.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Fill');
SELECT cfstore.create_column_family('Fill', 'Row', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Fill', 'Timeline', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Fill', 'Row') AS row_rel \gset
SELECT cfstore._storage_relation('Fill', 'Timeline') AS tl_rel \gset

-- One row of 5,000 cells in name order: about 200 cells fill a leaf, so
-- 90/10 splits make 23 or 24 leaves (41 bytes per cell); middle splits
-- left 44 half-full ones (75 bytes per cell).
INSERT INTO :row_rel (key, column_name, value, writetime)
SELECT convert_to('row', 'UTF8'),
       uuid_send(cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '1 second')::uuid),
       convert_to(substr(md5('value' || i), 1, 20), 'UTF8'), 1577836800000000 + i * 1000000
  FROM generate_series(0::bigint, 4999) i;
SELECT live_cells, leaf_pages < 30 AS leaves_full, bytes_per_live_cell < 50 AS small
  FROM cfstore.stats('Fill', 'Row');

-- 240 rows of 198 cells arriving interleaved, as timeline.sh's do (round
-- j = i / 240 visits every row once, in its own order), row keys of 4 to
-- 17 bytes, a row's cells 4.8 s apart.  Each row ends up alone on a leaf
-- that its ~7,900 bytes nearly fill.  Splitting a leaf when its last run
-- asked for more room to grow than the leaf had, with every cell fitting,
-- gave some of these rows two half-empty leaves: which ones depended on the
-- key's length and on how many bytes the loading xid takes.
INSERT INTO :tl_rel (key, column_name, value, writetime)
SELECT convert_to(repeat('k', (r % 12)::int) || 'row' || r, 'UTF8'),
       uuid_send(cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '20 milliseconds')::uuid),
       convert_to(substr(md5('value' || i), 1, 20), 'UTF8'), 1577836800000000 + i * 20000
  FROM generate_series(0::bigint, 240 * 198 - 1) i,
       LATERAL (SELECT ((i % 240) * 7919 + (i / 240) * 104729) % 240 AS r) x;
SELECT live_cells, leaf_pages AS one_leaf_per_row FROM cfstore.stats('Fill', 'Timeline');
SELECT count(*) AS rows, min(n), max(n)
  FROM (SELECT key, count(*) AS n FROM :tl_rel GROUP BY key) s;

-- both trees read back whole and in order
SELECT count(*), count(DISTINCT column_name) FROM cfstore.get_slice('Fill', 'Row', 'row', count => 10000);
SELECT column_name = cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + 4999 * interval '1 second')::text AS newest
  FROM cfstore.get_slice('Fill', 'Row', 'row', reversed => true, count => 1);
SELECT count(*) FROM cfstore.get_slice('Fill', 'Timeline', 'kkkkkrow5', count => 1000);
SELECT cfstore.verify('Fill', 'Row');
SELECT cfstore.verify('Fill', 'Timeline');

-- A forward slice of the last row on a leaf stops at the leaf's high key,
-- which lies above the row, instead of reading the next leaf to find that
-- it starts with another row: every row of 8 columns reads one leaf (the
-- last row of each leaf read two before).
SELECT cfstore.create_column_family('Fill', 'Small', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Fill', 'Small') AS small_rel \gset
-- the counts below are of this layout: no autovacuum may compact it meanwhile
ALTER TABLE :small_rel SET (autovacuum_enabled = off);
INSERT INTO :small_rel (key, column_name, value, writetime)
  SELECT convert_to('m' || lpad(i::text, 5, '0'), 'UTF8'), convert_to(c, 'UTF8'), convert_to(md5(i || c), 'UTF8'), 1
    FROM generate_series(1, 2000) i, unnest(ARRAY['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) c;
CREATE FUNCTION pg_temp.leaf_reads(k text, rev boolean DEFAULT false) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  rel oid := cfstore._storage_relation('Fill', 'Small')::regclass;
  before bigint := pg_stat_get_xact_blocks_fetched(rel);
  n bigint;
BEGIN
  SELECT count(*) INTO n FROM cfstore.get_slice('Fill', 'Small', k, reversed => rev);
  RETURN pg_stat_get_xact_blocks_fetched(rel) - before;
END $$;
SELECT count(*) FROM cfstore.get_slice('Fill', 'Small', 'm00001');
SELECT leaf_pages > 20 AS many_leaves FROM cfstore.stats('Fill', 'Small');
SELECT count(*) FILTER (WHERE r > 1) AS rows_reading_two_leaves, count(*) AS rows
  FROM (SELECT pg_temp.leaf_reads('m' || lpad(i::text, 5, '0')) AS r FROM generate_series(1, 2000) i) s;
-- and a reversed slice of the first row on a leaf stops at the leaf's low
-- key, which lies at or below the row's start, instead of reading the leaf
-- to its left to find that it ends with another row
SELECT count(*) FILTER (WHERE r > 1) AS reversed_rows_reading_two_leaves, count(*) AS rows
  FROM (SELECT pg_temp.leaf_reads('m' || lpad(i::text, 5, '0'), true) AS r FROM generate_series(1, 2000) i) s;
SELECT count(*), min(column_name), max(column_name) FROM cfstore.get_slice('Fill', 'Small', 'm01000', reversed => true);
-- 200 rows of 100 columns arriving in key order, as a sorted COPY, a
-- pg_restore or VACUUM FULL writes them: the rightmost leaf splits 90/10
-- whatever rows it holds, so the leaves fill (split at the row boundary
-- nearest their middle, 200 leaves were 51% full)
SELECT cfstore.create_column_family('Fill', 'Sorted', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Fill', 'Sorted') AS sorted_rel \gset
INSERT INTO :sorted_rel (key, column_name, value, writetime)
SELECT convert_to('row' || lpad(r::text, 3, '0'), 'UTF8'),
       uuid_send(cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '10 milliseconds')::uuid),
       convert_to(substr(md5('v' || i), 1, 24), 'UTF8'), 1577836800000000 + i * 10000
  FROM generate_series(0, 199) r, generate_series(0::bigint, 99) i ORDER BY r, i;
SELECT leaf_pages < 120 AS fewer_leaves, leaf_fill >= 88 AS full, live_cells FROM cfstore.stats('Fill', 'Sorted');
SELECT count(*) AS rows_not_whole
  FROM generate_series(0, 199) r
 WHERE (SELECT count(*) FROM cfstore.get_slice('Fill', 'Sorted', 'row' || lpad(r::text, 3, '0'), count => 1000)) <> 100;
SELECT cfstore.verify('Fill', 'Sorted');
-- small rows in key order (10 cells each): a row's last run has room to
-- grow, which the rows after it never use; the rightmost leaf takes it back
-- before it counts as full, so its 90% are cells (with the room kept, 134
-- leaves of 55.7 bytes a cell)
SELECT cfstore.create_column_family('Fill', 'Short', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Fill', 'Short') AS short_rel \gset
INSERT INTO :short_rel (key, column_name, value, writetime)
SELECT convert_to('row' || lpad(r::text, 4, '0'), 'UTF8'),
       uuid_send(cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + (r * 10 + i) * interval '10 milliseconds')::uuid),
       convert_to(substr(md5('v' || i), 1, 20), 'UTF8'), 1577836800000000 + i * 10000
  FROM generate_series(0, 1999) r, generate_series(0::bigint, 9) i ORDER BY r, i;
SELECT leaf_pages <= 105 AS fewer_leaves, bytes_per_live_cell < 45 AS small, live_cells
  FROM cfstore.stats('Fill', 'Short');
SELECT cfstore.verify('Fill', 'Short');

-- VACUUM FULL copies the cells in key order into a new file: full leaves,
-- and the file is no bigger than its tree
VACUUM FULL :tl_rel;
SELECT leaf_fill >= 88 AS full, pages = tree_pages AS no_page_outside_the_tree, live_cells
  FROM cfstore.stats('Fill', 'Timeline');
SELECT cfstore.verify('Fill', 'Timeline');

SELECT cfstore.drop_keyspace('Fill');
