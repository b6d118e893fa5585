-- Security: what ordinary roles can and cannot do to keyspaces that are not
-- theirs, to the catalog and to the server.
--
--   alice    owns keyspace SecA (CREATE on the database)
--   member   a member of alice's role, who acts as alice
--   bob      no grants at all, but owns a schema "SecBob"
--   carol    SELECT on SecA.Std only (granted on its foreign table)
--   mallory  CREATE on the database only; owns keyspace SecM
--
-- The catalog tables are written by the DDL functions alone, which run as
-- the extension's owner and check their caller; internal functions are
-- not executable by PUBLIC; storage relations cannot change shape, not
-- even by their owner.  Every refused attempt is 42501 unless noted.
BEGIN;
SELECT plan(123);

CREATE ROLE regress_sec_alice;
CREATE ROLE regress_sec_member IN ROLE regress_sec_alice;
CREATE ROLE regress_sec_bob;
CREATE ROLE regress_sec_carol;
CREATE ROLE regress_sec_mallory;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_sec_alice, regress_sec_mallory',
                           current_database()); END $$;
CREATE SCHEMA "SecBob" AUTHORIZATION regress_sec_bob;
CREATE SCHEMA sec_funcs;
GRANT CREATE, USAGE ON SCHEMA sec_funcs TO PUBLIC;

SET LOCAL ROLE regress_sec_alice;
DO $$
BEGIN
  PERFORM cfstore.create_keyspace('SecA');
  PERFORM cfstore.create_column_family('SecA', 'Std', comparator => 'UTF8Type',
            key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
            column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
  PERFORM cfstore.create_column_family('SecA', 'Long', comparator => 'LongType');
  PERFORM cfstore.insert('SecA', 'Std', 'k1', 'state', 'UT', writetime => 1);
  PERFORM cfstore.insert('SecA', 'Std', 'k1', 'name', 'alice', writetime => 1);
  PERFORM cfstore.insert('SecA', 'Long', 'k1', 1, 'one', writetime => 1);
  EXECUTE 'GRANT SELECT ON "SecA"."Std" TO regress_sec_carol';
END $$;
SET LOCAL ROLE regress_sec_mallory;
DO $$
BEGIN
  PERFORM cfstore.create_keyspace('SecM');
  PERFORM cfstore.create_column_family('SecM', 'Mine', comparator => 'UTF8Type',
            key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
END $$;
RESET ROLE;

CREATE FUNCTION pg_temp.cf_id(ks text, cf text) RETURNS integer LANGUAGE sql AS $$
  SELECT id FROM cfstore.column_family WHERE keyspace = ks AND name = cf
$$;
CREATE FUNCTION pg_temp.index_id(ks text, cf text) RETURNS integer LANGUAGE sql AS $$
  SELECT d.index_id FROM cfstore.column_definition d
    JOIN cfstore.column_family c ON c.id = d.column_family_id
   WHERE c.keyspace = ks AND c.name = cf AND d.index_id IS NOT NULL
$$;
GRANT EXECUTE ON FUNCTION pg_temp.cf_id(text, text), pg_temp.index_id(text, text) TO PUBLIC;
-- the cells of a column family, as its owner sees them
CREATE FUNCTION pg_temp.cells(ks text, cf text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(key || '/' || column_name || '=' || value, ',' ORDER BY key, column_name)
    FROM cfstore.get_range_slices(ks, cf)
$$;

-- 1. The catalog: readable by everyone, written by the DDL functions only.
SET LOCAL ROLE regress_sec_bob;
SELECT throws_ok($$INSERT INTO cfstore.keyspace VALUES ('SecBob', 'org.apache.cassandra.locator.SimpleStrategy', '{}')$$,
                 '42501', NULL, 'bob: no keyspace by INSERT for a schema he owns');
SELECT throws_ok($$SELECT cfstore.create_keyspace('SecBob2')$$, '42501', NULL,
                 'bob: create_keyspace needs CREATE on the database');
SELECT throws_ok($$SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="SecBob3"><ColumnFamily Name="C"/></Keyspace>')$$,
                 '42501', NULL, 'bob: load_storage_conf, which calls create_keyspace, needs it too');
SELECT is((SELECT count(*)::integer FROM cfstore.keyspace WHERE name LIKE 'SecBob%'), 0, 'bob: no keyspace of his');
SELECT is((SELECT count(*)::integer FROM cfstore.column_family WHERE keyspace = 'SecA'), 2,
          'bob: reads the catalog');
SELECT is(cfstore.describe_keyspace('SecA') ->> 'name', 'SecA', 'bob: describe_keyspace');

SET LOCAL ROLE regress_sec_mallory;
SELECT throws_ok(format($$INSERT INTO cfstore.column_definition VALUES (%s, '\x6e', 'org.apache.cassandra.db.marshal.UTF8Type', 'KEYS', 'sneaky_idx', %s)$$,
                        pg_temp.cf_id('SecM', 'Mine'), pg_temp.cf_id('SecA', 'Long')),
                 '42501', NULL, 'mallory: no index of her column family whose storage is alice''s');
SELECT throws_ok(format($$UPDATE cfstore.column_definition SET index_id = %s$$, pg_temp.cf_id('SecA', 'Long')),
                 '42501', NULL, 'mallory: no index_id by UPDATE');
SELECT throws_ok($$UPDATE cfstore.column_family SET comment = 'mine' WHERE keyspace = 'SecM'$$,
                 '42501', NULL, 'mallory: not even her own rows by UPDATE');
SELECT throws_ok($$DELETE FROM cfstore.column_family WHERE keyspace = 'SecA'$$, '42501', NULL, 'mallory: no DELETE');
SELECT throws_ok($$TRUNCATE cfstore.column_definition$$, '42501', NULL, 'mallory: no TRUNCATE');
SELECT throws_ok($$SELECT nextval('cfstore.column_family_id_seq')$$, '42501', NULL, 'mallory: no ids drawn');
SELECT throws_ok($$SELECT cfstore.drop_keyspace('SecA')$$, '42501', NULL, 'mallory: drop_keyspace of alice''s');
SELECT throws_ok($$SELECT cfstore.drop_column_family('SecA', 'Std')$$, '42501', NULL, 'mallory: drop_column_family');
SELECT throws_ok($$SELECT cfstore.update_column_family('SecA', 'Std', comment => 'mine')$$, '42501', NULL,
                 'mallory: update_column_family');
SELECT throws_ok($$SELECT cfstore.create_column_family('SecA', 'Hers')$$, '42501', NULL, 'mallory: create_column_family');
SELECT throws_ok($$SELECT cfstore.truncate('SecA', 'Std')$$, '42501', NULL, 'mallory: truncate');
SELECT lives_ok($$SELECT cfstore.insert('SecM', 'Mine', 'k', 'n', 'v')$$, 'mallory: writes her own column family');

SET LOCAL ROLE regress_sec_alice;
SELECT throws_ok($$DELETE FROM cfstore.keyspace WHERE name = 'SecA'$$, '42501', NULL,
                 'alice: no direct writes to her own keyspace either');
SELECT is(pg_temp.cells('SecA', 'Long'), 'k1/1=one', 'alice: her LongType row is intact');
SELECT is(pg_temp.cells('SecA', 'Std'), 'k1/name=alice,k1/state=UT', 'alice: her Standard row is intact');
RESET ROLE;

-- 2. Internal functions: the extension's owner's alone.
SET LOCAL ROLE regress_sec_bob;
SELECT throws_ok(format('SELECT cfstore._index_build(%s)', pg_temp.index_id('SecA', 'Std')), '42501', NULL,
                 'bob: _index_build');
SELECT throws_ok(format('SELECT cfstore._index_truncate(%s)', pg_temp.cf_id('SecA', 'Std')), '42501', NULL, 'bob: _index_truncate');
SELECT throws_ok('SELECT cfstore._storage_create(999999)', '42501', NULL, 'bob: _storage_create');
SELECT throws_ok(format('SELECT cfstore._foreign_table_create(%s)', pg_temp.cf_id('SecA', 'Std')), '42501', NULL,
                 'bob: _foreign_table_create');
SELECT throws_ok(format('SELECT cfstore._foreign_table_alter(%s)', pg_temp.cf_id('SecA', 'Std')), '42501', NULL,
                 'bob: _foreign_table_alter');
SELECT throws_ok(format('SELECT cfstore._index_sync(%s, ''{}'')', pg_temp.cf_id('SecA', 'Std')), '42501', NULL,
                 'bob: _index_sync');
SELECT throws_ok($$SELECT cfstore._as_caller('DROP SCHEMA "SecA" CASCADE')$$, '42501', NULL, 'bob: _as_caller');
SELECT throws_ok($$SELECT cfstore._caller()$$, '42501', NULL, 'bob: _caller');
SELECT throws_ok($$SELECT cfstore._ddl_drop_keyspace('SecA')$$, '42501', NULL, 'bob: a DDL function''s body');
SELECT throws_ok($$SELECT cfstore._lock_catalog()$$, '42501', NULL, 'bob: _lock_catalog');
SELECT throws_ok($$SELECT cfstore._column_definitions(NULL, 'x', 'Standard', 'org.apache.cassandra.db.marshal.BytesType', NULL, 'org.apache.cassandra.db.marshal.BytesType', NULL)$$,
                 '42501', NULL, 'bob: _column_definitions');
RESET ROLE;

-- What PUBLIC may execute among the internal functions: the ones functions
-- running as their caller need, which write nothing.
SELECT is(ARRAY(SELECT DISTINCT p.proname::text COLLATE "C" FROM pg_proc p
                 WHERE p.pronamespace = 'cfstore'::regnamespace AND p.proname LIKE '\_%'
                   AND has_function_privilege('public', p.oid, 'EXECUTE')
                 ORDER BY 1),
          ARRAY['_arg_bytes', '_arg_bytes_array', '_batch_check_name', '_batch_delete_range', '_batch_int',
                '_batch_members', '_batch_mutation', '_batch_shape_error', '_batch_text', '_cf_def',
                '_check_cache_size', '_check_keyspace_exists', '_column_family_info', '_cql_define', '_error',
                '_foreign_table', '_foreign_table_ddl', '_grant_reader', '_ks_def', '_read_row_keys',
                '_read_slice', '_remove_range', '_storage_conf_type', '_storage_relation', '_strategy_class', '_thrift_bytes',
                '_type_components'],
          'the internal functions PUBLIC may execute');
SELECT is(ARRAY(SELECT p.proname::text FROM pg_proc p
                 WHERE p.pronamespace = 'cfstore'::regnamespace AND p.proname LIKE '\_ddl\_%'
                   AND p.prosecdef AND p.proowner = (SELECT extowner FROM pg_extension WHERE extname = 'cfstore')
                   AND p.proconfig @> ARRAY['search_path=pg_catalog, pg_temp']
                 ORDER BY p.proname::text COLLATE "C"),
          ARRAY['_ddl__cql_define', '_ddl_create_column_family', '_ddl_create_keyspace', '_ddl_drop_column_family',
                '_ddl_drop_keyspace', '_ddl_truncate', '_ddl_update_column_family', '_ddl_update_keyspace'],
          'every DDL body is SECURITY DEFINER, the extension owner''s, with a pinned search_path');
SELECT is((SELECT count(*)::integer FROM information_schema.role_table_grants
            WHERE table_schema = 'cfstore' AND grantee = 'PUBLIC' AND privilege_type <> 'SELECT'), 0,
          'PUBLIC may only read the catalog tables');

-- CQL3 and the cli act as their caller: another role's keyspace stays out
-- of reach through them, and through the byte-level reads they use.
SET LOCAL ROLE regress_sec_mallory;
SELECT throws_ok($$SELECT * FROM cfstore._read_slice('SecA', 'Std', NULL, 'k1'::bytea, NULL, NULL, NULL, false, 100, false)$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: _read_slice');
SELECT throws_ok($$SELECT * FROM cfstore._read_row_keys('SecA', 'Std', NULL, true, 10)$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: _read_row_keys');
SELECT throws_ok($$SELECT cfstore._remove_range('SecA', 'Std', 'k1', 'a', 'z')$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: _remove_range');
SET LOCAL client_min_messages = error;
SELECT throws_ok($$SELECT cfstore._grant_reader('SecA', 'Std', 'regress_sec_mallory')$$, '42501', NULL,
                 'mallory: _grant_reader runs her GRANTs, which PostgreSQL refuses');
RESET client_min_messages;
SELECT ok(NOT has_table_privilege('regress_sec_mallory', cfstore._storage_relation('SecA', 'Std'), 'SELECT')
          AND NOT has_schema_privilege('regress_sec_mallory', 'SecA', 'CREATE'),
          'which grant her nothing on alice''s column family');
SELECT throws_ok($$SELECT cfstore.cql('SELECT * FROM "Std"', 'SecA')$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: cql SELECT');
SELECT throws_ok($$SELECT cfstore.cql($c$SELECT * FROM "Std" WHERE state = ''$c$, 'SecA')$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: cql SELECT of an empty indexed value');
SELECT throws_ok($$SELECT cfstore.cql($c$INSERT INTO "Std" (key, state) VALUES ('k9', 'x')$c$, 'SecA')$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: cql INSERT');
SELECT throws_ok($$SELECT cfstore.cql('DROP TABLE "Std"', 'SecA')$$,
                 '42501', 'must be owner of keyspace SecA', 'mallory: cql DROP TABLE');
SELECT throws_ok($$SELECT cfstore.cql('ALTER TABLE "Std" ADD x int', 'SecA')$$,
                 '42501', 'must be owner of keyspace SecA', 'mallory: cql ALTER TABLE');
SELECT throws_ok($$SELECT cfstore._cql_define('SecA', 'Std', '{k}', '{}', NULL, '[]')$$,
                 '42501', 'must be owner of keyspace SecA', 'mallory: _cql_define');
SELECT throws_ok($$SELECT cfstore.cli('use SecA; list Std;')$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: cli list');
SELECT throws_ok($$SELECT cfstore.cli('use SecA; set Std[k9][state] = ''x'';')$$,
                 '42501', 'permission denied for column family SecA.Std', 'mallory: cli set');
SET LOCAL ROLE regress_sec_carol;
SELECT lives_ok($$SELECT cfstore.cql('SELECT * FROM "Std"', 'SecA')$$, 'carol (SELECT granted): cql SELECT');
RESET ROLE;

-- 3. Storage relations keep their shape, whoever asks.
SET LOCAL ROLE regress_sec_alice;
CREATE TABLE sec_funcs.parted (key bytea, super_column bytea, column_name bytea, value bytea,
                               writetime bigint, ttl integer, expires_at integer) PARTITION BY LIST (key);
CREATE TABLE sec_funcs.lookalike (key bytea, super_column bytea, column_name bytea, value bytea,
                                  writetime bigint, ttl integer, expires_at integer);
CREATE FUNCTION sec_funcs.noop() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END $$;
CREATE FUNCTION pg_temp.storage_ddl(template text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(template, cfstore._storage_relation('SecA', 'Std'));
END $$;
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ADD COLUMN extra text')$$, '42501', NULL, 'owner: ADD COLUMN');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s DROP COLUMN ttl')$$, '42501', NULL, 'owner: DROP COLUMN');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s RENAME COLUMN value TO v')$$, '42501', NULL, 'owner: RENAME COLUMN');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ALTER COLUMN ttl TYPE bigint')$$, '42501', NULL, 'owner: ALTER COLUMN TYPE');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ALTER COLUMN writetime SET DEFAULT 0')$$, '42501', NULL, 'owner: SET DEFAULT');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ADD CHECK (ttl > 0)')$$, '42501', NULL, 'owner: ADD CONSTRAINT');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s RENAME TO elsewhere')$$, '42501', NULL, 'owner: RENAME');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER INDEX %s RENAME TO elsewhere')$$, '42501', NULL, 'owner: ALTER INDEX ... RENAME on the table');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s SET SCHEMA sec_funcs')$$, '42501', NULL, 'owner: SET SCHEMA');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s SET ACCESS METHOD heap')$$, '42501', NULL, 'owner: SET ACCESS METHOD');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s SET UNLOGGED')$$, '42501', NULL, 'owner: SET UNLOGGED');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ENABLE ROW LEVEL SECURITY')$$, '42501', NULL, 'owner: ENABLE ROW LEVEL SECURITY');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s REPLICA IDENTITY FULL')$$, '42501', NULL, 'owner: REPLICA IDENTITY');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s INHERIT sec_funcs.lookalike')$$, '42501', NULL, 'owner: INHERIT');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE sec_funcs.lookalike INHERIT %s')$$, '42501', NULL, 'owner: a table inheriting from it');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE TABLE sec_funcs.child () INHERITS (%s)')$$, '42501', NULL, 'owner: CREATE TABLE ... INHERITS');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE sec_funcs.parted ATTACH PARTITION %s FOR VALUES IN (''\x00'')')$$, '42501', NULL,
                 'owner: ATTACH PARTITION');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE TRIGGER t BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION sec_funcs.noop()')$$,
                 '42501', NULL, 'owner: CREATE TRIGGER');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE RULE "_RETURN" AS ON SELECT TO %s DO INSTEAD SELECT * FROM sec_funcs.lookalike')$$,
                 '42501', NULL, 'owner: CREATE RULE (a view in its place)');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE POLICY p ON %s USING (true)')$$, '42501', NULL, 'owner: CREATE POLICY');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE INDEX ON %s (key)')$$, '0A000', NULL, 'owner: CREATE INDEX (not supported)');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('DROP TABLE %s')$$, '42501', NULL, 'owner: DROP TABLE');
SELECT lives_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s SET (autovacuum_vacuum_scale_factor = 0.05)')$$, 'owner: storage parameters');
SELECT lives_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ALTER COLUMN value SET STATISTICS 50')$$, 'owner: column statistics');
SELECT lives_ok($$SELECT pg_temp.storage_ddl('COMMENT ON TABLE %s IS ''states''')$$, 'owner: COMMENT');
SELECT lives_ok($$SELECT pg_temp.storage_ddl('ANALYZE %s')$$, 'owner: ANALYZE');
RESET ROLE;
SELECT throws_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s ADD COLUMN extra text')$$, '42501', NULL, 'superuser: ADD COLUMN');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('DROP TABLE %s')$$, '42501', NULL, 'superuser: DROP TABLE');
SELECT lives_ok($$SELECT pg_temp.storage_ddl('ALTER TABLE %s OWNER TO regress_sec_alice')$$, 'superuser: OWNER TO (as pg_dump writes it)');
SELECT is((SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)
             FROM pg_attribute WHERE attrelid = cfstore._storage_relation('SecA', 'Std') AND attnum > 0),
          'key bytea, super_column bytea, column_name bytea, value bytea, writetime bigint, ttl integer, expires_at integer',
          'the storage relation kept its columns');
SET LOCAL ROLE regress_sec_alice;
SELECT is(pg_temp.cells('SecA', 'Std'), 'k1/name=alice,k1/state=UT', 'and its cells');
SELECT is((SELECT string_agg(DISTINCT key, ',') FROM cfstore.get_indexed_slices('SecA', 'Std',
             '[{"column_name": "state", "op": "EQ", "value": "UT"}]')), 'k1', 'and its index');
RESET ROLE;

-- 4. DDL acts for the role that calls it, not for the session's role.
SET LOCAL ROLE regress_sec_mallory;
CREATE FUNCTION sec_funcs.mallory_drop() RETURNS void LANGUAGE sql SECURITY DEFINER
  AS $$ SELECT cfstore.drop_keyspace('SecA') $$;
GRANT EXECUTE ON FUNCTION sec_funcs.mallory_drop() TO regress_sec_alice;
SET LOCAL ROLE regress_sec_alice;
SELECT throws_ok($$SELECT sec_funcs.mallory_drop()$$, '42501', NULL,
                 'mallory''s SECURITY DEFINER function called by alice cannot drop alice''s keyspace');
CREATE FUNCTION sec_funcs.alice_make(cf text) RETURNS void LANGUAGE sql SECURITY DEFINER
  AS $$ SELECT cfstore.create_column_family('SecA', cf) $$;
GRANT EXECUTE ON FUNCTION sec_funcs.alice_make(text) TO regress_sec_carol;
SET LOCAL ROLE regress_sec_carol;
SELECT lives_ok($$SELECT sec_funcs.alice_make('MadeForCarol')$$,
                'alice''s SECURITY DEFINER function called by carol creates a column family as alice');
SELECT throws_ok($$SELECT cfstore.create_column_family('SecA', 'ByCarol')$$, '42501', NULL,
                 'carol cannot herself');
RESET ROLE;
SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = cfstore._storage_relation('SecA', 'MadeForCarol')),
          'regress_sec_alice', 'its storage relation is alice''s');

-- 5. Data: carol reads the one column family granted to her, nothing more.
SET LOCAL ROLE regress_sec_carol;
SELECT is(pg_temp.cells('SecA', 'Std'), 'k1/name=alice,k1/state=UT', 'carol: get_range_slices of SecA.Std');
SELECT is((SELECT count(*)::integer FROM "SecA"."Std"), 2, 'carol: the foreign table');
SELECT throws_ok($$SELECT cfstore.insert('SecA', 'Std', 'k1', 'name', 'carol')$$, '42501', NULL, 'carol: no insert');
SELECT throws_ok($$SELECT cfstore.remove('SecA', 'Std', 'k1')$$, '42501', NULL, 'carol: no remove');
SELECT throws_ok($$SELECT cfstore._remove_range('SecA', 'Std', 'k1', NULL, NULL)$$, '42501', NULL,
                 'carol: no range deletion');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('SecA', 'Long', 'k1')$$, '42501', NULL, 'carol: nothing of SecA.Long');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('SecM', 'Mine', 'k')$$, '42501', NULL, 'carol: nothing of mallory''s');
SELECT throws_ok($$SELECT cfstore.truncate('SecA', 'Std')$$, '42501', NULL, 'carol: no truncate');
SELECT throws_ok(format('SELECT * FROM %s', cfstore._storage_relation('SecA', 'Long')), '42501', NULL,
                 'carol: nor the storage relation');
SET LOCAL ROLE regress_sec_bob;
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('SecA', 'Std', 'k1')$$, '42501', NULL, 'bob: reads nothing');
SELECT throws_ok($$SELECT cfstore.insert('SecA', 'Std', 'k2', 'state', 'UT')$$, '42501', NULL, 'bob: writes nothing');
SELECT throws_ok($$SELECT * FROM "SecA"."Std"$$, '42501', NULL, 'bob: not through the foreign table either');
SELECT throws_ok($$SELECT * FROM cfstore.get_indexed_slices('SecA', 'Std', '[{"column_name": "state", "op": "EQ", "value": "UT"}]')$$,
                 '42501', NULL, 'bob: nor through its index');
SELECT throws_ok($$SELECT cfstore.verify('SecA', 'Std')$$, '42501', NULL, 'bob: verify needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.stats('SecA', 'Std')$$, '42501', NULL, 'bob: stats needs SELECT');
IMPORT FOREIGN SCHEMA "SecA" LIMIT TO ("Std") FROM SERVER cfstore INTO "SecBob";
SELECT throws_ok($$SELECT * FROM "SecBob"."Std"$$, '42501', NULL, 'bob: his imported copy of SecA.Std reads nothing');
RESET ROLE;

-- 6. What the owner (and a member of the owning role) still does.
SET LOCAL ROLE regress_sec_member;
SELECT lives_ok($$SELECT cfstore.update_column_family('SecA', 'Long', comment => 'by a member')$$, 'member: update_column_family');
SELECT lives_ok($$SELECT cfstore.create_column_family('SecA', 'ByMember')$$, 'member: create_column_family');
RESET ROLE;
SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = cfstore._storage_relation('SecA', 'ByMember')),
          'regress_sec_alice', 'member: the storage relation is the keyspace owner''s');
SELECT is((SELECT relowner::regrole::text FROM pg_class WHERE oid = cfstore._foreign_table('SecA', 'ByMember')),
          'regress_sec_alice', 'member: and so is the foreign table');
-- 5. A role's objects on its search_path do not answer cfstore's catalog
-- queries, whose answers the backend caches for everyone's later calls.
SET LOCAL ROLE regress_sec_mallory;
CREATE SCHEMA sec_poison;
CREATE FUNCTION sec_poison.eq(a text, b text) RETURNS boolean LANGUAGE sql AS $$
  SELECT CASE WHEN b OPERATOR(pg_catalog.=) 'SecA' THEN a OPERATOR(pg_catalog.=) 'SecM'
              WHEN b OPERATOR(pg_catalog.=) 'Std' THEN a OPERATOR(pg_catalog.=) 'Mine'
              ELSE a OPERATOR(pg_catalog.=) b END $$;
CREATE OPERATOR sec_poison.= (LEFTARG = text, RIGHTARG = text, FUNCTION = sec_poison.eq);
-- a catalog change empties the cache, so the next lookup reads the catalog
SELECT cfstore.create_column_family('SecM', 'Fresh');
SET LOCAL search_path = sec_poison, pg_catalog, public;
SELECT is((SELECT id FROM cfstore._column_family_info('SecA', 'Std')),
          (SELECT id FROM cfstore.column_family WHERE keyspace OPERATOR(pg_catalog.=) 'SecA'
              AND name OPERATOR(pg_catalog.=) 'Std'),
          'mallory: her = operator on her search_path does not answer the lookup of SecA.Std');
RESET search_path;
SET LOCAL ROLE regress_sec_alice;
SELECT cfstore.insert('SecA', 'Std', 'k9', 'audit', 'alice-private', writetime => 1);
SELECT is(pg_temp.cells('SecA', 'Std'), 'k1/name=alice,k1/state=UT,k9/audit=alice-private',
          'alice: her write lands in her column family');
SET LOCAL ROLE regress_sec_mallory;
SELECT is(pg_temp.cells('SecM', 'Mine'), 'k/n=v', 'mallory: and not in hers');
-- the schema of a keyspace is dropped and renamed by drop_keyspace only (else
-- a schema of the same name, made by anyone, would own the keyspace)
SET LOCAL ROLE regress_sec_alice;
SELECT throws_ok($$DROP SCHEMA "SecA" CASCADE$$, '2BP01', 'cannot drop schema "SecA": it is cfstore keyspace SecA',
                 'alice: DROP SCHEMA of her keyspace');
SELECT throws_ok($$ALTER SCHEMA "SecA" RENAME TO "SecA2"$$, '2BP01', 'cannot rename schema "SecA": it is cfstore keyspace SecA',
                 'alice: ALTER SCHEMA ... RENAME');
RESET ROLE;
SELECT throws_ok($$DROP OWNED BY regress_sec_alice$$, '2BP01', 'role "regress_sec_alice" owns keyspace SecA',
                 'superuser: DROP OWNED BY a keyspace owner');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE FOREIGN TABLE sec_funcs.fchild () INHERITS (%s) SERVER cfstore')$$,
                 '42501', NULL, 'superuser: CREATE FOREIGN TABLE ... INHERITS');
SELECT throws_ok($$SELECT pg_temp.storage_ddl('CREATE PUBLICATION sec_pub FOR TABLE %s')$$, '0A000', NULL,
                 'superuser: a publication of a storage relation');

SET LOCAL ROLE regress_sec_alice;
SELECT lives_ok($$SELECT cfstore.update_column_family('SecA', 'Std', column_metadata =>
                  '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"},
                    {"column_name": "name", "validation_class": "UTF8Type", "index_type": "KEYS"}]')$$,
                'alice: a new index, built from the data');
SELECT is((SELECT string_agg(DISTINCT key, ',') FROM cfstore.get_indexed_slices('SecA', 'Std',
             '[{"column_name": "name", "op": "EQ", "value": "alice"}]')), 'k1', 'alice: the new index finds her row');
SELECT lives_ok($$SELECT cfstore.truncate('SecA', 'Std')$$, 'alice: truncate');
SELECT is((SELECT count(*)::integer FROM cfstore.get_indexed_slices('SecA', 'Std',
             '[{"column_name": "state", "op": "EQ", "value": "UT"}]')), 0, 'alice: truncate emptied the index');
-- a column family whose foreign table cannot be made leaves nothing behind
CREATE TABLE "SecA"."Clash" (a int);
SELECT throws_ok($$SELECT cfstore.create_column_family('SecA', 'Clash')$$, '42P07', NULL,
                 'alice: a column family whose name is taken in the schema');
SELECT is((SELECT count(*)::integer FROM cfstore.column_family WHERE keyspace = 'SecA' AND name = 'Clash'), 0,
          'alice: and no catalog row is left');
DROP TABLE "SecA"."Clash";
SELECT lives_ok($$SELECT cfstore.drop_column_family('SecA', 'Long')$$, 'alice: drop_column_family');
SELECT lives_ok($$SELECT cfstore.drop_keyspace('SecA')$$, 'alice: drop_keyspace');
SELECT is((SELECT count(*)::integer FROM pg_class WHERE relnamespace = 'cfstore_data'::regnamespace
            AND obj_description(oid, 'pg_class') LIKE '%SecA.%'), 0, 'alice: no storage relation of SecA is left');
SELECT is((SELECT count(*)::integer FROM pg_namespace WHERE nspname = 'SecA'), 0, 'alice: nor its schema');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
