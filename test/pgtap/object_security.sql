-- Security of the object functions (put_object, get_object, remove_object,
-- find_objects, the object column of a foreign table): they read and write
-- as their caller, with the column family's privileges, and no document or
-- cell, however made, crashes the server.
--
--   alice    owns keyspace ObjA
--   carol    SELECT on ObjA.docs only
--   mallory  CREATE on the database only; owns keyspace ObjM
BEGIN;
SELECT plan(26);

CREATE ROLE regress_obj_alice;
CREATE ROLE regress_obj_carol;
CREATE ROLE regress_obj_mallory;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_obj_alice, regress_obj_mallory',
                           current_database()); END $$;

SET LOCAL ROLE regress_obj_alice;
SELECT cfstore.create_keyspace('ObjA');
SELECT cfstore.create_column_family('ObjA', 'docs', comparator => 'CompositeType(Int32Type, UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ObjA', 'fresh', comparator => 'CompositeType(UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT lives_ok($$SELECT cfstore.put_object('ObjA', 'docs', '{"k": "a", "n": 1, "secret": "s3"}', '{k,n}')$$,
                'alice: put_object in her keyspace');
GRANT USAGE ON SCHEMA "ObjA" TO regress_obj_carol, regress_obj_mallory;
GRANT SELECT ON "ObjA".docs TO regress_obj_carol;
GRANT SELECT, INSERT, DELETE ON "ObjA".fresh TO regress_obj_mallory;
RESET ROLE;

SET LOCAL ROLE regress_obj_carol;
SELECT is(cfstore.get_object('ObjA', 'docs', '{"k": "a", "n": 1}') ->> 'secret', 's3', 'carol: get_object with SELECT');
SELECT is((SELECT count(*)::int FROM cfstore.find_objects('ObjA', 'docs', '{"secret": "s3"}')), 1,
          'carol: find_objects with SELECT');
SELECT throws_ok($$SELECT cfstore.put_object('ObjA', 'docs', '{"k": "a", "n": 1, "secret": "x"}', '{k,n}')$$,
                 '42501', NULL, 'carol: no put_object without INSERT');
SELECT throws_ok($$SELECT cfstore.remove_object('ObjA', 'docs', '{"k": "a", "n": 1}')$$,
                 '42501', NULL, 'carol: no remove_object without DELETE');
SELECT throws_ok($$SELECT cfstore.remove_object('ObjA', 'docs', '{"k": "a", "n": 1}', '{secret}')$$,
                 '42501', NULL, 'carol: no remove_object of a path without DELETE');
RESET ROLE;

SET LOCAL ROLE regress_obj_mallory;
SELECT throws_ok($$SELECT cfstore.get_object('ObjA', 'docs', '{"k": "a", "n": 1}')$$, '42501', NULL,
                 'mallory: no get_object without SELECT');
SELECT throws_ok($$SELECT cfstore.find_objects('ObjA', 'docs', '{"secret": "s3"}')$$, '42501', NULL,
                 'mallory: no find_objects without SELECT');
SELECT throws_ok($$SELECT cfstore.put_object('ObjA', 'docs', '{"k": "a", "n": 1, "secret": "x"}', '{k,n}')$$,
                 '42501', NULL, 'mallory: no put_object without privileges');
SELECT throws_ok($$SELECT cfstore.remove_object('ObjA', 'docs', '{"k": "a", "n": 1}')$$, '42501', NULL,
                 'mallory: no remove_object without privileges');
SELECT throws_ok($$SELECT cfstore.put_object('ObjA', 'fresh', '{"k": "a", "x": 1}', '{k}')$$, '42501',
                 'column family fresh has no primary key for objects',
                 'mallory: a writer cannot declare the primary key of another''s column family');
SELECT is((SELECT key_aliases FROM cfstore.column_family WHERE keyspace = 'ObjA' AND name = 'fresh'), NULL,
          'mallory: and it stays undeclared');
SELECT throws_ok($$CREATE FOREIGN TABLE "ObjA".peek ("k" text, "n" int, doc jsonb) SERVER cfstore
                   OPTIONS (keyspace 'ObjA', column_family 'docs', rows 'cql', object_column 'doc')$$,
                 '42501', NULL, 'mallory: no foreign table in alice''s schema');

-- mallory's own keyspace: cells no put_object would write, read as objects
SELECT cfstore.create_keyspace('ObjM');
SELECT cfstore.create_column_family('ObjM', 'weird', comparator => 'CompositeType(UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'BytesType');
SELECT lives_ok($$SELECT cfstore.put_object('ObjM', 'weird', '{"k": "w", "a": 1}', '{k}')$$, 'mallory: her own objects');
SELECT lives_ok($$
  SELECT cfstore.insert('ObjM', 'weird', 'w'::text, name, value)
    FROM (VALUES ('a.b'::text, '\x7b'::bytea), ('a.[999999999]', '\x31'), ('x\\'::text, '\xff00'),
                 ('[0].[1].b', 'null'::bytea), ('p\q.[x', '"'::bytea), ('..', '2'::bytea), ('z', '')) v(name, value)$$,
  'mallory: cells written with insert: conflicting paths, bad escapes, values that are not JSON');
SELECT lives_ok($$SELECT cfstore.get_object('ObjM', 'weird', '{"k": "w"}')$$, 'mallory: get_object reads them');
SELECT lives_ok($$SELECT cfstore.insert('ObjM', 'weird', 'd'::text, repeat('a.', 30000) || 'a', '1'::bytea)$$,
                'mallory: a cell whose path is 30,000 deep');
SELECT throws_ok($$SELECT cfstore.get_object('ObjM', 'weird', '{"k": "d"}')$$, '54001', NULL,
                 'mallory: get_object of it stops at the stack depth limit');
SELECT throws_ok($$SELECT cfstore.put_object('ObjM', 'weird',
                   ('{"k": "deep", "a": ' || repeat('[', 100000) || repeat(']', 100000) || '}')::jsonb, '{k}')$$,
                 '54001', NULL, 'mallory: a document 100,000 deep stops at the stack depth limit');
SELECT lives_ok($$SELECT cfstore.put_object('ObjM', 'weird',
                   ('{"k": "deep", "a": ' || repeat('[', 1000) || repeat(']', 1000) || '}')::jsonb, '{k}')$$,
                'mallory: a document 1,000 deep is stored');
SELECT is(cfstore.get_object('ObjM', 'weird', '{"k": "deep"}'),
          ('{"k": "deep", "a": ' || repeat('[', 1000) || repeat(']', 1000) || '}')::jsonb,
          'mallory: and read back exactly');
SELECT lives_ok($$SELECT cfstore.remove_object('ObjM', 'weird', '{"k": "w"}', '{a.[999999999],nothere.[0].x}')$$,
                'mallory: remove_object of paths that are not there');
SELECT lives_ok($$SELECT count(*) FROM cfstore.find_objects('ObjM', 'weird', '{"k": "w", "a": {"b": 1}}')$$,
                'mallory: find_objects over the odd cells');
SELECT throws_ok($$SELECT count(*) FROM cfstore.find_objects('ObjM', 'weird', '{"a": {"b": 1}}')$$, '54001', NULL,
                 'mallory: find_objects over every row stops at the 30,000-deep one');
SELECT throws_ok($$SELECT cfstore.put_object('ObjM', 'weird', jsonb_build_object('k', 'big', repeat('é', 40000), 1), '{k}')$$,
                 '54000', NULL, 'mallory: a field name too long for a column name');
SELECT is((SELECT count(*)::int FROM cfstore.get_slice('ObjM', 'weird', 'big'::text)), 0,
          'mallory: and nothing of it was written');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
