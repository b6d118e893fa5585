-- A run stores each column name as the bytes it does not share with the
-- name before it (a shared prefix and suffix); TimeUUIDs are permuted
-- first so that names close in time share a prefix.  Names of many widths
-- with much in common, and TimeUUIDs close in time from a few writers,
-- written in random order, must read back exactly, in order, forwards,
-- backwards and from a start bound: as written (runs appended to one
-- cell at a time) and after VACUUM (runs encoded whole).
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Names');
SELECT cfstore.create_column_family('Names', 'Text', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Names', 'Uuid', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore._storage_relation('Names', 'Text') AS text_rel \gset
SELECT cfstore._storage_relation('Names', 'Uuid') AS uuid_rel \gset

-- Text names: a prefix from a few (of different lengths), a middle of
-- up to 3 letters and 2 digits from small alphabets, a suffix from a few; so neighbours
-- share prefixes, suffixes, both or neither, and often have one width.
SELECT setseed(0.17);
CREATE TABLE names_text AS
  SELECT DISTINCT (ARRAY['', 'a', 'ab', 'abc', 'user_', 'user_timeline_', repeat('p', 40)])[1 + (random() * 6)::int]
         || substr('abcxyz', 1 + (random() * 5)::int, (random() * 3)::int)
         || substr('0123456789', 1 + (random() * 9)::int, (random() * 2)::int)
         || (ARRAY['', 'z', '_1', '_2', '.json', repeat('s', 30)])[1 + (random() * 5)::int] AS name
    FROM generate_series(1, 4000);
DELETE FROM names_text WHERE name = '';
-- TimeUUIDs: times within ten seconds, from four writers (clock sequence and node)
CREATE TABLE names_uuid AS
  SELECT DISTINCT cfstore.timeuuid((
           lpad(to_hex(t & x'ffffffff'::bigint), 8, '0') || '-' ||
           lpad(to_hex((t >> 32) & x'ffff'::bigint), 4, '0') || '-1' ||
           lpad(to_hex((t >> 48) & x'fff'::bigint), 3, '0') || '-' ||
           (ARRAY['8a01-0000000000a1', '8a01-0000000000a2', 'bfff-ffffffffffff', '8000-000000000000'])[w]
         )::uuid) AS name
    FROM (SELECT 138000000000000000 + (random() * 100000000)::bigint AS t, 1 + (random() * 3)::int AS w
            FROM generate_series(1, 3000)) s;
SELECT (SELECT count(*) FROM names_text) > 2000 AS many_text_names,
       (SELECT count(*) FROM names_uuid) > 2500 AS many_uuid_names;

-- written one by one, in random order, into one row (it spans pages)
SELECT count(cfstore.insert('Names', 'Text', 'row', name, 'v:' || name, writetime => 1))
  FROM (SELECT name FROM names_text ORDER BY random()) s;
SELECT count(cfstore.insert('Names', 'Uuid', 'row', name, 'v:' || name::text, writetime => 1))
  FROM (SELECT name FROM names_uuid ORDER BY random()) s;

-- what each read must return: every name once, in order, with its own value
CREATE TABLE names_expect AS
  SELECT 1 AS ord, 'Text' AS cf, 'forward' AS read, false AS reversed, NULL::text AS start,
         array_agg(name || '=v:' || name ORDER BY name COLLATE "C") AS cells FROM names_text
  UNION ALL
  SELECT 2, 'Text', 'reversed', true, NULL,
         array_agg(name || '=v:' || name ORDER BY name COLLATE "C" DESC) FROM names_text
  UNION ALL
  SELECT 3, 'Text', 'from user_', false, 'user_',
         array_agg(name || '=v:' || name ORDER BY name COLLATE "C") FROM names_text
   WHERE name COLLATE "C" >= 'user_'
  UNION ALL
  SELECT 4, 'Uuid', 'forward', false, NULL,
         array_agg(name::text || '=v:' || name::text ORDER BY name) FROM names_uuid
  UNION ALL
  SELECT 5, 'Uuid', 'reversed', true, NULL,
         array_agg(name::text || '=v:' || name::text ORDER BY name DESC) FROM names_uuid
  UNION ALL
  SELECT 6, 'Uuid', 'from the 1000th', false, min(name::text),
         array_agg(name::text || '=v:' || name::text ORDER BY name)
    FROM (SELECT name FROM names_uuid ORDER BY name OFFSET 999) s;
-- what a read returns, in its order
CREATE FUNCTION names_read(cf text, reversed boolean, start text) RETURNS text[] LANGUAGE sql AS $$
  SELECT coalesce(array_agg(column_name || '=' || value), '{}')
    FROM cfstore.get_slice('Names', cf, 'row', start => start, reversed => reversed, count => 100000)
$$;
CREATE FUNCTION names_check(phase text) RETURNS TABLE (phase text, cf text, read text, ok boolean)
LANGUAGE sql AS $$
  SELECT phase, cf, read, names_read(cf, reversed, start) = cells FROM names_expect ORDER BY ord
$$;

SELECT * FROM names_check('as written');
SELECT cfstore.verify('Names', 'Text'), cfstore.verify('Names', 'Uuid');
VACUUM :text_rel;
VACUUM :uuid_rel;
SELECT * FROM names_check('after VACUUM');
SELECT cfstore.verify('Names', 'Text'), cfstore.verify('Names', 'Uuid');
-- the rows span pages
SELECT leaf_pages > 2 AS text_spans_pages FROM cfstore.stats('Names', 'Text');
SELECT leaf_pages > 2 AS uuid_spans_pages FROM cfstore.stats('Names', 'Uuid');

DROP FUNCTION names_check(text), names_read(text, boolean, text);
DROP TABLE names_text, names_uuid, names_expect;
SELECT cfstore.drop_keyspace('Names');
