-- BloggyAppy, the blog of Arin Sarkissian's article "WTF is a SuperColumn"
-- (2009): its keyspace comes straight from the article's Cassandra 0.6
-- storage-conf.xml.  psql reads the file through a shell command, so run
-- this from the project folder.
--
--   Authors      Standard, BytesType   row = author's name, a column per profile attribute
--   BlogEntries  Standard, BytesType   row = post's slug, a column per attribute
--   TaggedPosts  Standard, TimeUUIDType  row = tag ("__notag__" = every post),
--                                      column = post's TimeUUID -> slug
--   Comments     Super, TimeUUIDType   row = post's slug, super column = comment's
--                                      TimeUUID, subcolumns = its attributes
\set blog_conf `cat examples/blog/storage-conf.xml`
SELECT * FROM cfstore.load_storage_conf(:'blog_conf');
