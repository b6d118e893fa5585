# A standby query never answers without the versions VACUUM removed.
#
# VACUUM's page rebuilds are Generic WAL records, which carry no conflict
# horizon: a standby replays them at once, even under a query whose
# snapshot still needs the versions they removed.  Each rebuild stamps the
# leaf with the horizon it removed under, and a standby read whose snapshot
# is older raises instead of answering without them (cfvacuum.c,
# "Standbys").  Here a standby without hot_standby_feedback holds
# REPEATABLE READ snapshots while the primary overwrites a row and VACUUMs:
# reads through get_slice and through a scan of the storage relation are
# cancelled, also on the half of a leaf that split after VACUUM, while a
# slice of leaves VACUUM did not change is not; a new snapshot reads the
# new cells.  With hot_standby_feedback VACUUM keeps what the standby's
# snapshot needs, and the old snapshot reads it.  Once the horizons are
# older than the freeze limit, VACUUM (FREEZE) clears them, as it freezes
# the cells' xmins.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "autovacuum = off\n");
# no compaction of underfull leaves: it would carry a leaf's horizon to the
# neighbour taking its runs (020_merge covers it), and this test counts the
# leaves VACUUM removed versions from
$primary->append_conf('postgresql.conf', "cfstore.vacuum_compact_leaves = off\n");
$primary->start;
$primary->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
CREATE EXTENSION pageinspect;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'c', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('ks', 'c', 'r', 'c' || lpad(i::text, 3, '0'), 'o' || repeat('x', 60), writetime => 1))
  FROM generate_series(0, 199) i;
});
my $rel = $primary->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'c')});
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', "hot_standby_feedback = off\n");
$standby->start;
$primary->wait_for_catchup($standby);

my $slice = q{SELECT count(*), min(left(value, 1)) FROM cfstore.get_slice('ks', 'c', 'r', count => 1000)};
my $head = q{SELECT count(*), min(left(value, 1)) FROM cfstore.get_slice('ks', 'c', 'r', finish => 'c020', count => 1000)};
my $tail = q{SELECT count(*), min(left(value, 1)) FROM cfstore.get_slice('ks', 'c', 'r', start => 'c190', count => 1000)};
my $scan = qq{SELECT count(*), min(left(encode(value, 'escape'), 1)) FROM $rel};

# Snapshots on the standby that see the cells written at 1.
my %old;
for my $name (qw(slice scan head tail))
{
	$old{$name} = $standby->background_psql('postgres', on_error_stop => 0);
	$old{$name}->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
}
is($old{slice}->query_safe($slice), '200|o', 'a standby snapshot sees the row');
is($old{scan}->query_safe($scan), '200|o', 'and so does a scan of the storage relation');
is($old{head}->query_safe($head), '21|o', 'and a slice of its start');
is($old{tail}->query_safe($tail), '10|o', 'and a slice of its end');
my $leaves = q{SELECT leaf_pages FROM cfstore.stats('ks', 'c')};
my $leaves0 = $primary->safe_psql('postgres', $leaves);
cmp_ok($leaves0, '>', 1, 'the row spans leaves');

# The primary overwrites the row's end and VACUUM removes the old versions
# there: the standby's snapshots do not hold them back.
$primary->safe_psql('postgres', q{
SELECT count(cfstore.insert('ks', 'c', 'r', 'c' || lpad(i::text, 3, '0'), 'n', writetime => 2))
  FROM generate_series(190, 199) i});
my (undef, undef, $vacuum) = $primary->psql('postgres', "VACUUM (VERBOSE) $rel");
like($vacuum, qr/ 10 versions removed/, 'VACUUM removes the old versions');
$leaves0 = $primary->safe_psql('postgres', $leaves);
# the leaves VACUUM removed versions from carry its horizon
my $stamped = qq{SELECT count(*) FROM generate_series(1, pg_relation_size('$rel') / 8192 - 1) b,
  page_header(get_raw_page('$rel', b::int)) h WHERE h.prune_xid <> 0};
my $stamped0 = $primary->safe_psql('postgres', $stamped);
cmp_ok($stamped0, '>=', 1, 'VACUUM stamps the leaves it removed versions from');
cmp_ok($stamped0, '<', $leaves0, 'and only those');
# newer versions there, longer: the last leaf splits, the end goes to a new page
$primary->safe_psql('postgres', q{
SELECT count(cfstore.insert('ks', 'c', 'r', 'c' || lpad(i::text, 3, '0'), repeat('m', 800), writetime => 3))
  FROM generate_series(190, 199) i});
cmp_ok($primary->safe_psql('postgres', $leaves), '>', $leaves0, 'then the last leaf splits');
cmp_ok($primary->safe_psql('postgres', $stamped), '>', $stamped0, 'and both halves carry the horizon');
$primary->wait_for_catchup($standby);

is($old{head}->query_safe($head), '21|o', 'the old snapshot still reads the leaves VACUUM did not change');
$old{head}->quit;
for my $name (qw(slice scan tail))
{
	my $q = $name eq 'slice' ? $slice : $name eq 'scan' ? $scan : $tail;
	my ($out, $failed) = $old{$name}->query($q);
	ok($failed, "$name: the old snapshot's read is refused") or diag("read: $out");
	like($old{$name}->{stderr}, qr/canceling statement due to conflict with recovery/,
		"$name: as a conflict with recovery");
	like($old{$name}->{stderr}, qr/hot_standby_feedback/, "$name: with a hint on how to avoid it")
	  if $name eq 'slice';
	$old{$name}->quit;
}
is($standby->safe_psql('postgres', $tail), '10|m', 'a new snapshot reads the new cells');
is($standby->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'the standby\'s copy verifies');

# With hot_standby_feedback, VACUUM keeps what the standby's snapshot needs.
$standby->append_conf('postgresql.conf', "hot_standby_feedback = on\n");
$standby->reload;
my $held = $standby->background_psql('postgres', on_error_stop => 0);
$held->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
is($held->query_safe($tail), '10|m', 'a standby snapshot sees the row');
my $xmin = $held->query_safe('SELECT backend_xmin FROM pg_stat_activity WHERE pid = pg_backend_pid()');
$primary->poll_query_until('postgres',
	qq{SELECT backend_xmin IS NOT NULL AND backend_xmin::text::bigint <= $xmin FROM pg_stat_replication})
  or die 'the standby\'s feedback did not reach the primary';
$primary->safe_psql('postgres', q{
SELECT count(cfstore.insert('ks', 'c', 'r', 'c' || lpad(i::text, 3, '0'), 'z', writetime => 4))
  FROM generate_series(0, 199) i});
(undef, undef, $vacuum) = $primary->psql('postgres', "VACUUM (VERBOSE) $rel");
like($vacuum, qr/ 10 versions removed/, 'VACUUM removes only the versions no snapshot there needs');
$primary->wait_for_catchup($standby);
is($held->query_safe($tail), '10|m', 'and the old snapshot reads them');
$held->query_safe('COMMIT');
is($held->query_safe($slice), '200|z', 'a new one reads the newest');
$held->quit;
$standby->stop;

# horizons older than the freeze limit go (FREEZE: the limit is the oldest
# xmin); the first VACUUM removes what the standby no longer holds back
# and stamps the leaves anew
$primary->safe_psql('postgres', "VACUUM (FREEZE) $rel");
cmp_ok($primary->safe_psql('postgres', $stamped), '>', 0, 'leaves carry horizons');
$primary->safe_psql('postgres', 'SELECT txid_current()') for 1 .. 3;
$primary->safe_psql('postgres', "VACUUM (FREEZE) $rel");
is($primary->safe_psql('postgres', $stamped), '0', 'a VACUUM (FREEZE) after them clears them');
is($primary->safe_psql('postgres', $slice), '200|z', 'and the row reads the same');
is($primary->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'and verifies');
$primary->stop;
done_testing();
