/*-------------------------------------------------------------------------
 *
 * cfshard_plan.c
 *	  A key lookup in the coordinator's table of a sharded column family is
 *	  planned on the one shard's partition, so that postgres_fdw ships its
 *	  ORDER BY and its LIMIT.
 *
 * The coordinator's table is partitioned by hash of the key over foreign
 * tables of the shards (cfshard_table.c).  PostgreSQL 15 prunes a query
 * with key equality to one partition, but plans it as a partitioned
 * table: postgres_fdw then ships the WHERE clause and (it sees the shard
 * read the row in either order for free) the ORDER BY, never the LIMIT,
 * which it can ship only when the foreign table is the query's relation.
 *
 * So a planner hook reads the query first.  When it is a SELECT of that
 * one table (no join, no FOR UPDATE) whose WHERE clause has, at its top
 * level, <partition key column> = <constant> (the column key, or a CQL3
 * table's partition key; or = a parameter whose value the plan is made
 * for), it finds the partition PostgreSQL itself would route the key to
 * (the partition key's own hash function, the bounds' own modulus) and
 * makes the query read that partition: a new range table entry for it,
 * every reference to the table moved there.  The table's own entry stays
 * in the range table, out of the join tree, so that the executor checks
 * the caller's privileges on it as before (a view's entry stays the same
 * way); the partition's entry asks for none, as a partition reached
 * through its parent does not.  Anything else is planned as it was.
 *
 * postgres_fdw ships a IS DISTINCT FROM b without the schema of its
 * operator, and its connections run with search_path = pg_catalog, so on
 * a cfstore type (timeuuid) the shard cannot resolve it.  In a query that
 * reads a sharded column family's table, the hook writes it, for
 * cfstore's operators with a strict negator and arguments that are
 * neither volatile nor subqueries (each is evaluated twice), as
 * COALESCE(a <> b, (a IS NULL) <> (b IS NULL)), which has the same value
 * for every a and b (NULLs included); postgres_fdw on PostgreSQL 15 runs
 * that on the coordinator.  Other queries, and ON CONFLICT clauses (whose
 * index inference needs the predicate as written), are left as they are.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "catalog/pg_class.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "rewrite/rewriteManip.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "fdw/cffdw.h"
#include "shard/cfshard.h"

static planner_hook_type prev_planner_hook = NULL;

/*
 * The value of expr if it is a constant, or an external parameter whose
 * value the plan is made for; false otherwise (and for NULL).
 */
static bool
known_value(Node *expr, ParamListInfo params, Oid type, Datum *value)
{
	if (IsA(expr, Const))
	{
		Const	   *c = (Const *) expr;

		if (c->constisnull || c->consttype != type)
			return false;
		*value = c->constvalue;
		return true;
	}
	if (IsA(expr, Param) && ((Param *) expr)->paramkind == PARAM_EXTERN && params != NULL &&
		params->paramFetch == NULL)
	{
		Param	   *p = (Param *) expr;
		ParamExternData *d;

		if (p->paramid < 1 || p->paramid > params->numParams)
			return false;
		d = &params->params[p->paramid - 1];
		if (d->isnull || d->ptype != type || p->paramtype != type || !(d->pflags & PARAM_FLAG_CONST))
			return false;
		*value = d->value;
		return true;
	}
	return false;
}

/*
 * The value column attno of relation rti is compared with by operator eq
 * (under collation collid) at the top level of quals (an AND of clauses or
 * one clause), if it is known.
 */
static bool
column_equality(Node *quals, Index rti, AttrNumber attno, Oid eq, Oid type, Oid collid,
				ParamListInfo params, Datum *value)
{
	List	   *clauses;
	ListCell   *lc;

	if (quals == NULL || !OidIsValid(eq))
		return false;
	clauses = is_andclause(quals) ? ((BoolExpr *) quals)->args : list_make1(quals);
	foreach(lc, clauses)
	{
		OpExpr	   *op = (OpExpr *) lfirst(lc);
		Node	   *l;
		Node	   *r;

		if (!IsA(op, OpExpr) || op->opno != eq || list_length(op->args) != 2 || op->inputcollid != collid)
			continue;
		l = linitial(op->args);
		r = lsecond(op->args);
		if (!IsA(l, Var))
		{
			Node	   *t = l;

			l = r;
			r = t;
		}
		if (IsA(l, Var) && ((Var *) l)->varno == (int) rti && ((Var *) l)->varlevelsup == 0 &&
			((Var *) l)->varattno == attno && known_value(r, params, type, value))
			return true;
	}
	return false;
}

/*
 * Whether values of type that are equal under its = (with collation) are
 * the same datum, as btree's "equal image" support function says: then
 * every value a query's equality stands for gives one row_key() text, and
 * so one partition.  Not for numeric (1.5 = 1.50), float (0 = -0), nor
 * a nondeterministic collation; such a part's key is not routed.
 */
static bool
equal_image(Oid type, Oid collid)
{
	Oid			opclass = GetDefaultOpClass(type, BTREE_AM_OID);
	Oid			opcintype;
	Oid			proc;

	if (!OidIsValid(opclass))
		return false;
	opcintype = get_opclass_input_type(opclass);
	proc = get_opfamily_proc(get_opclass_family(opclass), opcintype, opcintype, BTEQUALIMAGE_PROC);
	return OidIsValid(proc) && DatumGetBool(OidFunctionCall1Coll(proc, collid, ObjectIdGetDatum(opcintype)));
}

/* What bind_columns needs: the query's top-level quals, the table's range table index. */
typedef struct CfBindContext
{
	Node	   *quals;
	Index		rti;
	ParamListInfo params;
	bool		bound;			/* every column had a known value */
} CfBindContext;

/*
 * A partition key expression with each column of the table replaced by
 * the constant a top-level equality (with the type's own = operator) gives
 * it; cx->bound false if some column has none, or is of a type whose equal
 * values can differ (equal_image).
 */
static Node *
bind_columns(Node *node, CfBindContext *cx)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var))
	{
		Var		   *v = (Var *) node;
		Oid			opclass = GetDefaultOpClass(v->vartype, HASH_AM_OID);
		Oid			eq = OidIsValid(opclass) ? get_opfamily_member(get_opclass_family(opclass), v->vartype,
																  v->vartype, HTEqualStrategyNumber) : InvalidOid;
		Datum		value;
		int16		typlen;
		bool		typbyval;

		if (!equal_image(v->vartype, v->varcollid) ||
			!column_equality(cx->quals, cx->rti, v->varattno, eq, v->vartype, v->varcollid, cx->params, &value))
		{
			cx->bound = false;
			return node;
		}
		get_typlenbyval(v->vartype, &typlen, &typbyval);
		return (Node *) makeConst(v->vartype, v->vartypmod, v->varcollid, typlen, value, false, typbyval);
	}
	return expression_tree_mutator(node, bind_columns, (void *) cx);
}

/*
 * The value of a table's partition key (one column, or one expression of its
 * columns: the row_key() of a composite partition key) that parse's
 * top-level equalities give, if they give it.
 */
static bool
partition_key_value(Query *parse, Index rti, PartitionKey key, ParamListInfo params,
					Datum *value)
{
	CfBindContext cx = {parse->jointree->quals, rti, params, true};
	Node	   *expr;
	Const	   *c;

	if (key->partattrs[0] != 0)
		return column_equality(parse->jointree->quals, rti, key->partattrs[0],
							   get_opfamily_member(key->partopfamily[0], key->partopcintype[0],
												   key->partopcintype[0], HTEqualStrategyNumber),
							   key->partopcintype[0], key->partcollation[0], params, value);
	/* the expression's columns are the table's own (varno 1) */
	expr = (Node *) copyObjectImpl(linitial(key->partexprs));
	if (rti != 1)
		ChangeVarNodes(expr, 1, rti, 0);
	expr = bind_columns(expr, &cx);
	if (!cx.bound || contain_mutable_functions(expr))
		return false;
	c = (Const *) evaluate_expr((Expr *) expr, key->parttypid[0], key->parttypmod[0], key->parttypcoll[0]);
	if (!IsA(c, Const) || c->constisnull)
		return false;
	*value = c->constvalue;
	return true;
}

/*
 * The partition of the coordinator's table rte that holds the key of
 * parse's top-level key equality, locked as rte is; InvalidOid if the
 * query is not a key lookup of such a table.
 */
static Oid
lookup_partition(Query *parse, Index rti, RangeTblEntry *rte, ParamListInfo params)
{
	Relation	rel;
	PartitionKey key;
	PartitionDesc desc;
	Datum		value;
	bool		isnull = false;
	Oid			part = InvalidOid;

	rel = table_open(rte->relid, NoLock);	/* the parser has locked it */
	key = RelationGetPartitionKey(rel);
	desc = RelationGetPartitionDesc(rel, true);
	if (key->strategy == PARTITION_STRATEGY_HASH && key->partnatts == 1 && desc->nparts > 0 &&
		cfFdwCanonicalTable(get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel)) ==
		rte->relid &&
		partition_key_value(parse, rti, key, params, &value))
	{
		uint64		hash = compute_partition_hash_value(1, key->partsupfunc, key->partcollation, &value, &isnull);
		int			index = desc->boundinfo->indexes[hash % desc->boundinfo->nindexes];

		if (index >= 0 && get_rel_relkind(desc->oids[index]) == RELKIND_FOREIGN_TABLE)
		{
			Relation	partrel;

			/* the partition's columns are the table's, number for number */
			LockRelationOid(desc->oids[index], rte->rellockmode);
			partrel = table_open(desc->oids[index], NoLock);
			if (RelationGetDescr(partrel)->natts == RelationGetDescr(rel)->natts)
				part = desc->oids[index];
			table_close(partrel, NoLock);
		}
	}
	table_close(rel, NoLock);
	return part;
}

/* Plan a key lookup of a coordinator's table on the shard's partition (see above). */
static void
route_key_lookup(Query *parse, ParamListInfo params)
{
	RangeTblRef *ref;
	RangeTblEntry *rte;
	RangeTblEntry *partrte;
	Oid			part;

	if (parse->commandType != CMD_SELECT || parse->rowMarks != NIL || parse->setOperations != NULL ||
		parse->jointree == NULL || list_length(parse->jointree->fromlist) != 1 ||
		!IsA(linitial(parse->jointree->fromlist), RangeTblRef))
		return;
	ref = linitial_node(RangeTblRef, parse->jointree->fromlist);
	rte = rt_fetch(ref->rtindex, parse->rtable);
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_PARTITIONED_TABLE || !rte->inh ||
		rte->tablesample != NULL)
		return;
	part = lookup_partition(parse, ref->rtindex, rte, params);
	if (!OidIsValid(part))
		return;
	partrte = (RangeTblEntry *) copyObjectImpl(rte);
	partrte->relid = part;
	partrte->relkind = RELKIND_FOREIGN_TABLE;
	partrte->inh = false;
	partrte->requiredPerms = 0;
	partrte->checkAsUser = InvalidOid;
	partrte->selectedCols = NULL;
	partrte->insertedCols = NULL;
	partrte->updatedCols = NULL;
	partrte->extraUpdatedCols = NULL;
	parse->rtable = lappend(parse->rtable, partrte);
	ChangeVarNodes((Node *) parse, ref->rtindex, list_length(parse->rtable), 0);
	rte->inh = false;			/* kept for its privileges only */
}

/* The schema of operator opno, or InvalidOid. */
static Oid
operator_namespace(Oid opno)
{
	HeapTuple	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(opno));
	Oid			nsp = InvalidOid;

	if (HeapTupleIsValid(tup))
	{
		nsp = ((Form_pg_operator) GETSTRUCT(tup))->oprnamespace;
		ReleaseSysCache(tup);
	}
	return nsp;
}

/* An operator clause of opno over a and b, with its function set. */
static Expr *
op_clause(Oid opno, Expr *a, Expr *b, Oid inputcollid)
{
	OpExpr	   *op = (OpExpr *) make_opclause(opno, BOOLOID, false, a, b, InvalidOid, inputcollid);

	set_opfuncid(op);
	return (Expr *) op;
}

/* a IS NULL */
static Expr *
is_null(Expr *a)
{
	NullTest   *t = makeNode(NullTest);

	t->arg = a;
	t->nulltesttype = IS_NULL;
	t->argisrow = false;
	t->location = -1;
	return (Expr *) t;
}

/* Whether a IS DISTINCT FROM b on an operator of schema nsp is one distinct_mutator writes anew. */
static bool
rewritable_distinct(DistinctExpr *d, Oid nsp)
{
	Oid			negator = get_negator(d->opno);

	return list_length(d->args) == 2 && OidIsValid(negator) && operator_namespace(d->opno) == nsp &&
		func_strict(get_opcode(negator)) && !contain_volatile_functions((Node *) d->args) &&
		!checkExprHasSubLink((Node *) d->args);
}

/* Walker: whether the query tree reads a sharded column family's table (range table entries are visited). */
static bool
reads_shard_table(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeTblEntry))
	{
		RangeTblEntry *rte = (RangeTblEntry *) node;

		return rte->rtekind == RTE_RELATION &&
			(rte->relkind == RELKIND_FOREIGN_TABLE || rte->relkind == RELKIND_PARTITIONED_TABLE) &&
			cfShardIsShardTable(rte->relid, rte->relkind);
	}
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, reads_shard_table, context, QTW_EXAMINE_RTES_BEFORE);
	return expression_tree_walker(node, reads_shard_table, context);
}

/* Walker: whether the tree holds an IS DISTINCT FROM that distinct_mutator writes anew (most queries do not). */
static bool
has_rewritable_distinct(Node *node, void *nsp)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, has_rewritable_distinct, nsp, 0);
	if (IsA(node, DistinctExpr) && rewritable_distinct((DistinctExpr *) node, *(Oid *) nsp))
		return true;
	return expression_tree_walker(node, has_rewritable_distinct, nsp);
}

/* Mutator: a IS DISTINCT FROM b on an operator of schema *(Oid *) nsp written as postgres_fdw ships it (see above). */
static Node *
distinct_mutator(Node *node, void *nsp)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Query))
	{
		Query	   *q = (Query *) query_tree_mutator((Query *) node, distinct_mutator, nsp, 0);

		q->onConflict = ((Query *) node)->onConflict;	/* as written, for index inference */
		return (Node *) q;
	}
	node = expression_tree_mutator(node, distinct_mutator, nsp);
	if (IsA(node, DistinctExpr))
	{
		DistinctExpr *d = (DistinctExpr *) node;
		Oid			negator = get_negator(d->opno);

		if (rewritable_distinct(d, *(Oid *) nsp))
		{
			Expr	   *a = linitial(d->args);
			Expr	   *b = lsecond(d->args);
			CoalesceExpr *c = makeNode(CoalesceExpr);

			c->coalescetype = BOOLOID;
			c->coalescecollid = InvalidOid;
			c->args = list_make2(op_clause(negator, (Expr *) copyObjectImpl(a), (Expr *) copyObjectImpl(b), d->inputcollid),
								 op_clause(BooleanNotEqualOperator, is_null(a), is_null(b), InvalidOid));
			c->location = d->location;
			return (Node *) c;
		}
	}
	return node;
}

/* Write the query's IS DISTINCT FROM on cfstore's operators as postgres_fdw ships them (see above). */
static void
rewrite_distinct(Query *parse)
{
	Oid			nsp = get_namespace_oid("cfstore", true);
	OnConflictExpr *on_conflict = parse->onConflict;

	/* walks first: the mutator copies every expression node it passes */
	if (OidIsValid(nsp) && query_tree_walker(parse, has_rewritable_distinct, &nsp, 0) &&
		query_tree_walker(parse, reads_shard_table, NULL, QTW_EXAMINE_RTES_BEFORE))
	{
		(void) query_tree_mutator(parse, distinct_mutator, &nsp, QTW_DONT_COPY_QUERY);
		parse->onConflict = on_conflict;	/* as written, for index inference */
	}
}

/* planner_hook: key lookups of the coordinator's tables go to their shard's partition. */
static PlannedStmt *
shard_planner(Query *parse, const char *query_string, int cursorOptions, ParamListInfo boundParams)
{
	rewrite_distinct(parse);
	route_key_lookup(parse, boundParams);
	if (prev_planner_hook)
		return prev_planner_hook(parse, query_string, cursorOptions, boundParams);
	return standard_planner(parse, query_string, cursorOptions, boundParams);
}

/* Install the planner hook (from _PG_init). */
void
cfShardPlanInit(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = shard_planner;
}
