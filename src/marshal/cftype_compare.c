/*-------------------------------------------------------------------------
 *
 * cftype_compare.c
 *	  Compare encoded values in Cassandra's order (AbstractType.compare, 1.2).
 *
 * Every comparison returns -1, 0 or 1.  The empty value sorts before every
 * non-empty value for every type (ReversedType included).  The orders have
 * traps that are deliberate here because they are Cassandra's:
 *	- LexicalUUIDType compares two signed 64-bit halves (java.util.UUID);
 *	- DateType compares unsigned bytes, so negative dates sort last;
 *	- TimeUUIDType compares the 60-bit timestamp, then signed bytes;
 *	- IntegerType ignores redundant sign-extension bytes;
 *	- BooleanType compares its byte signed (0x80 < 0x00).
 *
 * Callers pass validated values; an invalid length never reads out of
 * bounds (it falls back to an unsigned byte comparison).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "marshal/cftype.h"

#define SIGN(x) ((x) < 0 ? -1 : ((x) > 0 ? 1 : 0))

/* Unsigned lexicographic order, a shorter prefix first (BytesType). */
int
cfBytesCompare(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c != 0)
		return SIGN(c);
	return SIGN(alen - blen);
}

/* Signed-byte lexicographic order, a shorter prefix first (ByteBuffer.compareTo). */
int
cfSignedBytesCompare(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			n = Min(alen, blen);

	for (int i = 0; i < n; i++)
		if (a[i] != b[i])
			return ((int8) a[i] < (int8) b[i]) ? -1 : 1;
	return SIGN(alen - blen);
}

/* LongType / Int32Type: first byte signed, then the rest unsigned. */
static int
compare_fixed_signed(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			d = (int) (int8) a[0] - (int) (int8) b[0];

	if (d != 0)
		return SIGN(d);
	return cfBytesCompare(a, alen, b, blen);
}

/* Java Float.compareTo: -0.0 < 0.0, NaN greatest and equal to NaN. */
static int
compare_float(const uint8 *a, const uint8 *b)
{
	uint32		ua,
				ub;
	float4		fa,
				fb;
	int32		ba,
				bb;

	ua = cfReadBe32(a);
	ub = cfReadBe32(b);
	memcpy(&fa, &ua, 4);
	memcpy(&fb, &ub, 4);
	if (fa < fb)
		return -1;
	if (fa > fb)
		return 1;
	/* equal, or at least one NaN: compare canonical bit patterns */
	ba = isnan(fa) ? 0x7fc00000 : (int32) ua;
	bb = isnan(fb) ? 0x7fc00000 : (int32) ub;
	return ba == bb ? 0 : (ba < bb ? -1 : 1);
}

/* Java Double.compareTo. */
static int
compare_double(const uint8 *a, const uint8 *b)
{
	uint64		ua,
				ub;
	float8		fa,
				fb;
	int64		ba,
				bb;

	ua = cfReadBe64(a);
	ub = cfReadBe64(b);
	memcpy(&fa, &ua, 8);
	memcpy(&fb, &ub, 8);
	if (fa < fb)
		return -1;
	if (fa > fb)
		return 1;
	ba = isnan(fa) ? INT64CONST(0x7ff8000000000000) : (int64) ua;
	bb = isnan(fb) ? INT64CONST(0x7ff8000000000000) : (int64) ub;
	return ba == bb ? 0 : (ba < bb ? -1 : 1);
}

/* The 60-bit timestamps of two version-1 UUIDs, compared (TimeUUIDType step 2). */
static int
compare_uuid_timestamps(const uint8 *a, const uint8 *b)
{
	static const int order[] = {6, 7, 4, 5, 0, 1, 2, 3};

	for (int i = 0; i < 8; i++)
	{
		int			k = order[i];
		int			x = (k == 6) ? (a[k] & 0x0f) : a[k];
		int			y = (k == 6) ? (b[k] & 0x0f) : b[k];

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* TimeUUIDType order of two 16-byte values: timestamp, then signed bytes. */
int
cfTimeuuidCompare(const uint8 *a, const uint8 *b)
{
	int			c = compare_uuid_timestamps(a, b);

	if (c != 0)
		return c;
	return cfSignedBytesCompare(a, CF_UUID_LEN, b, CF_UUID_LEN);
}

/* UUIDType: version, then (both v1) timestamp, then unsigned bytes. */
static int
compare_uuid(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			va,
				vb;

	if (alen < CF_UUID_LEN || blen < CF_UUID_LEN)
	{
		if (alen < CF_UUID_LEN && blen < CF_UUID_LEN)
			return 0;
		return alen < CF_UUID_LEN ? -1 : 1;
	}
	va = a[6] >> 4;
	vb = b[6] >> 4;
	if (va != vb)
		return va < vb ? -1 : 1;
	if (va == 1)
	{
		int			c = compare_uuid_timestamps(a, b);

		if (c != 0)
			return c;
	}
	return cfBytesCompare(a, CF_UUID_LEN, b, CF_UUID_LEN);
}

/* LexicalUUIDType: java.util.UUID.compareTo, two signed 64-bit halves. */
static int
compare_lexical_uuid(const uint8 *a, const uint8 *b)
{
	int64		ha = (int64) cfReadBe64(a),
				hb = (int64) cfReadBe64(b);

	if (ha != hb)
		return ha < hb ? -1 : 1;
	ha = (int64) cfReadBe64(a + 8);
	hb = (int64) cfReadBe64(b + 8);
	if (ha != hb)
		return ha < hb ? -1 : 1;
	return 0;
}

/* BooleanType: non-1-byte values tie and sort first, else the byte signed. */
static int
compare_boolean(const uint8 *a, int alen, const uint8 *b, int blen)
{
	if (alen != 1)
		return blen != 1 ? 0 : -1;
	if (blen != 1)
		return 1;
	return SIGN((int) (int8) a[0] - (int) (int8) b[0]);
}

/*
 * CompositeType: component by component under each component's type, then
 * the end-of-component bytes (signed); a shorter prefix sorts first.
 */
static int
compare_composite(const CfType *type, const uint8 *a, int alen,
				  const uint8 *b, int blen)
{
	int			pa = 0,
				pb = 0;

	for (int i = 0; pa < alen && pb < blen; i++)
	{
		int			la,
					lb,
					c;
		int8		ea,
					eb;

		/* malformed values: fall back to unsigned bytes for the remainder */
		if (i >= type->nsub || alen - pa < 3 || blen - pb < 3)
			return cfBytesCompare(a + pa, alen - pa, b + pb, blen - pb);
		la = (a[pa] << 8) | a[pa + 1];
		lb = (b[pb] << 8) | b[pb + 1];
		if (alen - pa - 2 < la + 1 || blen - pb - 2 < lb + 1)
			return cfBytesCompare(a + pa, alen - pa, b + pb, blen - pb);
		c = cfTypeCompare(type->sub[i], a + pa + 2, la, b + pb + 2, lb);
		if (c != 0)
			return c;
		pa += 2 + la;
		pb += 2 + lb;
		ea = (int8) a[pa++];
		eb = (int8) b[pb++];
		if (ea < 0)
		{
			if (eb >= 0)
				return -1;
		}
		else if (ea > 0)
		{
			if (eb <= 0)
				return 1;
		}
		else if (eb != 0)
			return eb < 0 ? 1 : -1;
	}
	if (pa >= alen)
		return pb >= blen ? 0 : -1;
	return 1;
}

/*
 * Compare two encoded values in the type's order; -1, 0 or 1.
 */
int
cfTypeCompare(const CfType *type, const uint8 *a, int alen,
			  const uint8 *b, int blen)
{
	if (alen == 0 || blen == 0)
		return (alen == 0) ? (blen == 0 ? 0 : -1) : 1;

	switch (type->kind)
	{
		case CF_BYTES:
		case CF_ASCII:
		case CF_UTF8:
		case CF_DATE:
		case CF_COUNTER:
			return cfBytesCompare(a, alen, b, blen);
		case CF_LONG:
		case CF_INT32:
			return compare_fixed_signed(a, alen, b, blen);
		case CF_INTEGER:
			return cfVarintCompare(a, alen, b, blen);
		case CF_DECIMAL:
			return cfDecimalCompare(a, alen, b, blen);
		case CF_FLOAT:
			if (alen != 4 || blen != 4)
				break;
			return compare_float(a, b);
		case CF_DOUBLE:
			if (alen != 8 || blen != 8)
				break;
			return compare_double(a, b);
		case CF_BOOLEAN:
			return compare_boolean(a, alen, b, blen);
		case CF_UUID:
			return compare_uuid(a, alen, b, blen);
		case CF_LEXICALUUID:
			if (alen != CF_UUID_LEN || blen != CF_UUID_LEN)
				break;
			return compare_lexical_uuid(a, b);
		case CF_TIMEUUID:
			if (alen != CF_UUID_LEN || blen != CF_UUID_LEN)
				break;
			return cfTimeuuidCompare(a, b);
		case CF_COMPOSITE:
			return compare_composite(type, a, alen, b, blen);
		case CF_REVERSED:
			return cfTypeCompare(type->sub[0], b, blen, a, alen);
	}
	return cfBytesCompare(a, alen, b, blen);
}
