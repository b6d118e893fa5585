# cfstore.verify raises on corruption.  Column families of one row each
# (3,000 cells, about 25 leaves under one root) are written, the server is
# stopped, one page of each storage relation is damaged on disk in one way,
# and after a restart verify must name the damaged block and what is wrong
# with it; an undamaged column family with unlinked leaves still verifies,
# and so does one whose first write's pages were never initialised.  Reads
# that reach a damaged page where they expect a leaf (one of an overflow
# chain now) raise naming it, whether a descent or a walk brings them there.
#
# Pages are read and written with the machine's byte order, as the server
# writes them.  The page header's pd_special (bytes 16-17) locates the
# special space: left (4 bytes), right (4), level (2), flags (2),
# garbage (2), page id (2), as CfPageOpaqueData in src/storage/cfstorage.h.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# What a damaged page raises: the relation and block in the message, what
# is wrong in the detail (matched without regard to case).
sub damage
{
	my ($blkno, $what) = @_;
	my ($pattern) = ref $what ? re::regexp_pattern($what) : ($what);
	return qr/contains a corrupted page at block $blkno\nDETAIL:  [^\n]*(?i:$pattern)/;
}

use CfPages;

use constant {
	BLCKSZ => 8192,
	INVALID_BLOCK => 0xFFFFFFFF,
	PAGE_LEAF => 0x0002,
	PAGE_INCOMPLETE_SPLIT => 0x0008,
	PAGE_OVERFLOW => 0x0010,
	PAGE_DEAD => 0x0040,
};

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
# nothing may vacuum behind the test's back: unlinked leaves must stay
$node->append_conf('postgresql.conf', "autovacuum = off\n");
$node->start;

my @plain = qw(pageid split leftlink cycle selflink space linkeddead overflowleaf);
# a descent that moves right forever
my @loops = qw(moveloop);
# damage inside a page: its line pointers and items
my @items = qw(badlp extralp longhdr rootlp);
my @unlinked = qw(orphan deadcells healthy);
# never written: its file gets the two zero pages a first write's extension
# leaves when the record that initialises them is lost
my $uncreated = 'uncreated';

$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
});
for my $cf (@plain, @items, @loops, @unlinked, $uncreated)
{
	$node->safe_psql('postgres', qq{
SELECT cfstore.create_column_family('ks', '$cf', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  gc_grace_seconds => 0);
});
}
for my $cf (@plain, @items, @loops)
{
	$node->safe_psql('postgres', qq{
SELECT count(cfstore.insert('ks', '$cf', 'r', i, repeat('v', 40), writetime => 1))
  FROM generate_series(1, 3000) i;
});
}
# a value long enough for an overflow chain, in a row after the long one
$node->safe_psql('postgres', q{
SELECT cfstore.insert('ks', 'overflowleaf', 's', 1, (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 1000) i),
                      writetime => 1);
});
# the middle of the row expires and VACUUM unlinks the leaves it filled;
# they are freed only by a later VACUUM, so they stay unlinked (and no
# moving of pages into them and cutting of the file: TRUNCATE false)
for my $cf (@unlinked)
{
	$node->safe_psql('postgres', qq{
SELECT count(cfstore.insert('ks', '$cf', 'r', i, repeat('v', 40), writetime => 1,
                            ttl => CASE WHEN i BETWEEN 500 AND 2500 THEN 1 END))
  FROM generate_series(1, 3000) i;
});
}
sleep(3);
for my $cf (@unlinked)
{
	$node->safe_psql('postgres', "VACUUM (TRUNCATE false) " . storage($cf));
}

for my $cf (@plain, @items, @loops, @unlinked)
{
	is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', '$cf')"), '', "$cf verifies before the damage");
}

my %path;
my $blkno_range;
for my $cf (@plain, @items, @loops, @unlinked, $uncreated)
{
	$path{$cf} = $node->data_dir . '/'
	  . $node->safe_psql('postgres', "SELECT pg_relation_filepath('" . storage($cf) . "')");
}
$node->stop;

# The storage relation of a column family, as a regclass literal.
sub storage
{
	my ($cf) = @_;
	return $node->safe_psql('postgres', "SELECT cfstore._storage_relation('ks', '$cf')");
}

# The special space of a page as a hash, and the offset it starts at.
sub opaque
{
	my ($page) = @_;
	my $special = unpack('S', substr($page, 16, 2));
	my %o;
	@o{qw(left right level flags garbage page_id)} = unpack('LLSSSS', substr($page, $special, 16));
	return (\%o, $special);
}

sub set_opaque
{
	my ($page, $o) = @_;
	my (undef, $special) = opaque($page);
	substr($page, $special, 16) =
	  pack('LLSSSS', @{$o}{qw(left right level flags garbage page_id)});
	return $page;
}

# Block numbers of a relation's leaves, linked and unlinked, by block.
sub leaves
{
	my ($file) = @_;
	my (@linked, @dead);
	my $nblocks = (-s $file) / BLCKSZ;
	for my $blkno (1 .. $nblocks - 1)
	{
		my ($o) = opaque(read_page($file, $blkno));
		next unless $o->{page_id} == 0xCF57 && $o->{level} == 0 && ($o->{flags} & PAGE_LEAF);
		if ($o->{flags} & PAGE_DEAD) { push @dead, $blkno; }
		elsif ($o->{left} != INVALID_BLOCK && $o->{right} != INVALID_BLOCK) { push @linked, $blkno; }
	}
	return (\@linked, \@dead);
}

# Change the special space of a middle leaf of cf; returns its block.
sub damage_leaf
{
	my ($cf, $change) = @_;
	my ($linked) = leaves($path{$cf});
	my $blkno = $linked->[ int(@$linked / 2) ];
	my $page = read_page($path{$cf}, $blkno);
	my ($o) = opaque($page);
	$change->($o, $blkno);
	write_page($path{$cf}, $blkno, set_opaque($page, $o));
	return $blkno;
}

my %expect;
$expect{pageid} = [ damage_leaf('pageid', sub { $_[0]{page_id} = 0 }), qr/downlink from block \d+ leads to a page that is not at level 0/ ];
$expect{split} =
  [ damage_leaf('split', sub { $_[0]{flags} |= PAGE_INCOMPLETE_SPLIT }), qr/\Qa split was left unfinished\E/ ];
$expect{linkeddead} =
  [ damage_leaf('linkeddead', sub { $_[0]{flags} |= PAGE_DEAD }), qr/\Qan unlinked page is still linked\E/ ];
$expect{space} = [ damage_leaf('space', sub { $_[0]{garbage} += 8 }), qr/\Qspace not accounted for\E/ ];
$expect{leftlink} = [ damage_leaf('leftlink', sub { $_[0]{left} = $_[1] }), qr/\Qleft-link\E/ ];
# the damaged page's right-link goes back to its left neighbour, which the
# walk then reaches a second time
{
	my $left;
	damage_leaf('cycle', sub { $left = $_[0]{left}; $_[0]{right} = $left });
	$expect{cycle} = [ $left, qr/\Qthe page is reached twice walking the tree\E/ ];
}
# the damaged page's right-link leads to itself
$expect{selflink} =
  [ damage_leaf('selflink', sub { $_[0]{right} = $_[1] }), qr/\Qthe page is reached twice walking the tree\E/ ];

# a page of an overflow chain over a leaf, as a standby may find a leaf
# freed and used again under a read (test 012)
{
	my $file = $path{overflowleaf};
	my ($linked) = leaves($file);
	my $blkno = $linked->[ int(@$linked / 2) ];
	my ($chain) = grep { (opaque(read_page($file, $_)))[0]{flags} & PAGE_OVERFLOW } 1 .. (-s $file) / BLCKSZ - 1;
	defined $chain or die 'no overflow page';
	write_page($file, $blkno, read_page($file, $chain));
	$expect{overflowleaf} = [ $blkno, qr/downlink from block \d+ leads to a metapage, overflow or free page/ ];
}

# an unlinked leaf that loses its flag is a tree page no root reaches
{
	my (undef, $dead) = leaves($path{orphan});
	my $blkno = $dead->[0];
	my $page = read_page($path{orphan}, $blkno);
	my ($o) = opaque($page);
	$o->{flags} &= ~PAGE_DEAD;
	write_page($path{orphan}, $blkno, set_opaque($page, $o));
	$expect{orphan} = [ $blkno, qr/\Qa page of the tree is not reachable from its root\E/ ];
}

# an unlinked leaf holding cells: a live leaf's image, flagged unlinked,
# over an unlinked leaf's block
{
	my ($linked, $dead) = leaves($path{deadcells});
	my $page = read_page($path{deadcells}, $linked->[0]);
	my ($o) = opaque($page);
	$o->{flags} |= PAGE_DEAD;
	write_page($path{deadcells}, $dead->[0], set_opaque($page, $o));
	$expect{deadcells} = [ $dead->[0], qr/\Qan unlinked leaf holds cells\E/ ];
}

# Line pointers (ItemIdData: offset 15 bits, state 2, length 15, from the
# low bits up) follow the 24-byte page header; item n's is at 20 + 4n.
sub line_pointer
{
	my ($page, $off) = @_;
	my $lp = unpack('L', substr($page, 20 + 4 * $off, 4));
	return ($lp & 0x7FFF, ($lp >> 15) & 3, $lp >> 17);
}

sub set_line_pointer
{
	my ($page, $off, $offset, $state, $len) = @_;
	substr($page, 20 + 4 * $off, 4) = pack('L', $offset | ($state << 15) | ($len << 17));
	return $page;
}

# Change the page image of a middle leaf of cf; returns its block.
sub damage_leaf_items
{
	my ($cf, $change) = @_;
	my ($linked) = leaves($path{$cf});
	my $blkno = $linked->[ int(@$linked / 2) ];
	write_page($path{$cf}, $blkno, $change->(read_page($path{$cf}, $blkno)));
	return $blkno;
}

# the first run of a leaf (item 2, after the high key) said to lie past
# the page's special space
$expect{badlp} = [
	damage_leaf_items('badlp', sub {
		my ($page) = @_;
		my ($offset, $state, $len) = line_pointer($page, 2);
		return set_line_pointer($page, 2, 8180, $state, $len);
	}),
	qr/the line pointer of item 2 points outside the page's items/ ];
# pd_lower one line pointer further: an unused item after the last
{
	my $n;
	$expect{extralp} = [
		damage_leaf_items('extralp', sub {
			my ($page) = @_;
			my $lower = unpack('S', substr($page, 12, 2));
			$n = ($lower - 24) / 4 + 1;
			substr($page, $lower, 4) = pack('L', 0);
			substr($page, 12, 2) = pack('S', $lower + 4);
			return $page;
		}),
		undef ];
	$expect{extralp}[1] = qr/the line pointer of item $n points outside the page's items/;
}
# a run whose header declares a row key longer than the run
$expect{longhdr} = [
	damage_leaf_items('longhdr', sub {
		my ($page) = @_;
		my ($offset) = line_pointer($page, 2);
		substr($page, $offset, 2) = pack('S', 4000);
		return $page;
	}),
	qr/item 2 is shorter than the parts its header declares/ ];
# a downlink of the root (an internal page over the leaves) said to lie
# past the page's special space
{
	my $meta = read_page($path{rootlp}, 0);
	my $root = unpack('L', substr($meta, 24 + 8, 4));
	my $page = read_page($path{rootlp}, $root);
	my ($o) = opaque($page);
	$o->{level} == 1 or die "the root of rootlp is at level $o->{level}";
	my ($offset, $state, $len) = line_pointer($page, 3);
	write_page($path{rootlp}, $root, set_line_pointer($page, 3, 8180, $state, $len));
	$expect{rootlp} = [ $root, qr/the line pointer of item 3 points outside the page's items/ ];
}

# a leaf whose right-link leads to itself, and the root's downlink to its
# right neighbour leads to it too: a descent for a key of the neighbour
# lands on the leaf, finds the key beyond its high key and moves right,
# to the same leaf, again and again
{
	my $file = $path{moveloop};
	my ($linked) = leaves($file);
	my $blkno = $linked->[ int(@$linked / 2) ];
	my $page = read_page($file, $blkno);
	my ($o) = opaque($page);
	my $right = $o->{right};
	$o->{right} = $blkno;
	write_page($file, $blkno, set_opaque($page, $o));
	my $root = unpack('L', substr(read_page($file, 0), 24 + 8, 4));
	my $rpage = read_page($file, $root);
	my ($ro) = opaque($rpage);
	$ro->{level} == 1 or die "the root of moveloop is at level $ro->{level}";
	my $lower = unpack('S', substr($rpage, 12, 2));
	my $found;
	for my $item (1 .. ($lower - 24) / 4)
	{
		my ($offset) = line_pointer($rpage, $item);
		next unless unpack('L', substr($rpage, $offset, 4)) == $right;
		substr($rpage, $offset, 4) = pack('L', $blkno);
		$found = 1;
	}
	$found or die "no downlink to block $right in the root";
	write_page($file, $root, $rpage);
	$expect{moveloop} = [ $blkno, qr/the right-links followed from the page go round in a loop/ ];
}

# a new page (all zeroes) past the tree, as a crash in the middle of
# extending the relation leaves one: allowed
{
	open(my $fh, '>>', $path{healthy}) or die "open $path{healthy}: $!";
	binmode $fh;
	print $fh "\0" x 8192;
	close $fh;
}

# a first write extended the empty relation by its metapage and root
# leaf, and a crash came before the WAL record that initialises them
is(-s $path{$uncreated}, 0, 'the column family never written has no pages');
{
	open(my $fh, '>>', $path{$uncreated}) or die "open $path{$uncreated}: $!";
	binmode $fh;
	print $fh "\0" x (2 * 8192);
	close $fh;
}

$node->start;

for my $cf (@plain, 'orphan', 'deadcells')
{
	my ($blkno, $what) = @{ $expect{$cf} };
	my ($ret, $stdout, $stderr) =
	  $node->psql('postgres', "SELECT cfstore.verify('ks', '$cf')");
	isnt($ret, 0, "$cf: verify fails");
	like($stderr, damage($blkno, $what), "$cf: verify names block $blkno and the damage");
}

# reads that reach the overflow page as a leaf
{
	my $blkno = $expect{overflowleaf}[0];
	my $damage = damage($blkno, qr/a link leads to a page that is not a tree page at level 0/);
	my ($ret, $stdout, $stderr) =
	  $node->psql('postgres', "SELECT count(*) FROM cfstore.get_slice('ks', 'overflowleaf', 'r', count => 10000)");
	isnt($ret, 0, 'overflowleaf: a slice that walks the row fails');
	like($stderr, $damage, 'overflowleaf: naming the page its walk reached');
	($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT count(*) FROM cfstore.get_slice('ks', 'overflowleaf', 'r',
	  count => 10000, reversed => true)");
	isnt($ret, 0, 'overflowleaf: a reversed one fails');
	like($stderr, $damage, 'overflowleaf: naming it too');
	($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT count(s.*) FROM generate_series(1, 3000, 20) i,
	  LATERAL cfstore.get_slice('ks', 'overflowleaf', 'r', start => i::bigint, finish => i::bigint) s");
	isnt($ret, 0, 'overflowleaf: slices of single columns fail');
	like($stderr, $damage, 'overflowleaf: naming the page a descent reached');
	is($node->safe_psql('postgres', "SELECT length(value) FROM cfstore.get_slice('ks', 'overflowleaf', 's')"),
		32 * 1000, 'overflowleaf: the row after it reads');
}

# walks to the right that the damaged right-link leads back: they stop at
# the page they reach a second time, instead of reading rows again; and
# where the link leads to the page itself, VACUUM (which holds the page
# while it looks right of it) and a split of the page (which locks its
# right sibling) raise instead of waiting forever on their own lock
for my $cf ('cycle', 'selflink')
{
	my $blkno = $expect{$cf}[0];
	my $again = damage($blkno, qr/a walk to the right reached the page a second time/);
	my %run = (
		'a slice of the row' => "SELECT count(*) FROM cfstore.get_slice('ks', '$cf', 'r', count => 10000)",
		'range slices' => "SELECT count(*) FROM cfstore.get_range_slices('ks', '$cf', key_count => 1000, count => 10000)",
		'a scan of the storage relation' => "SELECT count(*) FROM " . storage($cf),
		'VACUUM' => "VACUUM " . storage($cf));
	$run{'writes that split every leaf'} = "SELECT count(cfstore.insert('ks', '$cf', 'r', i, repeat('w', 200), writetime => 2))
	  FROM generate_series(1, 3000) i" if $cf eq 'selflink';
	for my $what (sort keys %run)
	{
		my ($ret, $stdout, $stderr) = $node->psql('postgres', $run{$what}, timeout => 120);
		is($ret, 3, "$cf: $what fails");
		like($stderr, $again, "$cf: $what names block $blkno, reached again");
	}
}
{
	# the left-links are whole, but the page before the damaged one does not lead back
	my ($ret, $stdout, $stderr) = $node->psql('postgres',
		"SELECT count(*) FROM cfstore.get_slice('ks', 'cycle', 'r', count => 10000, reversed => true)", timeout => 120);
	is($ret, 3, 'cycle: a reversed slice fails');
	like($stderr, damage(qr/\d+/, qr/the chain of left-links before the page is broken/), 'cycle: naming the broken chain');
}

# descents that would move right forever raise instead: a read's (from
# the backend's image of the root, then from the root page) and a write's
{
	my $loop = damage(@{ $expect{moveloop} });
	my %run = (
		'slices of single columns' => "SELECT count(s.*) FROM generate_series(1, 3000, 20) i,
		   LATERAL cfstore.get_slice('ks', 'moveloop', 'r', start => i::bigint, finish => i::bigint) s",
		'writes across the row' => "SELECT count(cfstore.insert('ks', 'moveloop', 'r', i, 'new', writetime => 2))
		   FROM generate_series(1, 3000, 20) i");
	for my $what (sort keys %run)
	{
		my ($ret, $stdout, $stderr) = $node->psql('postgres', $run{$what}, timeout => 120);
		is($ret, 3, "moveloop: $what fails");
		like($stderr, $loop, "moveloop: $what reports the loop");
	}
	my ($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT cfstore.verify('ks', 'moveloop')", timeout => 120);
	is($ret, 3, 'moveloop: verify fails');
}

# Damaged items: verify names them, and so do reads, writes and VACUUM
# that reach them; none of them reads outside the page.
for my $cf (@items)
{
	my ($blkno, $what) = @{ $expect{$cf} };
	my $damage = damage($blkno, $what);
	my %run = (
		'verify' => "SELECT cfstore.verify('ks', '$cf')",
		'stats' => "SELECT cfstore.stats('ks', '$cf')",
		'a slice of the row' => "SELECT count(*) FROM cfstore.get_slice('ks', '$cf', 'r', count => 10000)",
		'a reversed slice' => "SELECT count(*) FROM cfstore.get_slice('ks', '$cf', 'r', count => 10000, reversed => true)",
		'slices of single columns' => "SELECT count(s.*) FROM generate_series(1, 3000, 20) i,
		   LATERAL cfstore.get_slice('ks', '$cf', 'r', start => i::bigint, finish => i::bigint) s",
		'writes across the row' => "SELECT count(cfstore.insert('ks', '$cf', 'r', i, 'new', writetime => 2))
		   FROM generate_series(1, 3000, 20) i",
		'VACUUM' => "VACUUM " . storage($cf));
	for my $what (sort keys %run)
	{
		my ($ret, $stdout, $stderr) = $node->psql('postgres', $run{$what});
		isnt($ret, 0, "$cf: $what fails");
		like($stderr, $damage, "$cf: $what names block $blkno and the damage");
	}
}
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is still up after reading the damaged items');
unlike(slurp_file($node->logfile), qr/terminated by signal|TRAP:/, 'no backend crashed');

my ($linked, $dead) = leaves($path{healthy});
cmp_ok(scalar(@$dead), '>=', 10, 'the undamaged column family has unlinked leaves');
is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', 'healthy')"), '',
	'the undamaged column family with unlinked leaves and a new page at its end verifies');
# VACUUM's scan of the blocks outside the tree meets the new page too
$node->safe_psql('postgres', "VACUUM " . storage('healthy'));
is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', 'healthy')"), '',
	'and after a VACUUM that read the new page');

# The relation whose pages were never initialised reads as empty, verifies,
# and its next write creates the tree.
{
	my ($ret, $stdout, $stderr) =
	  $node->psql('postgres', "SELECT count(*) FROM cfstore.get_slice('ks', '$uncreated', 'r')");
	is($ret, 0, 'uncreated tree: a slice does not fail');
	is($stdout, '0', 'uncreated tree: and finds nothing');
	is($stderr, '', 'uncreated tree: no error or warning');
}
is($node->safe_psql('postgres', "SELECT pages || ' ' || cell_versions FROM cfstore.stats('ks', '$uncreated')"),
	'2 0', 'uncreated tree: stats counts its two pages and no cells');
is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', '$uncreated')"), '', 'uncreated tree: verify passes');
$node->safe_psql('postgres', qq{
SELECT count(cfstore.insert('ks', '$uncreated', 'r', i, repeat('v', 40), writetime => 1))
  FROM generate_series(1, 500) i;
});
is($node->safe_psql('postgres', "SELECT count(*) || ' ' || min(column_name::bigint) || ' ' || max(column_name::bigint)
  FROM cfstore.get_slice('ks', '$uncreated', 'r', count => 1000)"),
	'500 1 500', 'uncreated tree: the next writes create it and read back');
is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', '$uncreated')"), '',
	'uncreated tree: verify passes once it is created');
$node->safe_psql('postgres', "VACUUM " . storage($uncreated));
is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', '$uncreated')"), '',
	'uncreated tree: and after a VACUUM');

# a range tombstone (src/storage/cfrangedel.c) whose start length overruns
# its value: verify, and a slice that gathers the row's tombstones, name it
$node->safe_psql('postgres', q{
SELECT cfstore.create_column_family('ks', 'rangedamage', comparator => 'UTF8Type', key_validation_class => 'UTF8Type');
SELECT cfstore.insert('ks', 'rangedamage', 'r', c, 'v'::bytea, writetime => 1) FROM unnest(ARRAY['A', 'Z']) c;
SELECT cfstore._remove_range('ks', 'rangedamage', 'r', 'QQQQQQQQ', 'QQQQQQQR', 2);
});
is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', 'rangedamage')"), '', 'rangedamage verifies before the damage');
my $rpath = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('" . storage('rangedamage') . "')");
$node->stop;
{
	open(my $fh, '+<', $rpath) or die "open $rpath: $!";
	binmode $fh;
	local $/;
	my $bytes = <$fh>;
	my $at = index($bytes, "\x00\x08QQQQQQQQ");
	ok($at > 0, 'rangedamage: the range tombstone found on disk');
	substr($bytes, $at, 2) = "\x7f\xff";
	seek($fh, 0, 0);
	print $fh $bytes;
	close $fh;
	$blkno_range = int($at / BLCKSZ);
}
$node->start;
{
	my ($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT cfstore.verify('ks', 'rangedamage')");
	isnt($ret, 0, 'rangedamage: verify fails');
	like($stderr, damage($blkno_range, qr/range tombstone's start \(32767 bytes\) overruns its value/),
		'rangedamage: verify names the block and the damage');
	($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT count(*) FROM cfstore.get_slice('ks', 'rangedamage', 'r', 'B', NULL::text)");
	isnt($ret, 0, 'rangedamage: a slice that reads the row\'s tombstones fails');
	like($stderr, damage($blkno_range, qr/overruns its value/), 'rangedamage: naming the block');
	is($node->safe_psql('postgres', 'SELECT 1'), '1', 'rangedamage: the server is still up');
}

$node->stop;
done_testing();
