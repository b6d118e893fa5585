-- The Twissandra seed application (examples/twissandra): its column families
-- and functions, and the demo's flow (users, follows, tweets, a timeline page
-- and the next), run as the demo runs it.  Tweets are dated by TimeUUIDs made
-- from fixed times and user ids are never printed, so the output is stable;
-- the scripts are not echoed, only what they print.  Then the paging rules,
-- the other reads and the errors.
\set ECHO none
\o /dev/null
\i examples/twissandra/schema.sql
\i examples/twissandra/functions.sql
\o
\i examples/twissandra/demo.sql
\set ECHO all

-- Paging on: page 3 holds what is left, and the page after it is empty.
SELECT tweet_id AS last_seen
FROM twissandra.timeline('alice', start => :'last_seen', count => 3)
ORDER BY tweet_id LIMIT 1
\gset
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'HH24:MI') AS posted, author, body
FROM twissandra.timeline('alice', start => :'last_seen', count => 3);
SELECT tweet_id AS last_seen
FROM twissandra.timeline('alice', start => :'last_seen', count => 3)
ORDER BY tweet_id LIMIT 1
\gset
SELECT count(*) AS page_4 FROM twissandra.timeline('alice', start => :'last_seen', count => 3);
-- Pages of any size cover the timeline once, newest first.
SELECT count(*) AS tweets, count(DISTINCT tweet_id::text) AS distinct_tweets,
       bool_and(posted_at <= prev) AS newest_first
FROM (SELECT tweet_id, posted_at, lag(posted_at) OVER () AS prev
      FROM twissandra.timeline('alice', count => 100)) t;
-- A start that is not in the row: the tweets older than it.
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'HH24:MI') AS posted, author
FROM twissandra.timeline('alice', start => cfstore.max_timeuuid('2010-04-01 09:30:00+00'), count => 2);

-- Fan-out: dave follows carol, so his timeline is carol's tweets and his
-- own; nobody follows dave, so his tweet is in no one else's timeline.
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'HH24:MI') AS posted, author, body
FROM twissandra.timeline('dave');
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'HH24:MI') AS posted, body
FROM twissandra.userline('bob');
SELECT u AS username, count(t.*) AS tweets_of_dave_seen
FROM unnest('{alice,bob,carol,dave}'::text[]) AS u
LEFT JOIN LATERAL twissandra.timeline(u) t ON t.author = 'dave'
GROUP BY u ORDER BY u;

-- The rows behind a tweet: the Tweets row names its author by id.
SELECT t.column_name,
       CASE t.column_name WHEN 'user_id' THEN 'the id of ' || (SELECT u.value FROM cfstore.get(
              'Twissandra', 'User', t.value::uuid, 'username') u)
            ELSE t.value END AS value
FROM cfstore.get_slice('Twissandra', 'Tweets', cfstore.min_timeuuid('2010-04-01 09:00:00+00')) t;
-- ... and Userline / Timeline columns are tweet id -> tweet id.
SELECT column_name = value AS name_is_value, count(*)
FROM cfstore.get_slice('Twissandra', 'Timeline', twissandra.user_id('alice'))
GROUP BY 1;

-- A user by name, with a chosen id.
SELECT twissandra.add_user('erin', 'secret-erin', '00000000-0000-4000-8000-00000000e1e1');
SELECT * FROM twissandra.get_user('erin');
SELECT column_name, value
FROM cfstore.get('Twissandra', 'Username', 'erin', 'id');

-- Unfollowing stops the fan-out; what was delivered stays, as in Twissandra.
SELECT twissandra.unfollow('alice', 'carol');
SELECT twissandra.post_tweet('carol', 'alice will not see this one.',
                             cfstore.min_timeuuid('2010-04-01 11:00:00+00'));
SELECT twissandra.friends('alice') AS alice_follows;
SELECT twissandra.followers('carol') AS carol_followed_by;
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'HH24:MI') AS posted, author, body
FROM twissandra.timeline('alice', count => 2);
SELECT to_char(posted_at AT TIME ZONE 'UTC', 'HH24:MI') AS posted, author, body
FROM twissandra.timeline('dave', count => 1);

-- A tweet without a given id is dated now: it is the newest.
SELECT twissandra.post_tweet('erin', 'Posted just now.') IS NOT NULL AS posted;
SELECT author, body, posted_at > '2020-01-01' AS recent FROM twissandra.userline('erin');

-- Errors.
\set VERBOSITY terse
SELECT twissandra.add_user('alice', 'again');
SELECT twissandra.follow('alice', 'nobody');
SELECT * FROM twissandra.timeline('nobody');
SELECT twissandra.post_tweet('bob', 'An id that is not a TimeUUID.',
                             '00000000-0000-4000-8000-000000000000');
\set VERBOSITY default

SELECT cfstore.drop_keyspace('Twissandra');
DROP SCHEMA twissandra CASCADE;
