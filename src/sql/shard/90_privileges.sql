-- ---------------------------------------------------------------------------
-- Who may call what: the cluster's administration (add_server, drop_server,
-- create_cluster, shard_keyspace) and every internal function are the
-- extension owner's; locate(), partitions() and row_key() are everyone's, and
-- map_reduce(), which checks its caller has the keyspace owner's privileges;
-- _conninfo() only formats a server row everyone may read.
-- ---------------------------------------------------------------------------

DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
            WHERE p.pronamespace = 'cfstore_shard'::regnamespace
              AND p.proname NOT IN ('locate', 'partitions', 'row_key', '_partition_of', '_conninfo', 'map_reduce', '_map_shards')
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP;
END $$;
