# A storage relation's owner cannot crash the server by changing its shape.
#
# The keyspace owner owns its column families' storage relations.  DDL that
# would change one (ALTER TABLE and its relatives) is refused before it
# runs, by an event trigger that fires in a backend that has not loaded
# cfstore yet as well as by the library's ProcessUtility hook.  With both
# out of the way (a superuser disabled the event trigger, and the ALTER is
# the backend's first statement, before the library is loaded), the DDL
# goes through, run by the superuser; then every cfstore function and
# foreign table over the changed relation must end in an error, SQL on the
# relation itself must end in an error while it still uses cfstore, and
# the server must never restart.  A change that fails (a rewrite into
# columns cfstore refuses) or that keeps the shape (SET UNLOGGED) leaves a
# column family that works.
#
# Also: a role with no privileges cannot hold up the writers of another
# owner's column family through _index_build, which it may not execute.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('shape');
$node->init;
$node->start;

# One column family per variant, each with a row (but Empty, which a rule
# can turn into a view only while it is empty).
my @variants = (
	[ 'AddColumn',  'ALTER TABLE %s ADD COLUMN extra text' ],
	[ 'AddDefault', q{ALTER TABLE %s ADD COLUMN extra text DEFAULT 'x'} ],
	[ 'DropColumn', 'ALTER TABLE %s DROP COLUMN ttl' ],
	[ 'AddDrop',    'ALTER TABLE %s ADD COLUMN extra text', 'ALTER TABLE %s DROP COLUMN extra' ],
	[ 'Rename',     'ALTER TABLE %s RENAME COLUMN value TO v' ],
	[ 'Retype',     'ALTER TABLE %s ALTER COLUMN ttl TYPE bigint' ],
	[ 'Swap',       'ALTER TABLE %s ALTER COLUMN writetime TYPE integer' ],
	[ 'Heap',       'ALTER TABLE %s SET ACCESS METHOD heap' ],
	[ 'Unlogged',   'ALTER TABLE %s SET UNLOGGED' ],
	[ 'Moved',      'ALTER TABLE %s SET SCHEMA public' ],
	[ 'Renamed',    'ALTER TABLE %s RENAME TO elsewhere' ],
	[ 'Dropped',    'DROP TABLE %s' ],
	[ 'Empty',      q{CREATE RULE "_RETURN" AS ON SELECT TO %s DO INSTEAD
	                  SELECT NULL::bytea AS key, NULL::bytea AS super_column, NULL::bytea AS column_name,
	                         NULL::bytea AS value, NULL::bigint AS writetime, NULL::integer AS ttl,
	                         NULL::integer AS expires_at} ],);

$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
CREATE ROLE alice;
CREATE ROLE bob;
GRANT CREATE ON DATABASE postgres TO alice;
SET ROLE alice;
SELECT cfstore.create_keyspace('Shape');
});
for my $v (@variants)
{
	my $cf = $v->[0];
	$node->safe_psql('postgres', qq{
SET ROLE alice;
SELECT cfstore.create_column_family('Shape', '$cf', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
});
	next if $cf eq 'Empty';
	$node->safe_psql('postgres', qq{
SET ROLE alice;
SELECT cfstore.insert('Shape', '$cf', 'k', 'state', 'UT', ttl => 100000);
SELECT cfstore.insert('Shape', '$cf', 'k', 'name', 'alice');
});
}

my $started = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');
# A session open throughout: a crash anywhere would end it.
my $watch = $node->background_psql('postgres', on_error_stop => 0);
$watch->query_safe('SELECT 1');

# The server is the one started above, and the watching session lives.
sub still_up
{
	my ($what) = @_;
	is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'), $started, "$what: no restart");
	is($watch->query_safe('SELECT 42'), '42', "$what: the watching session lives");
}

sub storage_of
{
	my ($cf) = @_;
	return $node->safe_psql('postgres', qq{SELECT cfstore._storage_relation('Shape', '$cf')});
}

# 1. Refused, in a backend that has not loaded cfstore (the event trigger).
for my $v (@variants)
{
	my ($cf, @ddl) = @$v;
	my $rel = storage_of($cf);
	(my $sql = $ddl[0]) =~ s/%s/$rel/g;
	my ($ret, $out, $err) = $node->psql('postgres', "SET ROLE alice; $sql");
	like($err, qr/cannot \w+( \w+)* cfstore storage relation/, "$cf: refused as its owner");
	($ret, $out, $err) = $node->psql('postgres', $sql);
	like($err, qr/cannot \w+( \w+)* cfstore storage relation/, "$cf: refused as a superuser");
	is(storage_of($cf), $rel, "$cf: the storage relation is still there");
}
# the same event trigger guards the keyspace's schema, and publications
my $any = storage_of('AddColumn');
my @guarded = (
	[ 'a publication',           qq{CREATE PUBLICATION p FOR TABLE $any},                    qr/cannot be published/ ],
	[ 'a foreign table child',   qq{CREATE FOREIGN TABLE public.fchild () INHERITS ($any) SERVER cfstore},
	  qr/cannot inherit from or partition cfstore storage relation/ ],
	[ 'DROP SCHEMA',             q{DROP SCHEMA "Shape" CASCADE},                             qr/cannot drop schema "Shape": it is cfstore keyspace Shape/ ],
	[ 'ALTER SCHEMA ... RENAME', q{ALTER SCHEMA "Shape" RENAME TO "Other"},                  qr/cannot rename schema "Shape": it is cfstore keyspace Shape/ ],
	[ 'DROP OWNED',              q{DROP OWNED BY alice},                                     qr/role "alice" owns keyspace Shape/ ],);
for my $g (@guarded)
{
	my ($what, $sql, $error) = @$g;
	my ($ret, $out, $err) = $node->psql('postgres', $sql);
	like($err, $error, "$what: refused in a backend that has not loaded cfstore");
	($ret, $out, $err) = $node->psql('postgres', "SELECT cfstore.get_slice('Shape', 'AddColumn', 'k'); $sql");
	like($err, $error, "$what: and in one that has");
}
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'Shape'}), 1, 'the keyspace keeps its schema');
still_up('refusals');
my ($ret, $out, $err);

# 2. With the guards out of the way, the change (or its attempt) is made.
$node->safe_psql('postgres', 'ALTER EVENT TRIGGER cfstore_storage_guard DISABLE');
# uses through cfstore's functions and foreign tables
my %api = (
	'get_slice'        => q{SELECT * FROM cfstore.get_slice('Shape', '%cf', 'k')},
	'get_range_slices' => q{SELECT * FROM cfstore.get_range_slices('Shape', '%cf')},
	'indexed'          => q{SELECT * FROM cfstore.get_indexed_slices('Shape', '%cf', '[{"column_name": "state", "op": "EQ", "value": "UT"}]')},
	'insert'           => q{SELECT cfstore.insert('Shape', '%cf', 'k2', 'state', 'UT')},
	'foreign table'    => q{SELECT * FROM "Shape"."%cf"},
	'foreign insert'   => q{INSERT INTO "Shape"."%cf" (key, column_name, value) VALUES ('k3', 'a', 'b')},
	'verify'           => q{SELECT cfstore.verify('Shape', '%cf')},
	'stats'            => q{SELECT * FROM cfstore.stats('Shape', '%cf')},);
# SQL on the relation itself (under the name it has now)
my %sql = (
	'scan'        => q{SELECT * FROM %rel},
	'copy'        => q{COPY %rel TO stdout},
	'vacuum'      => q{VACUUM %rel},
	'analyze'     => q{ANALYZE %rel},
	'vacuum full' => q{VACUUM FULL %rel},
	'truncate'    => q{SELECT cfstore.truncate('Shape', '%cf')},);

# What the relation of a column family is now: 'storage' (a cfstore table
# with the seven columns), 'cfstore' (a cfstore table of another shape),
# 'other' (a table of another access method, a view) or 'gone'.
sub shape
{
	my ($oid) = @_;
	return $node->safe_psql('postgres', qq{
SELECT CASE WHEN c.oid IS NULL THEN 'gone'
            WHEN c.relkind <> 'r' OR a.amname IS DISTINCT FROM 'cfstore' THEN 'other'
            WHEN c.relnamespace = 'cfstore_data'::regnamespace AND c.relname ~ '^cf_[0-9]+\$'
             AND (SELECT string_agg(attname || ':' || atttypid::regtype, ',' ORDER BY attnum)
                    FROM pg_attribute WHERE attrelid = c.oid AND attnum > 0)
                 = 'key:bytea,super_column:bytea,column_name:bytea,value:bytea,writetime:bigint,ttl:integer,expires_at:integer'
            THEN 'storage' ELSE 'cfstore' END
  FROM (SELECT ${oid}::oid AS oid) o LEFT JOIN pg_class c ON c.oid = o.oid LEFT JOIN pg_am a ON a.oid = c.relam});
}

for my $v (@variants)
{
	my ($cf, @ddl) = @$v;
	my $rel = storage_of($cf);
	my $oid = $node->safe_psql('postgres', "SELECT '$rel'::regclass::oid");
	# each statement first in its backend: the hook is not installed yet
	for my $ddl (@ddl)
	{
		(my $sql = $ddl) =~ s/%s/$rel/g;
		my ($r, $o, $e) = $node->psql('postgres', $sql);
		note("$cf: $sql -> " . ($r == 0 ? 'done' : $e));
	}
	still_up("$cf: the change");
	my $shape = shape($oid);
	note("$cf: the relation is now: $shape");
	my $now = $shape eq 'gone' ? $rel : $node->safe_psql('postgres', "SELECT ${oid}::regclass");
	for my $use (sort(keys %api), sort(keys %sql))
	{
		(my $q = $api{$use} // $sql{$use}) =~ s/%cf/$cf/g;
		$q =~ s/%rel/$now/g;
		my ($r, $o, $e) = $node->psql('postgres', "SET ROLE alice; $q");
		unlike($e, qr/server closed the connection|terminated|connection to server/, "$cf: $use: no crash");
		if ($shape eq 'storage')
		{
			is($r, 0, "$cf: $use works (the column family kept its shape)") or diag($e);
		}
		elsif ($api{$use} || $shape eq 'cfstore')
		{
			isnt($r, 0, "$cf: $use raises");
			like($e, qr/cfstore storage relation|storage relation .* is missing|not the storage of a cfstore column family|relation "[^"]+" does not exist|permission denied/,
				"$cf: $use: cfstore's error") if $r != 0;
		}
	}
	still_up("$cf: the uses");
}
$node->safe_psql('postgres', 'ALTER EVENT TRIGGER cfstore_storage_guard ENABLE');
my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal|was terminated|server process .* exited/, 'no backend died');

# 3. A role with no privileges cannot hold up another owner's writers.
$node->safe_psql('postgres', q{
SET ROLE alice;
SELECT cfstore.create_column_family('Shape', 'Busy', comparator => 'UTF8Type',
  column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
});
my $index = $node->safe_psql('postgres', q{
SELECT d.index_id FROM cfstore.column_definition d JOIN cfstore.column_family c ON c.id = d.column_family_id
 WHERE c.keyspace = 'Shape' AND c.name = 'Busy' AND d.index_id IS NOT NULL});
my $bob = $node->background_psql('postgres', on_error_stop => 0);
$bob->query_safe('SET ROLE bob');
$bob->query_safe('BEGIN');
$bob->query("SELECT cfstore._index_build($index)");
like($bob->{stderr}, qr/permission denied for function _index_build/, 'bob may not execute _index_build');
($ret, $out, $err) = $node->psql('postgres', q{
SET ROLE alice; SET lock_timeout = '5s';
SELECT cfstore.insert('Shape', 'Busy', 'k', 'state', 'UT')});
is($ret, 0, 'alice writes while bob\'s transaction is open') or diag($err);
$bob->query('ROLLBACK');
$bob->quit;

$watch->quit;
$node->stop;
done_testing();
