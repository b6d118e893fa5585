-- CQL3 through cfstore.cql() agrees with a model of CQL3's rules.  Random
-- INSERTs, UPDATEs and DELETEs (of columns, of rows, of partitions; with
-- USING TIMESTAMP, so that timestamps tie, and USING TTL) go into a table
-- with two clustering columns, and into a plain table of operations.  The
-- model derives the CQL rows from that table alone, in SQL: each cell
-- (row marker, a, b) is its latest version, a tombstone winning a tie and
-- the bigger value (signed bytes) winning a tie of two values; a partition
-- deletion, or one of the rows under a first clustering value, hides
-- every cell not newer than it, written before or after; an expired TTL
-- is no cell;
-- a CQL row exists while any of its cells is live (INSERT and UPDATE both
-- write the marker, as Cassandra 1.2.4 does).  Every SELECT form is then
-- compared with the model, row for row and in order: whole partitions in
-- both orders, clustering equalities, ranges on either clustering column,
-- IN on the partition key and on the last clustering column, LIMIT,
-- COUNT(*), WRITETIME, full scans, and the foreign table, over two rounds
-- of writes with VACUUM between them.
\set VERBOSITY terse
SET search_path = public, cfstore;

SELECT setseed(0.28);
SELECT cfstore.cql($$CREATE KEYSPACE cqlm WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}$$);
SELECT cfstore.cql($$CREATE TABLE t (k text, c1 int, c2 text, a text, b int, PRIMARY KEY (k, c1, c2))$$, 'cqlm');

-- the operations: one row per cell version written (a deleted or expired
-- version wins a tie of timestamps)
CREATE TABLE op (i serial, k text, c1 int, c2 text, col text, val bytea, ts bigint, ttl int, tomb boolean);
-- partition deletions, and deletions of the rows under a first clustering value
CREATE TABLE pdel (k text, ts bigint);
CREATE TABLE c1del (k text, c1 int, ts bigint, last_op int);
-- timestamps follow the operations, give or take a few: close ones tie
CREATE SEQUENCE m_clock;

-- values: the first character decides most ties (é sorts below a in signed bytes)
CREATE FUNCTION m_text() RETURNS text LANGUAGE sql AS $$
  SELECT (ARRAY['a', 'm', 'z', 'é'])[1 + floor(random() * 4)::int] || floor(random() * 5)::int
$$;
CREATE FUNCTION m_ttl() RETURNS int LANGUAGE sql AS $$
  SELECT CASE WHEN r < 0.08 THEN 1 WHEN r < 0.12 THEN 100000 END FROM (SELECT random() AS r) x
$$;
-- a CQL literal of a value, or null
CREATE FUNCTION m_lit(v text) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(quote_literal(v), 'null')
$$;

-- Record a cell version.
CREATE FUNCTION m_rec(k text, c1 int, c2 text, col text, val bytea, ts bigint, ttl int, tomb boolean)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO op (k, c1, c2, col, val, ts, ttl, tomb) VALUES (k, c1, c2, col, val, ts, ttl, tomb)
$$;

-- One random write, run through cql() and recorded.
CREATE FUNCTION m_op() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r double precision := random();
  k text := 'k' || floor(random() * 4)::int;
  c1 int := floor(random() * 3)::int - 1;
  c2 text := (ARRAY['', 'x', 'é'])[1 + floor(random() * 3)::int];
  ts bigint := nextval('m_clock') / 4 + floor(random() * 3)::bigint;
  ttl int := m_ttl();
  a text := CASE WHEN random() < 0.15 THEN NULL ELSE m_text() END;
  b int := CASE WHEN random() < 0.15 THEN NULL ELSE floor(random() * 200)::int - 100 END;
  using_ text;
  key text;
BEGIN
  using_ := format(' USING TIMESTAMP %s', ts) || CASE WHEN ttl IS NOT NULL THEN format(' AND TTL %s', ttl) ELSE '' END;
  key := format('k = %L AND c1 = %s AND c2 = %L', k, c1, c2);
  IF r < 0.40 THEN
    -- INSERT: the marker, a and b (a null is a tombstone)
    PERFORM cfstore.cql(format('INSERT INTO t (k, c1, c2, a, b) VALUES (%L, %s, %L, %s, %s)%s',
                               k, c1, c2, m_lit(a), coalesce(b::text, 'null'), using_), 'cqlm');
    PERFORM m_rec(k, c1, c2, '', '', ts, ttl, false);
    PERFORM m_rec(k, c1, c2, 'a', convert_to(a, 'UTF8'), ts, CASE WHEN a IS NOT NULL THEN ttl END, a IS NULL);
    PERFORM m_rec(k, c1, c2, 'b', int4send(b), ts, CASE WHEN b IS NOT NULL THEN ttl END, b IS NULL);
  ELSIF r < 0.65 THEN
    -- UPDATE of a or b: the marker and the column
    IF random() < 0.5 THEN
      PERFORM cfstore.cql(format('UPDATE t%s SET a = %s WHERE %s', using_, m_lit(a), key), 'cqlm');
      PERFORM m_rec(k, c1, c2, 'a', convert_to(a, 'UTF8'), ts, CASE WHEN a IS NOT NULL THEN ttl END, a IS NULL);
    ELSE
      PERFORM cfstore.cql(format('UPDATE t%s SET b = %s WHERE %s', using_, coalesce(b::text, 'null'), key), 'cqlm');
      PERFORM m_rec(k, c1, c2, 'b', int4send(b), ts, CASE WHEN b IS NOT NULL THEN ttl END, b IS NULL);
    END IF;
    PERFORM m_rec(k, c1, c2, '', '', ts, ttl, false);
  ELSIF r < 0.80 THEN
    -- DELETE of a column: its tombstone (the marker stays)
    IF random() < 0.5 THEN
      PERFORM cfstore.cql(format('DELETE a FROM t USING TIMESTAMP %s WHERE %s', ts, key), 'cqlm');
      PERFORM m_rec(k, c1, c2, 'a', NULL, ts, NULL, true);
    ELSE
      PERFORM cfstore.cql(format('DELETE b FROM t USING TIMESTAMP %s WHERE %s', ts, key), 'cqlm');
      PERFORM m_rec(k, c1, c2, 'b', NULL, ts, NULL, true);
    END IF;
  ELSIF r < 0.93 THEN
    -- DELETE of the rows under a prefix: every cell under it, present or to come, not newer
    PERFORM cfstore.cql(format('DELETE FROM t USING TIMESTAMP %s WHERE k = %L AND c1 = %s', ts, k, c1), 'cqlm');
    INSERT INTO c1del VALUES (k, c1, ts, (SELECT coalesce(max(i), 0) FROM op));
  ELSIF r < 0.97 THEN
    -- DELETE of a CQL row: every cell of it, present or to come, not newer
    PERFORM cfstore.cql(format('DELETE FROM t USING TIMESTAMP %s WHERE %s', ts, key), 'cqlm');
    PERFORM m_rec(k, c1, c2, col, NULL, ts, NULL, true) FROM unnest(ARRAY['', 'a', 'b']) col;
  ELSE
    -- DELETE of a partition
    PERFORM cfstore.cql(format('DELETE FROM t USING TIMESTAMP %s WHERE k = %L', ts, k), 'cqlm');
    INSERT INTO pdel VALUES (k, ts);
  END IF;
END $$;

-- Signed byte order (Cassandra's tie-break between two values of one timestamp).
CREATE FUNCTION m_signed(b bytea) RETURNS int[] LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(CASE WHEN get_byte(b, i) > 127 THEN get_byte(b, i) - 256 ELSE get_byte(b, i) END ORDER BY i),
                  '{}')
    FROM generate_series(0, length(b) - 1) i
$$;

-- int4 from its 4 bytes
CREATE FUNCTION int4recv_bytes(b bytea) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT ('x' || encode(b, 'hex'))::bit(32)::int
$$;

-- The model: the live cells, then the CQL rows, as jsonb in CQL's output form.
CREATE VIEW m_cell AS
SELECT DISTINCT ON (o.k, o.c1, o.c2, o.col) o.*
  FROM op o
 ORDER BY o.k, o.c1, o.c2, o.col, o.ts DESC, (o.tomb OR coalesce(o.ttl = 1, false)) DESC, m_signed(o.val) DESC;
CREATE VIEW m_live AS
SELECT c.* FROM m_cell c
 WHERE NOT c.tomb
   AND c.ttl IS DISTINCT FROM 1                       -- every check runs after a TTL of 1 s has expired
   AND NOT EXISTS (SELECT FROM pdel d WHERE d.k = c.k AND d.ts >= c.ts)
   AND NOT EXISTS (SELECT FROM c1del d WHERE d.k = c.k AND d.c1 = c.c1 AND d.ts >= c.ts);
CREATE VIEW m_row AS
SELECT k, c1, c2,
       max(convert_from(val, 'UTF8')) FILTER (WHERE col = 'a') AS a,
       max(int4recv_bytes(val)) FILTER (WHERE col = 'b') AS b,
       max(ts) FILTER (WHERE col = 'a') AS wa
  FROM m_live GROUP BY k, c1, c2;

-- A model row as cql() returns it.
CREATE FUNCTION m_json(r m_row) RETURNS jsonb LANGUAGE sql AS $$
  SELECT jsonb_build_object('k', r.k, 'c1', r.c1, 'c2', r.c2, 'a', r.a, 'b', r.b)
$$;

-- Compare a query's rows with the model's (both in order); a line per mismatch.
CREATE FUNCTION m_check(what text, cql text, model jsonb[]) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  got jsonb[];
BEGIN
  got := ARRAY(SELECT cfstore.cql(cql, 'cqlm'));
  IF got IS DISTINCT FROM coalesce(model, '{}') THEN
    RETURN NEXT format('%s: %s gave %s rows, the model %s; first: %s / %s', what, cql,
                       cardinality(got), cardinality(coalesce(model, '{}')), got[1], model[1]);
  END IF;
END $$;

-- Every SELECT form, for every partition and a spread of bounds.
CREATE FUNCTION m_verify() RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  pk text;
  v int;
  c text;
  n int;
BEGIN
  FOR pk IN SELECT 'k' || g FROM generate_series(0, 3) g LOOP
    RETURN QUERY SELECT m_check('partition', format('SELECT * FROM t WHERE k = %L', pk),
      ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk ORDER BY c1, c2 COLLATE "C"));
    RETURN QUERY SELECT m_check('partition desc', format('SELECT * FROM t WHERE k = %L ORDER BY c1 DESC', pk),
      ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk ORDER BY c1 DESC, c2 COLLATE "C" DESC));
    RETURN QUERY SELECT m_check('count', format('SELECT COUNT(*) FROM t WHERE k = %L', pk),
      ARRAY[jsonb_build_object('count', (SELECT count(*) FROM m_row r WHERE r.k = pk))]);
    FOR n IN 1..3 LOOP
      RETURN QUERY SELECT m_check('limit', format('SELECT * FROM t WHERE k = %L ORDER BY c1 DESC LIMIT %s', pk, n),
        ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk ORDER BY c1 DESC, c2 COLLATE "C" DESC LIMIT n));
    END LOOP;
    RETURN QUERY SELECT m_check('writetime', format('SELECT a, WRITETIME(a) FROM t WHERE k = %L', pk),
      ARRAY(SELECT jsonb_build_object('a', r.a, 'writetime(a)', r.wa) FROM m_row r WHERE r.k = pk
             ORDER BY c1, c2 COLLATE "C"));
    FOR v IN -2..2 LOOP
      RETURN QUERY SELECT m_check('c1 =', format('SELECT * FROM t WHERE k = %L AND c1 = %s', pk, v),
        ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 = v ORDER BY c2 COLLATE "C"));
      RETURN QUERY SELECT m_check('c1 >', format('SELECT * FROM t WHERE k = %L AND c1 > %s', pk, v),
        ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 > v ORDER BY c1, c2 COLLATE "C"));
      RETURN QUERY SELECT m_check('c1 >= <=', format('SELECT * FROM t WHERE k = %L AND c1 >= %s AND c1 <= %s ORDER BY c1 DESC', pk, v, v + 2),
        ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 BETWEEN v AND v + 2
               ORDER BY c1 DESC, c2 COLLATE "C" DESC));
      RETURN QUERY SELECT m_check('c1 <', format('SELECT * FROM t WHERE k = %L AND c1 < %s LIMIT 2', pk, v),
        ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 < v ORDER BY c1, c2 COLLATE "C" LIMIT 2));
      FOREACH c IN ARRAY ARRAY['', 'x', 'y', 'é'] LOOP
        RETURN QUERY SELECT m_check('c2 >', format('SELECT * FROM t WHERE k = %L AND c1 = %s AND c2 > %L', pk, v, c),
          ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 = v AND r.c2 COLLATE "C" > c
                 ORDER BY c2 COLLATE "C"));
        RETURN QUERY SELECT m_check('c2 <=', format('SELECT * FROM t WHERE k = %L AND c1 = %s AND c2 <= %L ORDER BY c1 DESC', pk, v, c),
          ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 = v AND r.c2 COLLATE "C" <= c
                 ORDER BY c2 COLLATE "C" DESC));
        RETURN QUERY SELECT m_check('row', format('SELECT * FROM t WHERE k = %L AND c1 = %s AND c2 = %L', pk, v, c),
          ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 = v AND r.c2 = c));
      END LOOP;
      RETURN QUERY SELECT m_check('c2 IN', format('SELECT * FROM t WHERE k = %L AND c1 = %s AND c2 IN (''y'', '''', ''é'')', pk, v),
        ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 = v AND r.c2 IN ('y', '', 'é')
               ORDER BY c2 COLLATE "C"));
    END LOOP;
  END LOOP;
  RETURN QUERY SELECT m_check('k IN', 'SELECT * FROM t WHERE k IN (''k3'', ''k0'', ''k9'')',
    ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k IN ('k3', 'k0')
           ORDER BY r.k = 'k0', c1, c2 COLLATE "C"));
  RETURN QUERY SELECT m_check('k IN order by', 'SELECT * FROM t WHERE k IN (''k3'', ''k0'') ORDER BY c1 DESC LIMIT 7',
    ARRAY(SELECT j FROM (SELECT m_json(r) AS j, c1, row_number() OVER (ORDER BY r.k = 'k0', c1, c2 COLLATE "C") AS o
                           FROM m_row r WHERE r.k IN ('k3', 'k0')) s ORDER BY c1 DESC, o DESC LIMIT 7));
  RETURN QUERY SELECT m_check('scan', 'SELECT * FROM t',
    ARRAY(SELECT m_json(r) FROM m_row r ORDER BY k COLLATE "C", c1, c2 COLLATE "C"));
  RETURN QUERY SELECT m_check('scan count', 'SELECT COUNT(*) FROM t LIMIT 5',
    ARRAY[jsonb_build_object('count', least(5, (SELECT count(*) FROM m_row)))]);
  -- the foreign table: the same rows through SQL, with and without pushdown
  IF ARRAY(SELECT to_jsonb(f) FROM cqlm.t f ORDER BY k COLLATE "C", c1, c2 COLLATE "C")
     IS DISTINCT FROM ARRAY(SELECT m_json(r) FROM m_row r ORDER BY k COLLATE "C", c1, c2 COLLATE "C") THEN
    RETURN NEXT 'foreign table scan differs from the model';
  END IF;
  FOR pk IN SELECT 'k' || g FROM generate_series(0, 3) g LOOP
    IF ARRAY(SELECT to_jsonb(f) FROM cqlm.t f WHERE f.k = pk AND f.c1 >= 0 ORDER BY c1 DESC, c2 DESC LIMIT 3)
       IS DISTINCT FROM ARRAY(SELECT m_json(r) FROM m_row r WHERE r.k = pk AND r.c1 >= 0
                               ORDER BY c1 DESC, c2 COLLATE "C" DESC LIMIT 3) THEN
      RETURN NEXT format('foreign table slice of %s differs from the model', pk);
    END IF;
  END LOOP;
END $$;

-- round 1: writes, then every read; round 2 after VACUUM
SELECT m_op() FROM generate_series(1, 800) \g /dev/null
SELECT pg_sleep(2);
SELECT count(*) > 0 AS some_rows, count(DISTINCT k) AS partitions FROM m_row;
SELECT * FROM m_verify();
VACUUM;
SELECT * FROM m_verify();
SELECT m_op() FROM generate_series(1, 800) \g /dev/null
SELECT pg_sleep(2);
SELECT * FROM m_verify();
VACUUM;
SELECT * FROM m_verify();
-- the model is not trivial: rows, deleted columns, expired and tied cells
SELECT (SELECT count(*) FROM m_row) > 20 AS rows,
       (SELECT count(*) FROM m_row WHERE a IS NULL) > 0 AS null_columns,
       (SELECT count(*) FROM op WHERE ttl = 1) > 0 AS expired,
       (SELECT count(*) FROM (SELECT k, c1, c2, col, ts FROM op GROUP BY 1, 2, 3, 4, 5 HAVING count(*) > 1) t) > 0 AS ties,
       (SELECT count(*) FROM pdel) > 0 AS partition_deletes,
       -- cells written under a deleted prefix after its deletion, with a timestamp it covers
       (SELECT count(*) FROM op o JOIN c1del d ON d.k = o.k AND d.c1 = o.c1 AND o.i > d.last_op AND o.ts <= d.ts
         WHERE NOT o.tomb) > 0 AS written_under_prefix_deletes;

DROP FUNCTION m_verify(), m_check(text, text, jsonb[]), m_json(m_row), m_op(), m_rec(text, integer, text, text, bytea, bigint, integer, boolean),
  m_lit(text), m_ttl(), m_text();
DROP VIEW m_row, m_live, m_cell;
DROP FUNCTION int4recv_bytes(bytea), m_signed(bytea);
DROP TABLE op, pdel;
DROP SEQUENCE m_clock;
SELECT cfstore.cql($$DROP KEYSPACE cqlm$$);
