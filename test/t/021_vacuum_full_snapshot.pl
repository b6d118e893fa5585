# VACUUM FULL of a storage relation copies each live cell with the
# transaction that wrote it, frozen when every snapshot sees it.  So:
#  - a REPEATABLE READ transaction whose snapshot predates VACUUM FULL, and
#    that first reads the column family afterwards, still sees the columns
#    written before its snapshot and not those written since (a copy
#    stamped with the copying transaction would read as empty to it);
#  - a column overwritten since that snapshot reads as absent to it: the
#    older version is not copied (README "Limitations"), pinned here;
#  - with no older snapshot about, every copied cell is frozen: a VACUUM
#    (FREEZE) afterwards (without compaction) leaves the leaves as full;
#  - relfrozenxid of the new file is VACUUM FULL's oldest xmin.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('fullsnap');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('Snap');
SELECT cfstore.create_column_family('Snap', 'Cf', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.insert('Snap', 'Cf', 'r', 'a', '1', writetime => 1);
SELECT cfstore.insert('Snap', 'Cf', 'r', 'b', '2', writetime => 1);
});
my $rel = $node->safe_psql('postgres', q{SELECT cfstore._storage_relation('Snap', 'Cf')});
my $row = q{SELECT string_agg(column_name || '=' || value, ',' ORDER BY column_name) FROM cfstore.get_slice('Snap', 'Cf', 'r')};

# a snapshot taken now, before the writes and VACUUM FULL below
my $rr = $node->background_psql('postgres');
$rr->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$rr->query_safe('SELECT 1');

$node->safe_psql('postgres', q{
SELECT cfstore.insert('Snap', 'Cf', 'r', 'c', '3', writetime => 2);
SELECT cfstore.insert('Snap', 'Cf', 'r', 'b', '20', writetime => 2);
});
$node->safe_psql('postgres', "VACUUM FULL $rel");

is($node->safe_psql('postgres', $row), 'a=1,b=20,c=3', 'a new snapshot reads every column after VACUUM FULL');
is($rr->query_safe($row), 'a=1',
	'the older snapshot reads the column written before it, not the one written since (b, overwritten since, is absent)');
$rr->query_safe('COMMIT');
is($rr->query_safe($row), 'a=1,b=20,c=3', 'and every column once it takes a new snapshot');
$rr->quit;
is($node->safe_psql('postgres', q{SELECT cfstore.verify('Snap', 'Cf')}), '', 'the copy verifies');

# with no older snapshot, the copy is frozen
$node->safe_psql('postgres', q{
SELECT count(cfstore.insert('Snap', 'Cf', 'row' || (i % 100), 'c' || i, 'v' || i)) FROM generate_series(1, 20000) i;
});
my $next_xid = $node->safe_psql('postgres', 'SELECT txid_current()');
$node->safe_psql('postgres', "VACUUM FULL $rel");
my $shape = q{SELECT leaf_fill FROM cfstore.stats('Snap', 'Cf')};
my $after_full = $node->safe_psql('postgres', $shape);
cmp_ok($node->safe_psql('postgres', "SELECT age(relfrozenxid) FROM pg_class WHERE oid = '$rel'::regclass"), '<=',
	$node->safe_psql('postgres', "SELECT age('$next_xid'::xid)"), 'relfrozenxid is VACUUM FULL\'s oldest xmin');
$node->safe_psql('postgres', "SET cfstore.vacuum_compact_leaves = off; VACUUM (FREEZE) $rel");
is($node->safe_psql('postgres', $shape), $after_full,
	'VACUUM (FREEZE) after VACUUM FULL has nothing to freeze: the leaves are as full');
cmp_ok($node->safe_psql('postgres', q{SELECT bytes_per_live_cell FROM cfstore.stats('Snap', 'Cf')}), '<', 20,
	'under 20 bytes a cell');

$node->stop;
done_testing();
