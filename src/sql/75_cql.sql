-- CQL3 (README.md "CQL3"): cfstore.cql() and the catalog entries of CQL3
-- tables (src/cql/); cassandra-cli scripts: cfstore.cli() (src/cli/).

-- The body of _cql_define, run as the extension's owner for its caller
-- (src/catalog/cfddl.c): give a column family its CQL3 definition, as
-- Cassandra 1.2 keeps it: the names of the key's parts (key_aliases), of the
-- comparator's components (column_aliases) and of the value of a compact
-- table (value_alias), and the columns of a non-compact table: one
-- column_definition each, matching the last component of a cell's
-- composite name (component_index).  An empty value_alias: a compact
-- table without a value column.  columns is a JSON array of
-- {"name": ..., "validation_class": ..., "index_name": ...}; it replaces
-- the table's CQL3 columns, keeping the index of a column that keeps its
-- index name.  The canonical table then shows the CQL3 rows, with the new
-- columns.
CREATE FUNCTION cfstore._ddl__cql_define(keyspace text, column_family text, key_aliases text[],
                                         column_aliases text[], value_alias text, columns jsonb)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cf cfstore.column_family;
  components integer;
  last_type text;
  old_defs cfstore.column_definition[];
  def jsonb;
  cname text;
  vclass text;
  iname text;
BEGIN
  PERFORM cfstore._check_keyspace_exists(keyspace);
  PERFORM cfstore._lock_catalog();
  SELECT * INTO cf FROM cfstore.column_family c
   WHERE c.keyspace = _ddl__cql_define.keyspace AND c.name = column_family;
  IF NOT FOUND THEN
    PERFORM cfstore._error(format('unconfigured columnfamily %s', column_family), '42P01');
  END IF;
  PERFORM cfstore._check_keyspace_owner(keyspace);
  IF array_position(key_aliases, NULL) IS NOT NULL OR array_position(column_aliases, NULL) IS NOT NULL
     OR '' = ANY (key_aliases) OR '' = ANY (column_aliases) THEN
    PERFORM cfstore._error('CQL3 names must not be empty or null');
  END IF;
  SELECT count(*) INTO components FROM cfstore._type_components(cf.comparator);
  SELECT t INTO last_type FROM cfstore._type_components(cf.comparator) t OFFSET components - 1;

  SELECT coalesce(array_agg(d), '{}') INTO old_defs
    FROM cfstore.column_definition d WHERE d.column_family_id = cf.id;
  DELETE FROM cfstore.column_definition d
   WHERE d.column_family_id = cf.id AND d.component_index IS NOT NULL;
  FOR def IN SELECT value FROM jsonb_array_elements(coalesce(columns, '[]')) LOOP
    cname := def ->> 'name';
    vclass := cfstore.type_name(def ->> 'validation_class');
    iname := def ->> 'index_name';
    IF cname IS NULL OR cname = '' OR vclass IS NULL THEN
      PERFORM cfstore._error(format('a CQL3 column needs a name and a validation_class (got %s)', def));
    END IF;
    IF cf.comparator NOT LIKE 'org.apache.cassandra.db.marshal.CompositeType(%'
       OR last_type <> 'org.apache.cassandra.db.marshal.UTF8Type' THEN
      PERFORM cfstore._error(format('column family %s has no CQL3 column names (its comparator is %s)',
                                    column_family, cf.comparator), '0A000');
    END IF;
    IF (vclass = 'org.apache.cassandra.db.marshal.CounterColumnType') <> (cf.default_validation_class = 'org.apache.cassandra.db.marshal.CounterColumnType') THEN
      PERFORM cfstore._error(CASE WHEN vclass <> 'org.apache.cassandra.db.marshal.CounterColumnType'
        THEN format('Cannot add a non counter column (%s) in a counter column family', cname)
        ELSE format('Cannot add a counter column (%s) in a non counter column family', cname) END);
    END IF;
    IF iname IS NOT NULL AND (iname !~ '^\w+$' OR EXISTS (
         SELECT FROM cfstore.column_definition d
          WHERE d.index_name = iname AND (d.column_family_id <> cf.id OR d.name <> convert_to(cname, 'UTF8')))) THEN
      PERFORM cfstore._error(format('Duplicate index name %s', iname));
    END IF;
    INSERT INTO cfstore.column_definition
    VALUES (cf.id, convert_to(cname, 'UTF8'), vclass, CASE WHEN iname IS NOT NULL THEN 'KEYS' END, iname,
            NULL, components - 1);
  END LOOP;
  UPDATE cfstore.column_family c
     SET key_aliases = _ddl__cql_define.key_aliases, column_aliases = _ddl__cql_define.column_aliases,
         value_alias = _ddl__cql_define.value_alias
   WHERE c.id = cf.id;
  PERFORM cfstore._index_sync(cf.id, old_defs);
  -- the canonical table shows the CQL3 rows, with the grants made on it (a
  -- sharded keyspace's too, as the shards' tables it reads do)
  PERFORM cfstore._foreign_table_reshape(cf.id);
  PERFORM cfstore._on_shards(keyspace, '_cql_define', keyspace, column_family, key_aliases::text,
                             column_aliases::text, value_alias, columns::text);
END $$;
CREATE FUNCTION cfstore._cql_define(keyspace text, column_family text, key_aliases text[],
                                    column_aliases text[], value_alias text, columns jsonb)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_ddl' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore._cql_define(text, text, text[], text[], text, jsonb) IS
  'Internal (used by cql()): the CQL3 names and columns of a column family (needs ownership of the keyspace)';

-- The component types of a CompositeType (fully qualified), or the type itself.
CREATE FUNCTION cfstore._type_components(type text) RETURNS SETOF text
  AS 'MODULE_PATHNAME', 'cfstore_type_components' LANGUAGE C STRICT IMMUTABLE;
COMMENT ON FUNCTION cfstore._type_components(text) IS
  'The component types of a CompositeType, in order, fully qualified; any other type: itself';

CREATE FUNCTION cfstore.cql(statement text, keyspace text DEFAULT NULL) RETURNS SETOF jsonb
  AS 'MODULE_PATHNAME', 'cfstore_cql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.cql(text, text) IS
  'Run one CQL3 statement (Cassandra 1.2); keyspace plays USE; SELECT returns a jsonb object per CQL row';

CREATE FUNCTION cfstore.cli(script text) RETURNS SETOF text
  AS 'MODULE_PATHNAME', 'cfstore_cli' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.cli(text) IS
  'Run a cassandra-cli script (Cassandra 1.2); the lines it prints, one row each; an error rolls the whole script back';
