-- Privileges of the relational view: the GRANTs on a column family's
-- foreign table "<keyspace>"."<cf>" govern both SQL on that table and the
-- function API, because GRANT and REVOKE on it apply to the storage
-- relation too (and the other way round), as the same user.  A foreign
-- table of one's own (an imported copy) gives no access to the data.
BEGIN;
SELECT plan(70);

CREATE ROLE regress_fdwp_owner;
CREATE ROLE regress_fdwp_member IN ROLE regress_fdwp_owner;
CREATE ROLE regress_fdwp_other;
CREATE ROLE regress_fdwp_importer;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_fdwp_owner, regress_fdwp_importer',
                           current_database()); END $$;

SET LOCAL ROLE regress_fdwp_owner;
DO $$
BEGIN
  PERFORM cfstore.create_keyspace('FdwPriv');
  PERFORM cfstore.create_column_family('FdwPriv', 'Std', comparator => 'UTF8Type',
            key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
  PERFORM cfstore.create_column_family('FdwPriv', 'Cnt', comparator => 'UTF8Type',
            key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
  PERFORM cfstore.insert('FdwPriv', 'Std', 'k', 'a', 'owner', writetime => 1);
  PERFORM cfstore.add('FdwPriv', 'Cnt', 'k', 'c', 5);
END $$;
RESET ROLE;

-- The ACLs of the foreign table and of the storage relation are equal.
CREATE FUNCTION pg_temp.same_acl(cf text) RETURNS boolean LANGUAGE sql AS $$
  SELECT f.relacl IS NOT DISTINCT FROM s.relacl
    FROM pg_class f, pg_class s
   WHERE f.oid = cfstore._foreign_table('FdwPriv', cf) AND s.oid = cfstore._storage_relation('FdwPriv', cf)
$$;
GRANT EXECUTE ON FUNCTION pg_temp.same_acl(text) TO PUBLIC;

SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = '"FdwPriv"."Std"'::regclass),
          'regress_fdwp_owner', 'the foreign table belongs to the keyspace owner');
SELECT ok(pg_temp.same_acl('Std'), 'foreign table and storage relation start with the same privileges');

-- no grant: neither SQL nor the API
SET LOCAL ROLE regress_fdwp_other;
SELECT throws_ok($$SELECT * FROM "FdwPriv"."Std"$$, '42501', NULL, 'other: SELECT on the foreign table is denied');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('FdwPriv', 'Std', 'k')$$, '42501', NULL, 'other: get_slice is denied');
SELECT throws_ok($$SELECT cfstore.insert('FdwPriv', 'Std', 'k', 'x', 'other', writetime => 9)$$, '42501', NULL,
                 'other: insert is denied');

-- GRANT SELECT on the foreign table: the table and the read functions
SET LOCAL ROLE regress_fdwp_owner;
GRANT SELECT ON "FdwPriv"."Std" TO regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std'), 'GRANT SELECT on the foreign table reaches the storage relation');
SET LOCAL ROLE regress_fdwp_other;
SELECT is((SELECT string_agg(key || '/' || column_name || '=' || value, ',') FROM "FdwPriv"."Std"),
          'k/a=owner', 'with SELECT: the foreign table reads');
SELECT is((SELECT string_agg(column_name || '=' || value, ',') FROM cfstore.get_slice('FdwPriv', 'Std', 'k')),
          'a=owner', 'with SELECT: get_slice reads');
SELECT is(cfstore.get_count('FdwPriv', 'Std', 'k'), 1, 'with SELECT: get_count reads');
SELECT throws_ok($$SELECT cfstore.insert('FdwPriv', 'Std', 'k', 'x', 'other', writetime => 9)$$, '42501', NULL,
                 'with SELECT: insert still needs INSERT');
SELECT throws_ok($$SELECT * FROM "FdwPriv"."Cnt"$$, '42501', NULL, 'with SELECT on Std: not on Cnt');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('FdwPriv', 'Cnt', 'k')$$, '42501', NULL,
                 'with SELECT on Std: get_slice of Cnt is denied');

-- REVOKE SELECT: both denied again
SET LOCAL ROLE regress_fdwp_owner;
REVOKE SELECT ON "FdwPriv"."Std" FROM regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std'), 'REVOKE on the foreign table reaches the storage relation');
SET LOCAL ROLE regress_fdwp_other;
SELECT throws_ok($$SELECT * FROM "FdwPriv"."Std"$$, '42501', NULL, 'after REVOKE: the foreign table is denied');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('FdwPriv', 'Std', 'k')$$, '42501', NULL,
                 'after REVOKE: get_slice is denied');

-- GRANT INSERT on the foreign table: insert and add
SET LOCAL ROLE regress_fdwp_owner;
GRANT INSERT ON "FdwPriv"."Std", "FdwPriv"."Cnt" TO regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std') AND pg_temp.same_acl('Cnt'), 'GRANT INSERT on two foreign tables reaches both');
SET LOCAL ROLE regress_fdwp_other;
SELECT lives_ok($$SELECT cfstore.insert('FdwPriv', 'Std', 'k', 'x', 'other', writetime => 9)$$, 'with INSERT: insert');
SELECT lives_ok($$SELECT cfstore.add('FdwPriv', 'Cnt', 'k', 'c', 2)$$, 'with INSERT: add');
SELECT lives_ok($$SELECT cfstore.batch_mutate('FdwPriv', '{"k": {"Std": [{"column": {"name": "y", "value": "v", "timestamp": 9}}]}}')$$,
                'with INSERT: batch_mutate');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('FdwPriv', 'Std', 'k')$$, '42501', NULL,
                 'with INSERT only: get_slice needs SELECT');
SELECT throws_ok($$SELECT cfstore.remove('FdwPriv', 'Std', 'k', 'x', writetime => 10)$$, '42501', NULL,
                 'with INSERT only: remove needs DELETE');
SET LOCAL ROLE regress_fdwp_owner;
SELECT is((SELECT string_agg(column_name || '=' || value, ',') FROM cfstore.get_slice('FdwPriv', 'Std', 'k')),
          'a=owner,x=other,y=v', 'the inserts of the other role happened');
SELECT is((SELECT value FROM cfstore.get('FdwPriv', 'Cnt', 'k', 'c')), '7', 'the add of the other role happened');
REVOKE INSERT ON "FdwPriv"."Std" FROM regress_fdwp_other;
SET LOCAL ROLE regress_fdwp_other;
SELECT throws_ok($$SELECT cfstore.insert('FdwPriv', 'Std', 'k', 'z', 'other', writetime => 9)$$, '42501', NULL,
                 'after REVOKE INSERT: insert is denied');
SELECT lives_ok($$SELECT cfstore.add('FdwPriv', 'Cnt', 'k', 'c', 1)$$, 'INSERT on Cnt is still granted');

-- DELETE and TRUNCATE
SET LOCAL ROLE regress_fdwp_owner;
GRANT DELETE, TRUNCATE ON "FdwPriv"."Std" TO regress_fdwp_other;
SET LOCAL ROLE regress_fdwp_other;
SELECT lives_ok($$SELECT cfstore.remove('FdwPriv', 'Std', 'k', 'y', writetime => 10)$$, 'with DELETE: remove');
SELECT lives_ok($$SELECT cfstore.truncate('FdwPriv', 'Std')$$, 'with TRUNCATE: truncate');
SET LOCAL ROLE regress_fdwp_owner;
SELECT is((SELECT count(*)::integer FROM cfstore.get_slice('FdwPriv', 'Std', 'k')), 0, 'the truncate happened');
SELECT lives_ok($$SELECT cfstore.insert('FdwPriv', 'Std', 'k', 'a', 'owner', writetime => 1)$$, 'owner writes again');
REVOKE ALL ON "FdwPriv"."Std", "FdwPriv"."Cnt" FROM regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std') AND pg_temp.same_acl('Cnt'), 'REVOKE ALL reaches both storage relations');

-- the other way round: a GRANT on the storage relation (as scripts did
-- before there were foreign tables) reaches the foreign table
DO $$ BEGIN EXECUTE format('GRANT SELECT ON %s TO regress_fdwp_other', cfstore._storage_relation('FdwPriv', 'Std')); END $$;
SELECT ok(pg_temp.same_acl('Std'), 'GRANT on the storage relation reaches the foreign table');
SET LOCAL ROLE regress_fdwp_other;
SELECT is((SELECT count(*)::integer FROM "FdwPriv"."Std"), 1, 'GRANT on the storage relation: the foreign table reads');
SET LOCAL ROLE regress_fdwp_owner;
DO $$ BEGIN EXECUTE format('REVOKE SELECT ON %s FROM regress_fdwp_other', cfstore._storage_relation('FdwPriv', 'Std')); END $$;
SET LOCAL ROLE regress_fdwp_other;
SELECT throws_ok($$SELECT * FROM "FdwPriv"."Std"$$, '42501', NULL, 'REVOKE on the storage relation: the foreign table is denied');

-- a member of the owning role grants as the owner
SET LOCAL ROLE regress_fdwp_member;
GRANT SELECT ON "FdwPriv"."Std" TO regress_fdwp_other WITH GRANT OPTION;
SELECT ok(pg_temp.same_acl('Std'), 'a member''s GRANT ... WITH GRANT OPTION reaches the storage relation');
SELECT ok(has_table_privilege('regress_fdwp_other', cfstore._storage_relation('FdwPriv', 'Std'), 'SELECT WITH GRANT OPTION'),
          'the grant option is there on the storage relation');
-- a grant option passes on, with the other role as grantor on both
SET LOCAL ROLE regress_fdwp_other;
GRANT SELECT ON "FdwPriv"."Std" TO regress_fdwp_importer;
SELECT ok(pg_temp.same_acl('Std'), 'a GRANT by a holder of the grant option reaches the storage relation');
SELECT ok((SELECT relacl::text FROM pg_class WHERE oid = cfstore._storage_relation('FdwPriv', 'Std'))
            LIKE '%regress_fdwp_importer=r/regress_fdwp_other%', 'with the same grantor');
SET LOCAL ROLE regress_fdwp_importer;
SELECT is((SELECT count(*)::integer FROM cfstore.get_slice('FdwPriv', 'Std', 'k')), 1, 'the grantee of the grantee reads by the API');
-- a REVOKE ... CASCADE takes both away everywhere
SET LOCAL ROLE regress_fdwp_owner;
REVOKE SELECT ON "FdwPriv"."Std" FROM regress_fdwp_other CASCADE;
SELECT ok(pg_temp.same_acl('Std'), 'REVOKE ... CASCADE reaches the storage relation');
SELECT ok(NOT has_table_privilege('regress_fdwp_importer', cfstore._storage_relation('FdwPriv', 'Std'), 'SELECT'),
          'the dependent grant is gone from the storage relation');

-- column privileges are the foreign table's alone: they do not open the API
GRANT SELECT (key, column_name) ON "FdwPriv"."Std" TO regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std'), 'a column GRANT leaves both table ACLs as they were');
SET LOCAL ROLE regress_fdwp_other;
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('FdwPriv', 'Std', 'k')$$, '42501', NULL,
                 'a column GRANT does not open get_slice');
SET LOCAL ROLE regress_fdwp_owner;
REVOKE SELECT (key, column_name) ON "FdwPriv"."Std" FROM regress_fdwp_other;

-- an imported copy belongs to the importer but reads nothing without the
-- column family's own privileges, and its grants stay on the copy
SET LOCAL ROLE regress_fdwp_importer;
CREATE SCHEMA fdwp_copies;
IMPORT FOREIGN SCHEMA "FdwPriv" FROM SERVER cfstore INTO fdwp_copies;
SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = 'fdwp_copies."Std"'::regclass),
          'regress_fdwp_importer', 'the importer owns the copy');
SELECT throws_ok($$SELECT * FROM fdwp_copies."Std"$$, '42501', 'permission denied for column family FdwPriv.Std',
                 'the owner of a copy cannot read the column family through it');
SELECT throws_ok($$SELECT * FROM fdwp_copies."Cnt"$$, '42501', 'permission denied for column family FdwPriv.Cnt',
                 'nor another column family');
GRANT USAGE ON SCHEMA fdwp_copies TO regress_fdwp_other;
SELECT lives_ok($$GRANT ALL ON fdwp_copies."Std" TO regress_fdwp_other$$, 'the owner of a copy may grant on the copy');
SELECT ok(pg_temp.same_acl('Std') AND NOT has_table_privilege('regress_fdwp_other',
            cfstore._storage_relation('FdwPriv', 'Std'), 'SELECT'), 'which does not reach the storage relation');
SET LOCAL ROLE regress_fdwp_other;
SELECT throws_ok($$SELECT * FROM fdwp_copies."Std"$$, '42501', 'permission denied for column family FdwPriv.Std',
                 'and the grantee of the copy cannot read through it');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('FdwPriv', 'Std', 'k')$$, '42501', NULL,
                 'nor by the API');
-- nor does a table with the column family's name in a schema of one's own
SET LOCAL ROLE regress_fdwp_importer;
DO $$ BEGIN PERFORM cfstore.create_keyspace('FdwMine'); END $$;
CREATE FOREIGN TABLE "FdwMine"."Std" (key text, column_name text, value text)
  SERVER cfstore OPTIONS (keyspace 'FdwPriv', column_family 'Std');
GRANT SELECT ON "FdwMine"."Std" TO regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std') AND NOT has_table_privilege('regress_fdwp_other',
            cfstore._storage_relation('FdwPriv', 'Std'), 'SELECT'), 'a look-alike in another schema reaches nothing');
SELECT is(cfstore._foreign_table('FdwPriv', 'Std')::text, '"FdwPriv"."Std"', 'the column family''s table is still the one');
-- and the canonical table's grants are not the copy owner's to give
SELECT throws_ok($$GRANT SELECT ON "FdwPriv"."Std" TO regress_fdwp_importer$$, '42501', NULL,
                 'the owner of a copy cannot grant on the column family''s table');
DROP FOREIGN TABLE "FdwMine"."Std";
DO $$ BEGIN PERFORM cfstore.drop_keyspace('FdwMine'); END $$;

-- the mirrored statement runs with the grantor's rights: the owner of a
-- canonical table that does not own the storage relation cannot grant on it
RESET ROLE;
ALTER FOREIGN TABLE "FdwPriv"."Std" OWNER TO regress_fdwp_importer;
SET LOCAL ROLE regress_fdwp_importer;
SELECT throws_ok($$GRANT SELECT ON "FdwPriv"."Std" TO regress_fdwp_other$$, '42501', NULL,
                 'a GRANT its grantor cannot make on the storage relation fails as a whole');
SELECT ok(NOT has_table_privilege('regress_fdwp_other', '"FdwPriv"."Std"', 'SELECT'), 'and changed neither table');
RESET ROLE;
ALTER FOREIGN TABLE "FdwPriv"."Std" OWNER TO regress_fdwp_owner;

-- GRANT on every table of the keyspace's schema reaches every column family
SET LOCAL ROLE regress_fdwp_owner;
GRANT SELECT ON ALL TABLES IN SCHEMA "FdwPriv" TO regress_fdwp_other;
SELECT ok(pg_temp.same_acl('Std') AND pg_temp.same_acl('Cnt'), 'GRANT ... ON ALL TABLES IN SCHEMA reaches every storage relation');
SET LOCAL ROLE regress_fdwp_other;
SELECT is((SELECT value FROM cfstore.get('FdwPriv', 'Cnt', 'k', 'c')), '8', 'and opens the API on each');
SELECT is((SELECT value FROM "FdwPriv"."Cnt"), 8::bigint, 'and the foreign tables');

-- a CQL3 table's foreign table is made again when cql() changes its
-- columns: the grants made on it stay, on it and on the storage relation
SET LOCAL ROLE regress_fdwp_owner;
SELECT cfstore.cql('CREATE TABLE tl (u text, t int, body text, PRIMARY KEY (u, t))', 'FdwPriv');
SELECT cfstore.cql($c$INSERT INTO tl (u, t, body) VALUES ('a', 1, 'one')$c$, 'FdwPriv');
GRANT SELECT ON "FdwPriv".tl TO regress_fdwp_other;
SELECT cfstore.cql('ALTER TABLE tl ADD n int', 'FdwPriv');
SELECT ok(has_table_privilege('regress_fdwp_other', '"FdwPriv".tl', 'SELECT') AND pg_temp.same_acl('tl'),
          'cql ALTER TABLE ADD keeps the grants on the table');
SELECT cfstore.cql('ALTER TABLE tl RENAME t TO ts', 'FdwPriv');
SELECT cfstore.cql('CREATE INDEX tl_n ON tl (n)', 'FdwPriv');
SELECT ok(has_table_privilege('regress_fdwp_other', '"FdwPriv".tl', 'SELECT') AND pg_temp.same_acl('tl'),
          'and RENAME and CREATE INDEX keep them');
SELECT ok(NOT has_table_privilege('regress_fdwp_other', '"FdwPriv".tl', 'INSERT'), 'and give nothing more');
SELECT is((SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute
            WHERE attrelid = '"FdwPriv".tl'::regclass AND attnum > 0 AND NOT attisdropped),
          'u,ts,body,n', 'the table has the columns cql() gave it');
SET LOCAL ROLE regress_fdwp_other;
SELECT is((SELECT format('%s/%s/%s', u, ts, body) FROM "FdwPriv".tl), 'a/1/one', 'the grantee reads the table');
SELECT is((SELECT r ->> 'body' FROM cfstore.cql($c$SELECT body FROM tl WHERE u = 'a'$c$, 'FdwPriv') r), 'one',
          'and cql()');

-- unrelated GRANTs go on as before
RESET ROLE;
SELECT lives_ok($$REVOKE USAGE ON SCHEMA fdwp_copies FROM regress_fdwp_other$$, 'REVOKE on a schema');
SELECT lives_ok($$GRANT EXECUTE ON FUNCTION pg_temp.same_acl(text) TO regress_fdwp_other$$, 'GRANT on a function');
CREATE TABLE pg_temp.plain (x integer);
SELECT lives_ok($$GRANT SELECT ON pg_temp.plain TO regress_fdwp_other$$, 'GRANT on a plain table');
SELECT lives_ok($$REVOKE ALL ON pg_temp.plain FROM regress_fdwp_other$$, 'REVOKE on a plain table');
SELECT lives_ok($$GRANT SELECT ON fdwp_copies."Cnt" TO regress_fdwp_other$$, 'GRANT on a copy, by a superuser');
SELECT ok(pg_temp.same_acl('Cnt'), 'which leaves the column family''s privileges alone');
SELECT lives_ok($$SELECT cfstore.verify('FdwPriv', 'Std'), cfstore.verify('FdwPriv', 'Cnt')$$,
                'the column families written here verify');

SELECT * FROM finish();
ROLLBACK;
