-- What the foreign table pushes into the storage engine (key equality and
-- lists, ranges on the name columns, ORDER BY and LIMIT, a key from the
-- outer side of a nested loop) returns exactly what PostgreSQL computes
-- itself from all the rows: 400 random queries over composite names
-- (UTF8Type, LongType), a ReversedType comparator and a Super column
-- family, alone and as the inner side of a LATERAL join, each run on the
-- foreign table and on a plain copy of its rows, and compared; and a
-- TimeUUID timeline read through a prepared statement's generic plan.
\set VERBOSITY terse
SET search_path = public, cfstore;

SELECT cfstore.create_keyspace('FdwRnd');
SELECT cfstore.create_column_family('FdwRnd', 'Comp', comparator => 'CompositeType(UTF8Type, LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('FdwRnd', 'Rev', comparator => 'ReversedType(LongType)',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE SCHEMA fdw_rnd;
CREATE FOREIGN TABLE fdw_rnd.comp (key text COLLATE "C" NOT NULL, column1 text COLLATE "C" NOT NULL,
    column2 bigint NOT NULL, value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwRnd', column_family 'Comp');
CREATE FOREIGN TABLE fdw_rnd.rev (key text COLLATE "C" NOT NULL, column_name bigint NOT NULL,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwRnd', column_family 'Rev');
SELECT cfstore.create_column_family('FdwRnd', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'LongType', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE FOREIGN TABLE fdw_rnd.sup (key text COLLATE "C" NOT NULL, super_column text COLLATE "C" NOT NULL,
    column_name bigint NOT NULL, value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwRnd', column_family 'Sup');

SELECT setseed(0.71);
-- rows spanning pages; some cells overwritten or deleted
INSERT INTO fdw_rnd.comp
  SELECT 'k' || floor(random() * 5)::int, (ARRAY['a', 'ab', 'b', 'é', 'zz'])[1 + floor(random() * 5)::int],
         floor(random() * 81)::bigint - 40, repeat('v', floor(random() * 80)::int) || i, floor(random() * 10)::bigint
    FROM generate_series(1, 3000) i;
DELETE FROM fdw_rnd.comp WHERE column2 % 7 = 0 AND key IN ('k1', 'k3');
INSERT INTO fdw_rnd.rev
  SELECT 'k' || floor(random() * 3)::int, floor(random() * 2001)::bigint - 1000, repeat('w', floor(random() * 80)::int) || i, 1
    FROM generate_series(1, 2000) i;
INSERT INTO fdw_rnd.sup
  SELECT 'k' || floor(random() * 4)::int, 's' || floor(random() * 12)::int, floor(random() * 41)::bigint - 20,
         repeat('u', floor(random() * 60)::int) || i, 1
    FROM generate_series(1, 2000) i;
SELECT cfstore.create_column_family('FdwRnd', 'Tl', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE FOREIGN TABLE fdw_rnd.tl (key text COLLATE "C" NOT NULL, column_name cfstore.timeuuid NOT NULL,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'FdwRnd', column_family 'Tl');
INSERT INTO fdw_rnd.tl
  SELECT 'u' || (i % 7), cfstore.min_timeuuid('2021-01-01 UTC'::timestamptz + (i * 7919 % 3000) * interval '1 s'),
         'tweet ' || i, 1
    FROM generate_series(1, 3000) i;
SELECT count(*) > 1000 AS comp_cells FROM fdw_rnd.comp;
SELECT leaf_pages > 8 AS comp_spans_pages FROM cfstore.stats('FdwRnd', 'Comp');

-- the same rows in plain tables, read once through a scan without predicates
CREATE TABLE comp_copy AS SELECT key, column1, column2, value FROM fdw_rnd.comp;
CREATE TABLE rev_copy AS SELECT key, column_name, value FROM fdw_rnd.rev;
CREATE TABLE sup_copy AS SELECT key, super_column, column_name, value FROM fdw_rnd.sup;
CREATE TABLE tl_copy AS SELECT key, column_name, value FROM fdw_rnd.tl;
SELECT (SELECT count(*) FROM comp_copy) = (SELECT count(*) FROM cfstore.get_range_slices('FdwRnd', 'Comp', key_count => 100, count => 100000)) AS same_cells;

-- A random query on each: a key (or a list), a predicate on the names, an
-- order and a limit.  Returns the queries whose two answers differ.
CREATE FUNCTION fdw_rnd_compare(n integer) RETURNS TABLE (query text, on_foreign text, on_copy text)
LANGUAGE plpgsql AS $$
DECLARE
  ops text[] := ARRAY['=', '<', '<=', '>', '>=', '<>'];
  c1 text[] := ARRAY['a', 'ab', 'b', 'é', 'zz', 'aa', 'c', ''];
  where_ text;
  order_ text;
  q text;
  f text;
  c text;
  r double precision;
BEGIN
  FOR i IN 1 .. n LOOP
    r := random();
    IF r < 0.15 THEN
      -- a Super column family
      where_ := format('key = %L', 'k' || floor(random() * 5)::int);
      IF random() < 0.7 THEN
        where_ := where_ || format(' AND super_column %s %L', ops[1 + floor(random() * 6)::int], 's' || floor(random() * 14)::int);
      END IF;
      IF random() < 0.6 THEN
        where_ := where_ || format(' AND column_name %s %s', ops[1 + floor(random() * 6)::int], floor(random() * 51)::int - 25);
      END IF;
      order_ := (ARRAY['super_column, column_name', 'super_column DESC, column_name DESC', 'column_name, super_column'])[1 + floor(random() * 3)::int]
                || ', key, super_column, column_name';
      q := format('SELECT string_agg(key || ''/'' || super_column || '':'' || column_name || ''='' || value, '' '' ORDER BY ord) FROM (SELECT *, row_number() OVER () AS ord FROM (SELECT key, super_column, column_name, value FROM %%s WHERE %s ORDER BY %s%s) s) t',
                  where_, order_, CASE WHEN random() < 0.6 THEN ' LIMIT ' || (1 + floor(random() * 30)::int) ELSE '' END);
      EXECUTE format(q, 'fdw_rnd.sup') INTO f;
      EXECUTE format(q, 'sup_copy') INTO c;
    ELSIF r < 0.3 THEN
      -- the inner side of a nested loop: the key comes from the outer row
      where_ := format('column1 %s %L', ops[1 + floor(random() * 6)::int], c1[1 + floor(random() * 8)::int]);
      order_ := (ARRAY['column1, column2', 'column1 DESC, column2 DESC'])[1 + floor(random() * 2)::int];
      q := format('SELECT string_agg(v.key || ''/'' || s.column1 || '':'' || s.column2, '' '' ORDER BY v.n, s.ord) FROM (VALUES (1, ''k4''), (2, ''k0''), (3, ''k9''), (4, ''k2'')) v(n, key) CROSS JOIN LATERAL (SELECT *, row_number() OVER () AS ord FROM (SELECT column1, column2 FROM %%s f WHERE f.key = v.key AND %s ORDER BY %s LIMIT %s) x) s',
                  where_, order_, 1 + floor(random() * 20)::int);
      EXECUTE format(q, 'fdw_rnd.comp') INTO f;
      EXECUTE format(q, 'comp_copy') INTO c;
    ELSIF r < 0.7 THEN
      -- composite names
      where_ := CASE WHEN random() < 0.8 THEN format('key = %L', 'k' || floor(random() * 6)::int)
                     ELSE format('key IN (%L, %L)', 'k' || floor(random() * 6)::int, 'k' || floor(random() * 6)::int) END;
      IF random() < 0.7 THEN
        where_ := where_ || format(' AND column1 %s %L', ops[1 + floor(random() * 6)::int], c1[1 + floor(random() * 8)::int]);
      END IF;
      IF random() < 0.6 THEN
        where_ := where_ || format(' AND column2 %s %s', ops[1 + floor(random() * 6)::int], floor(random() * 101)::int - 50);
      END IF;
      IF random() < 0.3 THEN
        where_ := where_ || format(' AND column2 BETWEEN %s AND %s', floor(random() * 61)::int - 30, floor(random() * 61)::int - 30);
      END IF;
      order_ := (ARRAY['column1, column2', 'column1 DESC, column2 DESC', 'column1, column2 DESC', 'column2, column1',
                       'key, column1, column2', 'key DESC, column1 DESC, column2 DESC'])[1 + floor(random() * 6)::int]
                || ', key, column1, column2';	-- a total order: a LIMIT takes the same rows
      q := format('SELECT string_agg(key || ''/'' || column1 || '':'' || column2 || ''='' || value, '' '' ORDER BY ord) FROM (SELECT *, row_number() OVER () AS ord FROM (SELECT key, column1, column2, value FROM %%s WHERE %s ORDER BY %s%s) s) t',
                  where_, order_, CASE WHEN random() < 0.6 THEN ' LIMIT ' || (1 + floor(random() * 30)::int) ELSE '' END);
      EXECUTE format(q, 'fdw_rnd.comp') INTO f;
      EXECUTE format(q, 'comp_copy') INTO c;
    ELSE
      -- reversed numbers
      where_ := format('key = %L', 'k' || floor(random() * 4)::int);
      IF random() < 0.8 THEN
        where_ := where_ || format(' AND column_name %s %s', ops[1 + floor(random() * 6)::int], floor(random() * 2201)::int - 1100);
      END IF;
      IF random() < 0.4 THEN
        where_ := where_ || format(' AND column_name %s %s', ops[1 + floor(random() * 5)::int], floor(random() * 2201)::int - 1100);
      END IF;
      order_ := (ARRAY['column_name', 'column_name DESC', 'key, column_name DESC'])[1 + floor(random() * 3)::int]
                || ', key, column_name';
      q := format('SELECT string_agg(key || ''/'' || column_name || ''='' || value, '' '' ORDER BY ord) FROM (SELECT *, row_number() OVER () AS ord FROM (SELECT key, column_name, value FROM %%s WHERE %s ORDER BY %s%s) s) t',
                  where_, order_, CASE WHEN random() < 0.6 THEN ' LIMIT ' || (1 + floor(random() * 30)::int) ELSE '' END);
      EXECUTE format(q, 'fdw_rnd.rev') INTO f;
      EXECUTE format(q, 'rev_copy') INTO c;
    END IF;
    IF f IS DISTINCT FROM c THEN
      query := format(q, '...');
      on_foreign := left(f, 200);
      on_copy := left(c, 200);
      RETURN NEXT;
    END IF;
  END LOOP;
END $$;

-- the queries do push work down: key, name ranges, order and limit
EXPLAIN (COSTS OFF) SELECT column1, column2 FROM fdw_rnd.comp
 WHERE key = 'k1' AND column1 = 'ab' AND column2 >= -3 ORDER BY column1 DESC, column2 DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT column_name FROM fdw_rnd.rev WHERE key = 'k1' AND column_name < 10 ORDER BY column_name DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT super_column, column_name FROM fdw_rnd.sup
 WHERE key = 'k1' AND super_column >= 's3' ORDER BY super_column DESC, column_name DESC LIMIT 5;
EXPLAIN (COSTS OFF) SELECT v.key, s.column1 FROM (VALUES (1, 'k4'), (2, 'k0')) v(n, key) CROSS JOIN LATERAL
  (SELECT column1, column2 FROM fdw_rnd.comp f WHERE f.key = v.key AND column1 >= 'b' ORDER BY column1 DESC, column2 DESC LIMIT 3) s;

SELECT count(*) AS differing_queries FROM fdw_rnd_compare(400);
SELECT * FROM fdw_rnd_compare(400) LIMIT 3;

DROP FUNCTION fdw_rnd_compare(integer);
-- a prepared statement's generic plan: the key and the bound are parameters
SET plan_cache_mode = force_generic_plan;
PREPARE tl_page(text, cfstore.timeuuid, integer) AS
  SELECT string_agg(column_name::text || '=' || value, ' ' ORDER BY ord) FROM (SELECT *, row_number() OVER () AS ord
    FROM (SELECT column_name, value FROM fdw_rnd.tl WHERE key = $1 AND column_name < $2
           ORDER BY column_name DESC LIMIT $3) s) t;
PREPARE tl_page_copy(text, cfstore.timeuuid, integer) AS
  SELECT string_agg(column_name::text || '=' || value, ' ' ORDER BY ord) FROM (SELECT *, row_number() OVER () AS ord
    FROM (SELECT column_name, value FROM tl_copy WHERE key = $1 AND column_name < $2
           ORDER BY column_name DESC LIMIT $3) s) t;
EXPLAIN (COSTS OFF) EXECUTE tl_page('u1', cfstore.min_timeuuid('2021-01-01 00:20 UTC'), 10);
CREATE FUNCTION fdw_rnd_pages(n integer, OUT differ bigint, OUT with_cells bigint) LANGUAGE plpgsql AS $$
DECLARE
  k text;
  b cfstore.timeuuid;
  lim integer;
  f text;
  c text;
BEGIN
  differ := 0;
  with_cells := 0;
  FOR i IN 1 .. n LOOP
    k := 'u' || floor(random() * 8)::int;
    b := cfstore.min_timeuuid('2021-01-01 UTC'::timestamptz + floor(random() * 3100) * interval '1 s');
    lim := 1 + floor(random() * 40)::int;
    EXECUTE format('EXECUTE tl_page(%L, %L, %s)', k, b, lim) INTO f;
    EXECUTE format('EXECUTE tl_page_copy(%L, %L, %s)', k, b, lim) INTO c;
    IF f IS DISTINCT FROM c THEN
      differ := differ + 1;
    END IF;
    IF f IS NOT NULL THEN
      with_cells := with_cells + 1;
    END IF;
  END LOOP;
END $$;
SELECT differ AS differing_pages, with_cells > 150 AS most_have_cells FROM fdw_rnd_pages(200);
RESET plan_cache_mode;
DROP FUNCTION fdw_rnd_pages(integer);

DROP TABLE comp_copy, rev_copy, sup_copy, tl_copy;
DROP SCHEMA fdw_rnd CASCADE;
SELECT cfstore.drop_keyspace('FdwRnd');
