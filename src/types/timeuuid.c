/*-------------------------------------------------------------------------
 *
 * timeuuid.c
 *	  The cfstore.timeuuid SQL type: a version-1 UUID ordered the way
 *	  Cassandra's TimeUUIDType orders it (60-bit timestamp first, then the
 *	  16 bytes signed), so ORDER BY sorts by time.
 *
 * The representation is the 16 bytes of the UUID, exactly as uuid stores
 * them, so the cast to uuid is binary.  Every value is version 1: input,
 * binary receive and the cast from uuid reject other versions.  Equality
 * is byte equality, so hashing the bytes is consistent with the btree
 * order.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "marshal/cftype.h"

/* 100-ns ticks in a millisecond and in a microsecond */
#define TICKS_PER_MS 10000
#define TICKS_PER_US 10
/* microseconds between the UUID epoch (1582-10-15) and 2000-01-01 */
#define UUID_EPOCH_TO_PG_US (CF_UUID_EPOCH_OFFSET / TICKS_PER_US + \
							 INT64CONST(946684800000000))

#define DatumGetTimeuuidP(X)	((pg_uuid_t *) DatumGetPointer(X))
#define PG_GETARG_TIMEUUID_P(n) DatumGetTimeuuidP(PG_GETARG_DATUM(n))

PG_FUNCTION_INFO_V1(timeuuid_in);
PG_FUNCTION_INFO_V1(timeuuid_out);
PG_FUNCTION_INFO_V1(timeuuid_recv);
PG_FUNCTION_INFO_V1(timeuuid_send);
PG_FUNCTION_INFO_V1(timeuuid_cmp);
PG_FUNCTION_INFO_V1(timeuuid_lt);
PG_FUNCTION_INFO_V1(timeuuid_le);
PG_FUNCTION_INFO_V1(timeuuid_eq);
PG_FUNCTION_INFO_V1(timeuuid_ne);
PG_FUNCTION_INFO_V1(timeuuid_ge);
PG_FUNCTION_INFO_V1(timeuuid_gt);
PG_FUNCTION_INFO_V1(timeuuid_hash);
PG_FUNCTION_INFO_V1(timeuuid_hash_extended);
PG_FUNCTION_INFO_V1(timeuuid_from_uuid);
PG_FUNCTION_INFO_V1(timeuuid_now);
PG_FUNCTION_INFO_V1(timeuuid_min);
PG_FUNCTION_INFO_V1(timeuuid_max);
PG_FUNCTION_INFO_V1(timeuuid_time);

/* Raise unless the 16 bytes are a version-1 UUID. */
static void
check_version(const uint8 *u, int errcode_value)
{
	if (cfUuidVersion(u) != 1)
		ereport(ERROR,
				(errcode(errcode_value),
				 errmsg("Invalid version for TimeUUID type."),
				 errdetail("A timeuuid must be a version 1 UUID; this one is version %d.",
						   cfUuidVersion(u))));
}

/* Return a palloc'd copy of 16 bytes as a timeuuid datum. */
static Datum
make_timeuuid(const uint8 *u)
{
	pg_uuid_t  *r = palloc(sizeof(pg_uuid_t));

	memcpy(r->data, u, CF_UUID_LEN);
	return PointerGetDatum(r);
}

/* Text input: any form uuid accepts, version 1 only. */
Datum
timeuuid_in(PG_FUNCTION_ARGS)
{
	uint8		u[CF_UUID_LEN];

	cfUuidParse(PG_GETARG_CSTRING(0), u);
	check_version(u, ERRCODE_INVALID_TEXT_REPRESENTATION);
	return make_timeuuid(u);
}

/* Text output: canonical lowercase 8-4-4-4-12. */
Datum
timeuuid_out(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_TIMEUUID_P(0);
	char	   *s = palloc(37);

	cfUuidFormat(u->data, s);
	PG_RETURN_CSTRING(s);
}

/* Binary input: the 16 bytes, version 1 only. */
Datum
timeuuid_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	const uint8 *u = (const uint8 *) pq_getmsgbytes(buf, CF_UUID_LEN);

	check_version(u, ERRCODE_INVALID_BINARY_REPRESENTATION);
	return make_timeuuid(u);
}

/* Binary output: the 16 bytes. */
Datum
timeuuid_send(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_TIMEUUID_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (char *) u->data, CF_UUID_LEN);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* TimeUUIDType order of the two arguments. */
static int
cmp_args(FunctionCallInfo fcinfo)
{
	return cfTimeuuidCompare(PG_GETARG_TIMEUUID_P(0)->data,
							 PG_GETARG_TIMEUUID_P(1)->data);
}

/* btree support function 1 */
Datum
timeuuid_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(cmp_args(fcinfo));
}

/* operator < */
Datum
timeuuid_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_args(fcinfo) < 0);
}

/* operator <= */
Datum
timeuuid_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_args(fcinfo) <= 0);
}

/* operator = */
Datum
timeuuid_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_args(fcinfo) == 0);
}

/* operator <> */
Datum
timeuuid_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_args(fcinfo) != 0);
}

/* operator >= */
Datum
timeuuid_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_args(fcinfo) >= 0);
}

/* operator > */
Datum
timeuuid_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(cmp_args(fcinfo) > 0);
}

/* hash support function 1: equal timeuuids have equal bytes */
Datum
timeuuid_hash(PG_FUNCTION_ARGS)
{
	return hash_any(PG_GETARG_TIMEUUID_P(0)->data, CF_UUID_LEN);
}

/* hash support function 2 (hash partitioning) */
Datum
timeuuid_hash_extended(PG_FUNCTION_ARGS)
{
	return hash_any_extended(PG_GETARG_TIMEUUID_P(0)->data, CF_UUID_LEN,
							 PG_GETARG_INT64(1));
}

/* Cast uuid -> timeuuid: rejects other versions. */
Datum
timeuuid_from_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	check_version(u->data, ERRCODE_INVALID_PARAMETER_VALUE);
	return make_timeuuid(u->data);
}

/* timeuuid_now(): a new version-1 UUID, strictly increasing per backend. */
Datum
timeuuid_now(PG_FUNCTION_ARGS)
{
	uint8		u[CF_UUID_LEN];

	(void) fcinfo;				/* no arguments */
	cfTimeuuidNow(u);
	return make_timeuuid(u);
}

/* The UUID timestamp (100-ns ticks since 1582) of the millisecond of t. */
static uint64
millisecond_ticks(TimestampTz t)
{
	int64		us;
	int64		ms;

	if (TIMESTAMP_NOT_FINITE(t))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for a timeuuid")));
	us = t + UUID_EPOCH_TO_PG_US;
	if (us < 0 || us / 1000 >= (INT64CONST(1) << 60) / TICKS_PER_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for a timeuuid"),
				 errdetail("A timeuuid holds times from 1582-10-15 to 5236-03-31.")));
	ms = us / 1000;
	return (uint64) ms * TICKS_PER_MS;
}

/* min_timeuuid(t): the smallest timeuuid of t's millisecond. */
Datum
timeuuid_min(PG_FUNCTION_ARGS)
{
	uint8		u[CF_UUID_LEN];

	cfUuidFromTimestamp(millisecond_ticks(PG_GETARG_TIMESTAMPTZ(0)), 0x80, u);
	return make_timeuuid(u);
}

/* max_timeuuid(t): the largest timeuuid of t's millisecond. */
Datum
timeuuid_max(PG_FUNCTION_ARGS)
{
	uint8		u[CF_UUID_LEN];

	cfUuidFromTimestamp(millisecond_ticks(PG_GETARG_TIMESTAMPTZ(0)) + TICKS_PER_MS - 1,
						0x7f, u);
	return make_timeuuid(u);
}

/* timeuuid_time(u): the time of a timeuuid, truncated to microseconds. */
Datum
timeuuid_time(PG_FUNCTION_ARGS)
{
	uint64		ticks = cfUuidTimestamp(PG_GETARG_TIMEUUID_P(0)->data);

	PG_RETURN_TIMESTAMPTZ((TimestampTz) (ticks / TICKS_PER_US) - UUID_EPOCH_TO_PG_US);
}
