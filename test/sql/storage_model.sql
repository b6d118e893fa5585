-- Every read agrees with an independent model of Cassandra's rules
-- (doc/semantics.md §4 to §8.2).  Thousands of random writes go both
-- into four column families and into a plain table of operations; the
-- model derives from that table alone, in SQL, which cells must be live:
-- the highest timestamp wins, a tombstone (or an expired TTL cell) wins a
-- tie, between two live values the bigger wins under signed byte order, a
-- row or super column tombstone hides every cell with a timestamp not above
-- its own, and a counter is the sum of its increments since its last
-- removal.  Some writes are rolled back in a subtransaction, together with
-- their record.  Then every row is read in several ways (whole, reversed
-- with a count, from bounds that do not exist, named columns, counts,
-- multiget, range slices, the foreign table with and without pushdown)
-- and compared with the model, before and after VACUUM, over three rounds
-- of writes, so that later writes meet rows VACUUM has compacted.
\set VERBOSITY terse
SET search_path = public, cfstore;

\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('Model');
SELECT cfstore.create_column_family('Model', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Model', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'LongType', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Model', 'Cnt', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('Model', 'SCnt', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type',
         default_validation_class => 'CounterColumnType');
-- VACUUM runs where the test says: an autovacuum during a round would
-- compact the leaves before the shape of the written rows is checked
SELECT cfstore._storage_relation('Model', 'Std') AS std_rel \gset
SELECT cfstore._storage_relation('Model', 'Sup') AS sup_rel \gset
SELECT cfstore._storage_relation('Model', 'Cnt') AS cnt_rel \gset
SELECT cfstore._storage_relation('Model', 'SCnt') AS scnt_rel \gset
ALTER TABLE :std_rel SET (autovacuum_enabled = off);
ALTER TABLE :sup_rel SET (autovacuum_enabled = off);
ALTER TABLE :cnt_rel SET (autovacuum_enabled = off);
ALTER TABLE :scnt_rel SET (autovacuum_enabled = off);
CREATE FOREIGN TABLE model_std (key text COLLATE "C" NOT NULL, column_name text COLLATE "C" NOT NULL,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'Model', column_family 'Std');

\i test/sql/include/model.sql

-- A value: its first character decides most ties (é and ü sort below a
-- under signed bytes), the op number makes it unique.  One in thirty is
-- 3 to 6 kB of md5 text, stored out of line in an overflow chain.
CREATE FUNCTION model_value(i integer) RETURNS text LANGUAGE sql AS $$
  SELECT (ARRAY['a', 'm', 'z', 'é', 'ü'])[1 + floor(random() * 5)::int]
         || repeat('x', floor(random() * 100)::int) || i
         || CASE WHEN random() < 1.0 / 30 THEN
              (SELECT string_agg(md5(i::text || g), '') FROM generate_series(1, 100 + floor(random() * 100)::int) g)
            ELSE '' END
$$;

-- A TTL: mostly none, some 1 s (expired at every check: each round sleeps
-- 2 s first), some too long to expire during the test.
CREATE FUNCTION model_ttl() RETURNS integer LANGUAGE sql AS $$
  SELECT CASE WHEN r < 0.10 THEN 1 WHEN r < 0.15 THEN 100000 END FROM (SELECT random() AS r) x
$$;

-- One random write, applied to cfstore and recorded.
CREATE FUNCTION model_op(i integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r double precision := random();
  k text := 'r' || floor(random() * 20)::int;
  n text;
  sc text := 's' || floor(random() * 8)::int;
  sub bigint := floor(random() * 21)::bigint - 10;
  v text := model_value(i);
  ttl integer := model_ttl();
  ts bigint := floor(random() * 25)::bigint;
  d bigint := floor(random() * 100)::bigint - 30;
  m jsonb;
  rlo text;
  rhi text;
  rts bigint;
BEGIN
  n := 'c' || lpad(floor(random() * 100)::int::text, 3, '0');
  IF r < 0.40 THEN
    PERFORM cfstore.insert('Model', 'Std', k, n, v, writetime => ts, ttl => ttl);
    INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl) VALUES ('Std', k, n, 'ins', v, ts, ttl);
  ELSIF r < 0.49 THEN
    PERFORM cfstore.remove('Model', 'Std', k, n, writetime => ts);
    INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Std', k, n, 'del', ts);
  ELSIF r < 0.493 THEN
    ts := floor(random() * 12);
    PERFORM cfstore.remove('Model', 'Std', k, writetime => ts);
    INSERT INTO model_ops (cf, key, kind, ts) VALUES ('Std', k, 'rowdel', ts);
  ELSIF r < 0.73 THEN
    PERFORM cfstore.insert('Model', 'Sup', k, sub, v, writetime => ts, ttl => ttl, super_column => sc);
    INSERT INTO model_ops (cf, key, sc, name, kind, value, ts, ttl) VALUES ('Sup', k, sc, sub, 'ins', v, ts, ttl);
  ELSIF r < 0.78 THEN
    PERFORM cfstore.remove('Model', 'Sup', k, sub, super_column => sc, writetime => ts);
    INSERT INTO model_ops (cf, key, sc, name, kind, ts) VALUES ('Sup', k, sc, sub, 'del', ts);
  ELSIF r < 0.81 THEN
    ts := floor(random() * 20);
    PERFORM cfstore.remove('Model', 'Sup', k, super_column => sc, writetime => ts);
    INSERT INTO model_ops (cf, key, sc, kind, ts) VALUES ('Sup', k, sc, 'scdel', ts);
  ELSIF r < 0.813 THEN
    ts := floor(random() * 12);
    PERFORM cfstore.remove('Model', 'Sup', k, writetime => ts);
    INSERT INTO model_ops (cf, key, kind, ts) VALUES ('Sup', k, 'rowdel', ts);
  ELSIF r < 0.87 THEN
    n := 'n' || floor(random() * 8)::int;
    PERFORM cfstore.add('Model', 'Cnt', k, n, d);
    INSERT INTO model_ops (cf, key, name, kind, value) VALUES ('Cnt', k, n, 'add', d);
  ELSIF r < 0.88 THEN
    n := 'n' || floor(random() * 8)::int;
    PERFORM cfstore.remove_counter('Model', 'Cnt', k, n);
    INSERT INTO model_ops (cf, key, name, kind) VALUES ('Cnt', k, n, 'cdel');
  ELSIF r < 0.881 THEN
    PERFORM cfstore.remove_counter('Model', 'Cnt', k);
    INSERT INTO model_ops (cf, key, kind) VALUES ('Cnt', k, 'crowdel');
  -- counters in super columns
  ELSIF r < 0.92 THEN
    n := 'n' || floor(random() * 4)::int;
    PERFORM cfstore.add('Model', 'SCnt', k, n, d, super_column => sc);
    INSERT INTO model_ops (cf, key, sc, name, kind, value) VALUES ('SCnt', k, sc, n, 'add', d);
  ELSIF r < 0.927 THEN
    n := 'n' || floor(random() * 4)::int;
    PERFORM cfstore.remove_counter('Model', 'SCnt', k, n, super_column => sc);
    INSERT INTO model_ops (cf, key, sc, name, kind) VALUES ('SCnt', k, sc, n, 'cdel');
  ELSIF r < 0.931 THEN
    PERFORM cfstore.remove_counter('Model', 'SCnt', k, super_column => sc);
    INSERT INTO model_ops (cf, key, sc, kind) VALUES ('SCnt', k, sc, 'cscdel');
  ELSIF r < 0.932 THEN
    PERFORM cfstore.remove_counter('Model', 'SCnt', k);
    INSERT INTO model_ops (cf, key, kind) VALUES ('SCnt', k, 'crowdel');
  ELSE
    -- a batch on one row: a column, a deletion by name, and sometimes the
    -- row's deletion too, in any order (timestamps decide)
    ts := floor(random() * 12);
    m := jsonb_build_array(
           jsonb_build_object('column', jsonb_strip_nulls(jsonb_build_object('name', n, 'value', v,
                                'timestamp', floor(random() * 25)::bigint, 'ttl', ttl))),
           jsonb_build_object('deletion', jsonb_build_object('timestamp', floor(random() * 25)::bigint,
                                'predicate', jsonb_build_object('column_names',
                                   jsonb_build_array('c' || lpad(floor(random() * 100)::int::text, 3, '0'))))));
    IF random() < 0.05 THEN
      m := jsonb_build_array(jsonb_build_object('deletion', jsonb_build_object('timestamp', ts))) || m;
    END IF;
    -- and sometimes a range of names, placed first: a range tombstone,
    -- which also hides what is written into the range later with an older
    -- timestamp (README.md "Reading and writing")
    rlo := 'c' || lpad((50 + floor(random() * 40))::int::text, 3, '0');
    rhi := 'c' || lpad((substr(rlo, 2)::int + 10)::text, 3, '0');
    rts := floor(random() * 25);
    IF random() < 0.3 THEN
      m := jsonb_build_array(jsonb_build_object('deletion', jsonb_build_object('timestamp', rts,
             'predicate', jsonb_build_object('slice_range', jsonb_build_object('start', rlo, 'finish', rhi))))) || m;
    END IF;
    PERFORM cfstore.batch_mutate('Model', jsonb_build_object(k, jsonb_build_object('Std', m)));
    INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl)
      SELECT 'Std', k, e -> 'column' ->> 'name', 'ins', e -> 'column' ->> 'value',
             (e -> 'column' ->> 'timestamp')::bigint, (e -> 'column' ->> 'ttl')::integer
        FROM jsonb_array_elements(m) e WHERE e ? 'column'
      UNION ALL
      SELECT 'Std', k, e -> 'deletion' -> 'predicate' -> 'column_names' ->> 0,
             CASE WHEN e -> 'deletion' ? 'predicate' THEN 'del' ELSE 'rowdel' END, NULL,
             (e -> 'deletion' ->> 'timestamp')::bigint, NULL
        FROM jsonb_array_elements(m) e
       WHERE e ? 'deletion' AND NOT coalesce(e -> 'deletion' -> 'predicate' ? 'slice_range', false);
    IF m @> jsonb_build_array(jsonb_build_object('deletion', jsonb_build_object('timestamp', rts,
             'predicate', jsonb_build_object('slice_range', jsonb_build_object('start', rlo, 'finish', rhi))))) THEN
      INSERT INTO model_ops (cf, key, name, value, kind, ts) VALUES ('Std', k, rlo, rhi, 'rangedel', rts);
    END IF;
  END IF;
END $$;

-- Each read of each row by cfstore (got) and by the model (want).
CREATE FUNCTION model_reads() RETURNS TABLE (what text, key text, got text, want text)
LANGUAGE sql AS $$
  WITH keys AS (SELECT 'r' || n AS key FROM generate_series(0, 20) n),
  live AS MATERIALIZED (SELECT * FROM model_live),
  std AS (SELECT * FROM live WHERE cf = 'Std'),
  sup AS (SELECT *, name::bigint AS sub FROM live WHERE cf = 'Sup'),
  -- the live super columns of each row, in comparator order
  scs AS (SELECT DISTINCT key, sc FROM sup)
  SELECT 'std whole', k.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Std', k.key, count => 100000) s),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name)
            FROM std m WHERE m.key = k.key)
    FROM keys k
  UNION ALL
  SELECT 'std reversed 7', k.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Std', k.key, reversed => true, count => 7) s),
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.name AS n
               FROM std m WHERE m.key = k.key ORDER BY m.name DESC LIMIT 7) x)
    FROM keys k
  UNION ALL
  SELECT 'std from c050x, 25', k.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Std', k.key, start => 'c050x', count => 25) s),
         (SELECT string_agg(l, ' ' ORDER BY n) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.name AS n
               FROM std m WHERE m.key = k.key AND m.name >= 'c050x' ORDER BY m.name LIMIT 25) x)
    FROM keys k
  UNION ALL
  SELECT 'std c070x down to c030', k.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Std', k.key, start => 'c070x', finish => 'c030',
                                   reversed => true, count => 1000) s),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name DESC)
            FROM std m WHERE m.key = k.key AND m.name BETWEEN 'c030' AND 'c070x')
    FROM keys k
  UNION ALL
  -- named columns: the live ones, in comparator order, duplicates once
  SELECT 'std get_columns', k.key,
         (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_columns('Model', 'Std', k.key, ARRAY['c077', 'c012', 'c050x', 'c012', 'c099', 'c000']) s),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name)
            FROM std m WHERE m.key = k.key AND m.name IN ('c077', 'c012', 'c050x', 'c099', 'c000'))
    FROM keys k
  UNION ALL
  SELECT 'sup get_columns', k.key,
         (SELECT string_agg(model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_columns('Model', 'Sup', k.key, ARRAY['s6', 's1', 's1x', 's6']) s),
         (SELECT string_agg(model_line(m.sc, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.sc, m.sub)
            FROM sup m WHERE m.key = k.key AND m.sc IN ('s6', 's1', 's1x'))
    FROM keys k
  UNION ALL
  SELECT 'std counts', k.key,
         cfstore.get_count('Model', 'Std', k.key) || ' '
           || cfstore.get_count('Model', 'Std', k.key, start => 'c030', finish => 'c069', count => 10),
         (SELECT count(*) FROM std m WHERE m.key = k.key) || ' '
           || (SELECT least(count(*), 10) FROM std m WHERE m.key = k.key AND m.name BETWEEN 'c030' AND 'c069')
    FROM keys k
  UNION ALL
  SELECT 'std multiget reversed 3', m.key, m.got,
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(NULL, s.name, s.value, s.ts, s.ttl) AS l, s.name AS n
               FROM std s WHERE s.key = m.key ORDER BY s.name DESC LIMIT 3) x)
    FROM (SELECT g.key, string_agg(model_line(NULL, g.column_name, g.value, g.writetime, g.ttl), ' ' ORDER BY g.n) AS got
            FROM (SELECT s.*, row_number() OVER () AS n
                    FROM cfstore.multiget_slice('Model', 'Std', ARRAY(SELECT key FROM keys),
                                                reversed => true, count => 3) s) g
           GROUP BY g.key) m
  UNION ALL
  SELECT 'std foreign table', k.key,
         (SELECT string_agg(model_line(NULL, f.column_name, f.value, f.writetime, f.ttl), ' ' ORDER BY f.column_name)
            FROM model_std f WHERE f.key = k.key),
         (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name)
            FROM std m WHERE m.key = k.key)
    FROM keys k
  UNION ALL
  SELECT 'std foreign table, last 5 below c080', k.key,
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(NULL, f.column_name, f.value, f.writetime, f.ttl) AS l, f.column_name AS n
               FROM model_std f WHERE f.key = k.key AND f.column_name < 'c080'
              ORDER BY f.column_name DESC LIMIT 5) x),
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.name AS n
               FROM std m WHERE m.key = k.key AND m.name < 'c080' ORDER BY m.name DESC LIMIT 5) x)
    FROM keys k
  UNION ALL
  SELECT 'sup whole', k.key,
         (SELECT string_agg(model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Sup', k.key, count => 100000) s),
         (SELECT string_agg(model_line(m.sc, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.sc, m.sub)
            FROM sup m WHERE m.key = k.key)
    FROM keys k
  UNION ALL
  -- count counts super columns; each comes with all its subcolumns, in
  -- ascending order even when reversed
  SELECT 'sup reversed 3 super columns', k.key,
         (SELECT string_agg(model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Sup', k.key, reversed => true, count => 3) s),
         (SELECT string_agg(model_line(m.sc, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.sc DESC, m.sub)
            FROM sup m WHERE m.key = k.key
             AND m.sc IN (SELECT c.sc FROM scs c WHERE c.key = k.key ORDER BY c.sc DESC LIMIT 3))
    FROM keys k
  UNION ALL
  SELECT 'sup s2 to s5x, 2 super columns', k.key,
         (SELECT string_agg(model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Sup', k.key, start => 's2', finish => 's5x', count => 2) s),
         (SELECT string_agg(model_line(m.sc, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.sc, m.sub)
            FROM sup m WHERE m.key = k.key
             AND m.sc IN (SELECT c.sc FROM scs c WHERE c.key = k.key AND c.sc BETWEEN 's2' AND 's5x'
                           ORDER BY c.sc LIMIT 2))
    FROM keys k
  UNION ALL
  SELECT 'sup s5 whole', k.key,
         (SELECT string_agg(model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Sup', k.key, count => 100000, super_column => 's5') s),
         (SELECT string_agg(model_line(m.sc, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.sub)
            FROM sup m WHERE m.key = k.key AND m.sc = 's5')
    FROM keys k
  UNION ALL
  SELECT 'sup s5 from 3 down, 4', k.key,
         (SELECT string_agg(model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_slice('Model', 'Sup', k.key, start => 3, reversed => true, count => 4,
                                   super_column => 's5') s),
         (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
            (SELECT model_line(m.sc, m.name, m.value, m.ts, m.ttl) AS l, m.sub AS n
               FROM sup m WHERE m.key = k.key AND m.sc = 's5' AND m.sub <= 3 ORDER BY m.sub DESC LIMIT 4) x)
    FROM keys k
  UNION ALL
  SELECT 'sup counts', k.key,
         cfstore.get_count('Model', 'Sup', k.key) || ' '
           || cfstore.get_count('Model', 'Sup', k.key, super_column => 's5'),
         (SELECT count(*) FROM scs c WHERE c.key = k.key) || ' '
           || (SELECT count(*) FROM sup m WHERE m.key = k.key AND m.sc = 's5')
    FROM keys k
  UNION ALL
  SELECT 'cnt whole', k.key,
         (SELECT string_agg(s.column_name || '=' || s.value, ' ')
            FROM cfstore.get_slice('Model', 'Cnt', k.key) s),
         (SELECT string_agg(c.name || '=' || c.total, ' ' ORDER BY c.name)
            FROM model_counters c WHERE c.cf = 'Cnt' AND c.key = k.key)
    FROM keys k
  UNION ALL
  SELECT 'cnt count', k.key, cfstore.get_count('Model', 'Cnt', k.key)::text,
         (SELECT count(*) FROM model_counters c WHERE c.cf = 'Cnt' AND c.key = k.key)::text
    FROM keys k
  UNION ALL
  SELECT 'scnt whole', k.key,
         (SELECT string_agg(s.super_column || ':' || s.column_name || '=' || s.value, ' ')
            FROM cfstore.get_slice('Model', 'SCnt', k.key) s),
         (SELECT string_agg(c.sc || ':' || c.name || '=' || c.total, ' ' ORDER BY c.sc, c.name)
            FROM model_counters c WHERE c.cf = 'SCnt' AND c.key = k.key)
    FROM keys k
  UNION ALL
  SELECT 'scnt s3, reversed', k.key,
         (SELECT string_agg(s.column_name || '=' || s.value, ' ')
            FROM cfstore.get_slice('Model', 'SCnt', k.key, reversed => true, super_column => 's3') s),
         (SELECT string_agg(c.name || '=' || c.total, ' ' ORDER BY c.name DESC)
            FROM model_counters c WHERE c.cf = 'SCnt' AND c.key = k.key AND c.sc = 's3')
    FROM keys k
  UNION ALL
  SELECT 'scnt count', k.key, cfstore.get_count('Model', 'SCnt', k.key)::text,
         (SELECT count(DISTINCT c.sc) FROM model_counters c WHERE c.cf = 'SCnt' AND c.key = k.key)::text
    FROM keys k
  UNION ALL
  -- rows in byte order from a start key that is not a row; a row with
  -- nothing live in the column range neither appears nor counts
  SELECT 'std range from r15x, 5 rows, 4 columns from c040', '*',
         (SELECT string_agg(s.key || '/' || model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_range_slices('Model', 'Std', start_key => 'r15x', key_count => 5,
                                          start => 'c040', count => 4) s),
         (SELECT string_agg(l, ' ' ORDER BY k, n) FROM
            (SELECT m.key AS k, m.name AS n, m.key || '/' || model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l,
                    row_number() OVER (PARTITION BY m.key ORDER BY m.name) AS c
               FROM std m
              WHERE m.name >= 'c040'
                AND m.key IN (SELECT DISTINCT r.key FROM std r WHERE r.key >= 'r15x' AND r.name >= 'c040'
                               ORDER BY r.key LIMIT 5)) x
           WHERE c <= 4)
  UNION ALL
  SELECT 'sup range from r3 to r8, 2 super columns each', '*',
         (SELECT string_agg(s.key || '/' || model_line(s.super_column, s.column_name, s.value, s.writetime, s.ttl), ' ')
            FROM cfstore.get_range_slices('Model', 'Sup', start_key => 'r3', end_key => 'r8', key_count => 100,
                                          count => 2) s),
         (SELECT string_agg(m.key || '/' || model_line(m.sc, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.key, m.sc, m.sub)
            FROM sup m
           WHERE m.key BETWEEN 'r3' AND 'r8'
             AND m.sc IN (SELECT c.sc FROM scs c WHERE c.key = m.key ORDER BY c.sc LIMIT 2))
  UNION ALL
  SELECT 'std multiget_count from c050', m.key, m.count::text,
         (SELECT count(*) FROM std s WHERE s.key = m.key AND s.name >= 'c050')::text
    FROM cfstore.multiget_count('Model', 'Std', ARRAY(SELECT key FROM keys), start => 'c050') m
$$;

-- the model itself has something to say: rows of live cells spanning pages,
-- every kind of write, every rule met
SELECT setseed(0.17);
SELECT model_round('model_op', 1, 6000) > 5000 AS recorded;
SELECT pg_sleep(2.1);
SELECT leaf_pages > 20 AS rows_span_pages FROM cfstore.stats('Model', 'Std');
SELECT kind, count(*) >= 10 AS ten_or_more FROM model_ops GROUP BY kind ORDER BY kind;
SELECT (SELECT count(*) FROM model_live WHERE cf = 'Std') > 800 AS std_live,
       (SELECT count(*) FROM model_live WHERE cf = 'Sup') > 400 AS sup_live,
       (SELECT count(*) FROM model_counters) > 80 AS counters,
       (SELECT count(*) FROM model_live WHERE ttl = 100000) > 50 AS live_ttl_cells,
       (SELECT count(*) FROM model_live WHERE octet_length(value) > 2000) > 20 AS live_long_values,
       -- same column, same timestamp: a tombstone wins, or the bigger value
       (SELECT count(*) FROM (SELECT 1 FROM model_ops WHERE kind IN ('ins', 'del') GROUP BY cf, key, sc, name, ts
                               HAVING count(*) FILTER (WHERE kind = 'del') > 0
                                  AND count(*) FILTER (WHERE kind = 'ins') > 0) t) > 20 AS tombstone_ties,
       (SELECT count(*) FROM (SELECT 1 FROM model_ops WHERE kind = 'ins' GROUP BY cf, key, sc, name, ts
                               HAVING count(*) > 1) t) > 20 AS value_ties;

-- round 1: as written, then after VACUUM
SELECT * FROM model_check('model_reads');
SELECT autovacuum_quiet();
VACUUM :std_rel, :sup_rel, :cnt_rel, :scnt_rel;
SELECT * FROM model_check('model_reads');
SELECT cfstore.verify('Model', 'Std'), cfstore.verify('Model', 'Sup'), cfstore.verify('Model', 'Cnt'),
       cfstore.verify('Model', 'SCnt');

-- round 2: more writes into compacted rows
SELECT model_round('model_op', 6001, 6000) > 10000 AS recorded;
SELECT pg_sleep(2.1);
SELECT * FROM model_check('model_reads');
SELECT autovacuum_quiet();
VACUUM :std_rel, :sup_rel, :cnt_rel, :scnt_rel;
SELECT * FROM model_check('model_reads');
SELECT cfstore.verify('Model', 'Std'), cfstore.verify('Model', 'Sup'), cfstore.verify('Model', 'Cnt'),
       cfstore.verify('Model', 'SCnt');

-- round 3: and again, then VACUUM FREEZE
SELECT model_round('model_op', 12001, 6000) > 15000 AS recorded;
SELECT pg_sleep(2.1);
SELECT * FROM model_check('model_reads');
SELECT autovacuum_quiet();
VACUUM (FREEZE) :std_rel, :sup_rel, :cnt_rel, :scnt_rel;
SELECT * FROM model_check('model_reads');
SELECT cfstore.verify('Model', 'Std'), cfstore.verify('Model', 'Sup'), cfstore.verify('Model', 'Cnt'),
       cfstore.verify('Model', 'SCnt');

DROP FOREIGN TABLE model_std;
DROP FUNCTION model_check(text), model_reads(), model_line(text, text, text, bigint, integer),
  model_round(text, integer, integer), model_op(integer), model_ttl(), model_value(integer);
DROP VIEW model_live, model_counters;
DROP FUNCTION model_signed(bytea);
DROP TABLE model_ops;
DROP FUNCTION autovacuum_quiet();
SELECT cfstore.drop_keyspace('Model');
