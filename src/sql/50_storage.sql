-- ---------------------------------------------------------------------------
-- Storage (src/storage): the cfstore table access method and the storage
-- relations, one per column family: cfstore_data.cf_<id>.
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore._am_handler(internal) RETURNS table_am_handler
  AS 'MODULE_PATHNAME', 'cfstore_am_handler' LANGUAGE C;
CREATE ACCESS METHOD cfstore TYPE TABLE HANDLER cfstore._am_handler;
COMMENT ON ACCESS METHOD cfstore IS
  'Column-family storage: cells clustered by row key and comparator order in a B+tree, WAL-logged';

CREATE SCHEMA cfstore_data;
COMMENT ON SCHEMA cfstore_data IS
  'Storage relations of cfstore column families (cf_<id>, id = cfstore.column_family.id)';
GRANT USAGE ON SCHEMA cfstore_data TO PUBLIC;

-- Nobody but cfstore changes the shape of a storage relation: ALTER TABLE
-- (but for owner, storage parameters, tablespace and column statistics),
-- RENAME, SET SCHEMA, DROP, triggers, rules, policies and inheritance are
-- refused before they run (src/storage/cfhooks.c).
CREATE FUNCTION cfstore._storage_guard() RETURNS event_trigger
  AS 'MODULE_PATHNAME', 'cfstore_storage_guard' LANGUAGE C;
COMMENT ON FUNCTION cfstore._storage_guard() IS
  'Internal: refuses DDL that would change a cfstore storage relation';
CREATE EVENT TRIGGER cfstore_storage_guard ON ddl_command_start
  EXECUTE FUNCTION cfstore._storage_guard();

-- Create the storage relation of a column family, owned by its keyspace's
-- owner (for create_column_family, whose caller owns the keyspace).
CREATE FUNCTION cfstore._storage_create(cf_id integer) RETURNS regclass
  AS 'MODULE_PATHNAME', 'cfstore_storage_create' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._storage_create(integer) IS
  'Internal: create cfstore_data.cf_<id> for a new column family';

-- The storage relation of a column family.
CREATE FUNCTION cfstore._storage_relation(keyspace text, column_family text) RETURNS regclass
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT format('cfstore_data.%I', 'cf_' || cf.id)::regclass
    FROM cfstore.column_family cf
   WHERE cf.keyspace = $1 AND cf.name = $2
$$;
COMMENT ON FUNCTION cfstore._storage_relation(text, text) IS
  'The storage relation (cfstore_data.cf_<id>) of a column family';

-- Secondary indexes (src/storage/cfindex.c): fill a new index from the
-- column family's data; empty the indexes of a truncated column family.
CREATE FUNCTION cfstore._index_build(index_id integer) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_index_build' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._index_build(integer) IS
  'Internal: index the existing data of a column family in a new KEYS index';
CREATE FUNCTION cfstore._index_truncate(cf_id integer) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_index_truncate' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._index_truncate(integer) IS
  'Internal: empty the KEYS indexes of a column family (after its storage relation was truncated)';

-- The body of truncate, run as the extension's owner for its caller
-- (src/catalog/cfddl.c).
CREATE FUNCTION cfstore._ddl_truncate(keyspace text, column_family text)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cf_id integer;
BEGIN
  PERFORM cfstore._check_keyspace_exists(keyspace);
  SELECT cf.id INTO cf_id FROM cfstore.column_family cf
   WHERE cf.keyspace = _ddl_truncate.keyspace AND cf.name = column_family;
  IF cf_id IS NULL THEN
    PERFORM cfstore._error(format('unconfigured columnfamily %s', column_family), '42P01');
  END IF;
  -- as the caller: its TRUNCATE privilege on the column family decides
  PERFORM cfstore._as_caller(format('TRUNCATE cfstore_data.%I', 'cf_' || cf_id));
  PERFORM cfstore._index_truncate(cf_id);
  PERFORM cfstore._on_shards(keyspace, 'truncate', keyspace, column_family);
END $$;
CREATE FUNCTION cfstore.truncate(keyspace text, column_family text)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_ddl' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.truncate(text, text) IS
  'Remove all data of a column family regardless of timestamps (needs TRUNCATE on its storage relation)';

CREATE TYPE cfstore.cell AS (
  key          text,
  super_column text,
  column_name  text,
  value        text,
  writetime    bigint,
  ttl          integer
);
COMMENT ON TYPE cfstore.cell IS
  'A live column as the read functions return it, every byte string in its type''s text form';

CREATE FUNCTION cfstore.verify(keyspace text, column_family text) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_verify' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore.verify(text, text) IS
  'Check every invariant of a column family''s storage (order, high keys, sibling links, space, no unfinished split); raises on corruption';

CREATE FUNCTION cfstore.stats(keyspace text, column_family text,
    OUT pages bigint, OUT height integer, OUT leaf_pages bigint, OUT cell_versions bigint,
    OUT live_cells bigint, OUT tombstones bigint, OUT bytes_per_live_cell numeric,
    OUT leaf_fill numeric, OUT tree_pages bigint)
  AS 'MODULE_PATHNAME', 'cfstore_stats' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore.stats(text, text) IS
  'Size and shape of a column family''s storage: pages, tree height, cell versions, live cells, tombstones, bytes per live cell, average leaf fill (percent), pages in the tree (with the metapage; the others are free, unlinked or overflow pages)';

-- For testing: the hand-built WAL records this backend wrote, by shape
-- (src/storage/cfwal.c).
CREATE FUNCTION cfstore._wal_record_counts(OUT overwrite bigint, OUT ranges bigint, OUT regions bigint)
  AS 'MODULE_PATHNAME', 'cfstore_wal_record_counts' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._wal_record_counts() IS
  'Internal: the hand-built WAL records this backend wrote, by shape (for testing)';
CREATE FUNCTION cfstore._wal_max_ranges(n integer) RETURNS integer
  AS 'MODULE_PATHNAME', 'cfstore_wal_max_ranges' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._wal_max_ranges(integer) IS
  'Internal: the most changed ranges this backend''s insertions log one by one, before whole regions (for testing); returns the previous limit';
