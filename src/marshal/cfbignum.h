/*-------------------------------------------------------------------------
 *
 * cfbignum.h
 *	  Unsigned big magnitudes as little-endian 64-bit limbs, in binary
 *	  (base 2^64) or decimal (base 10^18), with subquadratic multiplication
 *	  and radix conversion.  Used by IntegerType and DecimalType (cfvarint.c).
 *
 * A magnitude is (limbs, n): limbs[0] is the least significant.  Functions
 * that return a length return it without high zero limbs ("normalized");
 * zero has length 0.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFBIGNUM_H
#define CFBIGNUM_H

#include "postgres.h"

#define CF_BIG_DEC_BASE UINT64CONST(1000000000000000000)	/* 10^18 */
#define CF_BIG_DEC_DIGITS 18	/* decimal digits per decimal limb */

/* The base a magnitude's limbs are in. */
typedef enum CfBigRadix
{
	CF_BIG_BIN,					/* 2^64 */
	CF_BIG_DEC					/* 10^18 */
} CfBigRadix;

extern int	cfBigNormalize(const uint64 *a, int n);
extern int	cfBigCompare(const uint64 *a, int an, const uint64 *b, int bn);
extern int64 cfBigBitLength(const uint64 *a, int n);
extern void cfBigMul(uint64 *r, const uint64 *a, int an, const uint64 *b, int bn,
					 CfBigRadix radix);

/* decimal digit text <-> decimal limbs */
extern int	cfBigDecFromDigits(const char *digits, int ndigits, uint64 *dec);
extern int	cfBigDecToDigits(const uint64 *dec, int n, char *out);

/* radix conversion; the Limbs functions bound the output length */
extern int	cfBigDecToBinLimbs(int n);
extern int	cfBigDecToBin(const uint64 *dec, int n, uint64 *bin);
extern int	cfBigBinToDecLimbs(int n);
extern int	cfBigBinToDec(const uint64 *bin, int n, uint64 *dec);

/* for comparing decimals: 5^k, and a shift by whole bits */
extern uint64 *cfBigPow5(int64 k, int *n);
extern uint64 *cfBigShiftLeft(const uint64 *a, int n, int64 bits, int *rn);

#endif							/* CFBIGNUM_H */
