-- Seed 003 ("Cassandra 1.1 data modeling"): the tweets and timeline tables
-- in CQL3, through cfstore.cql().  The timeline is the denormalized copy
-- of the tweets each user sees, clustered by tweet_id inside the user's
-- partition, so a page of it is one slice of one row.  tweet_id is a
-- timeuuid here (the seed's uuid would sort the same cells by UUIDType,
-- whose order SQL's uuid does not have; see README.md, "CQL3").
\o /dev/null
SELECT cfstore.cql($$CREATE KEYSPACE twissandra3
                     WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}$$);

SELECT cfstore.cql($$CREATE TABLE tweets (
                       tweet_id timeuuid PRIMARY KEY,
                       author varchar,
                       body varchar
                     )$$, 'twissandra3');
SELECT cfstore.cql($$CREATE TABLE timeline (
                       user_id varchar,
                       tweet_id timeuuid,
                       author varchar,
                       body varchar,
                       PRIMARY KEY (user_id, tweet_id)
                     )$$, 'twissandra3');

-- The seed's three tweets, dated by timeuuids of fixed times, and their
-- copies in the timelines of the users who follow their authors: George
-- Mason follows Patrick Henry and George Washington, Alexander Hamilton
-- follows John Adams and George Washington.
CREATE TEMPORARY TABLE seed_tweets (author text, body text, posted timestamptz, followers text[]);
INSERT INTO seed_tweets VALUES
  ('phenry', 'Give me liberty or give me death', '1765-05-29 12:00+00', '{gmason}'),
  ('gwashington', 'I chopped down the cherry tree', '1742-03-01 12:00+00', '{gmason,ahamilton}'),
  ('jadams', 'A government of laws, not men', '1770-12-04 12:00+00', '{ahamilton}');
SELECT cfstore.cql(format($$BEGIN BATCH
                     INSERT INTO tweets (tweet_id, author, body) VALUES (%1$s, %2$L, %3$L);
                     %4$s
                   APPLY BATCH$$,
                   minTimeuuid, author, body,
                   (SELECT string_agg(format($$INSERT INTO timeline (user_id, tweet_id, author, body) VALUES (%L, %s, %L, %L);$$,
                                             f, minTimeuuid, author, body), ' ')
                      FROM unnest(followers) f)), 'twissandra3')
  FROM (SELECT *, cfstore.min_timeuuid(posted) AS minTimeuuid FROM seed_tweets) t;

\o
\echo
\echo '-- gmason''s timeline, newest first (the seed''s query, through cql()):'
SELECT r ->> 'author' AS author, r ->> 'body' AS body,
       to_char(cfstore.timeuuid_time((r ->> 'tweet_id')::cfstore.timeuuid) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS posted
  FROM cfstore.cql($$SELECT * FROM timeline WHERE user_id = 'gmason' ORDER BY tweet_id DESC LIMIT 50$$,
                   'twissandra3') r;

\echo '-- the same page as SQL: the table twissandra3.timeline has the CQL3 rows'
SELECT author, body, to_char(cfstore.timeuuid_time(tweet_id) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS posted
  FROM twissandra3.timeline WHERE user_id = 'ahamilton' ORDER BY tweet_id DESC LIMIT 50;

\echo '-- and as the cells Cassandra 1.2 stores: (tweet_id, column name), a row marker each'
SELECT column_name, value FROM cfstore.get_slice('twissandra3', 'timeline', 'ahamilton');
