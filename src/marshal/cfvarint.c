/*-------------------------------------------------------------------------
 *
 * cfvarint.c
 *	  IntegerType and DecimalType: arbitrary-precision integers in the
 *	  big-endian two's-complement form of Java's BigInteger.toByteArray()
 *	  (minimal: 0 -> 00, 128 -> 00 80, -1 -> FF, -129 -> FF 7F), and decimals
 *	  as a 4-byte big-endian scale followed by such an unscaled integer
 *	  (value = unscaled * 10^-scale).
 *
 * Conversion to and from decimal text goes through cfbignum.c, whose
 * divide-and-conquer radix conversion with Karatsuba and Toom-3
 * multiplication handles values of millions of digits in a fraction of a
 * second; schoolbook arithmetic, quadratic in the length, took minutes.
 * Comparisons never convert to text: IntegerType compares the
 * two's-complement bytes after skipping redundant sign-extension bytes;
 * DecimalType compares signs, then the unscaled integers when the scales
 * are equal, and otherwise decides from the magnitudes' bit lengths, or
 * multiplies one by the power of ten between the scales only when those
 * cannot tell, which bounds the work by the values' sizes whatever the
 * scales are.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"

#include "marshal/cfbignum.h"
#include "marshal/cftype.h"

/*
 * The largest |scale| we render as text: beyond it the decimal string
 * would be megabytes of zeros.  Comparison has no such limit.
 */
#define CF_DECIMAL_MAX_TEXT_SCALE 1000000

/* Whether a DecimalType value of this scale has a text form. */
static inline bool
decimal_text_scale_ok(int64 scale)
{
	return scale >= -CF_DECIMAL_MAX_TEXT_SCALE &&
		scale <= CF_DECIMAL_MAX_TEXT_SCALE;
}

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
 * The magnitude of a non-empty two's-complement big-endian integer as
 * binary limbs (cfbignum.h); *n is set to its normalized length.  neg says
 * whether the value is negative (its first byte's top bit).
 */
static uint64 *
magnitude_from_bytes(const uint8 *data, int len, bool neg, int *n)
{
	int			nl = (len + 7) / 8;
	uint64	   *m = palloc(nl * sizeof(uint64));

	for (int i = 0; i < nl; i++)
	{
		int			end = len - 8 * i;

		if (end >= 8)
			m[i] = cfReadBe64(data + end - 8);
		else
		{
			/* the top limb, sign-extended */
			uint64		v = neg ? PG_UINT64_MAX : 0;

			for (int b = 0; b < end; b++)
				v = (v << 8) | data[b];
			m[i] = v;
		}
	}
	if (neg)
	{
		/* -(-2^(64nl-1)) still reads correctly as unsigned */
		uint64		c = 1;

		for (int i = 0; i < nl; i++)
		{
			m[i] = ~m[i] + c;
			c = (c && m[i] == 0);
		}
	}
	*n = cfBigNormalize(m, nl);
	return m;
}

/* The minimal two's-complement encoding of +-(binary magnitude). */
static bytea *
varint_from_magnitude(const uint64 *mag, int n, bool neg)
{
	/* one leading zero byte so the magnitude reads as non-negative */
	int			nbytes = 8 * n + 1;
	uint8	   *buf = palloc(nbytes);
	int			start;
	bytea	   *result;

	buf[0] = 0;
	for (int i = 0; i < n; i++)
	{
		uint64		be = pg_hton64(mag[i]);

		memcpy(buf + 1 + 8 * (n - 1 - i), &be, 8);
	}
	if (neg)
		negate_bytes(buf, nbytes);
	start = most_significant_byte(buf, nbytes);
	result = cfMakeBytea(buf + start, nbytes - start);
	pfree(buf);
	return result;
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
	uint64	   *dec,
			   *bin;
	int			dn,
				bn;
	bytea	   *result;

	if (pos < len && (str[pos] == '+' || str[pos] == '-'))
		neg = (str[pos++] == '-');
	if (len - pos <= 0)
		return NULL;
	for (int i = pos; i < len; i++)
		if (str[i] < '0' || str[i] > '9')
			return NULL;
	while (pos < len - 1 && str[pos] == '0')
		pos++;

	dec = palloc(((len - pos) / CF_BIG_DEC_DIGITS + 1) * sizeof(uint64));
	dn = cfBigDecFromDigits(str + pos, len - pos, dec);
	bin = palloc(cfBigDecToBinLimbs(dn) * sizeof(uint64));
	bn = cfBigDecToBin(dec, dn, bin);
	result = varint_from_magnitude(bin, bn, neg);
	pfree(dec);
	pfree(bin);
	return result;
}

/* Render a two's-complement big-endian integer as a decimal string. */
char *
cfVarintToDecimal(const uint8 *data, int len)
{
	bool		neg;
	uint64	   *mag,
			   *dec;
	int			n,
				dn;
	char	   *result;
	int			r = 0;

	if (len == 0)
		return pstrdup("");
	neg = (int8) data[0] < 0;
	mag = magnitude_from_bytes(data, len, neg, &n);
	dec = palloc(cfBigBinToDecLimbs(n) * sizeof(uint64));
	dn = cfBigBinToDec(mag, n, dec);

	result = palloc((Size) CF_BIG_DEC_DIGITS * Max(dn, 1) + 2);
	if (neg)
		result[r++] = '-';
	r += cfBigDecToDigits(dec, dn, result + r);
	result[r] = '\0';
	pfree(mag);
	pfree(dec);
	return result;
}

/* Sign of a BigInteger value: -1, 0 or 1; the empty value is zero. */
static int
varint_sign(const uint8 *v, int len)
{
	if (len == 0)
		return 0;
	if ((int8) v[0] < 0)
		return -1;
	for (int i = 0; i < len; i++)
		if (v[i] != 0)
			return 1;
	return 0;
}

#ifdef HAVE_INT128
/*
 * The value of a BigInteger of at most 8 bytes once redundant sign bytes
 * are skipped (start is most_significant_byte's answer), or false.
 */
static bool
varint_int64(const uint8 *v, int len, int start, int64 *out)
{
	uint64		x;

	if (len - start > 8)
		return false;
	x = (uint64) (int64) (int8) v[start];
	for (int i = start + 1; i < len; i++)
		x = (x << 8) | v[i];
	*out = (int64) x;
	return true;
}
#endif

/*
 * Compare magnitudes x and y * 10^k (k > 0), deciding from bit lengths
 * when they differ enough, else computing y * 10^k = (y * 5^k) << k: that
 * happens only when 10^k is about as long as x / y, so the work is bounded
 * by the values' sizes, whatever the scales.
 */
static int
compare_scaled(const uint64 *x, int xn, const uint64 *y, int yn, int64 k)
{
	int64		bx = cfBigBitLength(x, xn);
	int64		by = cfBigBitLength(y, yn);
	double		kl = (double) k * 3.321928094887362;	/* k * log2(10) */
	uint64	   *p,
			   *prod,
			   *s;
	int			pn,
				sn,
				c;

	/*
	 * 2^(bx-1) <= x < 2^bx and 2^(by-1) * 10^k <= y * 10^k < 2^by * 10^k; a
	 * margin of a whole bit covers the rounding of kl.
	 */
	if ((double) (bx - by + 1) <= kl - 1.0)
		return -1;
	if ((double) (bx - 1 - by) >= kl + 1.0)
		return 1;

	p = cfBigPow5(k, &pn);
	prod = palloc_extended(((Size) yn + pn) * sizeof(uint64), MCXT_ALLOC_HUGE);
	cfBigMul(prod, y, yn, p, pn, CF_BIG_BIN);
	s = cfBigShiftLeft(prod, yn + pn, k, &sn);
	c = cfBigCompare(x, xn, s, sn);
	pfree(p);
	pfree(prod);
	pfree(s);
	return c;
}

/*
 * DecimalType order: numeric (1.0 == 1.00).  Values of 1 to 3 bytes are
 * malformed (no scale); they sort before every well-formed non-empty value
 * and among themselves by their bytes.  A value of just a scale is zero.
 *
 * No text is involved: equal scales compare the unscaled integers; small
 * values compare exactly in 128-bit arithmetic; others compare magnitudes,
 * from their bit lengths when those decide (compare_scaled).
 */
int
cfDecimalCompare(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int32		sa,
				sb;
	const uint8 *ua,
			   *ub;
	int			ual,
				ubl;
	int			sgn,
				sgnb;
	int64		d;
	uint64	   *xa,
			   *xb;
	int			na,
				nb;
	int			c;

	if (alen < 4 || blen < 4)
	{
		if (alen < 4 && blen < 4)
			return cfBytesCompare(a, alen, b, blen);
		return alen < 4 ? -1 : 1;
	}
	sa = (int32) cfReadBe32(a);
	sb = (int32) cfReadBe32(b);
	ua = a + 4;
	ub = b + 4;
	ual = alen - 4;
	ubl = blen - 4;

	/* signs: negative < zero < positive */
	sgn = varint_sign(ua, ual);
	sgnb = varint_sign(ub, ubl);
	if (sgn != sgnb)
		return sgn < sgnb ? -1 : 1;
	if (sgn == 0)
		return 0;
	if (sa == sb)
		return cfVarintCompare(ua, ual, ub, ubl);

	/* value = unscaled * 10^-scale: bring both to the larger scale */
	d = (int64) sa - sb;
#ifdef HAVE_INT128
	if (d >= -18 && d <= 18)
	{
		int64		va,
					vb;

		if (varint_int64(ua, ual, most_significant_byte(ua, ual), &va) &&
			varint_int64(ub, ubl, most_significant_byte(ub, ubl), &vb))
		{
			/* |v| <= 2^63 and 10^18 < 2^60: the products fit in 124 bits */
			int128		x = va,
						y = vb;
			int64		p = 1;

			for (int i = 0; i < (d > 0 ? d : -d); i++)
				p *= 10;
			if (d > 0)
				y *= p;
			else
				x *= p;
			return x < y ? -1 : (x > y ? 1 : 0);
		}
	}
#endif

	xa = magnitude_from_bytes(ua, ual, sgn < 0, &na);
	xb = magnitude_from_bytes(ub, ubl, sgn < 0, &nb);
	if (d > 0)
		c = compare_scaled(xa, na, xb, nb, d);	/* |ua| vs |ub| * 10^d */
	else
		c = -compare_scaled(xb, nb, xa, na, -d);	/* |ua| * 10^-d vs |ub| */
	pfree(xa);
	pfree(xb);
	return sgn > 0 ? c : -c;
}

/* Append count '0' characters. */
static void
append_zeros(StringInfo buf, int count)
{
	enlargeStringInfo(buf, count);
	memset(buf->data + buf->len, '0', count);
	buf->len += count;
	buf->data[buf->len] = '\0';
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
	if (!decimal_text_scale_ok(scale))
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
			append_zeros(&buf, -scale);
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
		append_zeros(&buf, scale - n);
		appendStringInfoString(&buf, d);
	}
	return buf.data;
}

/*
 * Parse decimal text into a DecimalType value as java.math.BigDecimal(String)
 * reads it: "[-+](digits[.[digits]] | .digits)[(e|E)[-+]digits]", whose
 * unscaled value is all the digits and whose scale is the number of fraction
 * digits less the exponent, so 1.50 has scale 2 and 1.23E+5 scale -3.  White
 * space after the exponent marker is allowed, as numeric_in allows it.
 * Returns NULL if the text is not of that form or its exponent does not fit
 * in 32 bits (BigDecimal's "Exponent overflow"); raises an error for a scale
 * that cfDecimalToString would refuse, so what is stored reads back as text.
 */
bytea *
cfDecimalFromString(const char *str)
{
	const char *p = str;
	const char *intpart;
	const char *frac = NULL;
	int			intlen,
				fraclen = 0;
	int			sign = 0;
	int64		exponent = 0;
	int64		scale;
	char	   *digits;
	bytea	   *unscaled;
	bytea	   *result;
	uint32		nscale;
	int			ulen;

	if (*p == '-' || *p == '+')
		sign = *p++;
	intpart = p;
	while (*p >= '0' && *p <= '9')
		p++;
	intlen = p - intpart;
	if (*p == '.')
	{
		frac = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		fraclen = p - frac;
	}
	if (intlen + fraclen == 0)
		return NULL;
	if (*p == 'e' || *p == 'E')
	{
		bool		eneg = false;

		p++;
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '-' || *p == '+')
			eneg = (*p++ == '-');
		if (*p < '0' || *p > '9')
			return NULL;
		for (; *p >= '0' && *p <= '9'; p++)
		{
			exponent = exponent * 10 + (*p - '0');
			if (exponent > (int64) PG_INT32_MAX + 1)
				return NULL;
		}
		if (eneg)
			exponent = -exponent;
		else if (exponent > PG_INT32_MAX)
			return NULL;
	}
	if (*p != '\0')
		return NULL;

	/* refuse what cannot be rendered before any work on the digits */
	scale = (int64) fraclen - exponent;
	if (!decimal_text_scale_ok(scale))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("DecimalType scale %lld is too large to read from text",
						(long long) scale),
				 errdetail("Text forms support scales from %d to %d.",
						   -CF_DECIMAL_MAX_TEXT_SCALE, CF_DECIMAL_MAX_TEXT_SCALE)));

	/* the unscaled integer: the digits without the point */
	digits = palloc(1 + intlen + fraclen);
	if (sign)
		digits[0] = (char) sign;
	memcpy(digits + (sign ? 1 : 0), intpart, intlen);
	if (fraclen > 0)
		memcpy(digits + (sign ? 1 : 0) + intlen, frac, fraclen);
	unscaled = cfVarintFromDecimal(digits, (sign ? 1 : 0) + intlen + fraclen);
	pfree(digits);
	if (unscaled == NULL)
		return NULL;
	ulen = VARSIZE(unscaled) - VARHDRSZ;
	result = palloc(VARHDRSZ + 4 + ulen);
	SET_VARSIZE(result, VARHDRSZ + 4 + ulen);
	nscale = pg_hton32((uint32) (int32) scale);
	memcpy(VARDATA(result), &nscale, 4);
	memcpy(VARDATA(result) + 4, VARDATA(unscaled), ulen);
	pfree(unscaled);
	return result;
}
