/*-------------------------------------------------------------------------
 *
 * cfvarint.c
 *	  IntegerType and DecimalType: arbitrary-precision integers in the
 *	  big-endian two's-complement form of Java's BigInteger.toByteArray()
 *	  (minimal: 0 -> 00, 128 -> 00 80, -1 -> FF, -129 -> FF 7F), and decimals
 *	  as a 4-byte big-endian scale followed by such an unscaled integer
 *	  (value = unscaled * 10^-scale).
 *
 * Conversions use schoolbook arithmetic on byte arrays, which is fine for
 * the sizes column names and values have.  Comparisons never convert:
 * IntegerType compares the two's-complement bytes after skipping redundant
 * sign-extension bytes, DecimalType compares decimal digit strings by
 * magnitude, so neither depends on how large a scale is.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"

#include "marshal/cftype.h"

/*
 * The largest |scale| we render as text: beyond it the decimal string
 * would be megabytes of zeros.  Comparison has no such limit.
 */
#define CF_DECIMAL_MAX_TEXT_SCALE 1000000

/* Index of the most significant byte once redundant sign bytes are skipped. */
static int
most_significant_byte(const uint8 *v, int len)
{
	int			i;

	for (i = 0; i < len - 1; i++)
	{
		int8		b = (int8) v[i];
		int8		next = (int8) v[i + 1];

		if (b != 0 && b != -1)
			break;
		if (b == 0 && next < 0)
			break;
		if (b == -1 && next >= 0)
			break;
	}
	return i;
}

/* IntegerType order: numeric, ignoring redundant sign-extension bytes. */
int
cfVarintCompare(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			ia = most_significant_byte(a, alen);
	int			ib = most_significant_byte(b, blen);
	int			la = alen - ia,
				lb = blen - ib;
	bool		nega = (int8) a[ia] < 0,
				negb = (int8) b[ib] < 0;

	if (nega != negb)
		return nega ? -1 : 1;
	if (la != lb)
		return (la < lb) == !nega ? -1 : 1;
	if (a[ia] != b[ib])
		return (int8) a[ia] < (int8) b[ib] ? -1 : 1;
	for (int i = 1; i < la; i++)
		if (a[ia + i] != b[ib + i])
			return a[ia + i] < b[ib + i] ? -1 : 1;
	return 0;
}

/* Negate a two's-complement big-endian byte array in place. */
static void
negate_bytes(uint8 *v, int len)
{
	int			carry = 1;

	for (int i = len - 1; i >= 0; i--)
	{
		int			x = (uint8) ~v[i] + carry;

		v[i] = (uint8) x;
		carry = x >> 8;
	}
}

/*
 * Parse an optionally signed decimal integer (str, len) into the minimal
 * two's-complement encoding.  Returns NULL if it is not an integer.
 */
bytea *
cfVarintFromDecimal(const char *str, int len)
{
	bool		neg = false;
	int			pos = 0;
	int			ndigits;
	int			cap;
	uint8	   *mag;			/* magnitude, big-endian, right-aligned */
	int			used = 1;
	int			start;
	int			outlen;
	bytea	   *result;
	uint8	   *out;

	if (pos < len && (str[pos] == '+' || str[pos] == '-'))
		neg = (str[pos++] == '-');
	ndigits = len - pos;
	if (ndigits <= 0)
		return NULL;
	for (int i = pos; i < len; i++)
		if (str[i] < '0' || str[i] > '9')
			return NULL;

	/* log2(10)/8 < 0.42 bytes per digit; one spare byte for the sign */
	cap = ndigits / 2 + 2;
	mag = palloc0(cap);
	for (int i = pos; i < len; i++)
	{
		int			carry = str[i] - '0';

		CHECK_FOR_INTERRUPTS();

		for (int k = cap - 1; k >= cap - used; k--)
		{
			int			x = mag[k] * 10 + carry;

			mag[k] = (uint8) x;
			carry = x >> 8;
		}
		if (carry)
		{
			used++;
			mag[cap - used] = (uint8) carry;
		}
	}
	/* one leading zero byte so the magnitude reads as non-negative */
	used = Min(used + 1, cap);
	start = cap - used;
	if (neg)
		negate_bytes(mag + start, used);
	start += most_significant_byte(mag + start, used);
	outlen = cap - start;

	result = palloc(VARHDRSZ + outlen);
	SET_VARSIZE(result, VARHDRSZ + outlen);
	out = (uint8 *) VARDATA(result);
	memcpy(out, mag + start, outlen);
	pfree(mag);
	return result;
}

/* Render a two's-complement big-endian integer as a decimal string. */
char *
cfVarintToDecimal(const uint8 *data, int len)
{
	bool		neg;
	uint8	   *mag;
	int			first = 0;
	char	   *digits;
	int			nd = 0;
	char	   *result;
	int			r = 0;

	if (len == 0)
		return pstrdup("");
	neg = (int8) data[0] < 0;
	mag = palloc(len);
	memcpy(mag, data, len);
	if (neg)
		negate_bytes(mag, len);	/* -(-2^(8n-1)) reads correctly as unsigned */

	/* 9 decimal digits per division by 10^9; each byte < 2.41 digits */
	digits = palloc(len * 3 + 10);
	for (;;)
	{
		uint64		rem = 0;
		bool		zero = true;

		CHECK_FOR_INTERRUPTS();
		while (first < len && mag[first] == 0)
			first++;
		if (first == len)
			break;
		for (int i = first; i < len; i++)
		{
			uint64		cur = (rem << 8) | mag[i];

			mag[i] = (uint8) (cur / 1000000000);
			rem = cur % 1000000000;
			if (mag[i] != 0)
				zero = false;
		}
		for (int k = 0; k < 9; k++)
		{
			digits[nd++] = '0' + (rem % 10);
			rem /= 10;
			if (zero && rem == 0)
				break;
		}
		if (zero)
			break;
	}
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (nd == 0)
		digits[nd++] = '0';

	result = palloc(nd + 2);
	if (neg)
		result[r++] = '-';
	while (nd > 0)
		result[r++] = digits[--nd];
	result[r] = '\0';
	pfree(mag);
	pfree(digits);
	return result;
}

/*
 * Split a DecimalType value into sign, significant digits (no leading or
 * trailing zeros) and the decimal exponent of the first digit's position:
 * value = 0.d1d2d3... * 10^magnitude.  Zero has no digits.
 */
static void
decimal_digits(const uint8 *data, int len, bool *neg, char **digits,
			   int64 *magnitude)
{
	char	   *s = cfVarintToDecimal(data + 4, len - 4);
	char	   *d;
	int			n;

	*neg = (s[0] == '-');
	d = *neg ? s + 1 : s;
	if (d[0] == '\0' || strcmp(d, "0") == 0)
	{
		*digits = "";
		*neg = false;
		*magnitude = 0;
		return;
	}
	n = strlen(d);
	*magnitude = (int64) n - (int32) cfReadBe32(data);
	while (n > 0 && d[n - 1] == '0')
		d[--n] = '\0';
	*digits = d;
}

/*
 * DecimalType order: numeric (1.0 == 1.00).  Values of 1 to 3 bytes are
 * malformed (no scale); they sort before every well-formed non-empty value
 * and among themselves by their bytes.
 */
int
cfDecimalCompare(const uint8 *a, int alen, const uint8 *b, int blen)
{
	bool		nega,
				negb;
	char	   *da,
			   *db;
	int64		ma,
				mb;
	int			sign;
	int			c;
	size_t		la,
				lb;

	if (alen < 4 || blen < 4)
	{
		if (alen < 4 && blen < 4)
			return cfBytesCompare(a, alen, b, blen);
		return alen < 4 ? -1 : 1;
	}
	decimal_digits(a, alen, &nega, &da, &ma);
	decimal_digits(b, blen, &negb, &db, &mb);

	/* signs: negative < zero < positive */
	{
		int			sa = nega ? -1 : (da[0] ? 1 : 0);
		int			sb = negb ? -1 : (db[0] ? 1 : 0);

		if (sa != sb)
			return sa < sb ? -1 : 1;
		if (sa == 0)
			return 0;
		sign = sa;
	}
	if (ma != mb)
		return (ma < mb ? -1 : 1) * sign;
	la = strlen(da);
	lb = strlen(db);
	c = memcmp(da, db, Min(la, lb));
	if (c == 0)
		c = (la > lb) ? 1 : (la < lb ? -1 : 0);	/* trailing digits are non-zero */
	else
		c = c < 0 ? -1 : 1;
	return c * sign;
}

/* Render a DecimalType value as numeric prints it (scale kept: 1.50). */
char *
cfDecimalToString(const uint8 *data, int len)
{
	int32		scale;
	char	   *s;
	char	   *d;
	bool		neg;
	int			n;
	StringInfoData buf;

	if (len == 0)
		return pstrdup("");
	if (len < 4)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("DecimalType value of %d bytes has no scale", len)));
	scale = (int32) cfReadBe32(data);
	if (scale > CF_DECIMAL_MAX_TEXT_SCALE || scale < -CF_DECIMAL_MAX_TEXT_SCALE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("DecimalType scale %d is too large to render as text", scale),
				 errdetail("Text forms support scales from %d to %d.",
						   -CF_DECIMAL_MAX_TEXT_SCALE, CF_DECIMAL_MAX_TEXT_SCALE)));
	s = cfVarintToDecimal(data + 4, len - 4);
	if (s[0] == '\0')
		s = "0";
	neg = (s[0] == '-');
	d = neg ? s + 1 : s;
	n = strlen(d);

	initStringInfo(&buf);
	if (neg && strspn(d, "0") != (size_t) n)
		appendStringInfoChar(&buf, '-');
	if (scale <= 0)
	{
		appendStringInfoString(&buf, d);
		if (strcmp(d, "0") != 0)
			for (int i = 0; i < -scale; i++)
				appendStringInfoChar(&buf, '0');
	}
	else if (n > scale)
	{
		appendBinaryStringInfo(&buf, d, n - scale);
		appendStringInfoChar(&buf, '.');
		appendStringInfoString(&buf, d + n - scale);
	}
	else
	{
		appendStringInfoString(&buf, "0.");
		for (int i = 0; i < scale - n; i++)
			appendStringInfoChar(&buf, '0');
		appendStringInfoString(&buf, d);
	}
	return buf.data;
}

/*
 * Parse a plain decimal "[-+]digits[.digits]" (as numeric_out prints) into
 * a DecimalType value; the scale is the number of fraction digits.
 * Returns NULL if the text is not of that form.
 */
bytea *
cfDecimalFromPlainString(const char *str)
{
	StringInfoData digits;
	const char *p = str;
	int32		scale = 0;
	bool		point = false;
	bytea	   *unscaled;
	bytea	   *result;
	uint32		nscale;
	int			ulen;

	initStringInfo(&digits);
	if (*p == '-' || *p == '+')
		appendStringInfoChar(&digits, *p++);
	if (!isdigit((unsigned char) *p))
		return NULL;
	for (; *p; p++)
	{
		if (*p == '.' && !point)
			point = true;
		else if (isdigit((unsigned char) *p))
		{
			appendStringInfoChar(&digits, *p);
			if (point)
				scale++;
		}
		else
			return NULL;
	}
	unscaled = cfVarintFromDecimal(digits.data, digits.len);
	if (unscaled == NULL)
		return NULL;
	ulen = VARSIZE(unscaled) - VARHDRSZ;
	result = palloc(VARHDRSZ + 4 + ulen);
	SET_VARSIZE(result, VARHDRSZ + 4 + ulen);
	nscale = pg_hton32((uint32) scale);
	memcpy(VARDATA(result), &nscale, 4);
	memcpy(VARDATA(result) + 4, VARDATA(unscaled), ulen);
	return result;
}
