/*-------------------------------------------------------------------------
 *
 * cfddl.c
 *	  The only way into the catalog: DDL functions that run as the
 *	  extension's owner on behalf of the role that called them.
 *
 * Design.  The catalog tables (cfstore.keyspace, column_family,
 * column_definition) can be written by the extension's owner alone, so no
 * row can hold anything the DDL functions did not put there; a rule that
 * must hold for every column of every row is kept by not letting anyone
 * else write rows, rather than by a trigger that has to think of every
 * column.
 *
 * Each DDL function of the API (create_keyspace, update_keyspace, drop_keyspace,
 * create_column_family, update_column_family, drop_column_family,
 * truncate) is declared with the C entry point cfstore_ddl.  It notes the
 * calling role and runs the function's body, cfstore._ddl_<name>: a
 * PL/pgSQL function with the same arguments, SECURITY DEFINER, owned by
 * the extension's owner and executable by nobody else (fmgr does not
 * check EXECUTE; the executor does, so SQL cannot call a body directly).
 * The calling role is GetUserId() at the call: the role a SECURITY
 * DEFINER function, a view's owner or a maintenance command runs as when
 * it calls a DDL function, not the session's role, so a function that
 * runs as its owner can do no more through cfstore than its owner could.
 *
 * A body checks the caller's rights itself (cfstore._caller()), writes the
 * catalog as the owner, and runs the statements that create, alter or
 * drop objects that belong to the caller's keyspace (its schema, its
 * foreign tables, TRUNCATE of its data) as the caller through
 * cfstore._as_caller(), so that PostgreSQL checks those exactly as it
 * would for the caller's own statement.
 *
 * Calls nest: drop_keyspace drops its column families with
 * drop_column_family, and load_storage_conf (which runs as its caller)
 * calls create_keyspace.  A DDL function called while a body runs as the
 * owner acts for that body's caller, not for the owner.  The storage
 * relations' guard (src/storage/cfhooks.c) lets through the statements a
 * body runs as the owner (cfDdlInternal), and no others.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

#include "catalog/cfcatalog.h"

PG_FUNCTION_INFO_V1(cfstore_ddl);
PG_FUNCTION_INFO_V1(cfstore_caller);
PG_FUNCTION_INFO_V1(cfstore_as_caller);

/* How deep DDL functions may nest (drop_keyspace -> drop_column_family is 2). */
#define CF_DDL_MAX_DEPTH 16

/* One running DDL function: who called it, and whom its body runs as. */
typedef struct CfDdlFrame
{
	Oid			caller;
	Oid			definer;
} CfDdlFrame;

static CfDdlFrame ddl_stack[CF_DDL_MAX_DEPTH];
static int	ddl_depth = 0;

/* The body of a DDL function, looked up once per call site. */
typedef struct CfDdlBody
{
	FmgrInfo	flinfo;
	Oid			owner;
} CfDdlBody;

/*
 * Whether the current statement is run by the body of a DDL function as
 * the extension's owner (not through _as_caller, nor by anything the
 * body called that runs as another role).
 */
bool
cfDdlInternal(void)
{
	return ddl_depth > 0 && GetUserId() == ddl_stack[ddl_depth - 1].definer;
}

/*
 * The role cfstore's DDL acts for: the caller of the running DDL function
 * while its body runs as the owner, else the current role.
 */
Oid
cfDdlCaller(void)
{
	if (cfDdlInternal())
		return ddl_stack[ddl_depth - 1].caller;
	return GetUserId();
}

/* Find the body cfstore._ddl_<name> of the DDL function fn_oid. */
static CfDdlBody *
ddl_body(FmgrInfo *flinfo)
{
	HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(flinfo->fn_oid));
	Form_pg_proc fn;
	HeapTuple	btup;
	Form_pg_proc body;
	char		name[NAMEDATALEN];
	CfDdlBody  *result;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", flinfo->fn_oid);
	fn = (Form_pg_proc) GETSTRUCT(tup);
	snprintf(name, sizeof(name), "_ddl_%s", NameStr(fn->proname));
	btup = SearchSysCache3(PROCNAMEARGSNSP, CStringGetDatum(name),
						   PointerGetDatum(&fn->proargtypes),
						   ObjectIdGetDatum(fn->pronamespace));
	if (!HeapTupleIsValid(btup))
		elog(ERROR, "cfstore DDL function %s has no body %s", NameStr(fn->proname), name);
	body = (Form_pg_proc) GETSTRUCT(btup);
	if (!body->prosecdef || body->prorettype != fn->prorettype || body->proretset)
		elog(ERROR, "the body %s of cfstore DDL function %s is not SECURITY DEFINER or returns another type",
			 name, NameStr(fn->proname));
	result = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(CfDdlBody));
	fmgr_info_cxt(body->oid, &result->flinfo, flinfo->fn_mcxt);
	result->owner = body->proowner;
	ReleaseSysCache(btup);
	ReleaseSysCache(tup);
	return result;
}

/*
 * The entry point of every DDL function: run its body as the extension's
 * owner, with the caller noted for the body's checks.
 */
Datum
cfstore_ddl(PG_FUNCTION_ARGS)
{
	CfDdlBody  *body = (CfDdlBody *) fcinfo->flinfo->fn_extra;
	FunctionCallInfo bfcinfo;
	Datum		result;

	if (body == NULL)
		fcinfo->flinfo->fn_extra = body = ddl_body(fcinfo->flinfo);
	if (ddl_depth >= CF_DDL_MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				 errmsg("cfstore DDL functions nest too deeply")));

	bfcinfo = palloc0(SizeForFunctionCallInfo(PG_NARGS()));
	InitFunctionCallInfoData(*bfcinfo, &body->flinfo, PG_NARGS(), PG_GET_COLLATION(), NULL, NULL);
	for (int i = 0; i < PG_NARGS(); i++)
		bfcinfo->args[i] = fcinfo->args[i];

	ddl_stack[ddl_depth].caller = cfDdlCaller();
	ddl_stack[ddl_depth].definer = body->owner;
	ddl_depth++;
	PG_TRY();
	{
		result = FunctionCallInvoke(bfcinfo);
	}
	PG_FINALLY();
	{
		ddl_depth--;
	}
	PG_END_TRY();
	fcinfo->isnull = bfcinfo->isnull;
	pfree(bfcinfo);
	return result;
}

/* _caller(): the role the running DDL function acts for. */
Datum
cfstore_caller(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_OID(cfDdlCaller());
}

/*
 * _as_caller(sql): run one statement as the caller of the running
 * DDL function, so that PostgreSQL checks it as the caller's own.
 */
Datum
cfstore_as_caller(PG_FUNCTION_ARGS)
{
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	Oid			caller = cfDdlCaller();
	Oid			save_userid;
	int			save_sec;

	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(caller, save_sec | SECURITY_LOCAL_USERID_CHANGE);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute(sql, false, 0) < 0)
			elog(ERROR, "could not run: %s", sql);
		SPI_finish();
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec);
	}
	PG_END_TRY();
	PG_RETURN_VOID();
}
