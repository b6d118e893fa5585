# A keyspace sharded over two servers answers as one server holding all
# the data would (extension cfstore_shard).
#
# A coordinator and two shards, each its own cluster.  The coordinator
# holds two keyspaces of the same column families: one sharded over the
# shards, one local.  The same seeded stream of random writes (columns
# with writetimes and TTLs, deletions of columns, super columns and rows,
# counter increments, an indexed column) goes to both; then every read of
# the function API and of the foreign tables must return the same rows
# from both.  Also: the cluster's set-up and its errors, DDL applied to
# every shard or to none (a shard down makes it fail naming the shard, and
# no shard keeps it), a single-key read or write reaching one shard only
# (the shards' function counters), a shard down making reads fail naming
# it rather than answering from the other, and writes and DDL belonging to
# the coordinator's transaction: rolled back on every shard with it,
# savepoints included; a batch over both shards committed in two phases,
# a shard lost between them finished by recover(), one lost before them
# leaving nothing anywhere.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use CfShard;

my %node = start_nodes(qw(coordinator shard1 shard2 bare));
$node{$_}->safe_psql('postgres', 'CREATE EXTENSION cfstore') for qw(shard1 shard2);
my $co = $node{coordinator};
$co->safe_psql('postgres', 'CREATE EXTENSION cfstore_shard CASCADE');

# 1. The cluster and its errors
my ($ret, $out, $err) = add_server($co, 'postgres', 's1', $node{shard1}, 'postgres');
is($ret, 0, 'add_server s1') or diag($err);
($ret, $out, $err) = add_server($co, 'postgres', 's1', $node{shard2}, 'postgres');
like($err, qr/shard server s1 already exists/, 'a duplicate server name is refused');
($ret, $out, $err) = add_server($co, 'postgres', 'bare', $node{bare}, 'postgres');
like($err, qr/shard server bare does not have extension cfstore/, 'a server without cfstore is refused');
$node{bare}->safe_psql('postgres', 'CREATE DATABASE old');
$node{bare}->safe_psql('old', q{CREATE EXTENSION cfstore; UPDATE pg_extension SET extversion = '0.0.1' WHERE extname = 'cfstore'});
($ret, $out, $err) = add_server($co, 'postgres', 'old', $node{bare}, 'old');
like($err, qr/shard server old has cfstore 0\.0\.1, this server \d+\.\d+\.\d+/, 'a server with another cfstore version is refused');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.drop_server('nope')});
like($err, qr/shard server nope does not exist/, 'an unknown server cannot be dropped');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.add_server('gone', 'postgres', host => '/nonexistent', port => 1)});
like($err, qr/shard server gone: could not establish connection/, 'an unreachable server is refused, naming it');
is($co->safe_psql('postgres', 'SELECT string_agg(name, \',\') FROM cfstore_shard.server'), 's1',
	'and none of them is registered');
($ret, $out, $err) = add_server($co, 'postgres', 's2', $node{shard2}, 'postgres');
is($ret, 0, 'add_server s2') or diag($err);
$node{shard1}->safe_psql('postgres', 'CREATE DATABASE third');
$node{shard1}->safe_psql('third', 'CREATE EXTENSION cfstore');
($ret, $out, $err) = add_server($co, 'postgres', 's3', $node{shard1}, 'third');
is($ret, 0, 'add_server s3') or diag($err);
($ret, $out, $err) = $co->psql('postgres', 'SELECT cfstore_shard.create_cluster(8)');
like($err, qr/a cluster has a power-of-two number of shard servers \(got 3\)/, 'three servers are refused');
$co->safe_psql('postgres', q{SELECT cfstore_shard.drop_server('s3')});
($ret, $out, $err) = $co->psql('postgres', 'SELECT cfstore_shard.create_cluster(6)');
like($err, qr/partitions must be a power of two/, 'partitions are a power of two');
$co->safe_psql('postgres', 'SELECT cfstore_shard.create_cluster(8)');
is($co->safe_psql('postgres', q{SELECT string_agg(format('%s:%s', server, n), ',' ORDER BY server)
  FROM (SELECT server, count(*) n FROM cfstore_shard.partition GROUP BY server) p}), 's1:4,s2:4',
	'eight partitions, four on each server');

# 2. Two keyspaces of the same column families, one of them sharded
my $cfs = q{
SELECT cfstore.create_column_family('%ks', 'Std', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
  default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
SELECT cfstore.create_column_family('%ks', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
  subcomparator => 'LongType', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('%ks', 'Cnt', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
  default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('%ks', 'Long', comparator => 'TimeUUIDType', key_validation_class => 'LongType',
  default_validation_class => 'UTF8Type', compression_options => '{"sstable_compression": "LZ4Compressor"}');
};
for my $ks ('Here', 'There')
{
	(my $sql = $cfs) =~ s/%ks/$ks/g;
	$co->safe_psql('postgres', "SELECT cfstore.create_keyspace('$ks'); $sql");
}
$co->safe_psql('postgres', q{SELECT cfstore_shard.shard_keyspace('There')});
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.shard_keyspace('There')});
like($err, qr/keyspace There is already sharded/, 'sharding twice is refused');
for my $shard (qw(shard1 shard2))
{
	is($node{$shard}->safe_psql('postgres', q{SELECT string_agg(name, ',' ORDER BY name)
	  FROM cfstore.column_family WHERE keyspace = 'There'}), 'Cnt,Long,Std,Sup',
		"$shard holds the sharded keyspace's column families");
}

# The same random writes to both keyspaces.
my $writes = q{
SELECT setseed(0.17);
CREATE TEMP TABLE w AS
SELECT i, (random() * 40)::int AS k, (random() * 30)::int AS n, (random() * 1000)::int AS t,
       (random() * 6)::int AS op, md5(i::text) AS v
  FROM generate_series(1, 3000) i;
DO $$
DECLARE r record; ks text;
BEGIN
  FOREACH ks IN ARRAY ARRAY['Here', 'There'] LOOP
    FOR r IN SELECT * FROM w ORDER BY i LOOP
      CASE r.op
        WHEN 0, 1, 2 THEN
          PERFORM cfstore.insert(ks, 'Std', 'k' || r.k, CASE WHEN r.n % 5 = 0 THEN 'state' ELSE 'c' || r.n END,
                                 CASE WHEN r.n % 5 = 0 THEN 'S' || (r.t % 4) ELSE r.v END, writetime => r.t,
                                 ttl => CASE WHEN r.t % 17 = 0 THEN 1 END);
          PERFORM cfstore.insert(ks, 'Sup', 'k' || (r.k % 7), r.n, r.v, writetime => r.t,
                                 super_column => 'sc' || (r.n % 4));
          PERFORM cfstore.insert(ks, 'Long', r.k - 20, cfstore.min_timeuuid(timestamptz '2020-01-01' + r.n * interval '1 s'),
                                 r.v, writetime => r.t);
        WHEN 3 THEN
          PERFORM cfstore.remove(ks, 'Std', 'k' || r.k, 'c' || r.n, writetime => r.t);
          PERFORM cfstore.add(ks, 'Cnt', 'k' || (r.k % 9), 'c' || (r.n % 3), r.t - 500);
        WHEN 4 THEN
          PERFORM cfstore.remove(ks, 'Sup', 'k' || (r.k % 7), super_column => 'sc' || (r.n % 4), writetime => r.t);
        ELSE
          IF r.t % 50 = 0 THEN
            PERFORM cfstore.remove(ks, 'Std', 'k' || r.k, writetime => r.t);
          END IF;
      END CASE;
    END LOOP;
  END LOOP;
END $$;
};
$co->safe_psql('postgres', $writes);
sleep(2);    # the TTL of 1 s expires

# Every read, against both keyspaces.
my @reads = (
	q{SELECT * FROM cfstore.get_slice('%ks', 'Std', 'k' || k, count => 1000)},
	q{SELECT * FROM cfstore.get_slice('%ks', 'Std', 'k' || k, start => 'c1', finish => 'c3', reversed => false, count => 5)},
	q{SELECT * FROM cfstore.get_slice('%ks', 'Std', 'k' || k, reversed => true, count => 3)},
	q{SELECT * FROM cfstore.get_slice('%ks', 'Sup', 'k' || (k % 7), count => 2)},
	q{SELECT * FROM cfstore.get_slice('%ks', 'Sup', 'k' || (k % 7), super_column => 'sc1', start => 3::bigint)},
	q{SELECT * FROM cfstore.get_slice('%ks', 'Cnt', 'k' || (k % 9))},
	q{SELECT * FROM cfstore.get_slice('%ks', 'Long', k - 20, reversed => true, count => 4)},
	q{SELECT * FROM cfstore.get('%ks', 'Std', 'k' || k, 'c7')},
	q{SELECT * FROM cfstore.get_columns('%ks', 'Std', 'k' || k, ARRAY['c2', 'state', 'c9'])},
	q{SELECT cfstore.get_count('%ks', 'Std', 'k' || k)},);
my @whole = (
	q{SELECT * FROM cfstore.multiget_slice('%ks', 'Std', ARRAY(SELECT 'k' || i FROM generate_series(0, 40) i), count => 4)},
	q{SELECT * FROM cfstore.multiget_count('%ks', 'Sup', ARRAY(SELECT 'k' || i FROM generate_series(0, 8) i))},
	q{SELECT * FROM cfstore.get_range_slices('%ks', 'Std', key_count => 1000, count => 1000)},
	q{SELECT * FROM cfstore.get_range_slices('%ks', 'Std', start_key => 'k17', key_count => 7, count => 2)},
	q{SELECT * FROM cfstore.get_range_slices('%ks', 'Sup', key_count => 3, count => 1)},
	q{SELECT * FROM cfstore.get_range_slices('%ks', 'Long', key_count => 100, count => 1)},
	q{SELECT * FROM cfstore.get_indexed_slices('%ks', 'Std', '[{"column_name": "state", "op": "EQ", "value": "S2"}]', count => 1000)},
	q{SELECT * FROM cfstore.get_indexed_slices('%ks', 'Std', '[{"column_name": "state", "op": "EQ", "value": "S1"}]', start_key => 'k20', key_count => 3)},
	q{SELECT * FROM "%ks"."Std" WHERE key = 'k12' ORDER BY column_name DESC LIMIT 3},
	q{SELECT count(*), md5(string_agg(key || column_name || value, ',' ORDER BY key, column_name)) FROM "%ks"."Std"},
	q{SELECT * FROM "%ks"."Cnt" ORDER BY key, column_name},);
my $mismatches = 0;
for my $read (@reads)
{
	my %got;
	for my $ks ('Here', 'There')
	{
		(my $q = $read) =~ s/%ks/$ks/g;
		$got{$ks} = $co->safe_psql('postgres', "SELECT k, s FROM generate_series(0, 41) k, LATERAL ($q) s");
	}
	$mismatches++ unless is($got{There}, $got{Here}, "per key: $read");
}
for my $read (@whole)
{
	my %got;
	for my $ks ('Here', 'There')
	{
		(my $q = $read) =~ s/%ks/$ks/g;
		$got{$ks} = $co->safe_psql('postgres', $q);
	}
	isnt($got{Here}, '', "not empty: $read");
	$mismatches++ unless is($got{There}, $got{Here}, $read);
}

# Reads of more than a megabyte of cells: a shard returns them as several
# rows of encoded cells (src/api/cfremote.h), each starting with its key.
for my $ks ('Here', 'There')
{
	$co->safe_psql('postgres', qq{
SELECT cfstore.create_column_family('$ks', 'Big', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
  default_validation_class => 'UTF8Type');
SELECT cfstore.insert('$ks', 'Big', 'b' || k, lpad(c::text, 4, '0'), repeat(md5(k || '/' || c), 190), writetime => 1)
  FROM generate_series(1, 3) k, generate_series(1, CASE k WHEN 2 THEN 5 ELSE 100 * k END) c;});
}
my %big;
for my $ks ('Here', 'There')
{
	my $id = $co->safe_psql('postgres', qq{SELECT id FROM cfstore.column_family WHERE keyspace = '$ks' AND name = 'Big'});
	$big{$ks} = $co->safe_psql('postgres', qq{
SELECT count(*), md5(string_agg(column_name || value, ',' ORDER BY column_name))
  FROM cfstore.get_slice('$ks', 'Big', 'b3', count => 1000);
SELECT count(*), md5(string_agg(column_name || value, ',' ORDER BY column_name DESC))
  FROM cfstore.get_slice('$ks', 'Big', 'b3', reversed => true, count => 250);
SELECT count(*), md5(string_agg(convert_from(key, 'UTF8') || convert_from(column_name, 'UTF8') || convert_from(value, 'UTF8'),
  ',' ORDER BY key, column_name)) FROM cfstore_data.cf_$id;});
}
is($big{There}, $big{Here}, 'slices and a scan of 1.8 MB of cells read through the coordinator as on one node');
is((split /\n/, $big{There})[0] =~ /^300\|/ && (split /\n/, $big{There})[2] =~ /^405\|/ ? 1 : 0, 1,
	'all 300 cells of the slice and 405 of the scan');
my $b3 = $co->safe_psql('postgres', q{SELECT server FROM cfstore_shard.locate('There', 'Big', 'b3')});
is($node{$b3 eq 's1' ? 'shard1' : 'shard2'}->safe_psql('postgres', q{SELECT count(*), sum(length(s))
  FROM cfstore._remote_slice('There', 'Big', NULL, 'b3'::bytea, NULL, NULL, NULL, false, 1000, false) s}),
	'2|1832712', "the shard of b3 ($b3) returns its slice as two rows of encoded cells");
$co->safe_psql('postgres', "SELECT cfstore.drop_column_family('$_', 'Big')") for ('Here', 'There');

# The coordinator's tables: partitioned by key over the shards' tables
my $std = $co->safe_psql('postgres', q{SELECT id FROM cfstore.column_family WHERE keyspace = 'There' AND name = 'Std'});
my $k12 = $co->safe_psql('postgres', q{SELECT server FROM cfstore_shard.locate('There', 'Std', 'k12')});
is($co->safe_psql('postgres', q{SELECT string_agg(c.relname || ' ' || s.srvname || ' ' || pg_get_expr(c.relpartbound, c.oid), ', ' ORDER BY c.relname)
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_foreign_table f ON f.ftrelid = c.oid
  JOIN pg_foreign_server s ON s.oid = f.ftserver WHERE i.inhparent = '"There"."Std"'::regclass}),
	"cf_${std}_s1 cfstore_shard_s1 FOR VALUES WITH (modulus 2, remainder 0), cf_${std}_s2 cfstore_shard_s2 FOR VALUES WITH (modulus 2, remainder 1)",
	'"There"."Std" is partitioned by hash of the key over one postgres_fdw table per shard');
is($co->safe_psql('postgres', qq{SELECT count(*) FROM "There"."Std" s
  WHERE s.tableoid::regclass::text <> 'cfstore_shard.cf_${std}_' || (cfstore_shard.locate('There', 'Std', s.key)).server}),
	0, 'each row comes from the partition of the shard locate() names');
my $plan = $co->safe_psql('postgres', q{EXPLAIN (VERBOSE, COSTS OFF)
  SELECT column_name, value FROM "There"."Std" WHERE key = 'k12' ORDER BY column_name DESC LIMIT 3});
is($plan, qq{Foreign Scan on cfstore_shard.cf_${std}_$k12
  Output: cf_${std}_$k12.column_name, cf_${std}_$k12.value
  Remote SQL: SELECT column_name, value FROM "There"."Std" WHERE ((key = 'k12')) ORDER BY column_name DESC NULLS FIRST LIMIT 3::bigint},
	'key equality reaches one shard, with the ORDER BY and the LIMIT shipped');
$plan = $co->safe_psql('postgres', q{PREPARE p(text) AS SELECT column_name FROM "There"."Std" WHERE key = $1 ORDER BY column_name LIMIT 2;
  EXPLAIN (VERBOSE, COSTS OFF) EXECUTE p('k12')});
like($plan, qr/Remote SQL: SELECT column_name FROM "There"."Std" WHERE \(\(key = 'k12'\)\) ORDER BY column_name ASC NULLS LAST LIMIT 2::bigint$/,
	'so does a prepared statement, for the key it is run with');
$plan = $co->safe_psql('postgres', q{EXPLAIN (VERBOSE, COSTS OFF)
  SELECT column_name, value FROM "There"."Std" WHERE key = 'k12' OR key = 'k13' ORDER BY column_name DESC LIMIT 3});
like($plan, qr/^Limit\n.*\n  ->  Sort\n/s, 'a query that is not a single-key lookup is planned over the partitions');
$plan = $co->safe_psql('postgres', q{EXPLAIN (VERBOSE, COSTS OFF)
  SELECT column_name, value FROM "There"."Long" WHERE key = 7 ORDER BY column_name DESC LIMIT 3});
like($plan, qr/Remote SQL: SELECT column_name, value FROM "There"."Long" WHERE \(\(key = 7\)\) ORDER BY column_name DESC NULLS FIRST$/,
	'a TimeUUID order ships too (extensions \'cfstore\')');
$plan = $co->safe_psql('postgres', q{SET enable_partitionwise_aggregate = on;
  EXPLAIN (VERBOSE, COSTS OFF) SELECT key, count(*) FROM "There"."Std" GROUP BY key});
is(scalar(() = $plan =~ /Async Foreign Scan\n.*\n.*\n\s+Remote SQL: SELECT key, count\(\*\) FROM "There"."Std" GROUP BY 1/g), 2,
	'a partitionwise aggregate runs on both shards at once');
for my $q (q{SELECT key, count(*) FROM "%ks"."Std" GROUP BY key ORDER BY key},
	q{SELECT s.key, c.column_name, c.value FROM "%ks"."Std" s JOIN "%ks"."Cnt" c ON c.key = s.key WHERE s.column_name = 'state' ORDER BY 1, 2})
{
	my %got;
	for my $ks ('Here', 'There')
	{
		(my $sql = $q) =~ s/%ks/$ks/g;
		$got{$ks} = $co->safe_psql('postgres', "SET enable_partitionwise_aggregate = on; $sql");
	}
	isnt($got{Here}, '', "not empty: $q");
	is($got{There}, $got{Here}, "across shards: $q");
}
# privileges: a grant on the coordinator's table is the column family's
$co->safe_psql('postgres', q{CREATE ROLE reader LOGIN; GRANT USAGE ON SCHEMA "There" TO reader;
  GRANT SELECT ON "There"."Std" TO reader});
is($co->safe_psql('postgres', q{SET ROLE reader; SELECT count(*) > 0 FROM "There"."Std" WHERE key = 'k12';
  SELECT count(*) > 0 FROM cfstore.get_slice('There', 'Std', 'k12')}), "t\nt", 'a grantee reads the table and the API');
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE reader; SELECT count(*) FROM "There"."Sup"});
like($err, qr/permission denied for table Sup/, 'and no other column family');
is($co->safe_psql('postgres', q{SELECT string_agg(p.proname, ',' ORDER BY p.proname) FROM pg_proc p
  WHERE p.pronamespace = 'cfstore_shard'::regnamespace AND has_function_privilege('reader', p.oid, 'EXECUTE')}),
	'_conninfo,_map_shards,_partition_of,locate,map_reduce,partitions,row_key',
	'a plain role may call only these functions of cfstore_shard');
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE reader; SELECT cfstore_shard._table_replace(1)});
like($err, qr/permission denied for function _table_replace/, 'not the internal ones');
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE reader; SELECT count(*) FROM cfstore_shard._map_all(ARRAY[0], 'There', 'Std', 'SELECT 1, 1', 'sum(value)', 'postgres')});
like($err, qr/permission denied for function _map_all/, 'nor the PL/Proxy ones');
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE reader; SELECT count(*) FROM "There"."Sup" WHERE key = 'k1'});
like($err, qr/permission denied for table Sup/, 'not even a key lookup, which reads one partition');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE reader; SELECT count(*) FROM cfstore_shard.cf_${std}_s1});
like($err, qr/permission denied for foreign table cf_${std}_s1/, 'nor a partition by itself');

# a keyspace owner who is no superuser uses the sharded table, but its
# partitions, which reach the shards as the cluster's user, are not theirs:
# changing their remote table or columns would reach any table there
$node{$_}->safe_psql('postgres', 'CREATE ROLE ksowner') for qw(shard1 shard2);
$co->safe_psql('postgres', q{CREATE ROLE ksowner LOGIN; GRANT CREATE ON DATABASE postgres TO ksowner;
  SET ROLE ksowner; SELECT cfstore.create_keyspace('Owned');
  SELECT cfstore.create_column_family('Owned', 'T', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                      default_validation_class => 'UTF8Type');
  RESET ROLE; SELECT cfstore_shard.shard_keyspace('Owned')});
my $owned_part = $co->safe_psql('postgres', q{SELECT min(inhrelid::regclass::text) FROM pg_inherits
  WHERE inhparent = '"Owned"."T"'::regclass});
is($co->safe_psql('postgres', q{SET ROLE ksowner; SELECT cfstore.insert('Owned', 'T', 'k', 'c', 'v');
  SELECT count(*) FROM "Owned"."T"; SELECT count(*) FROM cfstore.get_slice('Owned', 'T', 'k')}), "
1
1",
  'the owner of a sharded keyspace writes and reads it');
is($co->safe_psql('postgres', qq{SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = '$owned_part'::regclass}),
  'postgres', 'its partitions are the extension owner\'s');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE ksowner;
  ALTER FOREIGN TABLE $owned_part OPTIONS (SET schema_name 'pg_catalog', SET table_name 'pg_authid')});
like($err, qr/must be owner of foreign table/, 'the keyspace owner cannot point a partition at another remote table');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE ksowner; ALTER TABLE "Owned"."T" DETACH PARTITION $owned_part});
like($err, qr/cannot attach or detach partition "cf_\d+_\w+" of a sharded column family's table/,
  'nor detach a partition from its table');
# the function API reads the shards, where a policy of the table does not apply
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE ksowner; ALTER TABLE "Owned"."T" ENABLE ROW LEVEL SECURITY});
like($err, qr/cannot enable row-level security on sharded column family table "T"/,
  'the keyspace owner cannot enable row-level security on a sharded table');
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE ksowner; ALTER TABLE "Owned"."T" FORCE ROW LEVEL SECURITY});
like($err, qr/cannot enable row-level security on sharded column family table "T"/, 'nor force it');
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE ksowner; CREATE POLICY p ON "Owned"."T" USING (key = 'x')});
like($err, qr/cannot create a policy on sharded column family table "T"/, 'nor create a policy on it');
is($co->safe_psql('postgres', q{SELECT relrowsecurity::text || relforcerowsecurity::text
  || (SELECT count(*) FROM pg_policy WHERE polrelid = c.oid) FROM pg_class c WHERE oid = '"Owned"."T"'::regclass}),
  'falsefalse0', 'which has none');
# update_column_family of a sharded table makes the table again: what the
# keyspace owner put in its place does not run as the partitions' owner
$co->safe_psql('postgres', q{SET ROLE ksowner;
  SELECT cfstore.create_column_family('Owned', 'V', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                      default_validation_class => 'Int32Type');
  CREATE FUNCTION "Owned".evil(v anyelement) RETURNS boolean LANGUAGE plpgsql AS $$
  BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN EXECUTE 'ALTER ROLE ksowner SUPERUSER'; END IF;
    RETURN true;
  END $$;
  DROP TABLE "Owned"."V";
  CREATE TABLE "Owned"."V" (key text COLLATE "C", column_name text, value integer CHECK ("Owned".evil(value)))
    PARTITION BY LIST (column_name);
  CREATE TABLE "Owned".v_local PARTITION OF "Owned"."V" DEFAULT;
  INSERT INTO "Owned"."V" VALUES ('x', 'c', 1);
  SELECT cfstore.update_column_family('Owned', 'V', default_validation_class => 'LongType')});
is($co->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'ksowner'}), 'f',
  'a table the keyspace owner put in place of a sharded one does not run their code as another role');
is($co->safe_psql('postgres', q{SELECT c.relkind::text || ' ' || format_type(a.atttypid, a.atttypmod) || ' '
    || (SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid
         WHERE i.inhparent = c.oid AND pg_get_userbyid(p.relowner) = 'postgres')
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'value'
  WHERE c.oid = '"Owned"."V"'::regclass}), 'p bigint 2', 'the sharded table is made again, with the new value type');
# on the shards the keyspace is the cluster user's, who reads its tables by
# name for every query: their owner there may read them (for maps) but not
# rename them, put a view in their place or make a table inherit from them
$co->safe_psql('postgres', q{SET ROLE ksowner;
  SELECT cfstore.create_column_family('Owned', 'X', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                      default_validation_class => 'Int32Type')});
is($node{shard1}->safe_psql('postgres', q{SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'Owned';
  SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = '"Owned"."X"'::regclass;
  SET ROLE ksowner; SELECT count(*) FROM "Owned"."X"}), "postgres\npostgres\n0",
  'on a shard the keyspace and its tables are the cluster user\'s; the keyspace owner reads them');
for my $attack (q{ALTER FOREIGN TABLE "Owned"."X" RENAME TO x_real},
				q{CREATE VIEW "Owned".v AS SELECT 1 AS one},
				q{CREATE TABLE "Owned".x_child () INHERITS ("Owned"."X")})
{
	($ret, $out, $err) = $node{shard1}->psql('postgres', "SET ROLE ksowner; $attack");
	like($err, qr/must be owner|permission denied/, "on a shard the keyspace owner cannot: $attack");
}
# a table made to inherit from a column family's table (here by a superuser)
# makes update_column_family fail rather than alter it too
$node{shard1}->safe_psql('postgres', q{CREATE TABLE public.x_child () INHERITS ("Owned"."X")});
($ret, $out, $err) = $co->psql('postgres', q{SET ROLE ksowner;
  SELECT cfstore.update_column_family('Owned', 'X', default_validation_class => 'LongType')});
like($err, qr/must be changed in child tables too/, 'update_column_family alters the table alone, never a child of it');
$node{shard1}->safe_psql('postgres', q{DROP TABLE public.x_child});

($ret, $out, $err) = $co->psql('postgres', q{SET ROLE ksowner; SET cfstore_shard.shard_new_keyspaces = on;
  SELECT cfstore.create_keyspace('Sneak'); SELECT cfstore.create_column_family('Sneak', 'T');
  SELECT relkind FROM pg_class WHERE oid = '"Sneak"."T"'::regclass}, on_error_stop => 0);
like($out, qr/^f$/m, 'nor shard the keyspaces they create')
  or diag($err);
like($err, qr/permission denied to set parameter "cfstore_shard.shard_new_keyspaces"/, 'their setting is refused');
is($co->safe_psql('postgres', q{SET ROLE ksowner; DROP FUNCTION "Owned".evil(anyelement);
  SELECT cfstore.drop_keyspace('Owned'); SELECT cfstore.drop_keyspace('Sneak');
  SELECT count(*) FROM pg_class WHERE relnamespace = 'cfstore_shard'::regnamespace AND relname LIKE 'cf\_%'
     AND pg_get_userbyid(relowner) = 'postgres' AND relkind = 'f'
     AND NOT EXISTS (SELECT FROM pg_inherits WHERE inhrelid = pg_class.oid)}), "\n\n0",
  'the keyspace owner drops the sharded keyspace, partitions and all');

# 3. A single-key read reaches one shard only.
$node{$_}->safe_psql('postgres', 'SELECT pg_stat_reset()') for qw(shard1 shard2);
$co->safe_psql('postgres', q{SELECT count(*) FROM cfstore.get_slice('There', 'Std', 'k12')});
sleep(1);
my @calls = map {
	$node{$_}->safe_psql('postgres', q{SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions
	  WHERE funcname = '_remote_slice'})
} qw(shard1 shard2);
is(join(',', sort @calls), '0,1', 'a single-key get_slice ran on one shard');
my $where = $co->safe_psql('postgres', q{SELECT server FROM cfstore_shard.locate('There', 'Std', 'k12')});
is($calls[$where eq 's1' ? 0 : 1], 1, "the shard locate() names ($where)");

# 4. DDL on every shard or on none.
$node{shard2}->stop;
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore.create_column_family('There', 'New')});
like($err, qr/shard server s2/, 'DDL with a shard down fails, naming the shard');
is($co->safe_psql('postgres', q{SELECT count(*) FROM cfstore.column_family WHERE name = 'New'}), 0,
	'the coordinator keeps nothing of it');
is($node{shard1}->safe_psql('postgres', q{SELECT count(*) FROM cfstore.column_family WHERE name = 'New'}), 0,
	'nor does the shard that was up');
is($node{shard1}->safe_psql('postgres', q{SELECT count(*) FROM pg_prepared_xacts}), 0,
	'and no prepared transaction is left there');
# reads of the shard that is down fail, naming it; the other shard's rows still read
my $down = $co->safe_psql('postgres', q{SELECT key FROM (SELECT 'k' || i AS key FROM generate_series(0, 40) i) k
  WHERE (cfstore_shard.locate('There', 'Std', key)).server = 's2' LIMIT 1});
my $up = $co->safe_psql('postgres', q{SELECT key FROM (SELECT 'k' || i AS key FROM generate_series(0, 40) i) k
  WHERE (cfstore_shard.locate('There', 'Std', key)).server = 's1' LIMIT 1});
($ret, $out, $err) = $co->psql('postgres', qq{SELECT count(*) FROM cfstore.get_slice('There', 'Std', '$down')});
like($err, qr/could not connect to shard server s2/, 'a read of a row on the shard that is down fails, naming it');
($ret, $out, $err) = $co->psql('postgres', q{SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', key_count => 1000)});
isnt($ret, 0, 'a range read fails rather than answering from one shard');
like($err, qr/on the shard servers \(not answering: s2\)/, 'naming the shard that is down');
is($co->safe_psql('postgres', qq{SELECT count(*) > 0 FROM cfstore.get_slice('There', 'Std', '$up')}), 't',
	'a row on the other shard reads');
$node{shard2}->start;
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore.create_column_family('There', 'New')});
is($ret, 0, 'with the shard back, the DDL works') or diag($err);
is(join(',', map { $node{$_}->safe_psql('postgres', q{SELECT count(*) FROM cfstore.column_family WHERE name = 'New'}) }
	qw(shard1 shard2)), '1,1', 'and both shards have the new column family');

# 5. Writes and DDL belong to the coordinator's transaction.
sub on_shards
{
	my ($sql) = @_;
	return join(',', map { $node{$_}->safe_psql('postgres', $sql) } qw(shard1 shard2));
}
my $news = q{SELECT count(*) FROM cfstore.column_family WHERE name = 'New'};
$co->safe_psql('postgres', q{BEGIN; SELECT cfstore.drop_column_family('There', 'New'); ROLLBACK;});
is(on_shards($news), '1,1', 'DDL rolled back on the coordinator is rolled back on every shard');
$co->safe_psql('postgres', q{BEGIN; SELECT cfstore.drop_column_family('There', 'New'); COMMIT;});
is(on_shards($news), '0,0', 'and committed, it is committed on every shard');
$co->safe_psql('postgres', q{SELECT cfstore.update_keyspace('There', 3)});
is(on_shards(q{SELECT strategy_options ->> 'replication_factor' FROM cfstore.keyspace WHERE name = 'There'}), '3,3',
	'update_keyspace on the coordinator updates every shard');
is($co->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relnamespace = 'cfstore_shard'::regnamespace AND relkind = 'f'}),
	8, 'the coordinator\'s table of a dropped column family is gone, partitions and all');

# a key on each shard
my %key;
for my $i (0 .. 40)
{
	my $server = $co->safe_psql('postgres', qq{SELECT server FROM cfstore_shard.locate('There', 'Std', 'x$i')});
	$key{$server} //= "x$i";
}
my ($k1, $k2) = @key{qw(s1 s2)};
my $both = qq{SELECT cfstore.insert('There', 'Std', '$k1', 'c', 'one'); SELECT cfstore.insert('There', 'Std', '$k2', 'c', 'two');};
my $count_there = qq{SELECT (SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', start_key => '$k1', end_key => '$k1'))}
  . qq{ + (SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', start_key => '$k2', end_key => '$k2'))};
is((split /\n/, $co->safe_psql('postgres', qq{BEGIN; $both $count_there; ROLLBACK;}))[-1], 2,
	'a transaction reads its own writes on both shards');
is(on_shards($count_there), '0,0', 'rolled back, they are on no shard');

$node{$_}->safe_psql('postgres', 'SELECT pg_stat_reset()') for qw(shard1 shard2);
$co->safe_psql('postgres', qq{SELECT cfstore.insert('There', 'Std', '$k1', 'solo', 'v')});
sleep(1);
is(on_shards(q{SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = '_remote_write_batch'}),
	'1,0', 'a single-key write reaches one shard only');

$co->safe_psql('postgres', qq{DO \$\$
BEGIN
  PERFORM cfstore.insert('There', 'Std', '$k1', 'kept', 'v');
  BEGIN
    PERFORM cfstore.insert('There', 'Std', '$k2', 'undone', 'v');
    PERFORM cfstore.get_slice('There', 'Std', '$k2');   -- sent to the shard, in a savepoint
    RAISE EXCEPTION 'undo the block';
  EXCEPTION WHEN raise_exception THEN NULL;
  END;
END \$\$});
is(on_shards(q{SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', key_count => 100) WHERE column_name IN ('kept', 'undone')}),
	'1,0', 'a block that failed is undone on the shard, the rest of the transaction is kept');

($ret, $out, $err) = $co->psql('postgres', qq{BEGIN; SELECT cfstore.insert('There', 'Std', '$k1', 'p', 'v'); PREPARE TRANSACTION 'p1';});
like($err, qr/cannot PREPARE a transaction that has changed a sharded keyspace/, 'PREPARE TRANSACTION is refused');

# a batch over both shards: two-phase commit; a shard lost between the commits keeps it prepared
my $batch = qq{SELECT cfstore.batch_mutate('There', jsonb_build_object(
  '$k1', jsonb_build_object('Std', jsonb_build_array(jsonb_build_object('column', jsonb_build_object('name', 'b', 'value', 'v1', 'timestamp', 1)))),
  '$k2', jsonb_build_object('Std', jsonb_build_array(jsonb_build_object('column', jsonb_build_object('name', 'b', 'value', 'v2', 'timestamp', 1))))))};
($ret, $out, $err) = $co->psql('postgres', qq{SELECT cfstore_shard._lose_before_commit('s2'); $batch});
is($ret, 0, 'the coordinator commits a batch whose second shard is lost before its commit');
like($err, qr/shard server s2 has not committed prepared transaction cfstore_shard_\d+_\d+_s2/, 'and warns, naming the prepared transaction');
my $b = q{SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', key_count => 100) WHERE column_name = 'b'};
is(on_shards($b), '1,0', 'the first shard committed; the second has not');
is(on_shards(q{SELECT count(*) FROM pg_prepared_xacts}), '0,1', 'it keeps the transaction prepared');
# another role on the shard prepares a transaction under a gid of the same
# form, with an xid from the future: recover() neither finishes nor stops at it
my $sysid = $co->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');
my $forged = "cfstore_shard_${sysid}_99999999999_s2";
$node{shard2}->safe_psql('postgres', qq{CREATE ROLE forger; SET ROLE forger; BEGIN; SELECT 1; PREPARE TRANSACTION '$forged'});
like($co->safe_psql('postgres', q{SELECT string_agg(server || ' ' || action, ',') FROM cfstore_shard.recover()}),
	qr/^s2 committed$/, 'recover() commits it');
is($node{shard2}->safe_psql('postgres', 'SELECT gid FROM pg_prepared_xacts'), $forged,
	'and leaves another role\'s look-alike prepared transaction alone');
$node{shard2}->safe_psql('postgres', qq{ROLLBACK PREPARED '$forged'; DROP ROLE forger});
is(on_shards($b), '1,1', 'and the batch is whole');
is(on_shards(q{SELECT count(*) FROM pg_prepared_xacts}), '0,0', 'with nothing left prepared');

# a shard lost before the commit: nothing is committed anywhere
my $session = $co->background_psql('postgres', on_error_stop => 0);
$session->query_safe(qq{BEGIN; $both});
$session->query_safe(qq{SELECT count(*) FROM cfstore.get_slice('There', 'Std', '$k1')});  # sends the writes
$node{shard2}->stop('immediate');
my $commit = $session->query('COMMIT');
$session->quit;
$node{shard2}->start;
is(on_shards(q{SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', key_count => 100) WHERE value IN ('one', 'two')}),
	'0,0', 'a transaction whose shard was lost before the commit is committed nowhere');
is(on_shards(q{SELECT count(*) FROM pg_prepared_xacts}), '0,0', 'and leaves nothing prepared');
is($co->safe_psql('postgres', qq{SELECT string_agg(column_name, ',') FROM cfstore.get_slice('There', 'Std', '$k2')}), 'b',
	'the coordinator reconnects to the shard once it is back');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore.update_column_family('There', 'Std', key_validation_class => 'AsciiType')});
like($err, qr/key validator of column family Std cannot change/, 'a sharded column family keeps its key validator');
$co->safe_psql('postgres', q{SELECT cfstore.update_column_family('There', 'Std',
  compression_options => '{"sstable_compression": "DeflateCompressor"}')});
is(on_shards(q{SELECT string_agg(name || ':' || compression || ':' || compression_options::text, ' ' ORDER BY name)
  FROM cfstore.column_family WHERE keyspace = 'There' AND compression IS NOT NULL}),
	join(',', ('Long:lz4:{"sstable_compression": "LZ4Compressor"} Std:pglz:{"sstable_compression": "DeflateCompressor"}') x 2),
	'the shards compress as the coordinator\'s compression_options say, when sharded and after an update');

# a CQL3 table in the sharded keyspace: its definition reaches the shards,
# whose canonical tables show its CQL3 rows, and so does the coordinator's
# table over them, partitioned by hash of the partition key
$co->safe_psql('postgres', q{SELECT cfstore.cql($c$CREATE TABLE timeline (user_id text, tweet_id timeuuid, body text,
  PRIMARY KEY (user_id, tweet_id))$c$, 'There'); GRANT SELECT ON "There".timeline TO reader});
$co->safe_psql('postgres', q{SELECT cfstore.cql(format($c$INSERT INTO timeline (user_id, tweet_id, body) VALUES ('u%s', %s, 'b%s')$c$,
  i % 5, cfstore.min_timeuuid(timestamptz '2013-01-01 00:00+00' + i * interval '1 minute'), i), 'There')
  FROM generate_series(1, 20) i});
is(on_shards(q{SELECT format('%s/%s', key_aliases, column_aliases) FROM cfstore.column_family WHERE name = 'timeline'}),
	'{user_id}/{tweet_id},{user_id}/{tweet_id}', 'the shards have the CQL3 names');
my $columns = q{SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute
  WHERE attrelid = '"There".%s'::regclass AND attnum > 0 AND NOT attisdropped};
is(on_shards(sprintf($columns, 'timeline')), 'user_id,tweet_id,body,user_id,tweet_id,body',
	'and show its CQL3 rows in their canonical tables');
is($co->safe_psql('postgres', sprintf($columns, 'timeline') . q{ UNION ALL
  SELECT pg_get_partkeydef('"There".timeline'::regclass)}), "user_id,tweet_id,body\nHASH (user_id)",
	'the coordinator\'s table has the CQL3 columns, partitioned by hash of the partition key');
is($co->safe_psql('postgres', q{SELECT count(*) FROM "There".timeline}), '20',
	'the coordinator reads the CQL3 rows of every shard');
is($co->safe_psql('postgres', q{SELECT count(*) FROM "There".timeline t
  WHERE t.tableoid::regclass::text NOT LIKE '%\_' || (cfstore_shard.locate('There', 'timeline', t.user_id)).server}),
	'0', 'each row comes from the partition of the shard locate() names');
my $tl = $co->safe_psql('postgres', q{SELECT id FROM cfstore.column_family WHERE keyspace = 'There' AND name = 'timeline'});
my $u1 = $co->safe_psql('postgres', q{SELECT server FROM cfstore_shard.locate('There', 'timeline', 'u1')});
is($co->safe_psql('postgres', q{EXPLAIN (VERBOSE, COSTS OFF)
  SELECT body FROM "There".timeline WHERE user_id = 'u1' ORDER BY tweet_id DESC LIMIT 3}),
	qq{Foreign Scan on cfstore_shard.cf_${tl}_$u1
  Output: cf_${tl}_$u1.body, cf_${tl}_$u1.tweet_id
  Remote SQL: SELECT tweet_id, body FROM "There".timeline WHERE ((user_id = 'u1')) ORDER BY tweet_id DESC NULLS FIRST LIMIT 3::bigint},
	'a partition key lookup reaches one shard, with the ORDER BY and the LIMIT shipped');
is($co->safe_psql('postgres', q{SELECT string_agg(body, ',') FROM (SELECT body FROM "There".timeline
  WHERE user_id = 'u1' ORDER BY tweet_id DESC LIMIT 3) t}), 'b16,b11,b6', 'and reads the latest rows');
# cql() changing the table's columns changes the tables everywhere, keeping the grants
$co->safe_psql('postgres', q{SELECT cfstore.cql('ALTER TABLE timeline ADD likes int', 'There')});
is(on_shards(sprintf($columns, 'timeline')) . ';' . $co->safe_psql('postgres', sprintf($columns, 'timeline')),
	'user_id,tweet_id,body,likes,user_id,tweet_id,body,likes;user_id,tweet_id,body,likes',
	'ALTER TABLE ADD reaches the coordinator\'s table and the shards\'');
# SQL writes through the coordinator's table go to the row's shard, as cql() writes them
$co->safe_psql('postgres', q{INSERT INTO "There".timeline (user_id, tweet_id, body, likes)
  VALUES ('u1', cfstore.min_timeuuid(timestamptz '2013-02-01 00:00+00'), 'new', 7)});
is($co->safe_psql('postgres', q{SELECT string_agg(format('%s/%s', r ->> 'body', r ->> 'likes'), ',') FROM cfstore.cql(
  $c$SELECT body, likes FROM timeline WHERE user_id = 'u1' ORDER BY tweet_id DESC LIMIT 2$c$, 'There') r}),
	'new/7,b16/', 'an INSERT into the coordinator\'s table is a CQL3 row on the shard');
$co->safe_psql('postgres', q{UPDATE "There".timeline SET likes = 8 WHERE user_id = 'u1' AND body = 'b16'});
$co->safe_psql('postgres', q{DELETE FROM "There".timeline WHERE user_id = 'u1' AND body = 'b11'});
is($co->safe_psql('postgres', q{SELECT string_agg(format('%s/%s', body, likes), ',' ORDER BY tweet_id DESC)
  FROM "There".timeline WHERE user_id = 'u1'}), 'new/7,b16/8,b6/,b1/', 'UPDATE and DELETE too');
is($co->safe_psql('postgres', q{SET ROLE reader; SELECT count(*) FROM "There".timeline WHERE user_id = 'u2'}),
	'4', 'the grant made before ALTER TABLE still lets its grantee read');
is($co->safe_psql('postgres', q{SELECT string_agg(column_name || '=' || value, ',') FROM cfstore.get_slice('There', 'timeline', 'u1', count => 2)}),
	'53320600-53a6-11e2-8080-808080808080:=,53320600-53a6-11e2-8080-808080808080:body=b1',
	'get_slice on the coordinator: Cassandra 1.2\'s cells');
is($co->safe_psql('postgres', q{SELECT string_agg(r ->> 'body', ',') FROM cfstore.cql(
  $c$SELECT body FROM timeline WHERE user_id = 'u1' ORDER BY tweet_id DESC LIMIT 3$c$, 'There') r}),
	'new,b16,b6', 'cql() reads a partition of a sharded keyspace on its shard');
is($co->safe_psql('postgres', q{SELECT r ->> 'count' FROM cfstore.cql('SELECT COUNT(*) FROM timeline', 'There') r}),
	'20', 'and every row of every shard');
is($co->safe_psql('postgres', q{SELECT string_agg(l, '|') FROM cfstore.cli('use There; count timeline[u1];') l}),
	'Authenticated to keyspace: There|10 columns', 'the cli reads a sharded keyspace too (a marker and a body a row, and two likes)');
# a partition key of several parts: the coordinator's table is partitioned
# by hash of row_key(<parts>), the row key's text form, which PostgreSQL
# hashes as the function API hashes the key
$co->safe_psql('postgres', q{SELECT cfstore.cql($c$CREATE TABLE ev (sensor text, day int, t int, v text,
  PRIMARY KEY ((sensor, day), t))$c$, 'There');
  SELECT cfstore.cql(format($c$INSERT INTO ev (sensor, day, t, v) VALUES ('s%s', %s, %s, 'v%s')$c$, i % 3, i % 4, i, i), 'There')
  FROM generate_series(1, 24) i});
is($co->safe_psql('postgres', sprintf($columns, 'ev') . q{ UNION ALL SELECT pg_get_partkeydef('"There".ev'::regclass)})
	. ';' . on_shards(sprintf($columns, 'ev')),
	"sensor,day,t,v\nHASH (cfstore_shard.row_key('org.apache.cassandra.db.marshal.CompositeType(org.apache.cassandra.db.marshal.UTF8Type,org.apache.cassandra.db.marshal.Int32Type)'::text, sensor, day));"
	. 'sensor,day,t,v,sensor,day,t,v',
	'a composite partition key: the coordinator\'s table is partitioned by hash of row_key() of its parts');
is($co->safe_psql('postgres', q{SELECT count(*) FROM "There".ev e
  WHERE e.tableoid::regclass::text NOT LIKE '%\_' || (cfstore_shard.locate('There', 'ev', e.sensor || ':' || e.day)).server}),
	'0', 'each row comes from the partition of the shard locate() names for its key');
my $ev = $co->safe_psql('postgres', q{SELECT id FROM cfstore.column_family WHERE keyspace = 'There' AND name = 'ev'});
my $s1d1 = $co->safe_psql('postgres', q{SELECT server FROM cfstore_shard.locate('There', 'ev', 's1:1')});
is($co->safe_psql('postgres', q{PREPARE e(text, int) AS SELECT t, v FROM "There".ev WHERE day = $2 AND sensor = $1 ORDER BY t DESC LIMIT 2;
  EXPLAIN (VERBOSE, COSTS OFF) EXECUTE e('s1', 1)}),
	qq{Foreign Scan on cfstore_shard.cf_${ev}_$s1d1
  Output: cf_${ev}_$s1d1.t, cf_${ev}_$s1d1.v
  Remote SQL: SELECT t, v FROM "There".ev WHERE ((day = 1)) AND ((sensor = 's1')) ORDER BY t DESC NULLS FIRST LIMIT 2::bigint},
	'equality on every part reaches the one shard of the key, with the ORDER BY and the LIMIT shipped');
is($co->safe_psql('postgres', q{PREPARE e(text, int) AS SELECT t, v FROM "There".ev WHERE day = $2 AND sensor = $1 ORDER BY t DESC LIMIT 2;
  EXECUTE e('s1', 1)}), "13|v13\n1|v1", 'and reads the row');
# a part of a type whose equal values differ in form (1.5 = 1.50) is not
# routed: the row_key() of the query's value would name another partition
$co->safe_psql('postgres', q{SELECT cfstore.cql($c$CREATE TABLE dec (sensor text, x decimal, t int, v text,
  PRIMARY KEY ((sensor, x), t))$c$, 'There');
  SELECT cfstore.cql(format($c$INSERT INTO dec (sensor, x, t, v) VALUES ('s%s', %s, 1, 'v%s')$c$, i, i / 2.0, i), 'There')
  FROM generate_series(1, 16) i});
is($co->safe_psql('postgres', join('', map { sprintf(q{SELECT v FROM "There".dec WHERE sensor = 's%d' AND x = %.6f;}, $_, $_ / 2) } 1 .. 16)),
	join("\n", map { "v$_" } 1 .. 16), 'a decimal part equal in value but not in form finds its row');
like($co->safe_psql('postgres', q{EXPLAIN (COSTS OFF) SELECT v FROM "There".dec WHERE sensor = 's3' AND x = 1.500000}),
	qr/Append/, 'and the lookup is not routed to one partition');
$co->safe_psql('postgres', q{INSERT INTO "There".ev VALUES ('s9', 9, 1, 'new')});
is($co->safe_psql('postgres', q{SELECT string_agg(column_name || '=' || value, ',') FROM cfstore.get_slice('There', 'ev', 's9:9')}),
	'1:=,1:v=new', 'a row inserted through the coordinator\'s table is where the function API looks for it');
is($co->safe_psql('postgres', q{SELECT count(*) FROM "There".ev}), '25', 'a scan reads every shard');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.row_key('UTF8Type', 'x')});
like($err, qr/row_key needs a CompositeType, not org.apache.cassandra.db.marshal.UTF8Type/, 'row_key() of a type that is not composite is an error');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.row_key('CompositeType(UTF8Type, Int32Type)', 'x')});
like($err, qr/has 2 components; row_key got 1 parts/, 'and of too few parts');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.row_key('CompositeType(UTF8Type, Int32Type)', 'x', 2^40)});
like($err, qr/cannot use a value of type double precision as row key part of type Int32Type/,
	'and of a part of a type its component cannot take');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.row_key('CompositeType(UTF8Type, Int32Type)', 'x', (2^40)::bigint)});
like($err, qr/1099511627776 is out of range for row key part of type Int32Type/, 'and of a number its component cannot hold');
($ret, $out, $err) = $co->psql('postgres', q{SELECT cfstore_shard.row_key('CompositeType(UTF8Type, UTF8Type)', VARIADIC ARRAY['x', 'y'])});
like($err, qr/row_key takes the parts as arguments, not as a VARIADIC array/, 'and of an array of parts');
is($co->safe_psql('postgres', q{SELECT cfstore_shard.row_key('CompositeType(UTF8Type, Int32Type)', 'a:b', 7)}), 'a\:b:7',
	'row_key() is the key\'s text form');

# a keyspace sharded after cql() made its tables: they take the same shapes
$co->safe_psql('postgres', q{SELECT cfstore.create_keyspace('Later');
  SELECT cfstore.cql('CREATE TABLE one (k text, c int, v text, PRIMARY KEY (k, c))', 'Later');
  SELECT cfstore.cql('CREATE TABLE two (a text, b int, c int, v text, PRIMARY KEY ((a, b), c))', 'Later');
  SELECT cfstore_shard.shard_keyspace('Later');
  INSERT INTO "Later".one VALUES ('x', 1, 'one');
  INSERT INTO "Later".two VALUES ('x', 2, 3, 'two')});
my $later = q{SELECT string_agg(attname, ',' ORDER BY attrelid::regclass::text, attnum) FROM pg_attribute
  WHERE attrelid IN ('"Later".one'::regclass, '"Later".two'::regclass) AND attnum > 0 AND NOT attisdropped};
is($co->safe_psql('postgres', $later) . ';' . on_shards($later), join(',', ('k,c,v,a,b,c,v') x 3) =~ s/,(?=k,c,v,a)/;/r,
	'shard_keyspace gives CQL3 tables made before it the CQL3 rows\' shape, on the coordinator and the shards');
is($co->safe_psql('postgres', q{SELECT v FROM "Later".one WHERE k = 'x' UNION ALL SELECT v FROM "Later".two WHERE a = 'x' AND b = 2
  UNION ALL SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Later', 'two', 'x:2')}),
	"one\ntwo\n3:,3:v", 'and their rows go where the function API finds them');

# objects in a sharded keyspace: written through the coordinator to the shard
# of their row key, read back whole, and found by key and without one (the
# index lives on the shards, so find_objects reads the rows there)
$co->safe_psql('postgres', q{SELECT cfstore.create_column_family('There', 'Orders',
  comparator => 'CompositeType(Int32Type, UTF8Type)', key_validation_class => 'UTF8Type',
  default_validation_class => 'UTF8Type')});
$co->safe_psql('postgres', q{SELECT cfstore.put_object('There', 'Orders',
  jsonb_build_object('cust', 'c' || (i % 4), 'n', i, 'status', CASE WHEN i % 3 = 0 THEN 'new' ELSE 'old' END,
                     'items', jsonb_build_array(jsonb_build_object('sku', i))), '{cust,n}')
  FROM generate_series(1, 12) i});
is(on_shards(q{SELECT count(DISTINCT key) > 0 FROM cfstore.get_range_slices('There', 'Orders', key_count => 100)}),
	't,t', 'objects are spread over both shards by row key');
is($co->safe_psql('postgres', q{SELECT cfstore.get_object('There', 'Orders', '{"cust": "c1", "n": 5}')}),
	'{"n": 5, "cust": "c1", "items": [{"sku": 5}], "status": "old"}', 'get_object on the coordinator');
is($co->safe_psql('postgres', q{SELECT string_agg(o ->> 'n', ',') FROM cfstore.find_objects('There', 'Orders', '{"cust": "c2"}') o}),
	'2,6,10', 'find_objects by row key');
is($co->safe_psql('postgres', q{SELECT string_agg(o ->> 'n', ',' ORDER BY (o ->> 'n')::int)
  FROM cfstore.find_objects('There', 'Orders', '{"status": "new"}') o}),
	'3,6,9,12', 'find_objects without a key reads every shard');
$co->safe_psql('postgres', q{SELECT cfstore.remove_object('There', 'Orders', '{"cust": "c1", "n": 5}', '{items.[0]}')});
is($co->safe_psql('postgres', q{SELECT cfstore.get_object('There', 'Orders', '{"cust": "c1", "n": 5}')}),
	'{"n": 5, "cust": "c1", "items": [], "status": "old"}', 'remove_object of a path on the coordinator');

# reads through the indexes of a sharded keyspace: by cql(), the cli and
# find_objects on the coordinator, each shard's index read and the entries
# merged, as on one node
for my $ks ('Here', 'There')
{
	$co->safe_psql('postgres', qq{
SELECT cfstore.cql(\$c\$CREATE TABLE users (id text PRIMARY KEY, state text, age int)\$c\$, '$ks');
SELECT cfstore.cql(\$c\$CREATE INDEX users_by_state_$ks ON users (state)\$c\$, '$ks');
SELECT cfstore.cql(format(\$c\$INSERT INTO users (id, state, age) VALUES ('u%s', 'S%s', %s)\$c\$, i, i % 3, i), '$ks')
  FROM generate_series(1, 40) i;
SELECT cfstore.cql(\$c\$CREATE TABLE docs (cust text, n int, status text, PRIMARY KEY (cust, n))\$c\$, '$ks');
SELECT cfstore.cql(\$c\$ALTER TABLE docs ADD "customer.email" text\$c\$, '$ks');
SELECT cfstore.cql(\$c\$CREATE INDEX docs_by_email_$ks ON docs ("customer.email")\$c\$, '$ks');
SELECT cfstore.put_object('$ks', 'docs', jsonb_build_object('cust', 'c' || (i % 7), 'n', i, 'status', 'new',
                          'customer', jsonb_build_object('email', 'e' || (i % 5))), '{cust,n}')
  FROM generate_series(1, 30) i;});
}
my %ix;
for my $ks ('Here', 'There')
{
	$ix{$ks} = $co->safe_psql('postgres', qq{
SELECT string_agg(r ->> 'id', ',') FROM cfstore.cql(\$c\$SELECT id FROM users WHERE state = 'S1'\$c\$, '$ks') r;
SELECT string_agg(r ->> 'id', ',') FROM cfstore.cql(\$c\$SELECT id FROM users WHERE state = 'S2' AND age > 20 ALLOW FILTERING\$c\$, '$ks') r;
SELECT string_agg(l, '|') FROM cfstore.cli('use $ks; get Std where state = ''S2'' limit 3;') l;
SELECT string_agg(o ->> 'n', ',' ORDER BY (o ->> 'n')::int) FROM cfstore.find_objects('$ks', 'docs', '{"customer": {"email": "e2"}}') o;});
}
is($ix{There} =~ s/There/KS/gr, $ix{Here} =~ s/Here/KS/gr,
	'cql(), the cli and find_objects read a sharded keyspace\'s indexes as one node\'s');
like($ix{There}, qr/^u\d+(,u\d+){13}\n/, 'the index gives the rows of every shard');
($ret, $out, $err) = $co->psql('postgres', q{SET client_min_messages = debug1;
  SELECT count(*) FROM cfstore.find_objects('There', 'docs', '{"customer": {"email": "e2"}}')});
is($out, '6', 'find_objects finds them all');
like($err, qr/find_objects: objects of docs from index docs_by_email_there/, 'through the index');

# IS DISTINCT FROM on a timeuuid column: postgres_fdw would ship it without
# its operator's schema, which the shard cannot resolve; it is planned as
# an expression of the same value
my %distinct;
for my $ks ('Here', 'There')
{
	$co->safe_psql('postgres', qq{SELECT cfstore.cql(\$c\$CREATE TABLE tl (u text, t timeuuid, v text, PRIMARY KEY (u, t))\$c\$, '$ks');
  SELECT cfstore.cql(format(\$c\$INSERT INTO tl (u, t, v) VALUES ('u%s', %s, 'v%s')\$c\$, i % 3,
    cfstore.min_timeuuid(timestamptz '2020-01-01' + i * interval '1 s'), i), '$ks') FROM generate_series(1, 12) i});
	$distinct{$ks} = $co->safe_psql('postgres', qq{SET search_path = public, cfstore;
  SELECT string_agg(v, ',' ORDER BY v) FROM "$ks".tl WHERE t IS DISTINCT FROM min_timeuuid(timestamptz '2020-01-01' + interval '5 s');
  SELECT string_agg(v, ',' ORDER BY v) FROM "$ks".tl WHERE u = 'u1' AND t IS NOT DISTINCT FROM min_timeuuid(timestamptz '2020-01-01' + interval '7 s');
  SELECT string_agg(v || ':' || (t IS DISTINCT FROM NULL) || (NULLIF(t, t) IS DISTINCT FROM NULL), ',' ORDER BY v) FROM "$ks".tl WHERE u = 'u2'});
}
is($distinct{There}, $distinct{Here}, 'IS DISTINCT FROM on a timeuuid column of a coordinator\'s table, as on one node');
like($distinct{There}, qr/^v1,v10,v11,v12,v2,v3,v4,v6,v7,v8,v9\nv7\nv11:truefalse,v2:truefalse,v5:truefalse,v8:truefalse$/, 'with the rows it should give');
# a query that reads no sharded table keeps its IS DISTINCT FROM as written:
# ON CONFLICT infers a partial index by its predicate
is($co->safe_psql('postgres', q{SET search_path = public, cfstore; LOAD 'cfstore';
  CREATE TABLE ev (k int, t timeuuid);
  CREATE UNIQUE INDEX ON ev (k) WHERE t IS DISTINCT FROM min_timeuuid('2020-01-01');
  INSERT INTO ev VALUES (1, NULL) ON CONFLICT (k) WHERE t IS DISTINCT FROM min_timeuuid('2020-01-01') DO NOTHING;
  INSERT INTO ev VALUES (1, NULL) ON CONFLICT (k) WHERE t IS DISTINCT FROM min_timeuuid('2020-01-01') DO NOTHING;
  SELECT count(*) FROM ev; DROP TABLE ev}), '1', 'an ON CONFLICT clause with IS DISTINCT FROM on a timeuuid infers its index');

# SQL on the coordinator's tables (postgres_fdw's connections) and the
# function API (the coordinator's own) in one transaction: refused where one
# would miss the other's changes or wait for them until the transaction ends
$co->safe_psql('postgres', q{SELECT cfstore.cql($c$CREATE TABLE mix (id text PRIMARY KEY, v text)$c$, 'There');
  SELECT cfstore.cql($c$CREATE TABLE other (id text PRIMARY KEY, v text)$c$, 'There');
  SELECT cfstore.cql($c$INSERT INTO mix (id, v) VALUES ('a', '1')$c$, 'There');
  SELECT cfstore.cql($c$INSERT INTO other (id, v) VALUES ('a', '1')$c$, 'There')});
my %mix = (
	'an API write, then SQL reading the table' => [q{SELECT cfstore.insert('There', 'mix', 'b', 'v', '2');
  SELECT count(*) FROM "There".mix}, qr/cannot use sharded column family table "There"."mix" in a transaction that has changed sharded keyspaces through the function API/],
	'an API write, then SQL reading another table' => [q{SELECT cfstore.insert('There', 'other', 'b', 'v', '2');
  SELECT count(*) FROM "There".mix WHERE id = 'a'}, qr/cannot use sharded column family table "There"."mix"/],
	'DDL, then SQL reading the table (it waited until the statement timed out)' => [q{SELECT cfstore.truncate('There', 'mix');
  SELECT count(*) FROM "There".mix}, qr/cannot use sharded column family table "There"."mix"/],
	'an API write, then SQL writing a table' => [q{SELECT cfstore.insert('There', 'mix', 'b', 'v', '2');
  INSERT INTO "There".other (id, v) VALUES ('c', '3')}, qr/cannot use sharded column family table "There"."other"/],
	'SQL reading the table, then truncate (it waited until the statement timed out)' => [q{SELECT count(*) FROM "There".mix;
  SELECT cfstore.truncate('There', 'mix')}, qr/cannot change column family There.mix in a transaction that has read it through its table/],
	'SQL reading a row of the table, then update_column_family' => [q{SELECT count(*) FROM "There".mix WHERE id = 'a';
  SELECT cfstore.update_column_family('There', 'mix', comment => 'x')}, qr/cannot change column family There.mix in a transaction that has read it/],
	'SQL reading the table, then CQL ALTER TABLE' => [q{SELECT count(*) FROM "There".mix WHERE id = 'a';
  SELECT cfstore.cql('ALTER TABLE mix ADD w text', 'There')}, qr/cannot change column family There.mix in a transaction that has read it/],
	'SQL reading the table, then drop_keyspace' => [q{SELECT count(*) FROM "There".mix WHERE id = 'a';
  SELECT cfstore.drop_keyspace('There')}, qr/cannot change column family There.mix in a transaction that has read it/],
	'SQL writing the table, then an API read of it' => [q{INSERT INTO "There".mix (id, v) VALUES ('c', '3');
  SELECT count(*) FROM cfstore.get_slice('There', 'mix', 'c')}, qr/cannot read column family There.mix through the function API in a transaction that has written it through its table/],
	'EXPLAIN after DDL (postgres_fdw asks the shards for estimates)' => [q{SELECT cfstore.truncate('There', 'other');
  EXPLAIN SELECT * FROM "There".mix WHERE v = 'x'}, qr/cannot use sharded column family table "There"."mix"/],
	'EXPLAIN, then DDL' => [q{EXPLAIN SELECT * FROM "There".mix WHERE v = 'x';
  SELECT cfstore.truncate('There', 'mix')}, qr/cannot change column family There.mix in a transaction that has read it/],
	'an INSERT of a WITH clause, then an API read' => [q{WITH w AS (INSERT INTO "There".mix (id, v) VALUES ('c', '3') RETURNING id)
  SELECT count(*) FROM w;
  SELECT count(*) FROM cfstore.get_slice('There', 'mix', 'c')}, qr/cannot read column family There.mix through the function API in a transaction that has written it/],
	'SQL writing the table, then map_reduce over it' => [q{INSERT INTO "There"."Std" (key, column_name, value) VALUES ('mr', 'c', 'v');
  SELECT cfstore_shard.map_reduce('There', 'Std', $$SELECT 'k', 1$$, 'sum(value)')}, qr/cannot read column family There.Std through the function API in a transaction that has written it/],
	'an API write, then TRUNCATE of the table' => [q{SELECT cfstore.insert('There', 'mix', 'b', 'v', '2');
  TRUNCATE "There".mix}, qr/cannot use sharded column family table "There"."mix"/],
	'an API write, then COPY of the table' => [q{SELECT cfstore.insert('There', 'mix', 'b', 'v', '2');
  COPY "There".mix TO STDOUT}, qr/cannot use sharded column family table "There"."mix"/],
	'TRUNCATE of the table, then cfstore.truncate' => [q{TRUNCATE "There".mix;
  SELECT cfstore.truncate('There', 'mix')}, qr/cannot change column family There.mix in a transaction that has written it through its table/],
	'DDL, then ANALYZE of the database' => [q{SELECT cfstore.truncate('There', 'other');
  ANALYZE}, qr/cannot use sharded column family table "There"."\w+" in a transaction that has changed sharded keyspaces/],
	'ANALYZE of the table, then cfstore.truncate' => [q{ANALYZE "There".mix;
  SELECT cfstore.truncate('There', 'mix')}, qr/cannot change column family There.mix in a transaction that has read it through its table/],
	'SQL writing the table, then an API scan of it' => [q{UPDATE "There".mix SET v = '4' WHERE id = 'a';
  SELECT count(*) FROM cfstore.get_range_slices('There', 'mix')}, qr/cannot read column family There.mix through the function API in a transaction that has written it/],
);
for my $case (sort keys %mix)
{
	my ($sql, $re) = @{ $mix{$case} };
	($ret, $out, $err) = $co->psql('postgres', "SET statement_timeout = '20s'; BEGIN; $sql; COMMIT;");
	like($err, $re, "refused: $case");
}
is($co->safe_psql('postgres', q{SELECT string_agg(id || '=' || v, ',' ORDER BY id) FROM "There".mix;
  SELECT string_agg(id || '=' || v, ',' ORDER BY id) FROM "There".other;
  SELECT count(DISTINCT key) FROM cfstore.get_range_slices('There', 'mix')}), "a=1\na=1\n1",
  'and nothing of those transactions is kept');
is($co->safe_psql('postgres', q{BEGIN;
  CREATE TEMP TABLE copied AS SELECT * FROM "There".mix;
  INSERT INTO copied SELECT * FROM "There".mix;
  SELECT count(*) FROM "There".mix;
  SELECT count(*) FROM cfstore.get_slice('There', 'mix', 'a');
  INSERT INTO "There".mix (id, v) VALUES ('c', '3');
  SELECT count(*) FROM "There".mix;
  SELECT count(*) FROM cfstore.get_slice('There', 'other', 'a');
  SELECT cfstore.truncate('There', 'other');
  ROLLBACK;
  BEGIN;
  SELECT cfstore.insert('There', 'mix', 'b', 'v', '2');
  SELECT count(*) FROM cfstore.get_slice('There', 'mix', 'b');
  COMMIT;
  SELECT count(*) FROM "There".mix; SELECT cfstore.truncate('There', 'mix');
  SELECT count(*) FROM "There".mix}), "1\n2\n2\n2\n\n\n1\n2\n\n0",
  'the rest mixes: SQL after SQL, reads after reads (a table read by a write of another), DDL of another column family, and separate transactions');

# A read of every shard that fails on one: the others' statements are
# cancelled and their results drained, so that their connections stay
# usable; a server that does not answer its cancel (here its backend is
# stopped) is given up after a few seconds, not waited for forever.
# (a function a shard server's session found missing from its start, as
# one renamed during its transaction may still be found under its name)
$node{shard1}->safe_psql('postgres', q{ALTER FUNCTION cfstore._remote_row_keys(text, text, bytea, boolean, integer)
  RENAME TO _remote_row_keys_gone});
my $bg = $co->background_psql('postgres', on_error_stop => 0);
# the writes of both shards are sent before the slice, over both connections
$bg->query_safe(q{BEGIN; SELECT count(cfstore.insert('There', 'Std', 'drain' || i, 'c', 'v')) FROM generate_series(1, 20) i;
  SELECT count(*) FROM cfstore.get_slice('There', 'Std', 'drain1')});
my $stuck = $node{shard2}->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE application_name = 'cfstore_shard'});
like($stuck, qr/^\d+$/, 'the session has its own connection to the second shard server');
kill 'STOP', $stuck;
my $t0 = time;
$out = $bg->query(q{SELECT count(*) FROM cfstore.get_range_slices('There', 'Std', key_count => 2)});
my $waited = time - $t0;
kill 'CONT', $stuck;
like($bg->{stderr}, qr/shard server s1: .*function cfstore._remote_row_keys\(text, text, bytea, boolean, integer\) does not exist/,
	'the failing server\'s error is raised');
cmp_ok($waited, '<', 60, 'once the other server has been given a few seconds to answer its cancel');
$bg->query('ROLLBACK');
$node{shard1}->safe_psql('postgres', q{ALTER FUNCTION cfstore._remote_row_keys_gone(text, text, bytea, boolean, integer)
  RENAME TO _remote_row_keys});
is($bg->query(q{SELECT count(*) > 0 FROM cfstore.get_range_slices('There', 'Std', key_count => 2)}), 't',
	'and the session reads the shards again');
$bg->quit;

$node{$_}->stop for keys %node;
done_testing();
