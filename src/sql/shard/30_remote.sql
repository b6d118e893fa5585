-- ---------------------------------------------------------------------------
-- The remote calls of the storage of a sharded keyspace that go to every
-- shard (src/shard/cfshard.c): PL/Proxy functions over cluster
-- cfstore_shard, calling on the shards the functions of src/api/cfremote.c
-- at once.  An index slice, a scan and a key listing go to every shard.
-- The slice of one row goes to its server on the coordinator's own
-- connection there, as a statement prepared once per session (PL/Proxy
-- would plan its call here and have the shard parse it, each time), and
-- writes belong to the coordinator's transaction (src/shard/cfshard_xact.c).
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore_shard._slice_all(p_keyspace text, p_column_family text,
    p_index_name text, p_key bytea, p_super_column bytea, p_start bytea, p_finish bytea,
    p_reversed boolean, p_count bigint, p_whole_super boolean)
RETURNS SETOF bytea AS $$
  CLUSTER 'cfstore_shard';
  RUN ON ALL;
  SELECT * FROM cfstore._remote_slice($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);
$$ LANGUAGE plproxy;

CREATE FUNCTION cfstore_shard._scan_all(p_keyspace text, p_column_family text)
RETURNS SETOF bytea AS $$
  CLUSTER 'cfstore_shard';
  RUN ON ALL;
  SELECT * FROM cfstore._remote_scan($1, $2);
$$ LANGUAGE plproxy;

CREATE FUNCTION cfstore_shard._row_keys_all(p_keyspace text, p_column_family text, p_from bytea,
    p_inclusive boolean, p_max integer)
RETURNS SETOF bytea AS $$
  CLUSTER 'cfstore_shard';
  RUN ON ALL;
  SELECT * FROM cfstore._remote_row_keys($1, $2, $3, $4, $5);
$$ LANGUAGE plproxy;

-- The partition a row key belongs to (the key in its bytes).
CREATE FUNCTION cfstore_shard._partition_of(keyspace text, column_family text, key bytea) RETURNS integer
  AS 'MODULE_PATHNAME', 'cfstore_shard_partition_of' LANGUAGE C STRICT STABLE;

-- Where a row key lives.
CREATE FUNCTION cfstore_shard.locate(keyspace text, column_family text, key text,
    OUT partition integer, OUT server text)
RETURNS record LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT p.partition, p.server FROM cfstore_shard.partition p
   WHERE p.partition = cfstore_shard._partition_of(keyspace, column_family,
           cfstore.to_bytes((SELECT cf.key_validation_class FROM cfstore.column_family cf
                              WHERE cf.keyspace = locate.keyspace AND cf.name = column_family), key))
$$;
COMMENT ON FUNCTION cfstore_shard.locate(text, text, text) IS
  'The partition and shard server of a row key (in its text form) of a column family';
