-- The "any" argument slots (README.md "Reading and writing"): SQL values of each supported
-- type converted to Cassandra encodings, checked against the text forms
-- (to_bytes), and the errors for pairings that have no conversion.
\set VERBOSITY terse
SET search_path = public, cfstore;

-- bytea: the raw bytes, then validated by the type
SELECT _arg_bytes('LongType', '\x000000000000002a'::bytea) AS long_raw,
       _arg_bytes('BytesType', '\x00ff'::bytea) AS bytes_raw,
       _arg_bytes('UTF8Type', ''::bytea) AS empty;
SELECT _arg_bytes('LongType', '\x01'::bytea);
SELECT _arg_bytes('TimeUUIDType', '\xa0eebc999c0b4ef8bb6d6bb9bd380a11'::bytea);

-- text, varchar, bpchar, name and unknown literals: the text form (README.md, "Types and comparators")
CREATE TEMP TABLE text_args (type text, input text);
INSERT INTO text_args VALUES
  ('BytesType', '\x00415c'), ('BytesType', 'abc'), ('AsciiType', 'hello'), ('UTF8Type', 'héllo €'),
  ('LongType', '-42'), ('Int32Type', '7'), ('IntegerType', '-129'), ('DecimalType', '1.50'),
  ('FloatType', '0.1'), ('DoubleType', 'NaN'), ('BooleanType', 'yes'),
  ('DateType', '2010-08-12 12:00:00.000Z'), ('DateType', '1281614400000'),
  ('UUIDType', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'),
  ('LexicalUUIDType', '80000000-0000-0000-0000-000000000000'),
  ('TimeUUIDType', '1077e700-c7f2-11de-86d5-f5bcc793a028'), ('CounterColumnType', '5'),
  ('CompositeType(UTF8Type, LongType)', 'a\:b:42'), ('CompositeType(UTF8Type, LongType)', 'a:!'),
  ('ReversedType(LongType)', '3'), ('LongType', '');
SELECT type, input,
       _arg_bytes(type, input) = to_bytes(type, input) AS as_text,
       _arg_bytes(type, input::varchar) = to_bytes(type, input) AS as_varchar,
       _arg_bytes(type, input::name) = to_bytes(type, input) AS as_name
FROM text_args;
-- unknown literals arrive as cstrings
SELECT _arg_bytes('LongType', '42') AS unknown_long,
       _arg_bytes('UTF8Type', 'abc') AS unknown_utf8,
       _arg_bytes('BytesType', '\x41') AS unknown_bytes,
       _arg_bytes('CompositeType(UTF8Type, LongType)', 'a:1') = to_bytes('CompositeType(UTF8Type, LongType)', 'a:1') AS unknown_composite,
       _arg_bytes('Int32Type', '') AS unknown_empty;
-- bpchar padding is not part of the value (as in the cast to text)
SELECT _arg_bytes('UTF8Type', 'ab'::char(4)) AS bpchar, _arg_bytes('UTF8Type', ' a '::char(4)) AS bpchar_lead;
-- the text form's own errors
SELECT _arg_bytes('LongType', 'abc'::text);
SELECT _arg_bytes('Int32Type', '2147483648');
SELECT _arg_bytes('TimeUUIDType', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::text);

-- bigint, integer, smallint
SELECT _arg_bytes('LongType', 42) AS long_int4,
       _arg_bytes('LongType', 42::smallint) AS long_int2,
       _arg_bytes('LongType', -9223372036854775808) AS long_min,
       _arg_bytes('CounterColumnType', 7::bigint) AS counter,
       _arg_bytes('Int32Type', 42) AS int32,
       _arg_bytes('Int32Type', -2::smallint) AS int32_int2,
       _arg_bytes('Int32Type', 2147483647::bigint) AS int32_max,
       _arg_bytes('Int32Type', -2147483648::bigint) AS int32_min;
SELECT v, _arg_bytes('IntegerType', v) AS integer_bytes,
       _arg_bytes('IntegerType', v) = to_bytes('IntegerType', v::text) AS same_as_text,
       _arg_bytes('DecimalType', v) AS decimal_bytes,
       to_string('DecimalType', _arg_bytes('DecimalType', v)) AS decimal_text
FROM unnest(ARRAY[0, 127, 128, -128, -129, 255, 256, -1, 1000,
                  9223372036854775807, -9223372036854775808]::bigint[]) AS v;
SELECT _arg_bytes('IntegerType', 32767::smallint) AS int2_max, _arg_bytes('IntegerType', (-32768)::smallint) AS int2_min;
SELECT _arg_bytes('FloatType', 3) AS float3, _arg_bytes('DoubleType', 3::bigint) AS double3,
       to_string('FloatType', _arg_bytes('FloatType', 16777217)) AS float_rounds,
       _arg_bytes('DoubleType', -9007199254740993) = to_bytes('DoubleType', '-9007199254740992') AS double_rounds;
SELECT _arg_bytes('DateType', 1281614400000) AS date_millis,
       to_string('DateType', _arg_bytes('DateType', 1281614400000)) AS date_text,
       to_string('DateType', _arg_bytes('DateType', -1)) AS date_before_1970;
SELECT _arg_bytes('Int32Type', 3000000000);
SELECT _arg_bytes('Int32Type', -2147483649);
SELECT _arg_bytes('BooleanType', 1);
SELECT _arg_bytes('UTF8Type', 42::bigint);
SELECT _arg_bytes('BytesType', 42::smallint);
SELECT _arg_bytes('UUIDType', 42);

-- numeric
SELECT _arg_bytes('DecimalType', 1.50) AS dec_1_50,
       to_string('DecimalType', _arg_bytes('DecimalType', 1.50)) AS dec_1_50_text,
       _arg_bytes('DecimalType', -0.001) AS dec_neg,
       _arg_bytes('DecimalType', 1e3) AS dec_1e3,
       _arg_bytes('DecimalType', 0.000) AS dec_zero_scale_3,
       _arg_bytes('DecimalType', 12345678901234567890.123) = to_bytes('DecimalType', '12345678901234567890.123') AS dec_big;
SELECT _arg_bytes('IntegerType', 12.00) AS integer_12_00,
       _arg_bytes('IntegerType', -129::numeric) AS integer_neg,
       _arg_bytes('IntegerType', 123456789012345678901234567890) = to_bytes('IntegerType', '123456789012345678901234567890') AS integer_big,
       _arg_bytes('LongType', 9223372036854775807::numeric) AS long_max,
       _arg_bytes('LongType', -9223372036854775808::numeric) AS long_min,
       _arg_bytes('LongType', 1e3) AS long_1e3,
       _arg_bytes('Int32Type', -2147483648::numeric) AS int32_min,
       _arg_bytes('Int32Type', -5.0) AS int32_neg;
SELECT _arg_bytes('IntegerType', 1.5);
SELECT _arg_bytes('LongType', -0.5);
SELECT _arg_bytes('LongType', 9223372036854775808);
SELECT _arg_bytes('LongType', -9223372036854775809);
SELECT _arg_bytes('Int32Type', 2147483648::numeric);
SELECT _arg_bytes('DecimalType', 'NaN'::numeric);
SELECT _arg_bytes('IntegerType', '-Infinity'::numeric);
SELECT _arg_bytes('FloatType', 1.5);
SELECT _arg_bytes('DateType', 1::numeric);

-- real, double precision
SELECT _arg_bytes('FloatType', 1.5::real) AS float_real,
       _arg_bytes('FloatType', 1.5::float8) AS float_double,
       _arg_bytes('DoubleType', 1.5::float8) AS double_double,
       _arg_bytes('DoubleType', -0::float8) AS double_neg_zero,
       to_string('DoubleType', _arg_bytes('DoubleType', 0.1::real)) AS double_of_real;
SELECT _arg_bytes('FloatType', 'NaN'::real) AS float_nan,
       _arg_bytes('FloatType', 'Infinity'::float8) AS float_inf,
       _arg_bytes('DoubleType', '-Infinity'::real) AS double_neg_inf,
       _arg_bytes('FloatType', 0.1::float8) = to_bytes('FloatType', '0.1') AS float_rounds;
SELECT _arg_bytes('FloatType', 1e300::float8);
SELECT _arg_bytes('FloatType', 1e-300::float8);
SELECT _arg_bytes('LongType', 1.0::float8);
SELECT _arg_bytes('DecimalType', 1.5::real);

-- boolean
SELECT _arg_bytes('BooleanType', true) AS t, _arg_bytes('BooleanType', false) AS f;
SELECT _arg_bytes('UTF8Type', true);
SELECT _arg_bytes('Int32Type', false);

-- uuid and cfstore.timeuuid
SELECT _arg_bytes('UUIDType', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) AS uuid_v4,
       _arg_bytes('LexicalUUIDType', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) AS lexical_v4,
       _arg_bytes('TimeUUIDType', '1077e700-c7f2-11de-86d5-f5bcc793a028'::uuid) AS timeuuid_of_uuid,
       _arg_bytes('TimeUUIDType', '1077e700-c7f2-11de-86d5-f5bcc793a028'::timeuuid) AS timeuuid,
       _arg_bytes('UUIDType', '1077e700-c7f2-11de-86d5-f5bcc793a028'::timeuuid) AS uuid_of_timeuuid;
SELECT _arg_bytes('TimeUUIDType', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid);
SELECT _arg_bytes('BytesType', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid);
SELECT _arg_bytes('UTF8Type', '1077e700-c7f2-11de-86d5-f5bcc793a028'::timeuuid);

-- timestamptz and timestamp (taken as UTC): milliseconds since 1970, floored
SELECT _arg_bytes('DateType', '2010-08-12 12:00:00+00'::timestamptz) = to_bytes('DateType', '2010-08-12 12:00:00.000Z') AS tstz,
       _arg_bytes('DateType', '1970-01-01 00:00:00.001+00'::timestamptz) AS one_ms,
       _arg_bytes('DateType', '1969-12-31 23:59:59.9995+00'::timestamptz) AS floored,
       _arg_bytes('DateType', '1970-01-01 00:00:00.0019'::timestamp) AS ts_floored;
SET TimeZone = 'America/New_York';
SELECT to_string('DateType', _arg_bytes('DateType', '1970-01-01 00:00:01'::timestamp)) AS timestamp_is_utc,
       to_string('DateType', _arg_bytes('DateType', '1970-01-01 00:00:01'::timestamptz)) AS timestamptz_is_local,
       to_string('DateType', _arg_bytes('DateType', '1970-01-01 00:00:01')) AS text_is_local;
RESET TimeZone;
SELECT _arg_bytes('DateType', 'infinity'::timestamptz);
SELECT _arg_bytes('DateType', '-infinity'::timestamp);
SELECT _arg_bytes('LongType', now());
SELECT _arg_bytes('DateType', '2010-08-12'::date);

-- records: CompositeType, one field per component, end-of-component 0
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', 1)) AS anonymous,
       _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a'::text, 1::bigint)) = to_bytes('CompositeType(UTF8Type, LongType)', 'a:1') AS same_as_text,
       _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a')) AS prefix,
       _arg_bytes('CompositeType(UTF8Type, LongType)', ROW()) AS no_fields,
       _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('', 1)) AS empty_first;
-- nested types: reversed components, uuids, timestamps, a composite inside a composite
SELECT _arg_bytes('CompositeType(UTF8Type, ReversedType(LongType), TimeUUIDType, DateType)',
                  ROW('x:y', 5, '1077e700-c7f2-11de-86d5-f5bcc793a028'::timeuuid, '2010-08-12 12:00:00+00'::timestamptz))
       = to_bytes('CompositeType(UTF8Type, ReversedType(LongType), TimeUUIDType, DateType)',
                  'x\:y:5:1077e700-c7f2-11de-86d5-f5bcc793a028:2010-08-12 12\:00\:00.000Z') AS mixed;
SELECT _arg_bytes('CompositeType(CompositeType(UTF8Type, Int32Type), BooleanType)', ROW(ROW('a', 1), true)) AS nested,
       to_string('CompositeType(CompositeType(UTF8Type, Int32Type), BooleanType)',
                 _arg_bytes('CompositeType(CompositeType(UTF8Type, Int32Type), BooleanType)', ROW(ROW('a', 1), true))) AS nested_text;
SELECT _arg_bytes('CompositeType(IntegerType, DecimalType, BytesType)', ROW(-129, 1.50, '\x00ff'::bytea)) AS numbers_and_bytes;
SELECT _arg_bytes('ReversedType(CompositeType(UTF8Type, LongType))', ROW('a', 1))
       = to_bytes('CompositeType(UTF8Type, LongType)', 'a:1') AS reversed_composite;
-- named composite types; dropped attributes are not fields
CREATE TYPE arg_pair AS (name text, gone integer, n bigint);
ALTER TYPE arg_pair DROP ATTRIBUTE gone;
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', 1)::arg_pair) AS named_type;
CREATE TEMP TABLE arg_rows (name text, n bigint);
INSERT INTO arg_rows VALUES ('a', 1), ('b', -1);
SELECT name, _arg_bytes('CompositeType(UTF8Type, LongType)', r) = to_bytes('CompositeType(UTF8Type, LongType)', name || ':' || n) AS table_row
FROM arg_rows r ORDER BY name;
-- record errors
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', 1, 2));
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', NULL::bigint));
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', true));
SELECT _arg_bytes('CompositeType(UTF8Type, Int32Type)', ROW('a', 3000000000));
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', '\x01'::bytea));
SELECT _arg_bytes('CompositeType(CompositeType(UTF8Type, Int32Type), BooleanType)', ROW(ROW('a', 'b'), true));
SELECT _arg_bytes('LongType', ROW(1));
SELECT _arg_bytes('UTF8Type', ROW('a', 1)::arg_pair);
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', 1);

-- ReversedType(T) converts as T; errors name the declared type
SELECT _arg_bytes('ReversedType(LongType)', 42) = to_bytes('LongType', '42') AS reversed,
       _arg_bytes('LongType(reversed=true)', 42::numeric) = to_bytes('LongType', '42') AS reversed_param;
SELECT _arg_bytes('ReversedType(LongType)', true);

-- domains convert as their base type; errors name the domain
CREATE DOMAIN arg_posint AS integer CHECK (VALUE > 0);
CREATE DOMAIN arg_label AS text;
CREATE DOMAIN arg_pair_d AS arg_pair;
SELECT _arg_bytes('LongType', 5::arg_posint) AS domain_int,
       _arg_bytes('LongType', '5'::arg_label) AS domain_text,
       _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a', 1)::arg_pair_d) AS domain_record,
       _arg_bytes('CompositeType(UTF8Type, LongType)', ROW('a'::arg_label, 1::arg_posint)) AS domain_fields;
SELECT _arg_bytes('UTF8Type', 5::arg_posint);

-- any other pairing
SELECT _arg_bytes('UTF8Type', '{"a": 1}'::jsonb);
SELECT _arg_bytes('LongType', interval '1 day');
SELECT _arg_bytes('LongType', ARRAY[1, 2]);
-- a bytea is the encoding itself, never a text form
SELECT _arg_bytes('CompositeType(UTF8Type, LongType)', 'a:1'::bytea);
-- NULL is NULL (the function is strict)
SELECT _arg_bytes('LongType', NULL::bigint) IS NULL AS null_is_null;

-- arrays: every element by the same rules
SELECT _arg_bytes_array('LongType', ARRAY[1, 2, -1]) AS ints,
       _arg_bytes_array('UTF8Type', ARRAY['a', 'b']) AS texts,
       _arg_bytes_array('Int32Type', '{}'::integer[]) AS empty,
       _arg_bytes_array('LongType', ARRAY[[1, 2], [3, 4]]) AS two_dimensions;
SELECT _arg_bytes_array('CompositeType(UTF8Type, LongType)', ARRAY[ROW('a', 1), ROW('b', 2)]) AS records,
       _arg_bytes_array('CompositeType(UTF8Type, LongType)', ARRAY[ROW('a', 1)::arg_pair]) AS named_records,
       _arg_bytes_array('TimeUUIDType', ARRAY['1077e700-c7f2-11de-86d5-f5bcc793a028'::timeuuid]) AS timeuuids,
       _arg_bytes_array('BytesType', ARRAY['\x00'::bytea, '\x']) AS byteas,
       _arg_bytes_array('LongType', ARRAY[5::arg_posint]) AS domain_elems;
CREATE DOMAIN arg_ints AS integer[];
SELECT _arg_bytes_array('LongType', ARRAY[7]::arg_ints) AS domain_array;
SELECT _arg_bytes_array('LongType', ARRAY[1, NULL]);
SELECT _arg_bytes_array('LongType', 1);
SELECT _arg_bytes_array('LongType', '{1,2}');
SELECT _arg_bytes_array('Int32Type', ARRAY[1, 3000000000]);
SELECT _arg_bytes_array('LongType', ARRAY[true]);
SELECT _arg_bytes_array('LongType', ARRAY['\x01'::bytea]);
SELECT _arg_bytes_array('TimeUUIDType', ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid]);

DROP DOMAIN arg_ints;
DROP DOMAIN arg_pair_d;
DROP DOMAIN arg_label;
DROP DOMAIN arg_posint;
DROP TYPE arg_pair;
