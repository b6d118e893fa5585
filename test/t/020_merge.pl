# VACUUM's compaction of underfull leaves (src/storage/cfmerge.c) on a
# standby and across crashes.
#
# - A standby replays the moves: once it has caught up, every read there
#   (the storage relation, each row's slices forward, reversed and from
#   its middle) equals the primary's, and verify accepts its tree.
# - Standby cursors parked in the middle of a forward and a backward walk
#   while the moves are replayed (replay does not wait for their pins):
#   each reads every cell once, or is cancelled as a conflict with
#   recovery; never a cell missing or twice.
# - Crashes: VACUUM runs slowed down (vacuum_cost_delay), reporting its
#   progress in pg_stat_progress_vacuum, and the server is
#   stopped in immediate mode while it compacts, at several moments; after
#   each restart the tree verifies and every read equals the model, and
#   the next VACUUM finishes the compaction.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $primary = PostgreSQL::Test::Cluster->new('merge_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "autovacuum = off\n");
$primary->start;
$primary->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'w', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
});
my $rel = $primary->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'w')});

# 150 rows of 120 columns arriving interleaved (each row alone on a leaf
# about two thirds full), and row 'big' with 3,000 columns arriving in a
# scrambled order (leaves split in the middle).
sub load
{
	my ($node, $seed) = @_;
	$node->safe_psql('postgres', qq{
INSERT INTO $rel (key, column_name, value, writetime)
SELECT convert_to('r' || r, 'UTF8'), int8send(i / 150), convert_to(md5('$seed' || i), 'UTF8'), 1000 + i
  FROM generate_series(0::bigint, 150 * 120 - 1) i,
       LATERAL (SELECT ((i % 150) * 7919 + (i / 150) * 104729) % 150 AS r) x;
INSERT INTO $rel (key, column_name, value, writetime)
SELECT convert_to('big', 'UTF8'), int8send(i), convert_to(md5('$seed' || i), 'UTF8'), 1000
  FROM (SELECT i FROM generate_series(1::bigint, 3000) i ORDER BY (i * 7919) % 3001) s;
});
}

# Every read, as one text: the storage relation and each row's slices.
my $reads = qq{
SELECT md5(string_agg(encode(key, 'escape') || '/' || encode(column_name, 'hex') || '=' || encode(value, 'escape'), ','))
  FROM $rel
UNION ALL
SELECT md5(string_agg(k || ':' || s.column_name || '=' || s.value, ',' ORDER BY k, ord))
  FROM (SELECT 'r' || r AS k FROM generate_series(0, 149) r UNION ALL SELECT 'big') keys,
       LATERAL (SELECT column_name, value, row_number() OVER () AS ord
                  FROM cfstore.get_slice('ks', 'w', k, count => 100000)) s
UNION ALL
SELECT md5(string_agg(k || ':' || s.column_name, ',' ORDER BY k, ord))
  FROM (SELECT 'r' || r AS k FROM generate_series(0, 149) r UNION ALL SELECT 'big') keys,
       LATERAL (SELECT column_name, row_number() OVER () AS ord
                  FROM cfstore.get_slice('ks', 'w', k, reversed => true, count => 25)) s
UNION ALL
SELECT md5(string_agg(k || ':' || s.column_name, ',' ORDER BY k, ord))
  FROM (SELECT 'r' || r AS k FROM generate_series(0, 149) r UNION ALL SELECT 'big') keys,
       LATERAL (SELECT column_name, row_number() OVER () AS ord
                  FROM cfstore.get_slice('ks', 'w', k, start => 60::bigint, count => 40)) s
UNION ALL
SELECT count(*)::text FROM cfstore.get_range_slices('ks', 'w', count => 1, key_count => 1000)};
my $fill = q{SELECT leaf_pages || ' ' || leaf_fill FROM cfstore.stats('ks', 'w')};

load($primary, 'a');
my $model = $primary->safe_psql('postgres', $reads);
my ($leaves0, $fill0) = split / /, $primary->safe_psql('postgres', $fill);
cmp_ok($fill0, '<', 75, "the leaves start underfull ($leaves0 leaves, $fill0% full)");

$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('merge_standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', "hot_standby_feedback = off\nmax_standby_streaming_delay = -1\n");
$standby->start;
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $reads), $model, 'the standby reads what the primary does');

# Standby cursors parked in the middle of walks, forward over the storage
# relation and backward over row big, while the primary compacts: replay
# does not wait for their pins, so each either reads every cell once or is
# cancelled (check_moved in cfwalk.c), never answers with cells missing or
# twice.
my %cur = (
	forward => [ qq{SELECT encode(key, 'escape') || '/' || encode(column_name, 'hex') FROM $rel}, 3000 ],
	backward => [ q{SELECT column_name FROM cfstore.get_slice('ks', 'w', 'big', reversed => true, count => 100000)}, 1000 ]);
my %parked;
for my $name (sort keys %cur)
{
	my $p = $standby->background_psql('postgres', on_error_stop => 0);
	$p->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
	$p->query_safe("DECLARE c NO SCROLL CURSOR FOR $cur{$name}[0]");
	my $first = $p->query_safe("FETCH $cur{$name}[1] FROM c");
	$parked{$name} = [ $p, [ split /\n/, $first ] ];
}
my $expected = {
	forward => $primary->safe_psql('postgres', $cur{forward}[0]),
	backward => $primary->safe_psql('postgres', $cur{backward}[0]) };

# (TRUNCATE false: cutting the file takes an ACCESS EXCLUSIVE lock, whose
# replay would wait for the parked cursors; TAP 022 has a standby replaying
# that)
$primary->safe_psql('postgres', "VACUUM (TRUNCATE false) $rel");
my ($leaves1, $fill1) = split / /, $primary->safe_psql('postgres', $fill);
cmp_ok($fill1, '>=', 90, "VACUUM fills the leaves ($leaves1 leaves, $fill1% full)");
is($primary->safe_psql('postgres', $reads), $model, 'the primary reads the same');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $reads), $model, 'the standby replays the moves and reads the same');
is($standby->safe_psql('postgres', "SELECT cfstore.verify('ks', 'w')"), '', 'its tree verifies');
for my $name (sort keys %parked)
{
	my ($p, $got) = @{ $parked{$name} };
	my ($rest, $failed) = $p->query('FETCH ALL FROM c');
	if ($failed)
	{
		like($p->{stderr}, qr/moved cells of cfstore table .* between two pages the query was reading/,
			"$name: the parked walk is cancelled as a conflict with recovery");
	}
	else
	{
		is(join("\n", @$got, split(/\n/, $rest)), $expected->{$name},
			"$name: the parked walk reads every cell once");
	}
	$p->quit;
}
$standby->stop;

# Crashes in the middle of the compaction: VACUUM sleeps at each page it
# reads (vacuum_cost_delay), and the compaction is its last part, so the
# crashes come at 60%, 80% and 95% of the time a whole VACUUM takes.
my $slow = 'SET vacuum_cost_delay = 2; SET vacuum_cost_limit = 1;';
$primary->safe_psql('postgres', "TRUNCATE $rel");
load($primary, 'timing');
my $t0 = Time::HiRes::time();
$primary->safe_psql('postgres', "$slow VACUUM $rel");
my $whole = Time::HiRes::time() - $t0;
note(sprintf('a slowed VACUUM takes %.0f ms', $whole * 1000));
my @moments = map { int($whole * 1000 * $_) } (0.6, 0.8, 0.95);
for my $i (0 .. $#moments)
{
	$primary->safe_psql('postgres', "TRUNCATE $rel");
	load($primary, "c$i");
	$model = $primary->safe_psql('postgres', $reads);
	$primary->safe_psql('postgres', 'CHECKPOINT');
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $primary->connstr('postgres'), '-c', 'SET vacuum_cost_delay = 2',
		  '-c', 'SET vacuum_cost_limit = 1', '-c', "VACUUM $rel" ],
		'>', \$stdout, '2>', \$stderr);
	usleep($moments[$i] * 1000 / 2);
	# the VACUUM reports its progress as heap's does
	my $progress = $primary->safe_psql('postgres', qq{
SELECT phase || ' ' || (heap_blks_total > 0) || ' ' || (heap_blks_scanned > 0)
  FROM pg_stat_progress_vacuum WHERE relid = '$rel'::regclass});
	like($progress, qr/^(scanning heap|vacuuming heap|performing final cleanup) true true$/,
		"crash $i: pg_stat_progress_vacuum shows the VACUUM ($progress)");
	usleep($moments[$i] * 1000 / 2);
	$primary->stop('immediate');
	$h->finish;
	$primary->start;
	my ($leaves, $f) = split / /, $primary->safe_psql('postgres', $fill);
	note("crash after $moments[$i] ms: $leaves leaves, $f% full");
	is($primary->safe_psql('postgres', "SELECT cfstore.verify('ks', 'w')"), '',
		"crash $i: the tree verifies after recovery");
	is($primary->safe_psql('postgres', $reads), $model, "crash $i: every read equals the model");
	$primary->safe_psql('postgres', "VACUUM $rel");
	($leaves, $f) = split / /, $primary->safe_psql('postgres', $fill);
	cmp_ok($f, '>=', 90, "crash $i: the next VACUUM finishes the compaction ($f% full)");
	is($primary->safe_psql('postgres', $reads), $model, "crash $i: and reads the same");
}
$primary->stop;
done_testing();
