-- ---------------------------------------------------------------------------
-- DDL on every shard, all or nothing.
--
-- cfstore's DDL functions, run on the coordinator for a sharded keyspace,
-- hand the same call to _apply once their own change is made.  _apply
-- opens a transaction on every shard server (dblink), runs the statements
-- there, prepares each transaction (PREPARE TRANSACTION), and only when
-- every shard has prepared commits them all.  A shard that cannot be
-- reached, or whose statement fails, makes the call fail with an error
-- naming it; the transactions prepared so far are rolled back, so no shard
-- keeps the change, and the error rolls the coordinator's back too.  The
-- shards commit before the coordinator does, so DDL on a sharded keyspace
-- is refused inside a transaction block (BEGIN ... COMMIT), where a later
-- error could roll the coordinator back alone.  Shard servers need
-- max_prepared_transactions > 0.
-- ---------------------------------------------------------------------------

-- Whether the current statement runs inside a transaction block.
CREATE FUNCTION cfstore_shard._in_transaction_block() RETURNS boolean
  AS 'MODULE_PATHNAME', 'cfstore_shard_in_transaction_block' LANGUAGE C VOLATILE;

-- Run statements on every shard server, in one two-phase commit.
CREATE FUNCTION cfstore_shard._apply(statements text[]) RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  dl text := cfstore_shard._dblink();
  gid text := format('cfstore_shard_%s_%s', txid_current(), (random() * 1e9)::bigint);
  s cfstore_shard.server;
  conn text;
  st text;
  opened text[] := '{}';
  prepared text[] := '{}';
  current_server text;
BEGIN
  IF cfstore_shard._in_transaction_block() THEN
    RAISE EXCEPTION USING ERRCODE = '25001',
      MESSAGE = 'DDL on a sharded keyspace cannot run inside a transaction block',
      HINT = 'Its shards commit before this server does; run it as a statement of its own.';
  END IF;
  BEGIN
    FOR s IN SELECT * FROM cfstore_shard.server ORDER BY name LOOP
      current_server := s.name;
      conn := 'cfstore_shard_ddl_' || s.name;
      EXECUTE format('SELECT %s.dblink_connect($1, $2)', dl) USING conn, cfstore_shard._conninfo(s);
      opened := opened || conn;
      EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING conn, 'BEGIN';
      FOREACH st IN ARRAY statements LOOP
        IF st LIKE 'SELECT %' THEN
          -- a call of a cfstore function: its one row is read and ignored
          EXECUTE format('SELECT count(*) FROM %s.dblink($1, $2) AS t(r text)', dl) USING conn, st;
        ELSE
          EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING conn, st;
        END IF;
      END LOOP;
      -- one gid per server: two shard databases may share an instance
      EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING conn, format('PREPARE TRANSACTION %L', gid || '_' || s.name);
      prepared := prepared || conn;
    END LOOP;
    current_server := NULL;
    FOREACH conn IN ARRAY prepared LOOP
      current_server := substr(conn, length('cfstore_shard_ddl_') + 1);
      EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING conn, format('COMMIT PREPARED %L', gid || '_' || current_server);
    END LOOP;
  EXCEPTION WHEN OTHERS THEN
    DECLARE
      message text := SQLERRM;
      code text := SQLSTATE;
    BEGIN
      -- undo what the shards did: roll back the prepared and the open transactions
      FOREACH conn IN ARRAY opened LOOP
        BEGIN
          IF conn = ANY (prepared) THEN
            EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl)
              USING conn, format('ROLLBACK PREPARED %L', gid || '_' || substr(conn, length('cfstore_shard_ddl_') + 1));
          ELSE
            EXECUTE format('SELECT %s.dblink_exec($1, $2)', dl) USING conn, 'ROLLBACK';
          END IF;
        EXCEPTION WHEN OTHERS THEN
          NULL;                     -- a shard that is gone keeps nothing open
        END;
        BEGIN
          EXECUTE format('SELECT %s.dblink_disconnect($1)', dl) USING conn;
        EXCEPTION WHEN OTHERS THEN
          NULL;
        END;
      END LOOP;
      IF message LIKE '%prepared transactions are disabled%' THEN
        RAISE EXCEPTION USING ERRCODE = '55000',
          MESSAGE = format('shard server %s: %s', coalesce(current_server, '?'), message),
          HINT = 'Set max_prepared_transactions above 0 on the shard servers.';
      END IF;
      RAISE EXCEPTION USING ERRCODE = CASE WHEN code LIKE '08%' THEN code ELSE 'CF002' END,
        MESSAGE = format('shard server %s: %s', coalesce(current_server, '?'), message);
    END;
  END;
  FOREACH conn IN ARRAY opened LOOP
    EXECUTE format('SELECT %s.dblink_disconnect($1)', dl) USING conn;
  END LOOP;
END $$;

-- A call of a cfstore function as SQL text, its arguments as literals.
CREATE FUNCTION cfstore_shard._call(fn text, VARIADIC args text[]) RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT format('SELECT cfstore.%I(%s)', fn,
                (SELECT string_agg(coalesce(quote_literal(a), 'NULL'), ', ' ORDER BY i)
                   FROM unnest(args) WITH ORDINALITY AS t(a, i)))
$$;

-- The calls that create a column family on a shard as it is defined here.
CREATE FUNCTION cfstore_shard._create_column_family_call(cf cfstore.column_family) RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT cfstore_shard._call('create_column_family', cf.keyspace, cf.name, cf.column_type, cf.comparator,
           cf.subcomparator, cf.key_validation_class, cf.default_validation_class,
           (SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                     'column_name', d ->> 'name', 'validation_class', d ->> 'validation_class',
                     'index_type', d ->> 'index_type', 'index_name', d ->> 'index_name')))
              FROM jsonb_array_elements(cfstore._cf_def(cf) -> 'column_metadata') d)::text,
           cf.gc_grace_seconds::text, cf.default_time_to_live::text, cf.comment)
$$;

CREATE FUNCTION cfstore_shard.shard_keyspace(keyspace text) RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ks cfstore.keyspace;
  cf cfstore.column_family;
  statements text[];
  owner text;
BEGIN
  SELECT * INTO ks FROM cfstore.keyspace k WHERE k.name = keyspace;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = '3F000', MESSAGE = format('Keyspace %s does not exist', keyspace);
  END IF;
  IF ks.placement IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = '42710', MESSAGE = format('keyspace %s is already sharded', keyspace);
  END IF;
  IF cfstore_shard.partitions() = 0 THEN
    RAISE EXCEPTION USING ERRCODE = '55000', MESSAGE = 'there is no cluster to shard keyspace ' || keyspace || ' over',
      HINT = 'Create it with cfstore_shard.add_server() and cfstore_shard.create_cluster().';
  END IF;
  FOR cf IN SELECT * FROM cfstore.column_family c WHERE c.keyspace = ks.name LOOP
    IF EXISTS (SELECT FROM cfstore.get_range_slices(cf.keyspace, cf.name, key_count => 1, count => 1)) THEN
      RAISE EXCEPTION USING ERRCODE = '55000',
        MESSAGE = format('column family %s.%s holds data', cf.keyspace, cf.name),
        HINT = 'Sharding places a keyspace on the shards; it moves no data.  Shard it while it is empty.';
    END IF;
  END LOOP;
  owner := (SELECT nspowner::regrole::text FROM pg_catalog.pg_namespace WHERE nspname = keyspace);
  statements := ARRAY[
    cfstore_shard._call('create_keyspace', keyspace, ks.strategy_options ->> 'replication_factor', ks.strategy_class),
    format('ALTER SCHEMA %I OWNER TO %s', keyspace, owner)];
  FOR cf IN SELECT * FROM cfstore.column_family c WHERE c.keyspace = ks.name ORDER BY c.id LOOP
    statements := statements || cfstore_shard._create_column_family_call(cf);
  END LOOP;
  PERFORM cfstore_shard._apply(statements);
  UPDATE cfstore.keyspace k SET placement = 'shards' WHERE k.name = keyspace;
END $$;
COMMENT ON FUNCTION cfstore_shard.shard_keyspace(text) IS
  'Spread an empty keyspace over the cluster''s shards: it and its column families are created on each, and its reads and writes, and later DDL, go there';
