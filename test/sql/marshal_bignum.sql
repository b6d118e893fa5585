-- IntegerType and DecimalType at the sizes where their conversions divide
-- and conquer (cfbignum.c): checked against references computed here with
-- numeric, or for values too long for numeric against fingerprints modulo
-- a prime, and round trips of 1,000,000 digits.  Inputs are pseudo-random
-- but fixed (md5 chains); every result printed is a count or a boolean.
\set VERBOSITY terse
SET search_path = public, cfstore;

-- n pseudo-random decimal digits, a function of seed alone.
CREATE FUNCTION pg_temp.digits(seed text, n int) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT substr(string_agg(translate(md5(seed || ':' || i), 'abcdef', '012345'), '' ORDER BY i), 1, n)
    FROM generate_series(0, n / 32) i
$$;

-- A pseudo-random number 0 .. m - 1 from a seed.
CREATE FUNCTION pg_temp.rnd(seed text, m int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
  SELECT (('x' || substr(md5(seed), 1, 8))::bit(32)::bigint % m)::int
$$;

-- The minimal two's-complement bytes of an integer, by division by 2^48:
-- a negative n is the complement of -n - 1.
CREATE FUNCTION pg_temp.ref_bytes(n numeric) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  m numeric := CASE WHEN n < 0 THEN -n - 1 ELSE n END;
  h text := '';
BEGIN
  LOOP
    h := lpad(to_hex(mod(m, 281474976710656)::bigint), 12, '0') || h;
    m := div(m, 281474976710656);
    EXIT WHEN m = 0;
  END LOOP;
  h := regexp_replace(h, '^(00)+', '');
  IF h = '' OR substr(h, 1, 1) >= '8' THEN
    h := '00' || h;
  END IF;
  IF n < 0 THEN
    h := translate(h, '0123456789abcdef', 'fedcba9876543210');
  END IF;
  RETURN decode(h, 'hex');
END $$;

-- The value of two's-complement bytes (any length, redundant sign bytes
-- allowed), by Horner's rule on 6-byte chunks.
CREATE FUNCTION pg_temp.ref_value(b bytea) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  h text := encode(b, 'hex');
  v numeric := 0;
BEGIN
  h := lpad(h, (length(h) + 11) / 12 * 12, '0');
  FOR i IN 0 .. length(h) / 12 - 1 LOOP
    v := v * 281474976710656 + ('x' || lpad(substr(h, i * 12 + 1, 12), 16, '0'))::bit(64)::bigint;
  END LOOP;
  IF get_byte(b, 0) >= 128 THEN
    v := v - 256::numeric ^ length(b);
  END IF;
  RETURN trunc(v);
END $$;

-- A decimal integer text modulo the prime 2^61 - 1, from its digits, 36
-- at a time.  (The digits are read as bytes: substr on text counts
-- characters from the start at every call.)
CREATE FUNCTION pg_temp.fp_text(s text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  p numeric := 2305843009213693951;
  d bytea := convert_to(ltrim(s, '+-'), 'UTF8');
  head int := length(d) % 36;
  r numeric := 0;
BEGIN
  IF head > 0 THEN
    r := convert_from(substring(d FROM 1 FOR head), 'UTF8')::numeric;
  END IF;
  FOR i IN 0 .. (length(d) - head) / 36 - 1 LOOP
    r := mod(r * 1000000000000000000000000000000000000 +
             convert_from(substring(d FROM head + i * 36 + 1 FOR 36), 'UTF8')::numeric, p);
  END LOOP;
  r := mod(r, p);
  RETURN CASE WHEN left(s, 1) = '-' THEN mod(p - r, p) ELSE r END;
END $$;

-- The value of two's-complement bytes modulo 2^61 - 1, 14 bytes at a time.
CREATE FUNCTION pg_temp.fp_bytes(b bytea) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  p numeric := 2305843009213693951;
  head int := length(b) % 14;
  r numeric := 0;
  w numeric := 1;       -- 256^length(b) modulo p
  c text;
BEGIN
  IF head > 0 THEN
    c := lpad(encode(substring(b FROM 1 FOR head), 'hex'), 28, '0');
    r := ('x' || substr(c, 1, 14))::bit(56)::bigint * 72057594037927936::numeric +
         ('x' || substr(c, 15))::bit(56)::bigint;
    w := 256::numeric ^ head;
  END IF;
  FOR i IN 0 .. (length(b) - head) / 14 - 1 LOOP
    c := encode(substring(b FROM head + i * 14 + 1 FOR 14), 'hex');
    r := mod(r * 5192296858534827628530496329220096 +
             ('x' || substr(c, 1, 14))::bit(56)::bigint * 72057594037927936::numeric +
             ('x' || substr(c, 15))::bit(56)::bigint, p);
    w := mod(w * 5192296858534827628530496329220096, p);
  END LOOP;
  r := mod(r, p);
  IF get_byte(b, 0) >= 128 THEN
    r := mod(r - mod(w, p) + p, p);
  END IF;
  RETURN trunc(r);
END $$;

-- IntegerType texts: every length to 40 digits, lengths around the
-- conversions' split points (2^k limbs of 18 digits, or of 2^64, 19.27
-- digits) and thresholds, and random lengths to 5,000; both signs, some
-- with leading zeros or a '+'.
CREATE TEMP TABLE int_cases AS
WITH lens AS (
  SELECT generate_series(1, 40) AS n
  UNION ALL
  SELECT k * 18 + d FROM unnest(ARRAY[8, 16, 32, 48, 64, 80, 128, 160, 256]) k, generate_series(-1, 1) d
  UNION ALL
  SELECT (k * 19.266)::int + d FROM unnest(ARRAY[8, 16, 32, 48, 64, 96, 128, 200, 256]) k, generate_series(-1, 1) d
  UNION ALL
  SELECT 1 + pg_temp.rnd('len' || i, 5000) FROM generate_series(1, 100) i
), cases AS (
  SELECT row_number() OVER (ORDER BY n) AS id, n FROM lens
)
SELECT id, n,
       CASE pg_temp.rnd('sign' || id, 4) WHEN 0 THEN '-' WHEN 1 THEN '+' WHEN 2 THEN '-' ELSE '' END ||
       CASE WHEN pg_temp.rnd('zeros' || id, 5) = 0 THEN repeat('0', pg_temp.rnd('nz' || id, 30)) ELSE '' END ||
       CASE pg_temp.rnd('kind' || id, 8)
         WHEN 0 THEN repeat('9', n)                          -- all carries
         WHEN 1 THEN '1' || repeat('0', n - 1)               -- a power of ten
         ELSE pg_temp.digits('int' || id, n) END AS s
  FROM cases;
-- powers of two and their neighbours, where the byte length changes
INSERT INTO int_cases
SELECT 1000 + e * 3 + d, 0, CASE WHEN e % 2 = 0 THEN '-' ELSE '' END || (trunc(2::numeric ^ e) + d)::text
  FROM generate_series(7, 4000, 73) e, generate_series(-1, 1) d;

SELECT count(*) AS cases,
       count(*) FILTER (WHERE to_bytes('IntegerType', s) = pg_temp.ref_bytes(s::numeric)) AS bytes_match,
       count(*) FILTER (WHERE to_string('IntegerType', to_bytes('IntegerType', s)) = (s::numeric)::text) AS text_match
  FROM int_cases;

-- Rendering any bytes, including redundant sign bytes (00 00 05, ff ff fb).
CREATE TEMP TABLE byte_cases AS
SELECT i,
       CASE pg_temp.rnd('bp' || i, 4) WHEN 0 THEN '\x0000'::bytea WHEN 1 THEN '\xffff'::bytea ELSE '\x'::bytea END ||
       substr(decode(string_agg(md5('bytes' || i || ':' || j), '' ORDER BY j), 'hex'),
              1, 1 + pg_temp.rnd('blen' || i, 2100)) AS b
  FROM generate_series(1, 150) i, generate_series(0, 140) j
 GROUP BY i;
INSERT INTO byte_cases VALUES (1001, '\x00'), (1002, '\xff'), (1003, '\x80'), (1004, '\x0080'),
  (1005, '\xff7f'), (1006, '\x000000'), (1007, '\xffffff'), (1008, '\x8000000000000000'),
  (1009, '\x008000000000000000'), (1010, '\xff7fffffffffffffff');

SELECT count(*) AS cases,
       count(*) FILTER (WHERE to_string('IntegerType', b) = pg_temp.ref_value(b)::text) AS text_match
  FROM byte_cases;

-- DecimalType order against numeric: both unscaled values brought to the
-- larger scale.
CREATE FUNCTION pg_temp.dec(unscaled text, scale int) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
  SELECT int4send(scale) || to_bytes('IntegerType', unscaled)
$$;
CREATE FUNCTION pg_temp.ref_cmp(ua text, sa int, ub text, sb int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
  SELECT sign(ua::numeric * ('1' || repeat('0', greatest(sa, sb) - sa))::numeric -
              ub::numeric * ('1' || repeat('0', greatest(sa, sb) - sb))::numeric)::int
$$;

-- Random pairs: independent values, equal values at different scales
-- (1.0 = 1.00), values one unit apart after rescaling, zeros, values of
-- thousands of digits with scales thousands apart; negative scales too.
CREATE TEMP TABLE dec_pairs AS
WITH base AS (
  SELECT i,
         pg_temp.rnd('mode' || i, 6) AS mode,
         CASE WHEN pg_temp.rnd('neg' || i, 2) = 0 THEN '-' ELSE '' END AS sign,
         CASE WHEN pg_temp.rnd('big' || i, 6) = 0 THEN 300 + pg_temp.rnd('la' || i, 3000)
              ELSE 1 + pg_temp.rnd('la' || i, 45) END AS la,
         CASE WHEN pg_temp.rnd('wide' || i, 5) = 0 THEN pg_temp.rnd('sa' || i, 6001) - 3000
              ELSE pg_temp.rnd('sa' || i, 81) - 40 END AS sa,
         1 + pg_temp.rnd('j' || i, 40) AS j
    FROM generate_series(1, 700) i
), a AS (
  SELECT *, sign || '1' || pg_temp.digits('ua' || i, la - 1) AS ua FROM base
)
SELECT i, mode, ua, sa,
       CASE mode
         WHEN 0 THEN CASE WHEN pg_temp.rnd('nb' || i, 3) = 0 THEN '-' ELSE '' END ||
                     '1' || pg_temp.digits('ub' || i, pg_temp.rnd('lb' || i, la + 20))
         WHEN 1 THEN ua || repeat('0', j)
         WHEN 2 THEN (ua::numeric * ('1' || repeat('0', j))::numeric + 1)::text
         WHEN 3 THEN (ua::numeric * ('1' || repeat('0', j))::numeric - 1)::text
         WHEN 4 THEN '0'
         ELSE ua END AS ub,
       CASE mode
         WHEN 0 THEN sa + pg_temp.rnd('sb' || i, 61) - 30
         WHEN 4 THEN sa - j
         WHEN 5 THEN sa - j
         ELSE sa + j END AS sb
  FROM a;
UPDATE dec_pairs SET ua = '0' WHERE mode = 4 AND i % 2 = 0;

SELECT count(*) AS pairs,
       count(*) FILTER (WHERE compare('DecimalType', pg_temp.dec(ua, sa), pg_temp.dec(ub, sb)) = pg_temp.ref_cmp(ua, sa, ub, sb)) AS order_match,
       count(*) FILTER (WHERE compare('DecimalType', pg_temp.dec(ub, sb), pg_temp.dec(ua, sa)) = -pg_temp.ref_cmp(ua, sa, ub, sb)) AS reverse_match,
       count(*) FILTER (WHERE pg_temp.ref_cmp(ua, sa, ub, sb) = 0) AS equal_pairs
  FROM dec_pairs;

-- Named cases, with numeric's answer beside.
SELECT name, compare('DecimalType', pg_temp.dec(ua, sa), pg_temp.dec(ub, sb)) AS cmp,
       pg_temp.ref_cmp(ua, sa, ub, sb) AS numeric_cmp
  FROM (VALUES
    ('1.0 = 1.00', '10', 1, '100', 2),
    ('0E+5 = 0E-5', '0', -5, '0', 5),
    ('1E+3 = 1000', '1', -3, '1000', 0),
    ('1E+3 > 999', '1', -3, '999', 0),
    ('-1E+3 < -999', '-1', -3, '-999', 0),
    ('i64 max, k = 2', '9223372036854775807', 0, '922337203685477580700', 2),
    ('i64 min, k = 18', '-9223372036854775808', 0, '-9223372036854775808000000000000000000', 18),
    ('i64 min, k = 19', '-9223372036854775808', 0, '-92233720368547758080000000000000000000', 19),
    ('i64 max vs max + 1, k = 18', '9223372036854775807', 0, '9223372036854775808000000000000000000', 18),
    ('tiny vs 456, k = 100000', '123', 100000, '456', 0),
    ('long vs long, k = 1000, equal', '7' || repeat('3', 4000), 0, '7' || repeat('3', 4000) || repeat('0', 1000), 1000),
    ('long vs long, k = 1000, one less', '7' || repeat('3', 4000), 0, '7' || repeat('3', 3999) || '2' || repeat('9', 1000), 1000)
  ) v(name, ua, sa, ub, sb);

SELECT compare('DecimalType', '\x7fffffff01', '\x8000000001') AS "1E-2147483647 vs 1E+2147483648",
       compare('DecimalType', '\x7fffffffff', '\x80000000ff') AS "-1E-2147483647 vs -1E+2147483648",
       compare('DecimalType', '\x00000003', pg_temp.dec('0', -7)) AS "scale only (zero) vs 0E+7",
       compare('DecimalType', '\x01', '\x0000000101') AS "malformed vs 1E-1",
       compare('DecimalType', '\x0102', '\x01') AS "malformed vs malformed";

-- DecimalType text is read as BigDecimal(String) reads it: numeric's value
-- at the scale of the fraction digits less the exponent (negative too:
-- 1.5E+3 is 15 at scale -2); the text form prints it as numeric does.
CREATE FUNCTION pg_temp.ref_decimal(s text) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
  SELECT int4send(sc) ||
         to_bytes('IntegerType', CASE WHEN sc >= 0 THEN trunc(s::numeric * ('1' || repeat('0', sc))::numeric)
                                      ELSE div(s::numeric, ('1' || repeat('0', -sc))::numeric) END::text)
    FROM (SELECT coalesce(length(substring(s FROM '\.([0-9]*)')), 0) -
                 coalesce(substring(s FROM '[eE]\s*([-+]?[0-9]+)')::int, 0) AS sc) x
$$;
CREATE TEMP TABLE dec_texts AS
SELECT s FROM unnest(ARRAY['0', '-0', '+0', '-0.00', '+1', '0001.10', '1.', '1.50', '-12.3400',
  ' 7', E'\t-7.5\n', '  12.  ', chr(11) || E'+3.25\f\r', '.5', '-.5', '+.5e-3', '1e3', '1.5E+3', '-0.000e10',
  '1.e2', '1e+0', '12E-0', '-.5E1', E'1e\t5', '1e0000000000002', '0E-2']) s
UNION ALL
SELECT CASE pg_temp.rnd('ds' || i, 3) WHEN 0 THEN '-' WHEN 1 THEN '+' ELSE '' END ||
       pg_temp.digits('di' || i, pg_temp.rnd('dil' || i, 30)) ||
       CASE WHEN pg_temp.rnd('dp' || i, 4) > 0 THEN '.' || pg_temp.digits('df' || i, pg_temp.rnd('dfl' || i, 40)) ELSE '' END
  FROM generate_series(1, 300) i
UNION ALL
SELECT CASE pg_temp.rnd('es' || i, 3) WHEN 0 THEN '-' WHEN 1 THEN '+' ELSE '' END ||
       pg_temp.digits('ei' || i, pg_temp.rnd('eil' || i, 20)) ||
       CASE WHEN pg_temp.rnd('ep' || i, 3) > 0 THEN '.' || pg_temp.digits('ef' || i, pg_temp.rnd('efl' || i, 20)) ELSE '' END ||
       CASE WHEN pg_temp.rnd('ec' || i, 2) = 0 THEN 'e' ELSE 'E' END ||
       CASE pg_temp.rnd('eg' || i, 3) WHEN 0 THEN '-' WHEN 1 THEN '+' ELSE '' END ||
       pg_temp.rnd('ex' || i, 41)
  FROM generate_series(1, 300) i;
-- drop the texts without a digit before the exponent (or the end)
DELETE FROM dec_texts WHERE s ~ '^[-+]?\.?([eE]|$)';

SELECT count(*) AS texts,
       count(*) FILTER (WHERE to_bytes('DecimalType', s) = pg_temp.ref_decimal(s)) AS bytes_match,
       count(*) FILTER (WHERE to_string('DecimalType', to_bytes('DecimalType', s)) = s::numeric::text) AS text_match,
       count(*) FILTER (WHERE substr(to_bytes('DecimalType', s), 1, 1) = '\xff') AS negative_scales
  FROM dec_texts;

-- Errors are numeric's, as before.
SELECT to_bytes('DecimalType', 'NaN');
SELECT to_bytes('DecimalType', '1.2.3');
SELECT to_bytes('DecimalType', ' - 1');
SELECT to_bytes('DecimalType', '+');
SELECT to_bytes('IntegerType', '1 2');
SELECT to_bytes('IntegerType', '+');

-- Beyond numeric's limits (131072 digits before the point, 16383 after):
-- 200,000 digits with 20,000 of them after the point.
SELECT length(b) - 4 = length(to_bytes('IntegerType', i || f)) AS unscaled_length,
       substr(b, 1, 4) = int4send(20000) AS scale,
       substr(b, 5) = to_bytes('IntegerType', i || f) AS unscaled,
       md5(to_string('DecimalType', b)) = md5(i || '.' || f) AS round_trip
  FROM (SELECT '9' || pg_temp.digits('wi', 179999) AS i, pg_temp.digits('wf', 20000) AS f) x,
       LATERAL (SELECT to_bytes('DecimalType', x.i || '.' || x.f) AS b) y;

-- Mid sizes against fingerprints modulo 2^61 - 1, both directions.
SELECT n,
       pg_temp.fp_bytes(to_bytes('IntegerType', s)) = pg_temp.fp_text(s) AS bytes_match,
       to_string('IntegerType', to_bytes('IntegerType', s)) = s AS round_trip
  FROM (SELECT n, CASE WHEN n % 2 = 0 THEN '-' ELSE '' END || '8' || pg_temp.digits('mid' || n, n - 1) AS s
          FROM unnest(ARRAY[5401, 12000, 20000, 33333, 65536]) n) x;

-- 1,000,000 digits: IntegerType both signs, DecimalType with a point
-- inside, and a fraction of 1,000,000 digits (scale 1,000,000).
CREATE TEMP TABLE million AS SELECT '7' || pg_temp.digits('million', 999999) AS s;
CREATE TEMP TABLE million_b AS
SELECT to_bytes('IntegerType', s) AS pos, to_bytes('IntegerType', '-' || s) AS neg,
       to_bytes('DecimalType', '-' || substr(s, 1, 400000) || '.' || substr(s, 400001)) AS dec,
       to_bytes('DecimalType', '0.' || s) AS frac
  FROM million;

SELECT length(s) AS digits,
       pg_temp.fp_bytes(pos) = pg_temp.fp_text(s) AS pos_bytes,
       md5(to_string('IntegerType', pos)) = md5(s) AS pos_round_trip,
       md5(to_string('IntegerType', neg)) = md5('-' || s) AS neg_round_trip,
       substr(dec, 1, 4) = int4send(600000) AND substr(dec, 5) = neg AS dec_bytes,
       md5(to_string('DecimalType', dec)) = md5('-' || substr(s, 1, 400000) || '.' || substr(s, 400001)) AS dec_round_trip,
       substr(frac, 1, 4) = int4send(1000000) AND substr(frac, 5) = pos AS frac_bytes,
       md5(to_string('DecimalType', frac)) = md5('0.' || s) AS frac_round_trip
  FROM million, million_b;

-- Input refuses the scales output refuses (beyond +-1,000,000), so whatever
-- is stored reads back as text: one fraction digit more is refused, and an
-- exponent can bring the scale back in range (1,000,001 - 1), or out of it.
SELECT to_bytes('DecimalType', '0.' || s || '3') FROM million;
SELECT to_bytes('DecimalType', '-' || s || 'E+1000001') FROM million;
SELECT substr(b, 1, 4) = int4send(1000000) AND substr(b, 5) = to_bytes('IntegerType', s || '3') AS back_in_bytes,
       md5(to_string('DecimalType', b)) = md5(substr(s, 1, 1) || '.' || substr(s, 2) || '3') AS back_in_round_trip,
       substr(c, 1, 4) = int4send(-1000000) AND substr(c, 5) = neg AS lowest_bytes,
       md5(to_string('DecimalType', c)) = md5('-' || s || repeat('0', 1000000)) AS lowest_text
  FROM million, million_b,
       LATERAL (SELECT to_bytes('DecimalType', '0.' || s || '3e1') AS b,
                       to_bytes('DecimalType', '-' || s || 'E+1000000') AS c) x;
