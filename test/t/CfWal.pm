# Helpers for the TAP tests that recover a base backup to a record inside
# a split (007, 009): find a statement's Generic WAL records, archive the
# WAL up to there, and recover to right after one of them.
package CfWal;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Cluster;

our @EXPORT = qw(generic_records archive_through recover_to);

# The LSNs of $node's Generic WAL records from $from to $to, and
# pg_waldump's output (for diagnostics and checks of the records).
sub generic_records
{
	my ($node, $from, $to) = @_;
	my ($out, $err);
	IPC::Run::run [ 'pg_waldump', '-p', $node->data_dir . '/pg_wal', '-s', $from, '-e', $to,
		'-r', 'Generic' ], '>', \$out, '2>', \$err;
	my @lsns = $out =~ /lsn: ([0-9A-F]+\/[0-9A-F]+)/g;
	return (\@lsns, $out . ($err // ''));
}

# Make $node switch WAL segments and wait until the one holding $lsn is archived.
sub archive_through
{
	my ($node, $lsn) = @_;
	my $segment = $node->safe_psql('postgres', "SELECT pg_walfile_name('$lsn')");
	$node->safe_psql('postgres', 'SELECT pg_switch_wal()');
	$node->poll_query_until('postgres',
		"SELECT last_archived_wal >= '$segment' FROM pg_stat_archiver")
	  or die 'the WAL was not archived';
	return;
}

# A new node $name: $node's backup $backup recovered up to the record at
# $lsn included, then promoted; started, out of recovery.  It archives
# nothing: its new timeline in $node's archive would lead the next
# recovery from there onto it.
sub recover_to
{
	my ($node, $backup, $name, $lsn) = @_;
	my $n = PostgreSQL::Test::Cluster->new($name);
	$n->init_from_backup($node, $backup, has_restoring => 1, standby => 0);
	$n->append_conf('postgresql.conf', qq{
recovery_target_lsn = '$lsn'
recovery_target_inclusive = on
recovery_target_action = 'promote'
autovacuum = off
archive_mode = off
});
	$n->start;
	$n->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'recovery did not end';
	return $n;
}

1;
