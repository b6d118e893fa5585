-- cfstore_shard.shard_new_keyspaces makes create_keyspace, whose body runs
-- as the extension's owner, shard each new keyspace: only a superuser may
-- set it.  A plain role's value given before the library loads (a
-- placeholder) is dropped when it loads; after, SET is refused.
\set VERBOSITY terse
CREATE ROLE regress_guc_plain;
SET ROLE regress_guc_plain;
SET cfstore_shard.shard_new_keyspaces = on;
SELECT cfstore.compare('UTF8Type', 'a', 'b');
SHOW cfstore_shard.shard_new_keyspaces;
SET cfstore_shard.shard_new_keyspaces = on;
RESET ROLE;
SET cfstore_shard.shard_new_keyspaces = on;
SHOW cfstore_shard.shard_new_keyspaces;
RESET cfstore_shard.shard_new_keyspaces;
DROP ROLE regress_guc_plain;
