# One row of 1,000,000 cells: it spans thousands of leaf pages, slices from
# its middle and its end return the right columns, a full count sees every
# cell, verify passes, and reading it all does not grow the backend's
# memory with the row (slices decode cells in place, one page at a time;
# get_slice's result spills to disk past work_mem).
#
# The row: key 'wide', LongType names 1..1,000,000, 32-byte UTF8 values,
# writetime = name, so 48 bytes of name, value and timestamp per cell and
# about 48 MB for the row (34-35 bytes per cell on disk, about 35 MB).
# It is loaded with COPY into the storage relation, in name order.
#
# Measured on a 2-core machine: load 4 s, whole test 7 s.  Peak RSS
# (VmHWM) of the reading backend: 20.6 MB before, 42.0 MB after a full
# forward and a full reversed count, 21 MB of growth, of which 13 MB are
# shared buffers it has touched (RssShmem 5 MB -> 18 MB), the rest
# work_mem-sized sort and tuplestore buffers; bound 64 MB.  The bound
# catches a read that keeps the row in memory: with work_mem = 1GB
# get_slice's tuplestore holds the million rows, and the forward count
# alone grew VmHWM by about 120 MB (with 128 MB of shared buffers).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $ncells = 1_000_000;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
# The backend's RSS includes the shared buffers it has touched: keep them
# small so that VmHWM shows the backend's own memory, not the cache.
$node->append_conf('postgresql.conf', q{
shared_buffers = 16MB
work_mem = 4MB
});
$node->start;

$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('Big');
SELECT cfstore.create_column_family('Big', 'Wide', comparator => 'LongType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
});
my $rel = $node->safe_psql('postgres', q{SELECT cfstore._storage_relation('Big', 'Wide')});
my $tmp = PostgreSQL::Test::Utils::tempdir;

# COPY (binary) into the storage relation: key, super_column, column_name,
# value, writetime, ttl, expires_at
my $t0 = time;
$node->safe_psql('postgres', qq{
COPY (SELECT convert_to('wide', 'UTF8'), NULL::bytea, int8send(i),
             convert_to('value ' || lpad(i::text, 26, '0'), 'UTF8'), i, NULL::int, NULL::int
        FROM generate_series(1::bigint, $ncells) i)
  TO '$tmp/wide.copy' WITH (FORMAT binary);
COPY $rel FROM '$tmp/wide.copy' WITH (FORMAT binary);
});
note('load: ' . (time - $t0) . ' s');

my ($pages, $leaves, $live) = split /\|/, $node->safe_psql('postgres',
	q{SELECT pages, leaf_pages, live_cells FROM cfstore.stats('Big', 'Wide')});
is($live, $ncells, 'stats: 1,000,000 live cells');
cmp_ok($leaves, '>', 2000, "stats: the row spans many leaf pages ($leaves of $pages)");
is($node->safe_psql('postgres', q{SELECT cfstore.verify('Big', 'Wide')}), '', 'verify passes');

# a slice from the middle: 100 names from a start bound
is($node->safe_psql('postgres', q{
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Big', 'Wide', 'wide',
    start => 500000::bigint, count => 100)}),
	join(',', 500000 .. 500099), 'a slice from the middle returns the next 100 names');
# the same with a bound that is not a column
is($node->safe_psql('postgres', q{
SELECT string_agg(column_name || '=' || value, ',') FROM cfstore.get_slice('Big', 'Wide', 'wide',
    start => 750000::bigint, finish => 750002::bigint)}),
	join(',', map { "$_=value " . sprintf('%026d', $_) } 750000 .. 750002),
	'a bounded slice returns names and values');
# reversed from the end, and reversed from a start bound in the middle
is($node->safe_psql('postgres', q{
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Big', 'Wide', 'wide',
    reversed => true, count => 100)}),
	join(',', reverse($ncells - 99 .. $ncells)), 'a reversed slice returns the last 100 names');
is($node->safe_psql('postgres', q{
SELECT string_agg(column_name, ',') FROM cfstore.get_slice('Big', 'Wide', 'wide',
    start => 300000::bigint, reversed => true, count => 5)}),
	join(',', reverse(299996 .. 300000)), 'a reversed slice from the middle');

# Everything, forward and reversed, in one backend whose peak RSS is read
# before and after.  A backend that held the row in memory would grow by
# far more than the bound.
my $hwm = q{SELECT (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'),
                                   'VmHWM:\s*(\d+) kB'))[1]::bigint,
                   (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'),
                                   'RssShmem:\s*(\d+) kB'))[1]::bigint};
my $out = $node->safe_psql('postgres', qq{
SELECT count(*) FROM cfstore.get_slice('Big', 'Wide', 'wide', count => 10);
$hwm;
SELECT count(*), min(column_name::bigint), max(column_name::bigint), count(DISTINCT column_name)
  FROM cfstore.get_slice('Big', 'Wide', 'wide', count => 2000000);
SELECT count(*) FROM cfstore.get_slice('Big', 'Wide', 'wide', reversed => true, count => 2000000);
$hwm;
});
my ($warm, $before, $all, $rev, $after) = split /\n/, $out;
my ($shm_before, $shm_after);
($before, $shm_before) = split /\|/, $before;
($after, $shm_after) = split /\|/, $after;
is($all, "$ncells|1|$ncells|$ncells", 'get_slice with count 2,000,000 returns every cell once');
is($rev, $ncells, 'and reversed too');
my $growth = ($after - $before) / 1024;
note(sprintf('VmHWM before %d kB, after %d kB: %.1f MB of growth (RssShmem %d kB -> %d kB)',
	$before, $after, $growth, $shm_before, $shm_after));
cmp_ok($growth, '<', 64, 'peak RSS grows by less than 64 MB while reading the whole row');

$node->stop;
done_testing();
