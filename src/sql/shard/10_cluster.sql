-- cfstore_shard install script.  Assembled by `make` from src/sql/shard/*.sql
-- in order; edit the parts, not the assembled cfstore_shard--<version>.sql.

\echo Use "CREATE EXTENSION cfstore_shard" to load this file. \quit

-- ---------------------------------------------------------------------------
-- The cluster: shard servers and the partitions of the key space.
--
-- Design (README.md, "Scale-out").  A coordinator database holds the
-- definitions of a sharded keyspace, and the shard servers hold its data:
-- each shard is a PostgreSQL database with cfstore where the keyspace and
-- its column families exist too.  Every row key belongs to one of a fixed,
-- power-of-two number of partitions, by the hash PostgreSQL's hash
-- partitioning gives the key's SQL type (the type of the key column of the
-- column family's foreign table), and each partition to one server.  The
-- function API on the coordinator forwards each call to the partitions it
-- concerns through PL/Proxy (cluster cfstore_shard, defined as a foreign
-- server of the plproxy wrapper); DDL on the coordinator is applied to every
-- shard in one two-phase commit through dblink; postgres_fdw servers name
-- the shards for SQL.
-- ---------------------------------------------------------------------------

CREATE TABLE cfstore_shard.server (
  name      text PRIMARY KEY,
  host      text,
  port      integer,
  dbname    text NOT NULL,
  user_name text NOT NULL,
  CONSTRAINT server_name_valid CHECK (name ~ '^[a-z0-9_]{1,40}$')
);
COMMENT ON TABLE cfstore_shard.server IS 'The shard servers of the cluster and how to reach them';

CREATE TABLE cfstore_shard.partition (
  partition integer PRIMARY KEY,
  server    text NOT NULL REFERENCES cfstore_shard.server (name),
  CONSTRAINT partition_number CHECK (partition >= 0)
);
COMMENT ON TABLE cfstore_shard.partition IS 'Which shard server holds each partition of the key space';

SELECT pg_catalog.pg_extension_config_dump('cfstore_shard.server', '');
SELECT pg_catalog.pg_extension_config_dump('cfstore_shard.partition', '');
GRANT USAGE ON SCHEMA cfstore_shard TO PUBLIC;
GRANT SELECT ON cfstore_shard.server, cfstore_shard.partition TO PUBLIC;

-- The libpq connection string of a shard server.
CREATE FUNCTION cfstore_shard._conninfo(s cfstore_shard.server) RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT concat_ws(' ',
    CASE WHEN s.host IS NOT NULL THEN format('host=%s', quote_literal(s.host)) END,
    CASE WHEN s.port IS NOT NULL THEN format('port=%s', s.port) END,
    format('dbname=%s', quote_literal(s.dbname)),
    format('user=%s', quote_literal(s.user_name)))
$$;

-- The number of partitions of the cluster (0 before create_cluster).
CREATE FUNCTION cfstore_shard.partitions() RETURNS integer
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT count(*)::integer FROM cfstore_shard.partition
$$;
COMMENT ON FUNCTION cfstore_shard.partitions() IS 'The number of partitions of the key space (0: no cluster yet)';

-- The schema dblink was installed in (it is relocatable).
CREATE FUNCTION cfstore_shard._dblink() RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT quote_ident(n.nspname) FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink'
$$;

-- Run a query on a shard server through dblink; raise naming the server
-- if it cannot be reached or the query fails.
CREATE FUNCTION cfstore_shard._remote_text(server text, query text) RETURNS text
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s cfstore_shard.server;
  result text;
BEGIN
  SELECT * INTO STRICT s FROM cfstore_shard.server sv WHERE sv.name = _remote_text.server;
  BEGIN
    EXECUTE format('SELECT r FROM %s.dblink($1, $2) AS t(r text)', cfstore_shard._dblink())
      INTO result USING cfstore_shard._conninfo(s), query;
  EXCEPTION WHEN OTHERS THEN
    RAISE EXCEPTION USING ERRCODE = 'CF001',
      MESSAGE = format('shard server %s: %s', server, SQLERRM);
  END;
  RETURN result;
END $$;

CREATE FUNCTION cfstore_shard.add_server(name text, dbname text, host text DEFAULT NULL,
                                         port integer DEFAULT NULL, user_name text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  s cfstore_shard.server;
  version text;
  here text := (SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'cfstore');
BEGIN
  IF name IS NULL OR name !~ '^[a-z0-9_]{1,40}$' THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = format('shard server name must be 1 to 40 lowercase letters, digits or underscores (got "%s")',
                       coalesce(name, ''));
  END IF;
  IF dbname IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'a shard server needs a dbname';
  END IF;
  IF EXISTS (SELECT FROM cfstore_shard.server sv WHERE sv.name = add_server.name) THEN
    RAISE EXCEPTION USING ERRCODE = '42710', MESSAGE = format('shard server %s already exists', name);
  END IF;
  IF cfstore_shard.partitions() > 0 THEN
    RAISE EXCEPTION USING ERRCODE = '0A000',
      MESSAGE = 'the cluster''s partitions are already placed: servers cannot be added to it yet';
  END IF;
  s := ROW(name, host, port, dbname, coalesce(user_name, current_user));
  IF EXISTS (SELECT FROM cfstore_shard.server sv
              WHERE sv.host IS NOT DISTINCT FROM s.host AND sv.port IS NOT DISTINCT FROM s.port
                AND sv.dbname = s.dbname) THEN
    RAISE EXCEPTION USING ERRCODE = '42710',
      MESSAGE = format('database %s at %s is already shard server %s', dbname,
                       coalesce(host, 'the default host') || coalesce(':' || port, ''),
                       (SELECT sv.name FROM cfstore_shard.server sv
                         WHERE sv.host IS NOT DISTINCT FROM s.host AND sv.port IS NOT DISTINCT FROM s.port
                           AND sv.dbname = s.dbname));
  END IF;
  INSERT INTO cfstore_shard.server VALUES (s.*);
  version := cfstore_shard._remote_text(name,
    'SELECT coalesce((SELECT extversion FROM pg_catalog.pg_extension WHERE extname = ''cfstore''), '''')');
  IF version = '' THEN
    RAISE EXCEPTION USING ERRCODE = '55000',
      MESSAGE = format('shard server %s does not have extension cfstore', name),
      HINT = 'Run CREATE EXTENSION cfstore in the shard''s database first.';
  ELSIF version <> here THEN
    RAISE EXCEPTION USING ERRCODE = '55000',
      MESSAGE = format('shard server %s has cfstore %s, this server %s', name, version, here);
  END IF;
  -- a postgres_fdw server for SQL on the shard's tables
  EXECUTE format('CREATE SERVER %I FOREIGN DATA WRAPPER postgres_fdw OPTIONS (%s)',
                 'cfstore_shard_' || name,
                 concat_ws(', ',
                   CASE WHEN host IS NOT NULL THEN format('host %L', host) END,
                   CASE WHEN port IS NOT NULL THEN format('port %L', port::text) END,
                   format('dbname %L', dbname),
                   format('extensions %L', 'cfstore'),
                   format('async_capable %L', 'true'),
                   format('use_remote_estimate %L', 'true')));
  -- the coordinator's tables reach the shard as the cluster's user, for
  -- whoever may read them here (README.md, "Scale-out")
  EXECUTE format('CREATE USER MAPPING FOR PUBLIC SERVER %I OPTIONS (user %L, password_required %L)',
                 'cfstore_shard_' || name, s.user_name, 'false');
END $$;
COMMENT ON FUNCTION cfstore_shard.add_server(text, text, text, integer, text) IS
  'Register a shard server (a database with cfstore of the same version); user_name is the role the cluster works as there';

CREATE FUNCTION cfstore_shard.drop_server(name text) RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM cfstore_shard.server s WHERE s.name = drop_server.name) THEN
    RAISE EXCEPTION USING ERRCODE = '42704', MESSAGE = format('shard server %s does not exist', name);
  END IF;
  IF EXISTS (SELECT FROM cfstore_shard.partition p WHERE p.server = drop_server.name) THEN
    RAISE EXCEPTION USING ERRCODE = '2BP01',
      MESSAGE = format('shard server %s holds partitions of the cluster', name);
  END IF;
  EXECUTE format('DROP SERVER %I CASCADE', 'cfstore_shard_' || name);
  DELETE FROM cfstore_shard.server s WHERE s.name = drop_server.name;
END $$;
COMMENT ON FUNCTION cfstore_shard.drop_server(text) IS 'Forget a shard server that holds no partition';

CREATE FUNCTION cfstore_shard.create_cluster(partitions integer DEFAULT 16) RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  servers text[] := ARRAY(SELECT name FROM cfstore_shard.server ORDER BY name);
  options text;
BEGIN
  IF cfstore_shard.partitions() > 0 THEN
    RAISE EXCEPTION USING ERRCODE = '42710', MESSAGE = 'the cluster already exists';
  END IF;
  IF partitions IS NULL OR partitions < 1 OR partitions > 1024 OR partitions & (partitions - 1) <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = format('partitions must be a power of two from 1 to 1024 (got %s)', coalesce(partitions::text, 'null'));
  END IF;
  IF cardinality(servers) = 0 THEN
    RAISE EXCEPTION USING ERRCODE = '55000', MESSAGE = 'the cluster has no shard server',
      HINT = 'Register them with cfstore_shard.add_server() first.';
  END IF;
  IF cardinality(servers) & (cardinality(servers) - 1) <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = '0A000',
      MESSAGE = format('a cluster has a power-of-two number of shard servers (got %s)', cardinality(servers)),
      HINT = 'Each server then holds the keys of one class of PostgreSQL''s hash partitioning.';
  END IF;
  IF cardinality(servers) > partitions THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = format('%s shard servers need at least as many partitions (got %s)', cardinality(servers), partitions);
  END IF;
  INSERT INTO cfstore_shard.partition
  SELECT p, servers[1 + p % cardinality(servers)] FROM generate_series(0, partitions - 1) p;
  SELECT string_agg(format('p%s %L', p.partition, cfstore_shard._conninfo(s)), ', ' ORDER BY p.partition)
    INTO options
    FROM cfstore_shard.partition p JOIN cfstore_shard.server s ON s.name = p.server;
  EXECUTE format('CREATE SERVER cfstore_shard FOREIGN DATA WRAPPER plproxy OPTIONS (%s)', options);
  CREATE USER MAPPING FOR PUBLIC SERVER cfstore_shard;
  IF NOT 'cfstore' = ANY (string_to_array(replace(current_setting('shared_preload_libraries') || ',' ||
                                                  current_setting('session_preload_libraries'), ' ', ''), ',')) THEN
    RAISE NOTICE 'cfstore is not in session_preload_libraries: a session that has not called cfstore yet plans key lookups of the coordinator''s tables over the partitions, and what a transaction does with those tables before its first call of cfstore is not known to the function API'
      USING HINT = 'Add cfstore to session_preload_libraries (or shared_preload_libraries) on the coordinator, so that every session reads a key on its shard with the ORDER BY and the LIMIT shipped, and SQL and the function API in one transaction are kept from missing or waiting for each other''s changes.';
  END IF;
END $$;
COMMENT ON FUNCTION cfstore_shard.create_cluster(integer) IS
  'Place a power-of-two number of partitions of the key space on the registered shard servers, in turn';
