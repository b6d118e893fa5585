-- ---------------------------------------------------------------------------
-- Who may call what.  The functions of the API and the marshal layer are
-- for everyone: they run as their caller and check its privileges on each
-- column family's storage relation.  Internal functions (named _*) are
-- for the extension's owner alone (the DDL functions' bodies run as that
-- owner), all but the ones below, which the functions that run as their
-- caller use and which write nothing and read nothing the caller could
-- not read anyway.  A new internal function is thus private unless it is
-- added here.
-- ---------------------------------------------------------------------------

DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
            WHERE p.pronamespace = 'cfstore'::regnamespace AND p.proname LIKE '\_%'
              AND p.proname NOT IN (
                -- raising errors (everything)
                '_error',
                -- batch_mutate's parsing and checks
                '_batch_shape_error', '_batch_members', '_batch_text', '_batch_int',
                '_batch_check_name', '_batch_mutation', '_batch_delete_range', '_thrift_bytes',
                -- load_storage_conf's checks
                '_check_cache_size', '_storage_conf_type', '_strategy_class',
                -- reading the catalog, which everyone may read
                '_check_keyspace_exists', '_cf_def', '_ks_def',
                '_column_family_info', '_storage_relation', '_foreign_table', '_foreign_table_ddl',
                -- cql()'s DDL (the body checks the caller owns the keyspace) and type parsing
                '_cql_define', '_type_components',
                -- cql()'s and cli()'s reads: the encodings of a slice and the row keys,
                -- with the caller's privileges checked on the column family (src/api/cfremote.c)
                '_read_slice', '_read_row_keys',
                -- the deletion of a range of columns (DELETE privilege checked, src/api/cfmutate.c)
                '_remove_range',
                -- a keyspace owner's GRANTs of a column family of theirs (PostgreSQL checks them)
                '_grant_reader',
                -- conversions of values (tests)
                '_arg_bytes', '_arg_bytes_array')
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP;
END $$;
