-- BloggyAppy's front page, printed by psql: the newest posts with their
-- authors, tags and number of comments, then the tag cloud.  Every number
-- comes from the column families; set the psql variable front_page_size to
-- show more or fewer posts (default 5).
\if :{?front_page_size}
\else
\set front_page_size 5
\endif
\set front_page_quiet :QUIET
\set QUIET on
\pset format unaligned
\pset tuples_only on

SELECT repeat('=', 72) || E'\n'
    || ' BloggyAppy' || lpad('the ' || :front_page_size || ' newest posts', 60) || E'\n'
    || repeat('=', 72);

WITH recent AS (
  -- the newest posts: a reversed slice of TaggedPosts["__notag__"]
  SELECT n, column_name::cfstore.timeuuid AS post_id, value AS slug
  FROM cfstore.get_slice('BloggyAppy', 'TaggedPosts', '__notag__', reversed => true,
                         count => :front_page_size)
       WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n)
), entry AS (
  -- their BlogEntries rows
  SELECT key AS slug,
         max(value) FILTER (WHERE column_name = 'title') AS title,
         max(value) FILTER (WHERE column_name = 'author') AS author,
         max(value) FILTER (WHERE column_name = 'body') AS body,
         max(value) FILTER (WHERE column_name = 'tags') AS tags
  FROM cfstore.multiget_slice('BloggyAppy', 'BlogEntries', (SELECT array_agg(slug) FROM recent))
  GROUP BY key
), author AS (
  -- each author's twitter handle: the one-column slice ["twitter", "twitter"]
  SELECT key AS author, value AS twitter
  FROM cfstore.multiget_slice('BloggyAppy', 'Authors', (SELECT array_agg(DISTINCT author) FROM entry),
                              start => 'twitter', finish => 'twitter')
), comments AS (
  -- how many comments each post has: its number of super columns in Comments
  SELECT key AS slug, count
  FROM cfstore.multiget_count('BloggyAppy', 'Comments', (SELECT array_agg(slug) FROM recent))
)
SELECT E'\n' || title || E'\n'
    || '  ' || to_char(cfstore.timeuuid_time(post_id) AT TIME ZONE 'UTC', 'FMMonth FMDD, YYYY')
    || ', by ' || entry.author || coalesce(' (@' || twitter || ')', '') || E'\n'
    || '  ' || CASE WHEN length(body) <= 70 THEN body
                 ELSE regexp_replace(left(body, 67), '\s+\S*$', '') || ' ...' END || E'\n'
    || '  tags: ' || replace(tags, ',', ', ') || ' | '
    || CASE coalesce(count, 0) WHEN 0 THEN 'no comments' WHEN 1 THEN '1 comment'
            ELSE count || ' comments' END
FROM recent
JOIN entry USING (slug)
LEFT JOIN author USING (author)
LEFT JOIN comments USING (slug)
ORDER BY n;

WITH tag AS (
  -- every row of TaggedPosts is a tag (one column each is enough to list
  -- them), and its number of columns is its number of posts
  SELECT key FROM cfstore.get_range_slices('BloggyAppy', 'TaggedPosts', count => 1)
  WHERE key <> '__notag__'
)
SELECT E'\n' || repeat('-', 72) || E'\n'
    || 'Tags: ' || string_agg(key || ' (' || count || ')', '  ' ORDER BY key)
FROM cfstore.multiget_count('BloggyAppy', 'TaggedPosts', (SELECT array_agg(key) FROM tag));

\pset format aligned
\pset tuples_only off
\set QUIET :front_page_quiet
