# pg_dump / pg_restore round trip of cfstore data: Standard, Super and
# counter column families with TTL cells, long (out-of-line) names and
# values, and row, super column and column tombstones.  The catalog rows
# restore first (schema cfstore sorts before cfstore_data, and pg_dump loads
# extension configuration tables first), then each storage relation's live
# cells are COPYed back in.  The restored side must return the same slices
# and counter totals, keep TTL expiry instants, pass verify, and keep
# working; the column families' foreign tables (restored by pg_dump's own
# DDL) read the same rows.  Also restored: in one transaction, from a plain
# script, and in parallel by the README's four pg_restore steps.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('Dump');
SELECT cfstore.create_column_family('Dump', 'Std', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Dump', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
  subcomparator => 'LongType', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Dump', 'Cnt', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('Dump', 'SupCnt', column_type => 'Super', comparator => 'UTF8Type',
  subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('Dump', 'Tl', comparator => 'TimeUUIDType',
  key_validation_class => 'UTF8Type', default_validation_class => 'BytesType');

-- Standard: 200 rows x 40 columns, some with a TTL far in the future
SELECT count(cfstore.insert('Dump', 'Std', 'row' || r, 'col' || lpad(c::text, 3, '0'),
         'value ' || r || '/' || c, writetime => r * 100 + c,
         ttl => CASE WHEN c % 10 = 0 THEN 86400 * 365 END))
  FROM generate_series(1, 200) r, generate_series(1, 40) c;
-- out of line: values longer than 3000 bytes, 2000-byte column names, a long row key
SELECT cfstore.insert('Dump', 'Std', 'row1', 'big' || i, repeat(md5(i::text), 100 + i), writetime => 1)
  FROM generate_series(1, 5) i;
SELECT cfstore.insert('Dump', 'Std', 'row2', repeat('n', 1995) || lpad(i::text, 5, '0'), 'long name ' || i,
         writetime => 1)
  FROM generate_series(1, 5) i;
SELECT cfstore.insert('Dump', 'Std', repeat('k', 900), 'c', repeat('v', 4000), writetime => 1);
-- tombstones: a row, columns, a row deletion that only covers older columns
SELECT cfstore.remove('Dump', 'Std', 'row3', writetime => 1000000);
SELECT cfstore.remove('Dump', 'Std', 'row4', 'col00' || i, writetime => 1000000) FROM generate_series(1, 9) i;
SELECT cfstore.remove('Dump', 'Std', 'row5', writetime => 520);
SELECT cfstore.remove('Dump', 'Std', 'row1', 'big3', writetime => 2);
-- an expired cell: written with an expiry in the past (it is a tombstone)
DO $$ BEGIN
  EXECUTE format('INSERT INTO %s (key, column_name, value, writetime, ttl, expires_at)
                  VALUES (''row6'', ''col001'', ''expired'', 1000000, 10, 1)',
                 cfstore._storage_relation('Dump', 'Std'));
END $$;

-- Super: super columns of LongType subcolumns; a super column tombstone,
-- subcolumn tombstones, a row tombstone
SELECT count(cfstore.insert('Dump', 'Sup', 'srow' || r, c, 'sv' || r || '/' || s || '/' || c,
         writetime => c, super_column => 'sc' || s, ttl => CASE WHEN c = 7 THEN 86400 END))
  FROM generate_series(1, 20) r, generate_series(1, 10) s, generate_series(1, 10) c;
SELECT cfstore.insert('Dump', 'Sup', 'srow1', 99, repeat('s', 3500), writetime => 1, super_column => 'big');
SELECT cfstore.insert('Dump', 'Sup', 'srow1', 1, 'long super column', writetime => 1,
         super_column => repeat('S', 2000));
SELECT cfstore.remove('Dump', 'Sup', 'srow2', super_column => 'sc3', writetime => 100);
SELECT cfstore.remove('Dump', 'Sup', 'srow2', 5, super_column => 'sc4', writetime => 100);
SELECT cfstore.remove('Dump', 'Sup', 'srow3', writetime => 5);

-- counters: several increments per counter, deletions, an increment after one
SELECT count(cfstore.add('Dump', 'Cnt', 'crow' || (i % 30), 'n' || (i % 7), i)) FROM generate_series(1, 2000) i;
SELECT cfstore.remove_counter('Dump', 'Cnt', 'crow4');
SELECT cfstore.remove_counter('Dump', 'Cnt', 'crow5', 'n3');
SELECT cfstore.add('Dump', 'Cnt', 'crow5', 'n3', 1000);
SELECT count(cfstore.add('Dump', 'SupCnt', 'srow' || (i % 5), 'c' || (i % 4), -i, super_column => 'sc' || (i % 3)))
  FROM generate_series(1, 600) i;
SELECT cfstore.remove_counter('Dump', 'SupCnt', 'srow1', super_column => 'sc1');

-- a batch, and a timeline row spanning pages
SELECT cfstore.batch_mutate('Dump', '{"brow": {"Std": [
    {"column": {"name": "a", "value": "batched", "timestamp": 5, "ttl": 600000}},
    {"column": {"name": "b", "value": "batched", "timestamp": 5}},
    {"deletion": {"timestamp": 6, "predicate": {"column_names": ["b"]}}}]}}');
SELECT count(cfstore.insert('Dump', 'Tl', 'user1',
         cfstore.min_timeuuid(timestamptz '2020-01-01' + i * interval '1 s'), ('\x' || md5(i::text))::bytea,
         writetime => i))
  FROM generate_series(1, 3000) i;

-- a column family whose default TTL was set after some writes: those cells
-- never expire and must not pick the default up on restore
SELECT cfstore.create_column_family('Dump', 'Later', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.insert('Dump', 'Later', 'k', 'forever', 'v', writetime => 1);
SELECT cfstore.update_column_family('Dump', 'Later', default_time_to_live => 1000);
SELECT cfstore.insert('Dump', 'Later', 'k', 'defaulted', 'v', writetime => 1);

-- compressed values (lz4): documents, long documents (compressed, then
-- still out of line), values that do not compress, short values
SELECT cfstore.create_column_family('Dump', 'Zip', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  compression_options => '{"sstable_compression": "LZ4Compressor", "chunk_length_kb": 64}');
SELECT count(cfstore.insert('Dump', 'Zip', 'z' || r, 'doc' || lpad(c::text, 3, '0'),
         format('{"id": %s, "user": "u%s", "tags": ["a", "b"], "body": "%s"}', c, r, repeat('word ' || c || ' ', 60)),
         writetime => c, ttl => CASE WHEN c % 7 = 0 THEN 86400 * 365 END))
  FROM generate_series(1, 30) r, generate_series(1, 40) c;
SELECT cfstore.insert('Dump', 'Zip', 'z1', 'long' || i, repeat('long document ' || i, 2000), writetime => 1)
  FROM generate_series(1, 3) i;
SELECT cfstore.insert('Dump', 'Zip', 'z2', 'noise' || i,
         (SELECT string_agg(md5(i::text || j::text), '') FROM generate_series(1, 20) j), writetime => 1)
  FROM generate_series(1, 5) i;
SELECT cfstore.insert('Dump', 'Zip', 'z3', 'short', 'v', writetime => 1);
});

# What must survive: every CF's slices (text forms, writetime, ttl), the raw
# rows of its storage relation (with the absolute expiry instants), the
# counter totals and the count of live cells.
my @cfs = qw(Std Sup Cnt SupCnt Tl Later Zip);
my %keys = (
	Std => q{SELECT 'row' || i FROM generate_series(1, 200) i UNION ALL SELECT 'brow' UNION ALL SELECT repeat('k', 900)},
	Sup => q{SELECT 'srow' || i FROM generate_series(1, 20) i},
	Cnt => q{SELECT 'crow' || i FROM generate_series(0, 29) i},
	SupCnt => q{SELECT 'srow' || i FROM generate_series(0, 4) i},
	Tl => q{SELECT 'user1'},
	Later => q{SELECT 'k'},
	Zip => q{SELECT 'z' || i FROM generate_series(1, 30) i});

# One line per column family: md5 of the slices, md5 of the raw rows, live
# cells, md5 of the rows of its foreign table.
sub snapshot
{
	my ($db) = @_;
	my $out = '';
	for my $cf (@cfs)
	{
		my $rel = $node->safe_psql($db, qq{SELECT cfstore._storage_relation('Dump', '$cf')});
		$out .= $node->safe_psql($db, qq{
SELECT '$cf', (SELECT md5(string_agg(s::text, ',' ORDER BY k.k, s.super_column, s.column_name))
                 FROM ($keys{$cf}) k(k), LATERAL cfstore.get_slice('Dump', '$cf', k.k, count => 1000000) s),
       (SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM $rel t),
       (SELECT live_cells FROM cfstore.stats('Dump', '$cf')),
       (SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) || '/' || count(*) FROM "Dump"."$cf" t)}) . "\n";
	}
	return $out;
}

my $totals = q{
SELECT string_agg(key || '=' || total, ',' ORDER BY key) FROM (
  SELECT s.key, sum(s.value::bigint) AS total
    FROM generate_series(0, 29) k, LATERAL cfstore.get_slice('Dump', 'Cnt', 'crow' || k) s GROUP BY s.key) t;
SELECT string_agg(key || '/' || super_column || '=' || total, ',' ORDER BY key, super_column) FROM (
  SELECT s.key, s.super_column, sum(s.value::bigint) AS total
    FROM generate_series(0, 4) k, LATERAL cfstore.get_slice('Dump', 'SupCnt', 'srow' || k) s
   GROUP BY s.key, s.super_column) t;};

my $before = snapshot('src');
my $totals_before = $node->safe_psql('src', $totals);

# the source holds what the test is about
my $src_checks = $node->safe_psql('src', q{
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row1', count => 100) WHERE length(value) > 3000;
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row2', count => 100) WHERE length(column_name) = 2000;
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row3');
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row4', count => 100);
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row5', count => 100);
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row6', count => 100);
SELECT count(*) FROM cfstore.get_slice('Dump', 'Sup', 'srow2', count => 100);
SELECT count(*) FROM cfstore.get_slice('Dump', 'Sup', 'srow3', count => 100);
SELECT count(*) FROM cfstore.get_slice('Dump', 'Cnt', 'crow4');
SELECT string_agg(column_name || ':' || coalesce(ttl::text, '-'), ',') FROM cfstore.get_slice('Dump', 'Later', 'k');
SELECT leaf_pages > 10 FROM cfstore.stats('Dump', 'Std');});
is($src_checks, join("\n", 4, 5, 0, 31, 20, 39, 89, 50, 0, 'defaulted:1000,forever:-', 't'),
	'source: long values and names, tombstones, expired and defaulted cells are there');
like($before, qr/^Std\|[0-9a-f]{32}\|[0-9a-f]{32}\|\d+\|[0-9a-f]{32}\/\d+$/m,
	'snapshot has slices, raw rows, live cells and the foreign table\'s rows');

is($node->safe_psql('src', join(' UNION ALL ', map {
		qq{SELECT '$_' WHERE (SELECT count(*) FROM "Dump"."$_") <> (SELECT live_cells FROM cfstore.stats('Dump', '$_'))}
	} @cfs)), '', 'source: each foreign table has a row per live cell');

# the values of Zip are stored compressed: its file is less than half of
# what they weigh (uncompressed, it would be more)
my $zip_ratio = q{
SELECT (SELECT sum(length(value::bytea)) FROM "Dump"."Zip")
       / pg_relation_size(cfstore._storage_relation('Dump', 'Zip')::regclass) > 2,
       (SELECT cf_defs -> 'compression_options' FROM jsonb_array_elements(cfstore.describe_keyspace('Dump') -> 'cf_defs') cf_defs
         WHERE cf_defs ->> 'name' = 'Zip')};
my $zip_expected = qq{t|{"chunk_length_kb": 64, "sstable_compression": "LZ4Compressor"}};
is($node->safe_psql('src', $zip_ratio), $zip_expected, 'source: Zip\'s values are compressed');

my $tmp = PostgreSQL::Test::Utils::tempdir;
$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/src.dump", 'src' ], 'pg_dump -Fc with data');

# the archive restores the catalog data before the storage data
my ($list) = run_command([ 'pg_restore', '-l', "$tmp/src.dump" ]);
my @data = map { /TABLE DATA (\S+ \S+)/ ? $1 : () } split /\n/, $list;
my ($last_catalog) = grep { $data[$_] =~ /^cfstore / } reverse 0 .. $#data;
my ($first_storage) = grep { $data[$_] =~ /^cfstore_data / } 0 .. $#data;
ok(defined $first_storage && $last_catalog < $first_storage,
	'the archive lists the catalog data before the storage data');

$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'dst', "$tmp/src.dump" ], 'pg_restore');
is(snapshot('dst'), $before, 'pg_restore: the same slices, raw rows (expiry instants) and live cells');
is($node->safe_psql('dst', $zip_ratio), $zip_expected,
	'pg_restore: compression_options restored, and the restored values compressed');
is($node->safe_psql('dst', $totals), $totals_before, 'pg_restore: the same counter totals');
for my $cf (@cfs)
{
	is($node->safe_psql('dst', qq{SELECT cfstore.verify('Dump', '$cf')}), '', "pg_restore: $cf verifies");
}
is($node->safe_psql('dst', q{SELECT string_agg(column_name || ':' || coalesce(ttl::text, '-'), ',')
                              FROM cfstore.get_slice('Dump', 'Later', 'k')}),
	'defaulted:1000,forever:-', 'a cell without TTL does not take the default TTL on restore');

# the restored column families keep working: writes, counters, deletions
$node->safe_psql('dst', q{
SELECT cfstore.insert('Dump', 'Std', 'row1', 'col001', 'newer', writetime => 1000000);
SELECT cfstore.add('Dump', 'Cnt', 'crow1', 'n1', 1);
SELECT cfstore.remove('Dump', 'Sup', 'srow1', super_column => 'sc1', writetime => 1000);});
is($node->safe_psql('dst', q{
SELECT value FROM cfstore.get('Dump', 'Std', 'row1', 'col001');
SELECT count(*) FROM cfstore.get_slice('Dump', 'Std', 'row3');
SELECT value FROM cfstore.get('Dump', 'Cnt', 'crow1', 'n1');
SELECT count(*) FROM cfstore.get('Dump', 'Sup', 'srow1', super_column => 'sc1');}),
	join("\n", 'newer', 0,
		$node->safe_psql('src', q{SELECT value::bigint + 1 FROM cfstore.get('Dump', 'Cnt', 'crow1', 'n1')}), 0),
	'restored column families take new writes, counter increments and deletions');
is($node->safe_psql('dst', q{SELECT cfstore.verify('Dump', 'Std'); SELECT cfstore.verify('Dump', 'Sup')}),
	"\n", 'and still verify');

# in one transaction (the catalog rows are not committed yet when the
# storage data arrives) and as a plain SQL script
$node->safe_psql('postgres', 'CREATE DATABASE dst1');
$node->command_ok([ 'pg_restore', '--exit-on-error', '--single-transaction', '-d', 'dst1', "$tmp/src.dump" ],
	'pg_restore --single-transaction');
is(snapshot('dst1'), $before, 'pg_restore --single-transaction: the same data');
$node->command_ok([ 'pg_dump', '-Fp', '-f', "$tmp/src.sql", 'src' ], 'pg_dump -Fp with data');
$node->safe_psql('postgres', 'CREATE DATABASE dst2');
$node->command_ok([ 'psql', '-X', '-v', 'ON_ERROR_STOP=1', '-q', '-d', 'dst2', '-f', "$tmp/src.sql" ],
	'plain dump restores with psql');
is(snapshot('dst2'), $before, 'plain dump: the same data');
is($node->safe_psql('dst2', $totals), $totals_before, 'plain dump: the same counter totals');

# pg_restore -j: its workers take the largest data first, so storage data
# arrives before the catalog rows it needs, and the restore says so.  The
# README's recipe restores in parallel all the same: the definitions, then
# the catalog data alone, then every other table's data with -j, then the
# indexes and constraints with -j.
$node->safe_psql('postgres', 'CREATE DATABASE dst3');
$node->command_fails_like([ 'pg_restore', '-j', '2', '-d', 'dst3', "$tmp/src.dump" ],
	qr/is not in the cfstore catalog\n.*HINT:  Restore the cfstore catalog tables \(schema cfstore\) before the data of schema cfstore_data/,
	'pg_restore -j alone: storage data before the catalog is refused, with the way out');
$node->safe_psql('postgres', 'CREATE DATABASE dst4');
for my $step ([ '--section=pre-data' ], [ '--data-only', '-n', 'cfstore' ],
	[ '-j', '2', '--data-only', '-N', 'cfstore' ], [ '-j', '2', '--section=post-data' ])
{
	$node->command_ok([ 'pg_restore', '--exit-on-error', @$step, '-d', 'dst4', "$tmp/src.dump" ],
		"parallel recipe: pg_restore @$step");
}
is(snapshot('dst4'), $before, 'parallel recipe: the same data');
is($node->safe_psql('dst4', $totals), $totals_before, 'parallel recipe: the same counter totals');
is($node->safe_psql('dst4', join('; ', map { qq{SELECT cfstore.verify('Dump', '$_')} } @cfs)),
	"\n" x (@cfs - 1), 'parallel recipe: every column family verifies');
is($node->safe_psql('dst4', q{SELECT cfstore.create_column_family('Dump', 'New');
                               SELECT id > (SELECT max(id) FROM cfstore.column_family WHERE name <> 'New')
                                 FROM cfstore.column_family WHERE name = 'New'}),
	"\nt", 'parallel recipe: the column family id sequence is restored with the catalog');

# VACUUM FULL rewrites a storage relation through the same insert path
for my $cf (@cfs)
{
	my $rel = $node->safe_psql('src', qq{SELECT cfstore._storage_relation('Dump', '$cf')});
	$node->safe_psql('src', "VACUUM FULL $rel");
}
is(snapshot('src'), $before, 'VACUUM FULL keeps every cell, TTL and expiry as it was');

$node->stop;
done_testing();
