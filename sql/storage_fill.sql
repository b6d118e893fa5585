-- Leaf fill (issue 3's bytes per cell): a leaf holding one row that grows
-- at its end splits 90/10, not in the middle.  The cells are those of
-- bench/timeline.sh: TimeUUID names rising with arrival, 20-byte values,
-- writetime = the name's time, loaded through the storage relation in one
-- statement.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Fill');
SELECT cfstore.create_column_family('Fill', 'Row', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Fill', 'Row') AS row_rel \gset

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

-- the row reads back whole and in order
SELECT count(*), count(DISTINCT column_name) FROM cfstore.get_slice('Fill', 'Row', 'row', count => 10000);
SELECT column_name = cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + 4999 * interval '1 second')::text AS newest
  FROM cfstore.get_slice('Fill', 'Row', 'row', reversed => true, count => 1);
SELECT cfstore.verify('Fill', 'Row');

SELECT cfstore.drop_keyspace('Fill');
