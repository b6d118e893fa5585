-- cfstore_fdw: every column family as a typed foreign table (README.md "Foreign tables").

CREATE FUNCTION cfstore.fdw_handler() RETURNS fdw_handler
  AS 'MODULE_PATHNAME', 'cfstore_fdw_handler' LANGUAGE C STRICT;
COMMENT ON FUNCTION cfstore.fdw_handler() IS 'The handler of the foreign data wrapper cfstore_fdw';

CREATE FUNCTION cfstore.fdw_validator(text[], oid) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_fdw_validator' LANGUAGE C STRICT;
COMMENT ON FUNCTION cfstore.fdw_validator(text[], oid) IS
  'Checks the options of cfstore_fdw objects (foreign tables: keyspace, column_family)';

CREATE FOREIGN DATA WRAPPER cfstore_fdw HANDLER cfstore.fdw_handler VALIDATOR cfstore.fdw_validator;
COMMENT ON FOREIGN DATA WRAPPER cfstore_fdw IS 'Column families as foreign tables, read and written in the same transaction';

CREATE SERVER cfstore FOREIGN DATA WRAPPER cfstore_fdw;
COMMENT ON SERVER cfstore IS 'The column families of this database';

-- Every role may define foreign tables of column families, and import
-- them: a foreign table gives no access of its own, since reading and
-- writing through one also needs the privileges on the column family's
-- storage relation (src/fdw/cffdw_import.c).
GRANT USAGE ON FOREIGN SERVER cfstore TO PUBLIC;

-- The canonical foreign table "<keyspace>"."<column_family>" of each
-- column family: created by create_column_family, altered by
-- update_column_family, dropped by drop_column_family.
CREATE FUNCTION cfstore._foreign_table_ddl(cf_id integer, schema text) RETURNS text
  AS 'MODULE_PATHNAME', 'cfstore_foreign_table_ddl' LANGUAGE C STRICT STABLE;
COMMENT ON FUNCTION cfstore._foreign_table_ddl(integer, text) IS
  'The CREATE FOREIGN TABLE statement of a column family, in the given schema on server cfstore';
CREATE FUNCTION cfstore._foreign_table_create(cf_id integer) RETURNS regclass
  AS 'MODULE_PATHNAME', 'cfstore_foreign_table_create' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._foreign_table_create(integer) IS
  'Internal: create the foreign table "<keyspace>"."<column_family>" of a new column family, owned by the keyspace owner';
CREATE FUNCTION cfstore._foreign_table_alter(cf_id integer) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_foreign_table_alter' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._foreign_table_alter(integer) IS
  'Internal: give the key and value columns of a column family''s foreign table the types its validators map to';
CREATE FUNCTION cfstore._foreign_table_reshape(cf_id integer) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_foreign_table_reshape' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION cfstore._foreign_table_reshape(integer) IS
  'Internal: after cql() changed a table''s columns, create its foreign table again with them, keeping its grants';
CREATE FUNCTION cfstore._foreign_table(keyspace text, column_family text) RETURNS regclass
  AS 'MODULE_PATHNAME', 'cfstore_foreign_table' LANGUAGE C STRICT STABLE;
COMMENT ON FUNCTION cfstore._foreign_table(text, text) IS
  'The foreign table "<keyspace>"."<column_family>" of a column family, or NULL if it was dropped';

-- GRANT and REVOKE on a column family's foreign table apply to its storage
-- relation as well, and the other way round, as the same user
-- (src/fdw/cffdw_acl.c).
CREATE FUNCTION cfstore._acl_mirror() RETURNS event_trigger
  AS 'MODULE_PATHNAME', 'cfstore_acl_mirror' LANGUAGE C;
COMMENT ON FUNCTION cfstore._acl_mirror() IS
  'Internal: keeps the privileges of each column family''s foreign table and storage relation equal';
CREATE EVENT TRIGGER cfstore_acl_mirror ON ddl_command_end WHEN TAG IN ('GRANT', 'REVOKE')
  EXECUTE FUNCTION cfstore._acl_mirror();
