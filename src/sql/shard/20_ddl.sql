-- ---------------------------------------------------------------------------
-- DDL on every shard, with the coordinator's transaction.
--
-- cfstore's DDL functions, run on the coordinator for a sharded keyspace,
-- hand the same call to _apply once their own change is made.  _apply runs
-- the statements on every shard server inside the coordinator's
-- transaction (src/shard/cfshard_xact.c): they commit there when it
-- commits, in one two-phase commit when there are several servers, and are
-- rolled back everywhere when it aborts.  A shard that cannot be reached,
-- or whose statement fails, makes the call fail with an error naming it.
-- Shard servers need max_prepared_transactions > 0.
-- ---------------------------------------------------------------------------

-- Run statements on every shard server, in the current transaction.
CREATE FUNCTION cfstore_shard._apply(statements text[]) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_shard_apply' LANGUAGE C VOLATILE STRICT;

-- Raise if the current transaction has read or written column family
-- column_family (NULL: any of keyspace's) through the coordinator's table,
-- whose postgres_fdw transaction on the shards holds a lock on it that DDL
-- there would wait for (src/shard/cfshard_sql.c).
CREATE FUNCTION cfstore_shard._refuse_sql_access(keyspace text, column_family text) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_shard_refuse_sql_access' LANGUAGE C VOLATILE;

-- A call of a cfstore function as SQL text, its arguments as literals.
CREATE FUNCTION cfstore_shard._call(fn text, VARIADIC args text[]) RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT format('SELECT cfstore.%I(%s)', fn,
                (SELECT string_agg(coalesce(quote_literal(a), 'NULL'), ', ' ORDER BY i)
                   FROM unnest(args) WITH ORDINALITY AS t(a, i)))
$$;

-- The calls that create a column family on a shard as it is defined here.
CREATE FUNCTION cfstore_shard._create_column_family_call(cf cfstore.column_family) RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT ARRAY[cfstore_shard._call('create_column_family', cf.keyspace, cf.name, cf.column_type, cf.comparator,
           cf.subcomparator, cf.key_validation_class, cf.default_validation_class,
           (SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                     'column_name', d ->> 'name', 'validation_class', d ->> 'validation_class',
                     'index_type', d ->> 'index_type', 'index_name', d ->> 'index_name')))
              FROM jsonb_array_elements(cfstore._cf_def(cf) -> 'column_metadata') d
             WHERE d ->> 'component_index' IS NULL)::text,
           cf.gc_grace_seconds::text, cf.default_time_to_live::text, cf.comment,
           cf.compression_options::text)
  ]
  -- a CQL3 table's names and columns
  || coalesce((
     SELECT ARRAY[ cfstore_shard._call('_cql_define', cf.keyspace, cf.name, cf.key_aliases::text,
              cf.column_aliases::text, cf.value_alias,
              (SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                        'name', convert_from(d.name, 'UTF8'), 'validation_class', d.validation_class,
                        'index_name', d.index_name)) ORDER BY d.name), '[]')
                 FROM cfstore.column_definition d
                WHERE d.column_family_id = cf.id AND d.component_index IS NOT NULL)::text)]
      WHERE cf.key_aliases IS NOT NULL OR cf.column_aliases IS NOT NULL OR cf.value_alias IS NOT NULL
         OR EXISTS (SELECT FROM cfstore.column_definition d
                     WHERE d.column_family_id = cf.id AND d.component_index IS NOT NULL)), '{}')
$$;

-- Put the coordinator's partitioned table in place of a column family's
-- foreign table (src/shard/cfshard_table.c).
-- The row key of a composite partition key's parts, in its text form: what
-- the coordinator's table of a CQL3 table whose partition key has several
-- parts is partitioned by (src/shard/cfshard_table.c).
CREATE FUNCTION cfstore_shard.row_key(key_type text, VARIADIC parts "any") RETURNS text
  AS 'MODULE_PATHNAME', 'cfstore_shard_row_key' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore_shard.row_key(text, "any") IS
  'The row key of CompositeType key_type made of these parts, in its text form (the partition key of a CQL3 table''s coordinator table)';

CREATE FUNCTION cfstore_shard._table_replace(cf_id integer) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_shard_table_replace' LANGUAGE C VOLATILE STRICT;

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
  -- on the shards the keyspace stays the cluster user's, who reads it by
  -- name for every query here: its owner there could otherwise put a view
  -- calling their function in a column family's place.  The owner reads
  -- it there only for the maps of map_reduce (cfstore._grant_reader).
  owner := (SELECT pg_catalog.pg_get_userbyid(nspowner) FROM pg_catalog.pg_namespace WHERE nspname = keyspace);
  statements := ARRAY[
    cfstore_shard._call('create_keyspace', keyspace, ks.strategy_options ->> 'replication_factor', ks.strategy_class)];
  FOR cf IN SELECT * FROM cfstore.column_family c WHERE c.keyspace = ks.name ORDER BY c.id LOOP
    statements := statements || cfstore_shard._create_column_family_call(cf)
                  || cfstore_shard._call('_grant_reader', cf.keyspace, cf.name, owner);
  END LOOP;
  PERFORM cfstore_shard._apply(statements);
  UPDATE cfstore.keyspace k SET placement = 'shards' WHERE k.name = keyspace;
  FOR cf IN SELECT * FROM cfstore.column_family c WHERE c.keyspace = ks.name ORDER BY c.id LOOP
    PERFORM cfstore_shard._table_replace(cf.id);
  END LOOP;
END $$;
COMMENT ON FUNCTION cfstore_shard.shard_keyspace(text) IS
  'Spread an empty keyspace over the cluster''s shards: it and its column families are created on each, and its reads and writes, and later DDL, go there';
