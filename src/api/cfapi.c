/*-------------------------------------------------------------------------
 *
 * cfapi.c
 *	  Shared plumbing of the Thrift-style SQL functions (see cfapi.h).
 *
 * Every function takes (keyspace, column_family) first.  The column family
 * is looked up before anything else (Cassandra validates the column family
 * first, semantics §11), then the caller's privilege on its storage
 * relation is checked as SQL would check it: reads need SELECT, writes
 * INSERT, removals DELETE.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "api/cfapi.h"
#include "api/cfargs.h"

/* Raise an invalid-request error (Cassandra's InvalidRequestException). */
void
cfInvalidRequest(const char *fmt,...)
{
	char		buf[1024];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", buf)));
}

/* Whether argument argno is NULL. */
bool
cfArgIsNull(FunctionCallInfo fcinfo, int argno)
{
	return PG_NARGS() <= argno || PG_ARGISNULL(argno);
}

/* Open the column family named by arguments 0 and 1, checking privilege mode. */
void
cfTargetOpen(CfTarget *t, FunctionCallInfo fcinfo, AclMode mode)
{
	char	   *ks;
	char	   *cfname;
	Oid			relid;

	if (cfArgIsNull(fcinfo, 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("Keyspace null does not exist")));
	if (cfArgIsNull(fcinfo, 1) || VARSIZE_ANY_EXHDR(PG_GETARG_TEXT_PP(1)) == 0)
		cfInvalidRequest("non-empty columnfamily is required");
	ks = text_to_cstring(PG_GETARG_TEXT_PP(0));
	cfname = text_to_cstring(PG_GETARG_TEXT_PP(1));
	t->cf = cfCatalogLookup(ks, cfname);
	relid = cfStorageRelid(t->cf->id, false);
	if (pg_class_aclcheck(relid, GetUserId(), mode) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for column family %s.%s", t->cf->keyspace, t->cf->name),
				 errdetail("%s needs the %s privilege on table cfstore_data.cf_%d.",
						   mode == ACL_SELECT ? "Reading" : mode == ACL_INSERT ? "Writing" : "Removing",
						   mode == ACL_SELECT ? "SELECT" : mode == ACL_INSERT ? "INSERT" : "DELETE",
						   t->cf->id)));
	t->lockmode = mode == ACL_SELECT ? AccessShareLock : RowExclusiveLock;
	t->rel = table_open(relid, t->lockmode);
}

/* Close what cfTargetOpen opened (the lock is kept until the end of the transaction). */
void
cfTargetClose(CfTarget *t)
{
	table_close(t->rel, NoLock);
	t->rel = NULL;
}

/* The encoding of "any" argument argno for type, or NULL if it is NULL. */
bytea *
cfArgBytes(FunctionCallInfo fcinfo, int argno, const CfType *type, const char *slot)
{
	if (cfArgIsNull(fcinfo, argno))
		return NULL;
	return cfArgToBytes(type, PG_GETARG_DATUM(argno),
						get_fn_expr_argtype(fcinfo->flinfo, argno), slot);
}

/* A slice bound: NULL and the empty string both mean unbounded (NULL). */
bytea *
cfArgBound(FunctionCallInfo fcinfo, int argno, const CfType *type, const char *slot)
{
	bytea	   *b = cfArgBytes(fcinfo, argno, type, slot);

	if (b != NULL && VARSIZE_ANY_EXHDR(b) == 0)
		return NULL;
	return b;
}

/* Render a byte string as text in a type's text form. */
static Datum
text_form(const CfType *type, const bytea *b)
{
	return CStringGetTextDatum(cfTypeToString(type, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b)));
}

/* Return every item of a slice as rows of cfstore.cell (materialized). */
void
cfEmitCells(FunctionCallInfo fcinfo, const CfColumnFamily *cf, CfSliceState *slice)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext rowcxt;
	const CfType *namecmp = cf->is_super ? cf->subcomparator : cf->comparator;
	CfOutCell	c;

	InitMaterializedSRF(fcinfo, 0);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore row", ALLOCSET_SMALL_SIZES);
	while (cfSliceNext(slice, &c))
	{
		Datum		values[6];
		bool		nulls[6] = {false, false, false, false, false, false};
		MemoryContext old = MemoryContextSwitchTo(rowcxt);

		values[0] = text_form(cf->key_validator, c.key);
		if (c.sc)
			values[1] = text_form(cf->comparator, c.sc);
		else
			nulls[1] = true;
		values[2] = text_form(namecmp, c.name);
		if (c.is_counter)
		{
			values[3] = CStringGetTextDatum(psprintf(INT64_FORMAT,
													 (int64) cfReadBe64((const uint8 *) VARDATA(c.value))));
			nulls[4] = true;
		}
		else
		{
			values[3] = text_form(cfCatalogValueValidator(cf, (const uint8 *) VARDATA(c.name),
														  VARSIZE(c.name) - VARHDRSZ), c.value);
			values[4] = Int64GetDatum(c.writetime);
		}
		if (c.ttl > 0)
			values[5] = Int32GetDatum(c.ttl);
		else
			nulls[5] = true;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
		CHECK_FOR_INTERRUPTS();
	}
	MemoryContextDelete(rowcxt);
}
