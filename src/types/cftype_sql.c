/*-------------------------------------------------------------------------
 *
 * cftype_sql.c
 *	  SQL functions over the marshal layer (README.md, "Types and
 *	  comparators"):
 *	  cfstore.to_bytes, to_string, validate, compare, type_name.
 *
 * Each function takes the type as a string.  The parsed CfType is cached
 * in fn_extra, so a query that calls compare() per row parses the type
 * once.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "marshal/cftype.h"
#include "types/cftype_sql.h"

PG_FUNCTION_INFO_V1(cfstore_to_bytes);
PG_FUNCTION_INFO_V1(cfstore_to_string);
PG_FUNCTION_INFO_V1(cfstore_validate);
PG_FUNCTION_INFO_V1(cfstore_compare);
PG_FUNCTION_INFO_V1(cfstore_type_name);
PG_FUNCTION_INFO_V1(cfstore_type_components);

typedef struct CfTypeCacheEntry
{
	char	   *typestr;
	CfType	   *type;
} CfTypeCacheEntry;

/*
 * The parsed type named by text argument 0, cached per call site in
 * fn_extra (shared by every SQL function whose first argument is a type).
 */
CfType *
cfTypeArg(FunctionCallInfo fcinfo)
{
	char	   *typestr = text_to_cstring(PG_GETARG_TEXT_PP(0));
	CfTypeCacheEntry *entry = (CfTypeCacheEntry *) fcinfo->flinfo->fn_extra;
	MemoryContext old;

	if (entry != NULL && strcmp(entry->typestr, typestr) == 0)
		return entry->type;

	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	if (entry == NULL)
		entry = palloc0(sizeof(CfTypeCacheEntry));
	else
	{
		entry->typestr = NULL;	/* old strings are left to fn_mcxt */
		entry->type = NULL;
	}
	entry->type = cfTypeParse(typestr);
	entry->typestr = pstrdup(typestr);
	fcinfo->flinfo->fn_extra = entry;
	MemoryContextSwitchTo(old);
	return entry->type;
}

/* to_bytes(type, value text): parse the text form and validate. */
Datum
cfstore_to_bytes(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	char	   *str = text_to_cstring(PG_GETARG_TEXT_PP(1));

	PG_RETURN_BYTEA_P(cfTypeFromString(type, str));
}

/* to_string(type, value bytea): validate and render the text form. */
Datum
cfstore_to_string(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	bytea	   *value = PG_GETARG_BYTEA_PP(1);
	const uint8 *data = (const uint8 *) VARDATA_ANY(value);
	int			len = VARSIZE_ANY_EXHDR(value);

	cfTypeValidate(type, data, len);
	PG_RETURN_TEXT_P(cstring_to_text(cfTypeToString(type, data, len)));
}

/* validate(type, value bytea): raise the Cassandra marshal message. */
Datum
cfstore_validate(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	bytea	   *value = PG_GETARG_BYTEA_PP(1);

	cfTypeValidate(type, (const uint8 *) VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value));
	PG_RETURN_VOID();
}

/* compare(type, a, b): -1, 0 or 1 in the type's order; both are validated. */
Datum
cfstore_compare(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	bytea	   *a = PG_GETARG_BYTEA_PP(1);
	bytea	   *b = PG_GETARG_BYTEA_PP(2);
	const uint8 *ad = (const uint8 *) VARDATA_ANY(a);
	const uint8 *bd = (const uint8 *) VARDATA_ANY(b);
	int			al = VARSIZE_ANY_EXHDR(a);
	int			bl = VARSIZE_ANY_EXHDR(b);

	cfTypeValidate(type, ad, al);
	cfTypeValidate(type, bd, bl);
	PG_RETURN_INT32(cfTypeCompare(type, ad, al, bd, bl));
}

/* type_name(type): the fully qualified name Cassandra prints. */
Datum
cfstore_type_name(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);

	PG_RETURN_TEXT_P(cstring_to_text(cfTypeName(type)));
}

/*
 * cfstore._type_components(type): the component types of a CompositeType,
 * fully qualified, or the type itself.
 */
Datum
cfstore_type_components(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	if (type->kind != CF_COMPOSITE)
	{
		Datum		v = CStringGetTextDatum(cfTypeName(type));
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &v, &isnull);
	}
	else
		for (int i = 0; i < type->nsub; i++)
		{
			Datum		v = CStringGetTextDatum(cfTypeName(type->sub[i]));
			bool		isnull = false;

			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &v, &isnull);
		}
	return (Datum) 0;
}
