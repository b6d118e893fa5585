/*-------------------------------------------------------------------------
 *
 * cfargs.c
 *	  Convert the SQL API's "any" arguments (README.md, "Reading and
 *	  writing") into the
 *	  Cassandra byte encoding of the type that governs the slot.
 *
 * The SQL type of the argument picks the conversion:
 *
 *	bytea							the raw bytes (validated by the caller)
 *	text, varchar, bpchar, name,	the type's text form (cfTypeFromString);
 *	an unknown literal				bpchar loses its padding, as in ::text
 *	bigint, integer, smallint		LongType, Int32Type (must fit),
 *									IntegerType, DecimalType (scale 0),
 *									FloatType, DoubleType, CounterColumnType,
 *									DateType (milliseconds since 1970)
 *	numeric							IntegerType, DecimalType (display scale
 *									kept), LongType, Int32Type: integer
 *									targets need an integral value that fits
 *	real, double precision			FloatType, DoubleType
 *	boolean							BooleanType
 *	uuid, cfstore.timeuuid			UUIDType, LexicalUUIDType, TimeUUIDType
 *									(version 1 only)
 *	timestamptz, timestamp			DateType (timestamp is taken as UTC)
 *	a record						CompositeType: field i converted by these
 *									rules for component i; fewer fields than
 *									components is a prefix
 *
 * ReversedType(T) converts as T, a domain as its base type.  Any other
 * pairing is a datatype_mismatch error naming the slot, the SQL type and
 * the Cassandra type.  An unknown literal reaches an "any" parameter as a
 * cstring datum (unknownin's result), which is how format() and concat()
 * read it too.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "port/pg_bswap.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "api/cfargs.h"
#include "types/cftype_sql.h"

/* milliseconds between 1970-01-01 and 2000-01-01 (the PostgreSQL epoch) */
#define CF_UNIX_TO_PG_EPOCH_MS INT64CONST(946684800000)
/* the largest CompositeType component (a 2-byte length) */
#define CF_COMPOSITE_MAX_COMPONENT 0xFFFF

PG_FUNCTION_INFO_V1(cfstore_arg_bytes);
PG_FUNCTION_INFO_V1(cfstore_arg_bytes_array);

/* The oid of cfstore.timeuuid, or InvalidOid until looked up. */
static Oid	cf_timeuuid_oid = InvalidOid;
static bool cf_type_callback_registered = false;


static bytea *convert(const CfType *type, const CfType *named, Datum value,
					  Oid argtype, const char *slot);
static void mismatch(const CfType *named, Oid argtype, const char *slot)
			pg_attribute_noreturn();
static void out_of_range(const CfType *named, const char *valuestr,
						 const char *slot) pg_attribute_noreturn();

/* The last type whose base type was looked up, and that base type. */
static Oid	cf_last_argtype = InvalidOid;
static Oid	cf_last_base = InvalidOid;

/* Syscache callback: any pg_type change forgets the cached type oids. */
static void
type_cache_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	(void) hashvalue;
	cf_timeuuid_oid = InvalidOid;
	cf_last_argtype = InvalidOid;
}

/* Make sure pg_type changes reach type_cache_callback before anything is remembered. */
static void
register_type_callback(void)
{
	if (!cf_type_callback_registered)
	{
		CacheRegisterSyscacheCallback(TYPEOID, type_cache_callback, (Datum) 0);
		cf_type_callback_registered = true;
	}
}

/* The oid of cfstore.timeuuid (InvalidOid if it does not exist). */
Oid
cfTimeuuidOid(void)
{
	if (!OidIsValid(cf_timeuuid_oid))
	{
		Oid			nsp;

		register_type_callback();
		nsp = get_namespace_oid("cfstore", true);
		if (OidIsValid(nsp))
			cf_timeuuid_oid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
											  CStringGetDatum("timeuuid"),
											  ObjectIdGetDatum(nsp));
	}
	return cf_timeuuid_oid;
}

/*
 * The base type of an argument's type.  The built-in types that the
 * conversions name are never domains; for any other type the last answer
 * is remembered (a call site passes the same type every time) until
 * pg_type changes.
 */
static Oid
base_type(Oid argtype)
{
	switch (argtype)
	{
		case BYTEAOID:
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
		case NAMEOID:
		case UNKNOWNOID:
		case INT8OID:
		case INT4OID:
		case INT2OID:
		case NUMERICOID:
		case FLOAT4OID:
		case FLOAT8OID:
		case BOOLOID:
		case UUIDOID:
		case TIMESTAMPTZOID:
		case TIMESTAMPOID:
			return argtype;
		default:
			break;
	}
	if (!OidIsValid(argtype) || argtype != cf_last_argtype)
	{
		Oid			base;

		register_type_callback();
		base = getBaseType(argtype);
		cf_last_base = base;
		cf_last_argtype = argtype;
	}
	return cf_last_base;
}

/* Append the short name of a type, with its parameters, to buf. */
static void
append_type_label(StringInfo buf, const CfType *type)
{
	appendStringInfoString(buf, cfTypeShortName(type->kind));
	if (type->nsub > 0)
	{
		appendStringInfoChar(buf, '(');
		for (int i = 0; i < type->nsub; i++)
		{
			if (i > 0)
				appendStringInfoChar(buf, ',');
			append_type_label(buf, type->sub[i]);
		}
		appendStringInfoChar(buf, ')');
	}
}

/* The name of a type in error messages: "LongType", "CompositeType(UTF8Type,LongType)". */
static char *
type_label(const CfType *type)
{
	StringInfoData buf;

	initStringInfo(&buf);
	append_type_label(&buf, type);
	return buf.data;
}

/* Raise the error for a pairing of SQL type and Cassandra type that has no conversion. */
static void
mismatch(const CfType *named, Oid argtype, const char *slot)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("cannot use a value of type %s as %s of type %s",
					format_type_be(argtype), slot, type_label(named))));
}

/* Raise the error for a value that the Cassandra type cannot hold. */
static void
out_of_range(const CfType *named, const char *valuestr, const char *slot)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("%s is out of range for %s of type %s",
					valuestr, slot, type_label(named))));
}

/* An 8-byte big-endian bytea. */
static bytea *
be64_bytea(uint64 v)
{
	uint64		n = pg_hton64(v);

	return cfMakeBytea(&n, 8);
}

/* A 4-byte big-endian bytea. */
static bytea *
be32_bytea(uint32 v)
{
	uint32		n = pg_hton32(v);

	return cfMakeBytea(&n, 4);
}

/* Java BigInteger.toByteArray() of v: minimal two's complement, big-endian. */
static bytea *
varint_from_int64(int64 v, bool with_zero_scale)
{
	uint64		n = pg_hton64((uint64) v);
	uint8		b[8];
	int			i = 0;
	int			skip = with_zero_scale ? 4 : 0;
	bytea	   *result;

	memcpy(b, &n, 8);
	/* drop sign-extension bytes: 00 before a byte < 0x80, FF before one >= 0x80 */
	while (i < 7 && ((b[i] == 0x00 && b[i + 1] < 0x80) ||
					 (b[i] == 0xff && b[i + 1] >= 0x80)))
		i++;
	result = palloc(VARHDRSZ + skip + 8 - i);
	SET_VARSIZE(result, VARHDRSZ + skip + 8 - i);
	memset(VARDATA(result), 0, skip);	/* DecimalType: scale 0 */
	memcpy(VARDATA(result) + skip, b + i, 8 - i);
	return result;
}

/* bigint, integer, smallint: the integer types, the floats, DateType. */
static bytea *
from_int64(const CfType *type, const CfType *named, int64 v, Oid argtype,
		   const char *slot)
{
	switch (type->kind)
	{
		case CF_LONG:
		case CF_COUNTER:
		case CF_DATE:
			return be64_bytea((uint64) v);
		case CF_INT32:
			if (v < PG_INT32_MIN || v > PG_INT32_MAX)
				out_of_range(named, psprintf(INT64_FORMAT, v), slot);
			return be32_bytea((uint32) (int32) v);
		case CF_INTEGER:
			return varint_from_int64(v, false);
		case CF_DECIMAL:
			return varint_from_int64(v, true);
		case CF_FLOAT:
			{
				float4		f = (float4) v;
				uint32		n;

				memcpy(&n, &f, 4);
				return be32_bytea(n);
			}
		case CF_DOUBLE:
			{
				float8		f = (float8) v;
				uint64		n;

				memcpy(&n, &f, 8);
				return be64_bytea(n);
			}
		default:
			mismatch(named, argtype, slot);
	}
	return NULL;				/* keep compiler quiet */
}

/*
 * The integer value of a plain decimal string "[-]digits[.digits]" in
 * BigInteger form, or NULL if its fraction is not all zeros.
 */
static bytea *
integral_varint(const char *str)
{
	const char *point = strchr(str, '.');
	int			intlen = point ? (int) (point - str) : (int) strlen(str);

	if (point != NULL && point[1 + strspn(point + 1, "0")] != '\0')
		return NULL;
	return cfVarintFromDecimal(str, intlen);
}

/*
 * Sign-extend a BigInteger value into a fixed-width big-endian integer of
 * width bytes; false if it does not fit.
 */
static bool
varint_to_fixed(const bytea *varint, int width, uint8 *out)
{
	const uint8 *v = (const uint8 *) VARDATA(varint);
	int			len = VARSIZE(varint) - VARHDRSZ;

	if (len > width)
		return false;
	memset(out, (len > 0 && (int8) v[0] < 0) ? 0xff : 0x00, width - len);
	memcpy(out + width - len, v, len);
	return true;
}

/* numeric: IntegerType, DecimalType, LongType, Int32Type. */
static bytea *
from_numeric(const CfType *type, const CfType *named, Datum value, Oid argtype,
			 const char *slot)
{
	Numeric		num = DatumGetNumeric(value);
	char	   *str;
	bytea	   *varint;
	uint8		fixed[8];

	if (type->kind != CF_INTEGER && type->kind != CF_DECIMAL &&
		type->kind != CF_LONG && type->kind != CF_INT32)
		mismatch(named, argtype, slot);
	str = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
	if (numeric_is_nan(num) || numeric_is_inf(num))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot use numeric %s as %s of type %s",
						str, slot, type_label(named))));

	if (type->kind == CF_DECIMAL)
	{
		bytea	   *result = cfDecimalFromString(str);

		if (result == NULL)
			elog(ERROR, "numeric_out gave an unexpected form: \"%s\"", str);
		return result;
	}

	varint = integral_varint(str);
	if (varint == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot use the non-integral numeric %s as %s of type %s",
						str, slot, type_label(named))));
	if (type->kind == CF_INTEGER)
		return varint;
	if (!varint_to_fixed(varint, type->kind == CF_LONG ? 8 : 4, fixed))
		out_of_range(named, str, slot);
	return cfMakeBytea(fixed, type->kind == CF_LONG ? 8 : 4);
}

/* real, double precision: FloatType, DoubleType. */
static bytea *
from_float8(const CfType *type, const CfType *named, float8 v, Oid argtype,
			const char *slot)
{
	if (type->kind == CF_FLOAT)
	{
		float4		f = (float4) v;
		uint32		n;

		/* as float8 -> float4 does: no overflow to infinity, no underflow to 0 */
		if ((isinf(f) && !isinf(v)) || (f == 0.0f && v != 0.0))
			out_of_range(named,
						 DatumGetCString(DirectFunctionCall1(float8out, Float8GetDatum(v))),
						 slot);
		memcpy(&n, &f, 4);
		return be32_bytea(n);
	}
	if (type->kind == CF_DOUBLE)
	{
		uint64		n;

		memcpy(&n, &v, 8);
		return be64_bytea(n);
	}
	mismatch(named, argtype, slot);
	return NULL;				/* keep compiler quiet */
}

/* uuid, cfstore.timeuuid: the UUID types (TimeUUIDType needs version 1). */
static bytea *
from_uuid(const CfType *type, const CfType *named, Datum value, Oid argtype,
		  const char *slot)
{
	pg_uuid_t  *u = DatumGetUUIDP(value);
	bytea	   *result;

	if (type->kind != CF_UUID && type->kind != CF_LEXICALUUID &&
		type->kind != CF_TIMEUUID)
		mismatch(named, argtype, slot);
	result = cfMakeBytea(u->data, CF_UUID_LEN);
	cfTypeValidate(type, u->data, CF_UUID_LEN);	/* the TimeUUID version */
	return result;
}

/* timestamptz, timestamp (as UTC): DateType, milliseconds since 1970. */
static bytea *
from_timestamp(const CfType *type, const CfType *named, int64 ts, Oid argtype,
			   const char *slot)
{
	int64		ms;

	if (type->kind != CF_DATE)
		mismatch(named, argtype, slot);
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("cannot use an infinite timestamp as %s of type %s",
						slot, type_label(named))));
	/* floor to the millisecond, then shift from the 2000 to the 1970 epoch */
	ms = ts / 1000;
	if (ts % 1000 < 0)
		ms--;
	return be64_bytea((uint64) (ms + CF_UNIX_TO_PG_EPOCH_MS));
}

/*
 * A record: CompositeType, one field per component (a prefix is allowed),
 * each component with end-of-component byte 0.
 */
static bytea *
from_record(const CfType *type, const CfType *named, Datum value, Oid argtype,
			const char *slot)
{
	HeapTupleHeader rec;
	TupleDesc	desc;
	HeapTupleData tuple;
	int			nfields = 0;
	int			c = 0;
	StringInfoData out;

	if (type->kind != CF_COMPOSITE)
		mismatch(named, argtype, slot);

	rec = DatumGetHeapTupleHeader(value);
	desc = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(rec),
								  HeapTupleHeaderGetTypMod(rec));
	tuple.t_len = HeapTupleHeaderGetDatumLength(rec);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = rec;

	for (int i = 0; i < desc->natts; i++)
		if (!TupleDescAttr(desc, i)->attisdropped)
			nfields++;
	if (nfields > type->nsub)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot use a record of %d fields as %s of type %s",
						nfields, slot, type_label(named)),
				 errdetail("The type has %d components.", type->nsub)));

	initStringInfo(&out);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute attr = TupleDescAttr(desc, i);
		char	   *subslot;
		bool		isnull;
		Datum		field;
		bytea	   *comp;
		int			clen;

		if (attr->attisdropped)
			continue;
		subslot = psprintf("component %d of %s", c, slot);
		field = heap_getattr(&tuple, i + 1, desc, &isnull);
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not be NULL", subslot)));
		comp = convert(type->sub[c], type->sub[c], field, attr->atttypid, subslot);
		clen = VARSIZE_ANY_EXHDR(comp);
		/* a bytea field has no caller to validate it: do it here */
		if (getBaseType(attr->atttypid) == BYTEAOID)
			cfTypeValidate(type->sub[c], (const uint8 *) VARDATA_ANY(comp), clen);
		if (clen > CF_COMPOSITE_MAX_COMPONENT)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("CompositeType component %d is %d bytes long; the limit is 65535",
							c, clen)));
		appendStringInfoChar(&out, (char) (clen >> 8));
		appendStringInfoChar(&out, (char) (clen & 0xff));
		appendBinaryStringInfo(&out, VARDATA_ANY(comp), clen);
		appendStringInfoChar(&out, 0);	/* end-of-component */
		pfree(subslot);
		c++;
	}
	ReleaseTupleDesc(desc);
	return cfMakeBytea(out.data, out.len);
}

/*
 * Convert one non-NULL argument for type; named is the type that error
 * messages name (the declared type when type is the base of a ReversedType).
 */
static bytea *
convert(const CfType *type, const CfType *named, Datum value, Oid argtype,
		const char *slot)
{
	Oid			base = base_type(argtype);

	if (type->kind == CF_REVERSED)
		return convert(type->sub[0], named, value, argtype, slot);

	switch (base)
	{
		case BYTEAOID:
			return DatumGetByteaP(value);
		case TEXTOID:
		case VARCHAROID:
			if (type->kind == CF_UTF8 && GetDatabaseEncoding() == PG_UTF8)
			{
				/* the text is UTF-8 already: what cfTypeFromString gives, in one copy */
				text	   *t = DatumGetTextPP(value);
				bytea	   *result = cfMakeBytea(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));

				cfTypeValidate(type, (const uint8 *) VARDATA(result), VARSIZE(result) - VARHDRSZ);
				return result;
			}
			return cfTypeFromString(type, TextDatumGetCString(value));
		case BPCHAROID:
			{
				char	   *str = TextDatumGetCString(value);
				int			len = strlen(str);

				/* trailing blanks are padding, as in the cast to text */
				while (len > 0 && str[len - 1] == ' ')
					str[--len] = '\0';
				return cfTypeFromString(type, str);
			}
		case NAMEOID:
			return cfTypeFromString(type, NameStr(*DatumGetName(value)));
		case UNKNOWNOID:
			return cfTypeFromString(type, DatumGetCString(value));
		case INT8OID:
			return from_int64(type, named, DatumGetInt64(value), argtype, slot);
		case INT4OID:
			return from_int64(type, named, DatumGetInt32(value), argtype, slot);
		case INT2OID:
			return from_int64(type, named, DatumGetInt16(value), argtype, slot);
		case NUMERICOID:
			return from_numeric(type, named, value, argtype, slot);
		case FLOAT4OID:
			return from_float8(type, named, DatumGetFloat4(value), argtype, slot);
		case FLOAT8OID:
			return from_float8(type, named, DatumGetFloat8(value), argtype, slot);
		case BOOLOID:
			{
				uint8		b = DatumGetBool(value) ? 1 : 0;

				if (type->kind != CF_BOOLEAN)
					mismatch(named, argtype, slot);
				return cfMakeBytea(&b, 1);
			}
		case UUIDOID:
			return from_uuid(type, named, value, argtype, slot);
		case TIMESTAMPTZOID:
			return from_timestamp(type, named, DatumGetTimestampTz(value), argtype, slot);
		case TIMESTAMPOID:
			return from_timestamp(type, named, DatumGetTimestamp(value), argtype, slot);
		default:
			break;
	}
	if (OidIsValid(base) && base == cfTimeuuidOid())
		return from_uuid(type, named, value, argtype, slot);
	if (type_is_rowtype(base))
		return from_record(type, named, value, argtype, slot);
	mismatch(named, argtype, slot);
	return NULL;				/* keep compiler quiet */
}

/* Encode one "any" argument (not NULL); see cfargs.h. */
bytea *
cfArgToBytes(const CfType *type, Datum value, Oid argtype, const char *slot)
{
	bytea	   *result = convert(type, type, value, argtype, slot);

	Assert(base_type(argtype) == BYTEAOID ||
		   cfTypeValidateMessage(type, (const uint8 *) VARDATA(result),
								 VARSIZE(result) - VARHDRSZ) == NULL);
	return result;
}

/* Encode every element of an array argument; see cfargs.h. */
bytea **
cfArgArrayToBytes(const CfType *type, Datum value, Oid argtype,
				  const char *slot, int *n)
{
	Oid			base = base_type(argtype);
	Oid			elemtype = get_element_type(base);
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Datum	   *elems;
	bool	   *nulls;
	int			nelems;
	bytea	  **result;

	if (!OidIsValid(elemtype))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s must be an array, not a value of type %s",
						slot, format_type_be(argtype))));
	get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
	deconstruct_array(DatumGetArrayTypeP(value), elemtype, elmlen, elmbyval,
					  elmalign, &elems, &nulls, &nelems);
	result = palloc(Max(nelems, 1) * sizeof(bytea *));
	for (int i = 0; i < nelems; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain NULL elements", slot)));
		result[i] = cfArgToBytes(type, elems[i], elemtype, slot);
	}
	*n = nelems;
	return result;
}

/* The SQL type of argument 1 of a test function. */
static Oid
value_argtype(FunctionCallInfo fcinfo)
{
	Oid			argtype = get_fn_expr_argtype(fcinfo->flinfo, 1);

	if (!OidIsValid(argtype))
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_DATATYPE),
				 errmsg("could not determine the data type of value")));
	return argtype;
}

/* _arg_bytes(type, value "any"), for tests: the encoding, validated. */
Datum
cfstore_arg_bytes(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	bytea	   *result = cfArgToBytes(type, PG_GETARG_DATUM(1),
									  value_argtype(fcinfo), "value");

	cfTypeValidate(type, (const uint8 *) VARDATA_ANY(result), VARSIZE_ANY_EXHDR(result));
	PG_RETURN_BYTEA_P(result);
}

/* _arg_bytes_array(type, value "any"), for tests: each element's encoding, validated. */
Datum
cfstore_arg_bytes_array(PG_FUNCTION_ARGS)
{
	CfType	   *type = cfTypeArg(fcinfo);
	int			n;
	bytea	  **elems = cfArgArrayToBytes(type, PG_GETARG_DATUM(1),
										  value_argtype(fcinfo), "value", &n);
	Datum	   *datums = palloc(Max(n, 1) * sizeof(Datum));

	for (int i = 0; i < n; i++)
	{
		cfTypeValidate(type, (const uint8 *) VARDATA_ANY(elems[i]),
					   VARSIZE_ANY_EXHDR(elems[i]));
		datums[i] = PointerGetDatum(elems[i]);
	}
	if (n == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(BYTEAOID));
	PG_RETURN_ARRAYTYPE_P(construct_array(datums, n, BYTEAOID, -1, false, TYPALIGN_INT));
}
