-- cfstore demo, part 3: a keyspace sharded over two servers, and the
-- map-reduce of "scaling using mongodb: Map-Reduce on sharded collection".
-- Run by `scripts/dev.sh demo` on the coordinator database, with psql
-- variables host1, port1, host2, port2 naming the two shard servers (each
-- has a database cfstore_demo with extension cfstore).  README.md
-- "Scale-out" explains the set-up.
\set ON_ERROR_STOP on
\set QUIET on
CREATE EXTENSION cfstore_shard CASCADE;

\echo
\echo '######## A cluster of two shard servers, eight partitions of the key space'
SELECT cfstore_shard.add_server('shard1', 'cfstore_demo', host => :'host1', port => :port1);
SELECT cfstore_shard.add_server('shard2', 'cfstore_demo', host => :'host2', port => :port2);
SELECT cfstore_shard.create_cluster(8);
SELECT name AS server, port, (SELECT count(*) FROM cfstore_shard.partition p WHERE p.server = s.name) AS partitions
  FROM cfstore_shard.server s ORDER BY name;

\echo
\echo '######## The posts, sharded by id: 200,000 of them, each with 3 to 5 of 43 tags'
SELECT cfstore.create_keyspace('Posts');
SELECT cfstore.create_column_family('Posts', 'posts', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('Posts', 'tags', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'LongType');
SELECT cfstore_shard.shard_keyspace('Posts');
SELECT setseed(0.42);
\timing on
SELECT count(*) AS posts_written
  FROM (SELECT i, 'data for content ' || i AS content,
               (SELECT jsonb_agg('tag' || t) FROM (SELECT t FROM generate_series(1, 43) t
                                                    ORDER BY random() LIMIT 3 + i % 3) x) AS tags
          FROM generate_series(0, 199999) i) p,
       LATERAL (SELECT cfstore.insert('Posts', 'posts', i::text, 'content', content),
                       cfstore.insert('Posts', 'posts', i::text, 'tags', tags::text)) w;
\timing off
SELECT id AS post, (cfstore_shard.locate('Posts', 'posts', id)).*
  FROM unnest(ARRAY['0', '1', '2', '3']) id;

\echo
\echo '######## One post through the coordinator''s table: one shard, ORDER BY and LIMIT shipped'
SELECT column_name, value FROM "Posts".posts WHERE key = '1' ORDER BY column_name DESC LIMIT 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT column_name, value FROM "Posts".posts WHERE key = '1' ORDER BY column_name DESC LIMIT 1;

\echo
\echo '######## map-reduce: count the tags (out: "tags"), as the seed does'
SELECT jsonb_pretty(cfstore_shard.map_reduce('Posts', 'posts',
  map => $$SELECT tag, 1 FROM jsonb_array_elements_text((doc ->> 'tags')::jsonb) tag$$,
  reduce => 'sum(value)',
  out_column_family => 'tags')) AS result;
SELECT key AS "_id", value FROM "Posts".tags ORDER BY key LIMIT 10;
SELECT count(*) AS tags FROM "Posts".tags;
