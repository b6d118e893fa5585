/*-------------------------------------------------------------------------
 *
 * cfmutate.c
 *	  The write functions: insert, remove, add, remove_counter
 *	  (README.md "Reading and writing", doc/semantics.md §5-§7, §9).
 *
 * Shape errors (a missing or forbidden super column or column name) come
 * before any argument is converted (README.md, "Errors").  Every write is one
 * cell version appended to the column family's storage relation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"
#include "utils/acl.h"

#include "api/cfapi.h"
#include "api/cfargs.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_insert);
PG_FUNCTION_INFO_V1(cfstore_remove);
PG_FUNCTION_INFO_V1(cfstore_add);
PG_FUNCTION_INFO_V1(cfstore_remove_counter);
PG_FUNCTION_INFO_V1(cfstore_remove_range);

/* The write's timestamp from argument argno, if given (else now). */
static void
write_time(CfWrite *w, FunctionCallInfo fcinfo, int argno)
{
	if (!cfArgIsNull(fcinfo, argno))
	{
		w->writetime = PG_GETARG_INT64(argno);
		w->has_writetime = true;
	}
}

/* Fill the key, super column and name of a write from "any" arguments. */
static void
write_target(CfWrite *w, FunctionCallInfo fcinfo, const CfColumnFamily *cf,
			 int keyarg, int namearg, int scarg)
{
	bytea	   *key = cfArgBytes(fcinfo, keyarg, cf->key_validator, "key");
	bytea	   *sc = scarg >= 0 ? cfArgBytes(fcinfo, scarg, cf->comparator, "super_column") : NULL;
	bytea	   *name = namearg >= 0 ? cfArgBytes(fcinfo, namearg,
												 cf->is_super ? cf->subcomparator : cf->comparator,
												 "column_name") : NULL;

	w->cf = cf;
	if (key == NULL)
		cfInvalidRequest("Key may not be empty");
	w->key = (const uint8 *) VARDATA_ANY(key);
	w->keylen = VARSIZE_ANY_EXHDR(key);
	if (sc != NULL && VARSIZE_ANY_EXHDR(sc) == 0)
		cfInvalidRequest("supercolumn name must not be empty");
	if (name != NULL && VARSIZE_ANY_EXHDR(name) == 0)
		cfInvalidRequest("column name must not be empty");
	if (sc != NULL)
	{
		w->sc = (const uint8 *) VARDATA_ANY(sc);
		w->sclen = VARSIZE_ANY_EXHDR(sc);
		w->has_sc = true;
	}
	if (name != NULL)
	{
		w->name = (const uint8 *) VARDATA_ANY(name);
		w->namelen = VARSIZE_ANY_EXHDR(name);
	}
	w->cid = GetCurrentCommandId(true);
}

/*
 * insert(keyspace, column_family, key, column_name, value, writetime, ttl,
 *		  super_column)
 */
Datum
cfstore_insert(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfWrite		w;
	bytea	   *value;

	cfTargetOpen(&t, fcinfo, ACL_INSERT);
	if (t.cf->is_counter)
		cfInvalidRequest("invalid operation for commutative columnfamily %s", t.cf->name);
	if (t.cf->is_super && cfArgIsNull(fcinfo, 7))
		cfInvalidRequest("missing mandatory super column name for super CF %s", t.cf->name);
	if (!t.cf->is_super && !cfArgIsNull(fcinfo, 7))
		cfInvalidRequest("columnfamily alone is required for standard CF %s", t.cf->name);
	if (cfArgIsNull(fcinfo, 3))
		cfInvalidRequest("column name must not be empty");
	/* Cassandra checks the ttl before the value (ThriftValidation.validateColumnData) */
	if (!cfArgIsNull(fcinfo, 6) && PG_GETARG_INT32(6) <= 0)
		cfInvalidRequest("ttl must be positive");
	if (!cfArgIsNull(fcinfo, 6) && PG_GETARG_INT32(6) > 630720000)
		cfInvalidRequest("ttl is too large. requested (%d) maximum (630720000)", PG_GETARG_INT32(6));
	if (cfArgIsNull(fcinfo, 4))
		cfInvalidRequest("Column value is required");

	memset(&w, 0, sizeof(w));
	w.kind = CF_WRITE_COLUMN;
	write_target(&w, fcinfo, t.cf, 2, 3, 7);
	value = cfArgBytes(fcinfo, 4, cfCatalogValueValidator(t.cf, w.name, w.namelen), "value");
	w.value = (const uint8 *) VARDATA_ANY(value);
	w.valuelen = VARSIZE_ANY_EXHDR(value);
	write_time(&w, fcinfo, 5);
	if (!cfArgIsNull(fcinfo, 6))
	{
		w.ttl = PG_GETARG_INT32(6);
		w.has_ttl = true;
	}
	cfWriteCell(t.rel, &w);
	cfTargetClose(&t);
	PG_RETURN_VOID();
}

/* Shape checks shared by remove and remove_counter (doc/semantics.md §9). */
static void
removal_shape(FunctionCallInfo fcinfo, const CfColumnFamily *cf, int namearg, int scarg)
{
	if (!cf->is_super && !cfArgIsNull(fcinfo, scarg))
		cfInvalidRequest("supercolumn may not be specified for standard CF %s", cf->name);
	if (cf->is_super && !cfArgIsNull(fcinfo, namearg) && cfArgIsNull(fcinfo, scarg))
		cfInvalidRequest("A column cannot be specified without specifying a super column for removal on super CF %s",
						 cf->name);
}

/* remove(keyspace, column_family, key, column_name, super_column, writetime) */
Datum
cfstore_remove(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfWrite		w;

	cfTargetOpen(&t, fcinfo, ACL_DELETE);
	if (t.cf->is_counter)
		cfInvalidRequest("invalid operation for commutative columnfamily %s", t.cf->name);
	removal_shape(fcinfo, t.cf, 3, 4);
	memset(&w, 0, sizeof(w));
	w.kind = CF_WRITE_TOMBSTONE;
	write_target(&w, fcinfo, t.cf, 2, 3, 4);
	write_time(&w, fcinfo, 5);
	cfWriteCell(t.rel, &w);
	cfTargetClose(&t);
	PG_RETURN_VOID();
}

/* add(keyspace, column_family, key, column_name, delta, super_column) */
Datum
cfstore_add(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfWrite		w;
	uint64		be;

	cfTargetOpen(&t, fcinfo, ACL_INSERT);
	if (!t.cf->is_counter)
		cfInvalidRequest("invalid operation for non commutative columnfamily %s", t.cf->name);
	if (t.cf->is_super && cfArgIsNull(fcinfo, 5))
		cfInvalidRequest("missing mandatory super column name for super CF %s", t.cf->name);
	if (!t.cf->is_super && !cfArgIsNull(fcinfo, 5))
		cfInvalidRequest("columnfamily alone is required for standard CF %s", t.cf->name);
	if (cfArgIsNull(fcinfo, 3))
		cfInvalidRequest("column name must not be empty");
	if (cfArgIsNull(fcinfo, 4))
		cfInvalidRequest("Column value is required");
	memset(&w, 0, sizeof(w));
	w.kind = CF_WRITE_COUNTER;
	write_target(&w, fcinfo, t.cf, 2, 3, 5);
	be = pg_hton64((uint64) PG_GETARG_INT64(4));
	w.value = (const uint8 *) &be;
	w.valuelen = 8;
	cfWriteCell(t.rel, &w);
	cfTargetClose(&t);
	PG_RETURN_VOID();
}

/* remove_counter(keyspace, column_family, key, column_name, super_column) */
Datum
cfstore_remove_counter(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfWrite		w;

	cfTargetOpen(&t, fcinfo, ACL_DELETE);
	if (!t.cf->is_counter)
		cfInvalidRequest("invalid operation for non commutative columnfamily %s", t.cf->name);
	removal_shape(fcinfo, t.cf, 3, 4);
	memset(&w, 0, sizeof(w));
	w.kind = CF_WRITE_TOMBSTONE;
	write_target(&w, fcinfo, t.cf, 2, 3, 4);
	cfWriteCell(t.rel, &w);
	cfTargetClose(&t);
	PG_RETURN_VOID();
}

/*
 * _remove_range(keyspace, column_family, key, start, finish, writetime):
 * one range tombstone over the row's columns in [start, finish] under the
 * comparator (NULL or empty: the row's beginning, its end), at writetime
 * (default now): what cql() and the foreign tables write for the deletion
 * of CQL rows, and batch_mutate for a slice_range deletion (cfrangedel.c).
 */
Datum
cfstore_remove_range(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfWrite		w;
	bytea	   *start;
	bytea	   *finish;

	cfTargetOpen(&t, fcinfo, ACL_DELETE);
	memset(&w, 0, sizeof(w));
	w.kind = CF_WRITE_RANGE_TOMBSTONE;
	write_target(&w, fcinfo, t.cf, 2, -1, -1);
	start = cfArgBytes(fcinfo, 3, t.cf->comparator, "start");
	finish = cfArgBytes(fcinfo, 4, t.cf->comparator, "finish");
	w.name = start ? (const uint8 *) VARDATA_ANY(start) : (const uint8 *) "";
	w.namelen = start ? VARSIZE_ANY_EXHDR(start) : 0;
	w.value = finish ? (const uint8 *) VARDATA_ANY(finish) : (const uint8 *) "";
	w.valuelen = finish ? VARSIZE_ANY_EXHDR(finish) : 0;
	write_time(&w, fcinfo, 5);
	cfWriteCell(t.rel, &w);
	cfTargetClose(&t);
	PG_RETURN_VOID();
}
