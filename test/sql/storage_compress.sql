-- compression_options: Cassandra's map, checked as Cassandra checks it,
-- shown by describe_keyspace as given, mapped to lz4 (LZ4Compressor,
-- SnappyCompressor) or pglz (DeflateCompressor) for the values written from
-- then on; every read returns the values as written (src/storage/cfcompress.c).
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Zip');
SELECT cfstore.create_column_family('Zip', 'Plain', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Zip', 'Lz4', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": 64}');
SELECT cfstore.create_column_family('Zip', 'Pglz', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         compression_options => '{"sstable_compression": "org.apache.cassandra.io.compress.DeflateCompressor"}');
SELECT cfstore.create_column_family('Zip', 'Snappy', compression_options => '{"sstable_compression": "SnappyCompressor", "chunk_length_kb": "16", "crc_check_chance": 0.5}');
SELECT cfstore.create_column_family('Zip', 'Off', compression_options => '{"sstable_compression": ""}');
SELECT cfstore.create_column_family('Zip', 'Empty', compression_options => '{}');

-- the map as given, and what it maps to
SELECT name, compression_options, compression FROM cfstore.column_family WHERE keyspace = 'Zip' ORDER BY name;
SELECT d ->> 'name' AS name, d -> 'compression_options' AS compression_options
  FROM jsonb_array_elements(cfstore.describe_keyspace('Zip') -> 'cf_defs') d ORDER BY 1;

-- Cassandra's errors
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "FooCompressor"}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "com.example.Lz4"}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": 3}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": 0}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": -64}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": "64k"}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": 99999999999}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "crc_check_chance": 2}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "crc_check_chance": "often"}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '{"sstable_compression": "LZ4Compressor", "level": 9}');
SELECT cfstore.create_column_family('Zip', 'Bad', compression_options => '"LZ4Compressor"');
SELECT cfstore.update_column_family('Zip', 'Plain', compression_options => '{"sstable_compression": "Nope"}');
SELECT count(*) FROM cfstore.column_family WHERE name = 'Bad';

-- The same documents into each: repetitive JSON of about 600 bytes (a
-- document's keys, a user's fields, words that recur), one row a day of
-- 100 documents, written interleaved across the rows.
CREATE TEMP TABLE docs AS
SELECT 'day' || d AS key, 'doc' || lpad(n::text, 3, '0') AS name,
       format('{"id": %s, "user": {"id": %s, "name": "user %s", "lang": "en", "followers": %s, "verified": false}, '
              '"text": "%s", "tags": ["cfstore", "day%s"], "retweeted": false, "favorited": false, '
              '"source": "web", "reply_to": null, "entities": {"urls": [], "mentions": ["user %s"]}}',
              d * 1000 + n, n % 37, n % 37, (n * 7919) % 10007,
              (SELECT string_agg((ARRAY['the', 'storage', 'engine', 'keeps', 'cells', 'in', 'comparator',
                                        'order', 'slices', 'read', 'a', 'row'])[1 + (d * 31 + n * 17 + w * 7) % 12], ' ')
                 FROM generate_series(1, 45) w),
              d, (n + 1) % 37) AS value
  FROM generate_series(1, 100) n, generate_series(1, 20) d;
SELECT count(*), min(length(value)), max(length(value)) FROM docs;
SELECT count(cfstore.insert('Zip', cf, key, name, value, writetime => 1))
  FROM (SELECT * FROM docs ORDER BY name, key) d, unnest(ARRAY['Plain', 'Lz4', 'Pglz']) cf;

-- values that do not compress, short values, and long ones that compress
-- (and then fit inline) or do not (and go out of line as they are)
SELECT count(cfstore.insert('Zip', cf, 'misc', v.name, v.value, writetime => 1))
  FROM (VALUES ('noise', (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 20) i)),
               ('short', 'v'),
               ('edge', repeat('x', 31)),
               ('long', repeat('a long document ', 1000)),
               ('longnoise', (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 200) i))) v(name, value),
       unnest(ARRAY['Plain', 'Lz4', 'Pglz']) cf;

-- every read returns what was written, whatever the compression
SELECT cf,
       (SELECT md5(string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name))
          FROM cfstore.get_range_slices('Zip', cf, NULL::text, NULL::text, key_count => 100, count => 1000)) AS range,
       (SELECT md5(string_agg(column_name || '=' || value, ','))
          FROM cfstore.get_slice('Zip', cf, 'day7'::text, reversed => true, count => 10)) AS latest,
       (SELECT md5(string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name))
          FROM cfstore.multiget_slice('Zip', cf, ARRAY['day3', 'misc', 'day19'], start => 'doc050'::text, count => 20)) AS multiget
  FROM unnest(ARRAY['Plain', 'Lz4', 'Pglz']) cf ORDER BY cf;
SELECT (SELECT md5(string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name)) FROM "Zip"."Lz4")
     = (SELECT md5(string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name)) FROM "Zip"."Plain")
       AS foreign_tables_agree,
       (SELECT count(*) FROM "Zip"."Lz4" l JOIN docs d ON (l.key, l.column_name, l.value) = (d.key, d.name, d.value)) AS docs_match;
SELECT length(value), md5(value) FROM cfstore.get('Zip', 'Lz4', 'misc', 'long');
SELECT length(value), md5(value) FROM cfstore.get('Zip', 'Pglz', 'misc', 'longnoise');

-- the documents take less space compressed (after VACUUM (FREEZE), tree
-- pages against the plain tree's): pglz, each value on its own, less than
-- 2/3; lz4 with the dictionary (the first document) less than 1/2
SELECT cfstore._storage_relation('Zip', 'Plain') AS plain_rel, cfstore._storage_relation('Zip', 'Lz4') AS lz4_rel,
       cfstore._storage_relation('Zip', 'Pglz') AS pglz_rel \gset
VACUUM (FREEZE) :plain_rel, :lz4_rel, :pglz_rel;
SELECT cf, s.tree_pages::numeric / (SELECT tree_pages FROM cfstore.stats('Zip', 'Plain')) < limit_ AS smaller
  FROM (VALUES ('Lz4', 0.5), ('Pglz', 0.65)) v(cf, limit_), cfstore.stats('Zip', cf) s;
SELECT cfstore.verify('Zip', 'Lz4'), cfstore.verify('Zip', 'Pglz');

-- equal timestamps: the bigger value wins, compared as written (the
-- compressed forms order the other way round here)
SELECT cfstore.insert('Zip', 'Lz4', 'tie', 'c', 'b' || repeat('z', 100), writetime => 5);
SELECT cfstore.insert('Zip', 'Lz4', 'tie', 'c', 'a' || repeat('y', 40) || md5('x'), writetime => 5);
SELECT left(value, 3), length(value) FROM cfstore.get('Zip', 'Lz4', 'tie', 'c');

-- an indexed column of a compressed column family: the index holds the
-- value as written, and a search by it finds the row
SELECT cfstore.create_column_family('Zip', 'Users', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "bio", "validation_class": "UTF8Type", "index_type": "KEYS"}]',
         compression_options => '{"sstable_compression": "LZ4Compressor"}');
SELECT count(cfstore.insert('Zip', 'Users', 'u' || i, 'bio', repeat('likes wide rows ', 4 + i % 3)))
  FROM generate_series(1, 9) i;
SELECT key FROM cfstore.get_indexed_slices('Zip', 'Users',
         '[{"column_name": "bio", "op": "EQ", "value": "likes wide rows likes wide rows likes wide rows likes wide rows likes wide rows "}]'::jsonb)
 ORDER BY key;

-- TTL: compressed values expire, and VACUUM turns them into tombstones
SELECT count(cfstore.insert('Zip', 'Lz4', 'ttl', 'c' || i, repeat('expiring ', 20), writetime => 1, ttl => 1))
  FROM generate_series(1, 50) i;
SELECT count(*) FROM cfstore.get_slice('Zip', 'Lz4', 'ttl');
SELECT pg_sleep(2.1);
SELECT count(*) FROM cfstore.get_slice('Zip', 'Lz4', 'ttl');
-- with gc_grace_seconds 0 the second VACUUM removes them, and frees the
-- overflow pages nothing refers to: not the dictionary's, which the
-- metapage refers to (every document still reads back)
SELECT cfstore.update_column_family('Zip', 'Lz4', gc_grace_seconds => 0);
VACUUM (FREEZE) :lz4_rel;
SELECT pg_sleep(1.1);
SELECT cfstore.remove('Zip', 'Lz4', 'misc', 'longnoise', writetime => 2);
VACUUM (FREEZE) :lz4_rel;
VACUUM (FREEZE) :lz4_rel;
SELECT count(*) FROM cfstore.get_slice('Zip', 'Lz4', 'ttl');
SELECT count(*) FROM "Zip"."Lz4" l JOIN docs d ON (l.key, l.column_name, l.value) = (d.key, d.name, d.value);
SELECT cfstore.verify('Zip', 'Lz4');

-- a change applies to what is written after it, and VACUUM FULL writes
-- every cell again: Plain compressed, Lz4 plain, the same values read back
SELECT cfstore.update_column_family('Zip', 'Plain', comment => 'still plain');
SELECT compression FROM cfstore.column_family WHERE keyspace = 'Zip' AND name = 'Plain';
SELECT cfstore.update_column_family('Zip', 'Plain', compression_options => '{"sstable_compression": "LZ4Compressor"}');
SELECT cfstore.update_column_family('Zip', 'Lz4', compression_options => '{}');
SELECT name, compression_options, compression FROM cfstore.column_family
 WHERE keyspace = 'Zip' AND name IN ('Plain', 'Lz4') ORDER BY name;
VACUUM FULL :plain_rel;
VACUUM FULL :lz4_rel;
SELECT pg_relation_size(:'plain_rel') * 1.4 < pg_relation_size(:'lz4_rel') AS plain_now_smaller;
SELECT (SELECT md5(string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name))
          FROM cfstore.get_range_slices('Zip', 'Plain', NULL::text, NULL::text, key_count => 100, count => 1000))
     = (SELECT md5(string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name))
          FROM cfstore.get_range_slices('Zip', 'Pglz', NULL::text, NULL::text, key_count => 100, count => 1000))
       AS same_values;
SELECT cfstore.verify('Zip', 'Plain'), cfstore.verify('Zip', 'Lz4');

-- counters are never compressed and still add up
SELECT cfstore.create_column_family('Zip', 'Counts', default_validation_class => 'CounterColumnType',
         compression_options => '{"sstable_compression": "LZ4Compressor"}');
SELECT count(cfstore.add('Zip', 'Counts', 'k', 'c', i)) FROM generate_series(1, 100) i;
SELECT value FROM cfstore.get('Zip', 'Counts', 'k', 'c');

SELECT cfstore.drop_keyspace('Zip');

-- a role without privileges of its own: compression in its keyspace, its
-- hostile maps refused, and no way to change another owner's setting
CREATE ROLE regress_zip_owner;
CREATE ROLE regress_zip_other;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_zip_owner', current_database()); END $$;
SET ROLE regress_zip_owner;
SELECT cfstore.create_keyspace('ZipOwned');
SELECT cfstore.create_column_family('ZipOwned', 'Docs', default_validation_class => 'UTF8Type',
         compression_options => '{"sstable_compression": "LZ4Compressor"}');
SELECT count(cfstore.insert('ZipOwned', 'Docs', 'k', 'c' || i, repeat('owned document ', 10 + i)))
  FROM generate_series(1, 20) i;
SELECT count(*), sum(length(value)) FROM cfstore.get_slice('ZipOwned', 'Docs', 'k'::text);
SELECT cfstore.update_column_family('ZipOwned', 'Docs',
         compression_options => jsonb_build_object('sstable_compression', repeat('x', 300)));
SELECT cfstore.update_column_family('ZipOwned', 'Docs',
         compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": {"a": [1]}}');
SELECT cfstore._compression('{}');
SET ROLE regress_zip_other;
SELECT cfstore.update_column_family('ZipOwned', 'Docs', compression_options => '{}');
SELECT count(*) FROM cfstore.get_slice('ZipOwned', 'Docs', 'k'::text);
RESET ROLE;
SELECT compression FROM cfstore.column_family WHERE keyspace = 'ZipOwned';
SET ROLE regress_zip_owner;
SELECT cfstore.drop_keyspace('ZipOwned');
RESET ROLE;
DO $$ BEGIN EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_zip_owner', current_database()); END $$;
DROP ROLE regress_zip_owner;
DROP ROLE regress_zip_other;
