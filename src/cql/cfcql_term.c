/*-------------------------------------------------------------------------
 *
 * cfcql_term.c
 *	  CQL3 constants to Cassandra encodings, and cell values to JSON.
 *
 * A constant must be of a kind the column's type accepts (Cassandra 1.2's
 * Constants): strings for ascii, text, varchar, timestamp and (as hex)
 * blob; integers for the integer, floating, decimal, counter and
 * timestamp types; floats for float, double and decimal; UUIDs for uuid
 * and timeuuid; true and false for boolean; 0x... for blob.  Otherwise the
 * statement fails with "Invalid <KIND> constant (<text>) for <column> of
 * type <type>".  The value is then parsed by the type (cfTypeFromString).
 *
 * Values go out as JSON: integers, decimals and finite floats as numbers,
 * booleans as booleans, everything else as the type's text form
 * (README.md, "Text forms"), NULL as null.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/numeric.h"
#include "utils/uuid.h"

#include "cql/cfcql.h"
#include "storage/cfwrite.h"

/* The CQL3 name of a type, for messages. */
static const char *
cql_type_name(const CfType *type)
{
	switch (type->kind)
	{
		case CF_BYTES:
			return "blob";
		case CF_ASCII:
			return "ascii";
		case CF_UTF8:
			return "text";
		case CF_LONG:
			return "bigint";
		case CF_INT32:
			return "int";
		case CF_INTEGER:
			return "varint";
		case CF_DECIMAL:
			return "decimal";
		case CF_FLOAT:
			return "float";
		case CF_DOUBLE:
			return "double";
		case CF_BOOLEAN:
			return "boolean";
		case CF_DATE:
			return "timestamp";
		case CF_UUID:
		case CF_LEXICALUUID:
			return "uuid";
		case CF_TIMEUUID:
			return "timeuuid";
		case CF_COUNTER:
			return "counter";
		default:
			return cfTypeName(type);
	}
}

/* The constant kinds a type accepts (Cassandra 1.2's Constants.Literal). */
static bool
accepts(CfCqlTermKind kind, CfTypeKind type)
{
	switch (kind)
	{
		case CQL_TERM_STRING:
			return type == CF_ASCII || type == CF_UTF8 || type == CF_DATE || type == CF_BYTES;
		case CQL_TERM_INTEGER:
			return type == CF_LONG || type == CF_INT32 || type == CF_INTEGER || type == CF_DECIMAL ||
				type == CF_FLOAT || type == CF_DOUBLE || type == CF_COUNTER || type == CF_DATE;
		case CQL_TERM_FLOAT:
			return type == CF_DECIMAL || type == CF_FLOAT || type == CF_DOUBLE;
		case CQL_TERM_UUID:
			return type == CF_UUID || type == CF_LEXICALUUID || type == CF_TIMEUUID;
		case CQL_TERM_BOOLEAN:
			return type == CF_BOOLEAN;
		case CQL_TERM_HEX:
			return type == CF_BYTES;
		default:
			return false;
	}
}

static const char *const kind_names[] = {"STRING", "INTEGER", "FLOAT", "UUID", "HEX", "BOOLEAN", "FUNCTION", "NULL"};

/* Bytes from hex digits (even count), or an error naming the column. */
static bytea *
hex_bytes(const char *hex, const char *column)
{
	int			n = strlen(hex);
	bytea	   *b;

	(void) column;
	if (n % 2 != 0 || (int) strspn(hex, "0123456789abcdefABCDEF") != n)
		cfInvalidRequest("cannot parse '%s' as hex bytes", hex);
	b = palloc(VARHDRSZ + n / 2);
	SET_VARSIZE(b, VARHDRSZ + n / 2);
	hex_decode(hex, n, VARDATA(b));
	return b;
}

/* A timeuuid from a function of a timestamp: minTimeuuid / maxTimeuuid. */
static bytea *
timeuuid_of(const char *fn, const CfCqlTerm *arg, const char *column)
{
	static const CfType date = {CF_DATE, 0, NULL};
	bytea	   *ts = cfCqlTermBytes(arg, &date, column);
	Oid			types[1] = {INT8OID};
	Datum		values[1];
	pg_uuid_t  *u;
	bool		isnull;

	if (VARSIZE_ANY_EXHDR(ts) != 8)
		cfInvalidRequest("Invalid null value for %s argument", fn);
	values[0] = Int64GetDatum((int64) cfReadBe64((const uint8 *) VARDATA_ANY(ts)));
	if (SPI_execute_with_args(psprintf("SELECT cfstore.%s_timeuuid(timestamptz 'epoch' + $1 * interval '1 millisecond')::uuid",
									   strcmp(fn, "mintimeuuid") == 0 ? "min" : "max"),
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not compute %s", fn);
	u = DatumGetUUIDP(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	return cfMakeBytea(u->data, UUID_LEN);
}

/*
 * The encoding of a term as a value of type, for the column named column;
 * NULL for the null literal.
 */
bytea *
cfCqlTermBytes(const CfCqlTerm *term, const CfType *type, const char *column)
{
	const CfType *base = type->kind == CF_REVERSED ? type->sub[0] : type;

	if (term->kind == CQL_TERM_NULL)
		return NULL;
	if (term->kind == CQL_TERM_FUNCTION)
	{
		const char *fn = term->text;

		if (strcmp(fn, "now") == 0)
		{
			uint8		u[16];

			if (list_length(term->args) != 0)
				cfInvalidRequest("Invalid number of arguments in call to function now: 0 required but %d provided",
								 list_length(term->args));
			if (base->kind != CF_TIMEUUID)
				cfInvalidRequest("Type error: cannot assign result of function now (type timeuuid) to %s (type %s)",
								 column, cql_type_name(base));
			cfTimeuuidNow(u);
			return cfMakeBytea(u, 16);
		}
		if (strcmp(fn, "mintimeuuid") == 0 || strcmp(fn, "maxtimeuuid") == 0)
		{
			if (list_length(term->args) != 1)
				cfInvalidRequest("Invalid number of arguments in call to function %s: 1 required but %d provided",
								 fn, list_length(term->args));
			if (base->kind != CF_TIMEUUID)
				cfInvalidRequest("Type error: cannot assign result of function %s (type timeuuid) to %s (type %s)",
								 fn, column, cql_type_name(base));
			return timeuuid_of(fn, linitial(term->args), column);
		}
		if (strncmp(fn, "blobas", 6) == 0 && list_length(term->args) == 1)
		{
			const CfCqlTerm *arg = linitial(term->args);
			bytea	   *b;

			if (arg->kind != CQL_TERM_HEX && arg->kind != CQL_TERM_STRING)
				cfInvalidRequest("Invalid %s constant (%s) for argument of %s of type blob",
								 kind_names[arg->kind], arg->text, fn);
			b = hex_bytes(arg->text, column);
			if (strcmp(fn + 6, cql_type_name(base)) != 0 &&
				!(strcmp(fn + 6, "varchar") == 0 && base->kind == CF_UTF8))
				cfInvalidRequest("Type error: cannot assign result of function %s to %s (type %s)",
								 fn, column, cql_type_name(base));
			cfTypeValidate(base, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
			return b;
		}
		if (strlen(fn) > 6 && strcmp(fn + strlen(fn) - 6, "asblob") == 0 && list_length(term->args) == 1)
		{
			char	   *tname = pnstrdup(fn, strlen(fn) - 6);
			const CfType *from = NULL;
			static const CfTypeKind kinds[] = {CF_ASCII, CF_UTF8, CF_LONG, CF_INT32, CF_INTEGER, CF_DECIMAL,
			CF_FLOAT, CF_DOUBLE, CF_BOOLEAN, CF_DATE, CF_UUID, CF_TIMEUUID};

			for (int i = 0; i < (int) lengthof(kinds); i++)
			{
				CfType	   *t = palloc0(sizeof(CfType));

				t->kind = kinds[i];
				if (strcmp(cql_type_name(t), tname) == 0 ||
					(strcmp(tname, "varchar") == 0 && kinds[i] == CF_UTF8))
					from = t;
			}
			if (from == NULL)
				cfInvalidRequest("Unknown CQL3 function %s called", fn);
			if (base->kind != CF_BYTES)
				cfInvalidRequest("Type error: cannot assign result of function %s (type blob) to %s (type %s)",
								 fn, column, cql_type_name(base));
			return cfCqlTermBytes(linitial(term->args), from, column);
		}
		cfInvalidRequest("Unknown CQL3 function %s called", fn);
	}
	if (!accepts(term->kind, base->kind))
		cfInvalidRequest("Invalid %s constant (%s) for %s of type %s", kind_names[term->kind], term->text,
						 column, cql_type_name(base));
	if (base->kind == CF_BYTES)
		return hex_bytes(term->text, column);
	return cfTypeFromString(base, term->text);
}

/* A numeric JSON value parsed from its decimal text. */
static void
number_value(JsonbValue *v, const char *text)
{
	v->type = jbvNumeric;
	v->val.numeric = DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(text),
														 ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
}

/*
 * The JSON scalar of an encoded value of type (NULL data: null): numbers
 * for the numeric types, booleans, else the type's text form as a string.
 */
void
cfCqlJsonScalar(JsonbValue *v, const CfType *type, const uint8 *data, int len)
{
	const CfType *base = type->kind == CF_REVERSED ? type->sub[0] : type;
	char	   *text;

	if (data == NULL)
	{
		v->type = jbvNull;
		return;
	}
	text = cfTypeToString(base, data, len);
	if (len > 0)
		switch (base->kind)
		{
			case CF_LONG:
			case CF_INT32:
			case CF_INTEGER:
			case CF_DECIMAL:
			case CF_COUNTER:
				number_value(v, text);
				return;
			case CF_FLOAT:
			case CF_DOUBLE:
				if (strcmp(text, "NaN") != 0 && strcmp(text, "Infinity") != 0 && strcmp(text, "-Infinity") != 0)
				{
					number_value(v, text);
					return;
				}
				break;
			case CF_BOOLEAN:
				v->type = jbvBool;
				v->val.boolean = data[0] != 0;
				return;
			default:
				break;
		}
	v->type = jbvString;
	v->val.string.val = text;
	v->val.string.len = strlen(text);
}

/* Push the JSON value of an encoded value of type (NULL data: null). */
void
cfCqlJsonValue(JsonbParseState **state, const CfType *type, const uint8 *data, int len)
{
	JsonbValue	v;

	cfCqlJsonScalar(&v, type, data, len);
	pushJsonbValue(state, WJB_VALUE, &v);
}
