-- VACUUM compacts (architecture doc "Compaction is VACUUM"): shadowed and
-- aborted versions go, tombstones and expired cells past gc_grace_seconds
-- go, counter increments merge, old xmins are frozen and relfrozenxid
-- advances; what every read returns stays the same.  (Concurrency with
-- VACUUM is in the isolation spec vacuum_concurrent.)
\set VERBOSITY terse

-- VACUUM removes only what no snapshot can need (autovacuum_quiet)
\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('Vac');
-- gc_grace_seconds 0: tombstones may go at once
SELECT cfstore.create_column_family('Vac', 'Now', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
-- the default (ten days): tombstones stay
SELECT cfstore.create_column_family('Vac', 'Grace', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Vac', 'Cnt', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType', gc_grace_seconds => 0);
SELECT cfstore.create_column_family('Vac', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore._storage_relation('Vac', 'Now') AS now_rel \gset
SELECT cfstore._storage_relation('Vac', 'Grace') AS grace_rel \gset
SELECT cfstore._storage_relation('Vac', 'Cnt') AS cnt_rel \gset
SELECT cfstore._storage_relation('Vac', 'Sup') AS sup_rel \gset

-- a column family never written has no pages: VACUUM and VACUUM FREEZE do nothing
VACUUM :grace_rel;
VACUUM (FREEZE) :grace_rel;
SELECT pg_relation_size(:'grace_rel') AS bytes, cfstore.verify('Vac', 'Grace');

-- ---------------------------------------------------------------------------
-- 1. shadowed versions: ten writes of each of three columns leave one each;
--    a later write with an older timestamp is shadowed too
-- ---------------------------------------------------------------------------
SELECT count(cfstore.insert('Vac', 'Grace', 'r', c, c || w, writetime => w))
  FROM generate_series(1, 10) w, unnest(ARRAY['a', 'b', 'c']) c;
SELECT cfstore.insert('Vac', 'Grace', 'r', 'a', 'late but old', writetime => 5);
SELECT cell_versions, live_cells FROM cfstore.stats('Vac', 'Grace');
SELECT column_name, value, writetime FROM cfstore.get_slice('Vac', 'Grace', 'r');
SELECT autovacuum_quiet();
VACUUM :grace_rel;
SELECT cell_versions, live_cells, tombstones FROM cfstore.stats('Vac', 'Grace');
SELECT column_name, value, writetime FROM cfstore.get_slice('Vac', 'Grace', 'r');
SELECT cfstore.verify('Vac', 'Grace');

-- a timestamp tie: both versions stay (the greater value wins on read)
SELECT cfstore.insert('Vac', 'Grace', 'tie', 'c', 'a', writetime => 1);
SELECT cfstore.insert('Vac', 'Grace', 'tie', 'c', 'b', writetime => 1);
SELECT autovacuum_quiet();
VACUUM :grace_rel;
SELECT value FROM cfstore.get('Vac', 'Grace', 'tie', 'c');

-- ---------------------------------------------------------------------------
-- 2. aborted versions go; tombstones within gc_grace_seconds stay, with
--    what they shadow gone
-- ---------------------------------------------------------------------------
BEGIN;
SELECT count(cfstore.insert('Vac', 'Grace', 'aborted', 'c' || i, 'v', writetime => 100)) FROM generate_series(1, 50) i;
ROLLBACK;
SELECT cfstore.insert('Vac', 'Grace', 'gone', 'x', 'v', writetime => 1);
SELECT cfstore.insert('Vac', 'Grace', 'gone', 'y', 'v', writetime => 1);
SELECT cfstore.remove('Vac', 'Grace', 'gone', 'x', writetime => 2);
SELECT cfstore.remove('Vac', 'Grace', 'r', writetime => 9);
SELECT cell_versions, tombstones FROM cfstore.stats('Vac', 'Grace');
SELECT autovacuum_quiet();
VACUUM :grace_rel;
SELECT cell_versions, tombstones FROM cfstore.stats('Vac', 'Grace');
SELECT key, column_name, value FROM :grace_rel ORDER BY 1, 2;
SELECT cfstore.verify('Vac', 'Grace');

-- ---------------------------------------------------------------------------
-- 3. past gc_grace_seconds: column, row and expired cells go whole
-- ---------------------------------------------------------------------------
SELECT count(cfstore.insert('Vac', 'Now', 'row' || r, 'c' || c, 'v', writetime => 1))
  FROM generate_series(1, 3) r, generate_series(1, 3) c;
SELECT cfstore.remove('Vac', 'Now', 'row1', 'c2', writetime => 2);
SELECT cfstore.remove('Vac', 'Now', 'row2', writetime => 2);
-- a write older than the row deletion stays deleted
SELECT cfstore.insert('Vac', 'Now', 'row2', 'c9', 'old', writetime => 1);
SELECT cfstore.insert('Vac', 'Now', 'row3', 'ttl', 'short', ttl => 1, writetime => 1);
SELECT pg_sleep(2.1);
SELECT cell_versions, live_cells, tombstones FROM cfstore.stats('Vac', 'Now');
SELECT autovacuum_quiet();
VACUUM :now_rel;
SELECT cell_versions, live_cells, tombstones FROM cfstore.stats('Vac', 'Now');
SELECT key, column_name, value FROM :now_rel ORDER BY 1, 2;
SELECT cfstore.verify('Vac', 'Now');

-- a row deleted across many pages: VACUUM removes its cells on every page,
-- then (the row went on past the tombstone's page) the tombstone; a second
-- VACUUM finds nothing to do
SELECT count(cfstore.insert('Vac', 'Now', 'wide', lpad(i::text, 5, '0'), repeat('x', 100), writetime => 1))
  FROM generate_series(1, 500) i;
SELECT cfstore.insert('Vac', 'Now', 'wide', '99999', 'newer', writetime => 3);
SELECT cfstore.remove('Vac', 'Now', 'wide', writetime => 2);
SELECT leaf_pages > 3 AS spans_pages FROM cfstore.stats('Vac', 'Now');
SELECT pg_sleep(1.1);
SELECT autovacuum_quiet();
-- (TRUNCATE false: the leaves emptied stay in the file, for the reuse below)
VACUUM (TRUNCATE false) :now_rel;
SELECT cell_versions, tombstones FROM cfstore.stats('Vac', 'Now');
SELECT column_name, value FROM cfstore.get_slice('Vac', 'Now', 'wide');
SELECT autovacuum_quiet();
VACUUM (TRUNCATE false) :now_rel;
SELECT cell_versions, tombstones FROM cfstore.stats('Vac', 'Now');
SELECT column_name, value FROM cfstore.get_slice('Vac', 'Now', 'wide');
SELECT cfstore.verify('Vac', 'Now');
-- the emptied leaves left the tree (the row's one cell is on the last leaf),
-- and the first leaf's few cells moved into it (cfmerge.c)
SELECT leaf_pages FROM cfstore.stats('Vac', 'Now');
-- the space they held is used again once the VACUUM after the last
-- snapshot older than their unlink has freed them (storage_unlink has more)
SELECT txid_current() > 0 AS xid_used;
SELECT autovacuum_quiet();
VACUUM (TRUNCATE false) :now_rel;
SELECT pg_relation_size(:'now_rel') AS size_before \gset
SELECT count(cfstore.insert('Vac', 'Now', 'wide', lpad(i::text, 5, '0'), repeat('y', 100), writetime => 4))
  FROM generate_series(1, 200) i;
SELECT pg_relation_size(:'now_rel') = :size_before AS no_new_pages;
SELECT count(*) FROM cfstore.get_slice('Vac', 'Now', 'wide', count => 1000);

-- ---------------------------------------------------------------------------
-- 4. counters: increments merge, a deletion removes what it shadows
-- ---------------------------------------------------------------------------
SELECT count(cfstore.add('Vac', 'Cnt', 'k', 'hits', i)) FROM generate_series(1, 20) i;
SELECT count(cfstore.add('Vac', 'Cnt', 'k', 'misses', 1)) FROM generate_series(1, 5) i;
SELECT cfstore.remove_counter('Vac', 'Cnt', 'k', 'misses');
SELECT cfstore.add('Vac', 'Cnt', 'k', 'misses', 7);
SELECT column_name, value FROM cfstore.get_slice('Vac', 'Cnt', 'k');
SELECT cell_versions FROM cfstore.stats('Vac', 'Cnt');
-- past gc_grace_seconds (0) for certain, so the counter's tombstone goes
-- too: local deletion times are whole seconds, and whether VACUUM ran in
-- the same second as remove_counter used to decide it
SELECT pg_sleep(1.1);
SELECT autovacuum_quiet();
VACUUM :cnt_rel;
SELECT cell_versions FROM cfstore.stats('Vac', 'Cnt');
SELECT column_name, value FROM cfstore.get_slice('Vac', 'Cnt', 'k');
SELECT cfstore.add('Vac', 'Cnt', 'k', 'hits', 1000);
SELECT column_name, value FROM cfstore.get_slice('Vac', 'Cnt', 'k');
SELECT cfstore.verify('Vac', 'Cnt');

-- ---------------------------------------------------------------------------
-- 5. super columns: a super column deletion removes its subcolumns only
-- ---------------------------------------------------------------------------
SELECT count(cfstore.insert('Vac', 'Sup', 'k', c, 'v', super_column => s, writetime => 1))
  FROM unnest(ARRAY['s1', 's2']) s, unnest(ARRAY['a', 'b']) c;
SELECT cfstore.remove('Vac', 'Sup', 'k', super_column => 's1', writetime => 1);
SELECT autovacuum_quiet();
VACUUM :sup_rel;
SELECT cell_versions, tombstones FROM cfstore.stats('Vac', 'Sup');
SELECT super_column, column_name FROM cfstore.get_slice('Vac', 'Sup', 'k');
SELECT cfstore.verify('Vac', 'Sup');

-- ---------------------------------------------------------------------------
-- 6. freezing: VACUUM FREEZE freezes every version and relfrozenxid
--    advances to the oldest xmin left (none: the freeze horizon)
-- ---------------------------------------------------------------------------
SELECT relfrozenxid AS frozen_before FROM pg_class WHERE oid = :'grace_rel'::regclass \gset
SELECT txid_current() IS NOT NULL AS burn_an_xid;
SELECT autovacuum_quiet();
VACUUM (FREEZE) :grace_rel;
SELECT age(relfrozenxid) < age(:'frozen_before'::xid) AS advanced FROM pg_class WHERE oid = :'grace_rel'::regclass;
SELECT key, column_name, value FROM :grace_rel ORDER BY 1, 2;
SELECT cfstore.verify('Vac', 'Grace');
-- autovacuum sees the inserts
SELECT n_tup_ins > 0 AS counted FROM pg_stat_user_tables WHERE relid = :'grace_rel'::regclass;

-- ---------------------------------------------------------------------------
-- 7. overflow chains that no page refers to any more are freed, and new
--    chains and tree pages take their pages: shadowed long values,
--    rolled-back writes, removed rows with long keys (whose copies in
--    separators and high keys are still referred to)
-- ---------------------------------------------------------------------------
SELECT cfstore.create_column_family('Vac', 'Long', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore._storage_relation('Vac', 'Long') AS long_rel \gset
-- 20 columns of 20 kB (3 overflow pages each), each written 5 times
SELECT count(cfstore.insert('Vac', 'Long', 'k', 'c' || i, repeat(md5(i || '/' || w), 625), writetime => w))
  FROM generate_series(1, 20) i, generate_series(1, 5) w;
SELECT pg_relation_size(:'long_rel') AS long_size \gset
SELECT autovacuum_quiet();
VACUUM :long_rel;
-- four more versions of each take the pages of the four shadowed ones
SELECT count(cfstore.insert('Vac', 'Long', 'k', 'c' || i, repeat(md5(i || '/' || w), 625), writetime => w))
  FROM generate_series(1, 20) i, generate_series(6, 9) w;
SELECT pg_relation_size(:'long_rel') = :long_size AS pages_reused;
SELECT count(*), bool_and(value = repeat(md5(substr(column_name, 2) || '/9'), 625)) AS newest
  FROM cfstore.get_slice('Vac', 'Long', 'k', count => 100);
-- a rolled-back write's chains go too
BEGIN;
SELECT count(cfstore.insert('Vac', 'Long', 'k', 'c' || i, repeat('r', 20000), writetime => 10))
  FROM generate_series(1, 20) i;
ROLLBACK;
SELECT autovacuum_quiet();
VACUUM :long_rel;
SELECT pg_relation_size(:'long_rel') AS long_size \gset
SELECT count(cfstore.insert('Vac', 'Long', 'k', 'c' || i, repeat(md5(i || '/10'), 625), writetime => 10))
  FROM generate_series(1, 20) i;
SELECT pg_relation_size(:'long_rel') = :long_size AS pages_reused;
-- rows with 1,000-byte keys, so that separators and high keys refer to the
-- keys' chains; half of them removed, VACUUM, then new rows whose long
-- values take the freed pages: every descent still reads its separators
SELECT count(cfstore.insert('Vac', 'Long', repeat('K', 997) || lpad(r::text, 3, '0'), 'c' || c,
                            repeat('v', 300), writetime => 1))
  FROM generate_series(1, 200) r, generate_series(1, 10) c;
SELECT height > 1 AS split FROM cfstore.stats('Vac', 'Long');
SELECT count(cfstore.remove('Vac', 'Long', repeat('K', 997) || lpad(r::text, 3, '0'), writetime => 2))
  FROM generate_series(1, 200, 2) r;
SELECT pg_sleep(1.1);
SELECT autovacuum_quiet();
VACUUM :long_rel;
SELECT tombstones, live_cells FROM cfstore.stats('Vac', 'Long');
SELECT pg_relation_size(:'long_rel') AS long_size \gset
SELECT count(cfstore.insert('Vac', 'Long', repeat('Q', 997) || lpad(r::text, 3, '0'), 'c',
                            repeat(md5(r::text), 625), writetime => 3))
  FROM generate_series(1, 100) r;
-- they need 400 overflow pages (a key and a 20 kB value each); the removed
-- rows' key chains, less those still referred to, were free
SELECT (pg_relation_size(:'long_rel') - :long_size) / 8192 < 400 AS freed_pages_taken;
SELECT cfstore.verify('Vac', 'Long');
SELECT count(*) FROM generate_series(1, 200) r,
       cfstore.get_slice('Vac', 'Long', repeat('K', 997) || lpad(r::text, 3, '0'), count => 100);
SELECT count(*), bool_and(value = repeat(md5(r::text), 625)) AS same FROM generate_series(1, 100) r,
       cfstore.get_slice('Vac', 'Long', repeat('Q', 997) || lpad(r::text, 3, '0'));
SELECT count(*), count(DISTINCT key) FROM :long_rel;

DROP FUNCTION autovacuum_quiet();
SELECT cfstore.drop_keyspace('Vac');
