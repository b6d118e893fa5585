# Freed pages are used again after the free space map lost them.
#
# VACUUM records the leaves it frees in the free space map, which is not
# WAL-logged: a crash can lose what was recorded since the last
# checkpoint, and a promoted standby has only what its base backup had.
# Here the map of a column family with freed leaves is removed while the
# server is down: new pages then extend the relation, until a VACUUM,
# which finds no dead leaves and no long values, records the free pages
# again; the next writes take them instead of growing the relation.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->append_conf('postgresql.conf', "autovacuum = off\n");
# no compaction of underfull leaves (020_merge covers it): the VACUUM below
# must have no leaf to unlink; and the VACUUMs keep the free pages in the
# file (TRUNCATE false) rather than moving tree pages into them and
# cutting it (TAP 022)
$node->append_conf('postgresql.conf', "cfstore.vacuum_compact_leaves = off\n");
$node->start;
# row b spans about 30 leaves; its first 3,000 columns live a second
$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
CREATE EXTENSION pageinspect;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'c', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT count(cfstore.insert('ks', 'c', 'b', i, repeat('x', 40), writetime => 1,
                            ttl => CASE WHEN i <= 3000 THEN 1 END))
  FROM generate_series(1, 4000) i;
});
my $rel = $node->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'c')});
my $free = qq{SELECT count(*) FROM generate_series(1, pg_relation_size('$rel') / 8192 - 1) b
  WHERE (get_byte(get_raw_page('$rel', b::int), 8186) & 32) <> 0};
my $size = qq{SELECT pg_relation_size('$rel') / 8192};
sleep(2);
$node->safe_psql('postgres', "VACUUM (TRUNCATE false) $rel");
$node->safe_psql('postgres', 'SELECT txid_current()') for 1 .. 2;
$node->safe_psql('postgres', "VACUUM (TRUNCATE false) $rel");
my $freed = $node->safe_psql('postgres', $free);
cmp_ok($freed, '>=', 20, 'VACUUM frees the emptied leaves');

# the map goes
my $fsm = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('$rel')") . '_fsm';
$node->stop;
ok(-f $fsm, 'the relation has a free space map');
unlink($fsm) or die "unlink $fsm: $!";
$node->start;

# a new row of about 5 leaves extends the relation
my $blocks = $node->safe_psql('postgres', $size);
my $write = sub {
	my ($key) = @_;
	$node->safe_psql('postgres', qq{
SELECT count(cfstore.insert('ks', 'c', '$key', i, repeat('y', 40), writetime => 1))
  FROM generate_series(1, 600) i});
};
$write->('d');
cmp_ok($node->safe_psql('postgres', $size), '>', $blocks, 'without the map new pages extend the relation');
is($node->safe_psql('postgres', $free), $freed, 'and the free pages stay free');

# VACUUM finds nothing to free, and records the free pages again
my (undef, undef, $vacuum) = $node->psql('postgres', "VACUUM (VERBOSE, TRUNCATE false) $rel");
like($vacuum, qr/0 empty leaves unlinked, 0 leaves moved runs into their right siblings and 0 more gave all and were unlinked, 0 unlinked leaves and 0 overflow pages freed/,
	'VACUUM has nothing to free');
$blocks = $node->safe_psql('postgres', $size);
$write->('e');
is($node->safe_psql('postgres', $size), $blocks, 'after it new pages do not extend the relation');
cmp_ok($node->safe_psql('postgres', $free), '<', $freed, 'they are free pages used again');
is($node->safe_psql('postgres', q{SELECT string_agg(k || ':' || n, ' ') FROM (
  SELECT k, count(*) n FROM unnest(ARRAY['b', 'd', 'e']) k,
    LATERAL cfstore.get_slice('ks', 'c', k, count => 10000) s GROUP BY k ORDER BY k) x}),
	'b:1000 d:600 e:600', 'the rows read back');
is($node->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'and verify passes');
$node->stop;
done_testing();
