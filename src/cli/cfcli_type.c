/*-------------------------------------------------------------------------
 *
 * cfcli_type.c
 *	  Keys, names and values as cassandra-cli reads and prints them.
 *
 * The cli has text forms of its own (Cassandra's AbstractType fromString
 * and getString): BytesType is hex, both ways; LongType, Int32Type and
 * IntegerType are decimal integers; DoubleType prints as Java prints a
 * double; DateType as yyyy-MM-dd HH:mm:ssZ.  The value functions
 * (long(1), utf8('a'), timeuuid(), ...) give a value of their type
 * whatever the column family says.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/float.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "cli/cfcli.h"

const char *const cf_cli_functions =
"bytes, integer, long, int, lexicaluuid, timeuuid, utf8, ascii, double, countercolumn";

/* The value functions and their types. */
static const struct
{
	const char *fn;
	const char *type;
}			functions[] = {
	{"bytes", "BytesType"},
	{"integer", "IntegerType"},
	{"long", "LongType"},
	{"int", "Int32Type"},
	{"lexicaluuid", "LexicalUUIDType"},
	{"timeuuid", "TimeUUIDType"},
	{"utf8", "UTF8Type"},
	{"ascii", "AsciiType"},
	{"double", "DoubleType"},
	{"countercolumn", "CounterColumnType"},
	{NULL, NULL}
};

/* The type of a function name, or NULL. */
static const char *
function_type(const char *fn)
{
	for (int i = 0; functions[i].fn; i++)
		if (pg_strcasecmp(functions[i].fn, fn) == 0)
			return functions[i].type;
	return NULL;
}

/* A type as the cli names it: a function name (utf8, long, ...) or a type. */
CfType *
cfCliFormatType(const char *name)
{
	const char *t = function_type(name);
	CfType	   *type = NULL;
	MemoryContext cxt = CurrentMemoryContext;

	if (t)
		return cfTypeParse(t);
	PG_TRY();
	{
		type = cfTypeParse(name);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		type = NULL;
	}
	PG_END_TRY();
	if (type == NULL)
		cfCliError("Unknown comparator '%s'. Available functions: %s.", name, cf_cli_functions);
	return type;
}

/* Hex digits to bytes, or NULL. */
static bytea *
from_hex(const char *s)
{
	int			n = strlen(s);
	bytea	   *b;

	if (n % 2 != 0 || (int) strspn(s, "0123456789abcdefABCDEF") != n)
		return NULL;
	b = palloc(VARHDRSZ + n / 2);
	SET_VARSIZE(b, VARHDRSZ + n / 2);
	hex_decode(s, n, VARDATA(b));
	return b;
}

/* An integer of at most bits bits, as 8 or 4 bytes; false if it is not one. */
static bool
parse_int(const char *s, int64 *v, int bits)
{
	char	   *end;

	if (*s == '\0')
		return false;
	errno = 0;
	*v = strtoi64(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	return bits == 64 || (*v >= PG_INT32_MIN && *v <= PG_INT32_MAX);
}

/*
 * Text to bytes of type, as Cassandra's fromString does it for the cli;
 * NULL with *err set (the MarshalException's message) if it cannot.
 */
bytea *
cfCliParseValue(const CfType *given, const char *s, char **err)
{
	int64		v;
	uint8		buf[8];
	const CfType *volatile type = given;

	*err = NULL;
	while (type->kind == CF_REVERSED)
		type = type->sub[0];
	switch (type->kind)
	{
		case CF_BYTES:
		case CF_COUNTER:
			{
				bytea	   *b = from_hex(s);

				if (b == NULL)
					*err = psprintf("cannot parse '%s' as hex bytes", s);
				return b;
			}
		case CF_UTF8:
			return cfMakeBytea(s, strlen(s));
		case CF_ASCII:
			{
				char	   *a = pstrdup(s);

				for (char *c = a; *c; c++)
					if ((unsigned char) *c > 127)
						*c = '?';
				return cfMakeBytea(a, strlen(a));
			}
		case CF_LONG:
			if (*s == '\0')
				return cfMakeBytea(NULL, 0);
			if (!parse_int(s, &v, 64))
			{
				*err = psprintf("unable to make long from '%s'", s);
				return NULL;
			}
			*(uint64 *) buf = pg_hton64((uint64) v);
			return cfMakeBytea(buf, 8);
		case CF_INT32:
			if (*s == '\0')
				return cfMakeBytea(NULL, 0);
			if (!parse_int(s, &v, 32))
			{
				*err = psprintf("unable to make int from '%s'", s);
				return NULL;
			}
			*(uint32 *) buf = pg_hton32((uint32) (int32) v);
			return cfMakeBytea(buf, 4);
		case CF_INTEGER:
			{
				int			n = strlen(s);
				int			i = (s[0] == '-' || s[0] == '+') ? 1 : 0;

				if (n == i || (int) strspn(s + i, "0123456789") != n - i)
				{
					*err = psprintf("unable to make int from '%s'", s);
					return NULL;
				}
				return cfVarintFromDecimal(s, n);
			}
		case CF_DOUBLE:
			{
				char	   *end;
				double		d;
				uint64		u;

				if (*s == '\0')
					return cfMakeBytea(NULL, 0);
				d = strtod(s, &end);
				if (*end != '\0')
				{
					*err = psprintf("unable to coerce '%s' to a double", s);
					return NULL;
				}
				memcpy(&u, &d, 8);
				*(uint64 *) buf = pg_hton64(u);
				return cfMakeBytea(buf, 8);
			}
		default:
			{
				/* the other types read the text forms of the function API */
				MemoryContext cxt = CurrentMemoryContext;
				bytea	   *b = NULL;

				PG_TRY();
				{
					b = cfTypeFromString(type, s);
				}
				PG_CATCH();
				{
					ErrorData  *e;

					MemoryContextSwitchTo(cxt);
					e = CopyErrorData();
					FlushErrorState();
					*err = e->message;
					b = NULL;
				}
				PG_END_TRY();
				return b;
			}
	}
}

/* Bytes of type from the cli's text; a conversion error as the cli prints it. */
bytea *
cfCliFromString(const CfType *type, const char *text)
{
	char	   *err;
	bytea	   *b = cfCliParseValue(type, text, &err);

	if (b == NULL)
		cfCliError("org.apache.cassandra.db.marshal.MarshalException: %s", err);
	return b;
}

/* Bytes to the cli's text of type (getString). */
char *
cfCliToString(const CfType *type, const uint8 *data, int len)
{
	while (type->kind == CF_REVERSED)
		type = type->sub[0];
	switch (type->kind)
	{
		case CF_BYTES:
		case CF_COUNTER:
			{
				char	   *hex = palloc(len * 2 + 1);

				hex[hex_encode((const char *) data, len, hex)] = '\0';
				return hex;
			}
		case CF_INTEGER:
			return len == 0 ? pstrdup("empty") : cfVarintToDecimal(data, len);
		case CF_DOUBLE:
			{
				/* as Java's Double.toString: always a fraction or an exponent */
				char	   *s;

				if (len != 8)
					return cfTypeToString(type, data, len);
				s = cfTypeToString(type, data, len);
				if (strpbrk(s, ".eEnN") == NULL)
					s = psprintf("%s.0", s);
				return s;
			}
		case CF_DATE:
			{
				int64		ms;
				pg_time_t	t;
				struct pg_tm *tm;
				char		out[64];

				if (len != 8)
					return cfTypeToString(type, data, len);
				ms = (int64) cfReadBe64(data);
				t = (pg_time_t) (ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
				tm = pg_gmtime(&t);
				snprintf(out, sizeof(out), "%04d-%02d-%02d %02d:%02d:%02d+0000", tm->tm_year + 1900,
						 tm->tm_mon + 1, tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec);
				return pstrdup(out);
			}
		default:
			return cfTypeToString(type, data, len);
	}
}

/*
 * The bytes of a value function call (long(5), timeuuid(), ...) and its
 * type; errors as the cli prints them.
 */
bytea *
cfCliFunction(const CliTerm *term, CfType **type)
{
	const char *t = function_type(term->fn);
	char	   *err;
	bytea	   *b;

	if (t == NULL)
		cfCliError("Function '%s' not found. Available functions: %s.", term->fn, cf_cli_functions);
	*type = cfTypeParse(t);
	if (!term->has_arg || term->text[0] == '\0')
	{
		uint8		u[16];

		if (pg_strcasecmp(term->fn, "timeuuid") == 0)
		{
			cfTimeuuidNow(u);
			return cfMakeBytea(u, 16);
		}
		if (pg_strcasecmp(term->fn, "lexicaluuid") == 0)
		{
			pg_uuid_t  *r = DatumGetUUIDP(DirectFunctionCall1(gen_random_uuid, (Datum) 0));

			return cfMakeBytea(r->data, 16);
		}
		if (pg_strcasecmp(term->fn, "bytes") == 0)
			return cfMakeBytea(NULL, 0);
		cfCliError("java.lang.RuntimeException: Argument for '%s' could not be empty.", term->fn);
	}
	b = cfCliParseValue(*type, term->text, &err);
	if (b == NULL)
		cfCliError("java.lang.RuntimeException: org.apache.cassandra.db.marshal.MarshalException: %s", err);
	return b;
}
