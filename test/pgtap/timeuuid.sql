-- cfstore.timeuuid: ordering by time and the millisecond bounds.
BEGIN;
SET search_path = public, cfstore;
SELECT plan(7);

-- timeuuids generated now, plus ones with extreme clock-sequence/node bytes
CREATE TEMP TABLE gen AS
  SELECT timeuuid_now() AS x FROM generate_series(1, 5000);
-- build the extreme ones from text: timestamp fields of min_timeuuid(t),
-- then the 8 clock-sequence/node bytes
INSERT INTO gen
  SELECT (left(min_timeuuid(t)::text, 19) || substr(fill, 1, 4) || '-' || substr(fill, 5))::timeuuid
  FROM (SELECT now() - n * interval '1 ms' AS t FROM generate_series(0, 99) n) s,
       (VALUES ('0000000000000000'), ('ffffffffffffffff'), ('8080808080808080'),
               ('7f7f7f7f7f7f7f7f'), ('80000000000000ff'), ('7fffffffffffff00')) AS f(fill);

SELECT is((SELECT count(*)::integer FROM gen), 5600, 'generated 5,600 timeuuids');
SELECT is((SELECT count(*)::integer FROM gen
           WHERE NOT (min_timeuuid(date_trunc('milliseconds', timeuuid_time(x))) <= x
                      AND x <= max_timeuuid(date_trunc('milliseconds', timeuuid_time(x))))), 0,
          'min_timeuuid(t) <= x <= max_timeuuid(t) for every x of millisecond t (clock bytes 00.., ff.., 80.., 7f.. included)');
SELECT is((SELECT count(*)::integer FROM gen
           WHERE x < min_timeuuid(date_trunc('milliseconds', timeuuid_time(x)) + interval '1 ms')
             AND x > max_timeuuid(date_trunc('milliseconds', timeuuid_time(x)) - interval '1 ms')), 5600,
          'every x lies strictly between the bounds of the neighbouring milliseconds');

-- ORDER BY sorts by time: compare the order by timeuuid with the order by time
CREATE TEMP TABLE spread AS
  SELECT n, min_timeuuid(timestamptz '1990-01-01' + n * interval '7 minutes 13.217 seconds') AS x
  FROM generate_series(1, 2000) n;
SELECT is((SELECT array_agg(n ORDER BY x) FROM spread),
          (SELECT array_agg(n ORDER BY n) FROM spread),
          'ORDER BY timeuuid sorts by time (2,000 values across time_low wrap-arounds)');
SELECT isnt((SELECT array_agg(n ORDER BY x::uuid) FROM spread),
            (SELECT array_agg(n ORDER BY n) FROM spread),
            'the same values in uuid byte order are not in time order (the test can fail)');
CREATE INDEX ON spread (x);
SET LOCAL enable_seqscan = off;
SET LOCAL enable_sort = off;
SELECT is((SELECT array_agg(n) FROM (SELECT n FROM spread ORDER BY x DESC) s),
          (SELECT array_agg(n ORDER BY n DESC) FROM spread),
          'a btree index scan returns time order, backwards too');
SELECT throws_ok($$SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::timeuuid$$,
                 '22023', 'Invalid version for TimeUUID type.', 'the cast from uuid rejects version 4');

SELECT * FROM finish();
ROLLBACK;
