-- ---------------------------------------------------------------------------
-- The Thrift-style function API (README.md "Reading and writing"), src/api.
-- ---------------------------------------------------------------------------

CREATE FUNCTION cfstore.insert(keyspace text, column_family text, key "any", column_name "any",
    value "any", writetime bigint DEFAULT NULL, ttl integer DEFAULT NULL,
    super_column "any" DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_insert' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.insert(text, text, "any", "any", "any", bigint, integer, "any") IS
  'Write a column (a subcolumn in a Super column family); the highest writetime wins';

CREATE FUNCTION cfstore.remove(keyspace text, column_family text, key "any",
    column_name "any" DEFAULT NULL, super_column "any" DEFAULT NULL, writetime bigint DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_remove' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.remove(text, text, "any", "any", "any", bigint) IS
  'Delete a row, a super column or a column: a tombstone at writetime (default now)';

CREATE FUNCTION cfstore.add(keyspace text, column_family text, key "any", column_name "any",
    delta bigint, super_column "any" DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_add' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.add(text, text, "any", "any", bigint, "any") IS
  'Add delta to a counter column (counter column families only)';

CREATE FUNCTION cfstore.remove_counter(keyspace text, column_family text, key "any",
    column_name "any" DEFAULT NULL, super_column "any" DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_remove_counter' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION cfstore.remove_counter(text, text, "any", "any", "any") IS
  'Delete a counter column, a counter super column or a whole counter row';

-- One range tombstone: the deletion of the row's columns in [start, finish]
-- (NULL or empty: the row's beginning or end), for cql(), the foreign
-- tables and batch_mutate (src/storage/cfrangedel.c).
CREATE FUNCTION cfstore._remove_range(keyspace text, column_family text, key "any",
    start "any", finish "any", writetime bigint DEFAULT NULL)
RETURNS void AS 'MODULE_PATHNAME', 'cfstore_remove_range' LANGUAGE C VOLATILE;

CREATE FUNCTION cfstore.get(keyspace text, column_family text, key "any",
    column_name "any" DEFAULT NULL, super_column "any" DEFAULT NULL)
RETURNS SETOF cfstore.cell AS 'MODULE_PATHNAME', 'cfstore_get' LANGUAGE C STABLE;
COMMENT ON FUNCTION cfstore.get(text, text, "any", "any", "any") IS
  'One live column, or (Super column family, no column_name) every live subcolumn of a super column';

-- The planner's row estimate for a get_slice call: its count when that is a
-- constant (the declared ROWS otherwise).
CREATE FUNCTION cfstore._get_slice_support(internal) RETURNS internal
AS 'MODULE_PATHNAME', 'cfstore_get_slice_support' LANGUAGE C STRICT;

CREATE FUNCTION cfstore.get_slice(keyspace text, column_family text, key "any",
    start "any" DEFAULT NULL, finish "any" DEFAULT NULL, reversed boolean DEFAULT false,
    count integer DEFAULT 100, super_column "any" DEFAULT NULL)
RETURNS SETOF cfstore.cell AS 'MODULE_PATHNAME', 'cfstore_get_slice' LANGUAGE C STABLE
SUPPORT cfstore._get_slice_support;
COMMENT ON FUNCTION cfstore.get_slice(text, text, "any", "any", "any", boolean, integer, "any") IS
  'The first count live columns of a row between start and finish (super columns with all their subcolumns in a Super column family without super_column)';

CREATE FUNCTION cfstore.get_columns(keyspace text, column_family text, key "any",
    column_names "any", super_column "any" DEFAULT NULL)
RETURNS SETOF cfstore.cell AS 'MODULE_PATHNAME', 'cfstore_get_columns' LANGUAGE C STABLE
ROWS 10;
COMMENT ON FUNCTION cfstore.get_columns(text, text, "any", "any", "any") IS
  'The live columns among column_names, in comparator order (super columns with all their subcolumns in a Super column family without super_column)';

CREATE FUNCTION cfstore.multiget_slice(keyspace text, column_family text, keys "any",
    start "any" DEFAULT NULL, finish "any" DEFAULT NULL, reversed boolean DEFAULT false,
    count integer DEFAULT 100, super_column "any" DEFAULT NULL)
RETURNS SETOF cfstore.cell AS 'MODULE_PATHNAME', 'cfstore_multiget_slice' LANGUAGE C STABLE;
COMMENT ON FUNCTION cfstore.multiget_slice(text, text, "any", "any", "any", boolean, integer, "any") IS
  'get_slice of every key of an array, by key in storage order';

CREATE FUNCTION cfstore.get_count(keyspace text, column_family text, key "any",
    start "any" DEFAULT NULL, finish "any" DEFAULT NULL, count integer DEFAULT NULL,
    super_column "any" DEFAULT NULL)
RETURNS integer AS 'MODULE_PATHNAME', 'cfstore_get_count' LANGUAGE C STABLE;
COMMENT ON FUNCTION cfstore.get_count(text, text, "any", "any", "any", integer, "any") IS
  'How many items get_slice would return between start and finish, capped at count (NULL: no cap)';

CREATE FUNCTION cfstore.multiget_count(keyspace text, column_family text, keys "any",
    start "any" DEFAULT NULL, finish "any" DEFAULT NULL, count integer DEFAULT NULL,
    super_column "any" DEFAULT NULL)
RETURNS TABLE(key text, count integer) AS 'MODULE_PATHNAME', 'cfstore_multiget_count'
LANGUAGE C STABLE ROWS 10;
COMMENT ON FUNCTION cfstore.multiget_count(text, text, "any", "any", "any", integer, "any") IS
  'get_count of every key of an array, 0 included, by key in storage order';

CREATE FUNCTION cfstore.get_range_slices(keyspace text, column_family text,
    start_key "any" DEFAULT NULL, end_key "any" DEFAULT NULL, key_count integer DEFAULT 100,
    start "any" DEFAULT NULL, finish "any" DEFAULT NULL, reversed boolean DEFAULT false,
    count integer DEFAULT 100, super_column "any" DEFAULT NULL)
RETURNS SETOF cfstore.cell AS 'MODULE_PATHNAME', 'cfstore_get_range_slices' LANGUAGE C STABLE;
COMMENT ON FUNCTION cfstore.get_range_slices(text, text, "any", "any", integer, "any", "any", boolean, integer, "any") IS
  'The slices of up to key_count rows with live matching columns, keys from start_key to end_key (inclusive) in unsigned byte order';

CREATE FUNCTION cfstore.get_indexed_slices(keyspace text, column_family text, expressions jsonb,
    start_key "any" DEFAULT NULL, key_count integer DEFAULT 100,
    start "any" DEFAULT NULL, finish "any" DEFAULT NULL, reversed boolean DEFAULT false,
    count integer DEFAULT 100)
RETURNS SETOF cfstore.cell AS 'MODULE_PATHNAME', 'cfstore_get_indexed_slices' LANGUAGE C STABLE;
COMMENT ON FUNCTION cfstore.get_indexed_slices(text, text, jsonb, "any", integer, "any", "any", boolean, integer) IS
  'The slices of up to key_count rows from start_key on whose columns satisfy every expression (EQ, GTE, GT, LTE, LT; one EQ on a KEYS-indexed column chooses the rows)';

-- ---------------------------------------------------------------------------
-- What a shard server does for the coordinator of a sharded keyspace
-- (src/api/cfremote.c): slices, scans, row keys and writes over the byte
-- encodings.  Internal: the coordinator calls them as the cluster's role,
-- through PL/Proxy or its own connections.  A slice and a scan return the
-- cells encoded (src/api/cfremote.h), a row of about a megabyte at a time;
-- _read_slice, for cql() and cli(), returns them as rows of raw_cell.
-- ---------------------------------------------------------------------------
CREATE TYPE cfstore.raw_cell AS (
  key          bytea,
  super_column bytea,
  column_name  bytea,
  value        bytea,
  writetime    bigint,
  ttl          integer,
  expires_at   bigint,
  is_counter   boolean
);
COMMENT ON TYPE cfstore.raw_cell IS 'A live cell as its encodings, as cql() and cli() read it';

CREATE FUNCTION cfstore._remote_slice(keyspace text, column_family text, index_name text, key bytea,
    super_column bytea, start bytea, finish bytea, reversed boolean, count bigint, whole_super boolean)
RETURNS SETOF bytea AS 'MODULE_PATHNAME', 'cfstore_remote_slice' LANGUAGE C VOLATILE;
CREATE FUNCTION cfstore._remote_scan(keyspace text, column_family text)
RETURNS SETOF bytea AS 'MODULE_PATHNAME', 'cfstore_remote_scan' LANGUAGE C VOLATILE;
CREATE FUNCTION cfstore._remote_row_keys(keyspace text, column_family text, from_key bytea, inclusive boolean,
    max integer)
RETURNS SETOF bytea AS 'MODULE_PATHNAME', 'cfstore_remote_row_keys' LANGUAGE C VOLATILE;
-- The same two reads for cql() and cli(), as their caller: on a coordinator
-- they read the shard servers (src/api/cfremote.c).
CREATE FUNCTION cfstore._read_slice(keyspace text, column_family text, index_name text, key bytea,
    super_column bytea, start bytea, finish bytea, reversed boolean, count bigint, whole_super boolean)
RETURNS SETOF cfstore.raw_cell AS 'MODULE_PATHNAME', 'cfstore_read_slice' LANGUAGE C VOLATILE;
CREATE FUNCTION cfstore._read_row_keys(keyspace text, column_family text, from_key bytea, inclusive boolean,
    max integer)
RETURNS SETOF bytea AS 'MODULE_PATHNAME', 'cfstore_read_row_keys' LANGUAGE C VOLATILE;
-- A shard's part of a map-reduce job (src/api/cfmapreduce.c).
CREATE FUNCTION cfstore._map_local(parts integer[], keyspace text, column_family text, map text, reduce text,
    run_as name)
RETURNS TABLE (part integer, key text, value text, value_type text, input bigint, emit bigint,
               output bigint, millis double precision)
  AS 'MODULE_PATHNAME', 'cfstore_map_local' LANGUAGE C VOLATILE STRICT;
-- A batch of cell writes (its format: src/api/cfremote.h); the number written.
CREATE FUNCTION cfstore._remote_write_batch(batch bytea)
RETURNS bigint AS 'MODULE_PATHNAME', 'cfstore_remote_write_batch' LANGUAGE C VOLATILE STRICT;
