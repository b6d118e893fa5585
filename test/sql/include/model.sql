-- Included by the tests that compare cfstore's reads with a model of
-- Cassandra's rules (doc/semantics.md §4 to §7) derived in SQL from a
-- plain table of the writes alone: storage_model (random writes in one
-- session) and TAP 010 (the same from several sessions at once).

-- What was written: kind is ins, del (a column or subcolumn), scdel, rowdel,
-- rangedel (the columns of a row from name to value, both included: a range
-- tombstone), add, or cdel, cscdel and crowdel (a counter column, super
-- column or row removed).  A TTL of 1
-- stands for a cell that has expired when the model is read (the tests wait
-- 2 s first); any other TTL for one that has not.  vbytes: the value's
-- bytes where they are not its UTF-8 text (a LongType value's eight).
CREATE TABLE model_ops (seq bigserial, cf text, key text COLLATE "C", sc text COLLATE "C",
                        name text COLLATE "C", kind text, value text, ts bigint, ttl integer,
                        vbytes bytea);

-- A value's bytes reordered so that bytea order is Cassandra's signed byte
-- order (§4: ByteBuffer.compareTo), which decides a tie between live values.
CREATE FUNCTION model_signed(b bytea) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(string_agg(set_byte('\x00'::bytea, 0, get_byte(b, i) # 128), ''::bytea ORDER BY i), ''::bytea)
    FROM generate_series(0, length(b) - 1) i
$$;

-- The model's live cells (sc is NULL outside Super column families): per
-- column the winning version (§4), kept if it is live and above every
-- tombstone of its row and super column and every range tombstone whose
-- range holds its name (§5, §6).
CREATE VIEW model_live AS
  WITH v AS (
    SELECT cf, key, sc, name, ts, value, ttl, kind = 'del' OR coalesce(ttl = 1, false) AS dead,
           coalesce(vbytes, convert_to(value, 'UTF8')) AS bytes,
           max(ts) OVER (PARTITION BY cf, key, sc, name) AS top
      FROM model_ops WHERE kind IN ('ins', 'del')),
  w AS (
    SELECT DISTINCT ON (cf, key, sc, name) *
      FROM v WHERE ts = top ORDER BY cf, key, sc, name, dead DESC, model_signed(bytes) DESC),
  rowdel AS (SELECT cf, key, max(ts) AS ts FROM model_ops WHERE kind = 'rowdel' GROUP BY cf, key),
  scdel AS (SELECT cf, key, sc, max(ts) AS ts FROM model_ops WHERE kind = 'scdel' GROUP BY cf, key, sc)
  SELECT w.cf, w.key, w.sc, w.name, w.value, w.ts, w.ttl
    FROM w
    LEFT JOIN rowdel r ON r.cf = w.cf AND r.key = w.key
    LEFT JOIN scdel d ON d.cf = w.cf AND d.key = w.key AND d.sc = w.sc
   WHERE NOT w.dead AND w.ts > coalesce(r.ts, -1) AND w.ts > coalesce(d.ts, -1)
     AND NOT EXISTS (SELECT FROM model_ops g
                      WHERE g.kind = 'rangedel' AND g.cf = w.cf AND g.key = w.key AND w.sc IS NULL
                        AND w.name BETWEEN g.name AND g.value AND g.ts >= w.ts);

-- The model's counters (§7): the sum of the increments after the last
-- removal of the column, its super column or its row (in one session, the
-- order of the writes is the order of their server timestamps).
CREATE VIEW model_counters AS
  WITH o AS (
    SELECT cf, key, sc, name, kind, seq, value,
           max(seq) FILTER (WHERE kind = 'cdel') OVER (PARTITION BY cf, key, sc, name) AS cdel,
           max(seq) FILTER (WHERE kind = 'cscdel') OVER (PARTITION BY cf, key, sc) AS cscdel,
           max(seq) FILTER (WHERE kind = 'crowdel') OVER (PARTITION BY cf, key) AS crowdel
      FROM model_ops WHERE kind IN ('add', 'cdel', 'cscdel', 'crowdel'))
  SELECT cf, key, sc, name, sum(value::bigint) AS total
    FROM o
   WHERE kind = 'add' AND seq > greatest(coalesce(cdel, 0), coalesce(cscdel, 0), coalesce(crowdel, 0))
   GROUP BY cf, key, sc, name;

-- n writes by op(i) for i from first on (op writes into cfstore and
-- records in model_ops); one in ten inside a subtransaction, half of those
-- rolled back, the record with the write.  Returns the records' count.
CREATE FUNCTION model_round(op text, first integer, n integer) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN first .. first + n - 1 LOOP
    IF random() < 0.1 THEN
      BEGIN
        EXECUTE format('SELECT %I($1)', op) USING i;
        IF random() < 0.5 THEN
          RAISE EXCEPTION 'rolled back';
        END IF;
      EXCEPTION WHEN raise_exception THEN NULL;
      END;
    ELSE
      EXECUTE format('SELECT %I($1)', op) USING i;
    END IF;
  END LOOP;
  RETURN (SELECT count(*) FROM model_ops);
END $$;

-- A cell as one line of text, the same for the model and for cfstore.
CREATE FUNCTION model_line(sc text, name text, value text, ts bigint, ttl integer) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(sc || ':', '') || name || '=' || value || coalesce('@' || ts, '') || coalesce('/' || ttl, '')
$$;


-- Compare the reads a function returns as (what, key, got, want): how many,
-- how many differ, and for the first three that differ the cells only one
-- side has (or, if they have the same cells, both in their order).
CREATE FUNCTION model_check(reads_function text, OUT reads bigint, OUT differ bigint,
                            OUT first_differences text)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH r AS (SELECT what, key, got, want FROM %I())
    SELECT count(*), count(*) FILTER (WHERE got IS DISTINCT FROM want),
           (SELECT string_agg(CASE WHEN only_got = '' AND only_want = ''
                                   THEN format(E'%%s %%s: the same cells in another order\n  got  %%s\n  want %%s',
                                               what, key, left(got, 400), left(want, 400))
                                   ELSE format(E'%%s %%s\n  only cfstore: %%s\n  only model:   %%s',
                                               what, key, left(only_got, 400), left(only_want, 400)) END, E'\n')
              FROM (SELECT *,
                           array_to_string(ARRAY(SELECT unnest(string_to_array(got, ' '))
                                                 EXCEPT ALL SELECT unnest(string_to_array(want, ' '))), ' ') AS only_got,
                           array_to_string(ARRAY(SELECT unnest(string_to_array(want, ' '))
                                                 EXCEPT ALL SELECT unnest(string_to_array(got, ' '))), ' ') AS only_want
                      FROM r WHERE got IS DISTINCT FROM want ORDER BY what, key LIMIT 3) d)
      FROM r$q$, reads_function)
    INTO reads, differ, first_differences;
END $$;
