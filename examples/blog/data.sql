-- BloggyAppy's sample data: the article's authors, posts and comments, and a
-- few more so that "the 10 most recent posts" leaves one out.  Posts and
-- comments are dated by TimeUUIDs made from fixed times (min_timeuuid), so the
-- demo prints the same thing every time; an application would let them
-- default to cfstore.timeuuid_now().

-- Authors: one row per author, a column per profile attribute.  This is
-- Thrift's mutation_map itself: key -> column family -> mutations.
SELECT cfstore.batch_mutate('BloggyAppy', $json$
{"Arin Sarkissian": {"Authors": [
    {"column": {"name": "numPosts", "value": "4", "timestamp": 1250000000000000}},
    {"column": {"name": "twitter", "value": "phatduckk", "timestamp": 1250000000000000}},
    {"column": {"name": "email", "value": "arin@example.com", "timestamp": 1250000000000000}},
    {"column": {"name": "bio", "value": "bla bla bla", "timestamp": 1250000000000000}}]},
 "Nora Quill": {"Authors": [
    {"column": {"name": "numPosts", "value": "4", "timestamp": 1250000000000000}},
    {"column": {"name": "twitter", "value": "noraq", "timestamp": 1250000000000000}},
    {"column": {"name": "email", "value": "nora@example.com", "timestamp": 1250000000000000}},
    {"column": {"name": "bio", "value": "Writes about data models.", "timestamp": 1250000000000000}}]},
 "Tom Reyes": {"Authors": [
    {"column": {"name": "numPosts", "value": "3", "timestamp": 1250000000000000}},
    {"column": {"name": "twitter", "value": "tomstrums", "timestamp": 1250000000000000}},
    {"column": {"name": "email", "value": "tom@example.com", "timestamp": 1250000000000000}},
    {"column": {"name": "bio", "value": "Guitars and horror films.", "timestamp": 1250000000000000}}]}}
$json$);

-- Posts, oldest first (the order of the writes does not matter: TaggedPosts
-- keeps its columns in TimeUUID order).
SELECT slug, tags
FROM (VALUES
  ('hello-cassandra', 'Hello, Cassandra', 'Nora Quill',
   'Moving this blog off MySQL onto a column store. Notes to follow.',
   '{cassandra}'::text[], '2009-08-10 09:00:00+00'::timestamptz),
  ('rows-are-sorted-maps', 'Rows are sorted maps', 'Nora Quill',
   'A row is a map from column name to value, kept sorted by the comparator: a slice is one seek and a scan.',
   '{cassandra,data}', '2009-08-12 18:30:00+00'),
  ('a-horror-movie-marathon', 'A horror movie marathon', 'Tom Reyes',
   'Six films, one night, far too much popcorn.',
   '{movie,horror,life}', '2009-08-14 20:00:00+00'),
  ('tuning-a-12-string', 'Tuning a 12-string', 'Tom Reyes',
   'Twelve strings, twelve chances to be flat.',
   '{guitar,music}', '2009-08-16 11:45:00+00'),
  ('i-got-a-new-guitar', 'This is a blog entry about my new, awesome guitar', 'Arin Sarkissian',
   'this is a cool entry. etc etc yada yada',
   '{life,guitar,music}', '2009-08-18 01:13:24+00'),
  ('another-cool-guitar', 'Another cool guitar', 'Arin Sarkissian',
   'Yes, another one. The neck on this one is something else.',
   '{guitar}', '2009-08-19 17:20:00+00'),
  ('scream-is-the-best-movie-ever', 'Scream is the best movie ever', 'Arin Sarkissian',
   'I will not be taking questions.',
   '{movie,horror}', '2009-08-20 13:05:00+00'),
  ('timeuuids-for-time-order', 'TimeUUIDs for time order', 'Nora Quill',
   'Name a column by a TimeUUID and the row is a timeline: newest first is a reversed slice.',
   '{cassandra,data}', '2009-08-22 08:15:00+00'),
  ('denormalize-on-write', 'Denormalize on write', 'Nora Quill',
   'Every tag page is a row of its own: a post costs #tags + 1 columns, a tag page one slice.',
   '{cassandra,data}', '2009-08-25 10:40:00+00'),
  ('open-mic-night', 'Open mic night', 'Tom Reyes',
   'Three chords and the truth, and then a fourth chord by accident.',
   '{music,life}', '2009-08-28 21:30:00+00'),
  ('super-columns-for-comments', 'Super columns for comments', 'Arin Sarkissian',
   'A comment is a super column named by a TimeUUID: one slice gives a post''s comments in order, each with its attributes.',
   '{cassandra}', '2009-09-01 07:50:00+00')
) AS post(slug, title, author, body, tags, published),
LATERAL blog.publish(slug, title, author, body, tags, cfstore.min_timeuuid(published));

-- Comments, written out of order on purpose: the Comments row sorts its super
-- columns by TimeUUID, oldest first.
SELECT slug, commenter
FROM (VALUES
  ('scream-is-the-best-movie-ever', 'Some1 Else', 'some1@example.com',
   'no, the godfather is overrated', '2009-08-21 09:30:00+00'::timestamptz),
  ('scream-is-the-best-movie-ever', 'Joe Blow', 'joeb@example.com',
   'you are wrong, the godfather is the best movie ever', '2009-08-20 15:00:00+00'),
  ('scream-is-the-best-movie-ever', 'Tom Reyes', 'tom@example.com',
   'Scream is fine. Have you seen The Thing?', '2009-08-21 22:10:00+00'),
  ('i-got-a-new-guitar', 'Johnny Guitar', 'guitardude@example.com',
   'nice axe dawg...', '2009-08-18 03:00:00+00'),
  ('super-columns-for-comments', 'Nora Quill', 'nora@example.com',
   'And this comment is one of them.', '2009-09-01 12:00:00+00')
) AS c(slug, commenter, email, comment, at),
LATERAL blog.add_comment(slug, commenter, email, comment, cfstore.min_timeuuid(at));
