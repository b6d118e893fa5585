-- Privileges of the function API: a column family's storage relation
-- (cfstore_data.cf_<id>) decides, as SQL would: every read function needs
-- SELECT, insert, add and batch_mutate need INSERT, remove, remove_counter
-- and batch_mutate deletions need DELETE.  The keyspace owner (and its members) can do everything; a GRANT
-- on the storage relation gives another role access, a REVOKE takes it
-- away again.  (GRANTs on the column family's foreign table reach the
-- storage relation too: fdw_privileges.sql.)
BEGIN;
SELECT plan(68);

CREATE ROLE regress_api_owner;
CREATE ROLE regress_api_member IN ROLE regress_api_owner;
CREATE ROLE regress_api_other;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_api_owner', current_database()); END $$;

-- a keyspace of regress_api_owner with a Standard, a counter and a Super
-- column family
SET LOCAL ROLE regress_api_owner;
DO $$
BEGIN
  PERFORM cfstore.create_keyspace('PrivKs');
  PERFORM cfstore.create_column_family('PrivKs', 'Std', comparator => 'UTF8Type',
            key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
  PERFORM cfstore.create_column_family('PrivKs', 'Cnt', comparator => 'UTF8Type',
            key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
  PERFORM cfstore.create_column_family('PrivKs', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
            subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
END $$;

-- the owner can do everything
SELECT lives_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'a', 'owner', writetime => 1)$$, 'owner: insert');
SELECT lives_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'b', 'owner', writetime => 1)$$, 'owner: insert another column');
SELECT lives_ok($$SELECT cfstore.insert('PrivKs', 'Sup', 'k', 'a', 'owner', writetime => 1, super_column => 'sc')$$, 'owner: insert a subcolumn');
SELECT lives_ok($$SELECT cfstore.add('PrivKs', 'Cnt', 'k', 'c', 5)$$, 'owner: add');
SELECT lives_ok($$SELECT cfstore.add('PrivKs', 'Cnt', 'k', 'd', 1)$$, 'owner: add another counter');
SELECT is((SELECT value FROM cfstore.get('PrivKs', 'Std', 'k', 'a')), 'owner', 'owner: get');
SELECT is((SELECT count(*)::integer FROM cfstore.get_slice('PrivKs', 'Std', 'k')), 2, 'owner: get_slice');
SELECT is((SELECT value FROM cfstore.get('PrivKs', 'Cnt', 'k', 'c')), '5', 'owner: get of a counter');
SELECT lives_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'b', writetime => 2)$$, 'owner: remove');
SELECT lives_ok($$SELECT cfstore.remove_counter('PrivKs', 'Cnt', 'k', 'd')$$, 'owner: remove_counter');
SELECT is((SELECT string_agg(column_name, ',') FROM cfstore.get_slice('PrivKs', 'Std', 'k')), 'a', 'owner: the removal happened');
SELECT lives_ok($$SELECT cfstore.verify('PrivKs', 'Std')$$, 'owner: verify');

-- a member of the owning role acts as the owner
SET LOCAL ROLE regress_api_member;
SELECT lives_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'm', 'member', writetime => 1)$$, 'member: insert');
SELECT is((SELECT value FROM cfstore.get('PrivKs', 'Std', 'k', 'm')), 'member', 'member: get');
SELECT lives_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'm', writetime => 2)$$, 'member: remove');

-- another role can do nothing
SET LOCAL ROLE regress_api_other;
SELECT throws_ok($$SELECT * FROM cfstore.get('PrivKs', 'Std', 'k', 'a')$$, '42501', NULL, 'other: get needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('PrivKs', 'Std', 'k')$$, '42501', NULL, 'other: get_slice needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.get('PrivKs', 'Sup', 'k', super_column => 'sc')$$, '42501', NULL, 'other: get of a super column needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('PrivKs', 'Cnt', 'k')$$, '42501', NULL, 'other: get_slice of counters needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.get_columns('PrivKs', 'Std', 'k', ARRAY['a'])$$, '42501', NULL, 'other: get_columns needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.multiget_slice('PrivKs', 'Std', ARRAY['k'])$$, '42501', NULL, 'other: multiget_slice needs SELECT');
SELECT throws_ok($$SELECT cfstore.get_count('PrivKs', 'Std', 'k')$$, '42501', NULL, 'other: get_count needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.multiget_count('PrivKs', 'Std', ARRAY['k'])$$, '42501', NULL, 'other: multiget_count needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.get_range_slices('PrivKs', 'Std')$$, '42501', NULL, 'other: get_range_slices needs SELECT');
SELECT throws_ok($$SELECT * FROM cfstore.get_range_slices('PrivKs', 'Sup', count => 1)$$, '42501', NULL, 'other: get_range_slices of super columns needs SELECT');
SELECT throws_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'x', 'other', writetime => 9)$$, '42501', NULL, 'other: insert needs INSERT');
SELECT throws_ok($$SELECT cfstore.batch_mutate('PrivKs', '{"k": {"Std": [{"column": {"name": "x", "value": "v", "timestamp": 9}}]}}')$$, '42501', NULL, 'other: batch_mutate needs INSERT');
SELECT throws_ok($$SELECT cfstore.batch_mutate('PrivKs', '{"k": {"Std": [{"deletion": {"timestamp": 9}}]}}')$$, '42501', NULL, 'other: a batch_mutate deletion needs DELETE');
SELECT throws_ok($$SELECT cfstore.insert('PrivKs', 'Sup', 'k', 'x', 'other', writetime => 9, super_column => 'sc')$$, '42501', NULL, 'other: insert of a subcolumn needs INSERT');
SELECT throws_ok($$SELECT cfstore.add('PrivKs', 'Cnt', 'k', 'c', 1)$$, '42501', NULL, 'other: add needs INSERT');
SELECT throws_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'a', writetime => 9)$$, '42501', NULL, 'other: remove of a column needs DELETE');
SELECT throws_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', writetime => 9)$$, '42501', NULL, 'other: remove of a row needs DELETE');
SELECT throws_ok($$SELECT cfstore.remove('PrivKs', 'Sup', 'k', super_column => 'sc', writetime => 9)$$, '42501', NULL, 'other: remove of a super column needs DELETE');
SELECT throws_ok($$SELECT cfstore.remove_counter('PrivKs', 'Cnt', 'k', 'c')$$, '42501', NULL, 'other: remove_counter needs DELETE');
SELECT throws_ok($$SELECT cfstore.truncate('PrivKs', 'Std')$$, '42501', NULL, 'other: truncate needs TRUNCATE');
SELECT throws_ok(format('SELECT * FROM %s', cfstore._storage_relation('PrivKs', 'Std')), '42501', NULL,
                 'other: the storage relation itself needs SELECT');

-- GRANT SELECT: reads work, writes still do not
SET LOCAL ROLE regress_api_owner;
DO $$ BEGIN EXECUTE format('GRANT SELECT ON %s TO regress_api_other', cfstore._storage_relation('PrivKs', 'Std')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT is((SELECT value FROM cfstore.get('PrivKs', 'Std', 'k', 'a')), 'owner', 'other with SELECT: get');
SELECT is((SELECT string_agg(column_name, ',') FROM cfstore.get_slice('PrivKs', 'Std', 'k')), 'a', 'other with SELECT: get_slice');
SELECT is((SELECT string_agg(column_name, ',') FROM cfstore.get_columns('PrivKs', 'Std', 'k', ARRAY['a', 'b'])), 'a', 'other with SELECT: get_columns');
SELECT is((SELECT string_agg(column_name, ',') FROM cfstore.multiget_slice('PrivKs', 'Std', ARRAY['k', 'j'])), 'a', 'other with SELECT: multiget_slice');
SELECT is(cfstore.get_count('PrivKs', 'Std', 'k'), 1, 'other with SELECT: get_count');
SELECT is((SELECT string_agg(key || '=' || count, ',') FROM cfstore.multiget_count('PrivKs', 'Std', ARRAY['k', 'j'])), 'j=0,k=1', 'other with SELECT: multiget_count');
SELECT is((SELECT string_agg(key || '/' || column_name, ',') FROM cfstore.get_range_slices('PrivKs', 'Std')), 'k/a', 'other with SELECT: get_range_slices');
SELECT throws_ok($$SELECT * FROM cfstore.multiget_slice('PrivKs', 'Cnt', ARRAY['k'])$$, '42501', NULL, 'other with SELECT on Std: multiget_slice not on Cnt');
SELECT throws_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'x', 'other', writetime => 9)$$, '42501', NULL, 'other with SELECT: insert still needs INSERT');
SELECT throws_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'a', writetime => 9)$$, '42501', NULL, 'other with SELECT: remove still needs DELETE');
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('PrivKs', 'Cnt', 'k')$$, '42501', NULL, 'other with SELECT on Std: not on Cnt');

-- GRANT INSERT: inserts work; DELETE is still missing
SET LOCAL ROLE regress_api_owner;
DO $$ BEGIN EXECUTE format('GRANT INSERT ON %s TO regress_api_other', cfstore._storage_relation('PrivKs', 'Std')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT lives_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'x', 'other', writetime => 9)$$, 'other with INSERT: insert');
SELECT is((SELECT value FROM cfstore.get('PrivKs', 'Std', 'k', 'x')), 'other', 'other with INSERT: the insert happened');
SELECT throws_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'x', writetime => 10)$$, '42501', NULL, 'other with INSERT: remove still needs DELETE');

-- GRANT DELETE: removals work
SET LOCAL ROLE regress_api_owner;
DO $$ BEGIN EXECUTE format('GRANT DELETE ON %s TO regress_api_other', cfstore._storage_relation('PrivKs', 'Std')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT lives_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'x', writetime => 10)$$, 'other with DELETE: remove');
SELECT is((SELECT string_agg(column_name, ',') FROM cfstore.get_slice('PrivKs', 'Std', 'k')), 'a', 'other with DELETE: the removal happened');

-- INSERT alone on the counter column family: add works, reading does not
SET LOCAL ROLE regress_api_owner;
DO $$ BEGIN EXECUTE format('GRANT INSERT ON %s TO regress_api_other', cfstore._storage_relation('PrivKs', 'Cnt')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT lives_ok($$SELECT cfstore.add('PrivKs', 'Cnt', 'k', 'c', 2)$$, 'other with INSERT: add');
SELECT throws_ok($$SELECT * FROM cfstore.get('PrivKs', 'Cnt', 'k', 'c')$$, '42501', NULL, 'other with INSERT only: get needs SELECT');
SELECT throws_ok($$SELECT cfstore.remove_counter('PrivKs', 'Cnt', 'k', 'c')$$, '42501', NULL, 'other with INSERT only: remove_counter needs DELETE');
SET LOCAL ROLE regress_api_owner;
SELECT is((SELECT value FROM cfstore.get('PrivKs', 'Cnt', 'k', 'c')), '7', 'owner sees the add of the other role');
DO $$ BEGIN EXECUTE format('GRANT DELETE ON %s TO regress_api_other', cfstore._storage_relation('PrivKs', 'Cnt')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT lives_ok($$SELECT cfstore.remove_counter('PrivKs', 'Cnt', 'k', 'c')$$, 'other with DELETE: remove_counter');
SET LOCAL ROLE regress_api_owner;
SELECT is((SELECT count(*)::integer FROM cfstore.get('PrivKs', 'Cnt', 'k', 'c')), 0, 'the remove_counter of the other role happened');

-- DELETE alone on the Super column family: remove works, insert does not
DO $$ BEGIN EXECUTE format('GRANT DELETE ON %s TO regress_api_other', cfstore._storage_relation('PrivKs', 'Sup')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT lives_ok($$SELECT cfstore.remove('PrivKs', 'Sup', 'k', super_column => 'sc', writetime => 5)$$, 'other with DELETE only: remove of a super column');
SELECT throws_ok($$SELECT cfstore.insert('PrivKs', 'Sup', 'k', 'x', 'other', writetime => 9, super_column => 'sc')$$, '42501', NULL, 'other with DELETE only: insert needs INSERT');
SET LOCAL ROLE regress_api_owner;
SELECT is((SELECT count(*)::integer FROM cfstore.get_slice('PrivKs', 'Sup', 'k')), 0, 'the super column removal of the other role happened');

-- REVOKE takes access away again
DO $$ BEGIN EXECUTE format('REVOKE ALL ON %s FROM regress_api_other', cfstore._storage_relation('PrivKs', 'Std')); END $$;
SET LOCAL ROLE regress_api_other;
SELECT throws_ok($$SELECT * FROM cfstore.get_slice('PrivKs', 'Std', 'k')$$, '42501', NULL, 'after REVOKE: get_slice');
SELECT throws_ok($$SELECT cfstore.insert('PrivKs', 'Std', 'k', 'y', 'other', writetime => 9)$$, '42501', NULL, 'after REVOKE: insert');
SELECT throws_ok($$SELECT cfstore.remove('PrivKs', 'Std', 'k', 'a', writetime => 9)$$, '42501', NULL, 'after REVOKE: remove');

-- the failed calls wrote nothing
SET LOCAL ROLE regress_api_owner;
SELECT is((SELECT string_agg(column_name || '=' || value, ',') FROM cfstore.get_slice('PrivKs', 'Std', 'k')), 'a=owner',
          'nothing written by the refused calls');
SELECT lives_ok($$SELECT cfstore.verify('PrivKs', 'Std')$$, 'verify Std');
SELECT lives_ok($$SELECT cfstore.verify('PrivKs', 'Cnt')$$, 'verify Cnt');
SELECT lives_ok($$SELECT cfstore.verify('PrivKs', 'Sup')$$, 'verify Sup');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
