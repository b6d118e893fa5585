/*-------------------------------------------------------------------------
 *
 * cftype_text.c
 *	  The text forms of the SQL API (README.md, "Types and comparators"),
 *	  in both directions.
 *
 * Every type has one text form; to_string(t, to_bytes(t, s)) gives s back
 * for any s that to_string produced.  The empty string is the empty byte
 * string for every type.  Output never depends on session settings
 * (DateType is rendered in UTC, floats in shortest exact form), so a
 * rendered value reads back the same everywhere.
 *
 * CompositeType text: components' text forms joined by ':', with ':' and
 * '\' inside a component escaped by '\', and a component that is exactly
 * '!' or '_' written '\!' / '\_'.  A trailing ':!' sets the last
 * end-of-component byte to 1 and ':_' to -1 (for slice bounds).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/shortest_dec.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "nodes/pg_list.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "marshal/cftype.h"

/* DateType text form covers years 0001..9999; outside it, integer millis. */
#define CF_DATE_MIN_MS INT64CONST(-62135596800000)	/* 0001-01-01 00:00 UTC */
#define CF_DATE_END_MS INT64CONST(253402300800000)	/* 10000-01-01 00:00 UTC */
#define CF_UNIX_TO_PG_EPOCH_MS INT64CONST(946684800000)
#define MSECS_PER_DAY INT64CONST(86400000)

/* A new bytea holding len bytes copied from data. */
bytea *
cfMakeBytea(const void *data, int len)
{
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	if (len > 0)
		memcpy(VARDATA(b), data, len);
	return b;
}

/* Make an 8-byte big-endian bytea. */
static bytea *
int64_bytea(int64 v)
{
	uint64		n = pg_hton64((uint64) v);

	return cfMakeBytea(&n, 8);
}

/* Raise a "not a valid X" input error. */
static void
invalid_input(const CfType *type, const char *str)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for %s: \"%s\"",
					cfTypeShortName(type->kind), str)));
}

/* Is str an optionally signed run of decimal digits? */
static bool
is_integer_text(const char *str)
{
	const char *p = str;

	if (*p == '-' || *p == '+')
		p++;
	if (*p == '\0')
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char) *p))
			return false;
	return true;
}

/* DateType input: integer milliseconds, or any timestamptz text. */
static bytea *
date_from_string(const char *str)
{
	TimestampTz ts;
	int64		ms;

	if (is_integer_text(str))
		return int64_bytea(DatumGetInt64(DirectFunctionCall1(int8in, CStringGetDatum(str))));

	ts = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
												 CStringGetDatum(str),
												 ObjectIdGetDatum(InvalidOid),
												 Int32GetDatum(-1)));
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("DateType cannot represent \"%s\"", str)));
	/* floor to the millisecond, then shift from the 2000 to the 1970 epoch */
	ms = ts / 1000;
	if (ts % 1000 < 0)
		ms--;
	return int64_bytea(ms + CF_UNIX_TO_PG_EPOCH_MS);
}

/* DateType output: "YYYY-MM-DD HH:MI:SS.MSZ" in UTC, or integer millis. */
static char *
date_to_string(int64 ms)
{
	int64		days,
				msday;
	int			year,
				month,
				day;

	if (ms < CF_DATE_MIN_MS || ms >= CF_DATE_END_MS)
		return psprintf(INT64_FORMAT, ms);
	days = ms / MSECS_PER_DAY;
	msday = ms % MSECS_PER_DAY;
	if (msday < 0)
	{
		msday += MSECS_PER_DAY;
		days--;
	}
	j2date((int) (days + UNIX_EPOCH_JDATE), &year, &month, &day);
	return psprintf("%04d-%02d-%02d %02d:%02d:%02d.%03dZ",
					year, month, day,
					(int) (msday / 3600000), (int) (msday / 60000 % 60),
					(int) (msday / 1000 % 60), (int) (msday % 1000));
}

/* BytesType output in bytea_output = escape form. */
static char *
bytes_to_string(const uint8 *data, int len)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < len; i++)
	{
		uint8		c = data[i];

		if (c == '\\')
			appendStringInfoString(&buf, "\\\\");
		else if (c < 0x20 || c > 0x7e)
			appendStringInfo(&buf, "\\%03o", c);
		else
			appendStringInfoChar(&buf, (char) c);
	}
	return buf.data;
}

/*
 * DecimalType input: anything numeric accepts, with the scale BigDecimal's
 * constructor gives it: the fraction digits less the exponent, so 1.50 keeps
 * scale 2 and 1.23E+5 has scale -3 where numeric would store 123000.  The
 * text (less the white space numeric_in skips) is parsed directly, with no
 * limit on the number of digits; what that parser does not read (NaN, the
 * infinities, malformed text, exponents beyond 32 bits) goes to numeric_in
 * for its error.
 */
static bytea *
decimal_from_string(const CfType *type, const char *str)
{
	const char *start = str;
	const char *end = str + strlen(str);
	char	   *trimmed;
	Datum		num;
	bytea	   *result;

	while (start < end && isspace((unsigned char) *start))
		start++;
	while (end > start && isspace((unsigned char) end[-1]))
		end--;
	trimmed = pnstrdup(start, end - start);
	result = cfDecimalFromString(trimmed);
	pfree(trimmed);
	if (result != NULL)
		return result;

	num = DirectFunctionCall3(numeric_in, CStringGetDatum(str),
							  ObjectIdGetDatum(InvalidOid),
							  Int32GetDatum(-1));
	if (numeric_is_nan(DatumGetNumeric(num)) || numeric_is_inf(DatumGetNumeric(num)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("DecimalType cannot represent \"%s\"", str)));
	/* numeric_in took a finite number the direct parser refused */
	invalid_input(type, str);
	return NULL;				/* keep the compiler quiet */
}

/* Append the escaped text of one composite component. */
static void
append_composite_component(StringInfo buf, const char *text)
{
	if (strcmp(text, "!") == 0 || strcmp(text, "_") == 0)
	{
		appendStringInfoChar(buf, '\\');
		appendStringInfoString(buf, text);
		return;
	}
	for (const char *p = text; *p; p++)
	{
		if (*p == ':' || *p == '\\')
			appendStringInfoChar(buf, '\\');
		appendStringInfoChar(buf, *p);
	}
}

/* CompositeType output. */
static char *
composite_to_string(const CfType *type, const uint8 *data, int len)
{
	StringInfoData buf;
	int			pos = 0;

	initStringInfo(&buf);
	for (int i = 0; pos < len; i++)
	{
		int			clen;
		int8		eoc;

		if (i >= type->nsub || len - pos < 3)
			cfTypeValidate(type, data, len);	/* raises the exact message */
		clen = (data[pos] << 8) | data[pos + 1];
		if (len - pos - 2 < clen + 1)
			cfTypeValidate(type, data, len);
		if (i > 0)
			appendStringInfoChar(&buf, ':');
		append_composite_component(&buf,
								   cfTypeToString(type->sub[i], data + pos + 2, clen));
		pos += 2 + clen;
		eoc = (int8) data[pos++];
		if (eoc != 0)
		{
			appendStringInfoString(&buf, eoc > 0 ? ":!" : ":_");
			break;
		}
	}
	return buf.data;
}

/* CompositeType input. */
static bytea *
composite_from_string(const CfType *type, const char *str)
{
	List	   *parts = NIL;
	List	   *escaped = NIL;
	StringInfoData cur;
	bool		cur_escaped = false;
	int8		eoc = 0;
	int			nparts;
	StringInfoData out;
	ListCell   *lc,
			   *le;
	int			i = 0;

	/* split at unescaped ':' and unescape */
	initStringInfo(&cur);
	for (const char *p = str;; p++)
	{
		if (*p == '\\')
		{
			if (p[1] == '\0')
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for CompositeType: \"%s\"", str),
						 errdetail("The text ends with an unfinished escape.")));
			appendStringInfoChar(&cur, *++p);
			cur_escaped = true;
		}
		else if (*p == ':' || *p == '\0')
		{
			parts = lappend(parts, pstrdup(cur.data));
			escaped = lappend_int(escaped, cur_escaped);
			resetStringInfo(&cur);
			cur_escaped = false;
			if (*p == '\0')
				break;
		}
		else
			appendStringInfoChar(&cur, *p);
	}

	/* a trailing unescaped "!" or "_" is the end-of-component marker */
	nparts = list_length(parts);
	forboth(lc, parts, le, escaped)
	{
		char	   *part = lfirst(lc);

		if (!lfirst_int(le) && (strcmp(part, "!") == 0 || strcmp(part, "_") == 0))
		{
			if (foreach_current_index(lc) != nparts - 1 || nparts == 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for CompositeType: \"%s\"", str),
						 errdetail("The end-of-component marker \"%s\" must follow the last component.", part),
						 errhint("Write a component that is exactly \"!\" or \"_\" as \"\\!\" or \"\\_\".")));
			eoc = (part[0] == '!') ? 1 : -1;
		}
	}
	if (eoc != 0)
		nparts--;
	if (nparts > type->nsub)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid input syntax for CompositeType: \"%s\"", str),
				 errdetail("%s has %d components; the text has %d.",
						   cfTypeName(type), type->nsub, nparts)));

	initStringInfo(&out);
	foreach(lc, parts)
	{
		bytea	   *comp;
		int			clen;

		if (i >= nparts)
			break;
		comp = cfTypeFromString(type->sub[i], (char *) lfirst(lc));
		clen = VARSIZE_ANY_EXHDR(comp);
		if (clen > 0xFFFF)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("CompositeType component %d is %d bytes long; the limit is 65535", i, clen)));
		appendStringInfoChar(&out, (char) (clen >> 8));
		appendStringInfoChar(&out, (char) (clen & 0xff));
		appendBinaryStringInfo(&out, VARDATA_ANY(comp), clen);
		appendStringInfoChar(&out, (char) (i == nparts - 1 ? eoc : 0));
		i++;
	}
	return cfMakeBytea(out.data, out.len);
}

/*
 * Parse the text form of a value of the given type and return its
 * validated encoding.
 */
bytea *
cfTypeFromString(const CfType *type, const char *str)
{
	bytea	   *result = NULL;
	int			len = strlen(str);

	if (len == 0)
		return cfMakeBytea(NULL, 0);

	switch (type->kind)
	{
		case CF_BYTES:
			return DatumGetByteaPP(DirectFunctionCall1(byteain, CStringGetDatum(str)));
		case CF_ASCII:
			result = cfMakeBytea(str, len);
			break;
		case CF_UTF8:
			{
				char	   *utf8 = pg_server_to_any(str, len, PG_UTF8);

				result = cfMakeBytea(utf8, strlen(utf8));
				break;
			}
		case CF_LONG:
		case CF_COUNTER:
			return int64_bytea(DatumGetInt64(DirectFunctionCall1(int8in, CStringGetDatum(str))));
		case CF_INT32:
			{
				uint32		n = pg_hton32((uint32) DatumGetInt32(DirectFunctionCall1(int4in, CStringGetDatum(str))));

				return cfMakeBytea(&n, 4);
			}
		case CF_INTEGER:
			{
				int			start = 0,
							end = len;

				while (start < end && isspace((unsigned char) str[start]))
					start++;
				while (end > start && isspace((unsigned char) str[end - 1]))
					end--;
				result = cfVarintFromDecimal(str + start, end - start);
				if (result == NULL)
					invalid_input(type, str);
				return result;
			}
		case CF_DECIMAL:
			return decimal_from_string(type, str);
		case CF_FLOAT:
			{
				float4		f = DatumGetFloat4(DirectFunctionCall1(float4in, CStringGetDatum(str)));
				uint32		n;

				memcpy(&n, &f, 4);
				n = pg_hton32(n);
				return cfMakeBytea(&n, 4);
			}
		case CF_DOUBLE:
			{
				float8		f = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(str)));
				uint64		n;

				memcpy(&n, &f, 8);
				n = pg_hton64(n);
				return cfMakeBytea(&n, 8);
			}
		case CF_BOOLEAN:
			{
				bool		b;
				uint8		v;

				if (!parse_bool(str, &b))
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("invalid input syntax for type %s: \"%s\"",
									"boolean", str)));
				v = b ? 1 : 0;
				return cfMakeBytea(&v, 1);
			}
		case CF_DATE:
			return date_from_string(str);
		case CF_UUID:
		case CF_LEXICALUUID:
		case CF_TIMEUUID:
			{
				uint8		u[CF_UUID_LEN];

				if (type->kind == CF_TIMEUUID && pg_strcasecmp(str, "now") == 0)
					cfTimeuuidNow(u);
				else
					cfUuidParse(str, u);
				result = cfMakeBytea(u, CF_UUID_LEN);
				break;
			}
		case CF_COMPOSITE:
			return composite_from_string(type, str);
		case CF_REVERSED:
			return cfTypeFromString(type->sub[0], str);
	}
	Assert(result != NULL);
	cfTypeValidate(type, (uint8 *) VARDATA(result), VARSIZE(result) - VARHDRSZ);
	return result;
}

/*
 * Raise unless the bytes of an AsciiType value can be its text: a NUL byte
 * cannot be text, and a byte outside ASCII is no character of the type
 * (a value written while the validator was another, or by Cassandra 0.6,
 * which did not check, can hold one), which the validator's message names.
 */
void
cfAsciiCheckText(const uint8 *data, int len)
{
	if (cfPlainAscii((const char *) data, len))
		return;
	if (memchr(data, '\0', len) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
				 errmsg("AsciiType value contains a NUL byte, which text cannot hold")));
	for (int i = 0; i < len; i++)
		if (data[i] > 127)
			ereport(ERROR,
					(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
					 errmsg("Invalid byte for ascii: %d", (int) (int8) data[i])));
}

/*
 * Render an encoded value in its text form (palloc'd).  The value should
 * have been validated; a value that cannot be shown as text in the
 * database encoding (a NUL byte, say) raises an error.
 */
char *
cfTypeToString(const CfType *type, const uint8 *data, int len)
{
	if (len == 0)
		return pstrdup("");

	switch (type->kind)
	{
		case CF_BYTES:
			return bytes_to_string(data, len);
		case CF_ASCII:
			cfAsciiCheckText(data, len);
			return pnstrdup((const char *) data, len);
		case CF_UTF8:
			{
				char	   *s = pg_any_to_server((const char *) data, len, PG_UTF8);

				if (s == (const char *) data)
					s = pnstrdup(s, len);
				return s;
			}
		case CF_LONG:
		case CF_COUNTER:
			if (len != 8)
				break;
			return psprintf(INT64_FORMAT, (int64) cfReadBe64(data));
		case CF_INT32:
			if (len != 4)
				break;
			return psprintf("%d", (int32) cfReadBe32(data));
		case CF_INTEGER:
			return cfVarintToDecimal(data, len);
		case CF_DECIMAL:
			return cfDecimalToString(data, len);
		case CF_FLOAT:
			{
				uint32		n;
				float4		f;
				char	   *buf;

				if (len != 4)
					break;
				n = cfReadBe32(data);
				memcpy(&f, &n, 4);
				if (isnan(f))
					return pstrdup("NaN");
				if (isinf(f))
					return pstrdup(f > 0 ? "Infinity" : "-Infinity");
				buf = palloc(FLOAT_SHORTEST_DECIMAL_LEN);
				float_to_shortest_decimal_buf(f, buf);
				return buf;
			}
		case CF_DOUBLE:
			{
				uint64		n;
				float8		f;
				char	   *buf;

				if (len != 8)
					break;
				n = cfReadBe64(data);
				memcpy(&f, &n, 8);
				if (isnan(f))
					return pstrdup("NaN");
				if (isinf(f))
					return pstrdup(f > 0 ? "Infinity" : "-Infinity");
				buf = palloc(DOUBLE_SHORTEST_DECIMAL_LEN);
				double_to_shortest_decimal_buf(f, buf);
				return buf;
			}
		case CF_BOOLEAN:
			if (len != 1)
				break;
			return pstrdup(data[0] != 0 ? "true" : "false");
		case CF_DATE:
			if (len != 8)
				break;
			return date_to_string((int64) cfReadBe64(data));
		case CF_UUID:
		case CF_LEXICALUUID:
		case CF_TIMEUUID:
			{
				char	   *s = palloc(37);

				if (len != CF_UUID_LEN)
					break;
				cfUuidFormat(data, s);
				return s;
			}
		case CF_COMPOSITE:
			return composite_to_string(type, data, len);
		case CF_REVERSED:
			return cfTypeToString(type->sub[0], data, len);
	}
	/* only a value of the wrong length gets here */
	cfTypeValidate(type, data, len);
	elog(ERROR, "cannot render a %d-byte value as %s", len, cfTypeShortName(type->kind));
	return NULL;
}

/*
 * Start a text datum in buf: its header, then the bytes appended.  A slice
 * renders every cell into the same buffers, so they are mostly big enough
 * already: then this is resetStringInfo and enlargeStringInfo without
 * calling them.
 */
static inline void
text_start(StringInfo buf, int len)
{
	buf->cursor = 0;
	buf->len = 0;
	if (VARHDRSZ + len >= buf->maxlen)
		enlargeStringInfo(buf, VARHDRSZ + len);
	buf->len = VARHDRSZ;
}

/*
 * The text form of a value as a text datum, built in buf (a StringInfo the
 * caller reuses: the result lives in buf->data until buf is used again).
 * It is cstring_to_text(cfTypeToString(...)), without the intermediate
 * copies for the common types (the others still allocate their text form
 * in the current memory context).
 */
text *
cfTypeToText(const CfType *type, const uint8 *data, int len, StringInfo buf)
{
	if (type->kind == CF_REVERSED)
		return cfTypeToText(type->sub[0], data, len, buf);
	if (len == 0)
		text_start(buf, 0);
	else if (type->kind == CF_UTF8)
	{
		/* pg_any_to_server validates, and converts when it must */
		const char *s = pg_any_to_server((const char *) data, len, PG_UTF8);
		int			n = s == (const char *) data ? (int) strnlen(s, len) : (int) strlen(s);

		text_start(buf, n);
		appendBinaryStringInfo(buf, s, n);
	}
	else if (type->kind == CF_ASCII)
	{
		cfAsciiCheckText(data, len);
		text_start(buf, len);
		appendBinaryStringInfo(buf, (const char *) data, len);
	}
	else if ((type->kind == CF_UUID || type->kind == CF_LEXICALUUID || type->kind == CF_TIMEUUID) &&
			 len == CF_UUID_LEN)
	{
		text_start(buf, 36);
		cfUuidFormat(data, buf->data + VARHDRSZ);
		buf->len += 36;
	}
	else
	{
		char	   *s = cfTypeToString(type, data, len);
		int			n = strlen(s);

		text_start(buf, n);
		appendBinaryStringInfo(buf, s, n);
	}
	SET_VARSIZE(buf->data, buf->len);
	return (text *) buf->data;
}
