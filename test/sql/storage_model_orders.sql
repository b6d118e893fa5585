-- Slices under comparators that are not byte order agree with the model
-- (test/sql/include/model.sql) over rows that span many pages: LongType,
-- ReversedType(LongType), IntegerType (varints of every length, negative
-- too) and CompositeType(UTF8Type, LongType), some of whose names are long
-- enough to be stored out of line.  Random writes with tied and
-- out-of-order timestamps, column and row tombstones; then every row is
-- read whole, backwards with a count, and between two bounds that need not
-- exist, forwards and backwards, before and after VACUUM.  The model orders
-- names by a byte string built for each comparator (model_ord).
\set VERBOSITY terse
SET search_path = public, cfstore;

\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('Orders');
SELECT cfstore.create_column_family('Orders', cf, comparator => cmp, key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type')
  FROM (VALUES ('Lng', 'LongType'), ('Rev', 'ReversedType(LongType)'), ('Int', 'IntegerType'),
               ('Comp', 'CompositeType(UTF8Type, LongType)')) c(cf, cmp);

\i test/sql/include/model.sql

-- A bigint's bytes in an order bytea compares as the numbers.
CREATE FUNCTION model_ord_long(n bigint) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT set_byte(int8send(n), 0, get_byte(int8send(n), 0) # 128)
$$;
-- A name (its text form) as bytes in the column family's comparator order.
CREATE FUNCTION model_ord(cf text, name text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE cf
    WHEN 'Lng' THEN model_ord_long(name::bigint)
    WHEN 'Rev' THEN model_ord_long(~name::bigint)
    -- IntegerType names stay within +-10^15 here
    WHEN 'Int' THEN convert_to(lpad((name::numeric + 1e16)::bigint::text, 18, '0'), 'UTF8')
    WHEN 'Comp' THEN convert_to(split_part(name, ':', 1), 'UTF8') || '\x00'::bytea
                     || model_ord_long(split_part(name, ':', 2)::bigint)
  END
$$;

-- A random name of a column family, in its text form.
CREATE FUNCTION model_name(cf text) RETURNS text LANGUAGE sql AS $$
  SELECT CASE cf
    WHEN 'Int' THEN
      -- 1 to 7 byte varints, both signs
      (trunc((random() * 2 - 1) * 10 ^ floor(random() * 16)))::bigint::text
    WHEN 'Comp' THEN
      -- the two long first components (past the inline limit, 340 bytes:
      -- stored out of line) differ only in their last byte
      (ARRAY['a', 'ab', 'b', 'é', 'zz', 'l' || repeat('q', 400) || 'a', 'l' || repeat('q', 400) || 'b'])
        [1 + floor(random() * 7)::int] || ':' || (floor(random() * 121) - 60)::int
    ELSE
      CASE WHEN random() < 0.02 THEN (ARRAY['-9223372036854775808', '9223372036854775807', '-1', '0'])[1 + floor(random() * 4)::int]
           ELSE (floor(random() * 601) - 300)::int::text END
  END
$$;

-- One random write into one of the four column families, recorded.
CREATE FUNCTION model_orders_op(i integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cf text := (ARRAY['Lng', 'Rev', 'Int', 'Comp'])[1 + floor(random() * 4)::int];
  k text := 'r' || floor(random() * 4)::int;
  name text := model_name(cf);
  v text := (ARRAY['a', 'z', 'é'])[1 + floor(random() * 3)::int] || repeat('x', floor(random() * 150)::int) || i;
  ts bigint := floor(random() * 20);
  r double precision := random();
BEGIN
  IF r < 0.8 THEN
    PERFORM cfstore.insert('Orders', cf, k, name, v, writetime => ts);
    INSERT INTO model_ops (cf, key, name, kind, value, ts) VALUES (cf, k, name, 'ins', v, ts);
  ELSIF r < 0.995 THEN
    PERFORM cfstore.remove('Orders', cf, k, name, writetime => ts);
    INSERT INTO model_ops (cf, key, name, kind, ts) VALUES (cf, k, name, 'del', ts);
  ELSE
    ts := floor(random() * 6);
    PERFORM cfstore.remove('Orders', cf, k, writetime => ts);
    INSERT INTO model_ops (cf, key, kind, ts) VALUES (cf, k, 'rowdel', ts);
  END IF;
END $$;

SELECT setseed(0.23);
SELECT model_round('model_orders_op', 1, 8000) > 7000 AS recorded;
-- two bounds per row, which need not be names there, lo before hi
CREATE TABLE model_bounds AS
  SELECT cf, key, CASE WHEN model_ord(cf, a) <= model_ord(cf, b) THEN a ELSE b END AS lo,
                  CASE WHEN model_ord(cf, a) <= model_ord(cf, b) THEN b ELSE a END AS hi
    FROM (SELECT cf, 'r' || k AS key, model_name(cf) AS a, model_name(cf) AS b
            FROM unnest(ARRAY['Lng', 'Rev', 'Int', 'Comp']) cf, generate_series(0, 4) k) x;
SELECT cf, min(leaf_pages) > 3 AS several_leaves
  FROM unnest(ARRAY['Lng', 'Rev', 'Int', 'Comp']) cf, LATERAL cfstore.stats('Orders', cf) GROUP BY cf ORDER BY cf;
SELECT count(*) > 50 AS live_long_names FROM model_live WHERE cf = 'Comp' AND octet_length(name) > 400;

-- Each read of each row, by cfstore (got) and by the model (want).
CREATE FUNCTION model_orders_reads() RETURNS TABLE (what text, key text, got text, want text)
LANGUAGE sql AS $$
  WITH live AS MATERIALIZED (SELECT *, model_ord(cf, name) AS ord FROM model_live)
  SELECT 'whole', b.cf || ' ' || b.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Orders', b.cf, b.key, count => 100000) s),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.ord)
            FROM live m WHERE m.cf = b.cf AND m.key = b.key)
    FROM model_bounds b
  UNION ALL
  SELECT 'last 13', b.cf || ' ' || b.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Orders', b.cf, b.key, reversed => true, count => 13) s),
         (SELECT string_agg(l, ' ' ORDER BY o DESC) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.ord AS o
               FROM live m WHERE m.cf = b.cf AND m.key = b.key ORDER BY m.ord DESC LIMIT 13) x)
    FROM model_bounds b
  UNION ALL
  SELECT 'from lo, 17', b.cf || ' ' || b.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Orders', b.cf, b.key, start => b.lo, count => 17) s),
         (SELECT string_agg(l, ' ' ORDER BY o) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.ord AS o
               FROM live m WHERE m.cf = b.cf AND m.key = b.key AND m.ord >= model_ord(b.cf, b.lo)
              ORDER BY m.ord LIMIT 17) x)
    FROM model_bounds b
  UNION ALL
  SELECT 'lo to hi', b.cf || ' ' || b.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Orders', b.cf, b.key, start => b.lo, finish => b.hi, count => 100000) s),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.ord)
            FROM live m WHERE m.cf = b.cf AND m.key = b.key
             AND m.ord BETWEEN model_ord(b.cf, b.lo) AND model_ord(b.cf, b.hi))
    FROM model_bounds b
  UNION ALL
  SELECT 'hi down to lo, 40', b.cf || ' ' || b.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Orders', b.cf, b.key, start => b.hi, finish => b.lo, reversed => true,
                                   count => 40) s),
         (SELECT string_agg(l, ' ' ORDER BY o DESC) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.ord AS o
               FROM live m WHERE m.cf = b.cf AND m.key = b.key
                AND m.ord BETWEEN model_ord(b.cf, b.lo) AND model_ord(b.cf, b.hi)
              ORDER BY m.ord DESC LIMIT 40) x)
    FROM model_bounds b
  UNION ALL
  SELECT 'count lo to hi', b.cf || ' ' || b.key,
         cfstore.get_count('Orders', b.cf, b.key, start => b.lo, finish => b.hi)::text,
         (SELECT count(*) FROM live m WHERE m.cf = b.cf AND m.key = b.key
             AND m.ord BETWEEN model_ord(b.cf, b.lo) AND model_ord(b.cf, b.hi))::text
    FROM model_bounds b
$$;

SELECT * FROM model_check('model_orders_reads');
SELECT autovacuum_quiet();
SELECT string_agg(format('%I.%I', n.nspname, c.relname), ', ') AS rels
  FROM unnest(ARRAY['Lng', 'Rev', 'Int', 'Comp']) cf, LATERAL (SELECT cfstore._storage_relation('Orders', cf)::regclass AS r) x
  JOIN pg_class c ON c.oid = x.r JOIN pg_namespace n ON n.oid = c.relnamespace \gset
VACUUM :rels;
SELECT * FROM model_check('model_orders_reads');
-- more writes into the compacted rows
SELECT model_round('model_orders_op', 8001, 4000) > 10000 AS recorded;
SELECT * FROM model_check('model_orders_reads');
SELECT cf, cfstore.verify('Orders', cf) FROM unnest(ARRAY['Lng', 'Rev', 'Int', 'Comp']) cf ORDER BY cf;

DROP FUNCTION model_check(text), model_orders_reads(), model_round(text, integer, integer),
  model_orders_op(integer), model_name(text);
DROP TABLE model_bounds;
DROP VIEW model_live, model_counters;
DROP FUNCTION model_ord(text, text), model_ord_long(bigint), model_signed(bytea),
  model_line(text, text, text, bigint, integer);
DROP TABLE model_ops;
DROP FUNCTION autovacuum_quiet();
SELECT cfstore.drop_keyspace('Orders');
