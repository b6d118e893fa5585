-- batch_mutate (README.md "Reading and writing"; doc/semantics.md §5, §7, §9, §11):
-- every mutation kind on Standard, Super and counter column families,
-- deletions by row, super column, column names and slice range, the order
-- of a batch being irrelevant, all or nothing, and the invalid-request
-- texts in Cassandra's validation order.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('ApiBatch');
SELECT cfstore.create_column_family('ApiBatch', 'Standard1', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "age", "validation_class": "LongType"}]');
SELECT cfstore.create_column_family('ApiBatch', 'Long1', comparator => 'LongType',
         key_validation_class => 'LongType', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiBatch', 'Bytes1');
SELECT cfstore.create_column_family('ApiBatch', 'Super1', column_type => 'Super',
         comparator => 'UTF8Type', subcomparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiBatch', 'Counter1', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('ApiBatch', 'SuperCounter1', column_type => 'Super',
         comparator => 'UTF8Type', subcomparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');

-- ---------------------------------------------------------------------------
-- 1. column: several keys and column families in one batch, ttl, names and
--    values in their text forms (JSON numbers as written)
-- ---------------------------------------------------------------------------
SELECT cfstore.batch_mutate('ApiBatch', '{
  "key1": {"Standard1": [
      {"column": {"name": "c1", "value": "value1", "timestamp": 0, "ttl": 5000}},
      {"column": {"name": "c2", "value": "value2", "timestamp": 0}},
      {"column": {"name": "age", "value": 42, "timestamp": 0}}]},
  "key2": {"Standard1": [
      {"column": {"name": "c1", "value": "other row", "timestamp": 7}}]},
  "17": {"Long1": [
      {"column": {"name": 3, "value": "three", "timestamp": 10}},
      {"column": {"name": "-1", "value": "minus one", "timestamp": 10}}]},
  "-5": {"Long1": [
      {"column": {"name": 1, "value": "negative key", "timestamp": 1}}]}}');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Standard1', 'key1');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Standard1', 'key2');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Long1', 17);
SELECT * FROM cfstore.get_slice('ApiBatch', 'Long1', -5);
-- several versions of one column in one batch: the highest timestamp wins,
-- whatever the order; a tie goes to the bigger value
SELECT cfstore.batch_mutate('ApiBatch', '{"ver": {"Standard1": [
    {"column": {"name": "a", "value": "new", "timestamp": 20}},
    {"column": {"name": "a", "value": "old", "timestamp": 10}},
    {"column": {"name": "b", "value": "x", "timestamp": 5}},
    {"column": {"name": "b", "value": "y", "timestamp": 5}}]}}');
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiBatch', 'Standard1', 'ver');
-- an empty map, an empty list: nothing to do
SELECT cfstore.batch_mutate('ApiBatch', '{}');
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Standard1": []}}');

-- ---------------------------------------------------------------------------
-- 2. deletion on a Standard column family
-- ---------------------------------------------------------------------------
SELECT cfstore.batch_mutate('ApiBatch', '{"del": {"Standard1": [
    {"column": {"name": "a", "value": "1", "timestamp": 10}},
    {"column": {"name": "b", "value": "2", "timestamp": 10}},
    {"column": {"name": "c", "value": "3", "timestamp": 10}},
    {"column": {"name": "d", "value": "4", "timestamp": 10}},
    {"column": {"name": "e", "value": "5", "timestamp": 10}},
    {"column": {"name": "f", "value": "6", "timestamp": 30}},
    {"column": {"name": "g", "value": "7", "timestamp": 10}},
    {"column": {"name": "h", "value": "8", "timestamp": 10}}]}}');
-- column_names: those columns; a deletion older than the column loses; a
-- name that does not exist is no error
SELECT cfstore.batch_mutate('ApiBatch', '{"del": {"Standard1": [
    {"deletion": {"timestamp": 20, "predicate": {"column_names": ["a", "f", "zz"]}}},
    {"deletion": {"timestamp": 5, "predicate": {"column_names": ["b"]}}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'del');
-- slice_range: the inclusive range, whatever count says; only what the
-- deletion's timestamp covers
SELECT cfstore.batch_mutate('ApiBatch', '{"del": {"Standard1": [
    {"deletion": {"timestamp": 20, "predicate": {"slice_range": {"start": "c", "finish": "f", "reversed": false, "count": 1}}}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'del');
-- reversed: start is the upper bound; an open bound reaches the end
SELECT cfstore.batch_mutate('ApiBatch', '{"del": {"Standard1": [
    {"deletion": {"timestamp": 20, "predicate": {"slice_range": {"start": "", "finish": "h", "reversed": true}}}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'del');
-- no predicate: the whole row, up to the deletion's timestamp
SELECT cfstore.batch_mutate('ApiBatch', '{"del": {"Standard1": [{"deletion": {"timestamp": 100}}]}}');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Standard1', 'del');
-- the order inside a batch does not matter (doc/semantics.md §5): a column written
-- after the row deletion in the list is still deleted if it is older, and a
-- slice-range deletion also covers what the same batch writes into its range
SELECT cfstore.batch_mutate('ApiBatch', '{"order": {"Standard1": [
    {"deletion": {"timestamp": 50}},
    {"column": {"name": "old", "value": "gone", "timestamp": 49}},
    {"column": {"name": "new", "value": "kept", "timestamp": 51}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'order');
SELECT cfstore.batch_mutate('ApiBatch', '{"order": {"Standard1": [
    {"deletion": {"timestamp": 60, "predicate": {"slice_range": {"start": "m", "finish": "p"}}}},
    {"column": {"name": "n1", "value": "gone", "timestamp": 59}},
    {"column": {"name": "n2", "value": "kept", "timestamp": 61}},
    {"column": {"name": "q", "value": "out of range", "timestamp": 1}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'order');
-- a column written later with a newer timestamp comes back
SELECT cfstore.batch_mutate('ApiBatch', '{"del": {"Standard1": [
    {"column": {"name": "a", "value": "back", "timestamp": 101}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'del');
-- BytesType names go through their text form and back (escape form)
SELECT cfstore.insert('ApiBatch', 'Bytes1', 'b', '\x00'::bytea, 'nul', writetime => 1);
SELECT cfstore.insert('ApiBatch', 'Bytes1', 'b', '\x5c'::bytea, 'backslash', writetime => 1);
SELECT cfstore.insert('ApiBatch', 'Bytes1', 'b', '\xff01'::bytea, 'high', writetime => 1);
SELECT cfstore.insert('ApiBatch', 'Bytes1', 'b', 'zz', 'last', writetime => 1);
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Bytes1', 'b');
SELECT cfstore.batch_mutate('ApiBatch', '{"b": {"Bytes1": [
    {"deletion": {"timestamp": 2, "predicate": {"slice_range": {"start": "\\x00", "finish": "zz"}}}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Bytes1', 'b');
-- and names given in the escape form get_slice prints
SELECT cfstore.batch_mutate('ApiBatch', '{"b": {"Bytes1": [
    {"deletion": {"timestamp": 2, "predicate": {"column_names": ["\\377\\001"]}}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Bytes1', 'b');
SELECT cfstore.verify('ApiBatch', 'Standard1');
SELECT cfstore.verify('ApiBatch', 'Long1');
SELECT cfstore.verify('ApiBatch', 'Bytes1');

-- ---------------------------------------------------------------------------
-- 3. super_column and deletions on a Super column family
-- ---------------------------------------------------------------------------
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [
    {"super_column": {"name": "sc1", "columns": [
        {"name": "4", "value": "value4", "timestamp": 0},
        {"name": 5, "value": "value5", "timestamp": 0, "ttl": 5000}]}},
    {"super_column": {"name": "sc2", "columns": [{"name": "6", "value": "value6", "timestamp": 0}]}},
    {"super_column": {"name": "sc3", "columns": [
        {"name": "7", "value": "value7", "timestamp": 0},
        {"name": "8", "value": "value8", "timestamp": 0}]}},
    {"super_column": {"name": "sc4", "columns": [{"name": "9", "value": "value9", "timestamp": 0}]}},
    {"super_column": {"name": "sc5", "columns": [{"name": "10", "value": "value10", "timestamp": 0}]}},
    {"super_column": {"name": "sc6", "columns": []}}]}}');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
-- with super_column and column_names: those subcolumns
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [
    {"deletion": {"timestamp": 1, "super_column": "sc3", "predicate": {"column_names": ["8"]}}}]}}');
SELECT super_column, column_name FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
-- column_names without super_column: those super columns
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [
    {"deletion": {"timestamp": 1, "predicate": {"column_names": ["sc2"]}}}]}}');
SELECT super_column, column_name FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
-- super_column without predicate: that super column
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [
    {"deletion": {"timestamp": 1, "super_column": "sc5"}}]}}');
SELECT super_column, column_name FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
-- slice_range with super_column: a range of subcolumns (subcomparator order)
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [
    {"super_column": {"name": "sc1", "columns": [{"name": "40", "value": "v40", "timestamp": 0}]}},
    {"deletion": {"timestamp": 1, "super_column": "sc1", "predicate": {"slice_range": {"start": "5", "finish": "39"}}}}]}}');
SELECT super_column, column_name FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
-- slice_range without super_column: a range of super columns
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [
    {"super_column": {"name": "sc0", "columns": [{"name": "1", "value": "v1", "timestamp": 0}]}},
    {"deletion": {"timestamp": 1, "predicate": {"slice_range": {"start": "sc1", "finish": "sc3"}}}}]}}');
SELECT super_column, column_name FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
-- no predicate: the whole row
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Super1": [{"deletion": {"timestamp": 1}}]}}');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Super1', 'key1');
SELECT cfstore.verify('ApiBatch', 'Super1');

-- ---------------------------------------------------------------------------
-- 4. counter_column, counter_super_column and deletions on counter column
--    families (the deletion's timestamp is optional and replaced by the
--    server's clock, doc/semantics.md §7)
-- ---------------------------------------------------------------------------
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Counter1": [
    {"counter_column": {"name": "c1", "value": 5}},
    {"counter_column": {"name": "c1", "value": -2}},
    {"counter_column": {"name": "c2", "value": 9223372036854775807}},
    {"counter_column": {"name": "c3", "value": "10"}}],
  "SuperCounter1": [
    {"counter_super_column": {"name": "sc1", "columns": [{"name": "x", "value": 1}, {"name": "y", "value": 2}]}},
    {"counter_super_column": {"name": "sc1", "columns": [{"name": "x", "value": 10}]}},
    {"counter_super_column": {"name": "sc2", "columns": [{"name": "z", "value": 3}]}}]}}');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Counter1', 'key1');
SELECT * FROM cfstore.get_slice('ApiBatch', 'SuperCounter1', 'key1');
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Counter1": [
    {"deletion": {"predicate": {"column_names": ["c2"]}}},
    {"deletion": {"timestamp": 0, "predicate": {"slice_range": {"start": "c3", "finish": ""}}}}],
  "SuperCounter1": [
    {"deletion": {"super_column": "sc1", "predicate": {"column_names": ["y"]}}},
    {"deletion": {"super_column": "sc2"}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Counter1', 'key1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiBatch', 'SuperCounter1', 'key1');
-- an increment after a deletion counts from zero
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Counter1": [{"counter_column": {"name": "c2", "value": 4}}]}}');
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Counter1', 'key1');
-- the whole row
SELECT cfstore.batch_mutate('ApiBatch', '{"key1": {"Counter1": [{"deletion": {}}], "SuperCounter1": [{"deletion": {}}]}}');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Counter1', 'key1');
SELECT * FROM cfstore.get_slice('ApiBatch', 'SuperCounter1', 'key1');
SELECT cfstore.verify('ApiBatch', 'Counter1');
SELECT cfstore.verify('ApiBatch', 'SuperCounter1');

-- ---------------------------------------------------------------------------
-- 5. all or nothing: an invalid mutation late in the batch leaves nothing
--    written, in any key or column family (jsonb keeps object members
--    sorted, shorter first: "aon" is applied before "aon2")
-- ---------------------------------------------------------------------------
SELECT cfstore.batch_mutate('ApiBatch', '{"aon": {"Standard1": [
    {"column": {"name": "a", "value": "1", "timestamp": 1}},
    {"column": {"name": "b", "value": "2", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{
  "aon": {"Standard1": [
      {"column": {"name": "a", "value": "changed", "timestamp": 2}},
      {"deletion": {"timestamp": 2, "predicate": {"column_names": ["b"]}}},
      {"column": {"name": "c", "value": "3", "timestamp": 2}}],
    "Counter1": [{"counter_column": {"name": "n", "value": 1}}],
    "Super1": [{"super_column": {"name": "s", "columns": [{"name": "1", "value": "v", "timestamp": 2}]}}]},
  "aon2": {"Standard1": [
      {"column": {"name": "x", "value": "4", "timestamp": 2}},
      {"deletion": {"timestamp": 2, "predicate": {"slice_range": {"start": "", "finish": ""}}}},
      {"column": {"name": "late", "value": "5", "timestamp": 2, "ttl": 0}}]}}');
SELECT key, column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'aon');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Standard1', 'aon2');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Counter1', 'aon');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Super1', 'aon');
-- the same when the last mutation is malformed rather than invalid
SELECT cfstore.batch_mutate('ApiBatch', '{"aon": {"Standard1": [
    {"column": {"name": "a", "value": "changed", "timestamp": 2}},
    {"colum": {"name": "d", "value": "typo", "timestamp": 2}}]}}');
SELECT key, column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'aon');
-- and a failed batch inside a transaction can be rolled back to a savepoint
BEGIN;
SELECT cfstore.batch_mutate('ApiBatch', '{"aon": {"Standard1": [{"column": {"name": "t", "value": "in tx", "timestamp": 3}}]}}');
SAVEPOINT s;
SELECT cfstore.batch_mutate('ApiBatch', '{"aon": {"Standard1": [
    {"column": {"name": "u", "value": "lost", "timestamp": 3}},
    {"deletion": {"predicate": {"column_names": ["a"]}}}]}}');
ROLLBACK TO SAVEPOINT s;
COMMIT;
SELECT key, column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'aon');
SELECT cfstore.verify('ApiBatch', 'Standard1');

-- ---------------------------------------------------------------------------
-- 6. invalid requests: Cassandra's texts, in its validation order
-- ---------------------------------------------------------------------------
-- both or neither kind of mutation
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [
    {"column": {"name": "a", "value": "1", "timestamp": 1}, "deletion": {"timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": null, "deletion": null}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [
    {"column": {"name": "a", "value": "1", "timestamp": 1}, "super_column": {"name": "s", "columns": []}}]}}');
-- keyspace, column family, key (before the mutations)
SELECT cfstore.batch_mutate('NoSuchKs', '{}');
SELECT cfstore.batch_mutate(NULL, '{}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"NoSuchCf": [{}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"": []}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"": {"Standard1": [{}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"abc": {"Long1": [{}]}}');
SELECT cfstore.batch_mutate('ApiBatch', format('{"%s": {"Standard1": []}}', repeat('k', 65536))::jsonb);
-- column
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Counter1": [{"column": {"name": "a", "value": "1", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "value": "1", "timestamp": 1, "ttl": 0}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "value": "1", "timestamp": 1, "ttl": 630720001}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"column": {"name": "1", "value": "1", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "", "value": "1", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"value": "1", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"1": {"Long1": [{"column": {"name": "x", "value": "1", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', format('{"k": {"Bytes1": [{"column": {"name": "%s", "value": "1", "timestamp": 1}}]}}', repeat('n', 65536))::jsonb);
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "value": "1"}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "age", "value": "x", "timestamp": 1}}]}}');
-- super_column
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"SuperCounter1": [{"super_column": {"name": "s", "columns": []}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"super_column": {"name": "s", "columns": [{"name": "1", "value": "v", "timestamp": 1}]}}]}}');
-- (Cassandra checks the path per subcolumn: no subcolumns, no error)
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"super_column": {"name": "s", "columns": []}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"super_column": {"name": "", "columns": [{"name": "1", "value": "v", "timestamp": 1}]}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"super_column": {"name": "s", "columns": [{"name": "x", "value": "v", "timestamp": 1}]}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"super_column": {"name": "s", "columns": [{"name": "1", "value": "v", "timestamp": 1, "ttl": -1}]}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"super_column": {"name": "s", "columns": [{"name": "1", "timestamp": 1}]}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"super_column": {"name": "s", "columns": [{"name": "1", "value": "v"}]}}]}}');
-- counter_column, counter_super_column
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"counter_column": {"name": "a", "value": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"SuperCounter1": [{"counter_column": {"name": "a", "value": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Counter1": [{"counter_column": {"name": "", "value": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Counter1": [{"counter_column": {"name": "a"}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"counter_super_column": {"name": "s", "columns": [{"name": "1", "value": 1}]}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Counter1": [{"counter_super_column": {"name": "s", "columns": [{"name": "a", "value": 1}]}}]}}');
-- deletion
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"predicate": {"column_names": ["a"]}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {"column_names": [""]}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"1": {"Long1": [{"deletion": {"timestamp": 1, "predicate": {"column_names": ["x"]}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"deletion": {"timestamp": 1, "super_column": "s", "predicate": {"column_names": ["x"]}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"deletion": {"timestamp": 1, "super_column": ""}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {"slice_range": {"start": "b", "finish": "a"}}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {"slice_range": {"start": "a", "finish": "b", "reversed": true}}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {"slice_range": {"start": "a", "count": -1}}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"1": {"Long1": [{"deletion": {"timestamp": 1, "predicate": {"slice_range": {"start": "x"}}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"deletion": {"timestamp": 1, "super_column": "s", "predicate": {"slice_range": {"start": "x"}}}}]}}');
-- super columns on a Standard column family
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "super_column": "sc1"}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"super_column": "sc1"}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "super_column": "sc1", "predicate": {"slice_range": {"start": "a", "finish": "b"}}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "super_column": "sc1", "predicate": {"column_names": ["a"]}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', format('{"k": {"Bytes1": [{"deletion": {"timestamp": 1, "super_column": "%s"}}]}}', repeat('s', 130))::jsonb);
-- the first invalid mutation of a list is the one reported
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [
    {"column": {"name": "a", "value": "1", "timestamp": 1}},
    {"column": {"name": "b", "value": "1"}},
    {"deletion": {}}]}}');
-- a malformed batch
SELECT cfstore.batch_mutate('ApiBatch', NULL);
SELECT cfstore.batch_mutate('ApiBatch', '[]');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": []}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": {}}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [1]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "value": "1", "timestamp": "soon"}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "value": "1", "timestamp": 1.5}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": ["a"], "value": "1", "timestamp": 1}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"column": {"name": "a", "value": "1", "timestamp": 1, "tll": 5}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Super1": [{"super_column": {"name": "s"}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {"column_names": "a"}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"k": {"Standard1": [{"deletion": {"timestamp": 1, "predicate": {"slice_range": {"reversed": "yes"}}}}]}}');
-- nothing of the failed batches was written
SELECT * FROM cfstore.get_slice('ApiBatch', 'Standard1', 'k');
SELECT * FROM cfstore.get_slice('ApiBatch', 'Bytes1', 'k');

-- ---------------------------------------------------------------------------
-- 7. privileges: each mutation needs what its function needs (INSERT for
--    writes, DELETE for deletions, and SELECT too for a slice_range, which
--    reads the range)
-- ---------------------------------------------------------------------------
CREATE ROLE regress_batch_writer;
DO $$ BEGIN
  EXECUTE format('GRANT INSERT, DELETE ON %s TO regress_batch_writer',
                 cfstore._storage_relation('ApiBatch', 'Standard1'));
END $$;
SET ROLE regress_batch_writer;
SELECT cfstore.batch_mutate('ApiBatch', '{"priv": {"Standard1": [
    {"column": {"name": "a", "value": "1", "timestamp": 1}},
    {"column": {"name": "b", "value": "2", "timestamp": 1}},
    {"deletion": {"timestamp": 2, "predicate": {"column_names": ["a"]}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"priv": {"Standard1": [
    {"deletion": {"timestamp": 2, "predicate": {"slice_range": {"start": "", "finish": ""}}}}]}}');
SELECT cfstore.batch_mutate('ApiBatch', '{"1": {"Long1": [{"column": {"name": 1, "value": "1", "timestamp": 1}}]}}');
RESET ROLE;
SELECT column_name, value FROM cfstore.get_slice('ApiBatch', 'Standard1', 'priv');
SELECT cfstore.verify('ApiBatch', 'Standard1');

SELECT cfstore.drop_keyspace('ApiBatch');
DROP ROLE regress_batch_writer;
