-- cfstore demo: the seed applications' schemas (the blog and Twissandra)
-- and TimeUUID timelines.  Run by `scripts/dev.sh demo` in a fresh
-- database; psql's working directory is the project folder.
\set ON_ERROR_STOP on
\pset footer off
CREATE EXTENSION cfstore;
SET search_path = public, cfstore;

\echo
\echo '== 1. The blog (BloggyAppy), loaded from its Cassandra 0.6 storage-conf.xml'
\set blog_conf `cat examples/blog/storage-conf.xml`
SELECT * FROM cfstore.load_storage_conf(:'blog_conf');
SELECT cf->>'name' AS column_family, cf->>'column_type' AS type,
       cf->>'comparator_type' AS comparator, cf->>'subcomparator_type' AS subcomparator
FROM jsonb_array_elements(cfstore.describe_keyspace('BloggyAppy')->'cf_defs') AS cf;

\echo
\echo '== 2. Twissandra, declared the cassandra-cli way'
\o /dev/null
\i examples/twissandra/schema.sql
\o
SELECT cf->>'name' AS column_family, cf->>'comparator_type' AS comparator,
       cf->'column_metadata' AS column_metadata
FROM jsonb_array_elements(cfstore.describe_keyspace('Twissandra')->'cf_defs') AS cf;

\echo
\echo '== 3. Cassandra types: encodings, text forms and comparator orders'
SELECT t AS type, v AS text_form, cfstore.to_bytes(t, v) AS encoding
FROM (VALUES ('LongType', '42'), ('IntegerType', '-129'), ('DecimalType', '1.50'),
             ('DateType', '2010-08-12 12:00:00.000Z'),
             ('CompositeType(UTF8Type, LongType)', 'hvac:42'),
             ('CompositeType(UTF8Type, LongType)', 'hvac:!')) AS x(t, v);
SELECT 'LexicalUUIDType: 80.. vs 7f..' AS comparison,
       cfstore.compare('LexicalUUIDType', '\x80000000000000000000000000000000',
                       '\x7fffffffffffffffffffffffffffffff') AS result
UNION ALL
SELECT 'DateType: -1 ms vs +1 ms',
       cfstore.compare('DateType', cfstore.to_bytes('DateType', '-1'), cfstore.to_bytes('DateType', '1'))
UNION ALL
SELECT 'IntegerType: 00000001 vs 01', cfstore.compare('IntegerType', '\x00000001', '\x01');

\echo
\echo '== 4. A timeline keyed by TimeUUIDs: ORDER BY is time order'
CREATE TEMP TABLE userline (username text, tweet_id cfstore.timeuuid, body text,
                            PRIMARY KEY (username, tweet_id));
INSERT INTO userline
SELECT 'jsmith', min_timeuuid(timestamptz '2010-08-12 12:00:00+00' + n * interval '7 minutes'),
       'tweet #' || n
FROM generate_series(1, 20) n;
\echo 'latest 5 tweets of jsmith (a reversed slice):'
SELECT timeuuid_time(tweet_id) AT TIME ZONE 'UTC' AS tweeted_at, body
FROM userline WHERE username = 'jsmith' ORDER BY tweet_id DESC LIMIT 5;
\echo 'tweets between 13:00 and 13:30 UTC (a slice by time bounds):'
SELECT timeuuid_time(tweet_id) AT TIME ZONE 'UTC' AS tweeted_at, body
FROM userline
WHERE username = 'jsmith'
  AND tweet_id BETWEEN min_timeuuid('2010-08-12 13:00:00+00') AND max_timeuuid('2010-08-12 13:30:00+00')
ORDER BY tweet_id;
