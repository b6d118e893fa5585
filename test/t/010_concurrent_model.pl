# Several sessions write at once, and nothing is lost or wrong.
#
# Four pgbench clients write at random into the same few rows for ten
# seconds: columns with tied and out-of-order timestamps, values long
# enough to be stored out of line (whose overflow chains VACUUM frees once
# nothing refers to them), column and row tombstones, expiring cells,
# appends to TimeUUID timelines, writes and
# removals of a column with a KEYS index, and counter increments, one
# transaction in ten rolled back.  Each write is recorded
# in a plain table in the same transaction, so the record holds exactly
# the committed writes.  Meanwhile a fifth client runs VACUUM over and over
# and a sixth reads slices.  Afterwards every row is read whole and
# backwards, and the index searched for each value, and compared with the
# model that test/sql/include/model.sql derives from the record alone (as
# test/sql/storage_model.sql does for one session),
# on the primary and on a streaming standby; verify passes on every column
# family.  Then the writers start again and the primary crashes under
# them (immediate stop): after recovery the reads agree with the model of
# the writes that committed, on both servers, and after a VACUUM (which
# finishes the splits the crash interrupted) verify passes.  Counters are
# only incremented here: the model orders a removal and an increment by
# the order of the record, which is their timestamps' order only within
# one session.
#
# TESTDIR is the project folder (make installcheck) or a copy of its
# test/ folder's layout (scripts/dev.sh).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $model = "$ENV{TESTDIR}/test/sql/include/model.sql";
-f $model or BAIL_OUT("$model not found: TESTDIR must hold test/sql/include");

my $node = PostgreSQL::Test::Cluster->new('concurrent_model');
$node->init(allows_streaming => 1);
$node->append_conf('postgresql.conf', "autovacuum_naptime = 1\n");
$node->start;
$node->safe_psql('postgres', q{
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('ks');
SELECT cfstore.create_column_family('ks', 'Std', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ks', 'Tl', comparator => 'TimeUUIDType',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ks', 'Cnt', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('ks', 'Usr', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "state", "validation_class": "UTF8Type", "index_type": "KEYS"}]');
CREATE SEQUENCE tl_seq;
});
$node->safe_psql('postgres', slurp_file($model));
# One write, chosen by p, into cfstore and into the record.
$node->safe_psql('postgres', q{
CREATE FUNCTION conc_op(p int, r int, n int, ts int, len int, d int, ttlp int, client int)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k text := 'r' || r;
  name text := 'c' || lpad(n::text, 3, '0');
  -- unique: with the same value and timestamp, which of two TTLs wins is
  -- not defined (Cassandra keeps whichever it meets first)
  v text := 'v' || client || '-' || n || '-' || floor(random() * 1e9) || repeat('x', len);
  ttl integer := CASE ttlp WHEN 1 THEN 1 WHEN 2 THEN 100000 END;
BEGIN
  IF p <= 50 THEN
    IF len > 140 THEN
      -- stored out of line, in an overflow chain of one or two pages
      v := v || (SELECT string_agg(md5(v || g), '') FROM generate_series(1, 100 + 10 * (len - 140)) g);
    END IF;
    PERFORM cfstore.insert('ks', 'Std', k, name, v, writetime => ts, ttl => ttl);
    INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl) VALUES ('Std', k, name, 'ins', v, ts, ttl);
  ELSIF p <= 62 THEN
    PERFORM cfstore.remove('ks', 'Std', k, name, writetime => ts);
    INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Std', k, name, 'del', ts);
  ELSIF p <= 63 THEN
    PERFORM cfstore.remove('ks', 'Std', k, writetime => ts / 4);
    INSERT INTO model_ops (cf, key, kind, ts) VALUES ('Std', k, 'rowdel', ts / 4);
  ELSIF p <= 85 THEN
    name := cfstore.min_timeuuid('2020-01-01 UTC'::timestamptz + nextval('tl_seq') * interval '1 ms')::text;
    PERFORM cfstore.insert('ks', 'Tl', k, name::cfstore.timeuuid, v, writetime => ts, ttl => ttl);
    INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl) VALUES ('Tl', k, name, 'ins', v, ts, ttl);
  ELSIF p <= 90 THEN
    k := 'u' || n % 40;
    v := (ARRAY['CA', 'NY', 'TX', 'WA'])[1 + abs(d) % 4];
    PERFORM cfstore.insert('ks', 'Usr', k, 'state', v, writetime => ts, ttl => ttl);
    INSERT INTO model_ops (cf, key, name, kind, value, ts, ttl) VALUES ('Usr', k, 'state', 'ins', v, ts, ttl);
  ELSIF p <= 92 THEN
    k := 'u' || n % 40;
    PERFORM cfstore.remove('ks', 'Usr', k, 'state', writetime => ts);
    INSERT INTO model_ops (cf, key, name, kind, ts) VALUES ('Usr', k, 'state', 'del', ts);
  ELSE
    name := 'n' || n % 6;
    PERFORM cfstore.add('ks', 'Cnt', 'k' || r % 4, name, d);
    INSERT INTO model_ops (cf, key, name, kind, value) VALUES ('Cnt', 'k' || r % 4, name, 'add', d);
  END IF;
END $$;
});
# Each row read whole and backwards, by cfstore (got) and by the model (want).
$node->safe_psql('postgres', q{
CREATE FUNCTION conc_reads() RETURNS TABLE (what text, key text, got text, want text)
LANGUAGE sql AS $$
WITH keys AS (SELECT 'r' || n AS key FROM generate_series(0, 8) n),
live AS MATERIALIZED (SELECT * FROM model_live)
SELECT 'Std whole', k.key,
       (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
          FROM cfstore.get_slice('ks', 'Std', k.key, count => 100000) s),
       (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name)
          FROM live m WHERE m.cf = 'Std' AND m.key = k.key)
  FROM keys k
UNION ALL
SELECT 'Std last 20', k.key,
       (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
          FROM cfstore.get_slice('ks', 'Std', k.key, reversed => true, count => 20) s),
       (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
          (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.name AS n
             FROM live m WHERE m.cf = 'Std' AND m.key = k.key ORDER BY m.name DESC LIMIT 20) x)
  FROM keys k
UNION ALL
SELECT 'Tl whole', k.key,
       (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
          FROM cfstore.get_slice('ks', 'Tl', k.key, count => 1000000) s),
       (SELECT string_agg(model_line(NULL, m.name, m.value, m.ts, m.ttl), ' ' ORDER BY m.name::cfstore.timeuuid)
          FROM live m WHERE m.cf = 'Tl' AND m.key = k.key)
  FROM keys k
UNION ALL
SELECT 'Tl last 50', k.key,
       (SELECT string_agg(model_line(NULL, s.column_name, s.value, s.writetime, s.ttl), ' ')
          FROM cfstore.get_slice('ks', 'Tl', k.key, reversed => true, count => 50) s),
       (SELECT string_agg(l, ' ' ORDER BY n DESC) FROM
          (SELECT model_line(NULL, m.name, m.value, m.ts, m.ttl) AS l, m.name::cfstore.timeuuid AS n
             FROM live m WHERE m.cf = 'Tl' AND m.key = k.key ORDER BY 2 DESC LIMIT 50) x)
  FROM keys k
UNION ALL
SELECT 'Cnt whole', k.key,
       (SELECT string_agg(s.column_name || '=' || s.value, ' ')
          FROM cfstore.get_slice('ks', 'Cnt', k.key) s),
       (SELECT string_agg(c.name || '=' || c.total, ' ' ORDER BY c.name)
          FROM model_counters c WHERE c.cf = 'Cnt' AND c.key = k.key)
  FROM (SELECT 'k' || n AS key FROM generate_series(0, 4) n) k
UNION ALL
-- the index finds exactly the rows whose live state matches
SELECT 'Usr state = ' || st, '*',
       (SELECT string_agg(g.key, ' ') FROM cfstore.get_indexed_slices('ks', 'Usr',
          jsonb_build_array(jsonb_build_object('column_name', 'state', 'op', 'EQ', 'value', st)),
          key_count => 1000, count => 1) g),
       (SELECT string_agg(m.key, ' ' ORDER BY m.key) FROM live m
         WHERE m.cf = 'Usr' AND m.name = 'state' AND m.value = st)
  FROM unnest(ARRAY['CA', 'NY', 'TX', 'WA']) st
$$;
});
my $reads = q{SELECT reads || ' reads, differences: ' || coalesce(first_differences, 'none')
  FROM model_check('conc_reads')};
my $agree = '45 reads, differences: none';

$node->backup('bk');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'bk', has_streaming => 1);
$standby->start;

my ($std, $tl, $cnt, $usr) = split /\|/, $node->safe_psql('postgres',
	q{SELECT cfstore._storage_relation('ks', 'Std'), cfstore._storage_relation('ks', 'Tl'),
	         cfstore._storage_relation('ks', 'Cnt'), cfstore._storage_relation('ks', 'Usr')});

my %scripts = (
	write => [
		4, q{\set p random(1, 100)
\set r random(0, 7)
\set n random(0, 399)
\set ts random(0, 30)
\set len random(0, 150)
\set d random(-50, 100)
\set ttlp random(1, 20)
\set rb random(1, 10)
BEGIN;
SELECT conc_op(:p, :r, :n, :ts, :len, :d, :ttlp, :client_id);
\if :rb = 1
ROLLBACK;
\else
COMMIT;
\endif
}
	],
	vacuum => [ 1, "VACUUM (VERBOSE) $std, $tl, $cnt, $usr;\n\\sleep 200 ms\n" ],
	read => [
		1, q{\set r random(0, 7)
SELECT count(*) FROM cfstore.get_slice('ks', 'Std', 'r' || :r, count => 1000);
SELECT count(*) FROM cfstore.get_slice('ks', 'Tl', 'r' || :r, reversed => true, count => 50);
}
	]);
# Start the scripts' clients for $seconds; returns their handles.
my $start = sub {
	my ($seconds, @names) = @_;
	my @runs;
	for my $name (@names)
	{
		my ($clients, $script) = @{ $scripts{$name} };
		my $file = $node->basedir . "/$name.sql";
		unlink $file;
		append_to_file($file, $script);
		my ($out, $err) = ('', '');
		my $h = IPC::Run::start(
			[
				'pgbench', '-n', '-c', $clients, '-j', $clients, '-T', $seconds, '-f', $file,
				'-h', $node->host, '-p', $node->port, 'postgres'
			],
			'>', \$out, '2>', \$err,
			IPC::Run::timeout(180));
		push @runs, [ $name, $h, \$out, \$err ];
	}
	return @runs;
};
# Wait for the runs; whether each ended without an error and ran.
my $wait = sub {
	my ($expect_error, @runs) = @_;
	my $hung = 0;
	for my $run (@runs)
	{
		my ($name, $h, $out, $err) = @$run;
		if (!eval { $h->finish; 1 })
		{
			$h->kill_kill;
			fail("$name ends in time");
			diag($@);
			$hung = 1;
			next;
		}
		is($h->result(0), 0, "$name ends in time, without an error") or diag($$out, $$err)
		  unless $expect_error;
		my ($tx) = $$out =~ /number of transactions actually processed: (\d+)/;
		note("$name: " . ($tx // 0) . ' transactions');
		cmp_ok($tx // 0, '>', 0, "$name ran") unless $expect_error;
	}
	if ($hung)
	{
		# backends waiting for buffer locks cannot be stopped otherwise
		$node->stop('immediate');
		done_testing();
		exit;
	}
};
my $counts = q{SELECT string_agg(cf || ' ' || kind || ' ' || n, ', ' ORDER BY cf, kind)
  FROM (SELECT cf, kind, count(*) AS n FROM model_ops GROUP BY cf, kind) x};

my @first = $start->(10, sort keys %scripts);
$wait->(0, @first);
# VACUUM VERBOSE's reports went to the vacuum client's stderr
{
	my ($vacuum) = grep { $_->[0] eq 'vacuum' } @first;
	my $freed = 0;
	$freed += $1 while ${ $vacuum->[3] } =~ /(\d+) overflow pages freed/g;
	note("overflow pages freed: $freed");
	cmp_ok($freed, '>', 0, 'VACUUM freed overflow chains of long values while the writers ran');
}
# the expiring cells of TTL 1 are past their time
sleep 2;
note($node->safe_psql('postgres', $counts));
cmp_ok($node->safe_psql('postgres', q{SELECT count(*) FROM model_ops}), '>', 2000,
	'the clients committed thousands of writes');
cmp_ok($node->safe_psql('postgres', q{SELECT leaf_pages FROM cfstore.stats('ks', 'Std')}), '>', 16,
	'the rows span pages');
is($node->safe_psql('postgres', $reads), $agree, 'every read returns what the model of the committed writes says');
cmp_ok($node->safe_psql('postgres', q{SELECT count(want) FROM conc_reads()}), '>=', 35,
	'nearly every read has cells to return');
for my $cf (qw(Std Tl Cnt Usr))
{
	is($node->safe_psql('postgres', qq{SELECT cfstore.verify('ks', '$cf')}), '', "verify passes on $cf");
}
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $reads), $agree, 'and on the standby');

# The writers again, and the primary crashes under them.
my $before = $node->safe_psql('postgres', q{SELECT count(*) FROM model_ops});
my @crashed = $start->(30, 'write');
sleep 5;
$node->stop('immediate');
$wait->(1, @crashed);
$node->start;
sleep 2;
note($node->safe_psql('postgres', $counts));
cmp_ok($node->safe_psql('postgres', q{SELECT count(*) FROM model_ops}), '>', $before + 1000,
	'thousands of writes committed before the crash');
is($node->safe_psql('postgres', $reads), $agree, 'after the crash every read returns what the model says');
my (undef, undef, $vacuum_out) = $node->psql('postgres', "VACUUM (VERBOSE) $std, $tl, $cnt, $usr");
note($_) for grep { /splits left unfinished/ } split /\n/, $vacuum_out;
for my $cf (qw(Std Tl Cnt Usr))
{
	is($node->safe_psql('postgres', qq{SELECT cfstore.verify('ks', '$cf')}), '',
		"verify passes on $cf after a VACUUM");
}
is($node->safe_psql('postgres', $reads), $agree, 'and after the VACUUM');
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $reads), $agree, 'and on the standby');

$standby->stop;
$node->stop;
done_testing();
