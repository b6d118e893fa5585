/*-------------------------------------------------------------------------
 *
 * cfget.c
 *	  The single-row read functions: get and get_slice (README.md,
 *	  "Reading and writing"; doc/semantics.md §8.1-§8.2).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/primnodes.h"
#include "nodes/supportnodes.h"
#include "utils/acl.h"
#include "utils/snapmgr.h"

#include "api/cfapi.h"
#include "api/cfargs.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_get);
PG_FUNCTION_INFO_V1(cfstore_get_slice);
PG_FUNCTION_INFO_V1(cfstore_get_slice_support);

/* get_slice's argument positions (sql/60_api.sql) */
#define CF_SLICE_ARG_COUNT	6
#define CF_SLICE_DEFAULT_COUNT 100

/* Check a slice range (doc/semantics.md §8.2) once its bounds are converted. */
void
cfCheckRange(const CfType *type, const bytea *start, const bytea *finish, bool reversed, int64 count)
{
	if (start != NULL && VARSIZE_ANY_EXHDR(start) > 65535)
		cfInvalidRequest("range start length cannot be larger than 65535");
	if (finish != NULL && VARSIZE_ANY_EXHDR(finish) > 65535)
		cfInvalidRequest("range finish length cannot be larger than 65535");
	if (start != NULL)
		cfValidateName(type, (const uint8 *) VARDATA_ANY(start), VARSIZE_ANY_EXHDR(start), false);
	if (finish != NULL)
		cfValidateName(type, (const uint8 *) VARDATA_ANY(finish), VARSIZE_ANY_EXHDR(finish), false);
	if (start != NULL && finish != NULL)
	{
		int			c = cfTypeCompare(type, (const uint8 *) VARDATA_ANY(start), VARSIZE_ANY_EXHDR(start),
									  (const uint8 *) VARDATA_ANY(finish), VARSIZE_ANY_EXHDR(finish));

		if (reversed ? c < 0 : c > 0)
			cfInvalidRequest("range finish must come after start in the order of traversal");
	}
	if (count < 0)
		cfInvalidRequest("get_slice requires non-negative count");
}

/*
 * The column parent of a slice (doc/semantics.md §8.2): in a Super column family
 * the super_column argument scarg, if given, makes the items its
 * subcolumns, else the items are super columns; a Standard column family
 * takes no super_column.  Sets spec->sc / whole_super and returns the
 * items' comparator.
 */
const CfType *
cfSliceParent(FunctionCallInfo fcinfo, const CfColumnFamily *cf, int scarg, CfSliceSpec *spec)
{
	if (!cf->is_super)
	{
		if (!cfArgIsNull(fcinfo, scarg))
			cfInvalidRequest("columnfamily alone is required for standard CF %s", cf->name);
		return cf->comparator;
	}
	if (cfArgIsNull(fcinfo, scarg))
	{
		spec->whole_super = true;
		return cf->comparator;
	}
	spec->sc = cfArgBytes(fcinfo, scarg, cf->comparator, "super_column");
	cfValidateName(cf->comparator, (const uint8 *) VARDATA_ANY(spec->sc), VARSIZE_ANY_EXHDR(spec->sc), true);
	return cf->subcomparator;
}

/*
 * The column parent and slice range of a read (doc/semantics.md §8.2) from its
 * arguments: super_column scarg, start and finish (NULL or empty:
 * unbounded), reversed (-1: the function has none) and count (NULL: 100).
 * Fills spec, all but the key, and checks the range.
 */
void
cfSlicePredicate(FunctionCallInfo fcinfo, const CfColumnFamily *cf, int scarg, int startarg,
				 int finisharg, int reversedarg, int countarg, CfSliceSpec *spec)
{
	const CfType *itemtype = cfSliceParent(fcinfo, cf, scarg, spec);

	spec->start = cfArgBound(fcinfo, startarg, itemtype, "start");
	spec->finish = cfArgBound(fcinfo, finisharg, itemtype, "finish");
	spec->reversed = reversedarg >= 0 && !cfArgIsNull(fcinfo, reversedarg) &&
		PG_GETARG_BOOL(reversedarg);
	spec->count = cfArgIsNull(fcinfo, countarg) ? CF_SLICE_DEFAULT_COUNT : PG_GETARG_INT32(countarg);
	cfCheckRange(itemtype, spec->start, spec->finish, spec->reversed, spec->count);
}

/* The key argument, validated. */
bytea *
cfKeyArg(FunctionCallInfo fcinfo, int argno, const CfColumnFamily *cf)
{
	bytea	   *key = cfArgBytes(fcinfo, argno, cf->key_validator, "key");

	if (key == NULL)
		cfInvalidRequest("Key may not be empty");
	cfValidateKey(cf, (const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));
	return key;
}

/* Run a slice and return its cells. */
static void
run_slice(FunctionCallInfo fcinfo, CfTarget *t, CfSliceSpec *spec)
{
	CfSliceState *slice = cfSliceBegin(t->rel, spec, GetActiveSnapshot());

	cfEmitCells(fcinfo, t->cf, slice);
	cfSliceEnd(slice);
	cfTargetClose(t);
}

/* get(keyspace, column_family, key, column_name, super_column) */
Datum
cfstore_get(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfSliceSpec spec;
	const CfType *namecmp;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	namecmp = t.cf->is_super ? t.cf->subcomparator : t.cf->comparator;
	if (!t.cf->is_super)
	{
		if (!cfArgIsNull(fcinfo, 4))
			cfInvalidRequest("supercolumn parameter is invalid for standard CF %s", t.cf->name);
		if (cfArgIsNull(fcinfo, 3))
			cfInvalidRequest("column parameter is not optional for standard CF %s", t.cf->name);
	}
	else if (cfArgIsNull(fcinfo, 4))
		cfInvalidRequest("supercolumn parameter is not optional for super CF %s", t.cf->name);

	memset(&spec, 0, sizeof(spec));
	if (t.cf->is_super)
	{
		spec.sc = cfArgBytes(fcinfo, 4, t.cf->comparator, "super_column");
		cfValidateName(t.cf->comparator, (const uint8 *) VARDATA_ANY(spec.sc), VARSIZE_ANY_EXHDR(spec.sc), true);
	}
	spec.count = PG_INT64_MAX;
	if (!cfArgIsNull(fcinfo, 3))
	{
		bytea	   *name = cfArgBytes(fcinfo, 3, namecmp, "column_name");

		cfValidateName(namecmp, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), false);
		spec.start = spec.finish = name;
		spec.count = 1;
	}
	/* the column path is validated before the key (doc/semantics.md §11) */
	spec.key = cfKeyArg(fcinfo, 2, t.cf);
	run_slice(fcinfo, &t, &spec);
	return (Datum) 0;
}

/*
 * Open the slice that a get_slice call asks for (its arguments in fcinfo:
 * keyspace, column_family, key, start, finish, reversed, count,
 * super_column), read as of snapshot.  t, zeroed or still open from an
 * earlier slice (cfTargetReuse), receives the column family, open until
 * cfTargetClose; the caller ends the slice.  Used by the function and by
 * the scan node that stands in for it (cfcustomscan.c), which keeps t open
 * across its rescans.
 */
CfSliceState *
cfGetSliceBegin(FunctionCallInfo fcinfo, CfTarget *t, Snapshot snapshot)
{
	CfSliceSpec spec;

	cfTargetReuse(t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	cfSlicePredicate(fcinfo, t->cf, 7, 3, 4, 5, CF_SLICE_ARG_COUNT, &spec);
	/* the column parent and predicate are validated before the key */
	spec.key = cfKeyArg(fcinfo, 2, t->cf);
	return cfSliceBegin(t->rel, &spec, snapshot);
}

/*
 * get_slice(keyspace, column_family, key, start, finish, reversed, count,
 *			 super_column)
 */
Datum
cfstore_get_slice(PG_FUNCTION_ARGS)
{
	CfTarget	t = {0};
	CfSliceState *slice = cfGetSliceBegin(fcinfo, &t, GetActiveSnapshot());

	cfEmitCells(fcinfo, t.cf, slice);
	cfSliceEnd(slice);
	cfTargetClose(&t);
	return (Datum) 0;
}

/*
 * Planner support for get_slice: the row estimate of a call whose count is
 * a constant is that count (a NULL count means the default).  A slice
 * returns at most count columns; in a Super column family without
 * super_column it returns count super columns with all their subcolumns,
 * so there it is an underestimate.  Any other call keeps the declared ROWS.
 */
Datum
cfstore_get_slice_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestRows *req;
	List	   *args;
	Node	   *count;

	if (!IsA(rawreq, SupportRequestRows))
		PG_RETURN_POINTER(NULL);
	req = (SupportRequestRows *) rawreq;
	if (req->node == NULL || !IsA(req->node, FuncExpr))
		PG_RETURN_POINTER(NULL);
	/* the planner has put the arguments in order and added the defaults */
	args = ((FuncExpr *) req->node)->args;
	if (list_length(args) <= CF_SLICE_ARG_COUNT)
		PG_RETURN_POINTER(NULL);
	count = (Node *) list_nth(args, CF_SLICE_ARG_COUNT);
	if (!IsA(count, Const) || ((Const *) count)->consttype != INT4OID)
		PG_RETURN_POINTER(NULL);
	if (((Const *) count)->constisnull)
		req->rows = CF_SLICE_DEFAULT_COUNT;
	else
		req->rows = Max(DatumGetInt32(((Const *) count)->constvalue), 1);
	PG_RETURN_POINTER(req);
}
