-- Twissandra's application code, as SQL functions over the cfstore API: the
-- writes fan out to the column families that answer each read with one slice.
CREATE SCHEMA twissandra;

-- Writes carry the current time as the Cassandra timestamp, in microseconds.
CREATE FUNCTION twissandra._now_micros() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;

-- A user's id: the column "id" of their Username row (NULL if there is none).
CREATE FUNCTION twissandra.user_id(username text) RETURNS uuid
LANGUAGE sql STABLE
RETURN (SELECT c.value::uuid FROM cfstore.get('Twissandra', 'Username', username, 'id') c);

CREATE FUNCTION twissandra._user(username text) RETURNS uuid
LANGUAGE plpgsql STABLE AS $$
DECLARE
  id uuid := twissandra.user_id(username);
BEGIN
  IF id IS NULL THEN
    RAISE EXCEPTION 'user % does not exist', username USING ERRCODE = 'no_data_found';
  END IF;
  RETURN id;
END $$;

-- A user by name: two columns of their User row, named.
CREATE FUNCTION twissandra.get_user(name text) RETURNS TABLE (user_id uuid, username text)
LANGUAGE sql STABLE AS $$
  SELECT max(c.value) FILTER (WHERE c.column_name = 'id')::uuid,
         max(c.value) FILTER (WHERE c.column_name = 'username')
  FROM cfstore.get_columns('Twissandra', 'User', twissandra._user(name), ARRAY['id', 'username']) c
  HAVING count(*) > 0
$$;

-- Sign up: the User row and its Username entry.  (Twissandra kept the
-- password as given; an application would store a hash.)
CREATE FUNCTION twissandra.add_user(username text, password text, user_id uuid DEFAULT gen_random_uuid())
RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
  IF twissandra.user_id(username) IS NOT NULL THEN
    RAISE EXCEPTION 'user % already exists', username USING ERRCODE = 'unique_violation';
  END IF;
  PERFORM cfstore.insert('Twissandra', 'User', user_id, 'id', user_id);
  PERFORM cfstore.insert('Twissandra', 'User', user_id, 'username', username);
  PERFORM cfstore.insert('Twissandra', 'User', user_id, 'password', password);
  PERFORM cfstore.insert('Twissandra', 'Username', username, 'id', user_id);
  RETURN user_id;
END $$;

-- username starts following friend: a column in each direction, valued with
-- when it began.
CREATE FUNCTION twissandra.follow(username text, friend text, since timestamptz DEFAULT now())
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  follower uuid := twissandra._user(username);
  followed uuid := twissandra._user(friend);
  began    bigint := (extract(epoch FROM since) * 1000000)::bigint;
BEGIN
  PERFORM cfstore.insert('Twissandra', 'Friends', follower, followed, began);
  PERFORM cfstore.insert('Twissandra', 'Followers', followed, follower, began);
END $$;

CREATE FUNCTION twissandra.unfollow(username text, friend text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  follower uuid := twissandra._user(username);
  followed uuid := twissandra._user(friend);
BEGIN
  PERFORM cfstore.remove('Twissandra', 'Friends', follower, followed);
  PERFORM cfstore.remove('Twissandra', 'Followers', followed, follower);
END $$;

-- The names of the users in a Friends or Followers row (Twissandra read up
-- to 5000 of them), by name.
CREATE FUNCTION twissandra._names(relation text, username text) RETURNS SETOF text
LANGUAGE plpgsql STABLE AS $$
DECLARE
  ids uuid[];
BEGIN
  SELECT array_agg(c.column_name::uuid) INTO ids
  FROM cfstore.get_slice('Twissandra', relation, twissandra._user(username), count => 5000) c;
  IF ids IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
  SELECT u.value
  FROM cfstore.multiget_slice('Twissandra', 'User', ids, start => 'username', finish => 'username') u
  ORDER BY u.value;
END $$;

CREATE FUNCTION twissandra.friends(username text) RETURNS SETOF text
LANGUAGE sql STABLE AS $$ SELECT twissandra._names('Friends', username) $$;

CREATE FUNCTION twissandra.followers(username text) RETURNS SETOF text
LANGUAGE sql STABLE AS $$ SELECT twissandra._names('Followers', username) $$;

-- Tweet: the Tweets row, then the tweet's id in the author's Userline and
-- Timeline and in every follower's Timeline, all in one batch.  The tweet's
-- id is its time; pass one (cfstore.min_timeuuid(a time)) for a reproducible
-- demo, or let it be now.
CREATE FUNCTION twissandra.post_tweet(username text, body text,
                                      tweet_id cfstore.timeuuid DEFAULT cfstore.timeuuid_now())
RETURNS cfstore.timeuuid LANGUAGE plpgsql AS $$
DECLARE
  author uuid := twissandra._user(username);
  ts     bigint := twissandra._now_micros();
  entry  jsonb := jsonb_build_array(jsonb_build_object('column', jsonb_build_object(
                    'name', tweet_id::text, 'value', tweet_id::text, 'timestamp', ts)));
  batch  jsonb;
BEGIN
  batch := jsonb_build_object(
    tweet_id::text, jsonb_build_object('Tweets', jsonb_build_array(
      jsonb_build_object('column', jsonb_build_object('name', 'user_id', 'value', author::text, 'timestamp', ts)),
      jsonb_build_object('column', jsonb_build_object('name', 'body', 'value', body, 'timestamp', ts)))),
    author::text, jsonb_build_object('Userline', entry, 'Timeline', entry));
  batch := batch || coalesce(
    (SELECT jsonb_object_agg(f.column_name, jsonb_build_object('Timeline', entry))
     FROM cfstore.get_slice('Twissandra', 'Followers', author, count => 5000) f
     WHERE f.column_name <> author::text),
    '{}');
  PERFORM cfstore.batch_mutate('Twissandra', batch);
  RETURN tweet_id;
END $$;

-- A page of a Timeline or Userline row, newest first: count tweets older
-- than start, the last tweet of the previous page (NULL: from the newest).
-- The slice from start includes start itself, so it asks for count + 1
-- and drops it.  Then two multigets, as Twissandra did: the tweets, and the
-- names of their authors.
CREATE FUNCTION twissandra._line(line text, username text, start cfstore.timeuuid, count integer)
RETURNS TABLE (tweet_id cfstore.timeuuid, posted_at timestamptz, author text, body text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  page text[];
BEGIN
  SELECT array_agg(s.column_name ORDER BY s.n) INTO page
  FROM (SELECT c.column_name, c.n
        FROM cfstore.get_slice('Twissandra', line, twissandra._user(username), start => _line.start,
                               reversed => true, count => _line.count + 1)
             WITH ORDINALITY AS c(key, super_column, column_name, value, writetime, ttl, n)
        WHERE _line.start IS NULL OR c.column_name <> _line.start::text
        ORDER BY c.n
        LIMIT _line.count) s;
  IF page IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY
  WITH tweet AS (
    SELECT t.key AS id,
           max(t.value) FILTER (WHERE t.column_name = 'user_id') AS user_id,
           max(t.value) FILTER (WHERE t.column_name = 'body') AS text
    FROM cfstore.multiget_slice('Twissandra', 'Tweets', page) t
    GROUP BY t.key
  ), writer AS (
    SELECT u.key AS user_id, u.value AS name
    FROM cfstore.multiget_slice('Twissandra', 'User', (SELECT array_agg(DISTINCT tw.user_id) FROM tweet tw),
                                start => 'username', finish => 'username') u
  )
  SELECT p.id::cfstore.timeuuid, cfstore.timeuuid_time(p.id::cfstore.timeuuid), w.name, tw.text
  FROM unnest(page) WITH ORDINALITY AS p(id, n)
  JOIN tweet tw ON tw.id = p.id
  LEFT JOIN writer w ON w.user_id = tw.user_id
  ORDER BY p.n;
END $$;

-- A user's home timeline: their tweets and those of whom they follow.
CREATE FUNCTION twissandra.timeline(username text, start cfstore.timeuuid DEFAULT NULL, count integer DEFAULT 40)
RETURNS TABLE (tweet_id cfstore.timeuuid, posted_at timestamptz, author text, body text)
LANGUAGE sql STABLE AS $$ SELECT * FROM twissandra._line('Timeline', username, start, count) $$;

-- A user's own tweets.
CREATE FUNCTION twissandra.userline(username text, start cfstore.timeuuid DEFAULT NULL, count integer DEFAULT 40)
RETURNS TABLE (tweet_id cfstore.timeuuid, posted_at timestamptz, author text, body text)
LANGUAGE sql STABLE AS $$ SELECT * FROM twissandra._line('Userline', username, start, count) $$;
