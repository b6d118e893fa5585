# Every shape of the Generic WAL records cfstore builds by hand replays to
# the page the primary wrote.
#
# cfstore logs the frequent page changes of an insertion itself, in the
# format of generic_xlog.c (src/storage/cfwal.c): an item's changed bytes,
# the changed ranges of a page, and whole regions of a page when there are
# more changed ranges than a backend's limit (32).  With
# wal_consistency_checking = 'generic', every record carries the page as
# the primary left it, and replay stops with "inconsistent page found" if
# applying the record gives anything else.  (The third shape is forced
# with the internal function _wal_max_ranges.)  A load that writes all three
# shapes (shown by the backend's counts) is replayed by a streaming standby
# and by crash recovery on the primary, checked record by record; the
# standby's reads must then equal the primary's.  Nothing reads the
# storage before replay: reads set hint flags, which are not WAL-logged.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('walcheck');
$primary->init(allows_streaming => 1);
# every record carries a page image: keep the load's WAL until the standby
# has it and until crash recovery has replayed it
$primary->append_conf('postgresql.conf', qq{
wal_consistency_checking = 'generic'
max_wal_size = 8GB
checkpoint_timeout = 1h
});
$primary->start;
$primary->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'tl', comparator => 'TimeUUIDType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ks', 'sup', column_type => 'Super', comparator => 'UTF8Type',
  subcomparator => 'LongType', key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ks', 'cnt', default_validation_class => 'CounterColumnType',
  key_validation_class => 'UTF8Type', comparator => 'UTF8Type');
SELECT cfstore.create_column_family('ks', 'big', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
});
$primary->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('standby')});
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('walcheck_standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', q{primary_slot_name = 'standby'});
$standby->start;

# One session, so the counts are of the whole load: rows appended to in
# order (runs rewritten in place), interleaved rows (new runs, rebuilds,
# splits at two levels), super columns, counters, tombstones, long parts,
# an index; then the same again with every insertion that logs changed
# ranges logging whole regions instead.
my $load = q{
SELECT count(cfstore.insert('ks', 'tl', 'user' || (i % 200),
         cfstore.min_timeuuid(timestamptz '2020-01-01' + i * interval '1 ms'), 'value ' || i, writetime => i))
  FROM generate_series(1, 20000) i;
SELECT count(cfstore.insert('ks', 'tl', 'inorder', cfstore.min_timeuuid(timestamptz '2021-01-01' + i * interval '1 ms'),
         repeat('v', 30), writetime => i)) FROM generate_series(1, 3000) i;
SELECT count(cfstore.insert('ks', 'sup', 'row' || (i % 7), (i % 100)::text, 'v' || i,
         writetime => i, super_column => 'sc' || (i % 13))) FROM generate_series(1, 3000) i;
SELECT count(cfstore.add('ks', 'cnt', 'c' || (i % 10), 'n' || (i % 3), i)) FROM generate_series(1, 500) i;
SELECT cfstore.remove('ks', 'tl', 'user5', writetime => 15000);
SELECT cfstore.remove('ks', 'sup', 'row3', super_column => 'sc4', writetime => 2000);
SELECT count(cfstore.insert('ks', 'big', 'k' || (i % 5), CASE WHEN i % 3 = 0 THEN 'state' ELSE 'n' || i END,
         CASE WHEN i % 4 = 0 THEN repeat(md5(i::text), 100) ELSE 'UT' || (i % 3) END, writetime => i))
  FROM generate_series(1, 300) i;
SELECT cfstore._wal_max_ranges(0);
SELECT count(cfstore.insert('ks', 'tl', 'user' || (i % 200),
         cfstore.min_timeuuid(timestamptz '2022-01-01' + i * interval '1 ms'), 'later ' || i, writetime => i))
  FROM generate_series(1, 5000) i;
SELECT count(cfstore.insert('ks', 'sup', 'row' || (i % 7), (i % 100)::text, 'w' || i,
         writetime => 10000 + i, super_column => 'sc' || (i % 13))) FROM generate_series(1, 1000) i;
SELECT overwrite || ' ' || ranges || ' ' || regions FROM cfstore._wal_record_counts();
};
my $counts = (split /\n/, $primary->safe_psql('postgres', $load))[-1];
my ($overwrite, $ranges, $regions) = split / /, $counts;
note("hand-built records: $overwrite in place, $ranges by changed ranges, $regions by whole regions");
cmp_ok($overwrite, '>', 1000, 'the load rewrote runs in place');
cmp_ok($ranges, '>', 1000, 'it logged changed ranges of pages');
cmp_ok($regions, '>', 100, 'and whole regions of pages');

# Replay on the standby, checking every record against the primary's page.
$primary->wait_for_catchup($standby);
my $standby_log = slurp_file($standby->logfile);
unlike($standby_log, qr/inconsistent page found/, 'the standby replayed every record to the primary\'s page');
ok($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()') eq 't', 'and is still replaying');

# Crash recovery on the primary, checking again (from the last checkpoint,
# which came before the load).
$primary->stop('immediate');
$primary->start;
my $primary_log = slurp_file($primary->logfile);
unlike($primary_log, qr/inconsistent page found/, 'crash recovery replayed every record to the page written');
like($primary_log, qr/redo done/, 'crash recovery ran');

# Now reads, on both, agree.
my $checks = q{
SELECT md5(string_agg(s::text, ',' ORDER BY k)) FROM generate_series(0, 199) k,
       LATERAL cfstore.get_slice('ks', 'tl', 'user' || k, count => 1000) s;
SELECT md5(string_agg(s::text, ',')) FROM cfstore.get_slice('ks', 'tl', 'inorder', count => 10000) s;
SELECT md5(string_agg(s::text, ',')) FROM generate_series(0, 6) k,
       LATERAL cfstore.get_slice('ks', 'sup', 'row' || k, count => 1000) s;
SELECT string_agg(s.key || '/' || s.column_name || '=' || s.value, ',') FROM generate_series(0, 9) k,
       LATERAL cfstore.get_slice('ks', 'cnt', 'c' || k) s;
SELECT md5(string_agg(s::text, ',')) FROM generate_series(0, 4) k,
       LATERAL cfstore.get_slice('ks', 'big', 'k' || k, count => 1000) s;
SELECT string_agg(DISTINCT key, ',' ORDER BY key) FROM cfstore.get_indexed_slices('ks', 'big',
       '[{"column_name": "state", "op": "EQ", "value": "UT0"}]');
};
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $checks), $primary->safe_psql('postgres', $checks),
	'the standby reads what the primary reads');
is($primary->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'tl'); SELECT cfstore.verify('ks', 'sup');
SELECT cfstore.verify('ks', 'cnt'); SELECT cfstore.verify('ks', 'big')}), "\n\n\n", 'every column family verifies');

$standby->stop;
$primary->stop;
done_testing();
