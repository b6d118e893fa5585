# A split that a crash interrupts between its two WAL records.
#
# A split writes two Generic WAL records: the left page flagged
# INCOMPLETE_SPLIT with the new right page, then the downlink in the parent
# with the flag cleared.  A crash between them leaves a right page without
# a downlink, which readers reach through the right-link and which the next
# insert passing the flagged page must finish.  Recovery of a base backup
# stopped right after the first record of a split (recovery_target_lsn)
# leaves that state exactly.  Then: every committed cell reads back, verify
# names the unfinished split, and inserts into the right page's range,
# enough to split it again, work; after them verify passes.  On a second
# copy recovered to the same point, VACUUM alone finishes the split.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use CfWal;

my $node = PostgreSQL::Test::Cluster->new('primary');
$node->init(has_archiving => 1, allows_streaming => 1);
$node->append_conf('postgresql.conf', "autovacuum = off\n");
$node->start;
$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'c', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('ks', 'c', 'r', i::bigint, repeat('x', 200), i::bigint))
  FROM generate_series(1, 200) i;
});
my $leaves = sub {
	my ($n) = @_;
	return $n->safe_psql('postgres', q{SELECT leaf_pages FROM cfstore.stats('ks', 'c')});
};
my $leaves0 = $leaves->($node);
cmp_ok($leaves0, '>', 1, 'the column family has several leaves under a root');
$node->backup('bk');

# One cell per transaction at the end of the row, until one splits a leaf.
my ($before, $after, $split_cell);
for my $i (201 .. 600)
{
	$before = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
	$node->safe_psql('postgres',
		"SELECT cfstore.insert('ks', 'c', 'r', ${i}::bigint, repeat('x', 200), ${i}::bigint)");
	$after = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
	if ($leaves->($node) > $leaves0)
	{
		$split_cell = $i;
		last;
	}
}
ok(defined $split_cell, "cell $split_cell splits a leaf");

# The split's WAL: its two Generic records, and the cell's commit after them.
my ($lsns, $out) = generic_records($node, $before, $after);
is(scalar(@$lsns), 2, 'the insert that split wrote two Generic WAL records')
  or diag($out);
like((split /\n/, $out)[0], qr/FPW/, 'the first logs the new page whole');

# Recovery of the backup that stops right after the split's first record.
archive_through($node, $after);
my $node2 = recover_to($node, 'bk', 'interrupted', $lsns->[0]);

my $count = q{SELECT count(*), min(column_name::bigint), max(column_name::bigint)
  FROM cfstore.get_slice('ks', 'c', 'r', count => 100000)};
my $last = $split_cell - 1;
is($node2->safe_psql('postgres', $count), "$last|1|$last",
	'every committed cell reads back; the cell of the interrupted split was not committed');
my ($rc, $stdout, $stderr) = $node2->psql('postgres', q{SELECT cfstore.verify('ks', 'c')});
like($stderr, qr/contains a corrupted page at block \d+\nDETAIL:  A split was left unfinished/,
	'verify names the unfinished split');
like($stderr, qr/HINT:  A crash between the two steps of a split leaves one; VACUUM finishes it/,
	'with a hint on where one comes from and what finishes it');
# the exact walk keeps writers out (SHARE), which PostgreSQL's LOCK TABLE
# allows only with UPDATE, DELETE or TRUNCATE: a reader gets no such lock
($rc, $stdout, $stderr) = $node2->psql('postgres', q{CREATE ROLE reader;
  GRANT SELECT ON ks.c TO reader; SET ROLE reader;
  BEGIN; SELECT cfstore.verify('ks', 'c');});
like($stderr, qr/ERROR:  could not verify "cf_\d+": each walk met what a write in progress or damage leaves\nDETAIL:  Telling the two apart keeps writers out \(a SHARE lock\), which needs the UPDATE, DELETE or TRUNCATE privilege/,
	'a role that may only read gets no SHARE lock, and is told why verify cannot tell');
($rc, $stdout, $stderr) = $node2->psql('postgres', q{GRANT DELETE ON ks.c TO reader; SET ROLE reader;
  SELECT cfstore.verify('ks', 'c')});
like($stderr, qr/A split was left unfinished/, 'one that may delete gets the exact walk');

# VACUUM finishes it, on a second copy recovered to the same point.
my $node3 = recover_to($node, 'bk', 'interrupted_vacuum', $lsns->[0]);
my $rel = $node3->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'c')});
(undef, undef, $stderr) = $node3->psql('postgres', "VACUUM (VERBOSE) $rel");
like($stderr, qr/1 splits left unfinished by a crash completed/, 'VACUUM finishes the split');
is($node3->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'verify passes after VACUUM');
is($node3->safe_psql('postgres', $count), "$last|1|$last", 'every committed cell reads back after VACUUM');
(undef, undef, $stderr) = $node3->psql('postgres', "VACUUM (VERBOSE) $rel");
like($stderr, qr/0 splits left unfinished by a crash completed/, 'a second VACUUM finds none');
$node3->stop;

# The right page's range fills and splits again: each descent for an insert
# passing the flagged page finishes the split first.
is( $node2->safe_psql(
		'postgres', qq{
SELECT count(cfstore.insert('ks', 'c', 'r', i::bigint, repeat('y', 200), i::bigint))
  FROM generate_series($split_cell, $split_cell + 299) i}),
	'300',
	'inserts into the range of the page without a downlink work');
cmp_ok($leaves->($node2), '>', $leaves0 + 2, 'and split more leaves');
is($node2->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'verify passes then');
my $end = $split_cell + 299;
is($node2->safe_psql('postgres', $count), "$end|1|$end", 'and every cell reads back');
is( $node2->safe_psql(
		'postgres', qq{SELECT count(*) FROM cfstore.get_slice('ks', 'c', 'r', start => ${split_cell}::bigint,
		  count => 100000) WHERE value = repeat('y', 200)}),
	'300',
	'the new cells among them');

$node2->stop;
$node->stop;
done_testing();
