-- The blog seed application (examples/blog, "WTF is a SuperColumn"): the
-- keyspace from its storage-conf.xml, its sample data, its three reads and its
-- front page, run as the demo runs them.  Its TimeUUIDs are made from fixed
-- times, so the output is stable; the scripts are not echoed, only what they
-- print.  Then the rows behind those reads.
\set ECHO none
\i examples/blog/schema.sql
\o /dev/null
\i examples/blog/functions.sql
\o
\i examples/blog/data.sql
\i examples/blog/queries.sql
\set tag life
\set slug i-got-a-new-guitar
\i examples/blog/queries.sql
\i examples/blog/front_page.sql
\set ECHO all

-- The keyspace is the article's: four column families, Comments a Super one.
SELECT cf->>'name' AS column_family, cf->>'column_type' AS column_type,
       cf->>'comparator_type' AS comparator, cf->>'subcomparator_type' AS subcomparator
FROM jsonb_array_elements(cfstore.describe_keyspace('BloggyAppy')->'cf_defs') AS cf;

-- A post is #tags + 1 TaggedPosts columns, each the post's TimeUUID -> slug.
SELECT key AS tag, column_name AS post_id, value AS slug
FROM cfstore.get_slice('BloggyAppy', 'TaggedPosts', 'guitar')
UNION ALL
SELECT key, column_name, value
FROM cfstore.get_slice('BloggyAppy', 'TaggedPosts', '__notag__', count => 3);
SELECT column_name, value FROM cfstore.get_slice('BloggyAppy', 'BlogEntries', 'i-got-a-new-guitar');

-- Comments: a super column per comment, oldest first whatever the order of
-- the writes, each with its subcolumns in BytesType order.
SELECT super_column, column_name, value
FROM cfstore.get_slice('BloggyAppy', 'Comments', 'scream-is-the-best-movie-ever');
-- the newest comment only: a reversed slice of one super column
SELECT super_column, column_name, value
FROM cfstore.get_slice('BloggyAppy', 'Comments', 'scream-is-the-best-movie-ever',
                       reversed => true, count => 1);

-- Counting: comments per post, posts per tag (0 for a key with no row).
SELECT * FROM cfstore.multiget_count('BloggyAppy', 'Comments',
  ARRAY['scream-is-the-best-movie-ever', 'i-got-a-new-guitar', 'open-mic-night'])
ORDER BY key;
SELECT cfstore.get_count('BloggyAppy', 'TaggedPosts', '__notag__') AS posts,
       cfstore.get_count('BloggyAppy', 'TaggedPosts', '__notag__', count => 10) AS capped;
-- An author by name.
SELECT column_name, value FROM cfstore.get_columns('BloggyAppy', 'Authors', 'Arin Sarkissian',
  ARRAY['twitter', 'email', 'no such column']);

-- A tag with no posts has no row: every read of it is empty.
SELECT * FROM cfstore.get_slice('BloggyAppy', 'TaggedPosts', 'jazz', reversed => true, count => 10);

-- The write path is one batch: a post whose tags cannot be keys writes
-- nothing at all (a row key may not be empty).
\set VERBOSITY terse
SELECT blog.publish('half-written', 'Half written', 'Tom Reyes', 'Never seen.', '{music,""}',
                    cfstore.min_timeuuid('2009-09-02 00:00:00+00'));
\set VERBOSITY default
SELECT count(*) AS half_written_cells
FROM cfstore.get_slice('BloggyAppy', 'BlogEntries', 'half-written');
SELECT cfstore.get_count('BloggyAppy', 'TaggedPosts', 'music') AS music_posts;

-- A backslash survives the BytesType text form.
SELECT blog.add_comment('open-mic-night', 'C:\Users\tom', 'tom@example.com', 'a \ b',
                        cfstore.min_timeuuid('2009-08-29 08:00:00+00'));
SELECT column_name, value, cfstore.to_bytes('BytesType', value) AS bytes
FROM cfstore.get_slice('BloggyAppy', 'Comments', 'open-mic-night')
WHERE column_name IN ('commenter', 'comment');

SELECT cfstore.drop_keyspace('BloggyAppy');
DROP SCHEMA blog CASCADE;
