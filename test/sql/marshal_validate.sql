-- Validation: Cassandra 1.2's MarshalException texts, and what is valid.
\set VERBOSITY terse

-- the empty value is valid for every type
SELECT t, cfstore.validate(t, '') IS NOT NULL AS empty_is_valid
FROM unnest(ARRAY['BytesType', 'AsciiType', 'UTF8Type', 'LongType', 'Int32Type',
  'IntegerType', 'DecimalType', 'FloatType', 'DoubleType', 'BooleanType', 'DateType',
  'UUIDType', 'LexicalUUIDType', 'TimeUUIDType', 'CounterColumnType',
  'CompositeType(UTF8Type, LongType)', 'ReversedType(LongType)']) AS t;

-- wrong lengths
SELECT cfstore.validate('LongType', '\x010203');
SELECT cfstore.validate('LongType', '\x010203040506070809');
SELECT cfstore.validate('CounterColumnType', '\x010203');
SELECT cfstore.validate('Int32Type', '\x010203');
SELECT cfstore.validate('FloatType', '\x010203');
SELECT cfstore.validate('DoubleType', '\x010203');
SELECT cfstore.validate('BooleanType', '\x0102');
SELECT cfstore.validate('DateType', '\x010203');
SELECT cfstore.validate('UUIDType', '\x010203');
SELECT cfstore.validate('LexicalUUIDType', '\x010203');
SELECT cfstore.validate('TimeUUIDType', '\x010203');
SELECT cfstore.validate('ReversedType(LongType)', '\x01');
-- TimeUUIDType needs version 1
SELECT cfstore.validate('TimeUUIDType', '\x000102030405460708090a0b0c0d0e0f');
SELECT cfstore.validate('TimeUUIDType', '\x000102030405160708090a0b0c0d0e0f') IS NOT NULL AS v1_ok;
-- UUIDType and LexicalUUIDType take any version
SELECT cfstore.validate('UUIDType', '\x000102030405460708090a0b0c0d0e0f') IS NOT NULL AS v4_uuid_ok;
-- IntegerType, DecimalType, BytesType: any bytes
SELECT cfstore.validate('IntegerType', '\x00000000000000000001') IS NOT NULL AS integer_any_ok;
SELECT cfstore.validate('BytesType', '\x00ff') IS NOT NULL AS bytes_any_ok;

-- AsciiType: bytes 0..127; the message gives the signed byte
SELECT cfstore.validate('AsciiType', '\x41427f') IS NOT NULL AS ascii_ok;
SELECT cfstore.validate('AsciiType', '\x4180');
SELECT cfstore.validate('AsciiType', '\xff');

-- UTF8Type: Cassandra's own validator, quirks included
SELECT label, cfstore.validate('UTF8Type', v) IS NOT NULL AS valid
FROM (VALUES
  ('ascii', '\x616263'::bytea),
  ('2-byte e-acute', '\xc3a9'),
  ('3-byte euro', '\xe282ac'),
  ('4-byte U+10000', '\xf0908080'),
  ('modified-UTF-8 NUL C0 80 (accepted)', '\xc080'),
  ('surrogate ED A0 80 (accepted)', '\xeda080'),
  ('lead F5 (accepted)', '\xf5808080'),
  ('F4 90 (accepted)', '\xf4908080')) AS c(label, v);
SELECT cfstore.validate('UTF8Type', '\xc3');
SELECT cfstore.validate('UTF8Type', '\x80');
SELECT cfstore.validate('UTF8Type', '\xc1bf');
SELECT cfstore.validate('UTF8Type', '\xc081');
SELECT cfstore.validate('UTF8Type', '\xe08080');
SELECT cfstore.validate('UTF8Type', '\xf0808080');
SELECT cfstore.validate('UTF8Type', '\xf8808080');
SELECT cfstore.validate('UTF8Type', '\xe282');

-- CompositeType: component by component
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x000161000008000000000000002a00') IS NOT NULL AS composite_ok;
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x00016101') IS NOT NULL AS prefix_with_eoc_ok;
SELECT cfstore.validate('CompositeType(UTF8Type)', '\x000161000001620000');
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x00');
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x000561');
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x000161');
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x0001610100');
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x0001610000016200');
SELECT cfstore.validate('CompositeType(UTF8Type, TimeUUIDType)', '\x00016100000e0102030405060708090a0b0c0d0e00');
SELECT cfstore.validate('CompositeType(UTF8Type, LongType)', '\x0001ff00');

-- compare() and to_string() validate their inputs too
SELECT cfstore.compare('LongType', '\x01', '\x0000000000000001');
SELECT cfstore.to_string('Int32Type', '\x01');
