-- The relational view, catalog side: create_column_family creates the
-- foreign table "<keyspace>"."<column_family>" (README.md "Foreign tables"), owned by
-- the keyspace owner; update_column_family keeps its column types;
-- drop_column_family and drop_keyspace drop it; IMPORT FOREIGN SCHEMA
-- makes copies elsewhere.
\set VERBOSITY terse
CREATE ROLE regress_fdwcat_owner;
CREATE ROLE regress_fdwcat_reader;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_fdwcat_owner', current_database()); END $$;

-- One line per column of the foreign tables of a schema.
CREATE FUNCTION pg_temp.columns(schema text)
RETURNS TABLE (foreign_table name, columns text) LANGUAGE sql AS $$
  SELECT c.relname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || CASE WHEN a.attcollation <> 0 AND a.attcollation <> 100
                   THEN ' COLLATE ' || quote_ident(co.collname) ELSE '' END
           || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END, ', ' ORDER BY a.attnum)
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_collation co ON co.oid = a.attcollation
   WHERE n.nspname = schema AND c.relkind = 'f'
   GROUP BY c.relname ORDER BY c.relname
$$;

SET ROLE regress_fdwcat_owner;
SELECT cfstore.create_keyspace('FdwCat');
-- the keyspace owner's default privileges apply to the foreign tables
ALTER DEFAULT PRIVILEGES IN SCHEMA "FdwCat" GRANT SELECT ON TABLES TO regress_fdwcat_reader;
SELECT cfstore.create_column_family('FdwCat', 'Users', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('FdwCat', 'Raw');
SELECT cfstore.create_column_family('FdwCat', 'Comments', column_type => 'Super',
         comparator => 'TimeUUIDType', subcomparator => 'LongType', key_validation_class => 'AsciiType',
         default_validation_class => 'BooleanType');
SELECT cfstore.create_column_family('FdwCat', 'Readings', comparator => 'CompositeType(UTF8Type, DateType, TimeUUIDType)',
         key_validation_class => 'LongType', default_validation_class => 'DoubleType');
SELECT cfstore.create_column_family('FdwCat', 'SuperComposite', column_type => 'Super', comparator => 'IntegerType',
         subcomparator => 'CompositeType(Int32Type, ReversedType(UUIDType))', key_validation_class => 'DecimalType',
         default_validation_class => 'FloatType');
SELECT cfstore.create_column_family('FdwCat', 'Hits', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('FdwCat', 'SuperHits', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'DateType', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('FdwCat', 'Timeline', comparator => 'LongType(reversed=true)',
         key_validation_class => 'LexicalUUIDType', default_validation_class => 'UUIDType');
-- validators of one SQL type keep the value typed; another type makes it text
SELECT cfstore.create_column_family('FdwCat', 'SameType', comparator => 'UTF8Type',
         default_validation_class => 'AsciiType',
         column_metadata => '[{"column_name": "name", "validation_class": "UTF8Type"}]');
SELECT cfstore.create_column_family('FdwCat', 'Mixed', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "age", "validation_class": "LongType", "index_type": "KEYS"},
                              {"column_name": "born", "validation_class": "DateType"}]');
RESET ROLE;

SELECT * FROM pg_temp.columns('FdwCat');
\d+ "FdwCat"."Users"
\d+ "FdwCat"."Readings"
-- the statement they were made with
SELECT cfstore._foreign_table_ddl(id, 'elsewhere') FROM cfstore.column_family
 WHERE keyspace = 'FdwCat' AND name IN ('Comments', 'Hits', 'Mixed') ORDER BY name;

-- owned by the keyspace owner, as the storage relation is, with the same
-- privileges (the owner's default privileges); the KEYS index of Mixed has
-- a storage relation but no foreign table
SELECT cf.name, c.relowner::regrole AS owner, c.relowner = s.relowner AS same_owner,
       c.relacl AS acl, c.relacl = s.relacl AS same_acl
  FROM cfstore.column_family cf
  JOIN pg_class c ON c.oid = cfstore._foreign_table(cf.keyspace, cf.name)
  JOIN pg_class s ON s.oid = cfstore._storage_relation(cf.keyspace, cf.name)
 WHERE cf.keyspace = 'FdwCat' ORDER BY cf.name;
SELECT count(*) AS foreign_tables, (SELECT count(*) FROM cfstore.column_family WHERE keyspace = 'FdwCat') AS column_families
  FROM pg_foreign_table ft JOIN pg_class c ON c.oid = ft.ftrelid
 WHERE c.relnamespace = '"FdwCat"'::regnamespace;
SELECT d.index_name, to_regclass('cfstore_data.cf_' || d.index_id) IS NOT NULL AS has_storage,
       (SELECT count(*) FROM pg_foreign_table ft
         WHERE array_to_string(ft.ftoptions, ',') LIKE '%' || d.index_name || '%') AS foreign_tables
  FROM cfstore.column_definition d WHERE d.index_name IS NOT NULL;
DO $$ BEGIN
  PERFORM cfstore._foreign_table_ddl(index_id, 'x') FROM cfstore.column_definition WHERE index_name IS NOT NULL;
EXCEPTION WHEN wrong_object_type THEN
  RAISE NOTICE '%', regexp_replace(SQLERRM, '^[0-9]+', '<index id>');
END $$;

-- the tables read what the API wrote; the reader has SELECT by default
SELECT cfstore.insert('FdwCat', 'Users', 'jsmith', 'first', 'John', writetime => 10);
SELECT cfstore.insert('FdwCat', 'Users', 'jsmith', 'last', 'Smith', writetime => 11, ttl => 3600);
SELECT cfstore.insert('FdwCat', 'Mixed', 'u1', 'age', 42, writetime => 1);
SELECT cfstore.insert('FdwCat', 'Mixed', 'u1', 'born', '2010-08-12 12:00:00Z', writetime => 1);
SELECT cfstore.insert('FdwCat', 'Mixed', 'u1', 'name', 'Ann', writetime => 1);
SELECT cfstore.add('FdwCat', 'Hits', 'page', 'views', 3);
SET ROLE regress_fdwcat_reader;
SELECT * FROM "FdwCat"."Users";
SELECT * FROM "FdwCat"."Mixed";
SELECT * FROM "FdwCat"."Hits";
SELECT count(*) FROM cfstore.get_slice('FdwCat', 'Users', 'jsmith');
RESET ROLE;

-- update_column_family: new validators change the key and value columns'
-- types in place (grants stay); other changes leave the table alone
SELECT '"FdwCat"."Users"'::regclass::oid AS users_oid \gset
GRANT INSERT ON "FdwCat"."Users" TO regress_fdwcat_reader;
SELECT cfstore.update_column_family('FdwCat', 'Users', comment => 'people');
SELECT cfstore.update_column_family('FdwCat', 'Users', key_validation_class => 'BytesType',
         default_validation_class => 'LongType');
SELECT * FROM pg_temp.columns('FdwCat') WHERE foreign_table = 'Users';
SELECT cfstore.update_column_family('FdwCat', 'Users',
         column_metadata => '[{"column_name": "first", "validation_class": "UTF8Type"}]');
SELECT * FROM pg_temp.columns('FdwCat') WHERE foreign_table = 'Users';
SELECT cfstore.update_column_family('FdwCat', 'Users', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type');
SELECT * FROM pg_temp.columns('FdwCat') WHERE foreign_table = 'Users';
SELECT oid = :users_oid AS same_table, relacl FROM pg_class WHERE oid = '"FdwCat"."Users"'::regclass;
SELECT * FROM "FdwCat"."Users";
-- metadata of the default's SQL type keeps the value typed; of another,
-- makes it text; without it, typed again
SELECT cfstore.update_column_family('FdwCat', 'Timeline',
         column_metadata => '[{"column_name": "1", "validation_class": "LexicalUUIDType"}]');
SELECT * FROM pg_temp.columns('FdwCat') WHERE foreign_table = 'Timeline';
SELECT cfstore.update_column_family('FdwCat', 'Timeline',
         column_metadata => '[{"column_name": "2", "validation_class": "DateType"}]');
SELECT * FROM pg_temp.columns('FdwCat') WHERE foreign_table = 'Timeline';
SELECT cfstore.update_column_family('FdwCat', 'Timeline', column_metadata => '[]');
SELECT * FROM pg_temp.columns('FdwCat') WHERE foreign_table = 'Timeline';
-- a view on the key column keeps its type from changing, and so the update
CREATE VIEW pg_temp.user_keys AS SELECT DISTINCT key FROM "FdwCat"."Users";
SELECT cfstore.update_column_family('FdwCat', 'Users', key_validation_class => 'LongType');
SELECT key_validation_class FROM cfstore.column_family WHERE keyspace = 'FdwCat' AND name = 'Users';
DROP VIEW pg_temp.user_keys;

-- IMPORT FOREIGN SCHEMA: copies of the column families elsewhere
CREATE SCHEMA fdwcat_import;
IMPORT FOREIGN SCHEMA "FdwCat" LIMIT TO ("Users", "Hits", "NoSuchCf") FROM SERVER cfstore INTO fdwcat_import;
SELECT * FROM pg_temp.columns('fdwcat_import');
IMPORT FOREIGN SCHEMA "FdwCat" EXCEPT ("Users", "Hits", "Readings", "SuperComposite", "SuperHits", "Timeline", "Raw")
  FROM SERVER cfstore INTO fdwcat_import;
SELECT foreign_table FROM pg_temp.columns('fdwcat_import');
SELECT c.relname, ft.ftoptions FROM pg_foreign_table ft JOIN pg_class c ON c.oid = ft.ftrelid
 WHERE c.relnamespace = 'fdwcat_import'::regnamespace ORDER BY 1;
SELECT * FROM fdwcat_import."Users" WHERE key = 'jsmith' ORDER BY column_name DESC;
SELECT * FROM fdwcat_import."Hits";
-- the same definitions as the keyspace's own tables
SELECT i.foreign_table, i.columns = k.columns AS same_columns
  FROM pg_temp.columns('fdwcat_import') i JOIN pg_temp.columns('FdwCat') k USING (foreign_table);
-- a copy is owned by the importer and is not the column family's table
SELECT relowner::regrole FROM pg_class WHERE oid = 'fdwcat_import."Users"'::regclass;
SELECT cfstore._foreign_table('FdwCat', 'Users') AS canonical;
-- into a schema that already has the table
IMPORT FOREIGN SCHEMA "FdwCat" LIMIT TO ("Users") FROM SERVER cfstore INTO fdwcat_import;
-- errors
IMPORT FOREIGN SCHEMA "NoSuchKs" FROM SERVER cfstore INTO fdwcat_import;
IMPORT FOREIGN SCHEMA fdwcat FROM SERVER cfstore INTO fdwcat_import;
IMPORT FOREIGN SCHEMA "FdwCat" FROM SERVER cfstore INTO fdwcat_import OPTIONS (import_default 'true');
IMPORT FOREIGN SCHEMA "FdwCat" FROM SERVER cfstore INTO no_such_schema;
SELECT cfstore._foreign_table_ddl(-1, 'x');
SELECT cfstore._foreign_table_create(id) FROM cfstore.column_family WHERE keyspace = 'FdwCat' AND name = 'Raw';

-- a relation of the column family's name in the keyspace's schema stops
-- create_column_family, which then creates nothing
CREATE TABLE "FdwCat"."Taken" (x integer);
SELECT cfstore.create_column_family('FdwCat', 'Taken');
SELECT count(*) FROM cfstore.column_family WHERE name = 'Taken';
DROP TABLE "FdwCat"."Taken";

-- every column family written here verifies
SELECT name, cfstore.verify(keyspace, name) FROM cfstore.column_family WHERE keyspace = 'FdwCat' ORDER BY name;

-- drop_column_family drops the foreign table; one the user dropped first
-- does not stop it; the imported copy stays, and no longer reads
SELECT cfstore.drop_column_family('FdwCat', 'Users');
SELECT to_regclass('"FdwCat"."Users"') AS users;
DROP FOREIGN TABLE "FdwCat"."Raw";
SELECT cfstore.drop_column_family('FdwCat', 'Raw');
SELECT * FROM fdwcat_import."Users";
-- a view on a foreign table stops drop_column_family (RESTRICT)
CREATE VIEW pg_temp.hits AS SELECT * FROM "FdwCat"."Hits";
SELECT cfstore.drop_column_family('FdwCat', 'Hits');
DROP VIEW pg_temp.hits;
-- drop_keyspace drops every foreign table, then the schema
SET ROLE regress_fdwcat_owner;
SELECT cfstore.drop_keyspace('FdwCat');
RESET ROLE;
SELECT count(*) AS schemas FROM pg_namespace WHERE nspname = 'FdwCat';
SELECT count(*) AS foreign_tables FROM pg_foreign_table ft JOIN pg_class c ON c.oid = ft.ftrelid
 WHERE c.relnamespace <> 'fdwcat_import'::regnamespace;

DROP SCHEMA fdwcat_import CASCADE;
DO $$ BEGIN EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_fdwcat_owner', current_database()); END $$;
DROP OWNED BY regress_fdwcat_reader;
DROP ROLE regress_fdwcat_reader;
DROP ROLE regress_fdwcat_owner;
