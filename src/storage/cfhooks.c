/*-------------------------------------------------------------------------
 *
 * cfhooks.c
 *	  Hooks that keep PostgreSQL away from what storage relations cannot do:
 *	  CREATE INDEX and publications are refused before any catalog change;
 *	  nobody but cfstore changes a storage relation's shape; parallel plans
 *	  are never built for them.
 *
 * The shape of a storage relation (its seven columns, its kind, its access
 * method, its name and schema) is what every layer reads it by, so DDL
 * that would change it is refused before it runs, whoever runs it, the
 * relation's owner and superusers included: ALTER TABLE but for the
 * subcommands that change no column and no row (owner, storage
 * parameters, tablespace, column statistics and storage options, as
 * pg_dump writes them), RENAME, SET SCHEMA, DROP TABLE, triggers, rules,
 * policies, and inheritance or partitioning that would take it in.  The
 * statements cfstore's own DDL functions run as the extension's owner
 * (cfDdlInternal: drop_column_family dropping the relation) go through.
 * Drop a column family with drop_column_family().  A keyspace's schema is
 * guarded too, as a keyspace belongs to its schema's owner by name: it is
 * neither dropped (DROP SCHEMA, DROP OWNED) nor renamed but by
 * drop_keyspace().  Row-level security is refused on a sharded column
 * family's table, which the function API does not read.
 *
 * Two hooks run the same check: a ProcessUtility hook, which sees every
 * statement once the library is loaded, and an event trigger at
 * ddl_command_start (_storage_guard), which fires in every backend whether
 * the library is loaded there yet or not.  The access method checks the
 * relation's columns as well (cfRelInfo), in case both are bypassed (an
 * event trigger disabled by a superuser, single-user mode).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/defrem.h"
#include "commands/event_trigger.h"
#include "nodes/parsenodes.h"
#include "optimizer/plancat.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "catalog/cfcatalog.h"
#include "storage/cfstorage.h"

PG_FUNCTION_INFO_V1(cfstore_storage_guard);

static ProcessUtility_hook_type prev_process_utility = NULL;
static get_relation_info_hook_type prev_get_relation_info = NULL;

/* Whether relid is a table using access method cfstore. */
static bool
uses_cfstore(Oid relid)
{
	HeapTuple	tup;
	bool		result = false;
	Oid			am;

	if (!OidIsValid(relid))
		return false;
	am = get_table_am_oid("cfstore", true);
	if (!OidIsValid(am))
		return false;
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (HeapTupleIsValid(tup))
	{
		result = ((Form_pg_class) GETSTRUCT(tup))->relam == am;
		ReleaseSysCache(tup);
	}
	return result;
}

/* Whether relid is a storage relation: in schema cfstore_data, or using cfstore. */
static bool
is_storage(Oid relid)
{
	Oid			nsp;

	if (!OidIsValid(relid))
		return false;
	nsp = get_namespace_oid(CF_STORAGE_SCHEMA, true);
	return (OidIsValid(nsp) && get_rel_namespace(relid) == nsp) || uses_cfstore(relid);
}

/* Whether a name in a statement names a storage relation. */
static bool
names_storage(RangeVar *rv)
{
	return rv != NULL && is_storage(RangeVarGetRelid(rv, NoLock, true));
}

/* Raise the error for DDL that would change a storage relation. */
static void
refuse_storage_ddl(RangeVar *rv, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("cannot %s cfstore storage relation \"%s\"", what, rv->relname),
			 errdetail("The columns, name and kind of a column family's storage relation are fixed; only cfstore changes them."),
			 errhint("Change column families with cfstore.update_column_family() and drop them with cfstore.drop_column_family().")));
}

/* Raise the error for DDL that would change a storage relation if rv names one. */
static void
refuse_if_storage(RangeVar *rv, const char *what)
{
	if (names_storage(rv))
		refuse_storage_ddl(rv, what);
}

/*
 * Refuse to attach or detach a partition of a sharded column family's
 * table (schema cfstore_shard, src/shard/cfshard_table.c): each reads one
 * shard server's rows, and the table must keep one per server, or its
 * reads miss rows and its writes fail.  PostgreSQL lets the parent's owner
 * detach a partition that is not theirs.
 */
static void
refuse_if_shard_partition(RangeVar *rv)
{
	Oid			relid = RangeVarGetRelid(rv, NoLock, true);
	Oid			nsp = get_namespace_oid("cfstore_shard", true);

	if (OidIsValid(relid) && OidIsValid(nsp) && get_rel_namespace(relid) == nsp)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot attach or detach partition \"%s\" of a sharded column family's table", rv->relname),
				 errdetail("Each partition reads one shard server's rows; the table keeps one per server."),
				 errhint("Change the cluster with the cfstore_shard functions.")));
}

/*
 * Refuse row-level security on a sharded column family's table (the
 * partitioned table of src/shard/cfshard_table.c, which its keyspace's
 * owner owns): the function API reads and writes the column family on the
 * shards, where no policy of that table applies, so a policy would filter
 * SQL only and let its grantees read every row through get_slice.  The
 * table of a column family that is not sharded is a foreign table, which
 * cannot have policies either.
 */
static void
refuse_if_sharded_table(RangeVar *rv, const char *what)
{
	Oid			relid = rv != NULL ? RangeVarGetRelid(rv, NoLock, true) : InvalidOid;
	char	   *schema;

	if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_PARTITIONED_TABLE)
		return;
	schema = get_namespace_name(get_rel_namespace(relid));
	if (schema != NULL && cfColumnFamilySharded(schema, get_rel_name(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot %s sharded column family table \"%s\"", what, rv->relname),
				 errdetail("The function API reads and writes the column family on the shard servers, where no policy of this table applies."),
				 errhint("Grant SELECT on the table only to roles that may read every row of it.")));
}

/* Whether an ALTER TABLE subcommand leaves a storage relation's columns and rows alone. */
static bool
harmless_alter(AlterTableType subtype)
{
	switch (subtype)
	{
		case AT_ChangeOwner:
		case AT_SetRelOptions:
		case AT_ResetRelOptions:
		case AT_ReplaceRelOptions:
		case AT_SetTableSpace:
		case AT_SetStatistics:
		case AT_SetOptions:
		case AT_ResetOptions:
		case AT_SetStorage:
		case AT_SetCompression:
			return true;
		default:
			return false;
	}
}

/* Refuse ALTER TABLE that changes a storage relation or takes one in. */
static void
check_alter_table(AlterTableStmt *stmt)
{
	bool		target = names_storage(stmt->relation);
	ListCell   *lc;

	foreach(lc, stmt->cmds)
	{
		AlterTableCmd *cmd = (AlterTableCmd *) lfirst(lc);

		if (target && !harmless_alter(cmd->subtype))
			refuse_storage_ddl(stmt->relation, "alter");
		if (cmd->subtype == AT_EnableRowSecurity || cmd->subtype == AT_ForceRowSecurity)
			refuse_if_sharded_table(stmt->relation, "enable row-level security on");
		if ((cmd->subtype == AT_AttachPartition || cmd->subtype == AT_DetachPartition) &&
			IsA(cmd->def, PartitionCmd))
		{
			refuse_if_storage(((PartitionCmd *) cmd->def)->name, "attach or detach");
			refuse_if_shard_partition(((PartitionCmd *) cmd->def)->name);
		}
		if (cmd->subtype == AT_AddInherit && IsA(cmd->def, RangeVar))
			refuse_if_storage((RangeVar *) cmd->def, "inherit from");
	}
}

/*
 * The statements that name one relation, which must not be a storage
 * relation: where the statement keeps its name (a RangeVar, NULL when it
 * names no relation), and what it would do to it.
 */
static const struct
{
	NodeTag		tag;
	size_t		name;
	const char *what;
}			one_relation_ddl[] =
{
	{T_AlterObjectSchemaStmt, offsetof(AlterObjectSchemaStmt, relation), "move"},
	{T_CreateTrigStmt, offsetof(CreateTrigStmt, relation), "create a trigger on"},
	{T_RuleStmt, offsetof(RuleStmt, relation), "create a rule on"},
	{T_AlterPolicyStmt, offsetof(AlterPolicyStmt, table), "alter a policy on"},
};

/*
 * Refuse to drop or rename the schema of a keyspace other than through
 * drop_keyspace: the keyspace's owner is its schema's, by name, so a schema
 * of that name made again by another role would own the keyspace.
 */
static void
refuse_if_keyspace(const char *schema, const char *what)
{
	if (cfKeyspaceExists(schema))
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("cannot %s schema \"%s\": it is cfstore keyspace %s", what, schema, schema),
				 errhint("Drop a keyspace with cfstore.drop_keyspace().")));
}

/* Refuse a publication of a storage relation. */
static void
check_publication_objects(List *objects)
{
	ListCell   *lc;

	foreach(lc, objects)
	{
		PublicationObjSpec *obj = (PublicationObjSpec *) lfirst(lc);

		if (obj->pubobjtype == PUBLICATIONOBJ_TABLE && obj->pubtable != NULL &&
			uses_cfstore(RangeVarGetRelid(obj->pubtable->relation, NoLock, true)))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cfstore table \"%s\" cannot be published",
							obj->pubtable->relation->relname),
					 errhint("cfstore writes Generic WAL, which logical decoding does not read; use streaming replication.")));
	}
}

/*
 * Refuse DDL that would change the shape of a storage relation (see the
 * head of this file); statements of cfstore's own DDL functions pass.
 */
static void
check_storage_ddl(Node *parsetree)
{
	ListCell   *lc;

	if (cfDdlInternal())
		return;
	switch (nodeTag(parsetree))
	{
		case T_AlterTableStmt:
			check_alter_table((AlterTableStmt *) parsetree);
			break;
		case T_CreateStmt:
			foreach(lc, ((CreateStmt *) parsetree)->inhRelations)
				refuse_if_storage((RangeVar *) lfirst(lc), "inherit from or partition");
			break;
		case T_CreateForeignTableStmt:
			foreach(lc, ((CreateForeignTableStmt *) parsetree)->base.inhRelations)
				refuse_if_storage((RangeVar *) lfirst(lc), "inherit from or partition");
			break;
		case T_DropStmt:
			if (((DropStmt *) parsetree)->removeType == OBJECT_TABLE)
				foreach(lc, ((DropStmt *) parsetree)->objects)
				{
					RangeVar   *rv = makeRangeVarFromNameList(castNode(List, lfirst(lc)));

					refuse_if_storage(rv, "drop");
				}
			else if (((DropStmt *) parsetree)->removeType == OBJECT_SCHEMA)
				foreach(lc, ((DropStmt *) parsetree)->objects)
					refuse_if_keyspace(strVal(lfirst(lc)), "drop");
			break;
		case T_DropOwnedStmt:
			foreach(lc, ((DropOwnedStmt *) parsetree)->roles)
			{
				RoleSpec   *spec = lfirst_node(RoleSpec, lc);
				Oid			role = get_rolespec_oid(spec, true);
				char	   *ks = OidIsValid(role) ? cfKeyspaceOwnedBy(role) : NULL;

				if (ks != NULL)
					ereport(ERROR,
							(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
							 errmsg("role \"%s\" owns keyspace %s", get_rolespec_name(spec), ks),
							 errhint("Drop its keyspaces with cfstore.drop_keyspace(), or give them to another role with REASSIGN OWNED, first.")));
			}
			break;
		case T_CreatePublicationStmt:
			check_publication_objects(((CreatePublicationStmt *) parsetree)->pubobjects);
			break;
		case T_AlterPublicationStmt:
			check_publication_objects(((AlterPublicationStmt *) parsetree)->pubobjects);
			break;
		case T_RenameStmt:
			if (((RenameStmt *) parsetree)->renameType == OBJECT_SCHEMA)
			{
				refuse_if_keyspace(((RenameStmt *) parsetree)->subname, "rename");
				break;
			}
			refuse_if_storage(((RenameStmt *) parsetree)->relation, "rename");
			break;
		case T_CreatePolicyStmt:
			refuse_if_storage(((CreatePolicyStmt *) parsetree)->table, "create a policy on");
			refuse_if_sharded_table(((CreatePolicyStmt *) parsetree)->table, "create a policy on");
			break;
		default:
			for (size_t i = 0; i < lengthof(one_relation_ddl); i++)
				if (nodeTag(parsetree) == one_relation_ddl[i].tag)
					refuse_if_storage(*(RangeVar **) ((char *) parsetree + one_relation_ddl[i].name),
									  one_relation_ddl[i].what);
			break;
	}
}

/*
 * Event trigger (ddl_command_start): refuse DDL that would change a
 * storage relation, in backends that have not loaded the library yet.
 */
Datum
cfstore_storage_guard(PG_FUNCTION_ARGS)
{
	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		elog(ERROR, "cfstore._storage_guard() must be called as an event trigger");
	check_storage_ddl(((EventTriggerData *) fcinfo->context)->parsetree);
	PG_RETURN_VOID();
}

/* ProcessUtility hook: refuse what storage relations cannot support. */
static void
cf_process_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				   ProcessUtilityContext context, ParamListInfo params,
				   QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;

	check_storage_ddl(parsetree);
	if (IsA(parsetree, IndexStmt))
	{
		IndexStmt  *stmt = (IndexStmt *) parsetree;

		if (uses_cfstore(RangeVarGetRelid(stmt->relation, NoLock, true)))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("CREATE INDEX is not supported on cfstore table \"%s\"", stmt->relation->relname),
					 errhint("Cells are already clustered by row key and column name; secondary indexes are declared in column_metadata.")));
	}

	if (prev_process_utility)
		prev_process_utility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context, params, queryEnv, dest, qc);
}

/* get_relation_info hook: no parallel workers for storage relations. */
static void
cf_get_relation_info(PlannerInfo *root, Oid relationObjectId, bool inhparent, RelOptInfo *rel)
{
	if (prev_get_relation_info)
		prev_get_relation_info(root, relationObjectId, inhparent, rel);
	if (uses_cfstore(relationObjectId))
		rel->rel_parallel_workers = 0;
}

/* Install the hooks (from _PG_init). */
void
cfHooksInit(void)
{
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = cf_process_utility;
	prev_get_relation_info = get_relation_info_hook;
	get_relation_info_hook = cf_get_relation_info;
}
