-- Counter column families (README.md "Reading and writing"; doc/semantics.md §7,
-- §11): add and remove_counter on Standard and Super counter column
-- families, totals in reads (writetime and ttl NULL), re-adding after a
-- deletion, and the commutative / non-commutative operation errors.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('ApiCnt');
SELECT cfstore.create_column_family('ApiCnt', 'Counter1', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('ApiCnt', 'SuperCounter1', column_type => 'Super',
         comparator => 'UTF8Type', subcomparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('ApiCnt', 'Normal', comparator => 'UTF8Type',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiCnt', 'SuperNormal', column_type => 'Super');

-- ---------------------------------------------------------------------------
-- 1. add: positive and negative deltas, several adds summed
-- ---------------------------------------------------------------------------
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', 'c1', 5);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', 'c1', -3::bigint);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1'::varchar, 'c2'::text, -9);
DO $$
BEGIN
  FOR i IN 1..10 LOOP
    PERFORM cfstore.add('ApiCnt', 'Counter1', 'key1', 'c3', i);
  END LOOP;
END $$;
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', 'c4', 9223372036854775807);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', 'c5', -9223372036854775808);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key2', 'c1', 100);
SELECT * FROM cfstore.get('ApiCnt', 'Counter1', 'key1', 'c1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1', reversed => true, count => 2);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1', start => 'c2', finish => 'c3');
SELECT * FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key2');
SELECT * FROM cfstore.get('ApiCnt', 'Counter1', 'key1', 'c9');
-- every increment of one statement counts
SELECT count(cfstore.add('ApiCnt', 'Counter1', 'key1', 'c6', d)) FROM generate_series(1, 4) AS d;
SELECT column_name, value, writetime, ttl FROM cfstore.get('ApiCnt', 'Counter1', 'key1', 'c6');
SELECT cfstore.verify('ApiCnt', 'Counter1');

-- ---------------------------------------------------------------------------
-- 2. remove_counter, then add: the counter restarts from the new delta
--    (doc/semantics.md §7, C10 test_incr_standard_remove)
-- ---------------------------------------------------------------------------
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c1', 12);
SELECT value FROM cfstore.get('ApiCnt', 'Counter1', 'rm', 'c1');
-- the whole row
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'rm');
SELECT * FROM cfstore.get('ApiCnt', 'Counter1', 'rm', 'c1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c1', 12);
SELECT * FROM cfstore.get('ApiCnt', 'Counter1', 'rm', 'c1');
-- one column
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c2', 1);
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'rm', 'c1');
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c1', 12);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
-- several adds after a deletion are summed
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'rm', 'c2');
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c2', 3);
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c2', -10);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
-- deletion and re-add inside one transaction, and in one statement
BEGIN;
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'rm', 'c1');
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c1', 2);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
COMMIT;
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'rm', 'c2'), cfstore.add('ApiCnt', 'Counter1', 'rm', 'c2', 40);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm');
-- a removed counter is not counted by a slice
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c0', 1);
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'rm', 'c0');
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'rm', count => 1);
-- a rolled back increment does not count
BEGIN;
SELECT cfstore.add('ApiCnt', 'Counter1', 'rm', 'c1', 1000);
SELECT value FROM cfstore.get('ApiCnt', 'Counter1', 'rm', 'c1');
ROLLBACK;
SELECT value FROM cfstore.get('ApiCnt', 'Counter1', 'rm', 'c1');
SELECT cfstore.verify('ApiCnt', 'Counter1');

-- ---------------------------------------------------------------------------
-- 3. Super counter column families
-- ---------------------------------------------------------------------------
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 1, 5, super_column => 'sc1');
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 1, 2, super_column => 'sc1');
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 2, -7, super_column => 'sc1');
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 1, 3, super_column => 'sc2'::varchar);
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 10, 1, super_column => 'sc3');
SELECT * FROM cfstore.get('ApiCnt', 'SuperCounter1', 'key1', 1, super_column => 'sc1');
SELECT * FROM cfstore.get('ApiCnt', 'SuperCounter1', 'key1', super_column => 'sc1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1', reversed => true, count => 2);
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1', super_column => 'sc1', reversed => true);
-- remove a subcolumn, a super column, the row; then add again
SELECT cfstore.remove_counter('ApiCnt', 'SuperCounter1', 'key1', 1, super_column => 'sc1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 1, 4, super_column => 'sc1');
SELECT super_column, column_name, value FROM cfstore.get('ApiCnt', 'SuperCounter1', 'key1', super_column => 'sc1');
SELECT cfstore.remove_counter('ApiCnt', 'SuperCounter1', 'key1', super_column => 'sc1');
SELECT * FROM cfstore.get('ApiCnt', 'SuperCounter1', 'key1', super_column => 'sc1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1', count => 1);
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 2, 6, super_column => 'sc1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT cfstore.remove_counter('ApiCnt', 'SuperCounter1', 'key1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 10, 8, super_column => 'sc3');
SELECT * FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT cfstore.verify('ApiCnt', 'SuperCounter1');

-- ---------------------------------------------------------------------------
-- 4. Errors
-- ---------------------------------------------------------------------------
-- normal operations on a counter column family
SELECT cfstore.insert('ApiCnt', 'Counter1', 'key1', 'c1', 1, writetime => 1);
SELECT cfstore.insert('ApiCnt', 'SuperCounter1', 'key1', 1, 1, writetime => 1, super_column => 'sc1');
SELECT cfstore.remove('ApiCnt', 'Counter1', 'key1', 'c1', writetime => 1);
SELECT cfstore.remove('ApiCnt', 'Counter1', 'key1');
-- counter operations on a normal column family
SELECT cfstore.add('ApiCnt', 'Normal', 'k', 'c', 1);
SELECT cfstore.add('ApiCnt', 'SuperNormal', 'k', 'c', 1, super_column => 'sc');
SELECT cfstore.remove_counter('ApiCnt', 'Normal', 'k', 'c');
SELECT cfstore.remove_counter('ApiCnt', 'Normal', 'k');
-- shapes
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 1, 1);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', 'c1', 1, super_column => 'sc');
SELECT cfstore.remove_counter('ApiCnt', 'SuperCounter1', 'key1', 1);
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'key1', 'c1', super_column => 'sc');
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'key1', super_column => 'sc');
SELECT * FROM cfstore.get('ApiCnt', 'SuperCounter1', 'key1', 10);
SELECT * FROM cfstore.get('ApiCnt', 'Counter1', 'key1');
-- keys and names
SELECT cfstore.add('ApiCnt', 'Counter1', '', 'c1', 1);
SELECT cfstore.add('ApiCnt', 'Counter1', repeat('k', 65536), 'c1', 1);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', '', 1);
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', '\xff'::bytea, 1);
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', '\x01'::bytea, 1, super_column => 'sc1');
SELECT cfstore.add('ApiCnt', 'SuperCounter1', 'key1', 1, 1, super_column => '');
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', '', 'c1');
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'key1', '\xff'::bytea);
SELECT cfstore.remove_counter('ApiCnt', 'Counter1', 'key1', '');
SELECT cfstore.remove_counter('ApiCnt', 'SuperCounter1', 'key1', super_column => '');
SELECT cfstore.remove_counter('ApiCnt', 'SuperCounter1', 'key1', ''::bytea, super_column => 'sc3');
SELECT cfstore.add('ApiCnt', 'Nope', 'key1', 'c1', 1);
SELECT cfstore.remove_counter('NoKs', 'Counter1', 'key1', 'c1');
-- nothing was written
SELECT column_name, value, writetime, ttl FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiCnt', 'SuperCounter1', 'key1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'Normal', 'k');
SELECT cfstore.verify('ApiCnt', 'Counter1');
SELECT cfstore.verify('ApiCnt', 'SuperCounter1');
SELECT cfstore.verify('ApiCnt', 'Normal');

-- ---------------------------------------------------------------------------
-- 5. Totals add modulo 2^64, as Java's long does in Cassandra: adding 1 to
--    the largest bigint reads the smallest.  A total is exact whenever the
--    true sum fits, in whatever order its increments are summed (reads,
--    VACUUM's merging of increments).
-- ---------------------------------------------------------------------------
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'up', 9223372036854775807);
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'up', 1);
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'down', -9223372036854775808);
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'down', -1);
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'back', 9223372036854775807);
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'back', 9223372036854775807);
SELECT cfstore.add('ApiCnt', 'Counter1', 'wrap', 'back', -9223372036854775807);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'wrap');
SELECT cfstore._storage_relation('ApiCnt', 'Counter1') AS cnt_rel \gset
VACUUM (FREEZE) :cnt_rel;
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'wrap');

-- ---------------------------------------------------------------------------
-- 6. truncate
-- ---------------------------------------------------------------------------
SELECT cfstore.truncate('ApiCnt', 'Counter1');
SELECT * FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1');
SELECT cfstore.add('ApiCnt', 'Counter1', 'key1', 'c1', 1);
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1');
-- a row written into the storage relation is an increment, which never
-- expires: naming a ttl or an expiry is an error, and adds nothing
INSERT INTO :cnt_rel (key, column_name, value, ttl) VALUES ('key1', 'c1', '\x0000000000000005', 10);
INSERT INTO :cnt_rel (key, column_name, value, expires_at) VALUES ('key1', 'c1', '\x0000000000000005', 2000000000);
INSERT INTO :cnt_rel (key, column_name, value) VALUES ('key1', 'c1', '\x0000000000000005');
SELECT column_name, value FROM cfstore.get_slice('ApiCnt', 'Counter1', 'key1');
SELECT cfstore.verify('ApiCnt', 'Counter1');

SELECT cfstore.drop_keyspace('ApiCnt');
