# Splits of internal pages that a crash interrupts between their WAL records.
#
# 007 covers a leaf split stopped after its first record.  This covers the
# levels above.  An insert whose leaf split fills the parent writes three
# Generic records: (1) the leaf split, (2) the parent's split, which clears
# the leaf's flag and flags the parent INCOMPLETE_SPLIT, (3) the downlink
# to the parent's new right half in the grandparent, or, when the parent
# was the root, a new root and the metapage.  Recovery of a base backup
# stopped right after record (2) leaves an internal page flagged and its
# right half reachable only by the right-link:
#  - a root split: the metapage still names the old root, now a left half;
#  - a split of an internal page under the root.
# In both, every committed cell reads back (forwards and reversed), verify
# names the unfinished split, and the inserts that follow finish it, after
# which verify passes.  On second copies recovered to the same points,
# VACUUM alone finishes them.
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

# Names of 300 bytes make separators of about 330, so an internal page takes
# about 24 downlinks; values of 1,000 bytes fill a leaf with 6 cells.
$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'c', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE TABLE trace (i int, before pg_lsn, after pg_lsn, height int, internal bigint);
CREATE PROCEDURE grow(a int, b int) LANGUAGE plpgsql AS $$
DECLARE l pg_lsn; s record;
BEGIN
  FOR i IN a .. b LOOP
    l := pg_current_wal_insert_lsn();
    PERFORM cfstore.insert('ks', 'c', 'r', lpad(i::text, 300, '0'), repeat('v', 1000), i::bigint);
    SELECT * INTO s FROM cfstore.stats('ks', 'c');
    INSERT INTO trace VALUES (i, l, pg_current_wal_insert_lsn(), s.height, s.pages - s.leaf_pages - 1);
    COMMIT;
  END LOOP;
END $$;
});
$node->backup('bk');

# One cell per transaction, each traced, until an internal page under the
# root has split.
$node->safe_psql('postgres', 'CALL grow(1, 400)');
my $root_split = $node->safe_psql('postgres', q{
SELECT i || '|' || before || '|' || after FROM trace WHERE height = 3 ORDER BY i LIMIT 1});
my $inner_split = $node->safe_psql('postgres', q{
SELECT t.i || '|' || t.before || '|' || t.after FROM trace t JOIN trace p ON p.i = t.i - 1
 WHERE t.height = 3 AND p.height = 3 AND t.internal > p.internal ORDER BY t.i LIMIT 1});
isnt($root_split, '', 'a cell made the tree three levels high');
isnt($inner_split, '', 'a later cell split an internal page under the root');
is($node->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'verify passes on the primary');

# The second Generic record of a split cell's insert.
my $second_record = sub {
	my ($case) = @_;
	my ($i, $before, $after) = split /\|/, $case;
	my ($lsns, $out) = generic_records($node, $before, $after);
	is(scalar(@$lsns), 3, "the insert of cell $i wrote three Generic WAL records")
	  or diag($out);
	return ($i, $lsns->[1]);
};
my ($root_cell, $root_lsn) = $second_record->($root_split);
my ($inner_cell, $inner_lsn) = $second_record->($inner_split);
archive_through($node, $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()'));

my $count = q{SELECT count(*), min(column_name::bigint), max(column_name::bigint)
  FROM cfstore.get_slice('ks', 'c', 'r', count => 100000)};
my $order = q{SELECT count(*) FILTER (WHERE n <> prev + 1) FROM (
  SELECT column_name::bigint AS n, lag(column_name::bigint) OVER (ORDER BY ord) AS prev
    FROM cfstore.get_slice('ks', 'c', 'r', count => 100000) WITH ORDINALITY s(key, sc, column_name, value, writetime, ttl, ord)) x
 WHERE prev IS NOT NULL};
my $reversed = q{SELECT count(*), (array_agg(column_name::bigint))[1]
  FROM cfstore.get_slice('ks', 'c', 'r', reversed => true, count => 100000)};

# Recover the backup to right after the split's second record, then check.
my $check = sub {
	my ($name, $cell, $lsn) = @_;
	my $n = recover_to($node, 'bk', $name, $lsn);

	my $last = $cell - 1;
	is($n->safe_psql('postgres', $count), "$last|1|$last",
		"$name: every committed cell reads back; the cell of the interrupted split was not committed");
	is($n->safe_psql('postgres', $order), '0', "$name: in order");
	is($n->safe_psql('postgres', $reversed), "$last|$last", "$name: and reversed");
	my ($rc, $stdout, $stderr) = $n->psql('postgres', q{SELECT cfstore.verify('ks', 'c')});
	like($stderr, qr/contains a corrupted page at block \d+\nDETAIL:  A split was left unfinished/,
		"$name: verify names the unfinished split");

	# Enough cells to split the pages around it again, level by level.
	my $end = $cell + 199;
	is( $n->safe_psql(
			'postgres', qq{
SELECT count(cfstore.insert('ks', 'c', 'r', lpad(i::text, 300, '0'), repeat('w', 1000), i::bigint))
  FROM generate_series($cell, $end) i}),
		'200',
		"$name: inserts after it work");
	is($n->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', "$name: verify passes then");
	is($n->safe_psql('postgres', $count), "$end|1|$end", "$name: every cell reads back");
	is($n->safe_psql('postgres', $order), '0', "$name: in order");
	is($n->safe_psql('postgres', $reversed), "$end|$end", "$name: and reversed");
	is( $n->safe_psql(
			'postgres', qq{SELECT count(*) FROM cfstore.get_slice('ks', 'c', 'r',
			  start => lpad('$cell', 300, '0'), count => 100000) WHERE value = repeat('w', 1000)}),
		'200',
		"$name: the new cells among them");
	$n->stop;
};
$check->('root_split', $root_cell, $root_lsn);
$check->('inner_split', $inner_cell, $inner_lsn);

# VACUUM alone finishes them, on copies recovered to the same points.
my $vacuum_check = sub {
	my ($name, $cell, $lsn) = @_;
	my $n = recover_to($node, 'bk', $name, $lsn);
	my $rel = $n->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'c')});
	my (undef, undef, $stderr) = $n->psql('postgres', "VACUUM (VERBOSE) $rel");
	like($stderr, qr/1 splits left unfinished by a crash completed/, "$name: VACUUM finishes the split");
	is($n->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', "$name: verify passes after VACUUM");
	my $last = $cell - 1;
	is($n->safe_psql('postgres', $count), "$last|1|$last", "$name: every committed cell reads back");
	is($n->safe_psql('postgres', $order), '0', "$name: in order");
	is($n->safe_psql('postgres', $reversed), "$last|$last", "$name: and reversed");
	$n->stop;
};
$vacuum_check->('root_split_vacuum', $root_cell, $root_lsn);
$vacuum_check->('inner_split_vacuum', $inner_cell, $inner_lsn);

$node->stop;
done_testing();
