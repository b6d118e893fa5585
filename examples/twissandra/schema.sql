-- Twissandra's column families (the Cassandra 0.7 example application),
-- as cassandra-cli would declare them:
--   create keyspace Twissandra;
--   create column family User with comparator = UTF8Type and ...;
SELECT cfstore.create_keyspace('Twissandra');
-- users: key = username
SELECT cfstore.create_column_family('Twissandra', 'User', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
  column_metadata => '[{"column_name": "password", "validation_class": "UTF8Type"}]');
-- who a user follows / who follows a user: column name = the other username
SELECT cfstore.create_column_family('Twissandra', 'Friends', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'LongType');
SELECT cfstore.create_column_family('Twissandra', 'Followers', comparator => 'UTF8Type',
  key_validation_class => 'UTF8Type', default_validation_class => 'LongType');
-- tweets: key = tweet id
SELECT cfstore.create_column_family('Twissandra', 'Tweet', comparator => 'UTF8Type',
  key_validation_class => 'TimeUUIDType', default_validation_class => 'UTF8Type');
-- a user's own tweets and home timeline: column name = TimeUUID of the tweet
SELECT cfstore.create_column_family('Twissandra', 'Userline', comparator => 'TimeUUIDType',
  key_validation_class => 'UTF8Type', default_validation_class => 'TimeUUIDType');
SELECT cfstore.create_column_family('Twissandra', 'Timeline', comparator => 'TimeUUIDType',
  key_validation_class => 'UTF8Type', default_validation_class => 'TimeUUIDType');
