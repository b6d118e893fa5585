# pg_dump / pg_restore round trip of the cfstore catalog: keyspaces, column
# families and column metadata restore into a fresh database, with schema
# ownership, the id sequence and the guards intact.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('postgres', 'CREATE ROLE regress_ks_owner');
$node->safe_psql('postgres', 'GRANT CREATE ON DATABASE src TO regress_ks_owner');
$node->safe_psql('src', q{
CREATE EXTENSION cfstore;
SELECT * FROM cfstore.load_storage_conf($xml$
<Keyspace Name="BloggyAppy">
  <ColumnFamily CompareWith="BytesType" Name="Authors"/>
  <ColumnFamily CompareWith="BytesType" Name="BlogEntries"/>
  <ColumnFamily CompareWith="TimeUUIDType" Name="TaggedPosts"/>
  <ColumnFamily CompareWith="TimeUUIDType" ColumnType="Super" CompareSubcolumnsWith="BytesType" Name="Comments"/>
</Keyspace>$xml$);
SET ROLE regress_ks_owner;
SELECT cfstore.create_keyspace('Twissandra', 3);
SELECT cfstore.create_column_family('Twissandra', 'User', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "password", "validation_class": "UTF8Type"},
                       {"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
SELECT cfstore.create_column_family('Twissandra', 'Timeline', comparator => 'LongType(reversed=true)',
  default_time_to_live => 86400, comment => 'home timelines');
SELECT cfstore.create_column_family('Twissandra', 'Counts', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('Twissandra', 'Readings', comparator => 'CompositeType(UTF8Type, DateType)',
  column_metadata => '[{"column_name": "hvac:2010-08-12 12\\\\:00\\\\:00.000Z", "validation_class": "DoubleType"}]');
SELECT cfstore.drop_column_family('Twissandra', 'Counts');
RESET ROLE;
});

my $describe = 'SELECT cfstore.describe_keyspaces()';
my $owners = q{SELECT string_agg(nspname || '=' || nspowner::regrole, ',' ORDER BY nspname)
               FROM pg_namespace WHERE nspname IN ('BloggyAppy', 'Twissandra')};
my $ids = q{SELECT string_agg(keyspace || '.' || name || '=' || id, ',' ORDER BY id) FROM cfstore.column_family};
my $before = $node->safe_psql('src', $describe);
my $owners_before = $node->safe_psql('src', $owners);
my $ids_before = $node->safe_psql('src', $ids);
like($before, qr/"name": "Readings"/, 'source catalog has the column families');

my $tmp = PostgreSQL::Test::Utils::tempdir;

# custom format with pg_restore
$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/src.dump", 'src' ], 'pg_dump -Fc');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'dst', "$tmp/src.dump" ], 'pg_restore');
is($node->safe_psql('dst', $describe), $before, 'pg_restore: describe_keyspaces() is identical');
is($node->safe_psql('dst', $owners), $owners_before, 'pg_restore: keyspace schemas keep their owners');
is($node->safe_psql('dst', $ids), $ids_before, 'pg_restore: column family ids are kept');

# the id sequence was restored: a new column family gets a fresh id
$node->safe_psql('dst', q{SELECT cfstore.create_column_family('BloggyAppy', 'Tags')});
my $new_id = $node->safe_psql('dst', q{SELECT id FROM cfstore.column_family WHERE name = 'Tags'});
my $max_old = $node->safe_psql('src', 'SELECT max(id) FROM cfstore.column_family');
cmp_ok($new_id, '>', $max_old, 'a column family created after restore gets a new id');

# the guards came back with the extension
my ($ret, $out, $err) = $node->psql('dst', q{
SET ROLE regress_ks_owner;
DELETE FROM cfstore.column_family WHERE keyspace = 'BloggyAppy';});
like($err, qr/must be owner of keyspace BloggyAppy/, 'restored catalog still refuses non-owners');
$node->safe_psql('dst', q{SET ROLE regress_ks_owner; SELECT cfstore.drop_keyspace('Twissandra')});
is($node->safe_psql('dst', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'Twissandra'}), '0',
	'the owner can drop a restored keyspace and its schema');

# plain format through psql
$node->command_ok([ 'pg_dump', '-Fp', '-f', "$tmp/src.sql", 'src' ], 'pg_dump -Fp');
$node->safe_psql('postgres', 'CREATE DATABASE dst2');
$node->command_ok([ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-d', 'dst2', '-f', "$tmp/src.sql" ],
	'plain dump restores with psql');
is($node->safe_psql('dst2', $describe), $before, 'plain dump: describe_keyspaces() is identical');

$node->stop;
done_testing();
