-- The slice scan's join form (src/api/cfscan.c, "Slice joins"): rows joined
-- LATERAL with the slices they name run as one node.  Where the planner
-- uses it and where the nested loop stays; that every query returns what
-- the nested loop returns (join_same runs it both ways); outer columns in
-- the result, conditions on either side, expressions, outer rows from a
-- join, rescans with new parameters, LIMIT, cursors, INSERT ... SELECT,
-- errors and privileges met on a later row.
\set VERBOSITY terse
-- keys repeat below, and a Memoize node over the nested loop's slice scan
-- would serve the repeats from its cache instead of the join
SET enable_memoize = off;

SELECT cfstore.create_keyspace('ApiJoin');
SELECT cfstore.create_column_family('ApiJoin', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiJoin', 'Other', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('ApiJoin', 'Std', 'k' || r, 'c' || c, 'v' || r || '.' || c, writetime => c))
  FROM generate_series(1, 4) r, generate_series(1, 5) c;
SELECT cfstore.insert('ApiJoin', 'Other', 'k1', 'o', 'other', writetime => 1);
CREATE TABLE join_keys (k text, n int);
INSERT INTO join_keys VALUES ('k1', 1), ('k3', 3), ('none', 0), ('k2', 2), ('k1', 10);
CREATE TABLE join_names (n int, label text);
INSERT INTO join_names VALUES (1, 'one'), (2, 'two'), (3, 'three'), (10, 'ten');
ANALYZE join_keys, join_names;

CREATE FUNCTION join_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF, VERBOSE) ' || q LOOP
    RETURN NEXT line;
  END LOOP;
END $$;

-- q run with the join and with the nested loop: whether the join ran, the
-- rows, and whether both ways returned the same rows (as multisets)
CREATE FUNCTION join_same(q text, OUT join_used boolean, OUT nrows bigint, OUT same boolean)
LANGUAGE plpgsql AS $$
DECLARE plan text;
BEGIN
  SELECT string_agg(l, ' ') INTO plan FROM join_plan(q) l;
  join_used := plan LIKE '%cfstore slice join%';
  EXECUTE 'CREATE TEMP TABLE join_on AS ' || q;
  SET LOCAL cfstore.enable_slice_join = off;
  SELECT string_agg(l, ' ') INTO plan FROM join_plan(q) l;
  IF plan LIKE '%cfstore slice join%' THEN
    RAISE EXCEPTION 'the switch did not turn the join off';
  END IF;
  EXECUTE 'CREATE TEMP TABLE join_off AS ' || q;
  SET LOCAL cfstore.enable_slice_join = on;
  SELECT count(*) INTO nrows FROM join_on;
  EXECUTE 'SELECT NOT EXISTS (SELECT * FROM join_on EXCEPT ALL SELECT * FROM join_off)
             AND NOT EXISTS (SELECT * FROM join_off EXCEPT ALL SELECT * FROM join_on)' INTO same;
  DROP TABLE join_on;
  DROP TABLE join_off;
END $$;

-- the plans: the join, its conditions and projection; and the nested loop
-- where the join is not offered (an outer join, rows locked, UPDATE, the switch)
SELECT join_plan($q$SELECT j.k, s.column_name FROM join_keys j,
                    LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, reversed => true, count => 2) s$q$);
SELECT join_plan($q$SELECT j.n + length(s.value), s.column_name FROM join_keys j,
                    LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s
                    WHERE s.value LIKE '%.3' OR s.writetime = j.n$q$);
SELECT join_plan($q$SELECT count(*) FROM join_keys j
                    LEFT JOIN LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s ON true$q$);
SELECT join_plan($q$SELECT j.k, s.column_name FROM join_keys j,
                    LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s FOR UPDATE OF j$q$);
SELECT join_plan($q$UPDATE join_names SET label = s.value FROM join_keys j,
                    LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 1) s WHERE j.n = join_names.n$q$);
SET cfstore.enable_slice_join = off;
SELECT join_plan($q$SELECT j.k, s.column_name FROM join_keys j,
                    LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, reversed => true, count => 2) s$q$);
RESET cfstore.enable_slice_join;

-- the rows, in a fixed order (the join keeps the outer rows' order)
SELECT j.k, j.n, s.column_name, s.value FROM join_keys j,
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, reversed => true, count => 2) s;
SELECT j, s.column_name FROM join_keys j,
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 1) s;
SELECT j.n + length(s.value) AS x, s.column_name FROM join_keys j,
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s
 WHERE s.value LIKE '%.3' OR s.writetime = j.n;
SELECT s.value, s.column_name FROM join_keys j,
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, start => 'c3', count => 1) s;
SELECT count(*) FROM join_keys j, LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s;

-- each query both ways
SELECT * FROM join_same($q$SELECT j.n, s.*, j.k FROM join_keys j,
                          LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s$q$);
SELECT * FROM join_same($q$SELECT s.value FROM join_keys j,
                          LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, start => 'c2', count => 2) s
                          WHERE s.writetime <> j.n$q$);
SELECT * FROM join_same($q$SELECT j.k, count(*) AS c FROM join_keys j,
                          LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s GROUP BY j.k$q$);
-- the outer rows from a join, and a slice naming the column family per row
SELECT * FROM join_same($q$SELECT nm.label, s.column_name, s.value FROM join_keys j
                          JOIN join_names nm ON nm.n = j.n,
                          LATERAL cfstore.get_slice('ApiJoin', CASE WHEN nm.n = 1 THEN 'Other' ELSE 'Std' END,
                                                    j.k, count => 2) s$q$);
-- two slices in a row: the second's outer rows are the first's join
SELECT * FROM join_same($q$SELECT a.column_name AS a, b.column_name AS b, b.value FROM join_keys j,
                          LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 2) a,
                          LATERAL cfstore.get_slice('ApiJoin', 'Std', 'k' || substr(a.column_name, 2), count => 2) b$q$);
-- rescans with new parameters: the join under a correlated subquery
SELECT * FROM join_same($q$SELECT x, (SELECT string_agg(s.value, ',') FROM (VALUES (x), ('k4')) v(k),
                                    LATERAL cfstore.get_slice('ApiJoin', 'Std', v.k, count => 2) s) AS vals
                          FROM unnest(ARRAY['k1', 'k2', 'none']) x$q$);
SELECT x, (SELECT string_agg(s.value, ',') FROM (VALUES (x), ('k4')) v(k),
                  LATERAL cfstore.get_slice('ApiJoin', 'Std', v.k, count => 2) s) AS vals
  FROM unnest(ARRAY['k1', 'k2', 'none']) x;

-- EXPLAIN ANALYZE counts the join's rows and its child's
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT s.column_name FROM join_keys j, LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 3) s;
-- a prepared statement's generic plan (a copy of the plan) runs it too
SET plan_cache_mode = force_generic_plan;
PREPARE slices(text, int) AS SELECT v.k, s.column_name FROM (VALUES ($1), ('k2')) v(k),
        LATERAL cfstore.get_slice('ApiJoin', 'Std', v.k, count => $2) s;
EXPLAIN (COSTS OFF) EXECUTE slices('k1', 1);
EXECUTE slices('k1', 1);
EXECUTE slices('k4', 2);
DEALLOCATE slices;
RESET plan_cache_mode;

-- stopped early, and a scrollable cursor (read back through a Material node)
SELECT j.k, s.column_name FROM join_keys j,
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k) s LIMIT 7;
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT j.k, s.column_name FROM join_keys j,
        LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 2) s;
FETCH 3 FROM c;
FETCH BACKWARD 2 FROM c;
FETCH ALL FROM c;
COMMIT;
-- INSERT ... SELECT runs the join too
CREATE TEMP TABLE copied (k text, column_name text, value text);
SELECT join_plan($q$INSERT INTO copied SELECT j.k, s.column_name, s.value FROM join_keys j,
                    LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 1) s$q$);
INSERT INTO copied SELECT j.k, s.column_name, s.value FROM join_keys j,
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 1) s;
SELECT * FROM copied ORDER BY k, column_name;

-- bounds that repeat from one row to the next, change, repeat again, and
-- come as text and as bytea: each slice is the one its own bounds ask for
-- (the call site keeps the last conversion of each bound)
SELECT j.k, j.lo, j.hi, string_agg(s.column_name, ',' ORDER BY s.column_name) AS names FROM
  (VALUES ('k1', 'c2', 'c4'), ('k2', 'c2', 'c4'), ('k3', 'c3', 'c3'), ('k4', 'c2', 'c4'), ('k1', '', 'c2'),
          ('k2', 'c3', ''), ('k3', 'c2', 'c4')) j(k, lo, hi),
  LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, j.lo, j.hi) s
 GROUP BY j.k, j.lo, j.hi ORDER BY 1, 2, 3;
SELECT j.k, j.lo, string_agg(s.column_name, ',' ORDER BY s.column_name) AS names FROM
  (VALUES ('k1', '\x6332'::bytea), ('k2', '\x6332'), ('k3', '\x6333'), ('k4', '\x6332')) j(k, lo),
  LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, j.lo, NULL::bytea, false, 2) s
 GROUP BY j.k, j.lo ORDER BY 1, 2;

-- errors are the function's, raised by the row that causes them
SELECT j.k, s.column_name FROM (VALUES ('k1'), (NULL)) j(k),
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 1) s;
SELECT j.k, s.column_name FROM (VALUES ('k1'), ('')) j(k),
       LATERAL cfstore.get_slice('ApiJoin', 'Std', j.k, count => 1) s;
SELECT v.cf, s.column_name FROM (VALUES ('Std'), ('Nope')) v(cf),
       LATERAL cfstore.get_slice('ApiJoin', v.cf, 'k1', count => 1) s;
CREATE ROLE api_join_reader;
GRANT USAGE ON SCHEMA cfstore TO api_join_reader;
GRANT SELECT ON join_keys TO api_join_reader;
DO $$ BEGIN EXECUTE format('GRANT SELECT ON %s TO api_join_reader', cfstore._storage_relation('ApiJoin', 'Std')); END $$;
SET ROLE api_join_reader;
SELECT v.cf, s.column_name FROM (VALUES ('Std'), ('Std')) v(cf),
       LATERAL cfstore.get_slice('ApiJoin', v.cf, 'k1', count => 1) s;
SELECT v.cf, s.column_name FROM (VALUES ('Std'), ('Other')) v(cf),
       LATERAL cfstore.get_slice('ApiJoin', v.cf, 'k1', count => 1) s;
RESET ROLE;
DO $$ BEGIN EXECUTE format('REVOKE SELECT ON %s FROM api_join_reader', cfstore._storage_relation('ApiJoin', 'Std')); END $$;
REVOKE SELECT ON join_keys FROM api_join_reader;
REVOKE USAGE ON SCHEMA cfstore FROM api_join_reader;
DROP ROLE api_join_reader;

-- the backend keeps its last conversions of text bounds across executions
-- of a prepared statement (text and bytea ones: the others are converted
-- at every call), for the column family's definition of the time:
-- recreated with another comparator, the same bounds are converted again
SELECT cfstore.create_column_family('ApiJoin', 'Again', comparator => 'UTF8Type', key_validation_class => 'UTF8Type');
SELECT cfstore.insert('ApiJoin', 'Again', 'k', n, 'v') FROM unnest(ARRAY['10', '9', 'b', 'é']) n;
PREPARE again(text) AS SELECT column_name FROM cfstore.get_slice('ApiJoin', 'Again', $1, '10'::text, ''::text);
PREPARE again_accent(text) AS SELECT column_name FROM cfstore.get_slice('ApiJoin', 'Again', $1, 'é'::text, ''::text);
EXECUTE again('k');
EXECUTE again('k');
EXECUTE again_accent('k');
SELECT cfstore.drop_column_family('ApiJoin', 'Again');
SELECT cfstore.create_column_family('ApiJoin', 'Again', comparator => 'LongType', key_validation_class => 'UTF8Type');
SELECT cfstore.insert('ApiJoin', 'Again', 'k', n, 'v') FROM unnest(ARRAY[100, 10, 9, 2]) n;
EXECUTE again('k');
SELECT cfstore.drop_column_family('ApiJoin', 'Again');
SELECT cfstore.create_column_family('ApiJoin', 'Again', comparator => 'AsciiType', key_validation_class => 'UTF8Type');
EXECUTE again_accent('k');
DEALLOCATE again;
DEALLOCATE again_accent;

SELECT name, cfstore.verify(keyspace, name) FROM cfstore.column_family WHERE keyspace = 'ApiJoin' ORDER BY name;
DROP FUNCTION join_same(text);
DROP FUNCTION join_plan(text);
DROP TABLE join_keys, join_names;
SELECT cfstore.drop_keyspace('ApiJoin');
