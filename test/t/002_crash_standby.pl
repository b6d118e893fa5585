# Crash safety and replication of the cfstore storage engine.
#
# A primary with a streaming standby replaying with wal_consistency_checking
# = generic during the load, so that every Generic WAL record cfstore writes
# (including the ones it builds by hand for in-place changes) is checked on
# replay against the primary's page image.  Then an immediate stop in the middle of a load
# of committed batches: after restart exactly the committed batches are
# there and the storage verifies.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', qq{
wal_consistency_checking = 'generic'
hot_standby_feedback = on
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
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore.create_column_family('ks', 'exp', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore.create_column_family('ks', 'zip', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
  default_validation_class => 'UTF8Type', compression_options => '{"sstable_compression": "LZ4Compressor"}');
});

$primary->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('standby')});
$primary->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bk', has_streaming => 1);
$standby->append_conf('postgresql.conf', q{primary_slot_name = 'standby'
wal_receiver_status_interval = 1});
$standby->start;

# Interleaved rows, enough cells for splits at two levels.
$primary->safe_psql('postgres', q{
SELECT count(cfstore.insert('ks', 'tl', 'user' || (i % 300),
         cfstore.min_timeuuid(timestamptz '2020-01-01' + i * interval '1 ms'),
         'value ' || i, writetime => i))
  FROM generate_series(1, 30000) i;
SELECT count(cfstore.insert('ks', 'sup', 'row' || (i % 7), (i % 100)::text, 'v' || i,
         writetime => i, super_column => 'sc' || (i % 13)))
  FROM generate_series(1, 3000) i;
SELECT count(cfstore.add('ks', 'cnt', 'c' || (i % 10), 'n' || (i % 3), i)) FROM generate_series(1, 500) i;
SELECT cfstore.remove('ks', 'tl', 'user5', writetime => 15000);
SELECT cfstore.remove('ks', 'sup', 'row3', super_column => 'sc4', writetime => 2000);
SELECT cfstore.remove_counter('ks', 'cnt', 'c3', 'n1');
SELECT cfstore.insert('ks', 'tl', 'ttl', cfstore.timeuuid_now(), 'short', ttl => 1);
-- long keys, names and values live in overflow pages
SELECT count(cfstore.insert('ks', 'big', repeat('k', 400) || (i % 5), repeat('n', 500) || i,
         repeat(md5(i::text), 100 + i), writetime => i))
  FROM generate_series(1, 60) i;
SELECT cfstore.remove('ks', 'big', repeat('k', 400) || '1', writetime => 30);
SELECT cfstore.remove('ks', 'big', repeat('k', 400) || '2', repeat('n', 500) || '52', writetime => 100);
-- a row whose first 3,000 columns expire: VACUUM empties and unlinks their leaves
SELECT count(cfstore.insert('ks', 'exp', 'a', i, 'a' || i)) FROM generate_series(1, 40) i;
SELECT count(cfstore.insert('ks', 'exp', 'b', i, repeat('x', 40), ttl => CASE WHEN i <= 3000 THEN 1 END))
  FROM generate_series(1, 4000) i;
SELECT count(cfstore.insert('ks', 'exp', 'c', i, 'c' || i)) FROM generate_series(1, 40) i;
-- compressed documents: the first becomes the dictionary (metapage and chain replayed)
SELECT count(cfstore.insert('ks', 'zip', 'z' || (i % 10), 'd' || i,
         format('{"id": %s, "user": "user%s", "lang": "en", "text": "%s"}', i, i % 17, repeat(md5(i::text), 2))))
  FROM generate_series(1, 2000) i;
});
sleep(2);

my $checks = q{
SELECT md5(string_agg(s::text, ',' ORDER BY k))
  FROM generate_series(0, 299) k,
       LATERAL cfstore.get_slice('ks', 'tl', 'user' || k, count => 1000) s;
SELECT md5(string_agg(s::text, ',' ORDER BY k))
  FROM generate_series(0, 299, 7) k,
       LATERAL cfstore.get_slice('ks', 'tl', 'user' || k, reversed => true, count => 10) s;
SELECT md5(string_agg(s::text, ','))
  FROM generate_series(0, 6) k, LATERAL cfstore.get_slice('ks', 'sup', 'row' || k, count => 1000) s;
SELECT string_agg(s.key || '/' || s.column_name || '=' || s.value, ',')
  FROM generate_series(0, 9) k, LATERAL cfstore.get_slice('ks', 'cnt', 'c' || k) s;
SELECT md5(string_agg(s::text, ',' ORDER BY k))
  FROM generate_series(0, 4) k, LATERAL cfstore.get_slice('ks', 'big', repeat('k', 400) || k, count => 1000) s;
SELECT md5(string_agg(s::text, ',')) FROM unnest(ARRAY['a', 'b', 'c']) k,
       LATERAL cfstore.get_slice('ks', 'exp', k, count => 10000) s;
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('ks', 'exp', 'b', start => 1500::bigint, count => 3);
SELECT string_agg(column_name, ',')
  FROM cfstore.get_slice('ks', 'exp', 'b', start => 3002::bigint, count => 3, reversed => true);
SELECT count(*) FROM cfstore.get_slice('ks', 'tl', 'ttl');
SELECT count(*) FROM cfstore.get_slice('ks', 'tl', 'user5');
SELECT md5(string_agg(s::text, ',' ORDER BY k)), count(*)
  FROM generate_series(0, 9) k, LATERAL cfstore.get_slice('ks', 'zip', 'z' || k, count => 1000) s;
};
my $on_primary = $primary->safe_psql('postgres', $checks);
$primary->wait_for_catchup($standby);
my $on_standby = $standby->safe_psql('postgres', $checks);
is($on_standby, $on_primary, 'the standby returns the same slices as the primary');
like($on_primary, qr/\n0\n50\n[0-9a-f]{32}\|2000$/, 'the expired row is empty, the removed one holds its 50 newer cells');

# Reads set hint flags inside cell runs, which are not WAL-logged (as heap's
# are not) and which generic_mask cannot mask: stop checking from here on.
$primary->safe_psql('postgres', q{ALTER SYSTEM SET wal_consistency_checking = ''});
$primary->reload;

my $stats = q{SELECT cell_versions || '/' || tombstones FROM cfstore.stats('ks', 'tl');
SELECT cell_versions || '/' || tombstones FROM cfstore.stats('ks', 'big');
SELECT cell_versions FROM cfstore.stats('ks', 'cnt');
SELECT leaf_pages FROM cfstore.stats('ks', 'exp')};
my $before = $primary->safe_psql('postgres', $stats);
# the standby's feedback holds VACUUM's horizon: wait until it is past the load
my $xid = $primary->safe_psql('postgres', 'SELECT txid_current()');
$primary->wait_for_catchup($standby);
$primary->poll_query_until('postgres',
	qq{SELECT xmin::text::bigint > $xid FROM pg_replication_slots WHERE slot_name = 'standby'})
  or die 'the standby\'s feedback xmin did not advance';
$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false)');
my $after = $primary->safe_psql('postgres', $stats);
isnt($after, $before, "VACUUM compacts (versions/tombstones: $before -> $after)");
# VACUUM freed the overflow pages of the removed long values: new ones take
# them (and the standby reads them, below)
my $big_size = q{SELECT pg_relation_size(cfstore._storage_relation('ks', 'big'))};
my $size = $primary->safe_psql('postgres', $big_size);
$primary->safe_psql('postgres', q{SELECT count(cfstore.insert('ks', 'big', repeat('k', 400) || '0',
  'after' || i, repeat(md5(i::text), 190), writetime => 200)) FROM generate_series(1, 3) i});
is($primary->safe_psql('postgres', $big_size), $size, 'long values written after VACUUM take the pages it freed');
$primary->safe_psql('postgres', q{SELECT cfstore.insert('ks', 'tl', 'late', cfstore.timeuuid_now(), 'x')});
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $checks), $primary->safe_psql('postgres', $checks),
	'the same after VACUUM and more writes');
is($standby->safe_psql('postgres', $stats), $primary->safe_psql('postgres', $stats),
	'the standby holds the compacted pages');
is($standby->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'tl'); SELECT cfstore.verify('ks', 'sup');
SELECT cfstore.verify('ks', 'big'); SELECT cfstore.verify('ks', 'exp')}),
	"\n\n\n", 'the standby\'s copy verifies');

# The expired columns' leaves left the tree; once the standby's snapshots
# (through its feedback) and the primary's are past the unlinks, the next
# VACUUM frees them and new columns take them, on the standby too.  (The
# VACUUMs keep the length of the file, TRUNCATE false: otherwise VACUUM
# moves tree pages into the freed leaves and cuts the file, TAP 022.)
my $exp_leaves = q{SELECT leaf_pages FROM cfstore.stats('ks', 'exp')};
cmp_ok($primary->safe_psql('postgres', $exp_leaves), '<', 15, 'VACUUM unlinked the emptied leaves');
$xid = $primary->safe_psql('postgres', 'SELECT txid_current()');
$primary->wait_for_catchup($standby);
$primary->poll_query_until('postgres',
	qq{SELECT xmin::text::bigint > $xid FROM pg_replication_slots WHERE slot_name = 'standby'})
  or die 'the standby\'s feedback xmin did not advance';
$primary->safe_psql('postgres', 'VACUUM (TRUNCATE false)');
my $exp_size = q{SELECT pg_relation_size(cfstore._storage_relation('ks', 'exp'))};
$size = $primary->safe_psql('postgres', $exp_size);
$primary->safe_psql('postgres', q{SELECT count(cfstore.insert('ks', 'exp', 'b', i, repeat('y', 40)))
  FROM generate_series(1, 999) i});
is($primary->safe_psql('postgres', $exp_size), $size, 'new columns take the freed leaves');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $checks), $primary->safe_psql('postgres', $checks),
	'the standby returns the same slices after the freed leaves are reused');
is($standby->safe_psql('postgres', q{SELECT cfstore.verify('ks', 'exp')}), '', 'and its copy verifies');
$standby->stop;
$primary->safe_psql('postgres', q{SELECT pg_drop_replication_slot('standby')});

# Crash in the middle of committed batches.
$primary->safe_psql('postgres', 'CREATE TABLE batches (n integer PRIMARY KEY)');
my ($stdin, $stdout, $stderr) = ('', '', '');
my $h = IPC::Run::start(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $primary->connstr('postgres') ],
	'<', \$stdin, '>', \$stdout, '2>', \$stderr);
for my $b (1 .. 400)
{
	$stdin .= qq{BEGIN;
SELECT count(cfstore.insert('ks', 'tl', 'crash' || (i % 50), cfstore.min_timeuuid(timestamptz '2021-01-01' + ($b * 1000 + i) * interval '1 ms'), 'b$b', writetime => $b)) FROM generate_series(1, 100) i;
SELECT cfstore.insert('ks', 'zip', 'crash', 'b$b', format('{"batch": %s, "text": "%s"}', $b, repeat(md5('$b'), 3)));
INSERT INTO batches VALUES ($b);
COMMIT;
};
}
$h->pump_nb;
# let some batches commit, then crash
my $tries = 0;
while ($tries++ < 300)
{
	my $n = $primary->safe_psql('postgres', 'SELECT count(*) FROM batches');
	last if $n >= 20;
	sleep(0.1);
	$h->pump_nb;
}
$primary->stop('immediate');
$h->kill_kill;
$primary->start;

my $committed = $primary->safe_psql('postgres', 'SELECT count(*) FROM batches');
ok($committed >= 20, "batches committed before the crash: $committed");
my $cells = $primary->safe_psql('postgres', q{
SELECT count(*) FROM generate_series(0, 49) k, LATERAL cfstore.get_slice('ks', 'tl', 'crash' || k, count => 1000000) s});
is($cells, $committed * 100, 'every committed cell is there, nothing else');
is($primary->safe_psql('postgres', q{
SELECT count(*) FROM generate_series(0, 49) k, LATERAL cfstore.get_slice('ks', 'tl', 'crash' || k, count => 1000000) s
 WHERE substr(s.value, 2)::int NOT IN (SELECT n FROM batches)}), '0', 'no cell of an unfinished batch');
# A crash between a split's two WAL records leaves the split unfinished,
# which verify names; VACUUM finishes it (007, 009 make that case exactly).
my ($vrc, $vout, $verr) = $primary->psql('postgres', q{SELECT cfstore.verify('ks', 'tl')});
if ($verr =~ /a split was left unfinished/)
{
	note("the crash interrupted a split: $verr");
	$primary->safe_psql('postgres', 'VACUUM ' . $primary->safe_psql('postgres',
		q{SELECT cfstore._storage_relation('ks', 'tl')}));
	($vrc, $vout, $verr) = $primary->psql('postgres', q{SELECT cfstore.verify('ks', 'tl')});
}
is($vrc, 0, 'verify passes after the crash') or diag($verr);
is($primary->safe_psql('postgres', q{
SELECT count(*), count(*) FILTER (WHERE s.value = format('{"batch": %s, "text": "%s"}', substr(s.column_name, 2),
                                                      repeat(md5(substr(s.column_name, 2)), 3)))
  FROM cfstore.get_slice('ks', 'zip', 'crash', count => 1000) s}), "$committed|$committed",
	'every committed compressed value reads back whole after the crash');

# and writing goes on
$primary->safe_psql('postgres', q{SELECT cfstore.insert('ks', 'tl', 'crash1', cfstore.timeuuid_now(), 'after')});
is($primary->safe_psql('postgres', q{SELECT count(*) FROM cfstore.get_slice('ks', 'tl', 'crash1', count => 100000)}),
	$committed * 2 + 1, 'writes continue after recovery');
$primary->stop;
done_testing();
