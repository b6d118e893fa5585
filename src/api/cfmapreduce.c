/*-------------------------------------------------------------------------
 *
 * cfmapreduce.c
 *	  A shard server's part of a map-reduce job over a sharded column
 *	  family (extension cfstore_shard, map_reduce): map its local rows,
 *	  reduce what they emit, and hand the coordinator one row per key.
 *
 * Each row of the column family is a document, as a MongoDB document is
 * for its mapReduce: row_key (the key, of its SQL type) and doc (jsonb:
 * each column's name as text, its value as the foreign table gives it).
 * The job's map is a query run once per document, LATERAL, that returns
 * the emitted pairs as two columns (key, value), a pair with a NULL key
 * being dropped; its reduce is an aggregate expression over value, e.g.
 * sum(value).  Here the pairs are
 * grouped by key and reduced, so what crosses the network is one row per
 * distinct key; the coordinator reduces those again.  The counts MongoDB
 * reports come back too: documents read (input), pairs emitted (emit),
 * keys reduced (output), and the time taken.
 *
 * The map and the reduce are SQL text, so they run with no more rights
 * than the keyspace's owner has: as that role (named by the coordinator,
 * who has checked its caller has that owner's privileges; on a shard it
 * must be able to read the column family, which cfstore._grant_reader
 * lets it do), in a security-restricted operation, where
 * SET ROLE and the like are refused, read-only, and in a subtransaction
 * that is always rolled back: what it does that read-only does not stop
 * (a large object made by lo_from_bytea, a set_config) ends with it
 * instead of staying on the shard or on the cluster user's connection,
 * outside the coordinator's transaction.  Each must be one
 * statement or expression, checked by parsing it alone before it is
 * placed in the query.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "portability/instr_time.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "api/cfapi.h"
#include "fdw/cffdw.h"

PG_FUNCTION_INFO_V1(cfstore_map_local);

/* Raise unless sql parses as exactly one SELECT (what = "map") or one expression (what = "reduce"). */
void
cfMapReduceCheck(const char *what, const char *sql)
{
	List	   *volatile stmts = NIL;
	SelectStmt *select;
	MemoryContext cxt = CurrentMemoryContext;

	/* the parser holds no resources: its error can be caught and told in the job's terms */
	PG_TRY();
	{
		stmts = raw_parser(strcmp(what, "map") == 0 ? sql : psprintf("SELECT %s", sql), RAW_PARSE_DEFAULT);
	}
	PG_CATCH();
	{
		ErrorData  *e;

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		FlushErrorState();
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("%s of a map-reduce job: %s", what, e->message),
				 errdetail("%s: %s", what, sql)));
	}
	PG_END_TRY();
	select = list_length(stmts) == 1 ? (SelectStmt *) linitial_node(RawStmt, stmts)->stmt : NULL;
	if (select == NULL || !IsA(select, SelectStmt) ||
		(strcmp(what, "reduce") == 0 &&
		 (list_length(select->targetList) != 1 || select->fromClause != NIL || select->whereClause != NULL ||
		  select->groupClause != NIL || select->sortClause != NIL || select->limitCount != NULL ||
		  select->op != SETOP_NONE || select->withClause != NULL)))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg(strcmp(what, "map") == 0 ? "map must be one SELECT" : "reduce must be one expression"),
				 errdetail("%s: %s", what, sql)));
}

/*
 * Put the map's reduced rows (SPI_tuptable) into rsinfo's tuplestore,
 * allocating in cxt (a file it spills to is the resource owner's it was
 * made under, which outlives the map's subtransaction); set *input and
 * *emit from its row of counts.  Returns the number of keys put.
 */
static int64
cfMapLocalCollect(ReturnSetInfo *rsinfo, int32 part, MemoryContext cxt, int64 *input, int64 *emit)
{
	int64		output = 0;

	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		Datum		values[8];
		bool		nulls[8] = {false};
		bool		isnull;
		char	   *key = SPI_getvalue(tup, desc, 1);
		MemoryContext old;

		if (key == NULL)
		{
			*input = DatumGetInt64(SPI_getbinval(tup, desc, 4, &isnull));
			*emit = DatumGetInt64(SPI_getbinval(tup, desc, 5, &isnull));
			if (isnull)
				*emit = 0;		/* nothing emitted */
			continue;
		}
		old = MemoryContextSwitchTo(cxt);
		values[0] = Int32GetDatum(part);
		values[1] = CStringGetTextDatum(key);
		if (SPI_getvalue(tup, desc, 2) == NULL)
			nulls[2] = true;
		else
			values[2] = CStringGetTextDatum(SPI_getvalue(tup, desc, 2));
		values[3] = CStringGetTextDatum(SPI_getvalue(tup, desc, 3));
		nulls[4] = nulls[5] = nulls[6] = nulls[7] = true;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
		output++;
	}
	return output;
}

/*
 * _map_local(parts, keyspace, column_family, map, reduce, run_as): this
 * shard's part of a map-reduce job.  One row per reduced key (part, key,
 * value, value_type), then one row of counts (key NULL: input, emit,
 * output, millis).  parts comes back as its first element, for the
 * coordinator to know which server answered.
 */
Datum
cfstore_map_local(PG_FUNCTION_ARGS)
{
	ArrayType  *parts = PG_GETARG_ARRAYTYPE_P(0);
	char	   *keyspace = text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *column_family = text_to_cstring(PG_GETARG_TEXT_PP(2));
	char	   *map = text_to_cstring(PG_GETARG_TEXT_PP(3));
	char	   *reduce = text_to_cstring(PG_GETARG_TEXT_PP(4));
	Oid			run_as = get_role_oid(NameStr(*PG_GETARG_NAME(5)), false);
	const CfColumnFamily *cf = cfCatalogLookup(keyspace, column_family);
	Datum	   *elems;
	int			nelems;
	int32		part;
	ReturnSetInfo *rsinfo;
	char	   *sql;
	Oid			save_userid;
	int			save_sec;
	bool		save_read_only;
	ResourceOwner owner = CurrentResourceOwner;
	instr_time	start;
	instr_time	duration;
	int64		input = 0;
	int64		emit = 0;
	int64		output = 0;
	MemoryContext cxt = CurrentMemoryContext;

	deconstruct_array(parts, INT4OID, 4, true, TYPALIGN_INT, &elems, NULL, &nelems);
	part = nelems > 0 ? DatumGetInt32(elems[0]) : -1;
	if (cf->is_super || (cf->comparator->kind == CF_COMPOSITE))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("map_reduce reads Standard column families whose comparator is not composite"),
				 errdetail("Column family %s.%s is not one.", keyspace, column_family)));
	if (!OidIsValid(cfFdwCanonicalTable(keyspace, column_family)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("column family %s.%s has no foreign table \"%s\".\"%s\" on this shard",
						keyspace, column_family, keyspace, column_family)));
	if (pg_class_aclcheck(cfFdwCanonicalTable(keyspace, column_family), run_as, ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role %s may not read column family %s.%s here",
						GetUserNameFromId(run_as, false), keyspace, column_family)));
	cfMapReduceCheck("map", map);
	cfMapReduceCheck("reduce", reduce);
	sql = psprintf("WITH docs AS MATERIALIZED ("
				   "SELECT t.key AS row_key, pg_catalog.jsonb_object_agg(t.column_name::pg_catalog.text, t.value) AS doc"
				   " FROM %s t GROUP BY t.key),"
				   " reduced AS MATERIALIZED (SELECT e.key::pg_catalog.text AS key, (%s\n) AS value,"
				   " pg_catalog.count(*) AS emitted FROM docs, LATERAL (%s\n) AS e(key, value)"
				   " WHERE e.key IS NOT NULL GROUP BY e.key)"
				   " SELECT r.key, r.value::pg_catalog.text, pg_catalog.pg_typeof(r.value)::pg_catalog.text,"
				   " NULL::bigint, NULL::bigint FROM reduced r"
				   " UNION ALL SELECT NULL, NULL, NULL, (SELECT pg_catalog.count(*) FROM docs),"
				   " (SELECT pg_catalog.sum(r.emitted)::bigint FROM reduced r)",
				   quote_qualified_identifier(keyspace, column_family), reduce, map);

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	INSTR_TIME_SET_CURRENT(start);
	BeginInternalSubTransaction(NULL);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		GetUserIdAndSecContext(&save_userid, &save_sec);
		save_read_only = XactReadOnly;
		SetUserIdAndSecContext(run_as, save_sec | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);

		/*
		 * SPI's read_only refuses statements that write, not the functions
		 * a SELECT calls: the transaction itself is read-only meanwhile, so
		 * a map that calls insert() (or any other write) fails instead of
		 * writing on every shard, outside the coordinator's routing.
		 */
		XactReadOnly = true;
		if (SPI_execute(sql, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not run the map of a map-reduce job");
		XactReadOnly = save_read_only;
		SetUserIdAndSecContext(save_userid, save_sec);
		INSTR_TIME_SET_CURRENT(duration);
		INSTR_TIME_SUBTRACT(duration, start);
		output = cfMapLocalCollect(rsinfo, part, cxt, &input, &emit);
		SPI_finish();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/* the subtransaction's abort restores the role, read-only state and settings */
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		ReThrowError(edata);
	}
	PG_END_TRY();
	/* what the map did is undone; its results are in the tuplestore */
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	{
		Datum		values[8] = {Int32GetDatum(part), 0, 0, 0, Int64GetDatum(input), Int64GetDatum(emit),
		Int64GetDatum(output), Float8GetDatum(INSTR_TIME_GET_MILLISEC(duration))};
		bool		nulls[8] = {false, true, true, true, false, false, false, false};

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
