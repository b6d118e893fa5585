-- The SQLSTATEs of catalog errors (README.md "Reading and writing"), and that failed DDL
-- writes nothing.
BEGIN;
SELECT plan(31);

SELECT lives_ok($$SELECT cfstore.create_keyspace('TapKs')$$, 'create_keyspace');
SELECT lives_ok($$SELECT cfstore.create_column_family('TapKs', 'Cf', comparator => 'UTF8Type')$$, 'create_column_family');

SELECT throws_ok($$SELECT cfstore.create_keyspace('a-b')$$, '22023', NULL, 'bad keyspace name: 22023');
SELECT throws_ok($$SELECT cfstore.create_keyspace('TapKs')$$, '42710', 'Cannot add existing keyspace "TapKs"', 'existing keyspace: 42710');
SELECT throws_ok($$SELECT cfstore.create_keyspace('Ks2', 1, 'Foo')$$, '22023', NULL, 'unknown strategy: 22023');
SELECT throws_ok($$SELECT cfstore.describe_keyspace('Nope')$$, '3F000', 'Keyspace Nope does not exist', 'unknown keyspace: 3F000');
SELECT throws_ok($$SELECT cfstore.create_column_family('Nope', 'Cf')$$, '3F000', NULL, 'create_column_family in an unknown keyspace: 3F000');
SELECT throws_ok($$SELECT cfstore.drop_column_family('TapKs', 'Nope')$$, '42P01', 'unconfigured columnfamily Nope', 'unknown column family: 42P01');
SELECT throws_ok($$SELECT cfstore.update_column_family('TapKs', 'Nope', comment => 'x')$$, '42P01', NULL, 'update of an unknown column family: 42P01');
SELECT throws_ok($$SELECT cfstore.create_column_family('TapKs', 'Cf')$$, '42P07', NULL, 'existing column family: 42P07');
SELECT throws_ok($$SELECT cfstore.create_column_family('TapKs', 'X', comparator => 'Foo')$$, '22023',
                 'Unable to find abstract-type class ''org.apache.cassandra.db.marshal.Foo''', 'unknown comparator: 22023');
SELECT throws_ok($$SELECT cfstore.create_column_family('TapKs', 'X', comparator => 'DynamicCompositeType(a=>UTF8Type)')$$,
                 '0A000', NULL, 'unsupported comparator: 0A000');
SELECT throws_ok($$SELECT cfstore.create_column_family('TapKs', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "CUSTOM"}]')$$,
                 '0A000', NULL, 'unsupported index type: 0A000');
SELECT throws_ok($$SELECT cfstore.update_column_family('TapKs', 'Cf', default_validation_class => 'CounterColumnType')$$,
                 '0A000', NULL, 'counter switch: 0A000');
SELECT throws_ok($$UPDATE cfstore.column_family SET comparator = 'org.apache.cassandra.db.marshal.LongType' WHERE keyspace = 'TapKs'$$,
                 '0A000', 'comparators do not match or are not compatible.', 'comparator change through the table: 0A000');
SELECT throws_ok($$SELECT cfstore.create_keyspace('pg_catalog')$$, '42P06', NULL, 'a schema of that name exists: 42P06');
SELECT throws_ok($$SELECT cfstore.update_keyspace('Nope', 2)$$, '3F000', 'Keyspace Nope does not exist', 'update of an unknown keyspace: 3F000');
SELECT throws_ok($$SELECT cfstore.update_keyspace('TapKs', strategy_class => 'Foo')$$, '22023', NULL, 'update to an unknown strategy: 22023');
SELECT throws_ok($$SELECT cfstore.update_keyspace('TapKs', -1)$$, '22023', 'Replication factor must be non-negative; found -1',
                 'update to a negative replication factor: 22023');
SELECT lives_ok($$SELECT cfstore.update_keyspace('TapKs', 3)$$, 'update_keyspace');
SELECT is((SELECT cfstore.describe_keyspace('TapKs') - 'cf_defs'),
          '{"name": "TapKs", "strategy_class": "org.apache.cassandra.locator.SimpleStrategy", "strategy_options": {"replication_factor": "3"}}'::jsonb,
          'update_keyspace changes the factor and keeps the strategy');

-- privileges: 42501
CREATE ROLE regress_tap_other;
SET LOCAL ROLE regress_tap_other;
SELECT throws_ok($$SELECT cfstore.drop_keyspace('TapKs')$$, '42501', 'must be owner of keyspace TapKs', 'drop by a non-owner: 42501');
SELECT throws_ok($$SELECT cfstore.update_keyspace('TapKs', 1)$$, '42501', 'must be owner of keyspace TapKs', 'update by a non-owner: 42501');
SELECT throws_ok($$SELECT cfstore.update_keyspace(NULL, 1)$$, '3F000', NULL, 'update of a NULL keyspace by a non-owner: 3F000');
SELECT throws_ok($$SELECT cfstore.update_keyspace('TapKs', 2, repeat('x', 10000))$$, '22023', NULL,
                 'an absurd strategy from a non-owner: 22023, nothing changed');
SELECT throws_ok($$SELECT cfstore.create_keyspace('TapKs2')$$, '42501', NULL, 'create without CREATE on the database: 42501');
RESET ROLE;

-- failed DDL leaves nothing behind
SELECT is((SELECT count(*)::integer FROM cfstore.keyspace WHERE name IN ('Ks2', 'TapKs2')), 0, 'no keyspace from failed calls');
SELECT is((SELECT strategy_options ->> 'replication_factor' FROM cfstore.keyspace WHERE name = 'TapKs'), '3',
          'nor a change from failed updates');
SELECT hasnt_schema('TapKs2', 'no schema from a failed create_keyspace');

SELECT lives_ok($$SELECT cfstore.drop_keyspace('TapKs')$$, 'drop_keyspace');
SELECT hasnt_schema('TapKs', 'drop_keyspace drops the schema');

SELECT * FROM finish();
ROLLBACK;
