-- ---------------------------------------------------------------------------
-- map_reduce: MongoDB's mapReduce over a sharded column family.
--
-- Every shard maps its own rows and reduces what they emit, at once
-- (cfstore._map_local on the shards, src/api/cfmapreduce.c, reached by
-- PL/Proxy with SPLIT so each server runs once); the coordinator reduces
-- the per-shard results again, so only one row per key and shard crosses
-- the network.  The output goes into a column family (MongoDB's out:
-- replaced, one row per key with a column named value) or comes back in
-- the report (inline).  The report has MongoDB's shape: shardCounts,
-- counts, timing.
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore_shard._map_all(p_parts integer[], p_keyspace text, p_column_family text,
    p_map text, p_reduce text, p_run_as name)
RETURNS TABLE (part integer, key text, value text, value_type text, input bigint, emit bigint,
               output bigint, millis double precision) AS $$
  CLUSTER 'cfstore_shard';
  SPLIT p_parts;
  RUN ON p_parts;
  SELECT * FROM cfstore._map_local(p_parts, p_keyspace, p_column_family, p_map, p_reduce, p_run_as);
$$ LANGUAGE plproxy;

-- The map phase on every shard (src/shard/cfshard_mapreduce.c).
CREATE FUNCTION cfstore_shard._map_shards(keyspace text, column_family text, map text, reduce text)
RETURNS TABLE (server text, key text, value text, value_type text, input bigint, emit bigint,
               output bigint, millis double precision)
  AS 'MODULE_PATHNAME', 'cfstore_shard_map_shards' LANGUAGE C VOLATILE STRICT;

CREATE FUNCTION cfstore_shard.map_reduce(keyspace text, column_family text, map text, reduce text,
                                         out_column_family text DEFAULT NULL)
RETURNS jsonb LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  started timestamptz := clock_timestamp();
  mapped timestamptz;
  keys text[];
  vals text[];
  value_type text;
  shard_counts jsonb;
  received integer;
  results jsonb;
  n_out bigint;
  r record;
BEGIN
  IF out_column_family IS NOT NULL AND NOT EXISTS (
       SELECT FROM cfstore.column_family c WHERE c.keyspace = map_reduce.keyspace AND c.name = out_column_family) THEN
    RAISE EXCEPTION USING ERRCODE = '42P01', MESSAGE = format('unconfigured columnfamily %s', out_column_family),
      HINT = 'Create the output column family first; map_reduce replaces its rows.';
  END IF;
  -- the map and the shards' reduce, on every shard at once
  WITH m AS MATERIALIZED (SELECT * FROM cfstore_shard._map_shards(keyspace, column_family, map, reduce))
  SELECT (SELECT jsonb_object_agg(s.server, jsonb_build_object('input', s.input, 'emit', s.emit,
                    'output', s.output, 'millis', round(s.millis::numeric, 1)) ORDER BY s.server)
            FROM m s WHERE s.key IS NULL),
         (SELECT count(*) FROM m WHERE m.key IS NOT NULL),
         ARRAY(SELECT m.key FROM m WHERE m.key IS NOT NULL ORDER BY m.server, m.key),
         ARRAY(SELECT m.value FROM m WHERE m.key IS NOT NULL ORDER BY m.server, m.key),
         (SELECT min(m.value_type) FROM m WHERE m.key IS NOT NULL)
    INTO shard_counts, received, keys, vals, value_type;
  mapped := clock_timestamp();
  -- the final reduce, here, as the caller
  IF received > 0 THEN
    EXECUTE format('SELECT jsonb_agg(jsonb_build_object(''_id'', f.key, ''value'', to_jsonb(f.value)) ORDER BY f.key COLLATE "C")
                      FROM (SELECT m.key, (%s) AS value
                              FROM (SELECT u.key, u.v::%s AS value FROM unnest($1, $2) AS u(key, v)) m
                             GROUP BY m.key) f', reduce, value_type)
      INTO results USING keys, vals;
  END IF;
  results := coalesce(results, '[]');
  n_out := jsonb_array_length(results);
  IF out_column_family IS NOT NULL THEN
    PERFORM cfstore.truncate(keyspace, out_column_family);
    FOR r IN SELECT e ->> '_id' AS k, e -> 'value' AS v FROM jsonb_array_elements(results) e LOOP
      PERFORM cfstore.insert(keyspace, out_column_family, r.k, 'value',
                             CASE jsonb_typeof(r.v) WHEN 'string' THEN r.v #>> '{}' ELSE r.v::text END);
    END LOOP;
  END IF;
  RETURN jsonb_build_object(
    'result', CASE WHEN out_column_family IS NOT NULL THEN to_jsonb(out_column_family) ELSE results END,
    'shardCounts', shard_counts,
    'counts', jsonb_build_object(
       'input', (SELECT sum((v ->> 'input')::bigint) FROM jsonb_each(shard_counts) AS s(k, v)),
       'emit', (SELECT sum((v ->> 'emit')::bigint) FROM jsonb_each(shard_counts) AS s(k, v)),
       'received', received,
       'output', n_out),
    'timeMillis', round(extract(epoch FROM clock_timestamp() - started)::numeric * 1000, 1),
    'timing', jsonb_build_object(
       'shards', round(extract(epoch FROM mapped - started)::numeric * 1000, 1),
       'final', round(extract(epoch FROM clock_timestamp() - mapped)::numeric * 1000, 1)));
END $$;
COMMENT ON FUNCTION cfstore_shard.map_reduce(text, text, text, text, text) IS
  'MongoDB''s mapReduce over a sharded column family: map (a query per row over row_key and doc) and reduce (an aggregate over value) on every shard at once, reduced again here; output into a column family or inline, with per-shard counts and timing';
