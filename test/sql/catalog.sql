-- Keyspaces and column families: DDL, validation with Cassandra's texts,
-- describe_keyspace(s), and the guards on the catalog tables.
\set VERBOSITY terse

-- keyspaces
SELECT cfstore.create_keyspace('Keyspace1');
SELECT cfstore.create_keyspace('Keyspace2', 3, 'org.apache.cassandra.locator.NetworkTopologyStrategy');
SELECT cfstore.create_keyspace('Keyspace3', 2, 'RackUnawareStrategy');   -- 0.6 name
SELECT nspname FROM pg_namespace WHERE nspname LIKE 'Keyspace_' ORDER BY 1;
SELECT cfstore.describe_keyspaces();

SELECT cfstore.create_keyspace('Keyspace1');
SELECT cfstore.create_keyspace('a-b');
SELECT cfstore.create_keyspace('');
SELECT cfstore.create_keyspace(repeat('k', 49));
SELECT cfstore.create_keyspace('Ks', 1, 'FooStrategy');
SELECT cfstore.create_keyspace('Ks', -1);
SELECT cfstore.create_keyspace('public');
SELECT cfstore.create_keyspace('System');
SELECT cfstore.describe_keyspace('Nope');
SELECT cfstore.drop_keyspace('Nope');

-- column families
SELECT cfstore.create_column_family('Keyspace1', 'Standard1');
SELECT cfstore.create_column_family('Keyspace1', 'Super1', column_type => 'Super',
         comparator => 'LongType', subcomparator => 'UTF8Type', comment => 'a super CF');
SELECT cfstore.create_column_family('Keyspace1', 'Super2', 'Super');   -- subcomparator defaults to BytesType
SELECT cfstore.create_column_family('Keyspace1', 'Indexed1', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "birthdate", "validation_class": "LongType", "index_type": "KEYS", "index_name": "birthdate_index"},
                              {"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"},
                              {"column_name": "age", "validation_class": "Int32Type"}]',
         gc_grace_seconds => 0, default_time_to_live => 3600);
SELECT cfstore.create_column_family('Keyspace1', 'Counter1', default_validation_class => 'CounterColumnType',
         comparator => 'AsciiType',
         column_metadata => '[{"column_name": "hits", "validation_class": "CounterColumnType"}]');
SELECT cfstore.create_column_family('Keyspace1', 'Composite1',
         comparator => 'CompositeType(UTF8Type, LongType(reversed=true))');
SELECT jsonb_pretty(cfstore.describe_keyspace('Keyspace1'));

-- column family errors
SELECT cfstore.create_column_family('Nope', 'Standard1');
SELECT cfstore.create_column_family('Keyspace1', 'Standard1');
SELECT cfstore.create_column_family('Keyspace1', 'a-b');
SELECT cfstore.create_column_family('Keyspace1', '');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_type => 'Wide');
SELECT cfstore.create_column_family('Keyspace1', 'X', comparator => 'Foo');
SELECT cfstore.create_column_family('Keyspace1', 'X', comparator => 'CompositeType()');
SELECT cfstore.create_column_family('Keyspace1', 'X', subcomparator => 'UTF8Type');
SELECT cfstore.create_column_family('Keyspace1', 'X', comparator => 'CounterColumnType');
SELECT cfstore.create_column_family('Keyspace1', 'X', 'Super', subcomparator => 'CounterColumnType');
SELECT cfstore.create_column_family('Keyspace1', 'X', key_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('Keyspace1', 'X', default_validation_class => 'CounterColumnType',
         column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "CounterColumnType"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', comparator => 'LongType',
         column_metadata => '[{"column_name": "abc", "validation_class": "UTF8Type"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', comparator => 'TimeUUIDType',
         column_metadata => '[{"column_name": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "validation_class": "UTF8Type"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_name": "i"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "KEYS", "index_name": "bad-name"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "KEYS", "index_name": "birthdate_index"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "KEYS", "index_name": "i"}, {"column_name": "d", "validation_class": "UTF8Type", "index_type": "KEYS", "index_name": "i"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', 'Super', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "CUSTOM"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "index_type": "HASH"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"validation_class": "UTF8Type"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type", "colour": "red"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "c", "validation_class": "UTF8Type"}, {"column_name": "c", "validation_class": "LongType"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '{"column_name": "c"}');
SELECT cfstore.create_column_family('Keyspace1', 'X', column_metadata => '[{"column_name": "", "validation_class": "UTF8Type"}]');
SELECT cfstore.create_column_family('Keyspace1', 'X', gc_grace_seconds => -1);
SELECT cfstore.create_column_family('Keyspace1', 'X', default_time_to_live => 630720001);
SELECT cfstore.create_column_family('Keyspace1', 'X', default_time_to_live => -5);
-- nothing of the failed calls was written
SELECT count(*) FROM cfstore.column_family WHERE name = 'X';

-- default index names are unique: <cf>_<name>_idx, then a number
SELECT cfstore.create_column_family('Keyspace1', 'Indexed2', comparator => 'UTF8Type',
         column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
SELECT cfstore.create_column_family('Keyspace2', 'Indexed1', comparator => 'UTF8Type',
         column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
SELECT index_name FROM cfstore.column_definition WHERE index_name IS NOT NULL ORDER BY 1;

-- update_column_family: NULL leaves a setting alone; column_metadata replaces the list
SELECT cfstore.update_column_family('Keyspace1', 'Indexed1', comment => 'people', gc_grace_seconds => 60);
SELECT cfstore.update_column_family('Keyspace1', 'Indexed1',
         column_metadata => '[{"column_name": "age", "validation_class": "LongType"}]');
SELECT cfstore.update_column_family('Keyspace1', 'Indexed1', key_validation_class => 'AsciiType',
         default_time_to_live => 0);
SELECT jsonb_path_query(cfstore.describe_keyspace('Keyspace1'), '$.cf_defs[*] ? (@.name == "Indexed1")');
SELECT cfstore.update_column_family('Keyspace1', 'Nope', comment => 'x');
SELECT cfstore.update_column_family('Nope', 'Indexed1', comment => 'x');
SELECT cfstore.update_column_family('Keyspace1', 'Standard1', default_validation_class => 'CounterColumnType');
SELECT cfstore.update_column_family('Keyspace1', 'Counter1', default_validation_class => 'LongType');
SELECT cfstore.update_column_family('Keyspace1', 'Counter1',
         column_metadata => '[{"column_name": "c", "validation_class": "LongType"}]');
SELECT cfstore.update_column_family('Keyspace1', 'Standard1', key_validation_class => 'CounterColumnType');
SELECT cfstore.update_column_family('Keyspace1', 'Standard1', gc_grace_seconds => -1);
-- metadata kept by an update is checked against the new default validator
SELECT cfstore.create_column_family('Keyspace1', 'Typed1', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "n", "validation_class": "LongType"}]');
SELECT cfstore.update_column_family('Keyspace1', 'Typed1', default_validation_class => 'BytesType');
SELECT jsonb_path_query(cfstore.describe_keyspace('Keyspace1'), '$.cf_defs[*] ? (@.name == "Typed1").column_metadata');

-- what the C layers see, through the per-backend cache of parsed definitions
SELECT i.id = cf.id AS id_matches, i.column_type, i.comparator, i.subcomparator, i.key_validation_class,
       i.default_validation_class, i.is_counter, i.column_metadata
  FROM cfstore._column_family_info('Keyspace1', 'Super1') i, cfstore.column_family cf
 WHERE cf.keyspace = 'Keyspace1' AND cf.name = 'Super1';
SELECT is_counter, column_metadata FROM cfstore._column_family_info('Keyspace1', 'Counter1');
SELECT cfstore.create_column_family('Keyspace1', 'LongNames', comparator => 'LongType',
         column_metadata => '[{"column_name": "10", "validation_class": "UTF8Type"},
                              {"column_name": "-5", "validation_class": "LongType"},
                              {"column_name": "2", "validation_class": "DateType"}]');
-- sorted by the comparator (-5 < 2 < 10), not by their bytes
SELECT column_metadata FROM cfstore._column_family_info('Keyspace1', 'LongNames');
SELECT * FROM cfstore._column_family_info('Keyspace1', 'Nope');
SELECT * FROM cfstore._column_family_info('Nope', 'Super1');

-- the guards: what the functions forbid, direct writes cannot do either
UPDATE cfstore.column_family SET comparator = 'org.apache.cassandra.db.marshal.UTF8Type' WHERE name = 'Standard1';
UPDATE cfstore.column_family SET subcomparator = 'org.apache.cassandra.db.marshal.LongType' WHERE name = 'Super1';
UPDATE cfstore.column_family SET column_type = 'Super', subcomparator = 'org.apache.cassandra.db.marshal.BytesType' WHERE name = 'Standard1';
UPDATE cfstore.column_family SET name = 'Renamed' WHERE name = 'Standard1';
UPDATE cfstore.column_family SET key_validation_class = 'UTF8Type' WHERE name = 'Standard1';
UPDATE cfstore.column_family SET key_validation_class = 'Bogus' WHERE name = 'Standard1';
UPDATE cfstore.keyspace SET name = 'Renamed' WHERE name = 'Keyspace3';
INSERT INTO cfstore.keyspace VALUES ('NoSchema', 'org.apache.cassandra.locator.SimpleStrategy', '{}');

-- drop_column_family
SELECT cfstore.drop_column_family('Keyspace1', 'Super2');
SELECT cfstore.drop_column_family('Keyspace1', 'Super2');
SELECT cfstore.drop_column_family('Nope', 'Super2');
SELECT jsonb_array_length(cfstore.describe_keyspace('Keyspace1') -> 'cf_defs') AS cfs;

-- drop_keyspace drops its column families and its schema, but never
-- objects cfstore did not create
CREATE TABLE "Keyspace2".mine (x int);
SELECT cfstore.drop_keyspace('Keyspace2');
SELECT count(*) AS still_there FROM cfstore.keyspace WHERE name = 'Keyspace2';
DROP TABLE "Keyspace2".mine;
SELECT cfstore.drop_keyspace('Keyspace2');
SELECT cfstore.drop_keyspace('Keyspace1');
SELECT cfstore.drop_keyspace('Keyspace3');
SELECT count(*) AS column_definitions_left FROM cfstore.column_definition;
SELECT cfstore.describe_keyspaces();
SELECT nspname FROM pg_namespace WHERE nspname LIKE 'Keyspace_';
