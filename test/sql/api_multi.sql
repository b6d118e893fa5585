-- The read functions beyond one slice of one row (README.md "Reading and writing",
-- doc/semantics.md §8.2-§8.5): get_columns (names predicate),
-- multiget_slice, get_count, multiget_count, get_range_slices.  Live items
-- only, comparator and key order, duplicates collapsing, every requested
-- key in the counts, range bounds inclusive, rows without live matching
-- columns absent, and the invalid-request texts in Cassandra's order.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Multi');
SELECT cfstore.create_column_family('Multi', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Multi', 'LongKeys', comparator => 'LongType',
         key_validation_class => 'LongType', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Multi', 'Sup', column_type => 'Super', comparator => 'LongType',
         subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Multi', 'Cnt', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('Multi', 'Rev', comparator => 'ReversedType(LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');

-- five rows of four columns; row k3 deleted, column k2/c2 deleted, k4/c4
-- overwritten with an older timestamp (invisible), k5/c1 expired
SELECT count(*) FROM (
  SELECT cfstore.insert('Multi', 'Std', 'k' || i, 'c' || j, 'v' || i || j, writetime => 10)
    FROM generate_series(1, 5) i, generate_series(1, 4) j) w;
SELECT cfstore.remove('Multi', 'Std', 'k3', writetime => 11);
SELECT cfstore.remove('Multi', 'Std', 'k2', 'c2', writetime => 11);
SELECT cfstore.insert('Multi', 'Std', 'k4', 'c4', 'older', writetime => 9);
SELECT cfstore.insert('Multi', 'Std', 'k5', 'c1', 'gone', writetime => 12, ttl => 1);
SELECT pg_sleep(1.1);

-- ---------------------------------------------------------------------------
-- 1. get_columns: the live named columns, in comparator order, duplicates
--    collapse, missing and deleted names give no row
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', ARRAY['c3', 'c1', 'c9', 'c1']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k2', ARRAY['c2', 'c3']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k3', ARRAY['c1', 'c2']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k4', ARRAY['c4']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k5', ARRAY['c1', 'c2']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', ARRAY[]::text[]);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'nosuchrow', ARRAY['c1']);
-- a ReversedType comparator orders the result descending
SELECT count(*) FROM (
  SELECT cfstore.insert('Multi', 'Rev', 'r', j, 'v' || j, writetime => 1)
    FROM generate_series(1, 5) j) w;
SELECT column_name FROM cfstore.get_columns('Multi', 'Rev', 'r', ARRAY[2, 5, 3, 9]);
-- names are converted by the comparator: integers, text, bytea
SELECT column_name, value FROM cfstore.get_columns('Multi', 'Rev', 'r', ARRAY['4', '1']);
SELECT column_name, value FROM cfstore.get_columns('Multi', 'Rev', 'r',
         ARRAY['\x0000000000000001'::bytea]);
-- errors: the column parent and names are checked before the key
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', ARRAY['']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', '', ARRAY['']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', '', ARRAY['c1']);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', ARRAY['c1'], super_column => 1);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', 'c1');
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', ARRAY['c1', NULL]);
SELECT * FROM cfstore.get_columns('Multi', 'Std', 'k1', NULL::text[]);
SELECT * FROM cfstore.get_columns('Multi', 'Rev', 'r', ARRAY['\x01'::bytea]);
SELECT * FROM cfstore.get_columns('Multi', 'Nope', 'r', ARRAY['c1']);

-- ---------------------------------------------------------------------------
-- 2. multiget_slice: every key's slice, keys in unsigned byte order of their
--    encoding (LongType: negatives after positives), duplicates collapse
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k4', 'k1', 'k3', 'k1', 'zz']);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k4', 'k1', 'k2'], count => 2, reversed => true);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1', 'k2'], start => 'c2', finish => 'c3');
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1', 'k2'], count => 0);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY[]::text[]);
SELECT count(*) FROM (
  SELECT cfstore.insert('Multi', 'LongKeys', k, 1, 'row ' || k, writetime => 1)
    FROM unnest(ARRAY[-2, -1, 0, 1, 300]) k) w;
SELECT key, value FROM cfstore.multiget_slice('Multi', 'LongKeys', ARRAY[1, -1, 300, 0, -2, 7]);
SELECT key, value FROM cfstore.multiget_slice('Multi', 'LongKeys', ARRAY['-1', '1']);
-- errors: predicate before keys, then each key
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1'], count => -1);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY[''], count => -1);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1'], start => 'c3', finish => 'c1');
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1', '']);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1', repeat('x', 65536)]);
SELECT * FROM cfstore.multiget_slice('Multi', 'LongKeys', ARRAY['\x01'::bytea]);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', 'k1');
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', NULL::text[]);
SELECT * FROM cfstore.multiget_slice('Multi', 'Std', ARRAY['k1'], super_column => 1);

-- ---------------------------------------------------------------------------
-- 3. get_count / multiget_count: live items only, capped by count
-- ---------------------------------------------------------------------------
SELECT cfstore.get_count('Multi', 'Std', 'k1') AS k1,
       cfstore.get_count('Multi', 'Std', 'k2') AS k2_one_deleted,
       cfstore.get_count('Multi', 'Std', 'k3') AS k3_row_deleted,
       cfstore.get_count('Multi', 'Std', 'k5') AS k5_one_expired,
       cfstore.get_count('Multi', 'Std', 'nosuchrow') AS missing;
SELECT cfstore.get_count('Multi', 'Std', 'k1', count => 2) AS capped,
       cfstore.get_count('Multi', 'Std', 'k1', count => 0) AS zero,
       cfstore.get_count('Multi', 'Std', 'k1', start => 'c2') AS from_c2,
       cfstore.get_count('Multi', 'Std', 'k1', start => 'c2', finish => 'c3') AS c2_c3,
       cfstore.get_count('Multi', 'Std', 'k2', start => 'c2', finish => 'c2') AS deleted_only;
SELECT * FROM cfstore.multiget_count('Multi', 'Std', ARRAY['k5', 'k2', 'k3', 'zz', 'k2', 'k1']);
SELECT * FROM cfstore.multiget_count('Multi', 'Std', ARRAY['k1', 'k2'], start => 'c3', count => 1);
SELECT * FROM cfstore.multiget_count('Multi', 'Std', ARRAY[]::text[]);
SELECT cfstore.get_count('Multi', 'Std', 'k1', count => -1);
SELECT cfstore.get_count('Multi', 'Std', 'k1', start => 'c3', finish => 'c1');
SELECT cfstore.get_count('Multi', 'Std', '');
SELECT * FROM cfstore.multiget_count('Multi', 'Std', ARRAY['k1', ''], count => -5);

-- counters: a column counts while its total is live; removed counters do not
SELECT cfstore.add('Multi', 'Cnt', 'a', 'x', 5);
SELECT cfstore.add('Multi', 'Cnt', 'a', 'y', -5);
SELECT cfstore.add('Multi', 'Cnt', 'a', 'z', 1);
SELECT cfstore.remove_counter('Multi', 'Cnt', 'a', 'z');
SELECT cfstore.get_count('Multi', 'Cnt', 'a');
SELECT * FROM cfstore.multiget_slice('Multi', 'Cnt', ARRAY['a', 'b']);
SELECT * FROM cfstore.get_columns('Multi', 'Cnt', 'a', ARRAY['y', 'z']);

-- ---------------------------------------------------------------------------
-- 4. Super column families: without super_column the items are super
--    columns, each with all its live subcolumns, and count counts them
-- ---------------------------------------------------------------------------
SELECT count(*) FROM (
  SELECT cfstore.insert('Multi', 'Sup', r, 'n' || j, 'v' || i || j, writetime => 1, super_column => i)
    FROM unnest(ARRAY['r1', 'r2']) r, generate_series(1, 3) i, generate_series(1, 2) j) w;
SELECT cfstore.remove('Multi', 'Sup', 'r1', super_column => 2, writetime => 5);
SELECT cfstore.remove('Multi', 'Sup', 'r2', 'n1', super_column => 3, writetime => 5);
SELECT * FROM cfstore.get_columns('Multi', 'Sup', 'r1', ARRAY[3, 1, 7, 2]);
SELECT * FROM cfstore.get_columns('Multi', 'Sup', 'r2', ARRAY['n2', 'n1'], super_column => 3);
SELECT cfstore.get_count('Multi', 'Sup', 'r1') AS supers,
       cfstore.get_count('Multi', 'Sup', 'r1', count => 1) AS capped,
       cfstore.get_count('Multi', 'Sup', 'r2', super_column => 3) AS subcolumns,
       cfstore.get_count('Multi', 'Sup', 'r1', start => 2) AS from_2;
SELECT * FROM cfstore.multiget_count('Multi', 'Sup', ARRAY['r2', 'r1', 'r0']);
SELECT * FROM cfstore.multiget_slice('Multi', 'Sup', ARRAY['r2', 'r1'], count => 1, reversed => true);
SELECT * FROM cfstore.multiget_slice('Multi', 'Sup', ARRAY['r2', 'r1'], super_column => 3);
SELECT * FROM cfstore.get_columns('Multi', 'Sup', 'r1', ARRAY[0]);
SELECT * FROM cfstore.get_columns('Multi', 'Sup', 'r1', ARRAY['x']);

-- ---------------------------------------------------------------------------
-- 5. get_range_slices: key order, inclusive bounds, key_count rows with live
--    matching columns (rows without them are skipped and do not count)
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', count => 1);
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k2', 'k4', count => 1);
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k2', 'k4', key_count => 1, count => 1);
-- k3 (deleted) is skipped and does not use up key_count
SELECT key, count(*) FROM cfstore.get_range_slices('Multi', 'Std', 'k3', key_count => 2) GROUP BY key ORDER BY key;
-- bounds need not exist; '' and NULL are unbounded
SELECT DISTINCT key FROM cfstore.get_range_slices('Multi', 'Std', 'k10', 'k45', count => 1) ORDER BY key;
SELECT DISTINCT key FROM cfstore.get_range_slices('Multi', 'Std', '', '', count => 1) ORDER BY key;
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k4', 'k4');
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'l', NULL);
-- the predicate applies to each row: reversed, bounds; a row with nothing in range is skipped
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', start => 'c4', finish => 'c3', reversed => true, count => 1);
SELECT key, column_name FROM cfstore.get_range_slices('Multi', 'Std', start => 'c2', finish => 'c2');
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', count => 0);
-- LongType keys come in byte order, not numeric order
SELECT key FROM cfstore.get_range_slices('Multi', 'LongKeys');
SELECT key FROM cfstore.get_range_slices('Multi', 'LongKeys', 0, 300);
SELECT key FROM cfstore.get_range_slices('Multi', 'LongKeys', start_key => -2);
-- super columns
SELECT * FROM cfstore.get_range_slices('Multi', 'Sup', count => 1);
SELECT * FROM cfstore.get_range_slices('Multi', 'Sup', super_column => 3);
-- errors, in Cassandra's order: column parent, predicate, then key range
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k4', 'k2');
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', key_count => 0);
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k4', 'k2', key_count => 0);
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k4', 'k2', count => -1);
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k4', 'k2', start => 'c3', finish => 'c1');
SELECT * FROM cfstore.get_range_slices('Multi', 'Std', 'k4', 'k2', super_column => 1);
SELECT * FROM cfstore.get_range_slices('Multi', 'LongKeys', start_key => 'x');

-- ---------------------------------------------------------------------------
-- 6. Cost: one descent per requested row, not a scan of the relation.
--    2,000 rows of 20 columns; 100 keys of multiget_slice, and a range of
--    100 rows, touch a few buffers per row (the statistics count every
--    ReadBuffer of the storage relation in this transaction).
-- ---------------------------------------------------------------------------
SELECT cfstore.create_column_family('Multi', 'Wide', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Multi', 'Wide') AS wide_rel \gset
INSERT INTO :wide_rel (key, column_name, value, writetime)
  SELECT convert_to('w' || lpad(i::text, 5, '0'), 'UTF8'), int8send(j::bigint),
         convert_to(md5(i::text || '/' || j::text), 'UTF8'), 1
    FROM generate_series(1, 20) j, generate_series(1, 2000) i;
SELECT pages > 100 AS many_pages FROM cfstore.stats('Multi', 'Wide');

-- buffers of the storage relation one statement touches
CREATE FUNCTION pg_temp.buffers(sql text) RETURNS TABLE(rows bigint, buffers bigint)
LANGUAGE plpgsql AS $$
DECLARE
  rel oid := cfstore._storage_relation('Multi', 'Wide');
  before bigint := pg_stat_get_xact_blocks_fetched(rel);
BEGIN
  EXECUTE sql INTO rows;
  buffers := pg_stat_get_xact_blocks_fetched(rel) - before;
  RETURN NEXT;
END $$;
-- warm the catalog caches and the root page image
SELECT count(*) FROM cfstore.get_slice('Multi', 'Wide', 'w00001');
SELECT rows, buffers BETWEEN 100 AND 300 AS about_two_per_key
  FROM pg_temp.buffers($$SELECT count(*) FROM cfstore.multiget_slice('Multi', 'Wide',
         ARRAY(SELECT 'w' || lpad((i * 17)::text, 5, '0') FROM generate_series(1, 100) i), count => 10)$$);
SELECT rows, buffers BETWEEN 100 AND 300 AS about_two_per_row
  FROM pg_temp.buffers($$SELECT count(*) FROM cfstore.get_range_slices('Multi', 'Wide', 'w01000',
         key_count => 100, count => 10)$$);
SELECT rows, buffers BETWEEN 100 AND 300 AS about_two_per_key
  FROM pg_temp.buffers($$SELECT sum(count) FROM cfstore.multiget_count('Multi', 'Wide',
         ARRAY(SELECT 'w' || lpad((i * 17)::text, 5, '0') FROM generate_series(1, 100) i))$$);
SELECT count(DISTINCT key) AS keys, count(*) AS cells
  FROM cfstore.get_range_slices('Multi', 'Wide', key_count => 5000, count => 1000);

-- every column family written here passes verify
SELECT cfstore.verify('Multi', cf) FROM unnest(ARRAY['Std', 'LongKeys', 'Sup', 'Cnt', 'Rev', 'Wide']) cf;
SELECT cfstore.drop_keyspace('Multi');
