/*-------------------------------------------------------------------------
 *
 * cfuuid.c
 *	  Version-1 (time-based) UUID helpers: the 60-bit timestamp, generation
 *	  from libuuid with a per-backend strictly increasing guarantee, the
 *	  bounds of a millisecond, and the canonical text form.
 *
 * A v1 UUID's timestamp counts 100-ns intervals since 1582-10-15 and is
 * stored as time_low (bytes 0-3), time_mid (4-5) and time_hi (6-7, the high
 * nibble of byte 6 being the version).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <uuid/uuid.h>

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

#include "marshal/cftype.h"

/* The last UUID cfTimeuuidNow returned in this backend. */
static uint8 last_timeuuid[CF_UUID_LEN];
static bool have_last_timeuuid = false;

/* The 60-bit timestamp of a version-1 UUID. */
uint64
cfUuidTimestamp(const uint8 *u)
{
	return ((uint64) (u[6] & 0x0f) << 56) | ((uint64) u[7] << 48) |
		((uint64) u[4] << 40) | ((uint64) u[5] << 32) |
		((uint64) u[0] << 24) | ((uint64) u[1] << 16) |
		((uint64) u[2] << 8) | (uint64) u[3];
}

/* The version nibble of a UUID. */
int
cfUuidVersion(const uint8 *u)
{
	return u[6] >> 4;
}

/* Store a 60-bit timestamp and version 1 into the time fields of out. */
static void
set_timestamp(uint8 *out, uint64 ts)
{
	out[0] = (uint8) (ts >> 24);
	out[1] = (uint8) (ts >> 16);
	out[2] = (uint8) (ts >> 8);
	out[3] = (uint8) ts;
	out[4] = (uint8) (ts >> 40);
	out[5] = (uint8) (ts >> 32);
	out[6] = 0x10 | (uint8) ((ts >> 56) & 0x0f);
	out[7] = (uint8) (ts >> 48);
}

/*
 * Build the version-1 UUID with timestamp ts whose clock-sequence and node
 * bytes are all lowbyte: 0x80 gives the smallest UUID of that timestamp in
 * TimeUUIDType order (signed bytes), 0x7f the largest.
 */
void
cfUuidFromTimestamp(uint64 ts, uint8 lowbyte, uint8 *out)
{
	set_timestamp(out, ts);
	memset(out + 8, lowbyte, 8);
}

/*
 * A new version-1 UUID from libuuid.  Successive calls in one backend
 * strictly increase in TimeUUIDType order: if the clock has not moved past
 * the previous value, the timestamp is advanced by one tick.
 */
void
cfTimeuuidNow(uint8 *out)
{
	uuid_t		u;

	uuid_generate_time(u);
	memcpy(out, u, CF_UUID_LEN);
	Assert(cfUuidVersion(out) == 1);
	if (have_last_timeuuid && cfTimeuuidCompare(out, last_timeuuid) <= 0)
		set_timestamp(out, cfUuidTimestamp(last_timeuuid) + 1);
	memcpy(last_timeuuid, out, CF_UUID_LEN);
	have_last_timeuuid = true;
}

/* Parse any UUID text PostgreSQL's uuid type accepts. */
void
cfUuidParse(const char *str, uint8 *out)
{
	pg_uuid_t  *u = DatumGetUUIDP(DirectFunctionCall1(uuid_in, CStringGetDatum(str)));

	memcpy(out, u->data, CF_UUID_LEN);
}

/* Format a UUID in canonical lowercase 8-4-4-4-12 form; out has 37 bytes. */
void
cfUuidFormat(const uint8 *u, char *out)
{
	/* each byte's two digits, built on first use (a slice formats one per cell) */
	static char digits[256][2];
	static bool built = false;
	/* where each byte's two digits go: the dashes are at 8, 13, 18 and 23 */
	static const uint8 at[CF_UUID_LEN] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};

	if (unlikely(!built))
	{
		static const char hex[] = "0123456789abcdef";

		for (int b = 0; b < 256; b++)
		{
			digits[b][0] = hex[b >> 4];
			digits[b][1] = hex[b & 0x0f];
		}
		built = true;
	}
	for (int i = 0; i < CF_UUID_LEN; i++)
		memcpy(out + at[i], digits[u[i]], 2);
	out[8] = out[13] = out[18] = out[23] = '-';
	out[36] = '\0';
}
