# cfstore.stats and cfstore.verify beside a load that splits pages.
#
# A split holds its page locked while it waits for the parent's lock.  A
# walk of the tree that held a parent locked while it waited for a child
# would wait forever on it (buffer locks have no deadlock detection: every
# backend involved hangs).  Here one client inserts at random into 50 rows,
# splitting leaves, while another runs cfstore.stats over and over and a
# third cfstore.verify.  All three must end in time without an error: stats
# does not raise on a split or an unlink it sees half done, and verify,
# which locks the column family against writes, reports nothing.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('inspect');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'c', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('ks', 'c', 'r' || (i % 50), i::bigint, repeat('x', 40), i::bigint))
  FROM generate_series(1, 20000) i;
});

my %scripts = (
	insert => q{\set r random(0, 49)
\set n random(1, 100000000)
SELECT cfstore.insert('ks', 'c', 'r' || :r, :n::bigint, repeat('y', 40), :n::bigint);
},
	stats  => q{SELECT pages FROM cfstore.stats('ks', 'c');
},
	verify => q{SELECT cfstore.verify('ks', 'c');
});
my @runs;
my $hung = 0;
for my $name (sort keys %scripts)
{
	my $file = $node->basedir . "/$name.sql";
	append_to_file($file, $scripts{$name});
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			'pgbench', '-n', '-c', '1', '-T', '8', '-f', $file,
			'-h', $node->host, '-p', $node->port, 'postgres'
		],
		'>', \$out, '2>', \$err,
		IPC::Run::timeout(180));
	push @runs, [ $name, $h, \$out, \$err ];
}
for my $run (@runs)
{
	my ($name, $h, $out, $err) = @$run;
	my $finished = eval { $h->finish; 1 };
	if (!$finished)
	{
		$h->kill_kill;
		fail("$name ends in time");
		diag($@);
		$hung = 1;
		next;
	}
	is($h->result(0), 0, "$name ends in time, without an error")
	  or diag($$out, $$err);
	my ($tx) = $$out =~ /number of transactions actually processed: (\d+)/;
	cmp_ok($tx // 0, '>', 0, "$name ran");
	note("$name: " . ($tx // 0) . ' transactions');
}

if ($hung)
{
	# backends waiting for buffer locks cannot be stopped otherwise
	$node->stop('immediate');
	done_testing();
	exit;
}

is($node->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'c')}), '', 'verify passes after the load');
my $rel = $node->safe_psql('postgres', q{SELECT cfstore._storage_relation('ks', 'c')});
is( $node->safe_psql(
		'postgres',
		qq{SELECT s.live_cells = (SELECT count(*) FROM $rel) FROM cfstore.stats('ks', 'c') s}),
	't',
	'stats counts the cells a scan of the storage relation returns');

$node->stop;
done_testing();
