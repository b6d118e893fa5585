-- KEYS secondary indexes and get_indexed_slices (README.md "Reading and writing",
-- doc/semantics.md §8.6): the expression rules and texts, the
-- operators under the column's validator, and an index that follows
-- reconciliation through every write path (insert, batch_mutate, the
-- storage relation, remove of a column or row, TTL expiry, rollback,
-- truncate), built for existing data by update_column_family, and read at
-- a cost that follows the matching rows.  verify checks that every live
-- indexed value has its entry.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Idx');
SELECT cfstore.create_column_family('Idx', 'Users', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "birthdate", "validation_class": "LongType", "index_type": "KEYS"},
                              {"column_name": "state", "validation_class": "UTF8Type"}]');
-- the index has a name (Cassandra's default) and a storage relation of its own
SELECT d.index_name, c.relname IS NOT NULL AS has_relation, obj_description(c.oid, 'pg_class')
  FROM cfstore.column_definition d
  LEFT JOIN pg_class c ON c.relname = 'cf_' || d.index_id
 WHERE d.index_type IS NOT NULL;
SELECT jsonb_path_query(cfstore.describe_keyspace('Idx'), '$.cf_defs[*].column_metadata');

-- nine users: birthdate 1971, 1972, 1970 in turn; state UT for even ones
SELECT count(*) FROM (
  SELECT cfstore.insert('Idx', 'Users', 'u' || i, 'birthdate', 1970 + i % 3, writetime => 10),
         cfstore.insert('Idx', 'Users', 'u' || i, 'state', CASE WHEN i % 2 = 0 THEN 'UT' ELSE 'TX' END, writetime => 10),
         cfstore.insert('Idx', 'Users', 'u' || i, 'name', 'user ' || i, writetime => 10)
    FROM generate_series(1, 9) i) w;

-- ---------------------------------------------------------------------------
-- 1. Searches: rows in key order, every column the predicate asks for (the
--    indexed column need not be among them), start_key, key_count
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "EQ", "value": "1971"}]');
SELECT key, column_name, value FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": 1971}]', start => 'name', finish => 'name');
SELECT key, column_name FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', reversed => true, count => 1);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', start_key => 'u3', count => 1);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', start_key => 'u3', key_count => 1, count => 1);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1999"}]');
-- a predicate that returns nothing for a row: the row neither appears nor counts
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', start => 'zzz', count => 1);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', count => 0);

-- ---------------------------------------------------------------------------
-- 2. More expressions: every one must hold, on a live value of its column,
--    compared by the column's validator (LongType is signed)
-- ---------------------------------------------------------------------------
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1971"}, {"column_name": "state", "op": "EQ", "value": "UT"}]', count => 1);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "state", "op": "EQ", "value": "UT"}, {"column_name": "birthdate", "op": "EQ", "value": "1971"}]', count => 1);
SELECT cfstore.update_column_family('Idx', 'Users', column_metadata =>
         '[{"column_name": "birthdate", "validation_class": "LongType", "index_type": "KEYS"},
           {"column_name": "state", "validation_class": "UTF8Type"},
           {"column_name": "score", "validation_class": "LongType"}]');
SELECT cfstore.insert('Idx', 'Users', 'u1', 'score', 5, writetime => 10);
SELECT cfstore.insert('Idx', 'Users', 'u4', 'score', -1, writetime => 10);
SELECT op, string_agg(key, ',' ORDER BY key) AS keys
  FROM unnest(ARRAY['EQ', 'GTE', 'GT', 'LTE', 'LT']) op,
       LATERAL cfstore.get_indexed_slices('Idx', 'Users',
         jsonb_build_array(jsonb_build_object('column_name', 'birthdate', 'op', 'EQ', 'value', '1971'),
                           jsonb_build_object('column_name', 'score', 'op', op, 'value', '-1')),
         start => 'score', finish => 'score')
 GROUP BY op ORDER BY op;
-- a row without the filtered column does not qualify (u7 has no score)
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1971"}, {"column_name": "score", "op": "LT", "value": "100"}]', count => 1);

-- ---------------------------------------------------------------------------
-- 3. The index follows reconciliation
-- ---------------------------------------------------------------------------
-- an older timestamp changes nothing; a newer one moves the row
SELECT cfstore.insert('Idx', 'Users', 'u1', 'birthdate', 1972, writetime => 9);
SELECT cfstore.insert('Idx', 'Users', 'u4', 'birthdate', 1972, writetime => 11);
SELECT v AS born, string_agg(key, ',' ORDER BY key) AS keys
  FROM unnest(ARRAY['1970', '1971', '1972']) v,
       LATERAL cfstore.get_indexed_slices('Idx', 'Users',
         jsonb_build_array(jsonb_build_object('column_name', 'birthdate', 'op', 'EQ', 'value', v)), count => 1)
 GROUP BY v ORDER BY v;
-- equal timestamps: the bigger value wins (1971 < 1972 as bytes), and the loser's entry goes
SELECT cfstore.insert('Idx', 'Users', 'u7', 'birthdate', 1972, writetime => 10);
SELECT cfstore.insert('Idx', 'Users', 'u2', 'birthdate', 1971, writetime => 10);
SELECT key, value FROM cfstore.get_columns('Idx', 'Users', 'u7', ARRAY['birthdate'])
UNION ALL SELECT key, value FROM cfstore.get_columns('Idx', 'Users', 'u2', ARRAY['birthdate']);
SELECT string_agg(key, ',' ORDER BY key) AS born_1971 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1971"}]', count => 1);
-- a value displaced by a newer one comes back at that newer timestamp, as
-- the bigger value: it wins again and is found again
SELECT cfstore.insert('Idx', 'Users', 'w1', 'birthdate', 2002, writetime => 18);
SELECT cfstore.insert('Idx', 'Users', 'w1', 'birthdate', 2001, writetime => 19);
SELECT cfstore.insert('Idx', 'Users', 'w1', 'birthdate', 2002, writetime => 19);
SELECT v AS born, (SELECT string_agg(key, ',') FROM cfstore.get_indexed_slices('Idx', 'Users',
         jsonb_build_array(jsonb_build_object('column_name', 'birthdate', 'op', 'EQ', 'value', v)), count => 1)) AS keys
  FROM unnest(ARRAY['2001', '2002']) v;
SELECT cfstore.verify('Idx', 'Users');
SELECT cfstore.remove('Idx', 'Users', 'w1', writetime => 100);
-- a column deletion, a row deletion; deletion wins ties
SELECT cfstore.remove('Idx', 'Users', 'u2', 'birthdate', writetime => 10);
SELECT cfstore.remove('Idx', 'Users', 'u5', writetime => 20);
SELECT cfstore.remove('Idx', 'Users', 'u8', 'birthdate', writetime => 5);
SELECT string_agg(key, ',' ORDER BY key) AS born_1972 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', count => 1);
-- a newer write brings a deleted row back
SELECT cfstore.insert('Idx', 'Users', 'u5', 'birthdate', 1972, writetime => 21);
SELECT cfstore.insert('Idx', 'Users', 'u2', 'birthdate', 1972, writetime => 9);
SELECT string_agg(key, ',' ORDER BY key) AS born_1972 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]', count => 1);
-- a value written again with a later ttl keeps its entry; TTL expiry ends it
SELECT cfstore.insert('Idx', 'Users', 'u3', 'birthdate', 1970, writetime => 30, ttl => 1);
SELECT cfstore.insert('Idx', 'Users', 'u6', 'birthdate', 1970, writetime => 30, ttl => 1000);
SELECT string_agg(key, ',' ORDER BY key) AS born_1970 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1970"}]', count => 1);
SELECT pg_sleep(1.1);
SELECT string_agg(key, ',' ORDER BY key) AS born_1970 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1970"}]', count => 1);
SELECT cfstore.verify('Idx', 'Users');

-- rolled back writes leave no entry; a savepoint's rollback undoes its entries only
BEGIN;
SELECT cfstore.insert('Idx', 'Users', 'u9', 'birthdate', 1999, writetime => 40);
SAVEPOINT s;
SELECT cfstore.insert('Idx', 'Users', 'u1', 'birthdate', 1999, writetime => 40);
ROLLBACK TO s;
SELECT string_agg(key, ',' ORDER BY key) AS born_1999 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1999"}]', count => 1);
ROLLBACK;
SELECT count(*) AS born_1999 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1999"}]', count => 1);

-- batch_mutate and rows written into the storage relation are indexed too
SELECT cfstore.batch_mutate('Idx', '{"b1": {"Users": [{"column": {"name": "birthdate", "value": "1999", "timestamp": 50}}]},
                                     "u9": {"Users": [{"deletion": {"timestamp": 50}}]}}');
SELECT cfstore._storage_relation('Idx', 'Users') AS users_rel \gset
INSERT INTO :users_rel (key, column_name, value, writetime)
  VALUES ('b2', 'birthdate', int8send(1999), 50), ('b3', 'birthdate', int8send(1998), 50);
SELECT string_agg(key, ',' ORDER BY key) AS born_1999 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1999"}]', count => 1);
SELECT string_agg(key, ',' ORDER BY key) AS born_1971 FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1971"}]', count => 1);

-- the empty value is not an index entry: a search for it checks the rows instead
SELECT cfstore.insert('Idx', 'Users', 'e1', 'birthdate', ''::bytea, writetime => 50);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "EQ", "value": ""}]', count => 1);
SELECT cfstore.verify('Idx', 'Users');

-- ---------------------------------------------------------------------------
-- 4. update_column_family: a new index is filled from the data (live values
--    only); one that is dropped goes with its relation; one renamed is new
-- ---------------------------------------------------------------------------
SELECT cfstore.update_column_family('Idx', 'Users', column_metadata =>
         '[{"column_name": "birthdate", "validation_class": "LongType", "index_type": "KEYS"},
           {"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS", "index_name": "by_state"},
           {"column_name": "score", "validation_class": "LongType"}]');
SELECT string_agg(key, ',' ORDER BY key) AS in_ut FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "state", "op": "EQ", "value": "UT"}]', count => 1);
SELECT cfstore.verify('Idx', 'Users');
SELECT index_id AS state_index FROM cfstore.column_definition WHERE index_name = 'by_state' \gset
SELECT cfstore.update_column_family('Idx', 'Users', column_metadata =>
         '[{"column_name": "birthdate", "validation_class": "LongType", "index_type": "KEYS"},
           {"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS", "index_name": "by_state2"}]');
SELECT to_regclass('cfstore_data.cf_' || :state_index) AS old_state_index;
SELECT string_agg(key, ',' ORDER BY key) AS in_ut FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "state", "op": "EQ", "value": "UT"}]', count => 1);
SELECT cfstore.update_column_family('Idx', 'Users', gc_grace_seconds => 100);
SELECT index_name FROM cfstore.column_definition WHERE index_name IS NOT NULL ORDER BY 1;
SELECT cfstore.update_column_family('Idx', 'Users', column_metadata =>
         '[{"column_name": "birthdate", "validation_class": "LongType", "index_type": "KEYS"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "state", "op": "EQ", "value": "UT"}]');
SELECT count(*) AS index_relations FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'cfstore_data' AND obj_description(c.oid, 'pg_class') LIKE 'cfstore index % of column family Idx.%';

-- ---------------------------------------------------------------------------
-- 5. Errors, in Cassandra's order: predicate, expressions, key count
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', NULL);
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '{"column_name": "birthdate"}');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[1]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "value": "1"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "LIKE", "value": "1"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "state", "op": "EQ", "value": "UT"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "GT", "value": "1"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "EQ", "value": "x"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "", "op": "EQ", "value": "1"}]');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users',
         jsonb_build_array(jsonb_build_object('column_name', 'name', 'op', 'EQ', 'value', repeat('x', 65536))));
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1"}]', count => -1);
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users', '[]', count => -1);
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Users',
         '[{"column_name": "birthdate", "op": "EQ", "value": "1"}]', key_count => 0);
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Nope', '[]');
-- values an index cannot hold
SELECT cfstore.create_column_family('Idx', 'Big', default_validation_class => 'BytesType',
         column_metadata => '[{"column_name": "v", "validation_class": "BytesType", "index_type": "KEYS", "index_name": "big_v"}]');
SELECT cfstore.insert('Idx', 'Big', 'k', 'v', repeat('x', 65536)::bytea, writetime => 1);
SELECT cfstore.insert('Idx', 'Big', 'k', 'v', repeat('x', 65535)::bytea, writetime => 1);
SELECT count(*) FROM cfstore.get_indexed_slices('Idx', 'Big',
         jsonb_build_array(jsonb_build_object('column_name', 'v', 'op', 'EQ', 'value', repeat('x', 65535))));
SELECT cfstore.verify('Idx', 'Big');
-- no index on Super or counter column families
SELECT cfstore.create_column_family('Idx', 'Sup', column_type => 'Super',
         column_metadata => '[{"column_name": "v", "validation_class": "BytesType", "index_type": "KEYS"}]');
SELECT cfstore.create_column_family('Idx', 'Cnt', default_validation_class => 'CounterColumnType',
         column_metadata => '[{"column_name": "v", "validation_class": "CounterColumnType", "index_type": "KEYS"}]');
SELECT cfstore.create_column_family('Idx', 'Sup', column_type => 'Super');
SELECT * FROM cfstore.get_indexed_slices('Idx', 'Sup', '[{"column_name": "v", "op": "EQ", "value": "1"}]');

-- ---------------------------------------------------------------------------
-- 6. Cost: an EQ matching 10 of 2,000 rows reads the index row and those
--    rows, not the column family
-- ---------------------------------------------------------------------------
SELECT cfstore.create_column_family('Idx', 'Many', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "group", "validation_class": "LongType", "index_type": "KEYS"}]');
SELECT cfstore._storage_relation('Idx', 'Many') AS many_rel \gset
INSERT INTO :many_rel (key, column_name, value, writetime)
  SELECT convert_to('m' || lpad(i::text, 5, '0'), 'UTF8'), convert_to(c, 'UTF8'),
         CASE WHEN c = 'group' THEN int8send((i % 200)::bigint) ELSE convert_to(md5(i || c), 'UTF8') END, 1
    FROM generate_series(1, 2000) i, unnest(ARRAY['a', 'b', 'c', 'd', 'e', 'f', 'group', 'h']) c;
SELECT pages > 50 AS many_pages FROM cfstore.stats('Idx', 'Many');
CREATE FUNCTION pg_temp.buffers(sql text) RETURNS TABLE(rows bigint, buffers bigint)
LANGUAGE plpgsql AS $$
DECLARE
  rels oid[] := ARRAY(SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                       WHERE n.nspname = 'cfstore_data');
  before bigint := (SELECT sum(pg_stat_get_xact_blocks_fetched(r)) FROM unnest(rels) r);
BEGIN
  EXECUTE sql INTO rows;
  buffers := (SELECT sum(pg_stat_get_xact_blocks_fetched(r)) FROM unnest(rels) r) - before;
  RETURN NEXT;
END $$;
SELECT count(*) FROM cfstore.get_slice('Idx', 'Many', 'm00001');
SELECT rows, buffers < 60 AS follows_the_matches
  FROM pg_temp.buffers($$SELECT count(*) FROM cfstore.get_indexed_slices('Idx', 'Many',
         '[{"column_name": "group", "op": "EQ", "value": "7"}]')$$);
-- one read per candidate: the index row, then one leaf page per matching
-- row (its expression is checked on the cells of the slice it returns)
SELECT rows, buffers
  FROM pg_temp.buffers($$SELECT count(*) FROM cfstore.get_indexed_slices('Idx', 'Many',
         '[{"column_name": "group", "op": "EQ", "value": "7"}]')$$);
-- the same search by hand: every row, each expression's column read by
-- name (get_columns), then the predicate's slice (get_slice), up to
-- key_count rows that return something
CREATE FUNCTION pg_temp.by_hand(exprs jsonb, s text, f text, rev boolean, cnt integer, kc integer)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  k text; e jsonb; v text; c integer; ok boolean; cells text; res text[] := '{}';
BEGIN
  FOR k IN SELECT 'm' || lpad(i::text, 5, '0') FROM generate_series(1, 2000) i ORDER BY 1 LOOP
    ok := true;
    FOR e IN SELECT jsonb_array_elements(exprs) LOOP
      v := (SELECT value FROM cfstore.get_columns('Idx', 'Many', k, ARRAY[e->>'column_name']));
      c := CASE WHEN v IS NULL THEN NULL
                WHEN e->>'column_name' = 'group' THEN sign(v::bigint - (e->>'value')::bigint)
                WHEN v COLLATE "C" < (e->>'value') COLLATE "C" THEN -1
                WHEN v = e->>'value' THEN 0 ELSE 1 END;
      ok := ok AND coalesce(CASE e->>'op' WHEN 'EQ' THEN c = 0 WHEN 'GTE' THEN c >= 0 WHEN 'GT' THEN c > 0
                                          WHEN 'LTE' THEN c <= 0 ELSE c < 0 END, false);
    END LOOP;
    CONTINUE WHEN NOT ok;
    cells := (SELECT string_agg(g.column_name || '=' || g.value, ',' ORDER BY g.n)
                FROM cfstore.get_slice('Idx', 'Many', k, s, f, rev, cnt) WITH ORDINALITY
                     AS g(key, super_column, column_name, value, writetime, ttl, n));
    CONTINUE WHEN cells IS NULL;
    res := res || (k || ':' || cells);
    EXIT WHEN cardinality(res) >= kc;
  END LOOP;
  RETURN nullif(array_to_string(res, ' '), '');
END $$;
CREATE FUNCTION pg_temp.indexed(exprs jsonb, s text, f text, rev boolean, cnt integer, kc integer)
RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(key || ':' || cells, ' ' ORDER BY n) FROM (
    SELECT g.key, min(g.n) AS n, string_agg(g.column_name || '=' || g.value, ',' ORDER BY g.n) AS cells
      FROM cfstore.get_indexed_slices('Idx', 'Many', exprs, NULL::text, kc, s, f, rev, cnt) WITH ORDINALITY
           AS g(key, super_column, column_name, value, writetime, ttl, n)
     GROUP BY g.key) r
$$;
-- rows whose columns were deleted (a row deletion, a column deletion), or
-- overwritten with a newer value
SELECT cfstore.remove('Idx', 'Many', 'm00607', writetime => 2);
SELECT cfstore.insert('Idx', 'Many', 'm00607', 'group', 7, writetime => 3);
SELECT cfstore.remove('Idx', 'Many', 'm00807', 'a', writetime => 2);
SELECT cfstore.remove('Idx', 'Many', 'm01007', 'group', writetime => 2);
SELECT cfstore.insert('Idx', 'Many', 'm01207', 'h', 'zzz', writetime => 2);
-- expressions the slice holds (before, among or after the cells it
-- returns, forward and reversed), outside its range, past its count, on
-- a column no row has; key_count
SELECT x.what, x.s, x.f, x.rev, x.cnt, x.kc,
       coalesce(cardinality(string_to_array(pg_temp.indexed(x.exprs, x.s, x.f, x.rev, x.cnt, x.kc), ' ')), 0) AS rows,
       pg_temp.indexed(x.exprs, x.s, x.f, x.rev, x.cnt, x.kc) IS NOT DISTINCT FROM
         pg_temp.by_hand(x.exprs, x.s, x.f, x.rev, x.cnt, x.kc) AS same
  FROM (VALUES
    ('group = 7', '[{"column_name": "group", "op": "EQ", "value": "7"}]'::jsonb, NULL, NULL, false, 100, 100),
    ('group = 7', '[{"column_name": "group", "op": "EQ", "value": "7"}]', NULL, NULL, true, 100, 4),
    ('group = 7, a > 8', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "a", "op": "GT", "value": "8"}]', 'b', 'c', false, 100, 100),
    ('group = 7, h < 8', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "h", "op": "LT", "value": "8"}]', NULL, NULL, false, 2, 100),
    ('group = 7, h < 8', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "h", "op": "LT", "value": "8"}]', NULL, NULL, true, 2, 100),
    ('c >= 4, group = 7', '[{"column_name": "c", "op": "GTE", "value": "4"}, {"column_name": "group", "op": "EQ", "value": "7"}]', 'b', NULL, false, 100, 100),
    ('group = 7, a <= 9', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "a", "op": "LTE", "value": "9"}]', 'f', 'b', true, 100, 100),
    ('group = 7, group < 8', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "group", "op": "LT", "value": "8"}]', NULL, NULL, false, 3, 100),
    ('group = 7, zz < x', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "zz", "op": "LT", "value": "x"}]', NULL, NULL, false, 100, 100),
    ('group = 7, a >= ''''', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "a", "op": "GTE", "value": ""}]', 'b', 'h', false, 100, 3)
  ) x(what, exprs, s, f, rev, cnt, kc);
-- more cells before the indexed column than work_mem holds: the
-- expressions left are read by name, and the slice goes on
BEGIN;
SET LOCAL work_mem = 64;
SELECT cfstore.insert('Idx', 'Many', 'm00007', 'b0', repeat('x', 100000), writetime => 2);
SELECT x.what, coalesce(cardinality(string_to_array(pg_temp.indexed(x.exprs, NULL, NULL, false, 100, 100), ' ')), 0) AS rows,
       pg_temp.indexed(x.exprs, NULL, NULL, false, 100, 100) IS NOT DISTINCT FROM
         pg_temp.by_hand(x.exprs, NULL, NULL, false, 100, 100) AS same
  FROM (VALUES
    ('group = 7', '[{"column_name": "group", "op": "EQ", "value": "7"}]'::jsonb),
    ('group = 7, h >= zzz', '[{"column_name": "group", "op": "EQ", "value": "7"}, {"column_name": "h", "op": "GTE", "value": "zzz"}]')
  ) x(what, exprs);
ROLLBACK;
SELECT cfstore.verify('Idx', 'Many');

-- truncate empties the indexes; drop_keyspace drops them
SELECT cfstore.truncate('Idx', 'Users');
SELECT count(*) FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]');
SELECT cfstore.insert('Idx', 'Users', 'after', 'birthdate', 1972, writetime => 1);
SELECT key FROM cfstore.get_indexed_slices('Idx', 'Users', '[{"column_name": "birthdate", "op": "EQ", "value": "1972"}]');
SELECT cfstore.verify('Idx', 'Users');
SELECT cfstore.drop_keyspace('Idx');
SELECT count(*) AS storage_relations_left FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'cfstore_data' AND obj_description(c.oid, 'pg_class') LIKE '% Idx.%';
