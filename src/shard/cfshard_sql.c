/*-------------------------------------------------------------------------
 *
 * cfshard_sql.c
 *	  SQL on the coordinator's tables and the function API in one
 *	  transaction: each is refused where it would miss the other's changes
 *	  or wait for them.
 *
 * A transaction reaches a shard server through two kinds of connection.
 * SQL on the coordinator's table of a sharded column family goes through
 * postgres_fdw's connection to the server (cfshard_table.c), whose
 * transaction there ends with the coordinator's.  The function API and
 * cfstore's DDL go through the coordinator's own connection (cfshard_xact.c),
 * whose transaction there opens with the first write or DDL.  Neither sees
 * what the other has not committed, and the locks one takes there are
 * waited for by the other until the coordinator's transaction ends, which
 * is never, as it is the one waiting.  So, in one transaction:
 *
 *	- SQL that reads or writes a sharded column family's table is refused
 *	  once the transaction has written or run DDL through the function API
 *	  (it would not see those writes, and would wait for that DDL);
 *	- a function API read of a column family is refused once the
 *	  transaction has written it through SQL (it would not see the writes);
 *	- DDL that locks a column family on the shards (update, drop, truncate,
 *	  a CQL3 definition, drop_keyspace) is refused once the transaction has
 *	  read or written it through SQL (it would wait for that transaction).
 *
 * Planning already reaches the shards (postgres_fdw's use_remote_estimate
 * asks each partition's server), so a hook on the planner's look at each
 * relation refuses a partition of a shard, and notes its column family as
 * read, before that; an executor hook does the same for a plan made
 * earlier, and notes what each statement writes (its range table: the
 * partitions the planner did not prune; an INSERT names only the
 * partitioned table, which routes each row at run time); a utility hook
 * does the same for TRUNCATE, COPY and ANALYZE of the table (or of a
 * table it is a partition of, or of the whole database).  The list
 * lasts the transaction.  All of this works from the moment the library
 * is loaded in the session: a session that used a coordinator's table
 * before its first call of cfstore in the same transaction is not seen
 * (README: put cfstore in session_preload_libraries).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "optimizer/plancat.h"
#include "partitioning/partdesc.h"
#include "storage/proc.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "shard/cfshard.h"

PG_FUNCTION_INFO_V1(cfstore_shard_refuse_sql_access);

/* A column family the current transaction has reached through its table. */
typedef struct CfSqlAccess
{
	char	   *keyspace;
	char	   *name;
	bool		written;
} CfSqlAccess;

/* The column families the transaction numbered sql_access_lxid has reached (TopTransactionContext). */
static List *sql_access = NIL;
static LocalTransactionId sql_access_lxid = InvalidLocalTransactionId;

static ExecutorStart_hook_type prev_executor_start = NULL;
static get_relation_info_hook_type prev_get_relation_info = NULL;
static ProcessUtility_hook_type prev_process_utility = NULL;

/* The list of the current transaction (the one kept belongs to an ended one if its number differs). */
static List *
current_access(void)
{
	if (sql_access_lxid != MyProc->lxid)
	{
		sql_access = NIL;		/* freed with its transaction's memory */
		sql_access_lxid = MyProc->lxid;
	}
	return sql_access;
}

/* Raise the error for SQL on sharded column family table table after a function API change. */
static void
refuse_after_api_change(Oid table)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("cannot use sharded column family table \"%s\".\"%s\" in a transaction that has changed sharded keyspaces through the function API",
					get_namespace_name(get_rel_namespace(table)), get_rel_name(table)),
			 errdetail("SQL on this table reaches the shard servers through postgres_fdw's connections, which see neither the transaction's writes there nor its DDL, and wait for that DDL."),
			 errhint("Read with the function API in this transaction, or commit first.")));
}

/*
 * Note that the transaction reached the column family of table relid (a
 * sharded one's) through SQL; refused once it has changed sharded
 * keyspaces through the function API.
 */
static void
note_access(Oid relid, bool written)
{
	char	   *keyspace = get_namespace_name(get_rel_namespace(relid));
	char	   *name = get_rel_name(relid);
	ListCell   *lc;
	MemoryContext old;
	CfSqlAccess *a;

	if (cfShardInTransaction())
		refuse_after_api_change(relid);
	if (keyspace == NULL || name == NULL)
		return;
	foreach(lc, current_access())
	{
		a = lfirst(lc);
		if (strcmp(a->keyspace, keyspace) == 0 && strcmp(a->name, name) == 0)
		{
			a->written |= written;
			return;
		}
	}
	old = MemoryContextSwitchTo(TopTransactionContext);
	a = palloc(sizeof(CfSqlAccess));
	a->keyspace = pstrdup(keyspace);
	a->name = pstrdup(name);
	a->written = written;
	sql_access = lappend(sql_access, a);
	MemoryContextSwitchTo(old);
}

/* Whether relid is a partition of a sharded column family's table (a partition in schema cfstore_shard). */
static bool
is_shard_partition(Oid relid, Oid *nsp)
{
	if (!OidIsValid(*nsp))
		*nsp = get_namespace_oid("cfstore_shard", true);
	return OidIsValid(*nsp) && get_rel_namespace(relid) == *nsp && get_rel_relispartition(relid);
}

/*
 * The sharded column family table that relation relid (of kind relkind)
 * is or is a partition of, or InvalidOid: the parent of a shard's
 * partition, or a partitioned table whose partitions are the shards'
 * (the table a statement names; a write routes rows into its partitions
 * at run time).  The caller holds a lock on relid.
 */
static Oid
sharded_table(Oid relid, char relkind, Oid *nsp)
{
	if (relkind == RELKIND_FOREIGN_TABLE && is_shard_partition(relid, nsp))
		return get_partition_parent(relid, true);
	if (relkind == RELKIND_PARTITIONED_TABLE)
	{
		Relation	rel = table_open(relid, NoLock);
		PartitionDesc desc = RelationGetPartitionDesc(rel, true);
		bool		sharded = desc->nparts > 0 && is_shard_partition(desc->oids[0], nsp);

		table_close(rel, NoLock);
		if (sharded)
			return relid;
	}
	return InvalidOid;
}

/* Whether relation relid (of kind relkind, locked by the caller) is a sharded column family's table or one of its partitions. */
bool
cfShardIsShardTable(Oid relid, char relkind)
{
	Oid			nsp = InvalidOid;

	return OidIsValid(sharded_table(relid, relkind, &nsp));
}

/* get_relation_info hook: note (or refuse) a shard's partition before postgres_fdw asks its server for estimates. */
static void
shard_get_relation_info(PlannerInfo *root, Oid relid, bool inhparent, RelOptInfo *rel)
{
	Oid			nsp = InvalidOid;

	/* (get_relation_info has set serverid for a foreign table) */
	if (OidIsValid(rel->serverid) && is_shard_partition(relid, &nsp))
	{
		Oid			table = get_partition_parent(relid, true);

		note_access(table, false);
	}
	if (prev_get_relation_info)
		prev_get_relation_info(root, relid, inhparent, rel);
}

/* ExecutorStart hook: note (or refuse) the sharded column families a statement reaches through SQL. */
static void
shard_executor_start(QueryDesc *qd, int eflags)
{
	/* (a parallel worker runs its leader's plan, which the leader has noted) */
	if (!(eflags & EXEC_FLAG_EXPLAIN_ONLY) && !IsParallelWorker())
	{
		Oid			nsp = InvalidOid;
		int			rti = 0;
		ListCell   *lc;

		foreach(lc, qd->plannedstmt->rtable)
		{
			RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);
			Oid			table;

			rti++;
			if (rte->rtekind != RTE_RELATION ||
				(rte->relkind != RELKIND_FOREIGN_TABLE && rte->relkind != RELKIND_PARTITIONED_TABLE))
				continue;
			table = sharded_table(rte->relid, rte->relkind, &nsp);
			if (!OidIsValid(table))
				continue;
			/* what the statement writes (a CTE's too): its result relations, partitioned tables among them */
			note_access(table, list_member_int(qd->plannedstmt->resultRelations, rti));
		}
	}
	if (prev_executor_start)
		prev_executor_start(qd, eflags);
	else
		standard_ExecutorStart(qd, eflags);
}

/* Note (or refuse) a statement's use of shard partition part, found in the catalog. */
static void
note_partition(Oid part, bool written, Oid *nsp)
{
	Oid			table;

	if (get_rel_relkind(part) != RELKIND_FOREIGN_TABLE || !is_shard_partition(part, nsp))
		return;
	table = get_partition_parent(part, true);
	note_access(table, written);
}

/*
 * Note (or refuse) a statement that is not planned, TRUNCATE, COPY or
 * ANALYZE, of relation rv (written: the statement writes it), for every
 * shard partition in its partition tree (a sharded column family's table,
 * or a table it is a partition of): postgres_fdw truncates, copies into
 * and samples the shards' tables.  Read from the catalog without a lock,
 * as the statement has not locked the table yet.
 */
static void
note_utility(RangeVar *rv, bool written)
{
	Oid			relid = rv != NULL ? RangeVarGetRelid(rv, NoLock, true) : InvalidOid;
	Oid			nsp = InvalidOid;
	ListCell   *lc;

	if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_PARTITIONED_TABLE)
		return;
	foreach(lc, find_all_inheritors(relid, NoLock, NULL))
		note_partition(lfirst_oid(lc), written, &nsp);
}

/* Note (or refuse) ANALYZE of the whole database: every shard partition. */
static void
note_all_partitions(void)
{
	Oid			nsp = get_namespace_oid("cfstore_shard", true);
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	List	   *parts = NIL;
	ListCell   *lc;

	if (!OidIsValid(nsp))
		return;
	args[0] = ObjectIdGetDatum(nsp);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args("SELECT c.oid FROM pg_catalog.pg_class c WHERE c.relnamespace = $1 AND c.relispartition",
							  1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the shard partitions");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		parts = lappend_oid(parts, DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull)));
	}
	SPI_finish();
	foreach(lc, parts)
		note_partition(lfirst_oid(lc), false, &nsp);
}

/* ProcessUtility hook: note (or refuse) TRUNCATE, COPY and ANALYZE of a sharded column family's table. */
static void
shard_process_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
					  ProcessUtilityContext context, ParamListInfo params,
					  QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *stmt = pstmt->utilityStmt;
	ListCell   *lc;

	if (IsA(stmt, TruncateStmt))
		foreach(lc, ((TruncateStmt *) stmt)->relations)
			note_utility(lfirst_node(RangeVar, lc), true);
	else if (IsA(stmt, CopyStmt))
		note_utility(((CopyStmt *) stmt)->relation, ((CopyStmt *) stmt)->is_from);
	else if (IsA(stmt, VacuumStmt) && ((VacuumStmt *) stmt)->rels == NIL)
	{
		if (!((VacuumStmt *) stmt)->is_vacuumcmd)
			note_all_partitions();	/* (VACUUM runs outside any transaction block) */
	}
	else if (IsA(stmt, VacuumStmt))
		foreach(lc, ((VacuumStmt *) stmt)->rels)
			note_utility(lfirst_node(VacuumRelation, lc)->relation, false);
	if (prev_process_utility)
		prev_process_utility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
}

/* Raise if the transaction has written column family cf through its table (before a function API read). */
void
cfShardCheckApiRead(const CfColumnFamily *cf)
{
	ListCell   *lc;

	foreach(lc, current_access())
	{
		CfSqlAccess *a = lfirst(lc);

		if (a->written && strcmp(a->keyspace, cf->keyspace) == 0 && strcmp(a->name, cf->name) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot read column family %s.%s through the function API in a transaction that has written it through its table",
							cf->keyspace, cf->name),
					 errdetail("The function API reads the shard servers through the coordinator's own connections, which do not see writes made through postgres_fdw's until this transaction commits."),
					 errhint("Read through the table in this transaction, or commit first.")));
	}
}

/*
 * _refuse_sql_access(keyspace, column_family): raise if the transaction
 * has reached the column family (any of the keyspace's when column_family
 * is NULL) through its table, before DDL that locks it on the shards.
 */
Datum
cfstore_shard_refuse_sql_access(PG_FUNCTION_ARGS)
{
	char	   *keyspace;
	char	   *name;
	ListCell   *lc;

	if (PG_ARGISNULL(0))
		PG_RETURN_VOID();
	keyspace = text_to_cstring(PG_GETARG_TEXT_PP(0));
	name = PG_ARGISNULL(1) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(1));
	foreach(lc, current_access())
	{
		CfSqlAccess *a = lfirst(lc);

		if (strcmp(a->keyspace, keyspace) == 0 && (name == NULL || strcmp(a->name, name) == 0))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot change column family %s.%s in a transaction that has %s it through its table",
							a->keyspace, a->name, a->written ? "written" : "read"),
					 errdetail("postgres_fdw's transaction on the shard servers holds a lock on it until this transaction ends, which the change would wait for."),
					 errhint("Commit first, then change it.")));
	}
	PG_RETURN_VOID();
}

/* Install the planner's, the executor's and the utility hooks (from _PG_init). */
void
cfShardSqlInit(void)
{
	prev_get_relation_info = get_relation_info_hook;
	get_relation_info_hook = shard_get_relation_info;
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = shard_executor_start;
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = shard_process_utility;
}
