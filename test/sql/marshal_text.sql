-- Text forms (README.md "Types and comparators") in both directions: to_string(to_bytes(s)) = s.
\set VERBOSITY terse

CREATE TEMP TABLE text_cases (type text, input text);
INSERT INTO text_cases VALUES
  ('BytesType', ''), ('BytesType', 'abc'), ('BytesType', '\x00415c7f80ff'), ('BytesType', 'a\\b'),
  ('AsciiType', 'hello'), ('UTF8Type', 'héllo €'), ('UTF8Type', '日本'),
  ('LongType', '0'), ('LongType', '-9223372036854775808'), ('LongType', '9223372036854775807'),
  ('Int32Type', '-2147483648'), ('Int32Type', '42'), ('CounterColumnType', '-5'),
  ('IntegerType', '0'), ('IntegerType', '127'), ('IntegerType', '128'), ('IntegerType', '-128'),
  ('IntegerType', '-129'), ('IntegerType', '255'), ('IntegerType', '-256'),
  ('IntegerType', '123456789012345678901234567890'), ('IntegerType', '-123456789012345678901234567890'),
  ('DecimalType', '1.50'), ('DecimalType', '0.005'), ('DecimalType', '-0.5'), ('DecimalType', '1e3'),
  ('DecimalType', '12345678901234567890.123'), ('DecimalType', '0'),
  ('FloatType', '0.1'), ('FloatType', '-0'), ('FloatType', 'NaN'), ('FloatType', 'Infinity'),
  ('FloatType', '3.4028235e+38'), ('DoubleType', '0.1'), ('DoubleType', '-Infinity'),
  ('DoubleType', '1e-300'),
  ('BooleanType', 'true'), ('BooleanType', 'false'), ('BooleanType', 'yes'), ('BooleanType', 'f'),
  ('DateType', '2010-08-12 12:00:00.000Z'), ('DateType', '2010-08-12 14:00:00.123+02'),
  ('DateType', '0'), ('DateType', '-1'), ('DateType', '1281614400000'),
  ('DateType', '-62135596800001'), ('DateType', '253402300800000'),
  ('UUIDType', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'), ('UUIDType', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'),
  ('LexicalUUIDType', '80000000-0000-0000-0000-000000000000'),
  ('TimeUUIDType', '1077e700-c7f2-11de-86d5-f5bcc793a028'),
  ('ReversedType(LongType)', '-7'),
  ('CompositeType(UTF8Type, LongType)', 'a\:b:42'),
  ('CompositeType(UTF8Type, LongType)', 'a:!'),
  ('CompositeType(UTF8Type, LongType)', 'a:_'),
  ('CompositeType(UTF8Type, LongType)', 'a:1:!'),
  ('CompositeType(UTF8Type, LongType)', 'a'),
  ('CompositeType(UTF8Type, LongType)', ':5'),
  ('CompositeType(UTF8Type, UTF8Type)', '\!:\_'),
  ('CompositeType(UTF8Type, UTF8Type)', 'a\\b:c'),
  ('CompositeType(BytesType, UTF8Type)', 'x\\\\001:y'),
  ('CompositeType(UTF8Type, CompositeType(UTF8Type, LongType))', 'a:b\:1');

SELECT type, input, cfstore.to_bytes(type, input) AS bytes,
       cfstore.to_string(type, cfstore.to_bytes(type, input)) AS text_form
FROM text_cases;

-- the reversibility rule: rendering what was rendered gives it back
SELECT count(*) AS not_reversible FROM text_cases
WHERE cfstore.to_string(type, cfstore.to_bytes(type, cfstore.to_string(type, cfstore.to_bytes(type, input))))
   <> cfstore.to_string(type, cfstore.to_bytes(type, input));

-- DecimalType input takes the scale java.math.BigDecimal(String) gives:
-- the unscaled value is all the digits, the scale the number of fraction
-- digits less the exponent, so exponent forms keep negative scales
-- (1.23E+5: scale -3 = fffffffd, unscaled 123 = 7b).  Output is plain, as
-- numeric prints the value; reading it back gives an equal value.
SELECT s AS input, cfstore.to_bytes('DecimalType', s) AS bytes,
       cfstore.to_string('DecimalType', cfstore.to_bytes('DecimalType', s)) AS text_form,
       cfstore.compare('DecimalType', cfstore.to_bytes('DecimalType', s),
                       cfstore.to_bytes('DecimalType', cfstore.to_string('DecimalType', cfstore.to_bytes('DecimalType', s)))) AS cmp_read_back
FROM unnest(ARRAY['1.23E+5', '1.23e5', '-1.23E+5', '1E+3', '1.5e-2', '-0.00', '123', '0E+5',
                  '.5E1', '1.E2', '+1.0E+1', '-129E-2', '1E-7', '1e-0', E' 2.50e0\t', '1e 5']) s;

-- DecimalType input refuses the scales output refuses (beyond +-1,000,000)
SELECT cfstore.to_bytes('DecimalType', '1E+1000000') AS scale_min,
       length(cfstore.to_string('DecimalType', cfstore.to_bytes('DecimalType', '1E+1000000'))) AS scale_min_length,
       cfstore.to_bytes('DecimalType', '1E-1000000') AS scale_max,
       length(cfstore.to_string('DecimalType', cfstore.to_bytes('DecimalType', '1E-1000000'))) AS scale_max_length;
SELECT cfstore.to_bytes('DecimalType', '1E+1000001');
SELECT cfstore.to_bytes('DecimalType', '1E-1000001');
SELECT cfstore.to_bytes('DecimalType', '0.5e-2147483647');
-- an exponent beyond 32 bits is refused, as BigDecimal refuses it, with numeric's error
SELECT cfstore.to_bytes('DecimalType', '1e2147483648');

-- DateType output is UTC whatever the session's time zone
SET TimeZone = 'America/New_York';
SELECT cfstore.to_string('DateType', cfstore.to_bytes('DateType', '2010-08-12 08:00:00-04'));
RESET TimeZone;

-- TimeUUIDType accepts 'now': a fresh version-1 UUID
SELECT cfstore.validate('TimeUUIDType', cfstore.to_bytes('TimeUUIDType', 'now')) IS NOT NULL AS now_is_v1;
SELECT cfstore.to_bytes('TimeUUIDType', 'now') <> cfstore.to_bytes('TimeUUIDType', 'now') AS now_changes;

-- input errors
SELECT cfstore.to_bytes('LongType', 'abc');
SELECT cfstore.to_bytes('LongType', '9223372036854775808');
SELECT cfstore.to_bytes('Int32Type', '2147483648');
SELECT cfstore.to_bytes('IntegerType', '1.5');
SELECT cfstore.to_bytes('DecimalType', 'NaN');
SELECT cfstore.to_bytes('DecimalType', 'abc');
SELECT cfstore.to_bytes('BooleanType', 'maybe');
SELECT cfstore.to_bytes('DateType', 'infinity');
SELECT cfstore.to_bytes('DateType', 'not a date');
SELECT cfstore.to_bytes('UUIDType', 'xyz');
SELECT cfstore.to_bytes('TimeUUIDType', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
SELECT cfstore.to_bytes('AsciiType', 'é');
SELECT cfstore.to_bytes('CompositeType(UTF8Type)', 'a:b');
SELECT cfstore.to_bytes('CompositeType(UTF8Type, UTF8Type)', 'a:!:b');
SELECT cfstore.to_bytes('CompositeType(UTF8Type, UTF8Type)', '!');
SELECT cfstore.to_bytes('CompositeType(UTF8Type, UTF8Type)', 'a\');
SELECT cfstore.to_bytes('CompositeType(UTF8Type, LongType)', 'a:x');

-- output errors: values text cannot hold
SELECT cfstore.to_string('UTF8Type', '\xc080');
SELECT cfstore.to_string('AsciiType', '\x00');
-- a DecimalType scale too large to print
SELECT cfstore.to_string('DecimalType', '\x7fffffff01');
-- non-1-byte-valued booleans render by their truth
SELECT cfstore.to_string('BooleanType', '\x02') AS nonzero_is_true;
