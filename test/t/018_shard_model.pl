# The model tests, unchanged, against keyspaces sharded over two servers.
#
# storage_model, storage_model_index, storage_model_orders, fdw_model and cql_model
# write thousands of random cells, then compare every read of the function
# API and the foreign tables with an independent model in SQL.  Here they
# run through pg_regress on a coordinator whose database shards every new
# keyspace (cfstore_shard.shard_new_keyspaces) over two shard servers, and
# must print exactly their expected output: the coordinator answers as one
# node holding all the data.
use strict;
use warnings;

use File::Copy;
use File::Path qw(make_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use CfShard;

my @tests = qw(storage_model storage_model_index storage_model_orders fdw_model cql_model);

my %node = start_nodes(qw(coordinator shard1 shard2));
$node{$_}->safe_psql('postgres', 'CREATE EXTENSION cfstore') for qw(shard1 shard2);
my $co = $node{coordinator};
$co->safe_psql('postgres', 'CREATE DATABASE regression');
$co->safe_psql('regression', 'CREATE EXTENSION cfstore_shard CASCADE');
for my $s (1, 2)
{
	my ($ret, $out, $err) = add_server($co, 'regression', "s$s", $node{"shard$s"}, 'postgres');
	die $err if $ret != 0;
}
$co->safe_psql('regression', 'SELECT cfstore_shard.create_cluster(8)');
# what pg_regress sets on the databases it creates, and the sharding of every new keyspace
$co->safe_psql('regression', q{ALTER DATABASE regression SET lc_messages TO 'C';
ALTER DATABASE regression SET lc_monetary TO 'C'; ALTER DATABASE regression SET lc_numeric TO 'C';
ALTER DATABASE regression SET lc_time TO 'C'; ALTER DATABASE regression SET bytea_output TO 'hex';
ALTER DATABASE regression SET timezone_abbreviations TO 'Default';
ALTER DATABASE regression SET cfstore_shard.shard_new_keyspaces TO 'on'});

# the tests and their expected output, as the suite has them
my $in = "${PostgreSQL::Test::Utils::tmp_check}/shard_model";
make_path("$in/sql/include", "$in/expected", "$in/output");
copy("test/sql/$_.sql", "$in/sql/") || die "copy $_: $!" for @tests;
copy("test/expected/$_.out", "$in/expected/") || die "copy $_: $!" for @tests;
copy($_, "$in/sql/include/") || die "copy $_: $!" for glob('test/sql/include/*.sql');

# the tests \i their includes from test/sql/include, relative to where they run
my $ret = system_log(
	'sh', '-c',
	sprintf('cd %s && mkdir -p test && ln -sfn %s/sql test/sql && %s --use-existing --dbname=regression --host=%s --port=%d '
		  . '--inputdir=%s --outputdir=%s %s',
		$in, $in, $ENV{PG_REGRESS}, $co->host, $co->port, $in, "$in/output", join(' ', @tests)));
is($ret, 0, 'the model tests print their expected output against sharded keyspaces');
if ($ret != 0 && -e "$in/output/regression.diffs")
{
	diag(slurp_file("$in/output/regression.diffs"));
}

# and the data was on the shards, not on the coordinator
is($co->safe_psql('regression', q{SELECT count(*) FROM cfstore.keyspace WHERE placement IS NULL}), 0,
	'every keyspace they made was sharded');
for my $shard (qw(shard1 shard2))
{
	cmp_ok($node{$shard}->safe_psql('postgres',
		q{SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = '_remote_write_batch'}),
		'>', 100, "$shard received the tests' writes");
}
is($co->safe_psql('regression', q{SELECT count(*) FROM pg_stat_user_functions WHERE funcname = '_remote_write_batch'}),
	0, 'the coordinator stored none itself');

$node{$_}->stop for keys %node;
done_testing();
