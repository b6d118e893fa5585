-- BloggyAppy's write path, as the article describes it: a post is one
-- BlogEntries row plus a TaggedPosts column in the row of each of its tags and
-- in "__notag__" (#tags + 1 columns); a comment is a super column of its
-- post's Comments row.  Each is one batch_mutate, so it is all or nothing.
--
-- BlogEntries, Authors and the comments' subcolumns are BytesType, as in the
-- article: values are given in bytea's text form, where a backslash is written
-- twice (blog._bytes does that); reads print them in bytea's escape form.
CREATE SCHEMA blog;

CREATE FUNCTION blog._bytes(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT
RETURN replace(value, '\', '\\');

-- Writes use the current time as the Cassandra timestamp, in microseconds.
CREATE FUNCTION blog._now_micros() RETURNS bigint
LANGUAGE sql VOLATILE
RETURN (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;

-- A column mutation of batch_mutate's mutation_map.
CREATE FUNCTION blog._column(name text, value text, ts bigint) RETURNS jsonb
LANGUAGE sql IMMUTABLE
RETURN jsonb_build_object('column', jsonb_build_object('name', name, 'value', value, 'timestamp', ts));

-- Publish a post.  Its TimeUUID orders it in TaggedPosts; pass one (for
-- instance cfstore.min_timeuuid(a time)) to date the post, or let it be now.
CREATE FUNCTION blog.publish(slug text, title text, author text, body text, tags text[],
                             post_id cfstore.timeuuid DEFAULT cfstore.timeuuid_now())
RETURNS cfstore.timeuuid LANGUAGE plpgsql AS $$
DECLARE
  ts       bigint := blog._now_micros();
  pub_date text := extract(epoch FROM cfstore.timeuuid_time(post_id))::bigint::text;
  tag      text;
  batch    jsonb;
BEGIN
  batch := jsonb_build_object(slug, jsonb_build_object('BlogEntries', jsonb_build_array(
    blog._column('title', blog._bytes(title), ts),
    blog._column('body', blog._bytes(body), ts),
    blog._column('author', blog._bytes(author), ts),
    blog._column('tags', blog._bytes(array_to_string(coalesce(tags, '{}'), ',')), ts),
    blog._column('pubDate', pub_date, ts),
    blog._column('slug', blog._bytes(slug), ts))));
  FOREACH tag IN ARRAY '{__notag__}' || coalesce(tags, '{}') LOOP
    -- a tag may be spelt like the slug: merge into that key's entry
    batch := batch || jsonb_build_object(tag, coalesce(batch -> tag, '{}')
             || jsonb_build_object('TaggedPosts', jsonb_build_array(
                  blog._column(post_id::text, blog._bytes(slug), ts))));
  END LOOP;
  PERFORM cfstore.batch_mutate('BloggyAppy', batch);
  RETURN post_id;
END $$;

-- Comment on a post: a super column named by the comment's TimeUUID.
CREATE FUNCTION blog.add_comment(slug text, commenter text, email text, comment text,
                                 comment_id cfstore.timeuuid DEFAULT cfstore.timeuuid_now())
RETURNS cfstore.timeuuid LANGUAGE plpgsql AS $$
DECLARE
  ts bigint := blog._now_micros();
BEGIN
  PERFORM cfstore.batch_mutate('BloggyAppy', jsonb_build_object(slug, jsonb_build_object(
    'Comments', jsonb_build_array(jsonb_build_object('super_column', jsonb_build_object(
      'name', comment_id::text,
      'columns', jsonb_build_array(
        blog._column('commenter', blog._bytes(commenter), ts) -> 'column',
        blog._column('email', blog._bytes(email), ts) -> 'column',
        blog._column('comment', blog._bytes(comment), ts) -> 'column',
        blog._column('commentTime',
                     extract(epoch FROM cfstore.timeuuid_time(comment_id))::bigint::text,
                     ts) -> 'column')))))));
  RETURN comment_id;
END $$;
