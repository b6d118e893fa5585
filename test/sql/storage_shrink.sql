-- VACUUM shrinks the file (src/storage/cfshrink.c): the leaves its
-- compaction gave away are freed, tree pages near the end of the file move
-- into them, and the end is cut off, so after VACUUM the file is the tree.
-- storage_merge compares every read with a model after such a VACUUM; this
-- test has a tree of three levels (internal pages move too), long values
-- (overflow pages stay where they are), vacuum_truncate = false and writes
-- after the shrink.
\set VERBOSITY terse

-- no autovacuum worker's xmin holds VACUUM back (autovacuum_quiet)
\i test/sql/include/autovacuum_quiet.sql
-- the metapage's root block (pageinspect)
CREATE EXTENSION pageinspect;
CREATE FUNCTION root_block(rel regclass) RETURNS bigint LANGUAGE sql AS
  $$ SELECT get_byte(p, 32) + 256 * get_byte(p, 33) + 65536 * get_byte(p, 34) + 16777216::bigint * get_byte(p, 35)
       FROM get_raw_page(rel::text, 0) p $$;
SELECT cfstore.create_keyspace('Shr');
SELECT cfstore.create_column_family('Shr', 'T', comparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Shr', 'T') AS rel \gset
-- VACUUM runs where the test says: an autovacuum (or its ANALYZE) holding
-- the table when VACUUM wants its exclusive lock would keep the file as it is
ALTER TABLE :rel SET (autovacuum_enabled = off);

-- two long values first (their overflow pages near the start of the file),
-- then 1,000 rows of 40 columns of 24-byte values arriving interleaved:
-- leaves about three quarters full, under two levels of internal pages
SELECT cfstore.insert('Shr', 'T', 'long' || i, 1, repeat(md5(i::text), 200)) FROM generate_series(1, 2) i;
INSERT INTO :rel (key, column_name, value, writetime)
SELECT convert_to('row' || lpad(r::text, 4, '0'), 'UTF8'), int8send(c), convert_to(substr(md5('v' || i), 1, 24), 'UTF8'),
       1000 + i
  FROM generate_series(0::bigint, 1000 * 40 - 1) i,
       LATERAL (SELECT ((i % 1000) * 7919 + (i / 1000) * 104729) % 1000 AS r, i / 1000 AS c) x;
CREATE TEMP TABLE model AS
  SELECT convert_from(key, 'UTF8') AS k, cfstore.to_string('LongType', column_name)::bigint AS c, convert_from(value, 'UTF8') AS v, writetime
    FROM :rel;
CREATE INDEX ON model (k);
ANALYZE model;
SELECT pages AS pages_before, tree_pages AS tree_before, root_block(:'rel') AS root_before
  FROM cfstore.stats('Shr', 'T') \gset
SELECT height, leaf_fill < 80 AS underfull, live_cells, pages - tree_pages AS overflow_pages
  FROM cfstore.stats('Shr', 'T');

-- with vacuum_truncate = false (as with VACUUM (TRUNCATE false), which
-- storage_unlink uses), VACUUM compacts the leaves and leaves the file as it was
ALTER TABLE :rel SET (vacuum_truncate = false);
SELECT autovacuum_quiet();
VACUUM :rel;
ALTER TABLE :rel RESET (vacuum_truncate);
SELECT leaf_fill >= 90 AS full, pages = :pages_before AS same_file, tree_pages < :tree_before * 0.75 AS tree_shrank
  FROM cfstore.stats('Shr', 'T');
SELECT tree_pages AS tree_compacted FROM cfstore.stats('Shr', 'T') \gset

-- the next VACUUM moves tree pages, leaves and internal, into the pages
-- the first one freed and cuts the end off: only the overflow pages are
-- left beside the tree.  The root, made late in the load, moved too.  (The
-- tree does not grow; freezing what the first VACUUM left unfrozen may let
-- the compaction take a few leaves more, cfvacuum.c.)
SELECT autovacuum_quiet();
VACUUM :rel;
SELECT height, pages - tree_pages AS overflow_pages, tree_pages <= :tree_compacted AS tree_not_grown,
       pages < :pages_before * 0.75 AS file_shrank, live_cells
  FROM cfstore.stats('Shr', 'T');
SELECT pg_relation_size(:'rel') / 8192 = pages AS file_size, :root_before >= pages AS root_was_cut_off,
       root_block(:'rel') < pages AS root_in_file
  FROM cfstore.stats('Shr', 'T');
SELECT cfstore.verify('Shr', 'T');

-- every cell as it was, read through the storage relation, whole rows,
-- latest columns, a range of keys, and the long values
SELECT count(*) AS differing
  FROM ((TABLE model
         EXCEPT SELECT convert_from(key, 'UTF8'), cfstore.to_string('LongType', column_name)::bigint, convert_from(value, 'UTF8'), writetime FROM :rel)
        UNION ALL
        (SELECT convert_from(key, 'UTF8'), cfstore.to_string('LongType', column_name)::bigint, convert_from(value, 'UTF8'), writetime FROM :rel
         EXCEPT TABLE model)) d;
SELECT count(*) AS rows_differing
  FROM (SELECT DISTINCT k FROM model WHERE k LIKE 'row%') r
 WHERE (SELECT array_agg(column_name::bigint || '=' || value) FROM cfstore.get_slice('Shr', 'T', r.k, count => 100))
       IS DISTINCT FROM (SELECT array_agg(c || '=' || v ORDER BY c) FROM model m WHERE m.k = r.k)
    OR (SELECT array_agg(column_name::bigint) FROM cfstore.get_slice('Shr', 'T', r.k, reversed => true, count => 3))
       IS DISTINCT FROM (SELECT array_agg(c ORDER BY c DESC) FROM (SELECT c FROM model m WHERE m.k = r.k
                                                                  ORDER BY c DESC LIMIT 3) s);
SELECT count(DISTINCT key) AS keys, count(*) AS cells
  FROM cfstore.get_range_slices('Shr', 'T', start_key => 'row0500', end_key => 'row0899', count => 100,
                                key_count => 1000);
SELECT key, length(value), md5(value) = md5(repeat(md5(substr(key, 5)), 200)) AS same
  FROM cfstore.multiget_slice('Shr', 'T', ARRAY['long1', 'long2']) ORDER BY key;

-- writes go on into the smaller file: new columns for every row, which
-- split leaves into new pages at the end
SELECT count(cfstore.insert('Shr', 'T', 'row' || lpad(r::text, 4, '0'), 100 + n, 'new'))
  FROM generate_series(0, 999) r, generate_series(1, 5) n;
SELECT count(*) AS rows_with_new_columns
  FROM (SELECT k FROM (SELECT DISTINCT k FROM model WHERE k LIKE 'row%') r,
                LATERAL cfstore.get_slice('Shr', 'T', r.k, start => 100::bigint, count => 10) s
         GROUP BY k HAVING count(*) = 5) x;
SELECT cfstore.verify('Shr', 'T');

-- a VACUUM with nothing to cut keeps the file
SELECT autovacuum_quiet();
VACUUM :rel;
SELECT pages AS pages_now FROM cfstore.stats('Shr', 'T') \gset
SELECT autovacuum_quiet();
VACUUM :rel;
SELECT pages = :pages_now AS unchanged, live_cells FROM cfstore.stats('Shr', 'T');
SELECT cfstore.verify('Shr', 'T');

SELECT cfstore.drop_keyspace('Shr');
DROP FUNCTION root_block(regclass);
DROP EXTENSION pageinspect;
DROP FUNCTION autovacuum_quiet();
