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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/*
 * The 32 lowercase hex digits of a UUID's 16 bytes into hex.  A slice of a
 * TimeUUIDType column family formats one per cell: with SSE2 (every x86-64
 * processor) all 32 at once, each byte's two nibbles interleaved and
 * mapped to '0'..'9' or 'a'..'f' by a comparison, else a byte at a time.
 */
static inline void
uuid_hex(const uint8 *u, char *hex)
{
#ifdef __SSE2__
	const __m128i low = _mm_set1_epi8(0x0f);
	const __m128i nine = _mm_set1_epi8(9);
	const __m128i zero = _mm_set1_epi8('0');
	const __m128i letters = _mm_set1_epi8('a' - '0' - 10);
	__m128i		v = _mm_loadu_si128((const __m128i *) u);
	__m128i		hi = _mm_and_si128(_mm_srli_epi16(v, 4), low);
	__m128i		lo = _mm_and_si128(v, low);
	__m128i		first = _mm_unpacklo_epi8(hi, lo);
	__m128i		second = _mm_unpackhi_epi8(hi, lo);

	first = _mm_add_epi8(_mm_add_epi8(first, zero), _mm_and_si128(_mm_cmpgt_epi8(first, nine), letters));
	second = _mm_add_epi8(_mm_add_epi8(second, zero), _mm_and_si128(_mm_cmpgt_epi8(second, nine), letters));
	_mm_storeu_si128((__m128i *) hex, first);
	_mm_storeu_si128((__m128i *) (hex + 16), second);
#else
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < CF_UUID_LEN; i++)
	{
		hex[2 * i] = digits[u[i] >> 4];
		hex[2 * i + 1] = digits[u[i] & 0x0f];
	}
#endif
}

/* Format a UUID in canonical lowercase 8-4-4-4-12 form; out has 37 bytes. */
void
cfUuidFormat(const uint8 *u, char *out)
{
	char		hex[32];

	uuid_hex(u, hex);
	memcpy(out, hex, 8);
	out[8] = '-';
	memcpy(out + 9, hex + 8, 4);
	out[13] = '-';
	memcpy(out + 14, hex + 12, 4);
	out[18] = '-';
	memcpy(out + 19, hex + 16, 4);
	out[23] = '-';
	memcpy(out + 24, hex + 20, 12);
	out[36] = '\0';
}
