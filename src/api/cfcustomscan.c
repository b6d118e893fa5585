/*-------------------------------------------------------------------------
 *
 * cfcustomscan.c
 *	  The custom scan nodes that stand in for calls of cfstore.get_slice in
 *	  FROM: the slice scan, and the slice join of rows with their slices.
 *
 * A set-returning function in FROM runs to completion into a tuplestore
 * before its first row is read: every cell of a slice is formed into a
 * tuple, copied into the store, then read back and taken apart again.  For
 * a slice that is most of the time spent outside the storage engine, and
 * it is paid once per call, so a query that slices a row per key of a list
 * (LATERAL) pays it per key.
 *
 * So the planner is offered a custom scan path for a FROM item that is a
 * call of get_slice alone (no ORDINALITY, no ROWS FROM with others) and
 * whose columns are used only as plain columns.  The scan evaluates the
 * call's arguments when it starts (again on every rescan, as the function
 * scan calls the function again when its parameters change), opens the
 * slice exactly as the function does (cfGetSliceBegin: same checks, same
 * errors, in the same order) and hands out its cells one by one as
 * virtual tuples, rendering only the columns the query uses (cfRenderCell).
 * A slice holds no buffer lock between cells (each page is read under its
 * lock and what the slice returns is copied; only a pin on the page read
 * last stays, which keeps VACUUM from moving cells past the walk, see
 * cfwalk.c), so handing cells out as they come is as safe as reading them
 * all first; the slice reads with the query's snapshot, which lives as
 * long as the query.
 *
 * The scan is only used where it is the same call: the function found is
 * cfstore's own C function (no SECURITY DEFINER or SET wrapper, no fmgr
 * hook), and the caller's EXECUTE privilege on it is checked when the scan
 * starts, as the executor checks it for a function scan.  It costs what
 * the function scan costs, with its start-up spread over the rows it
 * returns and without the tuplestore; the planner materialises its result
 * where it is read again without new parameters.
 *
 * Rows joined LATERAL with the slices they name can also run as one node,
 * the scan with the rows' plan as its child ("Slice joins" below).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_proc.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"

#include "api/cfapi.h"
#include "api/cfcustomscan.h"

#define CF_SLICE_SCAN_NAME "cfstore slice"
#define CF_SLICE_JOIN_NAME "cfstore slice join"
/* get_slice's number of arguments (sql/60_api.sql) */
#define CF_SLICE_NARGS 8

/* The executor state of a slice scan. */
typedef struct CfSliceScanState
{
	CustomScanState css;
	FuncExpr   *call;			/* the get_slice call */
	List	   *args;			/* ExprStates of its arguments */
	FmgrInfo	flinfo;			/* the call site (its fn_extra caches the column family) */
	FunctionCallInfo fcinfo;
	int			natts;			/* scan tuple columns ... */
	int		   *attno;			/* ... and the cfstore.cell column of each */
	uint32		columns;		/* cfRenderCell's mask of the columns used */
	bool		started;		/* the slice was opened (since the last rescan) */
	CfTarget	target;
	CfSliceState *slice;		/* NULL once finished */
	MemoryContext argcxt;		/* the arguments' values, per slice */
	/* a slice join only (see "Slice joins"); outer is NULL in a slice scan */
	PlanState  *outer;			/* the rows whose slices are read */
	int		   *outerpos;		/* per scan column: its column in the outer row, or 0 */
	int			outermax;		/* the highest of outerpos */
	int		   *resultmap;		/* per result column: its cell column, or minus its scan
								 * column; NULL: the result is projected */
} CfSliceScanState;

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;
static set_join_pathlist_hook_type prev_set_join_pathlist_hook = NULL;

/* cfstore.enable_slice_scan: whether the planner is offered the scan */
static bool cf_enable_slice_scan = true;

/* cfstore.enable_slice_join: whether it is offered the scan's join form */
static bool cf_enable_slice_join = true;

static Plan *slice_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
						List *clauses, List *custom_plans);
static Plan *slice_join_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
							 List *clauses, List *custom_plans);
static Node *slice_create_state(CustomScan *cscan);
static void slice_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *slice_exec(CustomScanState *node);
static void slice_end(CustomScanState *node);
static void slice_rescan(CustomScanState *node);
static void slice_explain(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomPathMethods slice_path_methods = {
	.CustomName = CF_SLICE_SCAN_NAME,
	.PlanCustomPath = slice_plan,
};

static const CustomScanMethods slice_scan_methods = {
	.CustomName = CF_SLICE_SCAN_NAME,
	.CreateCustomScanState = slice_create_state,
};

static const CustomPathMethods slice_join_path_methods = {
	.CustomName = CF_SLICE_JOIN_NAME,
	.PlanCustomPath = slice_join_plan,
};

static const CustomScanMethods slice_join_scan_methods = {
	.CustomName = CF_SLICE_JOIN_NAME,
	.CreateCustomScanState = slice_create_state,
};

static const CustomExecMethods slice_exec_methods = {
	.CustomName = CF_SLICE_SCAN_NAME,
	.BeginCustomScan = slice_begin,
	.ExecCustomScan = slice_exec,
	.EndCustomScan = slice_end,
	.ReScanCustomScan = slice_rescan,
	.ExplainCustomScan = slice_explain,
};

/* ---------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------
 */

/* Whether function funcid is called as cfstore's get_slice, with nothing in between. */
static bool
is_get_slice(Oid funcid)
{
	FmgrInfo	flinfo;

	if (FmgrHookIsNeeded(funcid))
		return false;
	fmgr_info(funcid, &flinfo);
	return flinfo.fn_addr == cfstore_get_slice;
}

/*
 * Whether every expression of exprs is a plain column (1 to CF_CELL_NATTS)
 * of the relation relid.
 */
static bool
plain_columns(List *exprs, Index relid)
{
	ListCell   *lc;

	foreach(lc, exprs)
	{
		Var		   *var = (Var *) lfirst(lc);

		if (!IsA(var, Var) || var->varno != (int) relid || var->varlevelsup != 0 ||
			var->varattno < 1 || var->varattno > CF_CELL_NATTS)
			return false;
	}
	return true;
}

/* The get_slice call of a FROM item, or NULL if it is not one the scan can stand in for. */
static FuncExpr *
slice_call(RelOptInfo *rel, RangeTblEntry *rte)
{
	RangeTblFunction *rtfunc;
	FuncExpr   *call;

	if (rte->rtekind != RTE_FUNCTION || rte->funcordinality || list_length(rte->functions) != 1 ||
		rel->reloptkind != RELOPT_BASEREL)
		return NULL;
	rtfunc = (RangeTblFunction *) linitial(rte->functions);
	if (!IsA(rtfunc->funcexpr, FuncExpr))
		return NULL;
	call = (FuncExpr *) rtfunc->funcexpr;
	if (!call->funcretset || list_length(call->args) != CF_SLICE_NARGS || !is_get_slice(call->funcid))
		return NULL;
	return call;
}

/*
 * A slice scan's or slice join's path for rel, not parallel, without
 * costs, order or children yet.
 */
static CustomPath *
slice_path_make(const CustomPathMethods *methods, RelOptInfo *rel, ParamPathInfo *param_info, double rows)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	cpath->path.param_info = param_info;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.rows = rows;
	cpath->path.pathkeys = NIL;
	cpath->flags = 0;
	cpath->methods = methods;
	return cpath;
}

/* set_rel_pathlist_hook: offer the slice scan for a get_slice call in FROM. */
static void
slice_rel_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti, RangeTblEntry *rte)
{
	Path	   *fscan = NULL;
	CustomPath *cpath;
	ListCell   *lc;
	List	   *qualvars;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);
	if (!cf_enable_slice_scan || rte->rtekind != RTE_FUNCTION || slice_call(rel, rte) == NULL)
		return;
	/* the function scan the planner made (none: the relation is proven empty) */
	foreach(lc, rel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (p->pathtype == T_FunctionScan)
			fscan = p;
	}
	if (fscan == NULL)
		return;
	/* only plain columns are read, in the target list and the conditions */
	if (!plain_columns(rel->reltarget->exprs, rel->relid))
		return;
	qualvars = pull_var_clause((Node *) extract_actual_clauses(rel->baserestrictinfo, false),
							   PVC_INCLUDE_PLACEHOLDERS);
	if (!plain_columns(qualvars, rel->relid))
		return;

	cpath = slice_path_make(&slice_path_methods, rel, fscan->param_info, fscan->rows);
	/*
	 * The function's work, its start-up spread over the rows, less half of
	 * the per-row charge for a tuplestore that is not written.
	 */
	cpath->path.startup_cost = fscan->startup_cost / Max(fscan->rows, 1.0);
	cpath->path.total_cost = Max(fscan->total_cost - 0.5 * cpu_tuple_cost * rel->tuples,
								 cpath->path.startup_cost);
	add_path(rel, &cpath->path);
}

/* Add var to a scan target list unless it is there already. */
static List *
tlist_add_var(List *tlist, Var *var)
{
	ListCell   *lc;

	foreach(lc, tlist)
	{
		if (equal(((TargetEntry *) lfirst(lc))->expr, var))
			return tlist;
	}
	return lappend(tlist, makeTargetEntry((Expr *) copyObjectImpl(var), list_length(tlist) + 1, NULL, false));
}

/*
 * A slice scan's or slice join's plan node: it reads no relation of the
 * query itself (scanrelid 0), the call travels in custom_exprs, and
 * sources says where a join's scan columns come from (slice_join_plan).
 */
static Plan *
slice_plan_node(const CustomScanMethods *methods, CustomPath *best_path, List *tlist, List *quals,
				FuncExpr *call, List *scan_tlist, List *custom_plans, List *sources, Relids relids)
{
	CustomScan *cscan = makeNode(CustomScan);

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = quals;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_exprs = list_make1(copyObjectImpl(call));
	cscan->custom_private = sources;
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_relids = relids;
	cscan->methods = methods;
	return &cscan->scan.plan;
}

/*
 * The plan of a slice scan.  It reads no relation (scanrelid 0): its scan
 * tuple has the columns the query uses, in the order of the target list
 * first, so that the scan returns its scan tuple without projecting.  The
 * call travels in custom_exprs, where the planner turns its references to
 * other relations into parameters.
 */
static Plan *
slice_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
		   List *clauses, List *custom_plans)
{
	RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	FuncExpr   *call = slice_call(rel, rte);
	List	   *quals = extract_actual_clauses(clauses, false);
	List	   *scan_tlist = NIL;
	ListCell   *lc;

	(void) custom_plans;
	if (call == NULL)
		elog(ERROR, "the slice scan lost its get_slice call");
	foreach(lc, tlist)
		scan_tlist = tlist_add_var(scan_tlist, (Var *) ((TargetEntry *) lfirst(lc))->expr);
	foreach(lc, pull_var_clause((Node *) quals, PVC_INCLUDE_PLACEHOLDERS))
		scan_tlist = tlist_add_var(scan_tlist, (Var *) lfirst(lc));

	return slice_plan_node(&slice_scan_methods, best_path, tlist, quals, call, scan_tlist, NIL, NIL,
						   bms_make_singleton(rel->relid));
}

/* ---------------------------------------------------------------------
 * Slice joins
 *
 * A LATERAL join of rows with the slices they name (FROM keys k, LATERAL
 * get_slice(..., k.key, ...) s) is a nested loop that rescans the slice
 * scan per row, and hands every cell up through the loop, which forms the
 * joined row by projecting it: a step per cell that does nothing but copy
 * (about 9 ms for a million cells on the development machine, 4% of the
 * timeline benchmark's 100-column statement).  So the planner is also
 * offered the join as one node: the slice scan with the outer rows' plan as
 * its child, which reads a row, evaluates the call's arguments on it, and
 * hands out the slice's cells joined with it.  Its scan tuple holds the
 * columns used above it and by its conditions and the call, those of the
 * outer row filled once per row; when the node's output is some of those
 * columns, it copies them into its result without the executor's
 * projection.  It is offered only for an inner join whose columns are plain
 * (no placeholders), whose outer path needs no parameters, in a SELECT or
 * INSERT that locks no rows (so that no EvalPlanQual recheck can reach it).
 * It costs the nested loop's cost without the loop's charge per row.
 * ---------------------------------------------------------------------
 */

/* The position (from 1) of the column var in a target list, 0 if it is not there. */
static int
tlist_position(List *exprs, const Var *var)
{
	ListCell   *lc;
	int			pos = 0;

	foreach(lc, exprs)
	{
		Node	   *e = lfirst(lc);

		pos++;
		if (IsA(e, TargetEntry))
			e = (Node *) ((TargetEntry *) e)->expr;
		if (IsA(e, Var) && ((Var *) e)->varno == var->varno && ((Var *) e)->varattno == var->varattno &&
			((Var *) e)->varlevelsup == 0)
			return pos;
	}
	return 0;
}

/*
 * Whether every column in vars is a cfstore.cell column of the slice (relid)
 * or a column that the outer path's rows carry.
 */
static bool
join_columns(List *vars, Index relid, const Path *outer)
{
	ListCell   *lc;

	foreach(lc, vars)
	{
		Var		   *var = (Var *) lfirst(lc);

		if (!IsA(var, Var) || var->varlevelsup != 0)
			return false;
		if (var->varno == (int) relid ? var->varattno < 1 || var->varattno > CF_CELL_NATTS
			: tlist_position(outer->pathtarget->exprs, var) == 0)
			return false;
	}
	return true;
}

/* set_join_pathlist_hook: offer a slice join for rows joined with the slices they name. */
static void
slice_join_pathlist(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel, RelOptInfo *innerrel,
					JoinType jointype, JoinPathExtraData *extra)
{
	Path	   *outer = outerrel->cheapest_total_path;
	Path	   *slice = NULL;
	FuncExpr   *call;
	List	   *quals;
	List	   *vars;
	ListCell   *lc;
	CustomPath *cpath;
	QualCost	qcost;
	double		ntuples;

	if (prev_set_join_pathlist_hook)
		prev_set_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype, extra);
	if (!cf_enable_slice_scan || !cf_enable_slice_join || jointype != JOIN_INNER ||
		innerrel->reloptkind != RELOPT_BASEREL || root->rowMarks != NIL ||
		(root->parse->commandType != CMD_SELECT && root->parse->commandType != CMD_INSERT) ||
		outer == NULL || PATH_REQ_OUTER(outer) != NULL)
		return;
	/* the slice scan of the inner relation, with parameters from the outer one only */
	foreach(lc, innerrel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (IsA(p, CustomPath) && ((CustomPath *) p)->methods == &slice_path_methods &&
			PATH_REQ_OUTER(p) != NULL && bms_is_subset(PATH_REQ_OUTER(p), outerrel->relids))
			slice = p;
	}
	if (slice == NULL)
		return;
	call = slice_call(innerrel, planner_rt_fetch(innerrel->relid, root));
	if (call == NULL)
		return;
	/* the slice's own conditions and the join's, checked on the joined row */
	foreach(lc, list_concat_copy(innerrel->baserestrictinfo, extra->restrictlist))
	{
		if (((RestrictInfo *) lfirst(lc))->pseudoconstant)
			return;
	}
	quals = list_concat(extract_actual_clauses(innerrel->baserestrictinfo, false),
						extract_actual_clauses(extra->restrictlist, false));
	vars = pull_var_clause((Node *) list_make3(joinrel->reltarget->exprs, quals, call->args),
						   PVC_INCLUDE_PLACEHOLDERS);
	/* (a join's target holds only columns and placeholders, which this refuses) */
	if (!join_columns(vars, innerrel->relid, outer))
		return;

	ntuples = clamp_row_est(outer->rows) * slice->rows;
	cost_qual_eval(&qcost, quals, root);
	cpath = slice_path_make(&slice_join_path_methods, joinrel, NULL, joinrel->rows);
	cpath->path.startup_cost = outer->startup_cost + slice->startup_cost + qcost.startup;
	cpath->path.total_cost = outer->total_cost + clamp_row_est(outer->rows) * slice->total_cost +
		qcost.startup + qcost.per_tuple * ntuples;
	cpath->path.pathkeys = build_join_pathkeys(root, joinrel, jointype, outer->pathkeys);
	cpath->custom_paths = list_make1(outer);
	cpath->custom_private = list_make2(makeInteger((int) innerrel->relid), quals);
	add_path(joinrel, &cpath->path);
}

/*
 * The plan of a slice join: the slice scan's (see slice_plan), with the
 * outer rows' plan as its child, its scan tuple the columns of the target
 * list, of the conditions and of the call, and for each of these columns
 * where it comes from (custom_private): a cfstore.cell column (from 1), or
 * minus a column of the outer plan's rows.
 */
static Plan *
slice_join_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
				List *clauses, List *custom_plans)
{
	Index		inner = (Index) intVal(linitial(best_path->custom_private));
	List	   *quals = lsecond(best_path->custom_private);
	Plan	   *outer = linitial(custom_plans);
	FuncExpr   *call = slice_call(find_base_rel(root, inner), planner_rt_fetch(inner, root));
	List	   *scan_tlist = NIL;
	List	   *sources = NIL;
	ListCell   *lc;

	(void) clauses;
	if (call == NULL)
		elog(ERROR, "the slice join lost its get_slice call");
	foreach(lc, tlist)
		scan_tlist = tlist_add_var(scan_tlist, (Var *) ((TargetEntry *) lfirst(lc))->expr);
	/* what the join carries up, should the plan above replace the target list */
	foreach(lc, best_path->path.pathtarget->exprs)
		scan_tlist = tlist_add_var(scan_tlist, (Var *) lfirst(lc));
	foreach(lc, pull_var_clause((Node *) list_make2(quals, call->args), PVC_INCLUDE_PLACEHOLDERS))
		scan_tlist = tlist_add_var(scan_tlist, (Var *) lfirst(lc));
	foreach(lc, scan_tlist)
	{
		Var		   *var = (Var *) ((TargetEntry *) lfirst(lc))->expr;
		int			pos;

		if (!IsA(var, Var))
			elog(ERROR, "a slice join column is not a plain column");
		if (var->varno == (int) inner)
			sources = lappend_int(sources, var->varattno);
		else if ((pos = tlist_position(outer->targetlist, var)) > 0)
			sources = lappend_int(sources, -pos);
		else
			elog(ERROR, "a slice join column is missing from its outer rows");
	}

	return slice_plan_node(&slice_join_scan_methods, best_path, tlist, quals, call, scan_tlist,
						   custom_plans, sources, bms_copy(rel->relids));
}

/* ---------------------------------------------------------------------
 * Execution
 * ---------------------------------------------------------------------
 */

/* Make the executor state of a slice scan plan. */
static Node *
slice_create_state(CustomScan *cscan)
{
	CfSliceScanState *st = palloc0(sizeof(CfSliceScanState));

	NodeSetTag(st, T_CustomScanState);
	st->css.flags = cscan->flags;
	st->css.methods = &slice_exec_methods;
	return (Node *) st;
}

/*
 * Set up a slice join's own parts: its child, where each scan column comes
 * from, and whether its result is some of those columns (resultmap).
 */
static void
join_begin(CfSliceScanState *st, CustomScan *cscan, EState *estate, int eflags)
{
	List	   *tlist = cscan->scan.plan.targetlist;
	ListCell   *lc;
	int			i = 0;

	st->outer = ExecInitNode((Plan *) linitial(cscan->custom_plans), estate, eflags);
	st->css.custom_ps = list_make1(st->outer);
	st->outerpos = palloc0(sizeof(int) * Max(st->natts, 1));
	foreach(lc, cscan->custom_private)
	{
		int			source = lfirst_int(lc);

		if (source > 0)
		{
			st->attno[i] = source;
			st->columns |= 1 << (source - 1);
		}
		else
		{
			st->outerpos[i] = -source;
			st->outermax = Max(st->outermax, -source);
		}
		i++;
	}
	Assert(i == st->natts);
	if (st->css.ss.ps.qual != NULL || st->css.ss.ps.ps_ProjInfo == NULL)
		return;
	st->resultmap = palloc(sizeof(int) * Max(list_length(tlist), 1));
	i = 0;
	foreach(lc, tlist)
	{
		Var		   *var = (Var *) ((TargetEntry *) lfirst(lc))->expr;

		if (!IsA(var, Var) || var->varno != INDEX_VAR || var->varattno < 1 || var->varattno > st->natts)
		{
			pfree(st->resultmap);
			st->resultmap = NULL;
			return;
		}
		/* a cell's column (its cfstore.cell column), or minus the outer row's scan column */
		st->resultmap[i++] = st->attno[var->varattno - 1] > 0 ? st->attno[var->varattno - 1]
			: -var->varattno;
	}
}

/* Set up the scan: the call's arguments, its call site, the columns to render. */
static void
slice_begin(CustomScanState *node, EState *estate, int eflags)
{
	CfSliceScanState *st = (CfSliceScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	AclResult	aclresult;
	ListCell   *lc;
	int			i = 0;

	(void) eflags;
	st->call = (FuncExpr *) linitial(cscan->custom_exprs);
	/* the executor's checks for a function call */
	aclresult = pg_proc_aclcheck(st->call->funcid, GetUserId(), ACL_EXECUTE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FUNCTION, get_func_name(st->call->funcid));
	InvokeFunctionExecuteHook(st->call->funcid);

	st->args = ExecInitExprList(st->call->args, &node->ss.ps);
	fmgr_info_cxt(st->call->funcid, &st->flinfo, estate->es_query_cxt);
	fmgr_info_set_expr((Node *) st->call, &st->flinfo);
	st->fcinfo = palloc0(SizeForFunctionCallInfo(CF_SLICE_NARGS));
	InitFunctionCallInfoData(*st->fcinfo, &st->flinfo, list_length(st->args), st->call->inputcollid,
							 NULL, NULL);

	st->natts = list_length(cscan->custom_scan_tlist);
	st->attno = palloc0(sizeof(int) * Max(st->natts, 1));
	st->columns = 0;
	if (cscan->custom_plans != NIL)
		join_begin(st, cscan, estate, eflags);
	else
	{
		foreach(lc, cscan->custom_scan_tlist)
		{
			Var		   *var = (Var *) ((TargetEntry *) lfirst(lc))->expr;

			Assert(IsA(var, Var) && var->varattno >= 1 && var->varattno <= CF_CELL_NATTS);
			st->attno[i++] = var->varattno;
			st->columns |= 1 << (var->varattno - 1);
		}
	}
	st->argcxt = AllocSetContextCreate(estate->es_query_cxt, "cfstore slice arguments", ALLOCSET_SMALL_SIZES);
}

/*
 * End the slice being read, if any.  The column family stays open for the
 * next rescan (cfTargetReuse) until the scan ends.
 */
static void
slice_close(CfSliceScanState *st)
{
	if (st->slice != NULL)
	{
		cfSliceEnd(st->slice);
		st->slice = NULL;
	}
	MemoryContextReset(st->argcxt);
}

/* Evaluate the call's arguments and open its slice. */
static void
slice_open(CfSliceScanState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	MemoryContext old = MemoryContextSwitchTo(st->argcxt);
	ListCell   *lc;
	int			i = 0;

	foreach(lc, st->args)
	{
		st->fcinfo->args[i].value = ExecEvalExpr((ExprState *) lfirst(lc), econtext,
												 &st->fcinfo->args[i].isnull);
		i++;
	}
	st->started = true;
	st->slice = cfGetSliceBegin(st->fcinfo, &st->target, st->css.ss.ps.state->es_snapshot);
	MemoryContextSwitchTo(old);
}

/* The next cell of the slice as a virtual tuple in the scan slot, or an empty slot. */
static TupleTableSlot *
slice_next(ScanState *ss)
{
	CfSliceScanState *st = (CfSliceScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	CfOutCell	c;
	Datum		values[CF_CELL_NATTS];
	bool		nulls[CF_CELL_NATTS];

	ExecClearTuple(slot);
	if (!st->started)
		slice_open(st);
	if (st->slice == NULL)
		return slot;
	if (!cfSliceNext(st->slice, &c))
	{
		slice_close(st);
		return slot;
	}
	/* a query that uses no column (count(*)) needs the rows only */
	if (st->natts == 0)
		return ExecStoreVirtualTuple(slot);
	cfRenderCell(st->fcinfo, st->target.cf, &c, st->columns, values, nulls);
	for (int i = 0; i < st->natts; i++)
	{
		slot->tts_values[i] = values[st->attno[i] - 1];
		slot->tts_isnull[i] = nulls[st->attno[i] - 1];
	}
	return ExecStoreVirtualTuple(slot);
}

/*
 * The next cell of a slice join into c: the next one of the current outer
 * row's slice, else of the next outer row that has one; false when the
 * outer rows are done.  A new outer row's columns are put in the scan slot
 * (where they stay from cell to cell, the slot's cell columns null), and
 * the call's arguments are evaluated on it.
 */
static bool
join_cell(CfSliceScanState *st, CfOutCell *c)
{
	TupleTableSlot *slot = st->css.ss.ss_ScanTupleSlot;

	for (;;)
	{
		TupleTableSlot *outer;

		if (st->slice != NULL && cfSliceNext(st->slice, c))
			return true;
		slice_close(st);
		outer = ExecProcNode(st->outer);
		ExecClearTuple(slot);
		if (TupIsNull(outer))
			return false;
		slot_getsomeattrs(outer, st->outermax);
		for (int i = 0; i < st->natts; i++)
		{
			if (st->outerpos[i] > 0)
			{
				slot->tts_values[i] = outer->tts_values[st->outerpos[i] - 1];
				slot->tts_isnull[i] = outer->tts_isnull[st->outerpos[i] - 1];
			}
			else
				slot->tts_isnull[i] = true;
		}
		ExecStoreVirtualTuple(slot);
		st->css.ss.ps.ps_ExprContext->ecxt_scantuple = slot;
		slice_open(st);
	}
}

/* The next row of a slice join as a virtual tuple in the scan slot, or an empty slot. */
static TupleTableSlot *
join_next(ScanState *ss)
{
	CfSliceScanState *st = (CfSliceScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	Datum		values[CF_CELL_NATTS];
	bool		nulls[CF_CELL_NATTS];
	CfOutCell	c;

	if (!join_cell(st, &c))
		return slot;
	ExecClearTuple(slot);
	if (st->columns != 0)
	{
		cfRenderCell(st->fcinfo, st->target.cf, &c, st->columns, values, nulls);
		for (int i = 0; i < st->natts; i++)
		{
			if (st->attno[i] > 0)
			{
				slot->tts_values[i] = values[st->attno[i] - 1];
				slot->tts_isnull[i] = nulls[st->attno[i] - 1];
			}
		}
	}
	return ExecStoreVirtualTuple(slot);
}

/*
 * The next row of a slice join whose result is some of its scan columns
 * (resultmap): the cell's columns rendered into the result slot, and the
 * outer row's copied from the scan slot, without forming the scan tuple.
 */
static TupleTableSlot *
join_next_result(CfSliceScanState *st)
{
	TupleTableSlot *result = st->css.ss.ps.ps_ResultTupleSlot;
	TupleTableSlot *scan = st->css.ss.ss_ScanTupleSlot;
	Datum		values[CF_CELL_NATTS];
	bool		nulls[CF_CELL_NATTS];
	CfOutCell	c;

	ExecClearTuple(result);
	if (!join_cell(st, &c))
		return result;
	if (st->columns != 0)
		cfRenderCell(st->fcinfo, st->target.cf, &c, st->columns, values, nulls);
	for (int i = 0; i < result->tts_tupleDescriptor->natts; i++)
	{
		int			from = st->resultmap[i];

		result->tts_values[i] = from > 0 ? values[from - 1] : scan->tts_values[-from - 1];
		result->tts_isnull[i] = from > 0 ? nulls[from - 1] : scan->tts_isnull[-from - 1];
	}
	return ExecStoreVirtualTuple(result);
}

/* Recheck for EvalPlanQual: a slice scan has no conditions of its own. */
static bool
slice_recheck(ScanState *ss, TupleTableSlot *slot)
{
	(void) ss;
	(void) slot;
	return true;
}

/*
 * The next row of the scan, its conditions checked and projected.  A scan
 * with neither (and not under EvalPlanQual) returns its scan tuple as it
 * comes, which is what ExecScan would do, less its bookkeeping per row.
 */
static TupleTableSlot *
slice_exec(CustomScanState *node)
{
	CfSliceScanState *st = (CfSliceScanState *) node;
	ExecScanAccessMtd next = st->outer != NULL ? join_next : slice_next;

	if (node->ss.ps.state->es_epq_active == NULL)
	{
		if (node->ss.ps.qual == NULL && node->ss.ps.ps_ProjInfo == NULL)
		{
			CHECK_FOR_INTERRUPTS();
			return next(&node->ss);
		}
		if (st->resultmap != NULL)
		{
			CHECK_FOR_INTERRUPTS();
			return join_next_result(st);
		}
	}
	return ExecScan(&node->ss, next, slice_recheck);
}

/* Shut the scan down. */
static void
slice_end(CustomScanState *node)
{
	CfSliceScanState *st = (CfSliceScanState *) node;

	slice_close(st);
	if (st->target.rel != NULL)
		cfTargetClose(&st->target);
	if (st->outer != NULL)
		ExecEndNode(st->outer);
}

/* Start over: the arguments are evaluated and the slice opened again. */
static void
slice_rescan(CustomScanState *node)
{
	CfSliceScanState *st = (CfSliceScanState *) node;

	slice_close(st);
	st->started = false;
	if (st->outer != NULL)
	{
		/* a slice join reads its outer rows again, as a nested loop would */
		if (node->ss.ps.chgParam != NULL)
			UpdateChangedParamSet(st->outer, node->ss.ps.chgParam);
		if (st->outer->chgParam == NULL)
			ExecReScan(st->outer);
	}
	ExecScanReScan(&node->ss);
}

/* EXPLAIN VERBOSE shows the call, as it does for a function scan. */
static void
slice_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	CfSliceScanState *st = (CfSliceScanState *) node;
	List	   *context;

	if (!es->verbose)
		return;
	context = set_deparse_context_plan(es->deparse_cxt, node->ss.ps.plan, ancestors);
	ExplainPropertyText("Function Call",
						deparse_expression((Node *) st->call, context, true, false), es);
}

/*
 * Install the planner hook, its switch, and make the scan known (for plans
 * passed around as text).
 */
void
cfSliceScanInit(void)
{
	DefineCustomBoolVariable("cfstore.enable_slice_scan",
							 "Lets the planner read get_slice calls in FROM with cfstore's slice scan.",
							 "Off, such calls run as function scans, which materialise the slice first.",
							 &cf_enable_slice_scan, true, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("cfstore.enable_slice_join",
							 "Lets the planner join rows with the get_slice calls they name in one slice scan.",
							 "Off, such joins run as nested loops over the slice scan.",
							 &cf_enable_slice_join, true, PGC_USERSET, 0, NULL, NULL, NULL);
	RegisterCustomScanMethods(&slice_scan_methods);
	RegisterCustomScanMethods(&slice_join_scan_methods);
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = slice_rel_pathlist;
	prev_set_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = slice_join_pathlist;
}
