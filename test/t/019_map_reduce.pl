# The seed's map-reduce job over a sharded column family
# (cfstore_shard.map_reduce): 200,000 posts, each with 3 to 5 of 43 tags,
# sharded over two servers; the tag counts must equal a GROUP BY over
# the same posts on one node, every post must be read once on some shard,
# and no more than one row per tag and shard may reach the coordinator.
# Also: the output column family, who may run a job, what a map and a
# reduce may be, and a shard that is down.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use CfShard;

my %node = start_nodes(qw(coordinator shard1 shard2));
$node{$_}->safe_psql('postgres', 'CREATE EXTENSION cfstore; CREATE ROLE alice') for qw(shard1 shard2);
my $co = $node{coordinator};
$co->safe_psql('postgres', 'CREATE EXTENSION cfstore_shard CASCADE; CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN');
for my $s (1, 2)
{
	my ($ret, $out, $err) = add_server($co, 'postgres', "s$s", $node{"shard$s"}, 'postgres');
	die $err if $ret != 0;
}
$co->safe_psql('postgres', q{SELECT cfstore_shard.create_cluster(8);
GRANT CREATE ON DATABASE postgres TO alice;
SET ROLE alice;
SELECT cfstore.create_keyspace('Blog');
SELECT cfstore.create_column_family('Blog', 'Posts', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
  default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Blog', 'Tags', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
  default_validation_class => 'LongType');
RESET ROLE;
SELECT cfstore_shard.shard_keyspace('Blog');});

# The seed's posts: id, content, and 3 to 5 distinct tags of 43, as a JSON array.
$co->safe_psql('postgres', q{
SELECT setseed(0.27);
CREATE TABLE posts AS
SELECT i AS id, 'data for content ' || i AS content,
       (SELECT jsonb_agg('tag' || t) FROM (SELECT t FROM generate_series(1, 43) t ORDER BY random() LIMIT 3 + i % 3) x) AS tags
  FROM generate_series(0, 199999) i;
GRANT SELECT ON posts TO alice;
SET ROLE alice;
SELECT count(*) FROM (SELECT cfstore.insert('Blog', 'Posts', id::text, 'content', content),
                             cfstore.insert('Blog', 'Posts', id::text, 'tags', tags::text) FROM posts) x;});

my $map = q{$$SELECT tag, 1 FROM jsonb_array_elements_text((doc ->> 'tags')::jsonb) tag$$};
my $job = qq{cfstore_shard.map_reduce('Blog', 'Posts', $map, 'sum(value)', 'Tags')};
my $report = $co->safe_psql('postgres', "SET ROLE alice; SELECT $job");
note($report);
my $check = sub {
	my ($sql) = @_;
	return $co->safe_psql('postgres', "SELECT ($sql) FROM (SELECT '$report'::jsonb AS r) x");
};
is($check->(q{r -> 'result'}), '"Tags"', 'the job names its output column family');
is($check->(q{r #>> '{counts,input}'}), 200000, 'every post was read once');
is($check->(q{(SELECT sum((v ->> 'input')::int) FROM jsonb_each(r -> 'shardCounts') s(k, v))}), 200000,
	'the shards\' input counts add up to 200,000');
is($check->(q{(SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_each(r -> 'shardCounts') s(k, v) WHERE (v ->> 'input')::int > 80000)}),
	's1,s2', 'both shards mapped their share');
is($check->(q{r #>> '{counts,emit}'}), $co->safe_psql('postgres', 'SELECT sum(jsonb_array_length(tags)) FROM posts'),
	'every tag of every post was emitted');
is($check->(q{r #>> '{counts,output}'}), 43, 'the output has 43 tags');
cmp_ok($check->(q{r #>> '{counts,received}'}), '<=', 2 * 43, 'the coordinator received at most shards x 43 rows');
ok($check->(q{r ? 'timing' AND r ? 'timeMillis'}) eq 't', 'and the report gives the timing');

my $expected = $co->safe_psql('postgres',
	q{SELECT string_agg(tag || '=' || n, ',' ORDER BY tag COLLATE "C") FROM (SELECT tag, count(*) n FROM posts, jsonb_array_elements_text(tags) tag GROUP BY tag) g});
is($co->safe_psql('postgres', q{SELECT string_agg(key || '=' || value, ',' ORDER BY key) FROM "Blog"."Tags"}), $expected,
	'the tag counts in the output column family equal GROUP BY on one node');
my $inline = $co->safe_psql('postgres', "SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts', $map, 'sum(value)') -> 'result'");
is($co->safe_psql('postgres', qq{SELECT string_agg((e ->> '_id') || '=' || (e ->> 'value'), ',' ORDER BY e ->> '_id' COLLATE "C")
  FROM jsonb_array_elements('$inline'::jsonb) e}), $expected, 'and so do the inline results');
# a second job replaces the output
$co->safe_psql('postgres', q{SET ROLE alice; SELECT cfstore.insert('Blog', 'Tags', 'stale', 'value', 1)});
$co->safe_psql('postgres', "SET ROLE alice; SELECT $job");
is($co->safe_psql('postgres', q{SELECT count(*) FROM "Blog"."Tags"}), 43, 'a job replaces its output column family');
# other aggregates: the reduce runs on each shard, then again on the coordinator
is($co->safe_psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$SELECT length(doc ->> 'content') % 3, row_key::bigint\$\$, 'max(value)') -> 'result'}),
	$co->safe_psql('postgres', q{SELECT jsonb_agg(jsonb_build_object('_id', k::text, 'value', m) ORDER BY k::text)
  FROM (SELECT length(content) % 3 AS k, max(id)::bigint AS m FROM posts GROUP BY 1) g}), 'max() reduces as well');
my $odd = $co->safe_psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$SELECT CASE WHEN row_key::int % 2 = 1 THEN 'odd' END, 1\$\$, 'sum(value)')});
is($co->safe_psql('postgres', qq{SELECT r -> 'result', r #> '{counts,input}', r #> '{counts,emit}' FROM (SELECT '$odd'::jsonb AS r) x}),
	'[{"_id": "odd", "value": 100000}]|200000|100000', 'pairs with a NULL key are dropped, and counted as not emitted');

# who may run a job, and what a job may be
my ($ret, $out, $err) = $co->psql('postgres', "SET ROLE bob; SELECT $job");
like($err, qr/permission denied to run map_reduce over keyspace Blog/, 'only the keyspace owner may run a job');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  'SELECT 1, 1; DROP TABLE posts', 'sum(value)')});
like($err, qr/map must be one SELECT/, 'a map of two statements is refused');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts', $map,
  'sum(value)) AS value, 0 FROM pg_class GROUP BY 1) x, LATERAL (SELECT 1')});
like($err, qr/^psql:<stdin>:\d+: ERROR:  reduce of a map-reduce job: syntax error at or near "\)"/,
	'a reduce that breaks out of its parentheses is refused, on the coordinator');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts', $map,
  'sum(value) FROM pg_class')});
like($err, qr/reduce must be one expression/, 'a reduce that is not one expression is refused');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$SELECT set_config('role', 'postgres', true), 1\$\$, 'sum(value)')});
like($err, qr/REMOTE ERROR: cannot set parameter "role" within security-definer function/,
	'a map cannot take the cluster user\'s rights on the shards');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$WITH d AS (DELETE FROM "Blog"."Posts" RETURNING key) SELECT key, 1 FROM d\$\$, 'sum(value)')});
isnt($ret, 0, 'a map that writes is refused');
is($node{shard1}->safe_psql('postgres', q{SELECT count(DISTINCT key) > 80000 FROM "Blog"."Posts"}), 't', 'and wrote nothing');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$SELECT 'k', cfstore.insert('Blog', 'Posts', 'mapped', 'title', 'x')::text\$\$, 'max(value)')});
# (on the shards the map's role may only read; the map runs read-only as well)
like($err, qr/permission denied for column family Blog.Posts|cannot execute a write to column family Blog.Posts in a read-only transaction/,
	'a map that writes through a function is refused too');
is($node{shard1}->safe_psql('postgres', q{SELECT count(*) FROM cfstore.get_slice('Blog', 'Posts', 'mapped')}), 0,
	'and wrote nothing');
# what read-only does not stop ends with the map: a large object it makes is gone
is($co->safe_psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$SELECT 'lo', lo_from_bytea(0, 'x')::int % 1\$\$, 'sum(value)') -> 'result'}),
	'[{"_id": "lo", "value": 0}]', 'a map may make a large object');
is($node{shard1}->safe_psql('postgres', q{SELECT count(*) FROM pg_largeobject_metadata}), 0,
	'which does not outlive the map on the shards');
# a shard's keys outgrow work_mem: its result spills to a file, made before the map and kept past it
is($co->safe_psql('postgres', qq{SET ROLE alice; SELECT jsonb_array_length(cfstore_shard.map_reduce('Blog', 'Posts',
  \$\$SELECT row_key::text || repeat('k', 100), 1\$\$, 'sum(value)') -> 'result')}),
	200000, 'a job of one key per post');
# a map's settings end with it: the shards' connections, the cluster user's, keep theirs
is($co->safe_psql('postgres', qq{SET ROLE alice;
  SELECT count(*) FROM jsonb_each(cfstore_shard.map_reduce('Blog', 'Posts',
    \$\$SELECT set_config('statement_timeout', '1234', false), 1\$\$, 'sum(value)'));
  SELECT cfstore_shard.map_reduce('Blog', 'Posts', \$\$SELECT current_setting('statement_timeout'), 1\$\$,
    'sum(value)') -> 'result' -> 0 ->> '_id'}) =~ s/^\d+\n//r, '0',
  'a map\'s set_config does not outlive it on the shards');
($ret, $out, $err) = $co->psql('postgres', qq{SET ROLE alice; SELECT cfstore_shard.map_reduce('Blog', 'Posts', $map, 'sum(value)', 'Nope')});
like($err, qr/unconfigured columnfamily Nope/, 'an unknown output column family is refused');

# on a shard, the map's entry point is not anybody's
($ret, $out, $err) = $node{shard1}->psql('postgres', q{SET ROLE alice;
  SELECT * FROM cfstore._map_local(ARRAY[0], 'Blog', 'Posts', 'SELECT 1, 1', 'sum(value)', 'postgres')});
like($err, qr/permission denied for function _map_local/, 'a role on a shard cannot run a map as another role');
($ret, $out, $err) = $node{shard1}->psql('postgres', q{CREATE ROLE eve;
  SELECT * FROM cfstore._map_local(ARRAY[0], 'Blog', 'Posts', 'SELECT 1, 1', 'sum(value)', 'eve')});
like($err, qr/role eve may not read column family Blog.Posts here/, 'and a map runs only as a role that may read it');

# a shard that is down: an error naming it, no partial answer
$node{shard2}->stop;
($ret, $out, $err) = $co->psql('postgres', "SET ROLE alice; SELECT $job");
isnt($ret, 0, 'with a shard down the job fails');
like($err, qr/on the shard servers \(not answering: s2\)/, 'naming the shard');
$node{shard2}->start;
is($co->safe_psql('postgres', q{SELECT count(*) FROM "Blog"."Tags"}), 43,
	'and the output column family keeps the last job\'s output');

$node{$_}->stop for keys %node;
done_testing();
