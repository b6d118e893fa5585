-- ---------------------------------------------------------------------------
-- Marshal layer: Cassandra types and comparators (README.md "Types and comparators").
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore.to_bytes(type text, value text) RETURNS bytea
  AS 'MODULE_PATHNAME', 'cfstore_to_bytes'
  LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.to_bytes(text, text) IS
  'Parse the text form of a value of a Cassandra type and return its validated encoding (volatile: TimeUUIDType accepts ''now'')';

CREATE FUNCTION cfstore.to_string(type text, value bytea) RETURNS text
  AS 'MODULE_PATHNAME', 'cfstore_to_string'
  LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.to_string(text, bytea) IS
  'Validate an encoded value of a Cassandra type and render its text form';

CREATE FUNCTION cfstore.validate(type text, value bytea) RETURNS void
  AS 'MODULE_PATHNAME', 'cfstore_validate'
  LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.validate(text, bytea) IS
  'Raise Cassandra''s marshal message if the value is not valid for the type';

CREATE FUNCTION cfstore.compare(type text, a bytea, b bytea) RETURNS integer
  AS 'MODULE_PATHNAME', 'cfstore_compare'
  LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.compare(text, bytea, bytea) IS
  'Compare two encoded values in the Cassandra type''s order: -1, 0 or 1';

CREATE FUNCTION cfstore.type_name(type text) RETURNS text
  AS 'MODULE_PATHNAME', 'cfstore_type_name'
  LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.type_name(text) IS
  'Parse a Cassandra type string and return its fully qualified name';
