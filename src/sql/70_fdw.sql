-- cfstore_fdw: every column family as a typed foreign table (sql-api.md §6).

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
