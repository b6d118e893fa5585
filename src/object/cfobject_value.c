/*-------------------------------------------------------------------------
 *
 * cfobject_value.c
 *	  The value of an object's leaf as a cell value, and back.
 *
 * Design.  A leaf whose path has column_metadata (a CQL3 column of the
 * column family, named by the path) is stored in that column's type, as
 * cql() would store it: a string in a text column is its UTF-8 bytes, a
 * number in a double column its 8 bytes, and so on; a value the type cannot
 * hold (a string in a double column, null, an object) is refused with
 * CQL's message.  Every other leaf (and a leaf typed BytesType) is stored
 * as the JSON text of its value, jsonb's output: "picked" with its quotes,
 * 216.28, 1.50 (scale kept), true, null, {} or [].  The text says what it
 * is, keeps numbers exactly, and reads well through get_slice and the cli
 * in a UTF8Type column family.  A cell another interface wrote that is not
 * JSON reads back as a string (doc/objects.md).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/jsonapi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"

#include "cfobject.h"
#include "cql/cfcql.h"

/* The JSON text of a value (a scalar or a container), as jsonb prints it. */
static bytea *
json_text(const JsonbValue *v)
{
	Jsonb	   *jb = JsonbValueToJsonb((JsonbValue *) v);
	char	   *s = JsonbToCString(NULL, &jb->root, VARSIZE(jb));

	return cfMakeBytea(s, strlen(s));
}

/* Whether type takes JSON text (no type of its own). */
static bool
untyped(const CfType *typed)
{
	return typed == NULL || typed->kind == CF_BYTES ||
		(typed->kind == CF_REVERSED && typed->sub[0]->kind == CF_BYTES);
}

/*
 * The cell value of a leaf: in typed (a column's validator), or as JSON
 * text when typed is NULL or BytesType.  field names the leaf in errors.
 */
bytea *
cfObjEncode(const JsonbValue *v, const CfType *typed, const char *field)
{
	const CfType *base;
	CfCqlTerm	term;

	if (untyped(typed))
		return json_text(v);
	base = typed->kind == CF_REVERSED ? typed->sub[0] : typed;
	memset(&term, 0, sizeof(term));
	switch (v->type)
	{
		case jbvString:
			term.kind = (base->kind == CF_UUID || base->kind == CF_TIMEUUID || base->kind == CF_LEXICALUUID)
				? CQL_TERM_UUID : CQL_TERM_STRING;
			term.text = pnstrdup(v->val.string.val, v->val.string.len);
			if (term.kind == CQL_TERM_UUID)
			{
				uint8		u[16];

				cfUuidParse(term.text, u);	/* a clear error for a non-UUID */
			}
			break;
		case jbvNumeric:
			term.text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
			term.kind = strpbrk(term.text, ".eE") ? CQL_TERM_FLOAT : CQL_TERM_INTEGER;
			break;
		case jbvBool:
			term.kind = CQL_TERM_BOOLEAN;
			term.text = v->val.boolean ? "true" : "false";
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("field %s is typed %s by column_metadata and cannot hold %s", field,
							cfTypeShortName(base->kind), v->type == jbvNull ? "null" : "an object or an array")));
	}
	return cfCqlTermBytes(&term, typed, field);
}

/* Whether data is valid JSON text in the database's encoding. */
static bool
json_valid(const uint8 *data, int len)
{
	JsonLexContext *lex;

	if (GetDatabaseEncoding() == PG_UTF8 ? !cfUtf8Valid(data, len)
		: pg_verify_mbstr(GetDatabaseEncoding(), (const char *) data, len, true) == false)
		return false;
	lex = makeJsonLexContextCstringLen(pnstrdup((const char *) data, len), len, GetDatabaseEncoding(), false);
	return pg_parse_json(lex, &nullSemAction) == JSON_SUCCESS;
}

/* Whether data[0..len) is a JSON number (RFC 8259's grammar). */
static bool
json_number(const uint8 *d, int len)
{
	int			i = 0;

	if (i < len && d[i] == '-')
		i++;
	if (i >= len || !isdigit(d[i]))
		return false;
	if (d[i] == '0')
		i++;
	else
		while (i < len && isdigit(d[i]))
			i++;
	if (i < len && d[i] == '.')
	{
		if (++i >= len || !isdigit(d[i]))
			return false;
		while (i < len && isdigit(d[i]))
			i++;
	}
	if (i < len && (d[i] == 'e' || d[i] == 'E'))
	{
		if (++i < len && (d[i] == '+' || d[i] == '-'))
			i++;
		if (i >= len || !isdigit(d[i]))
			return false;
		while (i < len && isdigit(d[i]))
			i++;
	}
	return i == len;
}

/*
 * The JSON text of the common leaves read without the JSON parser: a
 * number, true, false, null, and a string without escapes; false for
 * anything else (which the parser reads).
 */
static bool
decode_simple(JsonbValue *out, const uint8 *d, int len)
{
	if (len == 4 && memcmp(d, "true", 4) == 0)
	{
		out->type = jbvBool;
		out->val.boolean = true;
		return true;
	}
	if (len == 5 && memcmp(d, "false", 5) == 0)
	{
		out->type = jbvBool;
		out->val.boolean = false;
		return true;
	}
	if (len == 4 && memcmp(d, "null", 4) == 0)
	{
		out->type = jbvNull;
		return true;
	}
	if (len >= 2 && d[0] == '"' && d[len - 1] == '"' && GetDatabaseEncoding() == PG_UTF8)
	{
		for (int i = 1; i < len - 1; i++)
			if (d[i] == '"' || d[i] == '\\' || d[i] < 0x20)
				return false;
		if (!cfUtf8Valid(d + 1, len - 2))
			return false;
		out->type = jbvString;
		out->val.string.val = pnstrdup((const char *) d + 1, len - 2);
		out->val.string.len = len - 2;
		return true;
	}
	if (json_number(d, len))
	{
		out->type = jbvNumeric;
		out->val.numeric = DatumGetNumeric(DirectFunctionCall3(numeric_in,
															   CStringGetDatum(pnstrdup((const char *) d, len)),
															   ObjectIdGetDatum(InvalidOid),
															   Int32GetDatum(-1)));
		return true;
	}
	return false;
}

/*
 * The JSON value of a cell value stored by cfObjEncode (typed as there);
 * a container comes back as jbvBinary.
 */
void
cfObjDecode(JsonbValue *out, const CfType *typed, const uint8 *data, int len)
{
	const CfType *base;

	if (untyped(typed))
	{
		Jsonb	   *jb;

		if (decode_simple(out, data, len))
			return;
		if (!json_valid(data, len))
		{
			/* not written as an object's leaf: the bytes as a string */
			out->type = jbvString;
			if (cfUtf8Valid(data, len) && GetDatabaseEncoding() == PG_UTF8)
				out->val.string.val = pnstrdup((const char *) data, len);
			else
			{
				char	   *hex = palloc(len * 2 + 3);

				hex[0] = '0';
				hex[1] = 'x';
				hex[hex_encode((const char *) data, len, hex + 2) + 2] = '\0';
				out->val.string.val = hex;
			}
			out->val.string.len = strlen(out->val.string.val);
			return;
		}
		jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(pnstrdup((const char *) data, len))));
		if (JB_ROOT_IS_SCALAR(jb))
			JsonbExtractScalar(&jb->root, out);
		else
		{
			out->type = jbvBinary;
			out->val.binary.data = &jb->root;
			out->val.binary.len = VARSIZE(jb) - VARHDRSZ;
		}
		return;
	}
	base = typed->kind == CF_REVERSED ? typed->sub[0] : typed;
	if (len == 0 && base->kind != CF_UTF8 && base->kind != CF_ASCII)
	{
		out->type = jbvNull;	/* Cassandra's empty value */
		return;
	}
	cfCqlJsonScalar(out, typed, data, len);
}

/* Whether two JSON values are equal (numbers by value: 1.0 = 1.00). */
bool
cfObjValueEqual(const JsonbValue *a, const JsonbValue *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type)
	{
		case jbvNull:
			return true;
		case jbvString:
			return a->val.string.len == b->val.string.len &&
				memcmp(a->val.string.val, b->val.string.val, a->val.string.len) == 0;
		case jbvNumeric:
			return DatumGetBool(DirectFunctionCall2(numeric_eq, NumericGetDatum(a->val.numeric),
													NumericGetDatum(b->val.numeric)));
		case jbvBool:
			return a->val.boolean == b->val.boolean;
		case jbvBinary:
			return compareJsonbContainers(a->val.binary.data, b->val.binary.data) == 0;
		default:
			return false;
	}
}
