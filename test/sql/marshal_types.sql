-- The Cassandra type-string parser: short and fully qualified names,
-- parameters, reversed=true, and the exact errors.
\set VERBOSITY terse

SELECT t AS type_string, cfstore.type_name(t) AS fully_qualified
FROM unnest(ARRAY[
  'BytesType', 'AsciiType', 'UTF8Type', 'LongType', 'Int32Type', 'IntegerType',
  'DecimalType', 'FloatType', 'DoubleType', 'BooleanType', 'DateType', 'UUIDType',
  'LexicalUUIDType', 'TimeUUIDType', 'CounterColumnType',
  'org.apache.cassandra.db.marshal.LongType',
  '  UTF8Type  ',
  'LongType()',
  'LongType(reversed=true)',
  'LongType(reversed)',
  'LongType(reversed=false)',
  'LongType(UTF8Type)',
  'CompositeType(UTF8Type, LongType)',
  'CompositeType(UTF8Type,LongType,TimeUUIDType)',
  'org.apache.cassandra.db.marshal.CompositeType(org.apache.cassandra.db.marshal.UTF8Type,org.apache.cassandra.db.marshal.LongType)',
  'CompositeType(UTF8Type, ReversedType(LongType))',
  'CompositeType(LongType(reversed=true), UTF8Type)',
  'ReversedType(TimeUUIDType)',
  'ReversedType(CompositeType(UTF8Type))',
  '',
  '   '
]) AS t;

-- what parses to BytesType: NULL is NULL (the function is strict)
SELECT cfstore.type_name(NULL) IS NULL AS null_is_null;

-- errors
SELECT cfstore.type_name('Foo');
SELECT cfstore.type_name('com.example.Foo');
SELECT cfstore.type_name('longtype');
SELECT cfstore.type_name('CompositeType');
SELECT cfstore.type_name('CompositeType()');
SELECT cfstore.type_name('ReversedType');
SELECT cfstore.type_name('ReversedType(LongType, UTF8Type)');
SELECT cfstore.type_name('CompositeType(UTF8Type, Foo)');
SELECT cfstore.type_name('CompositeType(UTF8Type');
SELECT cfstore.type_name('LongType(reversed=true');
SELECT cfstore.type_name('LongType(reversed=true]');
SELECT cfstore.type_name('LongType UTF8Type');
SELECT cfstore.type_name('(LongType)');
SELECT cfstore.type_name('DynamicCompositeType(a=>UTF8Type)');
SELECT cfstore.type_name('InetAddressType');
-- nesting is bounded (32 levels)
SELECT length(cfstore.type_name(repeat('ReversedType(', 31) || 'LongType' || repeat(')', 31))) AS depth_32_ok;
SELECT cfstore.type_name(repeat('ReversedType(', 32) || 'LongType' || repeat(')', 32));
