# Damaged pages raise errors; they never crash a backend or hang it.
#
# Column families of every kind (long values stored out of line, super
# columns, TimeUUID names, counters, CompositeType names) are written,
# the server is stopped, and one page of each storage relation is damaged
# on disk: a bit or bytes of its items, its line pointers, its special
# space or its header, or a sibling link or a downlink made to lead to
# any block, chosen by a seeded generator, so every run damages the same
# bytes.  After a restart reads of every kind, verify, stats, writes and
# VACUUM run against every column family.  Each must succeed or fail with
# an error (what a damaged byte in a value or a name does without data
# checksums is not known in advance), within a time limit, and the
# server log must show no crashed backend.  Then the relations are
# restored as written, and the next round damages other pages.
#
# test 006 pins the errors of each kind of damage; this one looks for
# damage nobody thought of.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use CfPages;

use constant BLCKSZ => 8192;
use constant ROUNDS => 12;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->append_conf('postgresql.conf', "autovacuum = off\nrestart_after_crash = on\n");
$node->start;

# column family => [ the CREATE arguments, the key expression over k (text), the load ]
my %cf = (
	lng => [
		q{comparator => 'LongType', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
		  gc_grace_seconds => 0},
		'k',
		q{SELECT count(cfstore.insert('ks', 'lng', 'k' || r, c::bigint,
		    CASE WHEN (r * 7 + c) % 23 = 0 THEN repeat(md5(r::text || c), 100) ELSE 'value ' || r || '/' || c END,
		    writetime => 1000 + c, ttl => CASE WHEN c % 9 = 0 THEN 1000000 END))
		  FROM generate_series(0, 59) r, generate_series(1, 60) c;
		  SELECT count(cfstore.remove('ks', 'lng', 'k' || r, c::bigint, writetime => 5000))
		  FROM generate_series(0, 59, 3) r, generate_series(5, 60, 11) c;} ],
	sup => [
		q{column_type => 'Super', comparator => 'UTF8Type', subcomparator => 'LongType',
		  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0},
		'k',
		q{SELECT count(cfstore.insert('ks', 'sup', 'k' || r, c::bigint, 'sv ' || r || c, super_column => 'sc' || s,
		    writetime => 1))
		  FROM generate_series(0, 59) r, generate_series(1, 5) s, generate_series(1, 10) c;
		  SELECT count(cfstore.remove('ks', 'sup', 'k' || r, super_column => 'sc2', writetime => 2))
		  FROM generate_series(0, 59, 4) r;} ],
	tu => [
		q{comparator => 'TimeUUIDType', key_validation_class => 'UTF8Type', default_validation_class => 'BytesType'},
		'k',
		q{SELECT count(cfstore.insert('ks', 'tu', 'k' || r,
		    cfstore.min_timeuuid('2020-01-01 UTC'::timestamptz + (c * 1000 + r) * interval '1 ms'),
		    decode(md5(c::text), 'hex'), writetime => 1))
		  FROM generate_series(0, 59) r, generate_series(1, 80) c;} ],
	ctr => [
		q{comparator => 'UTF8Type', key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType'},
		'k',
		q{SELECT count(cfstore.add('ks', 'ctr', 'k' || r, 'n' || c, (r + c)::bigint))
		  FROM generate_series(0, 59) r, generate_series(1, 40) c, generate_series(1, 2) rep;} ],
	cmp => [
		q{comparator => 'CompositeType(UTF8Type,LongType)', key_validation_class => 'BytesType',
		  default_validation_class => 'UTF8Type'},
		"convert_to(k, 'UTF8')",
		q{SELECT count(cfstore.insert('ks', 'cmp', convert_to('k' || r, 'UTF8'), ROW('p' || (c % 7), c::bigint),
		    'cv' || c, writetime => 1))
		  FROM generate_series(0, 59) r, generate_series(1, 60) c;} ],
);
# the middle of a row, for slices that start there
my %mid = (
	lng => '30::bigint',
	sup => q{'sc3'},
	tu => q{cfstore.min_timeuuid('2020-01-01 UTC'::timestamptz + 40000 * interval '1 ms')},
	ctr => q{'n20'},
	cmp => q{ROW('p3', 0::bigint)});
# a new cell
my %write = (
	lng => q{cfstore.insert('ks', 'lng', k, 99::bigint, 'new', writetime => 9000)},
	sup => q{cfstore.insert('ks', 'sup', k, 99::bigint, 'new', super_column => 'sc9', writetime => 9000)},
	tu => q{cfstore.insert('ks', 'tu', k, cfstore.min_timeuuid('2030-01-01 UTC'::timestamptz), '\x00'::bytea)},
	ctr => q{cfstore.add('ks', 'ctr', k, 'n99', 1)},
	cmp => q{cfstore.insert('ks', 'cmp', convert_to(k, 'UTF8'), ROW('p9', 1::bigint), 'new')});
my @cfs = sort keys %cf;

$node->safe_psql('postgres', q{CREATE EXTENSION cfstore; SELECT cfstore.create_keyspace('ks');});
for my $name (@cfs)
{
	$node->safe_psql('postgres', "SELECT cfstore.create_column_family('ks', '$name', $cf{$name}[0])");
	$node->safe_psql('postgres', $cf{$name}[2]);
	is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', '$name')"), '', "$name verifies before the damage");
}
my (%path, %storage);
for my $name (@cfs)
{
	$storage{$name} = $node->safe_psql('postgres', "SELECT cfstore._storage_relation('ks', '$name')");
	$path{$name} = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('$storage{$name}')");
}

# The probes of a column family: name => statement.  Each loop runs one
# read per row key, each in a subtransaction, so one damaged row does not
# hide the others.
sub probes
{
	my ($name) = @_;
	my $key = $cf{$name}[1];
	my $loop = sub {
		my ($body) = @_;
		return qq{DO \$d\$ DECLARE k text; BEGIN FOR k IN SELECT 'k' || r FROM generate_series(0, 59) r LOOP
		  BEGIN $body; EXCEPTION WHEN OTHERS THEN RAISE NOTICE '%: %', SQLSTATE, SQLERRM; END; END LOOP; END \$d\$};
	};
	return (
		'slices' => $loop->("PERFORM count(*), sum(length(value)) FROM cfstore.get_slice('ks', '$name', $key, count => 100000)"),
		'reversed slices' =>
		  $loop->("PERFORM count(*) FROM cfstore.get_slice('ks', '$name', $key, reversed => true, count => 100000)"),
		'slices from the middle' =>
		  $loop->("PERFORM count(*) FROM cfstore.get_slice('ks', '$name', $key, start => $mid{$name}, count => 5)"),
		'reversed slices from the middle' => $loop->(
			"PERFORM count(*) FROM cfstore.get_slice('ks', '$name', $key, start => $mid{$name}, reversed => true, count => 5)"
		),
		'counts' => $loop->("PERFORM cfstore.get_count('ks', '$name', $key)"),
		'range slices' => "SELECT count(*) FROM cfstore.get_range_slices('ks', '$name', key_count => 1000, count => 1000)",
		'a scan of the storage relation' => "SELECT count(*) FROM $storage{$name}",
		'verify' => "SELECT cfstore.verify('ks', '$name')",
		'stats' => "SELECT cfstore.stats('ks', '$name')",
		'writes' => $loop->("PERFORM $write{$name}"),
		'VACUUM' => "VACUUM $storage{$name}",
		'slices after VACUUM' =>
		  $loop->("PERFORM count(*) FROM cfstore.get_slice('ks', '$name', $key, count => 100000)"));
}

# Damage a page of nblocks in one of a few ways; returns the page and what
# was done.
sub damage
{
	my ($page, $nblocks) = @_;
	my ($lower, $upper, $special) = unpack('SSS', substr($page, 12, 6));
	my @kinds = ('a bit of an item', 'bytes of items', 'a line pointer byte', 'a special space byte',
		'a header byte', 'any byte', 'a sibling link', 'a downlink');
	my $kind = $kinds[ int(rand(@kinds)) ];
	my @at;
	# the special space (CfPageOpaqueData): left, right, level, ...
	my $cfpage = $special == BLCKSZ - 16 && unpack('S', substr($page, $special + 14, 2)) == 0xCF57;
	if ($kind eq 'a sibling link' && $cfpage)
	{
		# to any block of the relation, this one included
		my $i = $special + 4 * int(rand(2));
		my $to = int(rand($nblocks));
		substr($page, $i, 4) = pack('L', $to);
		return ($page, "$kind at $i to $to");
	}
	if ($kind eq 'a downlink' && $cfpage && unpack('S', substr($page, $special + 8, 2)) > 0 && $lower > 24)
	{
		# the child of an index tuple of an internal page (its first field)
		my $item = 1 + int(rand(($lower - 24) / 4));
		my $offset = unpack('L', substr($page, 20 + 4 * $item, 4)) & 0x7FFF;
		my $to = int(rand($nblocks));
		substr($page, $offset, 4) = pack('L', $to);
		return ($page, "$kind of item $item to $to");
	}
	if ($kind eq 'a bit of an item' && $upper < $special)
	{
		my $i = $upper + int(rand($special - $upper));
		substr($page, $i, 1) = chr(ord(substr($page, $i, 1)) ^ (1 << int(rand(8))));
		return ($page, "$kind at $i");
	}
	if ($kind eq 'bytes of items' && $upper < $special)
	{
		@at = map { $upper + int(rand($special - $upper)) } 1 .. 3;
	}
	elsif ($kind eq 'a line pointer byte' && $lower > 24)
	{
		@at = (24 + int(rand($lower - 24)));
	}
	elsif ($kind eq 'a special space byte' && $special < BLCKSZ)
	{
		@at = ($special + int(rand(BLCKSZ - $special)));
	}
	elsif ($kind eq 'a header byte')
	{
		# pd_lower, pd_upper, pd_special
		@at = (12 + int(rand(6)));
	}
	else
	{
		$kind = 'any byte';
		@at = (24 + int(rand(BLCKSZ - 24)));
	}
	substr($page, $_, 1) = chr(int(rand(256))) for @at;
	return ($page, "$kind at @at");
}

# The relations as written; each round starts from them, without the
# free space map, which may name pages the probes' writes added
$node->stop;
my %file;
for my $name (@cfs)
{
	open(my $fh, '<:raw', $path{$name}) or die "open $path{$name}: $!";
	local $/;
	$file{$name} = <$fh>;
	close($fh);
}

sub restore
{
	for my $name (@cfs)
	{
		open(my $fh, '>:raw', $path{$name}) or die "open $path{$name}: $!";
		print $fh $file{$name} or die "write: $!";
		close($fh);
		unlink("$path{$name}_fsm");
	}
}

srand(20261121);
for my $round (1 .. ROUNDS)
{
	restore();
	for my $name (@cfs)
	{
		my $nblocks = length($file{$name}) / BLCKSZ;
		# the metapage one time in ten
		my $blkno = rand() < 0.1 ? 0 : 1 + int(rand($nblocks - 1));
		my ($damaged, $what) = damage(read_page($path{$name}, $blkno), $nblocks);
		write_page($path{$name}, $blkno, $damaged);
		note("round $round: $name block $blkno: $what");
	}
	$node->start;
	for my $name (@cfs)
	{
		my %probe = probes($name);
		for my $what (sort keys %probe)
		{
			my ($ret, $stdout, $stderr) = $node->psql('postgres', $probe{$what}, timeout => 120);
			# 0: done, 3: an error; anything else is a lost connection or the time limit
			ok($ret == 0 || $ret == 3, "round $round, $name: $what ends or raises") or diag($stderr);
			$node->poll_query_until('postgres', 'SELECT true') if $ret != 0 && $ret != 3;
		}
	}
	$node->stop;
}
restore();
$node->start;
my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal|TRAP:/, 'no backend crashed');

# the relations as written, which a clean stop leaves no WAL to replay over
for my $name (@cfs)
{
	is($node->safe_psql('postgres', "SELECT cfstore.verify('ks', '$name')"), '', "$name verifies once restored");
}
$node->stop;
done_testing();
