-- KEYS secondary indexes follow reconciliation (doc/semantics.md
-- §8.6): after thousands of random writes of two indexed columns (with
-- tied and out-of-order timestamps, column and row tombstones, expired
-- TTLs, subtransactions committed and rolled back), get_indexed_slices finds exactly
-- the rows whose live value matches, with all their live columns, as the
-- model (test/sql/include/model.sql) derives them from the record of the
-- writes; before and after VACUUM, and verify finds an entry for every live
-- indexed value.
\set VERBOSITY terse
SET search_path = public, cfstore;

\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('IdxModel');
SELECT cfstore.create_column_family('IdxModel', 'Users', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"},
                              {"column_name": "age", "validation_class": "LongType", "index_type": "KEYS"}]');

\i test/sql/include/model.sql

-- A state of 3 kB: its index entries have a long key, whose bytes past the
-- inline limit live in overflow chains, also where it is a separator.
CREATE FUNCTION model_long_state(tag text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT tag || string_agg(md5(tag || g), '') FROM generate_series(1, 100) g
$$;

-- One random write, applied and recorded.
CREATE FUNCTION model_index_op(i integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r double precision := random();
  k text := 'u' || lpad(floor(random() * 80)::int::text, 3, '0');
  ts bigint := floor(random() * 20);
  ttl integer := CASE WHEN random() < 0.08 THEN 1 END;
  name text;
  v text;
BEGIN
  IF r < 0.35 THEN
    name := 'state';
    v := (ARRAY['CA', 'NY', 'TX', 'WA', model_long_state('XL'), model_long_state('XM')])[1 + floor(random() * 6)::int];
  ELSIF r < 0.55 THEN
    name := 'age';
    v := (ARRAY['-5', '0', '17', '30', '50', '64', '100'])[1 + floor(random() * 7)::int];
  ELSIF r < 0.70 THEN
    name := 'c' || lpad(floor(random() * 30)::int::text, 2, '0');
    v := repeat('x', floor(random() * 100)::int) || i;
  ELSIF r < 0.99 THEN
    name := (ARRAY['state', 'state', 'age', 'c' || lpad(floor(random() * 30)::int::text, 2, '0')])[1 + floor(random() * 4)::int];
    PERFORM cfstore.remove('IdxModel', 'Users', k, name, writetime => ts);
    INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Users', k, name, 'del', ts);
    RETURN;
  ELSE
    ts := floor(random() * 8);
    PERFORM cfstore.remove('IdxModel', 'Users', k, writetime => ts);
    INSERT INTO model_ops (cf, key, kind, ts) VALUES ('Users', k, 'rowdel', ts);
    RETURN;
  END IF;
  IF name = 'age' THEN
    PERFORM cfstore.insert('IdxModel', 'Users', k, name, v::bigint, writetime => ts, ttl => ttl);
  ELSE
    PERFORM cfstore.insert('IdxModel', 'Users', k, name, v, writetime => ts, ttl => ttl);
  END IF;
  INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl, vbytes)
    VALUES ('Users', k, name, 'ins', v, ts, ttl, CASE WHEN name = 'age' THEN int8send(v::bigint) END);
END $$;

-- Each search, by cfstore (got) and by the model (want): the matching rows
-- in key order, each with its live columns, as key/name=value@ts lines.
CREATE FUNCTION model_index_reads() RETURNS TABLE (what text, key text, got text, want text)
LANGUAGE sql AS $$
  WITH live AS MATERIALIZED (SELECT * FROM model_live WHERE cf = 'Users'),
  row_state AS (SELECT key, value AS state FROM live WHERE name = 'state'),
  row_age AS (SELECT key, value::bigint AS age FROM live WHERE name = 'age'),
  searches(what, expr, rows, first_key, max_rows, max_cols) AS (
    SELECT 'state = ' || left(s, 8), jsonb_build_array(jsonb_build_object('column_name', 'state', 'op', 'EQ', 'value', s)),
           ARRAY(SELECT key FROM row_state WHERE state = s), NULL::text, 1000, 1000
      FROM unnest(ARRAY['CA', 'NY', 'TX', 'WA', 'ZZ', model_long_state('XL'), model_long_state('XM')]) s
    UNION ALL
    SELECT 'age = ' || a, jsonb_build_array(jsonb_build_object('column_name', 'age', 'op', 'EQ', 'value', a::text)),
           ARRAY(SELECT key FROM row_age WHERE age = a), NULL, 1000, 1000
      FROM unnest(ARRAY[-5, 0, 17, 50, 100]) a
    UNION ALL
    SELECT 'state = ' || left(s, 8) || ' and age >= 50',
           jsonb_build_array(jsonb_build_object('column_name', 'state', 'op', 'EQ', 'value', s),
                             jsonb_build_object('column_name', 'age', 'op', 'GTE', 'value', '50')),
           ARRAY(SELECT key FROM row_state JOIN row_age USING (key) WHERE state = s AND age >= 50), NULL, 1000, 1000
      FROM unnest(ARRAY['CA', 'TX', model_long_state('XM')]) s
    UNION ALL
    SELECT 'age = ' || a || ' and state < NY',
           jsonb_build_array(jsonb_build_object('column_name', 'age', 'op', 'EQ', 'value', a::text),
                             jsonb_build_object('column_name', 'state', 'op', 'LT', 'value', 'NY')),
           ARRAY(SELECT key FROM row_state JOIN row_age USING (key) WHERE age = a AND state < 'NY'), NULL, 1000, 1000
      FROM unnest(ARRAY[0, 50]) a
    UNION ALL
    -- from u040, three rows, two columns each
    SELECT 'state = ' || s || ' from u040, 3 rows, 2 columns',
           jsonb_build_array(jsonb_build_object('column_name', 'state', 'op', 'EQ', 'value', s)),
           ARRAY(SELECT key FROM row_state WHERE state = s AND key >= 'u040'), 'u040', 3, 2
      FROM unnest(ARRAY['CA', 'WA']) s)
  SELECT q.what, '*',
         (SELECT string_agg(g.key || '/' || model_line(NULL, g.column_name, g.value, g.writetime, g.ttl), ' ')
            FROM cfstore.get_indexed_slices('IdxModel', 'Users', q.expr, start_key => q.first_key,
                                            key_count => q.max_rows, count => q.max_cols) g),
         (SELECT string_agg(l, ' ' ORDER BY k, n) FROM
            (SELECT m.key AS k, m.name AS n, m.key || '/' || model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l,
                    row_number() OVER (PARTITION BY m.key ORDER BY m.name) AS c
               FROM live m
              WHERE m.key IN (SELECT unnest(q.rows) ORDER BY 1 LIMIT q.max_rows)) x
           WHERE c <= q.max_cols)
    FROM searches q
$$;

SELECT setseed(0.31);
SELECT model_round('model_index_op', 1, 6000) > 5000 AS recorded;
-- the expiring values of TTL 1 are past their time
SELECT pg_sleep(2.1);
-- the searches have rows to find, and rows that stopped matching
SELECT count(*) FILTER (WHERE got IS NOT NULL) >= 10 AS searches_with_rows,
       (SELECT count(DISTINCT key) FROM model_ops WHERE name = 'state' AND kind = 'ins')
         > (SELECT count(*) FROM model_live WHERE name = 'state') AS some_states_gone,
       (SELECT count(*) FROM model_live WHERE name = 'state' AND length(value) > 2000) > 5 AS live_long_states
  FROM model_index_reads();
SELECT leaf_pages > 10 AS rows_span_pages FROM cfstore.stats('IdxModel', 'Users');
SELECT * FROM model_check('model_index_reads');
SELECT cfstore.verify('IdxModel', 'Users');

SELECT autovacuum_quiet();
SELECT cfstore._storage_relation('IdxModel', 'Users') AS users_rel \gset
VACUUM :users_rel;
SELECT * FROM model_check('model_index_reads');
-- more writes into the compacted rows
SELECT model_round('model_index_op', 6001, 3000) > 7500 AS recorded;
SELECT pg_sleep(2.1);
SELECT * FROM model_check('model_index_reads');
SELECT cfstore.verify('IdxModel', 'Users');

DROP FUNCTION model_check(text), model_index_reads(), model_round(text, integer, integer),
  model_index_op(integer), model_long_state(text);
DROP VIEW model_live, model_counters;
DROP FUNCTION model_signed(bytea), model_line(text, text, text, bigint, integer);
DROP TABLE model_ops;
DROP FUNCTION autovacuum_quiet();
SELECT cfstore.drop_keyspace('IdxModel');
