-- ---------------------------------------------------------------------------
-- The "any" argument slots (README.md "Reading and writing"): test-only entry points to the
-- conversion of SQL values into Cassandra encodings that the API functions
-- use for keys, column names, super column names and values.
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore._arg_bytes(type text, value "any") RETURNS bytea
  AS 'MODULE_PATHNAME', 'cfstore_arg_bytes'
  LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore._arg_bytes(text, "any") IS
  'For tests: the validated encoding of a value of any supported SQL type for a Cassandra type, as a value argument gets it';

CREATE FUNCTION cfstore._arg_bytes_array(type text, value "any") RETURNS bytea[]
  AS 'MODULE_PATHNAME', 'cfstore_arg_bytes_array'
  LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore._arg_bytes_array(text, "any") IS
  'For tests: the validated encodings of the elements of an array, as a keys or column_names argument gets them';
