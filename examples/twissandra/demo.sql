-- Twissandra in action: four users follow each other and tweet, then alice
-- reads her timeline a page at a time.  Tweets are dated by TimeUUIDs made
-- from fixed times (min_timeuuid), so every run prints the same pages.
-- Run after schema.sql and functions.sql.
\if :{?tweets_per_page}
\else
\set tweets_per_page 3
\endif

\echo '== Users'
SELECT name AS new_user
FROM unnest('{alice,bob,carol,dave}'::text[]) AS name,
     LATERAL twissandra.add_user(name, 'secret-' || name);

\echo '== Who follows whom'
SELECT who, whom AS follows
FROM (VALUES ('alice', 'bob'), ('alice', 'carol'), ('bob', 'alice'),
             ('carol', 'alice'), ('carol', 'bob'), ('dave', 'carol')) AS f(who, whom),
     LATERAL twissandra.follow(who, whom, '2010-04-01 08:00:00+00');

-- Following and follower counts: one multiget_count over the users' rows of
-- Friends and of Followers.
WITH u AS (
  SELECT name, twissandra.user_id(name) AS id
  FROM unnest('{alice,bob,carol,dave}'::text[]) AS name
)
SELECT u.name AS username,
       following.count AS following, followers.count AS followers,
       (SELECT string_agg(f, ', ' ORDER BY f) FROM twissandra.followers(u.name) f) AS followed_by
FROM u
JOIN cfstore.multiget_count('Twissandra', 'Friends', (SELECT array_agg(id) FROM u)) following
  ON following.key = u.id::text
JOIN cfstore.multiget_count('Twissandra', 'Followers', (SELECT array_agg(id) FROM u)) followers
  ON followers.key = u.id::text
ORDER BY u.name;

\echo '== Tweets'
SELECT count(*) AS tweets_posted
FROM (VALUES
  ('bob',   'Trying out Twissandra. This is awesome!',              '2010-04-01 09:00:00+00'),
  ('carol', 'Rows sorted by TimeUUID: a timeline is one reversed slice.', '2010-04-01 09:05:00+00'),
  ('alice', 'Hello, world.',                                        '2010-04-01 09:12:00+00'),
  ('bob',   'Fan-out on write: one column in each follower''s timeline.', '2010-04-01 09:20:00+00'),
  ('carol', 'Page 2 starts after the last tweet of page 1.',        '2010-04-01 09:31:00+00'),
  ('dave',  'Nobody follows me yet.',                               '2010-04-01 09:40:00+00'),
  ('bob',   'Second coffee.',                                       '2010-04-01 09:45:00+00'),
  ('carol', 'A tweet is written once and read from many timelines.', '2010-04-01 10:02:00+00'),
  ('alice', 'Lunch?',                                               '2010-04-01 10:15:00+00')
) AS t(username, body, posted),
LATERAL twissandra.post_tweet(username, body, cfstore.min_timeuuid(posted::timestamptz));

\echo '== alice''s timeline, page 1'
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS posted, author, body
FROM twissandra.timeline('alice', count => :tweets_per_page);

-- The next page starts after the oldest tweet of this one.
SELECT tweet_id AS last_seen
FROM twissandra.timeline('alice', count => :tweets_per_page)
ORDER BY tweet_id LIMIT 1
\gset

\echo '== alice''s timeline, page 2'
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS posted, author, body
FROM twissandra.timeline('alice', start => :'last_seen', count => :tweets_per_page);
