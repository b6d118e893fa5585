# pg_dump / pg_restore round trip of the cfstore catalog: keyspaces, column
# families and column metadata restore into a fresh database, with schema
# ownership, the id sequence and the guards intact.  The column families'
# foreign tables come back from pg_dump's own DDL (create_column_family is
# not run again), with their owners, and with their privileges still equal
# to the storage relations'.
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
$node->safe_psql('postgres', 'CREATE ROLE regress_reader');
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
SELECT cfstore.cql($cql$CREATE TABLE "Tweets" (tweet_id timeuuid, at int, body text, PRIMARY KEY (tweet_id, at))$cql$, 'Twissandra');
SELECT cfstore.cql($cql$CREATE INDEX ON "Tweets" (body)$cql$, 'Twissandra');
SELECT cfstore.cql($cql$INSERT INTO "Tweets" (tweet_id, at, body) VALUES (11111111-1111-1111-8111-111111111111, 1, 'hello')$cql$, 'Twissandra');
SELECT cfstore.create_column_family('Twissandra', 'Orders', comparator => 'CompositeType(Int32Type, UTF8Type)',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.put_object('Twissandra', 'Orders', '{"cust": "c1", "n": 7, "items": [{"sku": 1.50}, {}], "a.b": null}', '{cust,n}');
GRANT SELECT ON "Twissandra"."User" TO regress_reader;
GRANT SELECT, INSERT ON "Twissandra"."Timeline" TO regress_reader WITH GRANT OPTION;
RESET ROLE;
});

my $describe = 'SELECT cfstore.describe_keyspaces()';
my $owners = q{SELECT string_agg(nspname || '=' || nspowner::regrole, ',' ORDER BY nspname)
               FROM pg_namespace WHERE nspname IN ('BloggyAppy', 'Twissandra')};
my $ids = q{SELECT string_agg(keyspace || '.' || name || '=' || id, ',' ORDER BY id) FROM cfstore.column_family};
# the foreign tables: name, owner, ACL, columns, options
my $tables = q{
SELECT string_agg(c.oid::regclass || ' ' || c.relowner::regrole || ' ' || coalesce(c.relacl::text, '-') || ' '
         || (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                               || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
               FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0)
         || ' ' || (SELECT string_agg(o, ',' ORDER BY o) FROM unnest(ft.ftoptions) o), E'\n'
         ORDER BY c.oid::regclass::text)
  FROM pg_foreign_table ft JOIN pg_class c ON c.oid = ft.ftrelid};
# each column family: do its foreign table and storage relation have the same ACL?
my $same_acls = q{
SELECT string_agg(cf.name || '=' || (f.relacl IS NOT DISTINCT FROM s.relacl), ',' ORDER BY cf.name)
  FROM cfstore.column_family cf
  JOIN pg_class f ON f.oid = cfstore._foreign_table(cf.keyspace, cf.name)
  JOIN pg_class s ON s.oid = cfstore._storage_relation(cf.keyspace, cf.name)};
my $before = $node->safe_psql('src', $describe);
my $tables_before = $node->safe_psql('src', $tables);
my $acls_before = $node->safe_psql('src', $same_acls);
my $owners_before = $node->safe_psql('src', $owners);
my $ids_before = $node->safe_psql('src', $ids);
like($before, qr/"name": "Readings"/, 'source catalog has the column families');
like($tables_before, qr/^"Twissandra"\."Readings" regress_ks_owner - key bytea not null, column1 text, column2 timestamp with time zone, value text, writetime bigint, ttl integer column_family=Readings,keyspace=Twissandra$/m,
	'source has the foreign tables');
like($tables_before, qr/^"Twissandra"\."User" regress_ks_owner \{[^ ]*regress_reader=r\/regress_ks_owner/m,
	'source foreign table has its grant');
is($acls_before, 'Authors=true,BlogEntries=true,Comments=true,Orders=true,Readings=true,TaggedPosts=true,Timeline=true,Tweets=true,User=true',
	'source: each foreign table has its storage relation\'s privileges');

my $tmp = PostgreSQL::Test::Utils::tempdir;

# custom format with pg_restore
$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/src.dump", 'src' ], 'pg_dump -Fc');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'dst', "$tmp/src.dump" ], 'pg_restore');
is($node->safe_psql('dst', $describe), $before, 'pg_restore: describe_keyspaces() is identical');
is($node->safe_psql('dst', $owners), $owners_before, 'pg_restore: keyspace schemas keep their owners');
is($node->safe_psql('dst', $ids), $ids_before, 'pg_restore: column family ids are kept');
is($node->safe_psql('dst', $tables), $tables_before, 'pg_restore: the foreign tables, their owners and grants');
is($node->safe_psql('dst', $same_acls), $acls_before, 'pg_restore: each still has its storage relation\'s privileges');
my $cql = q{SELECT string_agg(r::text, ',') FROM cfstore.cql($c$SELECT * FROM "Tweets" WHERE body = 'hello'$c$, 'Twissandra') r};
is($node->safe_psql('dst', $cql), $node->safe_psql('src', $cql),
	'pg_restore: a CQL3 table comes back with its names, columns, index and rows');
my $obj = q{SELECT cfstore.get_object('Twissandra', 'Orders', '{"cust": "c1", "n": 7}')};
is($node->safe_psql('dst', $obj), '{"n": 7, "a.b": null, "cust": "c1", "items": [{"sku": 1.50}, {}]}',
	'pg_restore: an object comes back exactly, with its primary key');
is($node->safe_psql('dst', q{SET ROLE regress_reader; SELECT count(*) FROM cfstore.get_slice('Twissandra', 'User', 'nobody');
                              SELECT count(*) FROM "Twissandra"."User"}), "0\n0",
	'pg_restore: the grantee reads through the API and the foreign table');

# the id sequence was restored: a new column family gets a fresh id
$node->safe_psql('dst', q{SELECT cfstore.create_column_family('BloggyAppy', 'Tags')});
my $new_id = $node->safe_psql('dst', q{SELECT id FROM cfstore.column_family WHERE name = 'Tags'});
my $max_old = $node->safe_psql('src', 'SELECT max(id) FROM cfstore.column_family');
cmp_ok($new_id, '>', $max_old, 'a column family created after restore gets a new id');
is($node->safe_psql('dst', q{SELECT cfstore._foreign_table('BloggyAppy', 'Tags')}), '"BloggyAppy"."Tags"',
	'and its foreign table');

# the catalog came back writable by the extension's owner alone
my ($ret, $out, $err) = $node->psql('dst', q{
SET ROLE regress_ks_owner;
DELETE FROM cfstore.column_family WHERE keyspace = 'BloggyAppy';});
like($err, qr/permission denied for table column_family/, 'restored catalog still refuses direct writes');
$node->safe_psql('dst', q{SET ROLE regress_ks_owner; SELECT cfstore.drop_keyspace('Twissandra')});
is($node->safe_psql('dst', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'Twissandra'}), '0',
	'the owner can drop a restored keyspace and its schema');
is($node->safe_psql('dst', q{SELECT count(*) FROM pg_class WHERE relname IN ('User', 'Timeline', 'Readings', 'Tweets')}), '0',
	'with its foreign tables');

# plain format through psql
$node->command_ok([ 'pg_dump', '-Fp', '-f', "$tmp/src.sql", 'src' ], 'pg_dump -Fp');
$node->safe_psql('postgres', 'CREATE DATABASE dst2');
$node->command_ok([ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-d', 'dst2', '-f', "$tmp/src.sql" ],
	'plain dump restores with psql');
is($node->safe_psql('dst2', $describe), $before, 'plain dump: describe_keyspaces() is identical');
is($node->safe_psql('dst2', $tables), $tables_before, 'plain dump: the foreign tables, their owners and grants');
is($node->safe_psql('dst2', $same_acls), $acls_before, 'plain dump: each still has its storage relation\'s privileges');

$node->stop;
done_testing();
