/*-------------------------------------------------------------------------
 *
 * cfapi.c
 *	  Shared plumbing of the Thrift-style SQL functions (see cfapi.h).
 *
 * Every function takes (keyspace, column_family) first.  The column family
 * is looked up before anything else (Cassandra validates the column family
 * first, doc/semantics.md §11), then the caller's privilege on its storage
 * relation is checked as SQL would check it: reads need SELECT, writes
 * INSERT, removals DELETE.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "api/cfapi.h"
#include "api/cfargs.h"

/* Whether argument argno is NULL. */
bool
cfArgIsNull(FunctionCallInfo fcinfo, int argno)
{
	return PG_NARGS() <= argno || PG_ARGISNULL(argno);
}

/*
 * What a call site (one FmgrInfo, in its fn_extra) keeps from call to call.
 * A query that calls a function once per row names the same column family
 * every time: the definition found by the last call serves again as long
 * as the catalog cache has not been reset since (the generation), which is
 * the cache's own rule for keeping entries, with the storage relation it
 * was found to have.  Privileges are checked on every call (a slice scan,
 * which keeps the column family open across its rescans, checks once per
 * column family it opens: cfTargetReuse).  Rows are rendered in buffers
 * that are reused from call to call.
 */
/* A slice bound argument converted before, for a call with the same one. */
typedef struct CfBoundCache
{
	int			argno;			/* 0: empty (a bound is never argument 0) */
	Oid			argtype;
	const CfType *type;			/* the type it was converted to, in generation */
	uint64		generation;
	bytea	   *arg;			/* a copy of the argument */
	bytea	   *bound;			/* its conversion (NULL: unbounded) */
} CfBoundCache;

typedef struct CfCall
{
	char		keyspace[CF_NAME_BUFSIZE];
	char		name[CF_NAME_BUFSIZE];
	const CfColumnFamily *cf;	/* NULL: nothing remembered */
	uint64		generation;
	Oid			relid;
	StringInfoData key;			/* the last row key rendered, and its bytes */
	StringInfoData keybytes;
	const CfType *keytype;		/* the type key was rendered as; NULL: none */
	StringInfoData sc;
	StringInfoData colname;
	StringInfoData value;
	MemoryContext rowcxt;		/* what rendering a row allocates, reset per row */
	CfBoundCache bounds[2];		/* start and finish, or start_key and end_key */
} CfCall;

/* The call site's memory, made on first use. */
static CfCall *
call_state(FunctionCallInfo fcinfo)
{
	CfCall	   *call;

	if (fcinfo->flinfo->fn_extra != NULL)
		return (CfCall *) fcinfo->flinfo->fn_extra;
	call = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CfCall));
	fcinfo->flinfo->fn_extra = call;
	return call;
}

/* The call site's row buffers, made on first use. */
static void
call_buffers(FunctionCallInfo fcinfo, CfCall *call)
{
	MemoryContext old;

	if (call->key.data != NULL)
		return;
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	initStringInfo(&call->key);
	initStringInfo(&call->keybytes);
	initStringInfo(&call->sc);
	initStringInfo(&call->colname);
	initStringInfo(&call->value);
	call->rowcxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "cfstore row", ALLOCSET_SMALL_SIZES);
	MemoryContextSwitchTo(old);
}

/* Whether a text argument holds exactly the C string s. */
static bool
text_is(const text *t, const char *s)
{
	size_t		len = VARSIZE_ANY_EXHDR(t);

	return strlen(s) == len && memcmp(VARDATA_ANY(t), s, len) == 0;
}

/*
 * Raise the error for a missing privilege on a column family (mode is
 * ACL_SELECT, ACL_INSERT, ACL_DELETE or ACL_TRUNCATE).
 */
void
cfPermissionDenied(const CfColumnFamily *cf, AclMode mode)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied for column family %s.%s", cf->keyspace, cf->name),
			 errdetail("%s needs the %s privilege on table cfstore_data.cf_%d.",
					   mode == ACL_SELECT ? "Reading" : mode == ACL_INSERT ? "Writing"
					   : mode == ACL_TRUNCATE ? "Truncating" : "Removing",
					   mode == ACL_SELECT ? "SELECT" : mode == ACL_INSERT ? "INSERT"
					   : mode == ACL_TRUNCATE ? "TRUNCATE" : "DELETE",
					   cf->id)));
}

/* Open the column family named by arguments 0 and 1, checking privilege mode. */
void
cfTargetOpen(CfTarget *t, FunctionCallInfo fcinfo, AclMode mode)
{
	CfCall	   *call = call_state(fcinfo);
	text	   *ks;
	text	   *cfname;
	Oid			relid = InvalidOid;
	bool		missing = false;

	if (cfArgIsNull(fcinfo, 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("Keyspace null does not exist")));
	if (cfArgIsNull(fcinfo, 1) || VARSIZE_ANY_EXHDR(PG_GETARG_TEXT_PP(1)) == 0)
		cfInvalidRequest("non-empty columnfamily is required");
	ks = PG_GETARG_TEXT_PP(0);
	cfname = PG_GETARG_TEXT_PP(1);

	/* see committed DDL now, as cfCatalogLookup does */
	AcceptInvalidationMessages();
	if (call->cf != NULL && call->generation == cfCatalogGeneration() &&
		text_is(ks, call->keyspace) && text_is(cfname, call->name))
	{
		t->cf = call->cf;
		relid = call->relid;
		if (pg_class_aclcheck_ext(relid, GetUserId(), mode, &missing) != ACLCHECK_OK && !missing)
			cfPermissionDenied(t->cf, mode);
	}
	else
		missing = true;
	if (missing)
	{
		/* look it up (again: the storage relation remembered is gone) */
		call->cf = NULL;
		t->cf = cfCatalogLookup(text_to_cstring(ks), text_to_cstring(cfname));
		call->generation = cfCatalogGeneration();
		relid = cfStorageRelid(t->cf->id, false);
		if (pg_class_aclcheck(relid, GetUserId(), mode) != ACLCHECK_OK)
			cfPermissionDenied(t->cf, mode);
		strlcpy(call->keyspace, t->cf->keyspace, CF_NAME_BUFSIZE);
		strlcpy(call->name, t->cf->name, CF_NAME_BUFSIZE);
		call->relid = relid;
		call->cf = t->cf;
	}
	/* a call renders its row key afresh (the definition may be new) */
	call->keytype = NULL;
	t->generation = call->generation;
	t->lockmode = mode == ACL_SELECT ? AccessShareLock : RowExclusiveLock;
	t->rel = cfStorageOpen(relid, t->lockmode);
	/*
	 * Taking the lock may have waited for DDL (update_column_family adding
	 * an index holds a SHARE lock until it commits) and processed its
	 * invalidations: then use the definition committed meanwhile, as
	 * PostgreSQL does with a relation whose lock it waited for.
	 */
	if (call->generation != cfCatalogGeneration())
	{
		table_close(t->rel, NoLock);
		call->cf = NULL;
		cfTargetOpen(t, fcinfo, mode);
	}
}

/*
 * cfTargetOpen for a caller that reads many times in one statement (the
 * rescans of a slice scan), with t zeroed before its first use: the column
 * family open in t stays open while the arguments name it and the catalog
 * cache has not been reset, and its privilege stays checked, as the
 * executor checks a table's once per statement.  Arguments naming another
 * column family close it and open that one.
 */
void
cfTargetReuse(CfTarget *t, FunctionCallInfo fcinfo, AclMode mode)
{
	if (t->rel != NULL)
	{
		if (!cfArgIsNull(fcinfo, 0) && !cfArgIsNull(fcinfo, 1) &&
			t->generation == cfCatalogGeneration() &&
			text_is(PG_GETARG_TEXT_PP(0), t->cf->keyspace) &&
			text_is(PG_GETARG_TEXT_PP(1), t->cf->name))
			return;
		cfTargetClose(t);
	}
	cfTargetOpen(t, fcinfo, mode);
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

/*
 * Text and bytea bounds this backend converted lately, whichever call site
 * did: a prepared statement's constant bound gets a new call site at every
 * execution, and converting a composite name's text form ('customer.email'
 * as CompositeType(UTF8Type)) again each time was 3% of a one-cell slice's
 * backend time.  Kept in TopMemoryContext; the oldest is replaced.
 */
#define CF_BACKEND_BOUNDS 16
static CfBoundCache backend_bounds[CF_BACKEND_BOUNDS];
static int	backend_bounds_next = 0;

/* Whether c holds the conversion of arg (of argtype) to type, in the current catalog generation. */
static inline bool
bound_cached(const CfBoundCache *c, Oid argtype, const CfType *type, const struct varlena *arg)
{
	return c->arg != NULL && c->argtype == argtype && c->type == type &&
		c->generation == cfCatalogGeneration() &&
		VARSIZE_ANY_EXHDR(c->arg) == VARSIZE_ANY_EXHDR(arg) &&
		memcmp(VARDATA_ANY(c->arg), VARDATA_ANY(arg), VARSIZE_ANY_EXHDR(arg)) == 0;
}

/* Put into c the conversion b of arg (of argtype) to type, copied into cxt. */
static void
bound_remember(CfBoundCache *c, MemoryContext cxt, Oid argtype, const CfType *type,
			   const struct varlena *arg, const bytea *b)
{
	MemoryContext old;

	if (c->arg != NULL)
		pfree(c->arg);
	if (c->bound != NULL)
		pfree(c->bound);
	old = MemoryContextSwitchTo(cxt);
	c->arg = (bytea *) cfMakeBytea(VARDATA_ANY(arg), VARSIZE_ANY_EXHDR(arg));
	c->bound = b != NULL ? cfMakeBytea(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b)) : NULL;
	MemoryContextSwitchTo(old);
	c->argtype = argtype;
	c->type = type;
	c->generation = cfCatalogGeneration();
}

/*
 * A slice bound: NULL and the empty string both mean unbounded (NULL).  A
 * text or bytea bound equal to the one the call site converted last time
 * (a constant of a query that slices a row per key), or to one the backend
 * converted lately (backend_bounds), is not converted again: the result,
 * in the call site's memory, is the same.  Callers do not change the bytes
 * they get.
 */
bytea *
cfArgBound(FunctionCallInfo fcinfo, int argno, const CfType *type, const char *slot)
{
	Oid			argtype;
	CfCall	   *call;
	CfBoundCache *c = NULL;
	struct varlena *arg;
	bytea	   *b;
	int			hit;

	if (cfArgIsNull(fcinfo, argno))
		return NULL;
	argtype = get_fn_expr_argtype(fcinfo->flinfo, argno);
	if (argtype != TEXTOID && argtype != BYTEAOID)
	{
		b = cfArgBytes(fcinfo, argno, type, slot);
		return b != NULL && VARSIZE_ANY_EXHDR(b) == 0 ? NULL : b;
	}
	call = call_state(fcinfo);
	arg = PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(argno));
	for (int i = 0; i < (int) lengthof(call->bounds); i++)
		if (call->bounds[i].argno == argno)
			c = &call->bounds[i];
	if (c != NULL && bound_cached(c, argtype, type, arg))
		return c->bound;
	for (hit = 0; hit < CF_BACKEND_BOUNDS; hit++)
		if (bound_cached(&backend_bounds[hit], argtype, type, arg))
			break;
	if (hit < CF_BACKEND_BOUNDS)
		b = backend_bounds[hit].bound;
	else
	{
		b = cfArgBytes(fcinfo, argno, type, slot);
		if (b != NULL && VARSIZE_ANY_EXHDR(b) == 0)
			b = NULL;
		bound_remember(&backend_bounds[backend_bounds_next], TopMemoryContext, argtype, type, arg, b);
		backend_bounds_next = (backend_bounds_next + 1) % CF_BACKEND_BOUNDS;
	}
	/* remember it (in the slot of this argument, else a free one, else the first) */
	if (c == NULL)
	{
		c = &call->bounds[0];
		for (int i = lengthof(call->bounds) - 1; i >= 0; i--)
			if (call->bounds[i].argno == 0)
				c = &call->bounds[i];
	}
	bound_remember(c, fcinfo->flinfo->fn_mcxt, argtype, type, arg, b);
	c->argno = argno;
	return c->bound;
}

/* A text datum of a C string, built in buf (valid until buf is used again). */
static Datum
text_in_buf(StringInfo buf, const char *s)
{
	int			len = strlen(s);

	resetStringInfo(buf);
	enlargeStringInfo(buf, VARHDRSZ + len);
	buf->len = VARHDRSZ;
	appendBinaryStringInfo(buf, s, len);
	SET_VARSIZE(buf->data, buf->len);
	return PointerGetDatum(buf->data);
}

/*
 * A UTF8Type value as text: in a UTF-8 database the text is the value's
 * own bytes, so a value that is a plain varlena (as slices return them)
 * serves as its text datum once validated, as pg_any_to_server validates
 * it; NULL when it must be converted or copied.
 */
static text *
utf8_value_as_text(const bytea *value)
{
	if (VARATT_IS_EXTENDED(value) || GetDatabaseEncoding() != PG_UTF8)
		return NULL;
	if (!cfPlainAscii(VARDATA(value), VARSIZE(value) - VARHDRSZ))
		(void) pg_verify_mbstr(PG_UTF8, VARDATA(value), VARSIZE(value) - VARHDRSZ, false);
	return (text *) value;
}

/*
 * Render one cell as the columns of cfstore.cell that columns names (bit
 * n for column n, counting from 0) into values and nulls, indexed by
 * column.  The text forms are built in the call site's buffers, or are the
 * cell's own bytes (a UTF-8 value), and stay valid until the next cell is
 * rendered or the cell's bytes go; the row key, the same for every cell of
 * a slice, is rendered once per call.
 */
void
cfRenderCell(FunctionCallInfo fcinfo, const CfColumnFamily *cf, const CfOutCell *c, uint32 columns,
			 Datum *values, bool *nulls)
{
	CfCall	   *call = call_state(fcinfo);
	const CfType *namecmp = cf->is_super ? cf->subcomparator : cf->comparator;
	MemoryContext old;

	call_buffers(fcinfo, call);
	/* what the last cell's rendering allocated (rare types) can go */
	if (!call->rowcxt->isReset)
		MemoryContextReset(call->rowcxt);
	old = MemoryContextSwitchTo(call->rowcxt);
	if (columns & CF_CELL_KEY)
	{
		int			keylen = VARSIZE_ANY_EXHDR(c->key);

		if (call->keytype != cf->key_validator || keylen != call->keybytes.len ||
			memcmp(VARDATA_ANY(c->key), call->keybytes.data, keylen) != 0)
		{
			call->keytype = NULL;
			(void) cfTypeToText(cf->key_validator, (const uint8 *) VARDATA_ANY(c->key), keylen, &call->key);
			resetStringInfo(&call->keybytes);
			appendBinaryStringInfo(&call->keybytes, VARDATA_ANY(c->key), keylen);
			call->keytype = cf->key_validator;
		}
		values[0] = PointerGetDatum(call->key.data);
		nulls[0] = false;
	}
	if (columns & CF_CELL_SUPER_COLUMN)
	{
		nulls[1] = c->sc == NULL;
		values[1] = c->sc == NULL ? (Datum) 0
			: PointerGetDatum(cfTypeToText(cf->comparator, (const uint8 *) VARDATA_ANY(c->sc),
										   VARSIZE_ANY_EXHDR(c->sc), &call->sc));
	}
	if (columns & CF_CELL_COLUMN_NAME)
	{
		values[2] = PointerGetDatum(cfTypeToText(namecmp, (const uint8 *) VARDATA_ANY(c->name),
												 VARSIZE_ANY_EXHDR(c->name), &call->colname));
		nulls[2] = false;
	}
	if (columns & (CF_CELL_VALUE | CF_CELL_WRITETIME))
	{
		if (c->is_counter)
		{
			char		num[32];

			snprintf(num, sizeof(num), INT64_FORMAT, (int64) cfReadBe64((const uint8 *) VARDATA(c->value)));
			values[3] = text_in_buf(&call->value, num);
			nulls[3] = false;
			values[4] = (Datum) 0;
			nulls[4] = true;
		}
		else
		{
			if (columns & CF_CELL_VALUE)
			{
				const CfType *validator = cf->ncolumns == 0 ? cf->default_validator
					: cfCatalogValueValidator(cf, (const uint8 *) VARDATA(c->name), VARSIZE(c->name) - VARHDRSZ);
				text	   *t = NULL;

				if (validator->kind == CF_UTF8)
					t = utf8_value_as_text(c->value);
				if (t == NULL)
					t = cfTypeToText(validator, (const uint8 *) VARDATA_ANY(c->value),
									 VARSIZE_ANY_EXHDR(c->value), &call->value);
				values[3] = PointerGetDatum(t);
				nulls[3] = false;
			}
			values[4] = Int64GetDatum(c->writetime);
			nulls[4] = false;
		}
	}
	if (columns & CF_CELL_TTL)
	{
		nulls[5] = c->ttl <= 0;
		values[5] = c->ttl > 0 ? Int32GetDatum(c->ttl) : (Datum) 0;
	}
	MemoryContextSwitchTo(old);
}

/*
 * The row type of the call's materialized result, which this begins when
 * it is not begun yet; a multi-row call adds to the same result.
 */
static TupleDesc
result_desc(FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	desc;

	if (rsinfo != NULL && IsA(rsinfo, ReturnSetInfo) && rsinfo->setResult != NULL)
	{
		/* a later slice of a multi-row call: add to the rows already returned */
		desc = rsinfo->setDesc != NULL ? rsinfo->setDesc : rsinfo->expectedDesc;
	}
	else if (rsinfo != NULL && IsA(rsinfo, ReturnSetInfo) && (rsinfo->allowedModes & SFRM_Materialize) &&
			 rsinfo->expectedDesc != NULL)
	{
		/*
		 * The executor knows the row type (cfstore.cell): rows are formed
		 * with its descriptor and none is handed back, which saves making a
		 * copy of the descriptor and having the executor compare it with its
		 * own, on every call.
		 */
		MemoryContext old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);

		rsinfo->setResult = tuplestore_begin_heap((rsinfo->allowedModes & SFRM_Materialize_Random) != 0,
												  false, work_mem);
		MemoryContextSwitchTo(old);
		rsinfo->returnMode = SFRM_Materialize;
		desc = rsinfo->expectedDesc;
	}
	else
	{
		InitMaterializedSRF(fcinfo, 0);
		desc = rsinfo->setDesc;
	}
	if (desc->natts != CF_CELL_NATTS)
		elog(ERROR, "cfstore.cell has %d columns, this build returns %d", desc->natts, CF_CELL_NATTS);
	return desc;
}

/* Add one cell to the call's result as a row of cfstore.cell (desc: its row type). */
static inline void
put_cell(FunctionCallInfo fcinfo, const CfColumnFamily *cf, TupleDesc desc, const CfOutCell *c)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		values[CF_CELL_NATTS];
	bool		nulls[CF_CELL_NATTS];

	cfRenderCell(fcinfo, cf, c, CF_CELL_ALL_COLUMNS, values, nulls);
	tuplestore_putvalues(rsinfo->setResult, desc, values, nulls);
}

/*
 * Return one cell as a row of cfstore.cell (materialized), after those
 * already returned: for a caller that reads the cells itself.
 */
void
cfEmitCell(FunctionCallInfo fcinfo, const CfColumnFamily *cf, const CfOutCell *c)
{
	put_cell(fcinfo, cf, result_desc(fcinfo), c);
}

/*
 * Return every item of a slice as rows of cfstore.cell (materialized); a
 * multi-row call calls it once per row, adding to the same result.  The
 * text forms are built in the call site's buffers, which the tuplestore
 * copies.
 */
void
cfEmitCells(FunctionCallInfo fcinfo, const CfColumnFamily *cf, CfSliceState *slice)
{
	TupleDesc	desc = result_desc(fcinfo);
	CfOutCell	c;

	while (cfSliceNext(slice, &c))
	{
		put_cell(fcinfo, cf, desc, &c);
		CHECK_FOR_INTERRUPTS();
	}
}
