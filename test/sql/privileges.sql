-- Privileges: creating a keyspace needs CREATE on the database; changing
-- or dropping one needs ownership of it (of its schema).  The catalog
-- tables cannot be used to get around that.
\set VERBOSITY terse
CREATE ROLE regress_cf_owner;
CREATE ROLE regress_cf_other;
CREATE ROLE regress_cf_member IN ROLE regress_cf_owner;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_cf_owner', current_database()); END $$;

SET ROLE regress_cf_owner;
SELECT cfstore.create_keyspace('OwnedKs');
SELECT cfstore.create_column_family('OwnedKs', 'Cf1', comparator => 'UTF8Type',
         column_metadata => '[{"column_name": "n", "validation_class": "LongType"}]');
SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'OwnedKs';

SET ROLE regress_cf_other;
SELECT cfstore.create_keyspace('OtherKs');
SELECT cfstore.create_column_family('OwnedKs', 'Cf2');
SELECT cfstore.update_column_family('OwnedKs', 'Cf1', comment => 'mine now');
SELECT cfstore.drop_column_family('OwnedKs', 'Cf1');
SELECT cfstore.drop_keyspace('OwnedKs');
-- direct writes are held to the same rules
UPDATE cfstore.column_family SET comment = 'mine now' WHERE keyspace = 'OwnedKs';
DELETE FROM cfstore.column_family WHERE keyspace = 'OwnedKs';
DELETE FROM cfstore.column_definition;
DELETE FROM cfstore.keyspace WHERE name = 'OwnedKs';
INSERT INTO cfstore.column_family (keyspace, name, column_type, comparator, key_validation_class,
    default_validation_class, gc_grace_seconds, default_time_to_live)
VALUES ('OwnedKs', 'Sneaky', 'Standard', 'org.apache.cassandra.db.marshal.BytesType',
    'org.apache.cassandra.db.marshal.BytesType', 'org.apache.cassandra.db.marshal.BytesType', 0, 0);
-- but everyone can read the catalog
SELECT jsonb_array_length(cfstore.describe_keyspace('OwnedKs') -> 'cf_defs') AS cfs;

-- a member of the owning role acts as the owner
SET ROLE regress_cf_member;
SELECT cfstore.update_column_family('OwnedKs', 'Cf1', comment => 'by a member');
SELECT comment FROM cfstore.column_family WHERE keyspace = 'OwnedKs';

-- storage goes to the database's default tablespace, not to one the
-- caller names in default_tablespace (and has no CREATE on)
RESET ROLE;
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE regress_cf_restricted LOCATION '';
SET ROLE regress_cf_owner;
SET default_tablespace = regress_cf_restricted;
SELECT cfstore.update_column_family('OwnedKs', 'Cf1',
         column_metadata => '[{"column_name": "n", "validation_class": "LongType", "index_type": "KEYS"}]');
RESET default_tablespace;
SELECT count(*) AS in_restricted FROM pg_class
 WHERE reltablespace = (SELECT oid FROM pg_tablespace WHERE spcname = 'regress_cf_restricted');

SET ROLE regress_cf_owner;
SELECT cfstore.drop_keyspace('OwnedKs');
RESET ROLE;
DROP TABLESPACE regress_cf_restricted;

DO $$ BEGIN EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_cf_owner', current_database()); END $$;
DROP ROLE regress_cf_member;
DROP ROLE regress_cf_owner;
DROP ROLE regress_cf_other;
