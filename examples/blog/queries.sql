-- BloggyAppy's three reads, as the article describes them.  Each is a slice of
-- one row, then a multiget of the rows that slice names.  Set the psql
-- variables tag and slug to choose (defaults: guitar, the Scream post).
\if :{?tag}
\else
\set tag guitar
\endif
\if :{?slug}
\else
\set slug scream-is-the-best-movie-ever
\endif

\echo '== The 10 most recent posts'
-- TaggedPosts["__notag__"] has one column per post, TimeUUID -> slug, in time
-- order: a reversed slice of 10 is the 10 newest.  multiget_slice fetches
-- their BlogEntries rows (in key order: the slice's order is kept by n).
WITH recent AS (
  SELECT n, column_name::cfstore.timeuuid AS post_id, value AS slug
  FROM cfstore.get_slice('BloggyAppy', 'TaggedPosts', '__notag__', reversed => true, count => 10)
       WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n)
), entry AS (
  SELECT key AS slug,
         max(value) FILTER (WHERE column_name = 'title') AS title,
         max(value) FILTER (WHERE column_name = 'author') AS author,
         max(value) FILTER (WHERE column_name = 'tags') AS tags
  FROM cfstore.multiget_slice('BloggyAppy', 'BlogEntries', (SELECT array_agg(slug) FROM recent))
  GROUP BY key
)
SELECT to_char(cfstore.timeuuid_time(post_id) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS published,
       title, author, tags
FROM recent JOIN entry USING (slug)
ORDER BY n;

\echo '== Posts tagged' :tag '(newest first)'
-- The same read on the tag's own row.
WITH tagged AS (
  SELECT n, column_name::cfstore.timeuuid AS post_id, value AS slug
  FROM cfstore.get_slice('BloggyAppy', 'TaggedPosts', :'tag', reversed => true, count => 10)
       WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n)
), entry AS (
  SELECT key AS slug,
         max(value) FILTER (WHERE column_name = 'title') AS title,
         max(value) FILTER (WHERE column_name = 'author') AS author
  FROM cfstore.multiget_slice('BloggyAppy', 'BlogEntries', (SELECT array_agg(slug) FROM tagged))
  GROUP BY key
)
SELECT to_char(cfstore.timeuuid_time(post_id) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS published,
       slug, title, author
FROM tagged JOIN entry USING (slug)
ORDER BY n;

\echo '== Comments on' :slug '(oldest first)'
-- One slice of the post's Comments row: its super columns (one per comment)
-- oldest first, each with all its subcolumns.
SELECT to_char(cfstore.timeuuid_time(super_column::cfstore.timeuuid) AT TIME ZONE 'UTC',
               'YYYY-MM-DD HH24:MI') AS posted,
       max(value) FILTER (WHERE column_name = 'commenter') AS commenter,
       max(value) FILTER (WHERE column_name = 'comment') AS comment
FROM cfstore.get_slice('BloggyAppy', 'Comments', :'slug')
     WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n)
GROUP BY super_column
ORDER BY min(n);
