/*-------------------------------------------------------------------------
 *
 * cfbignum.c
 *	  Big unsigned magnitudes for IntegerType and DecimalType: multiplication
 *	  and conversion between binary and decimal in subquadratic time.
 *
 * A magnitude is an array of 64-bit limbs, least significant first, in one
 * of two bases: 2^64 ("binary", what the two's-complement bytes of a
 * BigInteger hold) or 10^18 ("decimal", eighteen digits of the text per
 * limb).  Every routine here works in either base; only the carry
 * arithmetic differs.  Products of two limbs are 128-bit (the Wide type:
 * the compiler's 128-bit integer where there is one, else two words).
 *
 * Multiplication.  Below a threshold (KARA_*_THRESHOLD limbs) the
 * schoolbook method, a column of the product at a time with the column's
 * sum in registers; decimal columns are divided by 10^18 through a
 * precomputed reciprocal, each independently of the others, so only small
 * carries pass from column to column.  Above the threshold Karatsuba's
 * method, in the subtractive form
 *	 a*b = z2*B^2h + (z0 + z2 +- |a0-a1|*|b1-b0|)*B^h + z0
 * so no partial product grows an extra limb; it also takes operands of
 * different lengths (both split at half the longer).  From a second
 * threshold (TOOM_*_THRESHOLD) Toom-3: the operands cut in three, the
 * product's values at 0, 1, -1, 2 and infinity (five products of a third
 * of the length, against Karatsuba's nine of a quarter for two levels) are
 * interpolated in an order where every intermediate value is non-negative.
 * An operand at least twice as long as the other is cut into pieces as
 * long as the shorter one.  Squares take their own path (one operand to
 * evaluate, and a schoolbook step that computes each cross product once).
 * Each top-level multiplication allocates one workspace, sized by the same
 * recursion the multiplication follows, that all levels share.
 *
 * Radix conversion, divide and conquer, using multiplication only: a
 * number of n limbs is split at h, the largest power of two below n,
 *	 decimal -> binary:  bin(x) = bin(hi) * 10^(18h) + bin(lo)
 *	 binary -> decimal:  dec(x) = dec(hi) * (2^64)^h + dec(lo)
 * where the power is taken, already in the target base, from a table
 * built by repeated squaring (10^(18*2^k) in binary, 2^(64*2^k) in
 * decimal: the latter squared in base 10^18, so no long division is ever
 * needed).  Splitting at powers of two makes every level share the table.
 * 10^(18h) has 18h low zero bits: the table keeps it without its low zero
 * limbs, which makes those products about 30% shorter.  Pieces of at most
 * CONV_THRESHOLD limbs are converted by the quadratic loop (multiply the
 * result so far by the old base, add the next limb).
 *
 * The conversions cost O(M(n)), M(n) the cost of a multiplication (the
 * levels shrink geometrically), O(n^1.47) with Toom-3, against O(n^2) for
 * the quadratic loops: 1,000,000 digits convert in a fraction of a second
 * rather than minutes.
 *
 * Loops that can run long call CHECK_FOR_INTERRUPTS().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

#include "marshal/cfbignum.h"

#define DEC_BASE CF_BIG_DEC_BASE

/*
 * Operand lengths (limbs) from which Karatsuba beats the schoolbook method,
 * and the length up to which radix conversion uses the quadratic loop;
 * measured on x86-64 (bench/README.md, "bignum.sh").
 */
#ifndef KARA_BIN_THRESHOLD
#define KARA_BIN_THRESHOLD 48
#endif
#ifndef KARA_DEC_THRESHOLD
#define KARA_DEC_THRESHOLD 80
#endif
#ifndef CONV_THRESHOLD
#define CONV_THRESHOLD 16
#endif

/* Operand lengths (limbs) from which Toom-3 beats Karatsuba, measured too. */
#ifndef TOOM_BIN_THRESHOLD
#define TOOM_BIN_THRESHOLD 200
#endif
#ifndef TOOM_DEC_THRESHOLD
#define TOOM_DEC_THRESHOLD 300
#endif

/*
 * The longest product (an + bn) of one schoolbook step, on the stack; at
 * most 192, or a decimal column would sum more than 96 products below
 * 10^36 and could reach 2^127.
 */
#define BASECASE_MAX (2 * Max(KARA_BIN_THRESHOLD, KARA_DEC_THRESHOLD))

StaticAssertDecl(BASECASE_MAX <= 192,
				 "Karatsuba thresholds too large for the schoolbook step");

StaticAssertDecl(TOOM_BIN_THRESHOLD >= 2 * KARA_BIN_THRESHOLD &&
				 TOOM_DEC_THRESHOLD >= 2 * KARA_DEC_THRESHOLD,
				 "Toom-3 thresholds must lie above Karatsuba's");

/*
 * sqr_rec() squares every n >= TOOM_*_THRESHOLD limbs by Toom-3, cut at k =
 * ceil(n/3) into parts of k, k and n - 2k limbs.  The top part is non-empty,
 * as use_toom() demands of products, for every n >= 5 but not for n = 4;
 * for n = 2 the values' squares, of k + 1 limbs, would be no shorter than n.
 */
StaticAssertDecl(TOOM_BIN_THRESHOLD >= 5 && TOOM_DEC_THRESHOLD >= 5,
				 "Toom-3 squaring needs at least 5 limbs");

/* Karatsuba threshold of a base. */
static inline int
kara_threshold(bool dec)
{
	return dec ? KARA_DEC_THRESHOLD : KARA_BIN_THRESHOLD;
}

/* Toom-3 threshold of a base. */
static inline int
toom_threshold(bool dec)
{
	return dec ? TOOM_DEC_THRESHOLD : TOOM_BIN_THRESHOLD;
}

/*
 * 128-bit unsigned arithmetic, for products of limbs and sums of them.
 */
#ifdef HAVE_INT128
typedef uint128 Wide;

/* The 128-bit number hi * 2^64 + lo. */
static inline Wide
wide(uint64 hi, uint64 lo)
{
	return ((uint128) hi << 64) | lo;
}

/* The low 64 bits of w. */
static inline uint64
wide_lo(Wide w)
{
	return (uint64) w;
}

/* The high 64 bits of w. */
static inline uint64
wide_hi(Wide w)
{
	return (uint64) (w >> 64);
}

/* a * b, the full 128-bit product. */
static inline Wide
wide_mul(uint64 a, uint64 b)
{
	return (uint128) a * b;
}

/* a + b, modulo 2^128. */
static inline Wide
wide_add(Wide a, Wide b)
{
	return a + b;
}

/* a + b for a limb b, modulo 2^128. */
static inline Wide
wide_add64(Wide a, uint64 b)
{
	return a + b;
}
#else
typedef struct Wide
{
	uint64		lo;
	uint64		hi;
} Wide;

/* The 128-bit number hi * 2^64 + lo. */
static inline Wide
wide(uint64 hi, uint64 lo)
{
	Wide		w;

	w.lo = lo;
	w.hi = hi;
	return w;
}

/* The low 64 bits of w. */
static inline uint64
wide_lo(Wide w)
{
	return w.lo;
}

/* The high 64 bits of w. */
static inline uint64
wide_hi(Wide w)
{
	return w.hi;
}

/* a * b, the full 128-bit product, from four 32-bit products. */
static inline Wide
wide_mul(uint64 a, uint64 b)
{
	uint64		a0 = a & PG_UINT32_MAX,
				a1 = a >> 32,
				b0 = b & PG_UINT32_MAX,
				b1 = b >> 32;
	uint64		p00 = a0 * b0,
				p01 = a0 * b1,
				p10 = a1 * b0,
				p11 = a1 * b1;
	uint64		mid = (p00 >> 32) + (p01 & PG_UINT32_MAX) + (p10 & PG_UINT32_MAX);

	return wide(p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32),
				(mid << 32) | (p00 & PG_UINT32_MAX));
}

/* a + b, modulo 2^128. */
static inline Wide
wide_add(Wide a, Wide b)
{
	uint64		lo = a.lo + b.lo;

	return wide(a.hi + b.hi + (lo < a.lo), lo);
}

/* a + b for a limb b, modulo 2^128. */
static inline Wide
wide_add64(Wide a, uint64 b)
{
	uint64		lo = a.lo + b;

	return wide(a.hi + (lo < b), lo);
}
#endif

/* Length of a magnitude without its high zero limbs. */
int
cfBigNormalize(const uint64 *a, int n)
{
	while (n > 0 && a[n - 1] == 0)
		n--;
	return n;
}

/* Compare two magnitudes (high zero limbs allowed): -1, 0 or 1. */
int
cfBigCompare(const uint64 *a, int an, const uint64 *b, int bn)
{
	an = cfBigNormalize(a, an);
	bn = cfBigNormalize(b, bn);
	if (an != bn)
		return an < bn ? -1 : 1;
	for (int i = an - 1; i >= 0; i--)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Number of significant bits of a binary magnitude (0 for zero). */
int64
cfBigBitLength(const uint64 *a, int n)
{
	n = cfBigNormalize(a, n);
	if (n == 0)
		return 0;
	return (int64) (n - 1) * 64 + pg_leftmost_one_pos64(a[n - 1]) + 1;
}

/*
 * r[0..n) = a + b (r may be a or b); returns the carry out.  The carry out
 * of a limb is generated (the limb sum overflows) or propagated (the limb
 * sum is the largest digit and a carry comes in), so from one limb's carry
 * to the next is an "and" and an "or", not an addition and a comparison.
 */
static uint64
add_n(uint64 *r, const uint64 *a, const uint64 *b, int n, bool dec)
{
	uint64		c = 0;

	if (dec)
	{
		for (int i = 0; i < n; i++)
		{
			uint64		s = a[i] + b[i];	/* < 2 * 10^18 */
			uint64		cn = (s >= DEC_BASE) | ((s == DEC_BASE - 1) & c);

			r[i] = s + c - (DEC_BASE & -cn);
			c = cn;
		}
	}
	else
	{
		for (int i = 0; i < n; i++)
		{
			uint64		s = a[i] + b[i];
			uint64		cn = (s < a[i]) | ((s == PG_UINT64_MAX) & c);

			r[i] = s + c;
			c = cn;
		}
	}
	return c;
}

/* r[0..n) = a - b (r may be a); returns the borrow out, found as in add_n. */
static uint64
sub_n(uint64 *r, const uint64 *a, const uint64 *b, int n, bool dec)
{
	uint64		bw = 0;

	for (int i = 0; i < n; i++)
	{
		uint64		bn = (a[i] < b[i]) | ((a[i] == b[i]) & bw);

		r[i] = a[i] - b[i] - bw;
		if (dec)
			r[i] += DEC_BASE & -bn;
		bw = bn;
	}
	return bw;
}

/* Add 1 to r[0..n) in place; returns the carry out. */
static uint64
incr(uint64 *r, int n, bool dec)
{
	uint64		top = dec ? DEC_BASE - 1 : PG_UINT64_MAX;

	for (int i = 0; i < n; i++)
	{
		if (r[i] != top)
		{
			r[i]++;
			return 0;
		}
		r[i] = 0;
	}
	return 1;
}

/* Subtract 1 from r[0..n) in place; returns the borrow out. */
static uint64
decr(uint64 *r, int n, bool dec)
{
	for (int i = 0; i < n; i++)
	{
		if (r[i] != 0)
		{
			r[i]--;
			return 0;
		}
		r[i] = dec ? DEC_BASE - 1 : PG_UINT64_MAX;
	}
	return 1;
}

/* r[0..rn) += a[0..an), an <= rn; returns the carry out. */
static uint64
add_into(uint64 *r, int rn, const uint64 *a, int an, bool dec)
{
	uint64		c = add_n(r, r, a, an, dec);

	return c ? incr(r + an, rn - an, dec) : 0;
}

/* r[0..rn) -= a[0..an), an <= rn; returns the borrow out. */
static uint64
sub_from(uint64 *r, int rn, const uint64 *a, int an, bool dec)
{
	uint64		bw = sub_n(r, r, a, an, dec);

	return bw ? decr(r + an, rn - an, dec) : 0;
}

/*
 * r[0..pn) = r[0..rn) + p[0..pn), rn <= pn, where r holds only rn limbs so
 * far (a product of a piece of a longer operand, added above the pieces
 * before it); the sum fits in pn limbs.
 */
static void
add_shifted(uint64 *r, int rn, const uint64 *p, int pn, bool dec)
{
	uint64		c = add_n(r, r, p, rn, dec);

	memcpy(r + rn, p + rn, (pn - rn) * sizeof(uint64));
	if (c)
		incr(r + rn, pn - rn, dec);
}

/*
 * d[0..n) = |x - y| for x of xn limbs and y of yn limbs (both at most n);
 * returns whether x < y.
 */
static bool
abs_diff(uint64 *d, const uint64 *x, int xn, const uint64 *y, int yn, int n,
		 bool dec)
{
	bool		less = cfBigCompare(x, xn, y, yn) < 0;
	uint64		bw;

	if (less)
	{
		const uint64 *t = x;
		int			tn = xn;

		x = y;
		xn = yn;
		y = t;
		yn = tn;
	}
	xn = cfBigNormalize(x, xn);
	yn = cfBigNormalize(y, yn);
	/* x >= y, so xn >= yn */
	bw = sub_n(d, x, y, yn, dec);
	memcpy(d + yn, x + yn, (xn - yn) * sizeof(uint64));
	if (bw)
		decr(d + yn, xn - yn, dec);
	memset(d + xn, 0, (n - xn) * sizeof(uint64));
	return less;
}

/* r[0..n) = a * m for 1 <= m <= 16; returns the carry (a limb). */
static uint64
mul_1(uint64 *r, const uint64 *a, int n, uint64 m, bool dec)
{
	uint64		c = 0;

	for (int i = 0; i < n; i++)
	{
		if (dec)
		{
			/* below 16 * 10^18 + 16 < 2^64 */
			uint64		t = a[i] * m + c;

			c = t / DEC_BASE;
			r[i] = t - c * DEC_BASE;
		}
		else
		{
			Wide		t = wide_add64(wide_mul(a[i], m), c);

			r[i] = wide_lo(t);
			c = wide_hi(t);
		}
	}
	return c;
}

/* r[0..n) /= 2, in place; r is even. */
static void
divexact2(uint64 *r, int n, bool dec)
{
	uint64		rem = 0;

	Assert(n == 0 || r[0] % 2 == 0);
	for (int i = n - 1; i >= 0; i--)
	{
		if (dec)
		{
			uint64		t = rem * DEC_BASE + r[i];	/* < 2 * 10^18 */

			rem = t & 1;
			r[i] = t >> 1;
		}
		else
		{
			uint64		t = r[i];

			r[i] = (t >> 1) | (rem << 63);
			rem = t & 1;
		}
	}
	Assert(rem == 0);
}

/*
 * r[0..n) /= 3, in place; r is a multiple of 3.  Binary limbs are divided
 * from the bottom by multiplying with the inverse of 3 modulo 2^64, each
 * limb's 3 * q overflowing by 0, 1 or 2 into the next.
 */
static void
divexact3(uint64 *r, int n, bool dec)
{
	if (dec)
	{
		uint64		rem = 0;

		for (int i = n - 1; i >= 0; i--)
		{
			uint64		t = rem * DEC_BASE + r[i];	/* < 3 * 10^18 */

			r[i] = t / 3;
			rem = t - 3 * r[i];
		}
		Assert(rem == 0);
	}
	else
	{
		uint64		c = 0;

		for (int i = 0; i < n; i++)
		{
			uint64		s = r[i] - c;
			uint64		q = s * UINT64CONST(0xAAAAAAAAAAAAAAAB);

			c = (r[i] < c) + (q >= UINT64CONST(0x5555555555555556)) +
				(q >= UINT64CONST(0xAAAAAAAAAAAAAAAB));
			r[i] = q;
		}
		Assert(c == 0);
	}
}

/*
 * Division by 10^18 through its reciprocal (Moller and Granlund, "Improved
 * division by invariant integers", 2011): the divisor shifted so its top
 * bit is set, and floor((2^128 - 1) / DEC_NORM) - 2^64.
 */
#define DEC_SHIFT 4
#define DEC_NORM (DEC_BASE << DEC_SHIFT)
#define DEC_RECIP UINT64CONST(0x2725dd1d243aba0e)

/* t / 10^18, and t % 10^18 in *rem, for t < 10^18 * 2^64. */
static inline uint64
div_dec(Wide t, uint64 *rem)
{
	uint64		u1 = (wide_hi(t) << DEC_SHIFT) | (wide_lo(t) >> (64 - DEC_SHIFT));
	uint64		u0 = wide_lo(t) << DEC_SHIFT;
	Wide		qq = wide_add(wide_mul(DEC_RECIP, u1), wide(u1, u0));
	uint64		q = wide_hi(qq) + 1;
	uint64		r = u0 - q * DEC_NORM;
	uint64		mask = -(uint64) (r > wide_lo(qq));

	q += mask;
	r += mask & DEC_NORM;
	if (unlikely(r >= DEC_NORM))
	{
		q++;
		r -= DEC_NORM;
	}
	*rem = r >> DEC_SHIFT;
	return q;
}

/* x / 10^18 for x < 2^82 (as x / 2^18 / 5^18, in 64-bit arithmetic). */
static inline uint64
div_dec_small(Wide x)
{
	return ((wide_hi(x) << 46) | (wide_lo(x) >> 18)) / UINT64CONST(3814697265625);
}

/*
 * A decimal column sum t < 2^127 as three digits of base 10^18: t = d0 +
 * d1 * 10^18 + d2 * 10^36 (d2 < 171).
 */
static inline void
split_dec(Wide t, uint64 *d0, uint64 *d1, uint64 *d2)
{
	uint64		th = wide_hi(t);
	uint64		q1 = th / DEC_BASE;
	uint64		q0 = div_dec(wide(th - q1 * DEC_BASE, wide_lo(t)), d0);
	Wide		q = wide(q1, q0);	/* t / 10^18 < 2^68 */
	uint64		hi = div_dec_small(q);

	*d1 = q0 - hi * DEC_BASE;	/* the high words cancel */
	*d2 = hi;
}

/*
 * Add up decimal columns split by split_dec into r[0..n): column k's digits
 * are r[k], d1[k + 1] and d2[k + 2], so column k receives r[k] + d1[k] +
 * d2[k] < 2 * 10^18 + 171, and the carry from column to column is at most
 * 2: the serial part is two comparisons per column.
 */
static void
carry_dec(uint64 *r, const uint64 *d1, const uint64 *d2, int n)
{
	uint64		c = 0;

	for (int k = 0; k < n; k++)
	{
		uint64		u = r[k] + d1[k] + d2[k] + c;

		c = (u >= DEC_BASE) + (u >= 2 * DEC_BASE);
		r[k] = u - c * DEC_BASE;
	}
	Assert(c == 0 && d1[n] == 0 && d2[n] == 0 && d2[n + 1] == 0);
}

/*
 * r[0..an+bn) = a * b, schoolbook, an + bn <= BASECASE_MAX, a column of the
 * product at a time, its sum held in registers (two sums, so the additions
 * of successive products need not wait for each other).  A binary column
 * adds the low and high halves of its products apart; a decimal column
 * sums at most 96 products below 10^36, less than 2^127, and is split into
 * digits (split_dec) before the carries go up (carry_dec).
 */
static void
basecase(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn, bool dec)
{
	int			rn = an + bn;

	Assert(rn <= BASECASE_MAX);
	if (!dec)
	{
		Wide		carry = wide(0, 0);

		for (int k = 0; k < rn - 1; k++)
		{
			int			lo = Max(0, k - bn + 1);
			int			cnt = Min(k, an - 1) - lo + 1;
			const uint64 *pa = a + lo;
			const uint64 *pb = b + (k - lo);
			Wide		slo = carry,
						shi = wide(0, 0);

			for (; cnt >= 2; cnt -= 2, pa += 2, pb -= 2)
			{
				Wide		p0 = wide_mul(pa[0], pb[0]);
				Wide		p1 = wide_mul(pa[1], pb[-1]);

				slo = wide_add64(slo, wide_lo(p0));
				shi = wide_add64(shi, wide_hi(p0));
				slo = wide_add64(slo, wide_lo(p1));
				shi = wide_add64(shi, wide_hi(p1));
			}
			if (cnt > 0)
			{
				Wide		p0 = wide_mul(pa[0], pb[0]);

				slo = wide_add64(slo, wide_lo(p0));
				shi = wide_add64(shi, wide_hi(p0));
			}
			/* column = slo + shi * 2^64 */
			r[k] = wide_lo(slo);
			carry = wide_add64(shi, wide_hi(slo));
		}
		Assert(wide_hi(carry) == 0);
		r[rn - 1] = wide_lo(carry);
	}
	else
	{
		/* the column digits of split_dec, shifted to the columns they go to */
		uint64		d1[BASECASE_MAX + 1];
		uint64		d2[BASECASE_MAX + 2];

		d1[0] = d2[0] = d2[1] = 0;
		for (int k = 0; k < rn - 1; k++)
		{
			int			lo = Max(0, k - bn + 1);
			int			cnt = Min(k, an - 1) - lo + 1;
			const uint64 *pa = a + lo;
			const uint64 *pb = b + (k - lo);
			Wide		s0 = wide(0, 0),
						s1 = wide(0, 0);

			for (; cnt >= 2; cnt -= 2, pa += 2, pb -= 2)
			{
				s0 = wide_add(s0, wide_mul(pa[0], pb[0]));
				s1 = wide_add(s1, wide_mul(pa[1], pb[-1]));
			}
			if (cnt > 0)
				s0 = wide_add(s0, wide_mul(pa[0], pb[0]));
			split_dec(wide_add(s0, s1), &r[k], &d1[k + 1], &d2[k + 2]);
		}
		r[rn - 1] = 0;
		d1[rn] = d2[rn + 1] = 0;
		carry_dec(r, d1, d2, rn);
	}
}

/*
 * r[0..2n) = a^2, schoolbook, 2n <= BASECASE_MAX: each column sums the
 * products a[i]*a[j] with i < j once, doubles the sum and adds the square
 * a[k/2]^2, so about half the products of a multiplication.
 */
static void
basecase_sqr(uint64 *r, const uint64 *a, int n, bool dec)
{
	uint64		d1[BASECASE_MAX + 1];	/* decimal: as in basecase() */
	uint64		d2[BASECASE_MAX + 2];
	Wide		carry = wide(0, 0);

	Assert(2 * n <= BASECASE_MAX);
	d1[0] = d2[0] = d2[1] = 0;
	for (int k = 0; k < 2 * n - 1; k++)
	{
		int			lo = Max(0, k - n + 1);
		int			cnt = (k + 1) / 2 - lo; /* pairs i < k - i */
		const uint64 *pa = a + lo;
		const uint64 *pb = a + (k - lo);
		Wide		sq = (k % 2 == 0) ? wide_mul(a[k / 2], a[k / 2]) : wide(0, 0);

		if (!dec)
		{
			/* low and high product halves summed apart, as in basecase() */
			Wide		slo = wide(0, 0),
						shi = wide(0, 0);

			for (; cnt > 0; cnt--, pa++, pb--)
			{
				Wide		p = wide_mul(pa[0], pb[0]);

				slo = wide_add64(slo, wide_lo(p));
				shi = wide_add64(shi, wide_hi(p));
			}
			slo = wide_add64(wide_add64(wide_add(slo, slo), wide_lo(sq)), wide_lo(carry));
			shi = wide_add64(wide_add64(wide_add(shi, shi), wide_hi(sq)), wide_hi(carry));
			r[k] = wide_lo(slo);
			carry = wide_add64(shi, wide_hi(slo));
		}
		else
		{
			Wide		s0 = wide(0, 0),
						s1 = wide(0, 0);

			for (; cnt >= 2; cnt -= 2, pa += 2, pb -= 2)
			{
				s0 = wide_add(s0, wide_mul(pa[0], pb[0]));
				s1 = wide_add(s1, wide_mul(pa[1], pb[-1]));
			}
			if (cnt > 0)
				s0 = wide_add(s0, wide_mul(pa[0], pb[0]));
			/*
			 * at most n products below 10^36 (a pair counts twice), and n <=
			 * BASECASE_MAX / 2 <= 96: below 2^127, as in basecase()
			 */
			s0 = wide_add(s0, s1);
			split_dec(wide_add(wide_add(s0, s0), sq), &r[k], &d1[k + 1], &d2[k + 2]);
		}
	}
	if (dec)
	{
		r[2 * n - 1] = 0;
		d1[2 * n] = d2[2 * n + 1] = 0;
		carry_dec(r, d1, d2, 2 * n);
	}
	else
	{
		Assert(wide_hi(carry) == 0);
		r[2 * n - 1] = wide_lo(carry);
	}
}

/* r[0..an+bn) = a * b, schoolbook, for any an >= bn >= 1, bn < BASECASE_MAX. */
static void
mul_basecase(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn,
			 bool dec)
{
	int			chunk = BASECASE_MAX - bn;
	uint64		prod[BASECASE_MAX];

	/* pieces of a short enough for one schoolbook step */
	basecase(r, a, Min(an, chunk), b, bn, dec);
	for (int off = chunk; off < an; off += chunk)
	{
		int			cl = Min(chunk, an - off);

		CHECK_FOR_INTERRUPTS();
		basecase(prod, a + off, cl, b, bn, dec);
		add_shifted(r + off, bn, prod, cl + bn, dec);
	}
}

/*
 * Karatsuba's last step: r holds z0 = a0*b0 (2h limbs) and above it z2 =
 * a1*b1 (z2n limbs, h <= z2n <= 2h), rn limbs in all; add z0 + z2 +- z1 in
 * at B^h.  With A = z0's high half + z2's low half, the limbs at B^h become
 * A + z0's low half and those at B^2h A + z2's high half, so z0 and z2 are
 * read once.  Carries and borrows out of r are dropped: the result fits.
 */
static void
kara_combine(uint64 *r, int h, int z2n, int rn, const uint64 *z1, bool neg,
			 bool dec)
{
	int			z2hn = z2n - h; /* limbs of z2's high half */
	uint64		ca,
				c1,
				c2;

	ca = add_n(r + 2 * h, r + h, r + 2 * h, h, dec);	/* A, over z2's low half */
	c1 = add_n(r + h, r + 2 * h, r, h, dec);	/* A + z0 low */
	c2 = add_n(r + 2 * h, r + 2 * h, r + 3 * h, z2hn, dec); /* A + z2 high */
	if (c2)
		c2 = incr(r + 2 * h + z2hn, h - z2hn, dec);
	for (uint64 c = ca + c2; c > 0; c--)
		incr(r + 3 * h, rn - 3 * h, dec);
	for (uint64 c = ca + c1; c > 0; c--)
		incr(r + 2 * h, rn - 2 * h, dec);
	if (neg)
		sub_from(r + h, rn - h, z1, 2 * h, dec);
	else
		add_into(r + h, rn - h, z1, 2 * h, dec);
}

/* Whether an >= bn limbs are multiplied by Toom-3: b must have three parts. */
static inline bool
use_toom(int an, int bn, bool dec)
{
	return bn >= toom_threshold(dec) && bn > 2 * ((an + 2) / 3);
}

/*
 * Workspace (limbs) mul_rec() needs for an >= bn >= 1: it follows the same
 * recursion.
 */
static int64
mul_ws(int an, int bn, bool dec)
{
	int			h = (an + 1) / 2;
	int64		sub;

	if (bn < kara_threshold(dec))
		return 0;
	if (use_toom(an, bn, dec))
	{
		/* Toom-3: six values, four products, then the products' */
		int			k = (an + 2) / 3;

		sub = Max(mul_ws(k + 1, k + 1, dec), mul_ws(k, k, dec));
		sub = Max(sub, mul_ws(an - 2 * k, bn - 2 * k, dec));
		return 14 * (int64) (k + 1) + sub;
	}
	if (bn > h)
	{
		/* Karatsuba: |a0-a1|, |b1-b0|, z1, then the products' */
		sub = Max(mul_ws(h, h, dec), mul_ws(an - h, bn - h, dec));
		return 4 * (int64) h + sub;
	}
	/* pieces of bn limbs: one piece's product, then its workspace */
	sub = mul_ws(bn, bn, dec);
	if (an % bn > 0)
		sub = Max(sub, mul_ws(bn, an % bn, dec));
	return 2 * (int64) bn + sub;
}

static void mul_rec(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn,
					uint64 *ws, bool dec);

/*
 * r[0..an+bn) = a * b by Karatsuba's method, for an >= bn > ceil(an/2);
 * ws holds mul_ws(an, bn) limbs.  Both operands are split at h = ceil(an/2):
 * a0 and b0 have h limbs, a1 l and b1 m, with 1 <= m <= l <= h.
 */
static void
kara(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn, uint64 *ws,
	 bool dec)
{
	int			h = (an + 1) / 2;
	int			l = an - h;
	int			m = bn - h;
	uint64	   *da = ws;
	uint64	   *db = ws + h;
	uint64	   *z1 = ws + 2 * h;
	uint64	   *rest = ws + 4 * h;
	bool		neg;

	/* (a0 - a1)(b1 - b0) = a0*b1 + a1*b0 - z0 - z2 */
	neg = abs_diff(da, a, h, a + h, l, h, dec);
	neg ^= abs_diff(db, b + h, m, b, h, h, dec);
	mul_rec(z1, da, h, db, h, rest, dec);
	mul_rec(r, a, h, b, h, rest, dec);	/* z0 = a0*b0 */
	mul_rec(r + 2 * h, a + h, l, b + h, m, rest, dec);	/* z2 = a1*b1 */
	kara_combine(r, h, l + m, an + bn, z1, neg, dec);
}

/*
 * Toom-3 evaluation of a = a2*x^2 + a1*x + a0 (x = B^k; a0, a1 of k limbs,
 * a2 of n2 <= k) at 1, -1 and 2, each into k + 1 limbs: p1 = a0 + a1 + a2,
 * pm1 = |a0 - a1 + a2| (returns whether a0 - a1 + a2 < 0) and p2 = a0 +
 * 2*a1 + 4*a2.
 */
static bool
toom3_eval(const uint64 *a, int k, int n2, uint64 *p1, uint64 *pm1,
		   uint64 *p2, bool dec)
{
	bool		neg;
	uint64		c;

	/* p1 = a0 + a2 */
	c = add_n(p1, a, a + 2 * k, n2, dec);
	memcpy(p1 + n2, a + n2, (k - n2) * sizeof(uint64));
	p1[k] = c ? incr(p1 + n2, k - n2, dec) : 0;
	neg = abs_diff(pm1, p1, k + 1, a + k, k, k + 1, dec);
	add_into(p1, k + 1, a + k, k, dec);

	/* p2 = 2 * (2 * a2 + a1) + a0 */
	c = mul_1(p2, a + 2 * k, n2, 2, dec);
	memset(p2 + n2, 0, (k + 1 - n2) * sizeof(uint64));
	p2[n2] = c;
	add_into(p2, k + 1, a + k, k, dec);
	mul_1(p2, p2, k + 1, 2, dec);
	add_into(p2, k + 1, a, k, dec);
	return neg;
}

/*
 * Toom-3's interpolation.  The product is c4*x^4 + ... + c0 (x = B^k); r
 * holds c0 = r(0) (2k limbs), zeros, and c4 = r(inf) at x^4 (rn - 4k limbs,
 * rn in all); r1, rm1 and r2 hold r(1), |r(-1)| (neg: r(-1) < 0) and r(2),
 * 2k + 2 limbs each, as does the scratch t.  In this order every
 * intermediate value is a non-negative sum of the c's, so unsigned
 * arithmetic does:
 *	 A = (r1 - r(-1)) / 2 = c1 + c3;  c2 = (r1 + r(-1)) / 2 - c0 - c4;
 *	 D = r2 - c0 - 4*c2 - 16*c4 = 2*c1 + 8*c3;  c3 = (D/2 - A) / 3;
 *	 c1 = A - c3;
 * then c1, c2 and c3 are added in at x, x^2 and x^3.
 */
static void
toom3_interpolate(uint64 *r, int k, int rn, uint64 *r1, uint64 *rm1,
				  uint64 *r2, uint64 *t, bool neg, bool dec)
{
	int			p = 2 * k + 2;
	const uint64 *c0 = r;
	const uint64 *c4 = r + 4 * k;
	int			c4n = rn - 4 * k;

	/* t = r(1) - r(-1), r1 = r(1) + r(-1) */
	if (!neg)
	{
		sub_n(t, r1, rm1, p, dec);
		add_n(r1, r1, rm1, p, dec);
	}
	else
	{
		add_n(t, r1, rm1, p, dec);
		sub_n(r1, r1, rm1, p, dec);
	}
	divexact2(t, p, dec);		/* A */
	divexact2(r1, p, dec);
	sub_from(r1, p, c0, 2 * k, dec);
	sub_from(r1, p, c4, c4n, dec);	/* c2 */

	sub_from(r2, p, c0, 2 * k, dec);
	mul_1(rm1, r1, p, 4, dec);
	sub_n(r2, r2, rm1, p, dec);
	rm1[c4n] = mul_1(rm1, c4, c4n, 16, dec);
	sub_from(r2, p, rm1, c4n + 1, dec); /* D */
	divexact2(r2, p, dec);
	sub_n(r2, r2, t, p, dec);
	divexact3(r2, p, dec);		/* c3 */
	sub_n(t, t, r2, p, dec);	/* c1 */

	add_into(r + k, rn - k, t, cfBigNormalize(t, p), dec);
	add_into(r + 2 * k, rn - 2 * k, r1, cfBigNormalize(r1, p), dec);
	add_into(r + 3 * k, rn - 3 * k, r2, cfBigNormalize(r2, p), dec);
}

/*
 * r[0..an+bn) = a * b by Toom-3 (use_toom(an, bn)); ws holds mul_ws(an, bn)
 * limbs.  a and b are cut in three at k = ceil(an/3); the product is
 * interpolated from its values at 0, 1, -1, 2 and infinity, five products
 * of a third of the length.
 */
static void
toom3(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn, uint64 *ws,
	  bool dec)
{
	int			k = (an + 2) / 3;
	int			e = k + 1;
	uint64	   *pa1 = ws,
			   *pb1 = ws + e,
			   *pam1 = ws + 2 * e,
			   *pbm1 = ws + 3 * e,
			   *pa2 = ws + 4 * e,
			   *pb2 = ws + 5 * e;
	uint64	   *r1 = ws + 6 * e,
			   *rm1 = r1 + 2 * e,
			   *r2 = rm1 + 2 * e,
			   *t = r2 + 2 * e,
			   *rest = t + 2 * e;
	bool		neg;

	neg = toom3_eval(a, k, an - 2 * k, pa1, pam1, pa2, dec);
	neg ^= toom3_eval(b, k, bn - 2 * k, pb1, pbm1, pb2, dec);
	mul_rec(r1, pa1, e, pb1, e, rest, dec);
	mul_rec(rm1, pam1, e, pbm1, e, rest, dec);
	mul_rec(r2, pa2, e, pb2, e, rest, dec);
	mul_rec(r, a, k, b, k, rest, dec);
	mul_rec(r + 4 * k, a + 2 * k, an - 2 * k, b + 2 * k, bn - 2 * k, rest, dec);
	memset(r + 2 * k, 0, 2 * k * sizeof(uint64));
	toom3_interpolate(r, k, an + bn, r1, rm1, r2, t, neg, dec);
}

/*
 * r[0..an+bn) = a * b for an >= bn >= 1; ws holds mul_ws(an, bn) limbs.
 * Schoolbook below the threshold, Karatsuba for operands of similar
 * lengths, and an a at least twice as long as b in pieces of bn limbs.
 */
static void
mul_rec(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn,
		uint64 *ws, bool dec)
{
	uint64	   *prod,
			   *rest;
	int			off;

	if (bn < kara_threshold(dec))
	{
		mul_basecase(r, a, an, b, bn, dec);
		return;
	}
	CHECK_FOR_INTERRUPTS();
	if (use_toom(an, bn, dec))
	{
		toom3(r, a, an, b, bn, ws, dec);
		return;
	}
	if (bn > (an + 1) / 2)
	{
		kara(r, a, an, b, bn, ws, dec);
		return;
	}
	prod = ws;
	rest = ws + 2 * bn;
	mul_rec(r, a, bn, b, bn, rest, dec);
	for (off = bn; an - off >= bn; off += bn)
	{
		mul_rec(prod, a + off, bn, b, bn, rest, dec);
		add_shifted(r + off, bn, prod, 2 * bn, dec);
	}
	if (off < an)
	{
		int			rem = an - off;

		mul_rec(prod, b, bn, a + off, rem, rest, dec);
		add_shifted(r + off, bn, prod, bn + rem, dec);
	}
}

/* Workspace (limbs) sqr_rec() needs for n limbs. */
static int64
sqr_ws(int n, bool dec)
{
	int			h = (n + 1) / 2;
	int			k = (n + 2) / 3;

	if (n < kara_threshold(dec))
		return 0;
	if (n >= toom_threshold(dec))
		return 11 * (int64) (k + 1) +
			Max(Max(sqr_ws(k + 1, dec), sqr_ws(k, dec)), sqr_ws(n - 2 * k, dec));
	return 3 * (int64) h + sqr_ws(h, dec);
}

/*
 * r[0..2n) = a^2; ws holds sqr_ws(n) limbs.  Toom-3 and Karatsuba as for
 * products, but with one operand to evaluate (Toom-3) or one difference
 * (Karatsuba, where z1 = (a0 - a1)^2 is always subtracted), and squares
 * below.
 */
static void
sqr_rec(uint64 *r, const uint64 *a, int n, uint64 *ws, bool dec)
{
	if (n < kara_threshold(dec))
	{
		basecase_sqr(r, a, n, dec);
		return;
	}
	CHECK_FOR_INTERRUPTS();
	if (n >= toom_threshold(dec))
	{
		int			k = (n + 2) / 3;
		int			e = k + 1;
		uint64	   *p1 = ws,
				   *pm1 = ws + e,
				   *p2 = ws + 2 * e;
		uint64	   *r1 = ws + 3 * e,
				   *rm1 = r1 + 2 * e,
				   *r2 = rm1 + 2 * e,
				   *t = r2 + 2 * e,
				   *rest = t + 2 * e;

		toom3_eval(a, k, n - 2 * k, p1, pm1, p2, dec);
		sqr_rec(r1, p1, e, rest, dec);
		sqr_rec(rm1, pm1, e, rest, dec);
		sqr_rec(r2, p2, e, rest, dec);
		sqr_rec(r, a, k, rest, dec);
		sqr_rec(r + 4 * k, a + 2 * k, n - 2 * k, rest, dec);
		memset(r + 2 * k, 0, 2 * k * sizeof(uint64));
		toom3_interpolate(r, k, 2 * n, r1, rm1, r2, t, false, dec);
	}
	else
	{
		int			h = (n + 1) / 2;
		uint64	   *da = ws;
		uint64	   *z1 = ws + h;
		uint64	   *rest = ws + 3 * h;

		abs_diff(da, a, h, a + h, n - h, h, dec);
		sqr_rec(z1, da, h, rest, dec);
		sqr_rec(r, a, h, rest, dec);
		sqr_rec(r + 2 * h, a + h, n - h, rest, dec);
		kara_combine(r, h, 2 * (n - h), 2 * n, z1, true, dec);
	}
}

/*
 * r[0..an+bn) = a * b, both in the given base.  r must not overlap a or b;
 * a and b may be the same (squaring, which takes its own, faster path).
 */
void
cfBigMul(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn,
		 CfBigRadix radix)
{
	bool		dec = (radix == CF_BIG_DEC);
	bool		sqr = (a == b && an == bn);
	int64		wsn;
	uint64	   *ws = NULL;

	if (an < bn)
	{
		const uint64 *t = a;
		int			tn = an;

		a = b;
		an = bn;
		b = t;
		bn = tn;
	}
	if (bn == 0)
	{
		memset(r, 0, an * sizeof(uint64));
		return;
	}
	wsn = sqr ? sqr_ws(an, dec) : mul_ws(an, bn, dec);
	if (wsn > 0)
		ws = palloc_extended(wsn * sizeof(uint64), MCXT_ALLOC_HUGE);
	if (sqr)
		sqr_rec(r, a, an, ws, dec);
	else
		mul_rec(r, a, an, b, bn, ws, dec);
	if (ws)
		pfree(ws);
}

/*
 * Decimal limbs of the digit string (ndigits ASCII digits, most significant
 * first); returns the normalized length.  dec holds ceil(ndigits / 18)
 * limbs.
 */
int
cfBigDecFromDigits(const char *digits, int ndigits, uint64 *dec)
{
	int			n = 0;
	int			end = ndigits;

	while (end > 0)
	{
		int			start = Max(end - CF_BIG_DEC_DIGITS, 0);
		uint64		v = 0;

		for (int i = start; i < end; i++)
			v = v * 10 + (digits[i] - '0');
		dec[n++] = v;
		end = start;
	}
	return cfBigNormalize(dec, n);
}

/*
 * Write a decimal magnitude as digits without leading zeros ("0" for zero)
 * into out, which holds 18 * Max(n, 1) bytes; returns the number written.
 */
int
cfBigDecToDigits(const uint64 *dec, int n, char *out)
{
	char		top[CF_BIG_DEC_DIGITS];
	int			nt = 0;
	int			len;
	uint64		v;

	n = cfBigNormalize(dec, n);
	if (n == 0)
	{
		out[0] = '0';
		return 1;
	}
	for (v = dec[n - 1]; v > 0; v /= 10)
		top[nt++] = '0' + v % 10;
	for (len = 0; len < nt; len++)
		out[len] = top[nt - 1 - len];
	for (int i = n - 2; i >= 0; i--)
	{
		/* two halves of nine digits: 32-bit divisions */
		uint32		hi = (uint32) (dec[i] / 1000000000);
		uint32		lo = (uint32) (dec[i] % 1000000000);

		for (int k = 8; k >= 0; k--)
		{
			out[len + k] = '0' + hi % 10;
			out[len + 9 + k] = '0' + lo % 10;
			hi /= 10;
			lo /= 10;
		}
		len += CF_BIG_DEC_DIGITS;
	}
	return len;
}

/*
 * Powers of the old base in the new one, by repeated squaring:
 * pow[k] = 10^(18 * 2^k) in binary, or (2^64)^(2^k) in decimal.  The
 * binary ones are kept without their low zero limbs (zeros[k] of them).
 */
typedef struct PowTable
{
	bool		dec;			/* the powers' base */
	int			count;			/* pow[0..count) are computed */
	uint64	   *pow[32];
	int			len[32];
	int			zeros[32];
} PowTable;

/* Fill the table up to pow[k]. */
static void
pow_table_extend(PowTable *pt, int k)
{
	Assert(k < (int) lengthof(pt->pow));
	if (pt->count == 0)
	{
		uint64	   *p = palloc(2 * sizeof(uint64));

		if (pt->dec)
		{
			/* 2^64 = 18 * 10^18 + 446744073709551616 */
			p[0] = UINT64CONST(446744073709551616);
			p[1] = 18;
			pt->len[0] = 2;
		}
		else
		{
			p[0] = DEC_BASE;
			pt->len[0] = 1;
		}
		pt->pow[0] = p;
		pt->zeros[0] = 0;
		pt->count = 1;
	}
	while (pt->count <= k)
	{
		int			j = pt->count;
		int			n = pt->len[j - 1];
		uint64	   *sq = palloc_extended(2 * (Size) n * sizeof(uint64), MCXT_ALLOC_HUGE);
		int			sn;
		int			z = 0;

		cfBigMul(sq, pt->pow[j - 1], n, pt->pow[j - 1], n,
				 pt->dec ? CF_BIG_DEC : CF_BIG_BIN);
		sn = cfBigNormalize(sq, 2 * n);
		while (!pt->dec && sq[z] == 0)
			z++;
		if (z > 0)
			memmove(sq, sq + z, (sn - z) * sizeof(uint64));
		pt->pow[j] = sq;
		pt->len[j] = sn - z;
		pt->zeros[j] = 2 * pt->zeros[j - 1] + z;
		pt->count++;
	}
}

/* Free the table's powers. */
static void
pow_table_free(PowTable *pt)
{
	for (int j = 0; j < pt->count; j++)
		pfree(pt->pow[j]);
	pt->count = 0;
}

/*
 * The split point of a piece of n > 1 limbs: the largest power of two
 * below n, as its exponent.
 */
static inline int
split_exponent(int n)
{
	return pg_leftmost_one_pos32((uint32) (n - 1));
}

/* Bound on the binary limbs of n decimal limbs: 10^(18n) < 2^(60n). */
int
cfBigDecToBinLimbs(int n)
{
	return (int) (((int64) n * 60 + 63) / 64) + 3;
}

/* Quadratic decimal -> binary: r = r * 10^18 + x[i], from the top. */
static int
dec_to_bin_basecase(const uint64 *x, int n, uint64 *r)
{
	int			rn = 0;

	for (int i = n - 1; i >= 0; i--)
	{
		uint64		c = x[i];

		for (int j = 0; j < rn; j++)
		{
			Wide		t = wide_add64(wide_mul(r[j], DEC_BASE), c);

			r[j] = wide_lo(t);
			c = wide_hi(t);
		}
		if (c != 0)
			r[rn++] = c;
	}
	return rn;
}

/* bin(x) into r (cfBigDecToBinLimbs(n) limbs); returns its normalized length. */
static int
dec_to_bin_rec(const uint64 *x, int n, uint64 *r, PowTable *pt)
{
	int			k,
				h,
				hn,
				ln,
				rn,
				pn,
				z;
	uint64	   *hi,
			   *prod;

	n = cfBigNormalize(x, n);
	if (n <= CONV_THRESHOLD)
		return dec_to_bin_basecase(x, n, r);
	CHECK_FOR_INTERRUPTS();

	k = split_exponent(n);
	h = 1 << k;
	hi = palloc(cfBigDecToBinLimbs(n - h) * sizeof(uint64));
	hn = dec_to_bin_rec(x + h, n - h, hi, pt);
	ln = dec_to_bin_rec(x, h, r, pt);

	/* r = hi * pow[k] * B^z + lo, with lo < 10^(18h) */
	pn = pt->len[k];
	z = pt->zeros[k];
	rn = z + hn + pn;
	Assert(rn <= cfBigDecToBinLimbs(n) && ln <= rn);
	memset(r + ln, 0, (rn - ln) * sizeof(uint64));
	prod = palloc((hn + pn) * sizeof(uint64));
	cfBigMul(prod, hi, hn, pt->pow[k], pn, CF_BIG_BIN);
	add_into(r + z, rn - z, prod, hn + pn, false);
	pfree(prod);
	pfree(hi);
	return cfBigNormalize(r, rn);
}

/*
 * Convert a decimal magnitude of n limbs to binary into bin, which holds
 * cfBigDecToBinLimbs(n) limbs; returns the normalized length.
 */
int
cfBigDecToBin(const uint64 *dec, int n, uint64 *bin)
{
	PowTable	pt;
	int			rn;

	n = cfBigNormalize(dec, n);
	if (n <= CONV_THRESHOLD)
		return dec_to_bin_basecase(dec, n, bin);
	pt.dec = false;
	pt.count = 0;
	pow_table_extend(&pt, split_exponent(n));
	rn = dec_to_bin_rec(dec, n, bin, &pt);
	pow_table_free(&pt);
	return rn;
}

/*
 * Bound on the decimal limbs of n binary limbs: 2^(64n) < 10^(18 * 1.0704n),
 * and n/14 > 0.0704n.
 */
int
cfBigBinToDecLimbs(int n)
{
	return n + n / 14 + 3;
}

/* Quadratic binary -> decimal: r = r * 2^64 + x[i], from the top. */
static int
bin_to_dec_basecase(const uint64 *x, int n, uint64 *r)
{
	int			rn = 0;

	for (int i = n - 1; i >= 0; i--)
	{
		uint64		c = x[i];

		/* r[j] * 2^64 + c < 10^18 * 2^64, and so the quotient < 2^64 */
		for (int j = 0; j < rn; j++)
			c = div_dec(wide(r[j], c), &r[j]);
		while (c != 0)
		{
			r[rn++] = c % DEC_BASE;
			c /= DEC_BASE;
		}
	}
	return rn;
}

/* dec(x) into r (cfBigBinToDecLimbs(n) limbs); returns its normalized length. */
static int
bin_to_dec_rec(const uint64 *x, int n, uint64 *r, PowTable *pt)
{
	int			k,
				h,
				hn,
				ln,
				pn;
	uint64	   *hi,
			   *lo;

	n = cfBigNormalize(x, n);
	if (n <= CONV_THRESHOLD)
		return bin_to_dec_basecase(x, n, r);
	CHECK_FOR_INTERRUPTS();

	k = split_exponent(n);
	h = 1 << k;
	hi = palloc(cfBigBinToDecLimbs(n - h) * sizeof(uint64));
	hn = bin_to_dec_rec(x + h, n - h, hi, pt);
	lo = palloc(cfBigBinToDecLimbs(h) * sizeof(uint64));
	ln = bin_to_dec_rec(x, h, lo, pt);

	/* r = hi * pow[k] + lo, with lo < 2^(64h) */
	pn = pt->len[k];
	Assert(hn + pn <= cfBigBinToDecLimbs(n) && ln <= hn + pn);
	cfBigMul(r, hi, hn, pt->pow[k], pn, CF_BIG_DEC);
	add_into(r, hn + pn, lo, ln, true);
	pfree(lo);
	pfree(hi);
	return cfBigNormalize(r, hn + pn);
}

/*
 * Convert a binary magnitude of n limbs to decimal into dec, which holds
 * cfBigBinToDecLimbs(n) limbs; returns the normalized length.
 */
int
cfBigBinToDec(const uint64 *bin, int n, uint64 *dec)
{
	PowTable	pt;
	int			rn;

	n = cfBigNormalize(bin, n);
	if (n <= CONV_THRESHOLD)
		return bin_to_dec_basecase(bin, n, dec);
	pt.dec = true;
	pt.count = 0;
	pow_table_extend(&pt, split_exponent(n));
	rn = bin_to_dec_rec(bin, n, dec, &pt);
	pow_table_free(&pt);
	return rn;
}

/* 5^k (k >= 0) as a new binary magnitude; *n is set to its length. */
uint64 *
cfBigPow5(int64 k, int *n)
{
	/* log2(5) < 2.3220 */
	int64		cap = (int64) (k * 2.3220 / 64) + 3;
	uint64	   *r,
			   *t;
	int			rn = 1;

	if (2 * cap > (int64) (MaxAllocHugeSize / sizeof(uint64)))
		elog(ERROR, "power of five too large: " INT64_FORMAT, k);
	r = palloc_extended(2 * cap * sizeof(uint64), MCXT_ALLOC_HUGE);
	t = palloc_extended(2 * cap * sizeof(uint64), MCXT_ALLOC_HUGE);
	r[0] = 1;
	for (int bit = (k > 0 ? pg_leftmost_one_pos64((uint64) k) : -1); bit >= 0; bit--)
	{
		uint64	   *s;

		CHECK_FOR_INTERRUPTS();
		cfBigMul(t, r, rn, r, rn, CF_BIG_BIN);
		rn = cfBigNormalize(t, 2 * rn);
		s = r;
		r = t;
		t = s;
		if ((k >> bit) & 1)
		{
			uint64		c = 0;

			for (int i = 0; i < rn; i++)
			{
				Wide		v = wide_add64(wide_mul(r[i], 5), c);

				r[i] = wide_lo(v);
				c = wide_hi(v);
			}
			if (c != 0)
				r[rn++] = c;
		}
	}
	Assert(rn <= cap);
	pfree(t);
	*n = rn;
	return r;
}

/* a << bits as a new binary magnitude; *rn is set to its normalized length. */
uint64 *
cfBigShiftLeft(const uint64 *a, int n, int64 bits, int *rn)
{
	int64		limbs = bits / 64;
	int			sh = (int) (bits % 64);
	int64		len = n + limbs + 1;
	uint64	   *r;

	if (len > (int64) (MaxAllocHugeSize / sizeof(uint64)))
		elog(ERROR, "shift too large: " INT64_FORMAT " bits", bits);
	r = palloc_extended(len * sizeof(uint64), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (int i = 0; i < n; i++)
	{
		r[limbs + i] |= a[i] << sh;
		if (sh > 0)
			r[limbs + i + 1] = a[i] >> (64 - sh);
	}
	*rn = cfBigNormalize(r, (int) len);
	return r;
}
