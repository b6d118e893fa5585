-- Nested JSON objects stored as composite columns (README.md "Objects",
-- doc/objects.md; src/object/).

CREATE FUNCTION cfstore.put_object(keyspace text, column_family text, object jsonb, primary_key text[],
    row_key_fields integer DEFAULT 1, writetime bigint DEFAULT NULL, ttl integer DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_put_object' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.put_object(text, text, jsonb, text[], integer, bigint, integer) IS
  'Write an object''s leaves as composite columns; a field present replaces its subtree, absent fields are kept';

CREATE FUNCTION cfstore.get_object(keyspace text, column_family text, key jsonb) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'cfstore_get_object' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.get_object(text, text, jsonb) IS
  'The object whose primary key fields are key, rebuilt from its cells; NULL if there is none';

CREATE FUNCTION cfstore.remove_object(keyspace text, column_family text, key jsonb, paths text[] DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_remove_object' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.remove_object(text, text, jsonb, text[]) IS
  'Remove an object, or only the fields and subtrees at paths (customer.email, items.[0])';

CREATE FUNCTION cfstore.find_objects(keyspace text, column_family text, prototype jsonb, count integer DEFAULT 100)
RETURNS SETOF jsonb AS 'MODULE_PATHNAME', 'cfstore_find_objects' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.find_objects(text, text, jsonb, integer) IS
  'Query by example: the objects having every leaf of prototype, through an index on a nested field when there is one';
