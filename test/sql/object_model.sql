-- put_object and get_object agree with jsonb.  10,000 random documents
-- (nested up to 6 deep, objects and arrays in arrays, empty containers,
-- numbers of 40 digits and of 1e-40, strings that look like numbers or
-- JSON, unicode, field names with '.', '[', ']', '\' and the empty name)
-- each read back equal to what was written; then random partial updates
-- (put_object of some fields: jsonb's ||) and removals of random paths
-- (remove_object: jsonb's #-) and of whole objects, each object compared
-- with that model after every operation, in two column families: one
-- with a clustering field, one keyed by its row alone.
\set VERBOSITY terse
SELECT setseed(0.29);
\o /dev/null
SELECT cfstore.create_keyspace('objm');
SELECT cfstore.create_column_family('objm', 'docs', comparator => 'CompositeType(Int32Type, UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('objm', 'rows', comparator => 'CompositeType(UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
\o

CREATE FUNCTION m_pick(a text[]) RETURNS text LANGUAGE sql AS $$
  SELECT a[1 + floor(random() * array_length(a, 1))::int]
$$;
CREATE FUNCTION m_name() RETURNS text LANGUAGE sql AS $$
  SELECT m_pick(ARRAY['a', 'b', 'c', 'id', 'k', 'x.y', '[0]', 'c]', '\', '\0', '', 'ünï', '日本', 'a\.b', '.',
                      'items', 'customer', 'email', 'ß', '𝄞'])
$$;
CREATE FUNCTION m_scalar() RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE r float8 := random();
BEGIN
  RETURN CASE
    WHEN r < 0.15 THEN to_jsonb((floor(random() * 1e15)::numeric * 1e25 + floor(random() * 1e15)::numeric)
                                / (10::numeric ^ floor(random() * 30)::int))
    WHEN r < 0.20 THEN to_jsonb(1e-40::numeric * floor(random() * 1000))
    WHEN r < 0.35 THEN to_jsonb(floor(random() * 2000)::int - 1000)
    WHEN r < 0.40 THEN to_jsonb(round(random()::numeric, 1 + floor(random() * 6)::int))
    WHEN r < 0.70 THEN to_jsonb(m_pick(ARRAY['42', 'true', 'null', '', '{}', '[]', '"q"', 'a\b', 'çødé ☃',
                                             '1e5', '0.10', ' ', 'x.y[0]', E'line\nbreak', E'tab\t']))
    WHEN r < 0.80 THEN to_jsonb(random() < 0.5)
    ELSE 'null'::jsonb
  END;
END $$;
CREATE FUNCTION m_value(depth int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r float8 := random();
  v jsonb;
  n int := floor(random() * 4)::int;
BEGIN
  IF depth >= 6 OR r < 0.35 THEN
    RETURN m_scalar();
  ELSIF r < 0.8 THEN
    v := '{}';
    FOR i IN 1 .. n LOOP
      v := v || jsonb_build_object(m_name(), m_value(depth + 1));
    END LOOP;
  ELSE
    v := '[]';
    FOR i IN 1 .. n LOOP
      v := v || jsonb_build_array(m_value(depth + 1));
    END LOOP;
  END IF;
  RETURN v;
END $$;
-- a document of up to 6 top-level fields (never the key fields k and id)
CREATE FUNCTION m_doc() RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE v jsonb := '{}';
BEGIN
  FOR i IN 1 .. floor(random() * 7)::int LOOP
    v := v || jsonb_build_object(m_name(), m_value(1));
  END LOOP;
  RETURN v - 'k' - 'id';
END $$;
-- every path of a document: jsonb's text[] and the object path
CREATE FUNCTION m_paths(doc jsonb, steps text[] DEFAULT '{}', dotted text DEFAULT NULL)
RETURNS TABLE (p text[], d text) LANGUAGE plpgsql AS $$
DECLARE
  key text;
  val jsonb;
  i int;
  s text;
BEGIN
  IF jsonb_typeof(doc) = 'object' THEN
    FOR key, val IN SELECT * FROM jsonb_each(doc) LOOP
      s := CASE WHEN key = '' THEN '\0'
                ELSE replace(replace(replace(replace(key, '\', '\\'), '.', '\.'), '[', '\['), ']', '\]') END;
      s := coalesce(dotted || '.', '') || s;
      p := steps || key; d := s;
      RETURN NEXT;
      RETURN QUERY SELECT * FROM m_paths(val, steps || key, s);
    END LOOP;
  ELSIF jsonb_typeof(doc) = 'array' THEN
    FOR i IN 0 .. jsonb_array_length(doc) - 1 LOOP
      s := coalesce(dotted || '.', '') || '[' || i || ']';
      p := steps || i::text; d := s;
      RETURN NEXT;
      RETURN QUERY SELECT * FROM m_paths(doc -> i, steps || i::text, s);
    END LOOP;
  END IF;
END $$;

-- 10,000 documents written and read back
CREATE TABLE written (id int, k text, doc jsonb, back jsonb);
DO $$
DECLARE
  d jsonb;
  k text;
BEGIN
  FOR i IN 1 .. 10000 LOOP
    k := 'k' || (i % 97);
    d := m_doc() || jsonb_build_object('k', k, 'id', i);
    PERFORM cfstore.put_object('objm', 'docs', d, '{k,id}');
    INSERT INTO written VALUES (i, k, d, cfstore.get_object('objm', 'docs', jsonb_build_object('k', k, 'id', i)));
  END LOOP;
END $$;
SELECT count(*) AS documents, count(*) FILTER (WHERE back = doc) AS read_back_equal,
       count(*) FILTER (WHERE back IS DISTINCT FROM doc) AS different,
       count(*) FILTER (WHERE doc::text LIKE '%[[%' OR doc::text LIKE '%[{%') AS with_nested_arrays,
       count(*) FILTER (WHERE doc::text ~ '[{][}]|\[\]') AS with_empty_containers,
       count(*) FILTER (WHERE (SELECT max(cardinality(p)) FROM m_paths(doc)) = 6) AS six_deep
  FROM written;
SELECT id, doc, back FROM written WHERE back IS DISTINCT FROM doc LIMIT 3;
-- every document is also found by its key, and a row's by the row key
SELECT count(*) AS found_by_key FROM written w
 WHERE (SELECT f FROM cfstore.find_objects('objm', 'docs', jsonb_build_object('k', w.k, 'id', w.id)) f) = w.doc;
SELECT count(*) AS in_row_k5 FROM cfstore.find_objects('objm', 'docs', '{"k": "k5"}', 1000);

-- random partial updates and removals against the model
CREATE TABLE model (cf text, k text, id int, doc jsonb, PRIMARY KEY (cf, k, id));
CREATE TABLE mismatch (op int, cf text, k text, id int, what text, model jsonb, got jsonb);
CREATE TABLE ops (kind text);
CREATE FUNCTION m_key(cf text, k text, id int) RETURNS jsonb LANGUAGE sql AS $$
  SELECT CASE WHEN cf = 'docs' THEN jsonb_build_object('k', k, 'id', id) ELSE jsonb_build_object('k', k) END
$$;
DO $$
DECLARE
  c text;
  rk text;
  n int;
  m jsonb;
  patch jsonb;
  path record;
  r float8;
  what text;
  got jsonb;
BEGIN
  FOR i IN 1 .. 3000 LOOP
    c := CASE WHEN random() < 0.5 THEN 'docs' ELSE 'rows' END;
    rk := 'm' || floor(random() * 15)::int;
    n := CASE WHEN c = 'docs' THEN floor(random() * 10)::int ELSE 0 END;
    SELECT x.doc INTO m FROM model x WHERE x.cf = c AND x.k = rk AND x.id = n;
    r := random();
    IF m IS NULL OR r < 0.45 THEN
      -- some fields, one of them perhaps the document's own
      patch := m_doc();
      IF m IS NOT NULL AND m - 'k' - 'id' <> '{}' AND random() < 0.5 THEN
        patch := patch || jsonb_build_object(m_pick(ARRAY(SELECT jsonb_object_keys(m - 'k' - 'id'))), m_value(2));
      END IF;
      what := 'put ' || patch::text;
      INSERT INTO ops VALUES (CASE WHEN m IS NULL THEN 'put a new object'
                                   WHEN patch ?| ARRAY(SELECT jsonb_object_keys(m)) THEN 'put replacing fields'
                                   ELSE 'put adding fields' END);
      PERFORM cfstore.put_object('objm', c, patch || m_key(c, rk, n),
                                 CASE WHEN c = 'docs' THEN '{k,id}'::text[] ELSE '{k}' END);
      m := coalesce(m, m_key(c, rk, n)) || patch;
    ELSIF r < 0.9 THEN
      SELECT * INTO path FROM m_paths(m - 'k' - 'id') ORDER BY random() LIMIT 1;
      IF NOT FOUND THEN
        CONTINUE;
      END IF;
      what := 'remove ' || path.d;
      INSERT INTO ops VALUES (CASE WHEN path.d ~ '\]$' THEN 'remove an array element'
                                   WHEN cardinality(path.p) = 1 THEN 'remove a field'
                                   ELSE 'remove a nested field' END);
      PERFORM cfstore.remove_object('objm', c, m_key(c, rk, n), ARRAY[path.d]);
      m := m #- path.p;
    ELSE
      what := 'remove all';
      INSERT INTO ops VALUES ('remove the object');
      PERFORM cfstore.remove_object('objm', c, m_key(c, rk, n));
      m := NULL;
    END IF;
    IF m IS NULL THEN
      DELETE FROM model x WHERE x.cf = c AND x.k = rk AND x.id = n;
    ELSE
      INSERT INTO model VALUES (c, rk, n, m) ON CONFLICT ON CONSTRAINT model_pkey DO UPDATE SET doc = excluded.doc;
    END IF;
    got := cfstore.get_object('objm', c, m_key(c, rk, n));
    IF got IS DISTINCT FROM m THEN
      INSERT INTO mismatch VALUES (i, c, rk, n, what, m, got);
    END IF;
  END LOOP;
END $$;
SELECT kind, count(*) FROM ops GROUP BY kind ORDER BY kind;
SELECT count(*) > 100 AS many_objects, count(DISTINCT cf) AS column_families FROM model;
SELECT count(*) AS mismatches FROM mismatch;
SELECT * FROM mismatch ORDER BY op LIMIT 3;
-- and, at the end, every object of the model as find_objects sees it
SELECT count(*) AS model_objects,
       count(*) FILTER (WHERE (SELECT f FROM cfstore.find_objects('objm', m.cf, m_key(m.cf, m.k, m.id)) f) = m.doc)
         AS found_equal
  FROM model m;

\o /dev/null
SELECT cfstore.drop_keyspace('objm');
\o
