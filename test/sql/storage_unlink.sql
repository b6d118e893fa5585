-- VACUUM unlinks the leaves it leaves empty and, once no snapshot older
-- than the unlink is left, frees them for new pages (src/storage/cffree.c).
-- Reads and writes that meet the emptied key range go on as before.
\set VERBOSITY terse

-- no autovacuum worker's xmin holds VACUUM back (autovacuum_quiet)
\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('Unl');
SELECT cfstore.create_column_family('Unl', 'T', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore._storage_relation('Unl', 'T') AS rel \gset

-- Row 'b' spans about 30 leaves; its first 3,000 columns live one second.
-- Rows 'a' and 'c' on either side keep theirs, and 'c' has a row tombstone
-- that deletes nothing (its timestamp is older than its cells).
SELECT count(cfstore.insert('Unl', 'T', 'a', i, 'a' || i, writetime => 10)) FROM generate_series(1, 50) i;
SELECT count(cfstore.insert('Unl', 'T', 'b', i, repeat('x', 40), writetime => 10,
                            ttl => CASE WHEN i <= 3000 THEN 1 END))
  FROM generate_series(1, 4000) i;
SELECT cfstore.remove('Unl', 'T', 'c', writetime => 5);
SELECT count(cfstore.insert('Unl', 'T', 'c', i, 'c' || i, writetime => 10)) FROM generate_series(1, 50) i;
SELECT leaf_pages AS leaves_before, pages AS blocks_before FROM cfstore.stats('Unl', 'T') \gset
SELECT :leaves_before >= 30 AS spans_pages;
SELECT pg_sleep(2.1);
SELECT autovacuum_quiet();
-- TRUNCATE false: the freed pages stay in the file, to be used again
-- (storage_shrink has VACUUM cutting them off)
VACUUM (TRUNCATE false) :rel;

-- the emptied leaves are out of the tree; the relation has not shrunk
SELECT :leaves_before - leaf_pages >= 20 AS leaves_unlinked, pages = :blocks_before AS same_blocks,
       live_cells, tombstones
  FROM cfstore.stats('Unl', 'T');
SELECT cfstore.verify('Unl', 'T');

-- slices over and around the emptied range
SELECT count(*), min(column_name::bigint), max(column_name::bigint)
  FROM cfstore.get_slice('Unl', 'T', 'b', count => 100000);
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Unl', 'T', 'b', count => 3);
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Unl', 'T', 'b', start => 1500::bigint, count => 3);
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Unl', 'T', 'b', count => 3, reversed => true);
SELECT string_agg(column_name, ',')
  FROM cfstore.get_slice('Unl', 'T', 'b', start => 3003::bigint, count => 10, reversed => true);
SELECT count(*) FROM cfstore.get_slice('Unl', 'T', 'b', start => 2000::bigint, finish => 1::bigint,
                                       count => 100000, reversed => true);
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Unl', 'T', 'a', count => 2, reversed => true);
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Unl', 'T', 'c', count => 2);
SELECT count(*) FROM cfstore.get_slice('Unl', 'T', 'c', start => 25::bigint, count => 100, reversed => true);
SELECT key, count(*) FROM cfstore.get_range_slices('Unl', 'T', start_key => 'a', count => 100000)
 GROUP BY key ORDER BY key;
SELECT count(*) FROM :rel;

-- writes into the emptied range land in the leaf that covers it now
SELECT count(cfstore.insert('Unl', 'T', 'b', i, 'back' || i, writetime => 20))
  FROM generate_series(1000, 1100) i;
SELECT count(*), min(column_name::bigint) FROM cfstore.get_slice('Unl', 'T', 'b', count => 100000);
SELECT string_agg(column_name, ',')
  FROM cfstore.get_slice('Unl', 'T', 'b', start => 1101::bigint, count => 3, reversed => true);
SELECT cfstore.verify('Unl', 'T');

-- the next VACUUM frees the unlinked leaves (the inserts above used xids,
-- so no snapshot is older than the unlinks; isolation spec
-- vacuum_unlink shows one that is); they take the row's next 1,000
-- columns, and the relation does not grow
SELECT autovacuum_quiet();
VACUUM (TRUNCATE false) :rel;
SELECT cfstore.verify('Unl', 'T');
SELECT pg_relation_size(:'rel') AS size_before \gset
SELECT count(cfstore.insert('Unl', 'T', 'b', i, repeat('y', 40), writetime => 30))
  FROM generate_series(1, 999) i;
SELECT pg_relation_size(:'rel') = :size_before AS no_new_pages;
SELECT count(*), min(column_name::bigint), max(column_name::bigint)
  FROM cfstore.get_slice('Unl', 'T', 'b', count => 100000);
SELECT cfstore.verify('Unl', 'T');

-- Long row keys live in overflow chains, and so do the separators and
-- high keys made from them: the middle row expires whole, VACUUM unlinks
-- its leaves while it frees the chains nothing refers to (keeping those
-- of the dead leaves' high keys), and the rows around it read and verify.
SELECT cfstore.create_column_family('Unl', 'Long', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore._storage_relation('Unl', 'Long') AS lrel \gset
SELECT count(cfstore.insert('Unl', 'Long', repeat('k', 400) || r, i, repeat('v', 40),
                            ttl => CASE WHEN r = 2 THEN 1 END))
  FROM generate_series(1, 3) r, generate_series(1, 1500) i;
SELECT leaf_pages AS long_leaves FROM cfstore.stats('Unl', 'Long') \gset
SELECT :long_leaves >= 20 AS spans_pages;
SELECT pg_sleep(2.1);
SELECT autovacuum_quiet();
VACUUM :lrel;
-- the middle row's leaves (a third of them, but for the two it shares) left the tree
SELECT :long_leaves - leaf_pages >= :long_leaves / 3 - 2 AS leaves_unlinked, live_cells
  FROM cfstore.stats('Unl', 'Long');
SELECT cfstore.verify('Unl', 'Long');
SELECT right(key, 1) AS row, count(*)
  FROM cfstore.get_range_slices('Unl', 'Long', start_key => '', count => 100000) GROUP BY 1 ORDER BY 1;
SELECT string_agg(column_name, ',')
  FROM cfstore.get_slice('Unl', 'Long', repeat('k', 400) || '3', count => 2, reversed => true);
SELECT txid_current() > 0 AS xid_used;
SELECT autovacuum_quiet();
VACUUM :lrel;
SELECT count(cfstore.insert('Unl', 'Long', repeat('k', 400) || '2', i, repeat('w', 40)))
  FROM generate_series(1, 500) i;
SELECT cfstore.verify('Unl', 'Long');
SELECT right(key, 1) AS row, count(*)
  FROM cfstore.get_range_slices('Unl', 'Long', start_key => '', count => 100000) GROUP BY 1 ORDER BY 1;

SELECT cfstore.drop_keyspace('Unl');
DROP FUNCTION autovacuum_quiet();
