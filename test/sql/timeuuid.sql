-- The cfstore.timeuuid SQL type.
\set VERBOSITY terse
SET search_path = public, cfstore;

-- I/O: any uuid text form in, canonical lowercase out; version 1 only
SELECT '1077E700-C7F2-11DE-86D5-F5BCC793A028'::timeuuid;
SELECT '{1077e700c7f211de86d5f5bcc793a028}'::timeuuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::timeuuid;
SELECT 'nonsense'::timeuuid;

-- casts: to uuid is binary; from uuid checks the version
SELECT '1077e700-c7f2-11de-86d5-f5bcc793a028'::timeuuid::uuid;
SELECT '1077e700-c7f2-11de-86d5-f5bcc793a028'::uuid::timeuuid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::timeuuid;

-- ORDER BY sorts by time.  These two differ in time_low and time_mid so
-- that their byte order and their time order disagree.
CREATE TEMP TABLE tu (label text, t timeuuid);
INSERT INTO tu VALUES
  ('later (time_mid 0001, time_low 00000000)', '00000000-0001-1000-8000-000000000000'),
  ('earlier (time_mid 0000, time_low ffffffff)', 'ffffffff-0000-1000-8000-000000000000'),
  ('latest (time_hi 001)', '00000000-0000-1001-8000-000000000000'),
  ('same time, clock byte 0x7f (signed: larger)', 'ffffffff-0000-1000-7f00-000000000000');
SELECT label, t FROM tu ORDER BY t;
SELECT label FROM tu ORDER BY t::uuid;    -- plain uuid order differs
SELECT label FROM tu ORDER BY t DESC;

-- the six operators
SELECT a.label AS a, b.label AS b, a.t < b.t AS lt, a.t <= b.t AS le, a.t = b.t AS eq,
       a.t <> b.t AS ne, a.t >= b.t AS ge, a.t > b.t AS gt
FROM tu a, tu b WHERE a.label < b.label ORDER BY 1, 2;

-- btree and hash opclasses: indexes, hash joins, hash aggregation
CREATE INDEX ON tu (t);
CREATE INDEX ON tu USING hash (t);
SET enable_seqscan = off;
SELECT label FROM tu WHERE t = '00000000-0001-1000-8000-000000000000';
RESET enable_seqscan;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*) FROM tu a JOIN tu b ON a.t = b.t;
RESET enable_mergejoin;
RESET enable_nestloop;
SELECT count(DISTINCT t) FROM tu;
CREATE TEMP TABLE tp (t timeuuid) PARTITION BY HASH (t);
CREATE TEMP TABLE tp0 PARTITION OF tp FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE tp1 PARTITION OF tp FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO tp SELECT t FROM tu;
SELECT count(*) FROM tp;

-- min_timeuuid / max_timeuuid bound a millisecond; timeuuid_time reads the time
SELECT min_timeuuid('2010-08-12 12:00:00.123456+00') AS min,
       max_timeuuid('2010-08-12 12:00:00.123456+00') AS max;
SELECT timeuuid_time(min_timeuuid('2010-08-12 12:00:00.123456+00')) AS min_time,
       timeuuid_time(max_timeuuid('2010-08-12 12:00:00.123456+00')) AS max_time;
SELECT max_timeuuid('2010-08-12 12:00:00.122+00') < min_timeuuid('2010-08-12 12:00:00.123+00') AS ms_do_not_overlap;
SELECT timeuuid_time('1077e700-c7f2-11de-86d5-f5bcc793a028');
SELECT min_timeuuid('1582-10-15 00:00:00+00');
SELECT min_timeuuid('1500-01-01 00:00:00+00');
SELECT min_timeuuid('infinity');

-- timeuuid_now: version 1, strictly increasing within a session
SELECT bool_and(a < b) AS strictly_increasing
FROM (SELECT t AS a, lead(t) OVER (ORDER BY n) AS b
      FROM (SELECT n, timeuuid_now() AS t FROM generate_series(1, 10000) n) s) p
WHERE b IS NOT NULL;
SELECT abs(extract(epoch FROM timeuuid_time(timeuuid_now()) - now())) < 60 AS now_is_now;

-- text I/O round trip
SELECT t = timeuuid_in(timeuuid_out(t)) AS text_round_trip FROM tu LIMIT 1;
