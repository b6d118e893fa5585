-- ---------------------------------------------------------------------------
-- The shards' part of the coordinator's transactions (src/shard/cfshard_xact.c).
--
-- A transaction that changed several shard servers commits there in two
-- phases: each server prepares it (gid cfstore_shard_<system identifier of
-- the coordinator>_<its transaction id>_<server>), the coordinator commits,
-- then each server commits its prepared transaction.  A server lost between
-- the two keeps its transaction prepared: recover() finishes such
-- transactions as the coordinator decided, committing those whose
-- coordinator transaction committed and rolling back those whose did not.
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore_shard.recover(OUT server text, OUT gid text, OUT action text)
RETURNS SETOF record
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  dl text := cfstore_shard._dblink();
  prefix text := format('cfstore_shard_%s_', (SELECT system_identifier FROM pg_catalog.pg_control_system()));
  s cfstore_shard.server;
  g text;
  status text;
BEGIN
  FOR s IN SELECT * FROM cfstore_shard.server ORDER BY name LOOP
    server := s.name;
    BEGIN
      -- only what this coordinator prepared there: the cluster's user's
      -- transactions whose gid has the exact form make_gid gives
      -- (src/shard/cfshard_xact.c), so that another role's PREPARE TRANSACTION
      -- under a look-alike gid is neither finished nor in the way
      FOR g IN EXECUTE format('SELECT t.gid FROM %s.dblink($1, $2) AS t(gid text)', dl)
          USING cfstore_shard._conninfo(s),
                format('SELECT gid FROM pg_catalog.pg_prepared_xacts WHERE owner = current_user '
                       'AND gid ~ %L ORDER BY gid', '^' || prefix || '[1-9][0-9]{0,19}_' || s.name || '$')
      LOOP
        gid := g;
        BEGIN
          status := pg_catalog.pg_xact_status(split_part(substr(g, length(prefix) + 1), '_', 1)::xid8);
          IF status = 'committed' THEN
            EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING cfstore_shard._conninfo(s), format('COMMIT PREPARED %L', g);
            action := 'committed';
          ELSIF status = 'aborted' THEN
            EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING cfstore_shard._conninfo(s), format('ROLLBACK PREPARED %L', g);
            action := 'rolled back';
          ELSIF status = 'in progress' THEN
            action := 'left alone: its transaction is still running here';
          ELSE
            action := 'left alone: its transaction is too old to be known here';
          END IF;
        EXCEPTION WHEN OTHERS THEN
          -- one gid that cannot be finished does not keep the others of the server
          action := 'left alone: ' || SQLERRM;
        END;
        RETURN NEXT;
      END LOOP;
    EXCEPTION WHEN OTHERS THEN
      gid := NULL;
      action := 'not reached: ' || SQLERRM;
      RETURN NEXT;
    END;
  END LOOP;
END $$;
COMMENT ON FUNCTION cfstore_shard.recover() IS
  'Finish the transactions the shard servers keep prepared for this coordinator, as it decided: commit those it committed, roll back the others';

-- For tests: lose a server just before committing its prepared transaction.
CREATE FUNCTION cfstore_shard._lose_before_commit(server text) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_shard_lose_before_commit' LANGUAGE C VOLATILE STRICT;
