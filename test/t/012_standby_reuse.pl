# A standby read never takes a page the primary freed and used again for a
# page of the tree.
#
# VACUUM unlinks the leaves it leaves empty and, once no snapshot of the
# primary is older than the unlink, frees them for new pages (cffree.c).
# A standby without hot_standby_feedback replays the freeing under its own
# readers, which may still hold a pointer to such a leaf: the backend's
# image of the root page, which its descents start from, or the right-link
# a walk follows next.  Here cursors on the standby hold both: one over a
# join that slices one row per key (its first row made the image of the
# root), one over a slice of a long row (its walk holds the right-link of
# the page it read).  On the primary the rows and columns after those are
# deleted; VACUUM keeps the tombstones for gc_grace_seconds, then removes
# them and unlinks the leaves they leave empty, a later VACUUM frees them,
# and a long value's overflow chain takes the freed pages.  (The VACUUMs
# after the first change nothing in pg_class, so the standby's backends
# get no invalidation that would make them drop their images of the
# root.)  The cursors' next reads reach overflow pages where they expect
# leaves: they are cancelled as a conflict with recovery, and new
# snapshots on the standby read the rows as the primary has them.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "autovacuum = off\n");
# no compaction of underfull leaves (020_merge covers it): it freezes the
# cells of the leaves it fills, which moves relfrozenxid, and the VACUUMs
# below must leave pg_class as it is; and no cutting of the file
# (TRUNCATE false): the freed leaves must stay for the chain to take
$primary->append_conf('postgresql.conf', "cfstore.vacuum_compact_leaves = off\n");
$primary->start;
# rows r000 .. r099 of 40 columns, about three to a leaf, and a row w of
# 3,000 columns
my $grace = 3;
$primary->safe_psql('postgres', qq{
CREATE EXTENSION cfstore;
CREATE EXTENSION pageinspect;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'c', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => $grace);
SELECT count(cfstore.insert('ks', 'c', 'r' || lpad(r::text, 3, '0'), 'c' || lpad(i::text, 2, '0'),
                            repeat('v', 60), writetime => 1))
  FROM generate_series(0, 99) r, generate_series(1, 40) i;
SELECT count(cfstore.insert('ks', 'c', 'w', 'c' || lpad(i::text, 4, '0'), repeat('v', 40), writetime => 1))
  FROM generate_series(1, 3000) i;
});
my $rel = $primary->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'c')});
is($primary->safe_psql('postgres', q{SELECT height FROM cfstore.stats('ks', 'c')}), '2',
	'the leaves hang from the root');
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', "hot_standby_feedback = off\n");
$standby->start;

# rows r010 .. r089 and w's columns after its tenth are deleted; VACUUM
# removes what the tombstones shadow and keeps them
$primary->safe_psql('postgres', q{
SELECT count(cfstore.remove('ks', 'c', 'r' || lpad(r::text, 3, '0'), writetime => 2))
  FROM generate_series(10, 89) r;
SELECT count(cfstore.remove('ks', 'c', 'w', 'c' || lpad(i::text, 4, '0'), writetime => 2))
  FROM generate_series(11, 3000) i;
});
my $deleted = time;
$primary->safe_psql('postgres', "VACUUM (TRUNCATE false) $rel");
is($primary->safe_psql('postgres', q{SELECT live_cells || ' ' || tombstones FROM cfstore.stats('ks', 'c')}),
	(20 * 40 + 10) . ' ' . (80 + 2990), 'VACUUM keeps the tombstones for gc_grace_seconds');
$primary->wait_for_catchup($standby);

# the cursors read their first rows
my %cur;
$cur{descent} = $standby->background_psql('postgres', on_error_stop => 0);
$cur{descent}->query_safe(q{BEGIN ISOLATION LEVEL REPEATABLE READ;
DECLARE cur CURSOR FOR
  SELECT k, s.column_name FROM unnest(ARRAY['r000', 'r050', 'r099']) k,
    LATERAL cfstore.get_slice('ks', 'c', k, count => 1) s});
is($cur{descent}->query_safe('FETCH 1 FROM cur'), "r000|c01", 'descent: the cursor reads the first row');
$cur{walk} = $standby->background_psql('postgres', on_error_stop => 0);
$cur{walk}->query_safe(q{BEGIN ISOLATION LEVEL REPEATABLE READ;
DECLARE cur CURSOR FOR SELECT column_name FROM cfstore.get_slice('ks', 'c', 'w', count => 10000)});
is($cur{walk}->query_safe('FETCH 10 FROM cur'), join("\n", map { sprintf('c%04d', $_) } 1 .. 10),
	'walk: the cursor reads the start of the long row');

# the leaves the tombstones filled are unlinked, then freed, then taken by
# an overflow chain
my $flagged = sub {
	my ($flag) = @_;
	return $primary->safe_psql('postgres', qq{SELECT count(*) FROM generate_series(1, pg_relation_size('$rel') / 8192 - 1) b
  WHERE (get_byte(get_raw_page('$rel', b::int), 8186) & $flag) <> 0});
};
my $class = qq{SELECT relpages || ' ' || reltuples || ' ' || relfrozenxid || ' ' || relminmxid
  FROM pg_class WHERE oid = '$rel'::regclass};
my $class0 = $primary->safe_psql('postgres', $class);
sleep(1) while time <= $deleted + $grace + 1;
$primary->safe_psql('postgres', "VACUUM (TRUNCATE false) $rel");
my $dead = $flagged->(0x40);
cmp_ok($dead, '>=', 20, 'VACUUM unlinks the emptied leaves once gc_grace_seconds is past');
$primary->safe_psql('postgres', 'SELECT txid_current()') for 1 .. 2;
$primary->safe_psql('postgres', "VACUUM (TRUNCATE false) $rel");
is($flagged->(0x40), '0', 'the next VACUUM frees them');
is($flagged->(0x20), $dead, 'all of them');
is($primary->safe_psql('postgres', $class), $class0, 'neither VACUUM changed pg_class');
$primary->safe_psql('postgres', q{SELECT cfstore.insert('ks', 'c', 'long', 'c',
  (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 24000) i), writetime => 1)});
is($flagged->(0x20), '0', 'an overflow chain takes the freed pages');
$primary->wait_for_catchup($standby);

for my $name (qw(descent walk))
{
	my ($out, $failed) = $cur{$name}->query('FETCH ALL FROM cur');
	ok($failed, "$name: the cursor's next read is refused") or diag("read: $out");
	like($cur{$name}->{stderr}, qr/canceling statement due to conflict with recovery/,
		"$name: as a conflict with recovery");
	$cur{$name}->quit;
}

is($standby->safe_psql('postgres', q{SELECT string_agg(k || ':' || n, ' ') FROM (
  SELECT k, count(s.column_name) n FROM unnest(ARRAY['r000', 'r050', 'r099', 'w']) k,
    LATERAL cfstore.get_slice('ks', 'c', k, count => 10000) s GROUP BY k ORDER BY k) x}),
	'r000:40 r099:40 w:10', 'new snapshots on the standby read the rows as the primary has them');
is($standby->safe_psql('postgres', q{SELECT length(value) FROM cfstore.get_slice('ks', 'c', 'long')}),
	32 * 24000, 'and the long value');
is($standby->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'the standby\'s copy verifies');
$standby->stop;
$primary->stop;
done_testing();
