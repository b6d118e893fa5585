# VACUUM cutting the file (src/storage/cfshrink.c) on a standby and across
# crashes.
#
# - A standby replays the moves and the cut: once it has caught up, every
#   read there equals the model, verify accepts its tree, and its file is
#   the primary's size.  A standby transaction holding the table when the
#   lock is replayed is cancelled as a conflict with recovery
#   (max_standby_streaming_delay), as for heap's truncation.  A standby
#   snapshot older than cells VACUUM froze at once does not see them.
# - Crashes: a session holds the table while VACUUM waits for its lock
#   (pg_stat_progress_vacuum says "truncating heap"); it lets go and the
#   server is stopped in immediate mode a moment later: before, during or
#   after the moves.  After each restart the tree verifies, every read
#   equals the model, and the next VACUUM leaves a file that is the tree.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $primary = PostgreSQL::Test::Cluster->new('shrink_primary');
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

# 300 rows of 100 columns arriving interleaved: leaves about two thirds
# full, which VACUUM compacts, freeing a third of the file.
sub load
{
	my ($node, $seed) = @_;
	$node->safe_psql('postgres', qq{
TRUNCATE $rel;
INSERT INTO $rel (key, column_name, value, writetime)
SELECT convert_to('r' || r, 'UTF8'), int8send(i / 300), convert_to(md5('$seed' || i), 'UTF8'), 1000 + i
  FROM generate_series(0::bigint, 300 * 100 - 1) i,
       LATERAL (SELECT ((i % 300) * 7919 + (i / 300) * 104729) % 300 AS r) x;
});
}

# Every read, as one text: the storage relation and each row's slices.
my $reads = qq{
SELECT md5(string_agg(encode(key, 'escape') || '/' || encode(column_name, 'hex') || '=' || encode(value, 'escape'), ','))
  FROM $rel
UNION ALL
SELECT md5(string_agg(k || ':' || s.column_name || '=' || s.value, ',' ORDER BY k, ord))
  FROM (SELECT 'r' || r AS k FROM generate_series(0, 299) r) keys,
       LATERAL (SELECT column_name, value, row_number() OVER () AS ord
                  FROM cfstore.get_slice('ks', 'w', k, count => 100000)) s
UNION ALL
SELECT md5(string_agg(k || ':' || s.column_name, ',' ORDER BY k, ord))
  FROM (SELECT 'r' || r AS k FROM generate_series(0, 299) r) keys,
       LATERAL (SELECT column_name, row_number() OVER () AS ord
                  FROM cfstore.get_slice('ks', 'w', k, reversed => true, count => 10)) s};
my $shape = q{SELECT pages || ' ' || tree_pages FROM cfstore.stats('ks', 'w')};

load($primary, 'a');
my $model = $primary->safe_psql('postgres', $reads);
my ($pages0) = split / /, $primary->safe_psql('postgres', $shape);

$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('shrink_standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', "hot_standby_feedback = off\nmax_standby_streaming_delay = 1s\n");
$standby->start;
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $reads), $model, 'the standby reads what the primary does');

# a standby transaction that has read the table holds it
my $holder = $standby->background_psql('postgres', on_error_stop => 0);
$holder->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$holder->query_safe("DECLARE c NO SCROLL CURSOR FOR SELECT key FROM $rel");
$holder->query_safe('FETCH 10 FROM c');

$primary->safe_psql('postgres', "VACUUM $rel");
my ($pages1, $tree1) = split / /, $primary->safe_psql('postgres', $shape);
cmp_ok($pages1, '<', $pages0 * 0.8, "VACUUM cuts the file ($pages0 pages before, $pages1 after)");
is($pages1, $tree1, 'the file is the tree');
is($primary->safe_psql('postgres', $reads), $model, 'the primary reads the same');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $reads), $model, 'the standby replays the moves and the cut and reads the same');
is($standby->safe_psql('postgres', "SELECT cfstore.verify('ks', 'w')"), '', 'its tree verifies');
is($standby->safe_psql('postgres', "SELECT pg_relation_size('$rel') / 8192"), $pages1,
	'its file is the primary\'s size');
# (idle in its transaction, its connection is ended: psql exits)
my $fetched = eval { my ($rest, $failed) = $holder->query('FETCH ALL FROM c'); $failed ? undef : $rest };
ok(!defined $fetched, 'the standby transaction holding the table was cancelled');
like(slurp_file($standby->logfile), qr/terminating connection due to conflict with recovery/,
	'as a conflict with recovery');
eval { $holder->quit };

# Freezing at once (the compaction's leaves and those freezing leaves
# underfull, cfvacuum.c) stamps the leaves for standbys as removing
# versions does: a standby snapshot taken while the loading transaction
# was running must not see its cells once they are frozen.
$primary->safe_psql('postgres', q{SELECT cfstore.create_column_family('ks', 'f', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type')});
my $frel = $primary->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'f')});
my $loader = $primary->background_psql('postgres');
$loader->query_safe(qq{BEGIN; INSERT INTO $frel (key, column_name, value, writetime)
SELECT convert_to('r' || (i % 300), 'UTF8'), int8send(i / 300), convert_to(md5(i::text), 'UTF8'), 1000 + i
  FROM generate_series(0::bigint, 300 * 100 - 1) i});
$primary->wait_for_catchup($standby);
my $old = $standby->background_psql('postgres', on_error_stop => 0);
$old->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
is($old->query_safe("SELECT count(*) FROM $frel"), '0', 'a standby snapshot taken during the load sees none of it');
$loader->query_safe('COMMIT');
$loader->quit;
$primary->safe_psql('postgres', "VACUUM (TRUNCATE false) $frel");
$primary->wait_for_catchup($standby);
my ($count, $cancelled) = $old->query("SELECT count(*) FROM $frel");
if ($cancelled)
{
	like($old->{stderr}, qr/conflict with recovery/, 'after VACUUM froze them, its read is cancelled');
}
else
{
	is($count, '0', 'after VACUUM froze them, it still sees none');
}
$old->quit;
is($standby->safe_psql('postgres', "SELECT count(*) FROM $frel"), '30000', 'a new snapshot sees them all');
$standby->stop;

# Crashes around the moves: a session holds the table, so VACUUM waits
# for its lock in the "truncating heap" phase; the session commits and the
# server stops in immediate mode d ms later.
my @delays = (0, 10, 20, 30, 40, 50);
for my $i (0 .. $#delays)
{
	load($primary, "c$i");
	$model = $primary->safe_psql('postgres', $reads);
	$primary->safe_psql('postgres', 'CHECKPOINT');
	my $lock = $primary->background_psql('postgres');
	$lock->query_safe("BEGIN; LOCK TABLE $rel IN ACCESS SHARE MODE");
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start([ 'psql', '-X', '-d', $primary->connstr('postgres'), '-c', "VACUUM $rel" ],
		'>', \$stdout, '2>', \$stderr);
	ok( $primary->poll_query_until('postgres', qq{
SELECT phase = 'truncating heap' FROM pg_stat_progress_vacuum WHERE relid = '$rel'::regclass}),
		"crash $i: VACUUM waits for the lock to cut the file");
	$lock->query_safe('COMMIT');
	usleep($delays[$i] * 1000) if $delays[$i] > 0;
	$primary->stop('immediate');
	$h->finish;
	$lock->quit;
	$primary->start;
	my ($p, $t) = split / /, $primary->safe_psql('postgres', $shape);
	note("crash $delays[$i] ms after the lock was let go: $p pages, $t in the tree");
	is($primary->safe_psql('postgres', "SELECT cfstore.verify('ks', 'w')"), '',
		"crash $i: the tree verifies after recovery");
	is($primary->safe_psql('postgres', $reads), $model, "crash $i: every read equals the model");
	$primary->safe_psql('postgres', "VACUUM $rel");
	($p, $t) = split / /, $primary->safe_psql('postgres', $shape);
	is($p, $t, "crash $i: the next VACUUM leaves a file that is the tree ($p pages)");
	is($primary->safe_psql('postgres', $reads), $model, "crash $i: and reads the same");
}
$primary->stop;
done_testing();
