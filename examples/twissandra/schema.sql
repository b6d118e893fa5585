-- Twissandra's column families (Eric Florenzano's Twitter clone, the Cassandra
-- example application of 2010), as cassandra-cli would declare them:
--   create keyspace Twissandra;
--   create column family User with comparator = UTF8Type and ...;
-- Users have ids, as in its first version; Username finds a user's id by name.
-- Where Twissandra named tweets and timeline entries by a microsecond
-- timestamp (LongType), this version uses TimeUUIDs: unique and in time order.
SELECT cfstore.create_keyspace('Twissandra');

-- users: row = user id, columns id, username, password
SELECT cfstore.create_column_family('Twissandra', 'User', comparator => 'UTF8Type',
  key_validation_class => 'UUIDType', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "id", "validation_class": "UUIDType"}]');
-- the index by name: row = username, column "id" = the user id
SELECT cfstore.create_column_family('Twissandra', 'Username', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UUIDType');
-- whom a user follows / who follows a user: row = user id, column = the other
-- user's id -> when the following began (microseconds since 1970)
SELECT cfstore.create_column_family('Twissandra', 'Friends', comparator => 'UUIDType',
  key_validation_class => 'UUIDType', default_validation_class => 'LongType');
SELECT cfstore.create_column_family('Twissandra', 'Followers', comparator => 'UUIDType',
  key_validation_class => 'UUIDType', default_validation_class => 'LongType');
-- tweets: row = tweet id (a TimeUUID: when it was posted), columns user_id, body
SELECT cfstore.create_column_family('Twissandra', 'Tweets', comparator => 'UTF8Type',
  key_validation_class => 'TimeUUIDType', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "user_id", "validation_class": "UUIDType"}]');
-- a user's own tweets (Userline) and the tweets of whom they follow, their own
-- included (Timeline): row = user id, column = tweet id -> tweet id, so a
-- reversed slice is newest first
SELECT cfstore.create_column_family('Twissandra', 'Userline', comparator => 'TimeUUIDType',
  key_validation_class => 'UUIDType', default_validation_class => 'TimeUUIDType');
SELECT cfstore.create_column_family('Twissandra', 'Timeline', comparator => 'TimeUUIDType',
  key_validation_class => 'UUIDType', default_validation_class => 'TimeUUIDType');
