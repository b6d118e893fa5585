-- Writes through a cfstore foreign table agree with the model
-- (test/sql/include/model.sql): thousands of random INSERTs (single rows and
-- INSERT ... SELECT batches, with TTLs), UPDATEs of value and writetime,
-- UPDATEs that move a cell to another name or row, and DELETEs of a cell,
-- of a name range and of a whole row, each recorded from what it RETURNs
-- (some rolled back in a subtransaction, with their records).
-- Then every row is read through the function API and through the foreign
-- table and compared with the model, before and after VACUUM.  A DELETE
-- writes its tombstones at now, later than every timestamp written here,
-- so the model records them at a timestamp later than now.
\set VERBOSITY terse
SET search_path = public, cfstore;

\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('FdwModel');
SELECT cfstore.create_column_family('FdwModel', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE SCHEMA fdw_model;
CREATE FOREIGN TABLE fdw_model.std (key text COLLATE "C", column_name text COLLATE "C", value text,
    writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwModel', column_family 'Std');

\i test/sql/include/model.sql

-- One random write through the foreign table, recorded from what it returns.
CREATE FUNCTION fdw_model_op(i integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r double precision := random();
  k text := 'r' || floor(random() * 16)::int;
  num integer := floor(random() * 120);
  n text := 'c' || lpad(num::text, 3, '0');
  n_hi text := 'c' || lpad(least(num + 6, 119)::text, 3, '0');
  -- one value in thirty is 3 to 6 kB of md5 text, stored out of line
  v text := (ARRAY['a', 'z', 'é'])[1 + floor(random() * 3)::int] || repeat('x', floor(random() * 120)::int) || i
            || CASE WHEN random() < 1.0 / 30 THEN
                 (SELECT string_agg(md5(i::text || g), '') FROM generate_series(1, 100 + floor(random() * 100)::int) g)
               ELSE '' END;
  ts bigint := floor(random() * 30);
  ttl integer := CASE WHEN random() < 0.08 THEN 1 WHEN random() < 0.08 THEN 100000 END;
  later constant bigint := 5000000000000000;	-- after now, in microseconds
  c record;
BEGIN
  IF r < 0.45 THEN
    FOR c IN INSERT INTO fdw_model.std VALUES (k, n, v, ts, ttl) RETURNING * LOOP
      INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl)
        VALUES ('Std', c.key, c.column_name, 'ins', c.value, c.writetime, c.ttl);
    END LOOP;
  ELSIF r < 0.60 THEN
    -- a batch of a few rows
    FOR c IN INSERT INTO fdw_model.std
               SELECT 'r' || floor(random() * 16)::int, 'c' || lpad(floor(random() * 120)::int::text, 3, '0'),
                      v || '.' || j, floor(random() * 30), NULL
                 FROM generate_series(1, 1 + floor(random() * 6)::int) j
             RETURNING * LOOP
      INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl)
        VALUES ('Std', c.key, c.column_name, 'ins', c.value, c.writetime, c.ttl);
    END LOOP;
  ELSIF r < 0.75 THEN
    -- a new version of a live cell (the old ttl is not carried over)
    FOR c IN UPDATE fdw_model.std SET value = v, writetime = ts WHERE key = k AND column_name = n RETURNING * LOOP
      INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl)
        VALUES ('Std', c.key, c.column_name, 'ins', c.value, c.writetime, c.ttl);
    END LOOP;
  ELSIF r < 0.85 THEN
    -- a move to another name, or another row: a tombstone of the old cell
    -- and the new one, at the same timestamp
    FOR c IN UPDATE fdw_model.std
                SET column_name = CASE WHEN random() < 0.7 THEN 'c' || lpad(floor(random() * 120)::int::text, 3, '0')
                                       ELSE column_name END,
                    key = CASE WHEN random() < 0.3 THEN 'r' || floor(random() * 16)::int ELSE key END,
                    writetime = ts
              WHERE key = k AND column_name = n
             RETURNING * LOOP
      IF c.key <> k OR c.column_name <> n THEN
        INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Std', k, n, 'del', ts);
      END IF;
      INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl)
        VALUES ('Std', c.key, c.column_name, 'ins', c.value, c.writetime, c.ttl);
    END LOOP;
  ELSIF r < 0.93 THEN
    FOR c IN DELETE FROM fdw_model.std WHERE key = k AND column_name = n RETURNING * LOOP
      INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Std', c.key, c.column_name, 'del', later);
    END LOOP;
  ELSIF r < 0.985 THEN
    FOR c IN DELETE FROM fdw_model.std WHERE key = k AND column_name BETWEEN n AND n_hi RETURNING * LOOP
      INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Std', c.key, c.column_name, 'del', later);
    END LOOP;
  ELSIF r < 0.987 THEN
    FOR c IN DELETE FROM fdw_model.std WHERE key = k RETURNING * LOOP
      INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Std', c.key, c.column_name, 'del', later);
    END LOOP;
  ELSE
    INSERT INTO fdw_model.std VALUES (k, n, v, ts, ttl);
    INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl) VALUES ('Std', k, n, 'ins', v, ts, ttl);
  END IF;
END $$;

-- Each row, whole and backwards, by the function API and the foreign
-- table (got) and by the model (want).
CREATE FUNCTION fdw_model_reads() RETURNS TABLE (what text, key text, got text, want text)
LANGUAGE sql AS $$
  WITH keys AS (SELECT 'r' || n AS key FROM generate_series(0, 16) n),
  live AS MATERIALIZED (SELECT * FROM model_live WHERE cf = 'Std')
  SELECT 'get_slice', k.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('FdwModel', 'Std', k.key, count => 100000) s),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name)
            FROM live m WHERE m.key = k.key)
    FROM keys k
  UNION ALL
  SELECT 'foreign table, last 9', k.key,
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(NULL, f.column_name, f.value, f.writetime, f.ttl) AS l, f.column_name AS n
               FROM fdw_model.std f WHERE f.key = k.key ORDER BY f.column_name DESC LIMIT 9) x),
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.name AS n
               FROM live m WHERE m.key = k.key ORDER BY m.name DESC LIMIT 9) x)
    FROM keys k
  UNION ALL
  SELECT 'foreign table, all rows', '*',
         (SELECT string_agg(model_line(NULL, f.key || '/' || f.column_name, f.value, f.writetime, f.ttl), ' '
                            ORDER BY f.key, f.column_name) FROM fdw_model.std f),
         (SELECT string_agg(model_line(NULL, m.key || '/' || m.name, m.value, m.ts, m.ttl), ' '
                            ORDER BY m.key, m.name) FROM live m)
$$;

SELECT setseed(0.59);
SELECT model_round('fdw_model_op', 1, 4000) > 3000 AS recorded;
-- the expiring cells of TTL 1 are past their time
SELECT pg_sleep(2.1);
SELECT kind, count(*) > 100 AS many FROM model_ops GROUP BY kind ORDER BY kind;
SELECT count(*) > 100 AS long_values_written,
       (SELECT count(*) FROM model_live WHERE cf = 'Std' AND octet_length(value) > 2000) > 5 AS live_long_values
  FROM model_ops WHERE octet_length(value) > 2000;
SELECT count(*) > 300 AS live_cells, count(*) FILTER (WHERE ttl = 100000) > 10 AS live_ttl_cells
  FROM model_live;
SELECT leaf_pages > 10 AS rows_span_pages FROM cfstore.stats('FdwModel', 'Std');
SELECT * FROM model_check('fdw_model_reads');
SELECT autovacuum_quiet();
SELECT cfstore._storage_relation('FdwModel', 'Std') AS std_rel \gset
VACUUM :std_rel;
SELECT * FROM model_check('fdw_model_reads');
SELECT cfstore.verify('FdwModel', 'Std');

DROP FUNCTION model_check(text), fdw_model_reads(), model_round(text, integer, integer), fdw_model_op(integer);
DROP VIEW model_live, model_counters;
DROP FUNCTION model_signed(bytea), model_line(text, text, text, bigint, integer);
DROP TABLE model_ops;
DROP FUNCTION autovacuum_quiet();
DROP SCHEMA fdw_model CASCADE;
SELECT cfstore.drop_keyspace('FdwModel');
