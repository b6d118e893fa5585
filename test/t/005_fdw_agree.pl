# The foreign table and the function API agree: on the storage bench's
# "timeline" dataset (bench/timeline.sh: 10,000 UTF8Type row keys x 200
# TimeUUIDType columns, 20-byte values, cells arriving interleaved across
# rows), 1,000 random slices read through cfstore_fdw (key = $1, a range on
# column_name, ORDER BY column_name ASC or DESC, LIMIT) return the same
# cells, in the same order, as cfstore.get_slice with the same key, bounds,
# direction and count.  The slices are drawn with a fixed seed: keys that
# exist and some that do not, bounds that are stored names, names between
# them or absent, either direction, counts from 1 to 250.
#
# CFSTORE_AGREE_ROWS / CFSTORE_AGREE_COLS shrink the dataset for a quick
# run; the default is the bench's.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = $ENV{CFSTORE_AGREE_ROWS} // 10000;
my $cols = $ENV{CFSTORE_AGREE_COLS} // 200;
my $cells = $rows * $cols;
my $nslices = 1000;

my $node = PostgreSQL::Test::Cluster->new('agree');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('Agree');
SELECT cfstore.create_column_family('Agree', 'Timeline', comparator => 'TimeUUIDType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE SCHEMA agree;
CREATE FOREIGN TABLE agree.timeline (key text COLLATE "C" NOT NULL, column_name cfstore.timeuuid NOT NULL,
    value text, writetime bigint, ttl integer)
  SERVER cfstore OPTIONS (keyspace 'Agree', column_family 'Timeline');
});
my $rel = $node->safe_psql('postgres', q{SELECT cfstore._storage_relation('Agree', 'Timeline')});
my $tmp = PostgreSQL::Test::Utils::tempdir;

# the bench's cells: cell i goes to row ((i mod R) * P + (i / R) * 104729) mod R,
# named min_timeuuid(2020-01-01 + i ms)
my $p = 7919;
$p++ while ($rows % $p == 0);
my $t0 = time;
$node->safe_psql('postgres', qq{
COPY (SELECT convert_to('user' || (((i % $rows) * $p + (i / $rows) * 104729) % $rows), 'UTF8'), NULL::bytea,
             uuid_send(cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '1 millisecond')::uuid),
             convert_to(substr(md5('value' || i), 1, 20), 'UTF8'), 1577836800000000 + i * 1000,
             NULL::int, NULL::int
        FROM generate_series(0::bigint, $cells - 1) i)
  TO '$tmp/timeline.copy' WITH (FORMAT binary);
COPY $rel FROM '$tmp/timeline.copy' WITH (FORMAT binary);
});
note('load of ' . $cells . ' cells: ' . (time - $t0) . ' s');
is($node->safe_psql('postgres', q{SELECT count(*) FROM agree.timeline}), $cells, 'every cell is in the foreign table');

# The comparison.  A bound is NULL (open), a name stored in the slice's
# row, just after one (the highest TimeUUID of its millisecond), or any
# millisecond's lowest TimeUUID (a name of some row, rarely this one).
$t0 = time;
my $result = $node->safe_psql('postgres', qq{
SET search_path = public, cfstore;
SELECT setseed(0.4242);
CREATE TEMP TABLE slices AS
SELECT n, key, reversed, count,
       CASE WHEN r1 < 0.2 THEN NULL WHEN r1 < 0.6 OR s1 IS NULL AND r1 < 0.8 THEN s1
            WHEN r1 < 0.8 THEN max_timeuuid(timeuuid_time(s1)) ELSE any1 END AS b1,
       CASE WHEN r2 < 0.2 THEN NULL WHEN r2 < 0.6 OR s2 IS NULL AND r2 < 0.8 THEN s2
            WHEN r2 < 0.8 THEN max_timeuuid(timeuuid_time(s2)) ELSE any2 END AS b2
  FROM (SELECT n, key, reversed, count, r1, r2, any1, any2,
               (SELECT column_name::cfstore.timeuuid FROM cfstore.get_slice('Agree', 'Timeline', key, count => 1000)
                OFFSET o1 LIMIT 1) AS s1,
               (SELECT column_name::cfstore.timeuuid FROM cfstore.get_slice('Agree', 'Timeline', key, count => 1000)
                OFFSET o2 LIMIT 1) AS s2
          FROM (SELECT n,
                       'user' || (floor(random() * ($rows + 50)))::int AS key,
                       random() < 0.5 AS reversed,
                       1 + floor(random() * 250)::int AS count,
                       random() AS r1, random() AS r2,
                       floor(random() * $cols)::int AS o1, floor(random() * $cols)::int AS o2,
                       min_timeuuid(timestamptz '2020-01-01 UTC' + floor(random() * $cells) * interval '1 millisecond') AS any1,
                       min_timeuuid(timestamptz '2020-01-01 UTC' + floor(random() * $cells) * interval '1 millisecond') AS any2
                  FROM generate_series(1, $nslices) n) d) e;
-- the start bound comes first in the slice's direction, as get_slice requires
UPDATE slices SET b1 = b2, b2 = b1
 WHERE b1 IS NOT NULL AND b2 IS NOT NULL AND (b1 > b2) <> reversed;

CREATE FUNCTION fdw_slice(k text, lo cfstore.timeuuid, hi cfstore.timeuuid, rev boolean, n int)
RETURNS text[] LANGUAGE plpgsql AS \$\$
DECLARE r text[];
BEGIN
  IF rev THEN
    SELECT array_agg(s) INTO r FROM (
      SELECT column_name::text || '=' || value || '\@' || writetime AS s FROM agree.timeline
       WHERE key = k AND (lo IS NULL OR column_name >= lo) AND (hi IS NULL OR column_name <= hi)
       ORDER BY column_name DESC LIMIT n) x;
  ELSE
    SELECT array_agg(s) INTO r FROM (
      SELECT column_name::text || '=' || value || '\@' || writetime AS s FROM agree.timeline
       WHERE key = k AND (lo IS NULL OR column_name >= lo) AND (hi IS NULL OR column_name <= hi)
       ORDER BY column_name LIMIT n) x;
  END IF;
  RETURN coalesce(r, '{}');
END \$\$;

CREATE FUNCTION api_slice(k text, start cfstore.timeuuid, finish cfstore.timeuuid, rev boolean, n int)
RETURNS text[] LANGUAGE sql AS \$\$
  SELECT coalesce(array_agg(column_name || '=' || value || '\@' || writetime), '{}')
    FROM cfstore.get_slice('Agree', 'Timeline', k, start, finish, rev, n)
\$\$;

CREATE TEMP TABLE compared AS
SELECT n, f = a AS same, cardinality(a) AS cells
  FROM (SELECT n,
               fdw_slice(key, CASE WHEN reversed THEN b2 ELSE b1 END, CASE WHEN reversed THEN b1 ELSE b2 END,
                         reversed, count) f,
               api_slice(key, b1, b2, reversed, count) a
          FROM slices) s;
SELECT count(*) FILTER (WHERE same) || '|' || count(*) || '|' || sum(cells) || '|' ||
       count(*) FILTER (WHERE cells = 0) || '|' || count(*) FILTER (WHERE cells > 1) || '|' ||
       (SELECT count(*) FROM slices s
         WHERE EXISTS (SELECT FROM agree.timeline t WHERE t.key = s.key AND t.column_name IN (s.b1, s.b2)))
  FROM compared;
});
note('comparison: ' . (time - $t0) . ' s');
my ($same, $total, $ncells, $empty, $multi, $onname) = split /\|/, (split /\n/, $result)[-1];
is($total, $nslices, "$nslices slices compared");
is($same, $nslices, 'the foreign table and get_slice return the same cells in the same order');
cmp_ok($multi, '>', $nslices / 2, "most slices return several cells ($multi of $nslices; $ncells cells in all)");
cmp_ok($empty, '>', 0, "some slices are empty ($empty)");
cmp_ok($onname, '>', $nslices / 4, "many slices start or finish on a name of their row ($onname)");

# the slices ran as pushed scans, not as full scans with a filter
my $plan = $node->safe_psql('postgres', q{
SET search_path = public, cfstore;
EXPLAIN (COSTS OFF) SELECT value FROM agree.timeline
 WHERE key = 'user1' AND column_name >= min_timeuuid('2020-01-01') ORDER BY column_name DESC LIMIT 5;
});
like($plan, qr/CF Key: \(timeline\.key = 'user1'::text\).*CF Column Range.*CF Direction: backward.*CF Limit: 5/s,
	'key, range, direction and limit are pushed');
unlike($plan, qr/Sort|Filter/, 'nothing is sorted or filtered locally');

$node->safe_psql('postgres', q{SELECT cfstore.verify('Agree', 'Timeline')});
$node->stop;
done_testing();
