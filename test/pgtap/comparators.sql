-- Comparator orders: one named assertion per rule, traps named as such.
BEGIN;
SET search_path = public, cfstore;

CREATE TEMP TABLE cmp_cases (name text, type text, a bytea, b bytea, expected integer);
-- text-form cases: a and b are converted with to_bytes(type, ...)
CREATE TEMP TABLE cmp_text (name text, type text, a text, b text, expected integer);
INSERT INTO cmp_text VALUES
  ('BytesType: unsigned, 0x80 sorts after 0x7f', 'BytesType', '\x80', '\x7f', 1),
  ('BytesType: a shorter prefix sorts first', 'BytesType', 'a', 'ab', -1),
  ('BytesType: equal', 'BytesType', 'ab', 'ab', 0),
  ('AsciiType: byte order', 'AsciiType', 'B', 'a', -1),
  ('UTF8Type: code point order (z < e-acute)', 'UTF8Type', 'z', 'é', -1),
  ('UTF8Type: U+FFFF < U+10000', 'UTF8Type', U&'\FFFF', U&'\+010000', -1),
  ('LongType: signed, -1 < 1', 'LongType', '-1', '1', -1),
  ('LongType: min < max', 'LongType', '-9223372036854775808', '9223372036854775807', -1),
  ('Int32Type: signed, -1 < 0', 'Int32Type', '-1', '0', -1),
  ('CounterColumnType: unsigned bytes, -1 sorts after 1', 'CounterColumnType', '-1', '1', 1),
  ('IntegerType: numeric, -129 < -128', 'IntegerType', '-129', '-128', -1),
  ('IntegerType: numeric, 127 < 128 (128 needs two bytes)', 'IntegerType', '127', '128', -1),
  ('IntegerType: negative before zero', 'IntegerType', '-128', '0', -1),
  ('IntegerType: a longer negative is smaller', 'IntegerType', '-256', '-128', -1),
  ('IntegerType: big numbers', 'IntegerType', '123456789012345678901234567890', '123456789012345678901234567889', 1),
  ('DecimalType: 1.0 = 1.00 (numeric, not bytes)', 'DecimalType', '1.0', '1.00', 0),
  ('DecimalType: 1.5 > 1.49', 'DecimalType', '1.5', '1.49', 1),
  ('DecimalType: -0.5 < 0.005', 'DecimalType', '-0.5', '0.005', -1),
  ('DecimalType: -2 < -1.5', 'DecimalType', '-2', '-1.5', -1),
  ('DecimalType: 0 = 0.000', 'DecimalType', '0', '0.000', 0),
  ('FloatType: trap, -0.0 < 0.0', 'FloatType', '-0', '0', -1),
  ('FloatType: trap, NaN sorts after Infinity', 'FloatType', 'NaN', 'Infinity', 1),
  ('FloatType: NaN = NaN', 'FloatType', 'NaN', 'NaN', 0),
  ('FloatType: -Infinity < -1', 'FloatType', '-Infinity', '-1', -1),
  ('DoubleType: trap, -0.0 < 0.0', 'DoubleType', '-0', '0', -1),
  ('DoubleType: trap, NaN sorts after Infinity', 'DoubleType', 'NaN', 'Infinity', 1),
  ('DoubleType: 0.1 < 0.2', 'DoubleType', '0.1', '0.2', -1),
  ('BooleanType: false < true', 'BooleanType', 'false', 'true', -1),
  ('DateType: trap, a negative date (-1 ms) sorts after +1 ms (unsigned bytes)', 'DateType', '-1', '1', 1),
  ('DateType: 1970 < 2010', 'DateType', '1970-01-01 00:00:00Z', '2010-08-12 12:00:00Z', -1),
  ('UUIDType: version first, v1 < v4 even when v4 bytes are smaller', 'UUIDType',
     'ffffffff-ffff-1fff-bfff-ffffffffffff', '00000000-0000-4000-8000-000000000000', -1),
  ('UUIDType: two v1 compare by timestamp, not by bytes', 'UUIDType',
     'ffffffff-0000-1000-8000-000000000000', '00000000-0001-1000-8000-000000000000', -1),
  ('UUIDType: same non-1 version compares unsigned bytes (80.. > 7f..)', 'UUIDType',
     '80000000-0000-4000-8000-000000000000', '7fffffff-ffff-4fff-bfff-ffffffffffff', 1),
  ('LexicalUUIDType: trap, signed high half: 80.. < 7f..', 'LexicalUUIDType',
     '80000000-0000-0000-0000-000000000000', '7fffffff-ffff-ffff-ffff-ffffffffffff', -1),
  ('LexicalUUIDType: trap, signed low half: byte 8 = 80 < 7f', 'LexicalUUIDType',
     '00000000-0000-0000-8000-000000000000', '00000000-0000-0000-7fff-ffffffffffff', -1),
  ('TimeUUIDType: timestamp first, not bytes (time_mid beats time_low)', 'TimeUUIDType',
     'ffffffff-0000-1000-8000-000000000000', '00000000-0001-1000-8000-000000000000', -1),
  ('TimeUUIDType: time_hi beats time_mid', 'TimeUUIDType',
     '00000000-ffff-1000-8000-000000000000', '00000000-0000-1001-8000-000000000000', -1),
  ('TimeUUIDType: trap, equal timestamps tie-break on signed bytes (0x80 < 0x7f)', 'TimeUUIDType',
     '00000000-0000-1000-8000-000000000000', '00000000-0000-1000-7f00-000000000000', -1),
  ('TimeUUIDType: TypeCompareTest pair (same timestamp) does not compare equal', 'TimeUUIDType',
     '1077e700-c7f2-11de-86d5-f5bcc793a028', '1077e700-c7f2-11de-982e-6fad363d5f29', -1),
  ('CompositeType: first component decides', 'CompositeType(UTF8Type, LongType)', 'a:2', 'b:1', -1),
  ('CompositeType: components under their own type (LongType -1 < 1)', 'CompositeType(UTF8Type, LongType)', 'a:-1', 'a:1', -1),
  ('CompositeType: a shorter prefix sorts first', 'CompositeType(UTF8Type, LongType)', 'a', 'a:1', -1),
  ('CompositeType: end-of-component 1 (a:!) sorts after every name starting with a', 'CompositeType(UTF8Type, LongType)', 'a:!', 'a:9223372036854775807', 1),
  ('CompositeType: end-of-component -1 (a:_) sorts before a itself', 'CompositeType(UTF8Type, LongType)', 'a:_', 'a', -1),
  ('CompositeType: end-of-component -1 (a:_) sorts before every name starting with a', 'CompositeType(UTF8Type, LongType)', 'a:_', 'a:-9223372036854775808', -1),
  ('CompositeType: a:! still sorts before b', 'CompositeType(UTF8Type, LongType)', 'a:!', 'b', -1),
  ('CompositeType: a prefix with end-of-component 0 equals itself', 'CompositeType(UTF8Type, LongType)', 'a', 'a', 0),
  ('CompositeType: a reversed component', 'CompositeType(UTF8Type, ReversedType(LongType))', 'a:1', 'a:2', 1),
  ('ReversedType: 1 sorts after 2', 'ReversedType(LongType)', '1', '2', 1),
  ('LongType(reversed=true) is ReversedType(LongType)', 'LongType(reversed=true)', '1', '2', 1),
  ('ReversedType: trap, the empty value still sorts first', 'ReversedType(LongType)', '', '1', -1),
  ('ReversedType(TimeUUIDType): later first', 'ReversedType(TimeUUIDType)',
     'ffffffff-0000-1000-8000-000000000000', '00000000-0001-1000-8000-000000000000', 1);
INSERT INTO cmp_cases SELECT name, type, cfstore.to_bytes(type, a), cfstore.to_bytes(type, b), expected FROM cmp_text;

-- raw-byte cases
INSERT INTO cmp_cases VALUES
  ('IntegerType: trap, redundant sign-extension bytes are ignored: 00000001 = 01', 'IntegerType', '\x00000001', '\x01', 0),
  ('IntegerType: trap, {1,0,0,1} = {0,0,0,1,0,0,1}', 'IntegerType', '\x01000001', '\x00000001000001', 0),
  ('IntegerType: trap, ff = ffff (both -1)', 'IntegerType', '\xff', '\xffff', 0),
  ('IntegerType: 00 = 00000000 (both 0)', 'IntegerType', '\x00', '\x00000000', 0),
  ('DecimalType: 1E+3 (unscaled 1, scale -3) = 1000', 'DecimalType', '\xfffffffd01', '\x0000000003e8', 0),
  ('BooleanType: trap, compared signed, 0x80 < 0x00', 'BooleanType', '\x80', '\x00', -1),
  ('BooleanType: 0x01 < 0x02 (both true, compared as bytes)', 'BooleanType', '\x01', '\x02', -1);

-- every type: the empty value sorts first and equals itself
INSERT INTO cmp_cases
SELECT t || ': the empty value sorts before every value', t, '', v, -1
FROM (VALUES ('BytesType', '\x00'::bytea), ('AsciiType', '\x00'), ('UTF8Type', '\x00'),
             ('LongType', '\x8000000000000000'), ('Int32Type', '\x80000000'), ('IntegerType', '\x80'),
             ('DecimalType', '\x0000000080'), ('FloatType', '\xff800000'), ('DoubleType', '\xfff0000000000000'),
             ('BooleanType', '\x80'), ('DateType', '\x0000000000000000'),
             ('UUIDType', '\x00000000000000000000000000000000'),
             ('LexicalUUIDType', '\x80000000000000000000000000000000'),
             ('TimeUUIDType', '\x00000000000010008080808080808080'),
             ('CompositeType(UTF8Type)', '\x000000')) AS e(t, v);

SELECT plan((SELECT count(*)::integer * 2 FROM cmp_cases) + 2);

SELECT is(cfstore.compare(type, a, b), expected, name) FROM cmp_cases ORDER BY name;
-- antisymmetry: compare(b, a) = -compare(a, b)
SELECT is(cfstore.compare(type, b, a), -expected, name || ' (swapped)') FROM cmp_cases ORDER BY name;

-- transitivity over a shuffled sample: sorting by compare() agrees with a
-- sort by the numeric value for LongType and by time for TimeUUIDType
CREATE TEMP TABLE longs AS
  SELECT v, cfstore.to_bytes('LongType', v::text) AS b
  FROM (SELECT (random() * 2e18 - 1e18)::bigint AS v FROM generate_series(1, 300)) s;
SELECT is((SELECT count(*)::integer FROM longs x, longs y
           WHERE sign(cfstore.compare('LongType', x.b, y.b)) <> sign(x.v - y.v)), 0,
          'LongType: compare agrees with bigint order on 90,000 random pairs');
CREATE TEMP TABLE times AS
  SELECT t, cfstore.to_bytes('TimeUUIDType', min_timeuuid(t)::text) AS b
  FROM (SELECT timestamptz '2000-01-01' + random() * interval '30 years' AS t FROM generate_series(1, 300)) s;
SELECT is((SELECT count(*)::integer FROM times x, times y
           WHERE sign(cfstore.compare('TimeUUIDType', x.b, y.b))
              <> sign(extract(epoch FROM date_trunc('milliseconds', x.t)) - extract(epoch FROM date_trunc('milliseconds', y.t)))), 0,
          'TimeUUIDType: compare agrees with time order on 90,000 random pairs');

SELECT * FROM finish();
ROLLBACK;
