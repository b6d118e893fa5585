/*-------------------------------------------------------------------------
 *
 * cfhooks.c
 *	  Hooks that keep PostgreSQL away from what storage relations cannot do:
 *	  CREATE INDEX and publications are refused before any catalog change;
 *	  parallel plans are never built for them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/defrem.h"
#include "nodes/parsenodes.h"
#include "optimizer/plancat.h"
#include "tcop/utility.h"
#include "utils/syscache.h"

#include "storage/cfstorage.h"

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

/* ProcessUtility hook: refuse what storage relations cannot support. */
static void
cf_process_utility(PlannedStmt *pstmt, const char *queryString, bool readOnlyTree,
				   ProcessUtilityContext context, ParamListInfo params,
				   QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;

	if (IsA(parsetree, IndexStmt))
	{
		IndexStmt  *stmt = (IndexStmt *) parsetree;

		if (uses_cfstore(RangeVarGetRelid(stmt->relation, NoLock, true)))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("CREATE INDEX is not supported on cfstore table \"%s\"", stmt->relation->relname),
					 errhint("Cells are already clustered by row key and column name; secondary indexes are declared in column_metadata.")));
	}
	else if (IsA(parsetree, CreatePublicationStmt))
		check_publication_objects(((CreatePublicationStmt *) parsetree)->pubobjects);
	else if (IsA(parsetree, AlterPublicationStmt))
		check_publication_objects(((AlterPublicationStmt *) parsetree)->pubobjects);

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
