-- ---------------------------------------------------------------------------
-- The cfstore.timeuuid SQL type: version-1 UUIDs in TimeUUIDType order.
-- ---------------------------------------------------------------------------

CREATE TYPE cfstore.timeuuid;

CREATE FUNCTION cfstore.timeuuid_in(cstring) RETURNS cfstore.timeuuid
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cfstore.timeuuid_out(cfstore.timeuuid) RETURNS cstring
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cfstore.timeuuid_recv(internal) RETURNS cfstore.timeuuid
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION cfstore.timeuuid_send(cfstore.timeuuid) RETURNS bytea
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

CREATE TYPE cfstore.timeuuid (
  INPUT = cfstore.timeuuid_in,
  OUTPUT = cfstore.timeuuid_out,
  RECEIVE = cfstore.timeuuid_recv,
  SEND = cfstore.timeuuid_send,
  INTERNALLENGTH = 16,
  ALIGNMENT = char,
  STORAGE = plain,
  CATEGORY = 'U'
);
COMMENT ON TYPE cfstore.timeuuid IS
  'Version-1 UUID ordered like Cassandra''s TimeUUIDType: by its 60-bit timestamp, then its bytes (signed)';

CREATE FUNCTION cfstore.timeuuid_cmp(cfstore.timeuuid, cfstore.timeuuid) RETURNS integer
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_lt(cfstore.timeuuid, cfstore.timeuuid) RETURNS boolean
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_le(cfstore.timeuuid, cfstore.timeuuid) RETURNS boolean
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_eq(cfstore.timeuuid, cfstore.timeuuid) RETURNS boolean
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_ne(cfstore.timeuuid, cfstore.timeuuid) RETURNS boolean
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_ge(cfstore.timeuuid, cfstore.timeuuid) RETURNS boolean
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_gt(cfstore.timeuuid, cfstore.timeuuid) RETURNS boolean
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_hash(cfstore.timeuuid) RETURNS integer
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION cfstore.timeuuid_hash_extended(cfstore.timeuuid, bigint) RETURNS bigint
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR cfstore.< (
  LEFTARG = cfstore.timeuuid, RIGHTARG = cfstore.timeuuid, FUNCTION = cfstore.timeuuid_lt,
  COMMUTATOR = OPERATOR(cfstore.>), NEGATOR = OPERATOR(cfstore.>=),
  RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR cfstore.<= (
  LEFTARG = cfstore.timeuuid, RIGHTARG = cfstore.timeuuid, FUNCTION = cfstore.timeuuid_le,
  COMMUTATOR = OPERATOR(cfstore.>=), NEGATOR = OPERATOR(cfstore.>),
  RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR cfstore.= (
  LEFTARG = cfstore.timeuuid, RIGHTARG = cfstore.timeuuid, FUNCTION = cfstore.timeuuid_eq,
  COMMUTATOR = OPERATOR(cfstore.=), NEGATOR = OPERATOR(cfstore.<>),
  RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR cfstore.<> (
  LEFTARG = cfstore.timeuuid, RIGHTARG = cfstore.timeuuid, FUNCTION = cfstore.timeuuid_ne,
  COMMUTATOR = OPERATOR(cfstore.<>), NEGATOR = OPERATOR(cfstore.=),
  RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR cfstore.>= (
  LEFTARG = cfstore.timeuuid, RIGHTARG = cfstore.timeuuid, FUNCTION = cfstore.timeuuid_ge,
  COMMUTATOR = OPERATOR(cfstore.<=), NEGATOR = OPERATOR(cfstore.<),
  RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR cfstore.> (
  LEFTARG = cfstore.timeuuid, RIGHTARG = cfstore.timeuuid, FUNCTION = cfstore.timeuuid_gt,
  COMMUTATOR = OPERATOR(cfstore.<), NEGATOR = OPERATOR(cfstore.<=),
  RESTRICT = scalargtsel, JOIN = scalargtjoinsel);

CREATE OPERATOR CLASS cfstore.timeuuid_ops
  DEFAULT FOR TYPE cfstore.timeuuid USING btree AS
    OPERATOR 1 cfstore.<,
    OPERATOR 2 cfstore.<=,
    OPERATOR 3 cfstore.=,
    OPERATOR 4 cfstore.>=,
    OPERATOR 5 cfstore.>,
    FUNCTION 1 cfstore.timeuuid_cmp(cfstore.timeuuid, cfstore.timeuuid);

CREATE OPERATOR CLASS cfstore.timeuuid_hash_ops
  DEFAULT FOR TYPE cfstore.timeuuid USING hash AS
    OPERATOR 1 cfstore.=,
    FUNCTION 1 cfstore.timeuuid_hash(cfstore.timeuuid),
    FUNCTION 2 cfstore.timeuuid_hash_extended(cfstore.timeuuid, bigint);

-- The bytes are uuid's bytes: the cast to uuid needs no function; the cast
-- from uuid checks the version.
CREATE CAST (cfstore.timeuuid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE FUNCTION cfstore.timeuuid(uuid) RETURNS cfstore.timeuuid
  AS 'MODULE_PATHNAME', 'timeuuid_from_uuid' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
CREATE CAST (uuid AS cfstore.timeuuid) WITH FUNCTION cfstore.timeuuid(uuid) AS ASSIGNMENT;

CREATE FUNCTION cfstore.timeuuid_now() RETURNS cfstore.timeuuid
  AS 'MODULE_PATHNAME', 'timeuuid_now' LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.timeuuid_now() IS
  'A new version-1 UUID; successive calls in one session strictly increase';

CREATE FUNCTION cfstore.min_timeuuid(timestamptz) RETURNS cfstore.timeuuid
  AS 'MODULE_PATHNAME', 'timeuuid_min' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.min_timeuuid(timestamptz) IS
  'The smallest timeuuid of the millisecond of the given time';

CREATE FUNCTION cfstore.max_timeuuid(timestamptz) RETURNS cfstore.timeuuid
  AS 'MODULE_PATHNAME', 'timeuuid_max' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.max_timeuuid(timestamptz) IS
  'The largest timeuuid of the millisecond of the given time';

CREATE FUNCTION cfstore.timeuuid_time(cfstore.timeuuid) RETURNS timestamptz
  AS 'MODULE_PATHNAME', 'timeuuid_time' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION cfstore.timeuuid_time(cfstore.timeuuid) IS
  'The time of a timeuuid, truncated to microseconds';
