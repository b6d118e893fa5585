-- SQL helpers of the bench scripts (bench/lib.sh loads them with load_sql_helpers).

-- Blocks fetched (hits + reads) so far in this transaction from relations,
-- their TOAST tables and all their indexes (see bench/timeline.sh).
CREATE FUNCTION bench_rel_blocks(rels regclass[]) RETURNS bigint LANGUAGE sql AS $$
  SELECT coalesce(sum(pg_stat_get_xact_blocks_fetched(r)), 0)::bigint FROM (
    SELECT rel::oid AS r FROM unnest(rels) rel
    UNION ALL SELECT c.reltoastrelid FROM pg_class c WHERE c.oid = ANY (rels) AND c.reltoastrelid <> 0
    UNION ALL SELECT i.indexrelid FROM pg_index i WHERE i.indrelid = ANY (rels)
    UNION ALL SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON i.indrelid = c.reltoastrelid
               WHERE c.oid = ANY (rels)) s
$$;

-- Shared buffers each statement of stmts touches, after two runs of warm
-- (catalog caches, cfstore's cached metapages, plans), inside one statement.
CREATE FUNCTION bench_buffers(rels regclass[], warm text, stmts text[]) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE b0 bigint; b1 bigint; s text; r bigint[] := '{}'; n bigint;
BEGIN
  EXECUTE warm INTO n;
  EXECUTE warm INTO n;
  FOREACH s IN ARRAY stmts LOOP
    b0 := bench_rel_blocks(rels);
    EXECUTE s INTO n;
    b1 := bench_rel_blocks(rels);
    r := r || (b1 - b0);
  END LOOP;
  RETURN r;
END $$;

CREATE FUNCTION bench_plan_shape(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE j jsonb;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || stmt INTO j;
  RETURN (WITH RECURSIVE n(plan, depth) AS (
            SELECT j->0->'Plan', 0
            UNION ALL
            SELECT c, n.depth + 1 FROM n, jsonb_array_elements(n.plan->'Plans') c)
          SELECT string_agg(concat(plan->>'Node Type', ' (' || (plan->>'Custom Plan Provider') || ')',
                                   ' ' || (plan->>'Scan Direction'),
                                   ' on ' || (plan->>'Relation Name'), ' using ' || (plan->>'Index Name'),
                                   ' ' || (plan->>'Function Name')), ' > ' ORDER BY depth)
            FROM n);
END $$;

-- Shared blocks a run of stmt read from outside shared buffers (EXPLAIN
-- ANALYZE with BUFFERS, timing off: the whole statement runs).
CREATE FUNCTION bench_reads(stmt text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE j jsonb;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || stmt INTO j;
  RETURN (j->0->'Plan'->>'Shared Read Blocks')::bigint;
END $$;

CREATE FUNCTION bench_time(stmt text, OUT seconds float8, OUT n bigint, OUT checksum bigint)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz;
BEGIN
  t0 := clock_timestamp();
  EXECUTE stmt INTO n, checksum;
  seconds := extract(epoch FROM clock_timestamp() - t0);
END $$;

