/*-------------------------------------------------------------------------
 *
 * cfmultiget.c
 *	  The read functions beyond one slice of one row: get_columns (a names
 *	  predicate), multiget_slice, get_count and multiget_count
 *	  (README.md "Reading and writing", doc/semantics.md §8.2-§8.4).
 *
 * Each is a loop of single-row slices, one descent per row (or per name):
 * the keys of a multi-key call are sorted in unsigned byte order (the
 * order rows are stored and returned in) and duplicates collapse, as they
 * do in the map Cassandra returns.  The predicate is checked before the
 * keys, as Cassandra validates the column parent and predicate first.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"
#include "utils/tuplestore.h"

#include "api/cfapi.h"
#include "api/cfargs.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_get_columns);
PG_FUNCTION_INFO_V1(cfstore_multiget_slice);
PG_FUNCTION_INFO_V1(cfstore_get_count);
PG_FUNCTION_INFO_V1(cfstore_multiget_count);

/* Sort order of encoded row keys: unsigned bytes. */
static int
key_cmp(const void *a, const void *b)
{
	const bytea *ka = *(bytea *const *) a;
	const bytea *kb = *(bytea *const *) b;

	return cfBytesCompare((const uint8 *) VARDATA_ANY(ka), VARSIZE_ANY_EXHDR(ka),
						  (const uint8 *) VARDATA_ANY(kb), VARSIZE_ANY_EXHDR(kb));
}

/*
 * The keys array argument argno: converted, validated, sorted in storage
 * order with duplicates removed.
 */
bytea **
cfKeysArg(FunctionCallInfo fcinfo, int argno, const CfColumnFamily *cf, int *n)
{
	bytea	  **keys;
	int			nkeys;
	int			out = 0;

	if (cfArgIsNull(fcinfo, argno))
		cfInvalidRequest("keys may not be null");
	keys = cfArgArrayToBytes(cf->key_validator, PG_GETARG_DATUM(argno),
							 get_fn_expr_argtype(fcinfo->flinfo, argno), "keys", &nkeys);
	for (int i = 0; i < nkeys; i++)
	{
		if (VARSIZE_ANY_EXHDR(keys[i]) == 0)
			cfInvalidRequest("Key may not be empty");
		cfValidateKey(cf, (const uint8 *) VARDATA_ANY(keys[i]), VARSIZE_ANY_EXHDR(keys[i]));
	}
	if (nkeys > 1)
		qsort(keys, nkeys, sizeof(bytea *), key_cmp);
	for (int i = 0; i < nkeys; i++)
		if (out == 0 || key_cmp(&keys[out - 1], &keys[i]) != 0)
			keys[out++] = keys[i];
	*n = out;
	return keys;
}

/* Begin the (empty) materialized result of a multi-row call. */
void
cfBeginResult(FunctionCallInfo fcinfo)
{
	InitMaterializedSRF(fcinfo, 0);
}

/*
 * Add the rows of one slice of spec (the key already set) to the call's
 * result, which cfBeginResult has begun; returns how many were added.
 */
int64
cfEmitSlice(FunctionCallInfo fcinfo, CfTarget *t, const CfSliceSpec *spec)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CfSliceState *slice = cfSliceBegin(t->rel, spec, GetActiveSnapshot());
	int64		before = tuplestore_tuple_count(rsinfo->setResult);

	cfEmitCells(fcinfo, t->cf, slice);
	cfSliceEnd(slice);
	return tuplestore_tuple_count(rsinfo->setResult) - before;
}

/*
 * Count a row of a key_count-limited read that added n cells; a row that
 * returns nothing does not count.  True once key_count rows have.
 */
bool
cfRowEmitted(CfRowsOut *out, int64 n)
{
	if (n > 0)
		out->found++;
	return out->found >= out->key_count;
}

/*
 * Add the predicate's slice of row key to a key_count-limited read; true
 * once key_count rows have returned something.
 */
bool
cfEmitRow(CfRowsOut *out, bytea *key)
{
	out->spec->key = key;
	return cfRowEmitted(out, cfEmitSlice(out->fcinfo, out->t, out->spec));
}

/*
 * The number of items of a slice: columns, or super columns when the
 * items are whole super columns (the slice returns each with its
 * subcolumns, which count once).
 */
int64
cfCountSlice(CfTarget *t, const CfSliceSpec *spec)
{
	CfSliceState *slice = cfSliceBegin(t->rel, spec, GetActiveSnapshot());
	CfOutCell	c;
	int64		n = 0;
	bytea	   *lastsc = NULL;

	while (cfSliceNext(slice, &c))
	{
		if (spec->whole_super)
		{
			if (lastsc != NULL && VARSIZE_ANY(lastsc) == VARSIZE_ANY(c.sc) &&
				memcmp(VARDATA_ANY(lastsc), VARDATA_ANY(c.sc), VARSIZE_ANY_EXHDR(c.sc)) == 0)
				continue;
			if (lastsc != NULL)
				pfree(lastsc);
			lastsc = (bytea *) pg_detoast_datum_copy((struct varlena *) c.sc);
		}
		n++;
		CHECK_FOR_INTERRUPTS();
	}
	cfSliceEnd(slice);
	return n;
}

/* A names-predicate sort context: the names' comparator. */
static const CfType *names_type;

/* Sort order of names under names_type. */
static int
name_cmp(const void *a, const void *b)
{
	const bytea *na = *(bytea *const *) a;
	const bytea *nb = *(bytea *const *) b;

	return cfTypeCompare(names_type, (const uint8 *) VARDATA_ANY(na), VARSIZE_ANY_EXHDR(na),
						 (const uint8 *) VARDATA_ANY(nb), VARSIZE_ANY_EXHDR(nb));
}

/*
 * get_columns(keyspace, column_family, key, column_names, super_column):
 * the live columns among the names, in comparator order; in a Super column
 * family without super_column the names are super columns, each returned
 * with all its live subcolumns.  One read per distinct name.
 */
Datum
cfstore_get_columns(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfSliceSpec spec;
	const CfType *itemtype;
	bytea	  **names;
	int			nnames;
	int			out = 0;
	bytea	   *key;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	itemtype = cfSliceParent(fcinfo, t.cf, 4, &spec);
	if (cfArgIsNull(fcinfo, 3))
		cfInvalidRequest("column_names may not be null");
	names = cfArgArrayToBytes(itemtype, PG_GETARG_DATUM(3), get_fn_expr_argtype(fcinfo->flinfo, 3),
							  "column_names", &nnames);
	for (int i = 0; i < nnames; i++)
		cfValidateName(itemtype, (const uint8 *) VARDATA_ANY(names[i]), VARSIZE_ANY_EXHDR(names[i]),
					   spec.whole_super);
	names_type = itemtype;
	if (nnames > 1)
		qsort(names, nnames, sizeof(bytea *), name_cmp);
	for (int i = 0; i < nnames; i++)
		if (out == 0 || name_cmp(&names[out - 1], &names[i]) != 0)
			names[out++] = names[i];
	key = cfKeyArg(fcinfo, 2, t.cf);

	cfBeginResult(fcinfo);
	for (int i = 0; i < out; i++)
	{
		CfSliceSpec one = spec;

		one.key = key;
		if (spec.whole_super)
		{
			/* a super column by name: all its live subcolumns */
			one.whole_super = false;
			one.sc = names[i];
			one.count = PG_INT64_MAX;
		}
		else
		{
			one.start = one.finish = names[i];
			one.count = 1;
		}
		cfEmitSlice(fcinfo, &t, &one);
	}
	cfTargetClose(&t);
	return (Datum) 0;
}

/*
 * multiget_slice(keyspace, column_family, keys, start, finish, reversed,
 *				  count, super_column): get_slice of every key, by key in
 * storage order.
 */
Datum
cfstore_multiget_slice(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfSliceSpec spec;
	bytea	  **keys;
	int			nkeys;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	cfSlicePredicate(fcinfo, t.cf, 7, 3, 4, 5, 6, &spec);
	keys = cfKeysArg(fcinfo, 2, t.cf, &nkeys);

	cfBeginResult(fcinfo);
	for (int i = 0; i < nkeys; i++)
	{
		spec.key = keys[i];
		cfEmitSlice(fcinfo, &t, &spec);
	}
	cfTargetClose(&t);
	return (Datum) 0;
}

/*
 * The predicate of get_count / multiget_count: start, finish (forward
 * order) and an optional cap, which counts live items like get_slice's
 * count.
 */
static void
count_predicate(FunctionCallInfo fcinfo, const CfColumnFamily *cf, CfSliceSpec *spec)
{
	/* arguments: 3 start, 4 finish, 5 count, 6 super_column */
	cfSlicePredicate(fcinfo, cf, 6, 3, 4, -1, 5, spec);
	if (cfArgIsNull(fcinfo, 5))
		spec->count = PG_INT64_MAX;
}

/* get_count(keyspace, column_family, key, start, finish, count, super_column) */
Datum
cfstore_get_count(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfSliceSpec spec;
	int64		n;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	count_predicate(fcinfo, t.cf, &spec);
	spec.key = cfKeyArg(fcinfo, 2, t.cf);
	n = cfCountSlice(&t, &spec);
	cfTargetClose(&t);
	PG_RETURN_INT32((int32) Min(n, PG_INT32_MAX));
}

/*
 * multiget_count(keyspace, column_family, keys, start, finish, count,
 *				  super_column): (key, count) for every requested key,
 * 0 included, in storage order.
 */
Datum
cfstore_multiget_count(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CfTarget	t;
	CfSliceSpec spec;
	bytea	  **keys;
	int			nkeys;
	StringInfoData buf;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	count_predicate(fcinfo, t.cf, &spec);
	keys = cfKeysArg(fcinfo, 2, t.cf, &nkeys);

	InitMaterializedSRF(fcinfo, 0);
	initStringInfo(&buf);
	for (int i = 0; i < nkeys; i++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};
		int64		n;

		spec.key = keys[i];
		n = cfCountSlice(&t, &spec);
		values[0] = PointerGetDatum(cfTypeToText(t.cf->key_validator, (const uint8 *) VARDATA_ANY(keys[i]),
												 VARSIZE_ANY_EXHDR(keys[i]), &buf));
		values[1] = Int32GetDatum((int32) Min(n, PG_INT32_MAX));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	cfTargetClose(&t);
	return (Datum) 0;
}
