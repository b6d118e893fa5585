/*-------------------------------------------------------------------------
 *
 * cftype.h
 *	  The marshal layer: Cassandra's comparator / validator types.
 *
 * A CfType is the parsed form of a Cassandra type string such as
 * "LongType", "org.apache.cassandra.db.marshal.UTF8Type",
 * "CompositeType(UTF8Type, LongType)" or "LongType(reversed=true)".  It is
 * built once (cfTypeParse) and then used as a value: to validate encoded
 * bytes with Cassandra's MarshalException texts, to compare two encoded
 * values in Cassandra's order, and to convert between the encoding and the
 * text forms of the SQL API.
 *
 * Everything here is pure C on byte strings: no catalog access, no
 * storage.  Values are passed as (pointer, length); the empty byte string is
 * valid for every type and sorts before every non-empty value.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFTYPE_H
#define CFTYPE_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "port/pg_bswap.h"
#include "utils/ascii.h"

#define CF_MARSHAL_PACKAGE "org.apache.cassandra.db.marshal."

typedef enum CfTypeKind
{
	CF_BYTES,
	CF_ASCII,
	CF_UTF8,
	CF_LONG,
	CF_INT32,
	CF_INTEGER,
	CF_DECIMAL,
	CF_FLOAT,
	CF_DOUBLE,
	CF_BOOLEAN,
	CF_DATE,
	CF_UUID,
	CF_LEXICALUUID,
	CF_TIMEUUID,
	CF_COUNTER,
	CF_COMPOSITE,
	CF_REVERSED
} CfTypeKind;

typedef struct CfType
{
	CfTypeKind	kind;
	int			nsub;			/* composite: components; reversed: 1 */
	struct CfType **sub;		/* component types / the reversed base type */
} CfType;

/* Read a big-endian 32-bit value (unaligned). */
static inline uint32
cfReadBe32(const uint8 *p)
{
	uint32		v;

	memcpy(&v, p, 4);
	return pg_ntoh32(v);
}

/* Read a big-endian 64-bit value (unaligned). */
static inline uint64
cfReadBe64(const uint8 *p)
{
	uint64		v;

	memcpy(&v, p, 8);
	return pg_ntoh64(v);
}

/* cftype_parse.c */
extern CfType *cfTypeParse(const char *str);
extern char *cfTypeName(const CfType *type);
extern const char *cfTypeShortName(CfTypeKind kind);
extern CfType *cfTypeCopy(const CfType *type);

/* cftype_validate.c */
extern char *cfTypeValidateMessage(const CfType *type, const uint8 *data, int len);
extern void cfTypeValidate(const CfType *type, const uint8 *data, int len);
extern bool cfUtf8Valid(const uint8 *data, int len);

/*
 * Whether bytes are ASCII without a NUL byte, and so valid text in any
 * server encoding: the test a value read back as text passes before the
 * full check (pg_verify_mbstr) is needed, eight bytes at a time.
 */
static inline bool
cfPlainAscii(const char *data, int len)
{
	int			whole = len & ~7;

	if (!is_valid_ascii((const unsigned char *) data, whole))
		return false;
	for (int i = whole; i < len; i++)
		if (data[i] == '\0' || (unsigned char) data[i] >= 0x80)
			return false;
	return true;
}

/* cftype_compare.c */
extern int	cfTypeCompare(const CfType *type, const uint8 *a, int alen,
						  const uint8 *b, int blen);
extern int	cfBytesCompare(const uint8 *a, int alen, const uint8 *b, int blen);
extern int	cfSignedBytesCompare(const uint8 *a, int alen, const uint8 *b, int blen);
extern int	cfTimeuuidCompare(const uint8 *a, const uint8 *b);

/* CompositeType values (cfcomposite.c) */
extern bool cfCompositeComponent(const uint8 *data, int len, int k, const uint8 **out, int *outlen);
extern int	cfCompositeSplit(const uint8 *data, int len, int max, const uint8 **parts, int *lens,
							 int8 *eoc);
extern void cfCompositeAppend(StringInfo buf, const uint8 *data, int len, int8 eoc);

/* cftype_text.c */
extern bytea *cfTypeFromString(const CfType *type, const char *str);
extern char *cfTypeToString(const CfType *type, const uint8 *data, int len);
extern text *cfTypeToText(const CfType *type, const uint8 *data, int len, StringInfo buf);
extern void cfAsciiCheckText(const uint8 *data, int len);
extern bytea *cfMakeBytea(const void *data, int len);

/* cfvarint.c: big integers in Java BigInteger.toByteArray() form */
extern bytea *cfVarintFromDecimal(const char *str, int len);
extern char *cfVarintToDecimal(const uint8 *data, int len);
extern int	cfVarintCompare(const uint8 *a, int alen, const uint8 *b, int blen);
extern int	cfDecimalCompare(const uint8 *a, int alen, const uint8 *b, int blen);
extern char *cfDecimalToString(const uint8 *data, int len);
extern bytea *cfDecimalFromString(const char *str);

/* cfuuid.c: version-1 UUID helpers shared by the marshal layer and the
 * cfstore.timeuuid SQL type */
#define CF_UUID_LEN 16
/* 100-ns intervals between 1582-10-15 (the UUID epoch) and 1970-01-01 */
#define CF_UUID_EPOCH_OFFSET INT64CONST(0x01B21DD213814000)

extern uint64 cfUuidTimestamp(const uint8 *uuid);
extern int	cfUuidVersion(const uint8 *uuid);
extern void cfUuidFromTimestamp(uint64 ts, uint8 lowbyte, uint8 *out);
extern void cfTimeuuidNow(uint8 *out);
extern void cfUuidParse(const char *str, uint8 *out);
extern void cfUuidFormat(const uint8 *uuid, char *out);

#endif							/* CFTYPE_H */
