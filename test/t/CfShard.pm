# Helpers for the TAP tests of sharded keyspaces (017, 018, 019): the
# nodes of a cluster, and registering shard servers with a coordinator.
package CfShard;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;

our @EXPORT = qw(start_nodes add_server);

# Nodes named @names, started, with what sharding needs (prepared
# transactions for two-phase commit, cfstore loaded in every session so
# that a coordinator plans its key lookups on the shard's partition,
# function counters to see which shard ran a call); a hash of them by name.
sub start_nodes
{
	my (@names) = @_;
	my %node;
	for my $name (@names)
	{
		$node{$name} = PostgreSQL::Test::Cluster->new($name);
		$node{$name}->init;
		$node{$name}->append_conf('postgresql.conf', "max_prepared_transactions = 5\nsession_preload_libraries = 'cfstore'\ntrack_functions = 'all'\n");
		$node{$name}->start;
	}
	return %node;
}

# Register database $dbname of $node as shard server $name with the
# coordinator's database $codb; psql's (ret, stdout, stderr).
sub add_server
{
	my ($co, $codb, $name, $node, $dbname) = @_;
	return $co->psql($codb, sprintf(q{SELECT cfstore_shard.add_server('%s', '%s', host => '%s', port => %d)},
		$name, $dbname, $node->host, $node->port));
}

1;
