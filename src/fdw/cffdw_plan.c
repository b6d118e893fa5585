/*-------------------------------------------------------------------------
 *
 * cffdw_plan.c
 *	  Planning a scan of a cfstore foreign table: which conditions, which
 *	  order and which LIMIT the storage engine takes over.
 *
 * A condition is pushed only where the engine's answer is exactly SQL's:
 *
 * - key = v, key = ANY(array): equal SQL values are equal bytes for the
 *	 key's type (bytea, text under a deterministic collation, the integer
 *	 types, boolean, uuid, timeuuid), v has no variable of this table and
 *	 nothing volatile (a constant, a parameter, an outer row's column in a
 *	 parameterized path); in a CQL table with a composite partition key,
 *	 part = v on every part (the parts make the CompositeType key);
 * - super_column = v in a Super column family, on the same terms;
 * - =, <, <=, >, >= on the column name, or on the components of a
 *	 CompositeType name as a prefix (equalities on column1 .. columnK, then
 *	 a range on the next one), where the comparator orders as the SQL type
 *	 does (bytea; text under the C collation; LongType, Int32Type;
 *	 TimeUUIDType as cfstore.timeuuid; BooleanType).  UUIDType,
 *	 LexicalUUIDType, DateType (dates before 1970 sort last), the floats,
 *	 IntegerType and DecimalType stay local.  A ReversedType of one of the
 *	 pushed types (a clustering column of CLUSTERING ORDER BY ... DESC) is
 *	 pushed as its base type, each bound turned into the opposite one of
 *	 the storage order.
 *
 * Everything else stays a local filter.  ORDER BY is taken over when the
 * query's sort keys are the storage order (row key, super column, name
 * components; a reversed component descending), all in the storage's
 * ascending order (a forward scan) or, when one row is read, all in its
 * descending order (a backward slice).  LIMIT is taken over (UPPERREL_FINAL)
 * only for a query on this table alone with every condition pushed, a
 * sort the scan provides and no OFFSET.
 *
 * A scan's plan carries the pushed clauses in fdw_recheck_quals (for EPQ
 * and for EXPLAIN), the expressions the executor evaluates in fdw_exprs,
 * and the rest in fdw_private (see CfFdwPlanField).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "foreign/fdwapi.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "api/cfargs.h"
#include "fdw/cffdw.h"
#include "fdw/cffdw_int.h"

/* What planning found out about a foreign table scan (baserel->fdw_private). */
typedef struct CfFdwRelInfo
{
	CfFdwTable *t;
	double		total_cells;	/* estimated live cells */
	double		cells_per_key;
	Bitmapset  *attrs_used;		/* columns the query reads (attnum offsets) */
	CfFdwPush	base;			/* the base restrictions, classified */
} CfFdwRelInfo;

/* ---------------------------------------------------------------------
 * Classifying conditions
 * ---------------------------------------------------------------------
 */

/*
 * The type of a column as its conditions and its order are pushed: under
 * a ReversedType (a clustering column of CLUSTERING ORDER BY ... DESC, a
 * comparator such as ReversedType(LongType)), the base type, in
 * *reversed whether there was one.  A row key is stored in the order of
 * its bytes, whatever its validator: never reversed.
 */
static const CfType *
pushed_type(const CfFdwColumn *col, bool *reversed)
{
	const CfType *type = col->type;

	*reversed = false;
	if (col->role == CF_FDW_KEY || col->role == CF_FDW_KEY_PART)
		return type;
	while (type->kind == CF_REVERSED)
	{
		type = type->sub[0];
		*reversed = !*reversed;
	}
	return type;
}

/* Whether equal SQL values of coltype are equal bytes of type (a ReversedType is not pushed: see pushed_type). */
static bool
type_equality_exact(const CfType *type, Oid coltype)
{
	switch (type->kind)
	{
		case CF_BYTES:
			return coltype == BYTEAOID;
		case CF_ASCII:
		case CF_UTF8:
			return (coltype == TEXTOID || coltype == VARCHAROID) && GetDatabaseEncoding() == PG_UTF8;
		case CF_LONG:
			return coltype == INT8OID;
		case CF_INT32:
			return coltype == INT4OID || coltype == INT8OID;
		case CF_INTEGER:
			return false;		/* numeric: 1.0 = 1 */
		case CF_BOOLEAN:
			return coltype == BOOLOID;
		case CF_UUID:
		case CF_LEXICALUUID:
			return coltype == UUIDOID;
		case CF_TIMEUUID:
			return coltype == UUIDOID || (OidIsValid(coltype) && coltype == cfTimeuuidOid());
		default:
			return false;
	}
}

/* Whether the comparator orders as the column's SQL type does (see the file comment). */
static bool
type_order_same(const CfType *type, Oid coltype)
{
	switch (type->kind)
	{
		case CF_BYTES:
		case CF_ASCII:
		case CF_UTF8:
		case CF_LONG:
		case CF_INT32:
		case CF_BOOLEAN:
			return type_equality_exact(type, coltype);
		case CF_TIMEUUID:
			return OidIsValid(coltype) && coltype == cfTimeuuidOid();
		default:
			return false;
	}
}

/* Whether a value of SQL type valtype can be encoded for a column of coltype. */
static bool
value_type_ok(Oid coltype, Oid valtype)
{
	switch (coltype)
	{
		case INT8OID:
		case INT4OID:
			return valtype == INT8OID || valtype == INT4OID || valtype == INT2OID;
		case TEXTOID:
		case VARCHAROID:
			return valtype == TEXTOID || valtype == VARCHAROID;
		default:
			return valtype == coltype;
	}
}

/* Whether a collation compares text bytewise. */
static bool
collation_is_c(Oid collid)
{
	return collid == C_COLLATION_OID || collid == POSIX_COLLATION_OID ||
		(OidIsValid(collid) && lc_collate_is_c(collid));
}

/* The column of this table that expr is (under relabelling), or NULL. */
static const CfFdwColumn *
table_column(const CfFdwTable *t, Index relid, Node *expr, AttrNumber *attno)
{
	while (expr && IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	if (expr && IsA(expr, Var))
	{
		Var		   *v = (Var *) expr;

		if (v->varno == (int) relid && v->varlevelsup == 0 && v->varattno >= 1 && v->varattno <= t->natts)
		{
			*attno = v->varattno;
			return &t->cols[v->varattno - 1];
		}
	}
	return NULL;
}

/*
 * Whether conditions on a column of this role can be pushed: the row key
 * (or a part of it), the super column and the name (or a component).  A
 * value, a writetime or a ttl is a property of the cells read, and has no
 * Cassandra type to encode a bound in (writetime and ttl have none at all).
 */
static bool
pushable_role(CfFdwRole role)
{
	return role == CF_FDW_KEY || role == CF_FDW_KEY_PART || role == CF_FDW_SUPER || role == CF_FDW_NAME;
}

/* Whether expr can be evaluated before the scan: no variable of this table, nothing volatile. */
static bool
is_probe_value(Node *expr, Index relid)
{
	Relids		varnos = pull_varnos(NULL, expr);
	bool		ok = !bms_is_member(relid, varnos) && !contain_volatile_functions(expr) &&
		!contain_subplans(expr);

	bms_free(varnos);
	return ok;
}

/*
 * The btree strategy of operator opno applied as (column op value) to a
 * column of type coltype, or 0 if it is not an operator of the type's
 * btree family.
 */
static int
column_strategy(Oid opno, Oid coltype, bool column_on_left)
{
	TypeCacheEntry *tc = lookup_type_cache(coltype, TYPECACHE_BTREE_OPFAMILY);
	int			s;

	if (!OidIsValid(tc->btree_opf))
		return 0;
	s = get_op_opfamily_strategy(opno, tc->btree_opf);
	if (s == 0 || column_on_left)
		return s;
	/* value op column: turn it around */
	switch (s)
	{
		case BTLessStrategyNumber:
			return BTGreaterStrategyNumber;
		case BTLessEqualStrategyNumber:
			return BTGreaterEqualStrategyNumber;
		case BTGreaterStrategyNumber:
			return BTLessStrategyNumber;
		case BTGreaterEqualStrategyNumber:
			return BTLessEqualStrategyNumber;
		default:
			return s;
	}
}

/* Note a range condition on the name component being bounded. */
static void
add_bound(CfFdwPush *p, int strategy, Expr *value, RestrictInfo *rinfo, bool *used)
{
	if ((strategy == BTGreaterStrategyNumber || strategy == BTGreaterEqualStrategyNumber) && p->lo == NULL)
	{
		p->lo = value;
		p->lo_incl = strategy == BTGreaterEqualStrategyNumber;
		p->lo_rinfo = rinfo;
		*used = true;
	}
	else if ((strategy == BTLessStrategyNumber || strategy == BTLessEqualStrategyNumber) && p->hi == NULL)
	{
		p->hi = value;
		p->hi_incl = strategy == BTLessEqualStrategyNumber;
		p->hi_rinfo = rinfo;
		*used = true;
	}
}

/* One condition as (column, strategy, value), if it has that shape. */
typedef struct CfFdwCond
{
	RestrictInfo *rinfo;
	const CfFdwColumn *col;
	int			strategy;		/* btree strategy, column on the left */
	Expr	   *value;
	bool		any;			/* key = ANY(value) */
} CfFdwCond;

/* Recognise a condition the engine may take over; false if it must stay local. */
static bool
recognise(const CfFdwTable *t, Index relid, RestrictInfo *rinfo, CfFdwCond *c)
{
	Expr	   *clause = rinfo->clause;
	AttrNumber	attno;

	memset(c, 0, sizeof(*c));
	c->rinfo = rinfo;
	if (rinfo->pseudoconstant)
		return false;
	if (IsA(clause, OpExpr) && list_length(((OpExpr *) clause)->args) == 2)
	{
		OpExpr	   *op = (OpExpr *) clause;
		Node	   *l = linitial(op->args);
		Node	   *r = lsecond(op->args);
		bool		left = true;
		const CfFdwColumn *col = table_column(t, relid, l, &attno);
		Node	   *value = r;
		bool		reversed;
		const CfType *type;

		if (col == NULL)
		{
			col = table_column(t, relid, r, &attno);
			value = l;
			left = false;
		}

		if (col == NULL || !pushable_role(col->role) || !is_probe_value(value, relid) ||
			!value_type_ok(col->typid, exprType(value)))
			return false;
		type = pushed_type(col, &reversed);
		c->col = col;
		c->value = (Expr *) value;
		c->strategy = column_strategy(op->opno, col->typid, left);
		if (c->strategy == 0)
			return false;
		if (c->strategy == BTEqualStrategyNumber)
		{
			if (!type_equality_exact(type, col->typid))
				return false;
			if (OidIsValid(op->inputcollid) && !get_collation_isdeterministic(op->inputcollid))
				return false;
		}
		else
		{
			if (!type_order_same(type, col->typid))
				return false;
			if (col->typid == TEXTOID || col->typid == VARCHAROID)
				if (!collation_is_c(op->inputcollid))
					return false;
			/* a bound in SQL's order is the opposite bound in a reversed storage order */
			if (reversed)
				c->strategy = BTGreaterStrategyNumber + BTLessStrategyNumber - c->strategy;
		}
		return true;
	}
	if (IsA(clause, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) clause;
		Node	   *l = linitial(sa->args);
		Node	   *r = lsecond(sa->args);
		const CfFdwColumn *col = table_column(t, relid, l, &attno);

		if (!sa->useOr || col == NULL || col->role != CF_FDW_KEY || !is_probe_value(r, relid))
			return false;
		if (!OidIsValid(get_element_type(exprType(r))) ||
			!value_type_ok(col->typid, get_element_type(exprType(r))))
			return false;
		if (column_strategy(sa->opno, col->typid, true) != BTEqualStrategyNumber ||
			!type_equality_exact(col->type, col->typid))
			return false;
		if (OidIsValid(sa->inputcollid) && !get_collation_isdeterministic(sa->inputcollid))
			return false;
		c->col = col;
		c->value = (Expr *) r;
		c->strategy = BTEqualStrategyNumber;
		c->any = true;
		return true;
	}
	return false;
}

/*
 * Split clauses (RestrictInfos) into what the storage engine takes over
 * (into p) and what stays local (p->local).  Deterministic: planning and
 * plan creation classify the same clauses the same way.
 */
void
cfFdwClassify(const CfFdwTable *t, Index relid, List *clauses, CfFdwPush *p)
{
	int			n = list_length(clauses);
	CfFdwCond  *conds = palloc0(sizeof(CfFdwCond) * Max(n, 1));
	bool	   *used = palloc0(sizeof(bool) * Max(n, 1));
	bool	   *ok = palloc0(sizeof(bool) * Max(n, 1));
	ListCell   *lc;
	int			i = 0;
	int			range_component;

	memset(p, 0, sizeof(*p));
	foreach(lc, clauses)
	{
		ok[i] = recognise(t, relid, lfirst_node(RestrictInfo, lc), &conds[i]);
		i++;
	}
	/* the row key: an equality first, else = ANY */
	for (int pass = 0; pass < 2 && p->key == NULL; pass++)
		for (i = 0; i < n && p->key == NULL; i++)
			if (ok[i] && conds[i].col->role == CF_FDW_KEY && conds[i].strategy == BTEqualStrategyNumber &&
				conds[i].any == (pass == 1))
			{
				p->key = conds[i].value;
				p->key_any = conds[i].any;
				used[i] = true;
			}
	/* a CompositeType row key (CQL rows): an equality on each of its parts, or none is pushed */
	if (t->nkey_parts > 0)
	{
		int			at[CF_FDW_MAX_COMPONENTS];
		int			k;

		for (k = 0; k < t->nkey_parts; k++)
		{
			at[k] = -1;
			for (i = 0; i < n && at[k] < 0; i++)
				if (ok[i] && !used[i] && conds[i].col->role == CF_FDW_KEY_PART &&
					conds[i].col->component == k && conds[i].strategy == BTEqualStrategyNumber &&
					!conds[i].any)
					at[k] = i;
			if (at[k] < 0)
				break;
		}
		if (k == t->nkey_parts)
		{
			for (k = 0; k < t->nkey_parts; k++)
			{
				p->key_parts[k] = conds[at[k]].value;
				used[at[k]] = true;
			}
			p->nkey_parts = t->nkey_parts;
			p->key = p->key_parts[0];
		}
	}
	/* the super column */
	for (i = 0; i < n && p->sc == NULL; i++)
		if (ok[i] && conds[i].col->role == CF_FDW_SUPER && conds[i].strategy == BTEqualStrategyNumber)
		{
			p->sc = conds[i].value;
			used[i] = true;
		}
	/* name components: equalities as a prefix, then a range on the next one */
	if (!t->cf->is_super || p->sc != NULL)
	{
		for (int k = 0; k < t->nname; k++)
		{
			Expr	   *eq = NULL;

			for (i = 0; i < n && eq == NULL; i++)
				if (ok[i] && !used[i] && conds[i].col->role == CF_FDW_NAME &&
					Max(conds[i].col->component, 0) == k && conds[i].strategy == BTEqualStrategyNumber &&
					t->nname > 1)
				{
					eq = conds[i].value;
					used[i] = true;
				}
			if (eq == NULL)
				break;
			p->eq[p->neq++] = eq;
		}
		range_component = p->neq;
		if (range_component < t->nname)
			for (i = 0; i < n; i++)
				if (ok[i] && !used[i] && conds[i].col->role == CF_FDW_NAME &&
					Max(conds[i].col->component, 0) == range_component)
				{
					if (conds[i].strategy == BTEqualStrategyNumber && t->nname == 1)
					{
						/* column_name = v: the range [v, v] */
						if (p->lo == NULL && p->hi == NULL)
						{
							p->lo = p->hi = conds[i].value;
							p->lo_incl = p->hi_incl = true;
							p->lo_rinfo = p->hi_rinfo = conds[i].rinfo;
							used[i] = true;
						}
					}
					else if (conds[i].strategy != BTEqualStrategyNumber)
						add_bound(p, conds[i].strategy, conds[i].value, conds[i].rinfo, &used[i]);
				}
	}
	i = 0;
	foreach(lc, clauses)
	{
		if (used[i])
		{
			p->pushed = lappend(p->pushed, lfirst(lc));
			p->pushed_kind = lappend_int(p->pushed_kind,
										 conds[i].col->role == CF_FDW_KEY ||
										 conds[i].col->role == CF_FDW_KEY_PART ? CF_FDW_PUSH_KEY
										 : conds[i].col->role == CF_FDW_SUPER ? CF_FDW_PUSH_SC
										 : CF_FDW_PUSH_NAME);
		}
		else
			p->local = lappend(p->local, lfirst(lc));
		i++;
	}
}

/* ---------------------------------------------------------------------
 * Sizes and costs
 * ---------------------------------------------------------------------
 */

/*
 * The number of distinct row keys ANALYZE found in the storage relation
 * (of cells cells), or 0 if it has not been analyzed.
 */
static double
analyzed_row_keys(Oid relid, double cells)
{
	AttrNumber	attnum = get_attnum(relid, "key");
	HeapTuple	tup;
	double		nd = 0;

	if (attnum == InvalidAttrNumber)
		return 0;
	tup = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(relid), Int16GetDatum(attnum),
						  BoolGetDatum(false));
	if (!HeapTupleIsValid(tup))
		return 0;
	nd = ((Form_pg_statistic) GETSTRUCT(tup))->stadistinct;
	ReleaseSysCache(tup);
	/* a negative figure is a fraction of the cells */
	return nd < 0 ? -nd * cells : nd;
}

/*
 * Estimate the cells of the column family from its storage relation's
 * size, and the cells of a row from the distinct row keys ANALYZE counted.
 */
static void
estimate_cells(CfFdwRelInfo *info)
{
	Relation	rel = cfStorageOpen(info->t->storage_relid, AccessShareLock);
	BlockNumber pages = RelationGetNumberOfBlocks(rel);
	double		keys;

	/* about 150 cells per leaf page of small cells (bench/README.md: ~40 bytes a cell) */
	info->total_cells = rel->rd_rel->reltuples > 0 ? rel->rd_rel->reltuples : Max(pages, 1) * 150.0;
	keys = rel->rd_rel->reltuples > 0 ? analyzed_row_keys(RelationGetRelid(rel), info->total_cells) : 0;
	table_close(rel, AccessShareLock);
	if (keys >= 1)
		info->cells_per_key = Max(info->total_cells / keys, 1.0);
	else
		/* rows are wide by design; without statistics, assume 100 cells a row */
		info->cells_per_key = Min(info->total_cells, 100.0);
}

/* Rows and costs of a scan with pushed conditions p (and the local ones of the path). */
static void
estimate_scan(PlannerInfo *root, RelOptInfo *baserel, CfFdwRelInfo *info, const CfFdwPush *p,
			  List *local, double *rows, Cost *startup, Cost *total)
{
	double		keys;
	double		cells;
	double		name_sel = 1.0;
	List	   *name_clauses = NIL;
	ListCell   *lc,
			   *lk;

	forboth(lc, p->pushed, lk, p->pushed_kind)
		if (lfirst_int(lk) != CF_FDW_PUSH_KEY)
		name_clauses = lappend(name_clauses, lfirst(lc));
	if (name_clauses != NIL)
		name_sel = clauselist_selectivity(root, name_clauses, baserel->relid, JOIN_INNER, NULL);
	if (p->key == NULL)
		keys = Max(info->total_cells / info->cells_per_key, 1.0);
	else if (p->key_any)
	{
		Node	   *arr = (Node *) p->key;

		keys = 10;
		if (IsA(arr, Const) && !((Const *) arr)->constisnull)
			keys = estimate_array_length(arr);
	}
	else
		keys = 1;
	cells = Max(keys * info->cells_per_key * name_sel, 1.0);
	if (p->key == NULL)
	{
		/* a walk over the whole relation */
		*startup = 0;
		*total = info->total_cells / 150.0 * seq_page_cost + info->total_cells * cpu_tuple_cost;
	}
	else
	{
		/* a descent per row key (the upper levels are usually cached) */
		*startup = 0.5 * random_page_cost;
		*total = *startup + keys * 1.0 * random_page_cost + cells * cpu_tuple_cost;
	}
	*rows = clamp_row_est(cells * clauselist_selectivity(root, local, baserel->relid, JOIN_INNER, NULL));
	*total += cells * cpu_operator_cost * list_length(local);
}

/* GetForeignRelSize: map the table, classify the restrictions, estimate the rows. */
void
cfFdwGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	CfFdwRelInfo *info = palloc0(sizeof(CfFdwRelInfo));
	Cost		startup,
				total;
	ListCell   *lc;

	info->t = cfFdwTableGet(foreigntableid);
	baserel->fdw_private = info;
	estimate_cells(info);
	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &info->attrs_used);
	foreach(lc, baserel->baserestrictinfo)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause, baserel->relid, &info->attrs_used);
	cfFdwClassify(info->t, baserel->relid, baserel->baserestrictinfo, &info->base);
	estimate_scan(root, baserel, info, &info->base, info->base.local, &baserel->rows, &startup, &total);
	baserel->tuples = info->total_cells;
}

/* ---------------------------------------------------------------------
 * Paths
 * ---------------------------------------------------------------------
 */

/* The position of a column in storage order: key 0, super column 1, name component k 2 + k. */
static int
storage_position(const CfFdwColumn *col)
{
	switch (col->role)
	{
		case CF_FDW_KEY:
			return 0;
		case CF_FDW_SUPER:
			return 1;
		case CF_FDW_NAME:
			return 2 + Max(col->component, 0);
		default:
			return -1;
	}
}

/* Whether storage position pos is fixed by the pushed equalities (one value only). */
static bool
position_fixed(const CfFdwTable *t, const CfFdwPush *p, int pos, bool one_key)
{
	if (pos == 0)
		return one_key;
	if (pos == 1)
		return !t->cf->is_super || p->sc != NULL;
	return pos - 2 < p->neq;
}

/*
 * Whether the scan can return rows in the order of pathkeys: 1 forward, 2
 * backward, 0 not.  The sort keys must name storage positions in
 * increasing order, every position skipped being fixed by an equality;
 * text under the C collation; all in one direction.  Row keys are read in
 * ascending order only; a backward scan reads one row (one_key) and, in a
 * Super column family, one super column.
 */
static int
pathkeys_direction(RelOptInfo *baserel, const CfFdwTable *t, const CfFdwPush *p, List *pathkeys,
				   bool one_key)
{
	int			dir = 0;
	int			prev = -1;
	ListCell   *lc;

	if (pathkeys == NIL)
		return 0;
	foreach(lc, pathkeys)
	{
		PathKey    *pk = (PathKey *) lfirst(lc);
		EquivalenceClass *ec = pk->pk_eclass;
		const CfFdwColumn *col = NULL;
		ListCell   *lm;
		int			pos;
		int			d = pk->pk_strategy == BTLessStrategyNumber ? 1 : 2;
		TypeCacheEntry *tc;
		bool		reversed;

		if (ec->ec_has_volatile)
			return 0;
		foreach(lm, ec->ec_members)
		{
			EquivalenceMember *em = (EquivalenceMember *) lfirst(lm);
			AttrNumber	attno;

			if (bms_equal(em->em_relids, baserel->relids) &&
				(col = table_column(t, baserel->relid, (Node *) em->em_expr, &attno)) != NULL)
				break;
			col = NULL;
		}
		if (col == NULL || (pos = storage_position(col)) < 0 || pos <= prev)
			return 0;
		tc = lookup_type_cache(col->typid, TYPECACHE_BTREE_OPFAMILY);
		if (pk->pk_opfamily != tc->btree_opf || !type_order_same(pushed_type(col, &reversed), col->typid))
			return 0;
		/* SQL's order of a reversed column is the storage's backwards */
		if (reversed)
			d = 3 - d;
		if ((col->typid == TEXTOID || col->typid == VARCHAROID) && !collation_is_c(ec->ec_collation))
			return 0;
		for (int q = prev + 1; q < pos; q++)
			if (!position_fixed(t, p, q, one_key))
				return 0;
		if (pos == 0 && d == 2)
			return 0;
		if (dir != 0 && dir != d)
			return 0;
		dir = d;
		prev = pos;
	}
	if (dir == 2 && (!one_key || !position_fixed(t, p, 1, one_key)))
		return 0;
	return dir;
}

/* Make a foreign path; its fdw_private holds the direction and the parameterized key clause. */
static ForeignPath *
make_path(PlannerInfo *root, RelOptInfo *baserel, double rows, Cost startup, Cost total, List *pathkeys,
		  Relids required_outer, int dir)
{
	return create_foreignscan_path(root, baserel, NULL, rows, startup, total, pathkeys, required_outer,
								   NULL, list_make1_int(dir));
}

/* Whether an equivalence member is the row key column of this table (for join probes). */
static bool
ec_member_is_key(PlannerInfo *root, RelOptInfo *rel, EquivalenceClass *ec, EquivalenceMember *em,
				 void *arg)
{
	const CfFdwTable *t = (const CfFdwTable *) arg;
	AttrNumber	attno;
	const CfFdwColumn *col = table_column(t, rel->relid, (Node *) em->em_expr, &attno);

	(void) root;
	(void) ec;
	return col != NULL && col->role == CF_FDW_KEY;
}

/* Add a path that probes one row key per outer row for each usable join clause. */
static void
add_probe_paths(PlannerInfo *root, RelOptInfo *baserel, CfFdwRelInfo *info)
{
	List	   *candidates = NIL;
	ListCell   *lc;

	if (info->base.key != NULL)
		return;					/* the key is known already */
	foreach(lc, baserel->joininfo)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);

		if (join_clause_is_movable_to(rinfo, baserel))
			candidates = lappend(candidates, rinfo);
	}
	if (baserel->has_eclass_joins)
		candidates = list_concat(candidates,
								 generate_implied_equalities_for_column(root, baserel, ec_member_is_key,
																		(void *) info->t,
																		baserel->lateral_referencers));
	foreach(lc, candidates)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		List	   *clauses = list_concat(list_copy(baserel->baserestrictinfo), list_make1(rinfo));
		CfFdwPush	p;
		Relids		outer;
		ParamPathInfo *ppi;
		double		rows;
		Cost		startup,
					total;

		if (!join_clause_is_movable_to(rinfo, baserel))
			continue;
		cfFdwClassify(info->t, baserel->relid, clauses, &p);
		if (p.key == NULL || p.key_any || !list_member_ptr(p.pushed, rinfo))
			continue;
		outer = bms_difference(rinfo->clause_relids, baserel->relids);
		if (bms_is_empty(outer))
			continue;
		ppi = get_baserel_parampathinfo(root, baserel, outer);
		estimate_scan(root, baserel, info, &p, p.local, &rows, &startup, &total);
		rows = ppi->ppi_rows;
		add_path(baserel, (Path *) make_path(root, baserel, rows, startup, total, NIL, outer, 1));
	}
}

/* GetForeignPaths: the plain scan, an ordered one if it helps, and the join probes. */
void
cfFdwGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	CfFdwRelInfo *info = (CfFdwRelInfo *) baserel->fdw_private;
	double		rows;
	Cost		startup,
				total;
	bool		one_key = info->base.key != NULL && !info->base.key_any;
	int			dir;

	(void) foreigntableid;
	estimate_scan(root, baserel, info, &info->base, info->base.local, &rows, &startup, &total);
	dir = pathkeys_direction(baserel, info->t, &info->base, root->query_pathkeys, one_key);
	add_path(baserel, (Path *) make_path(root, baserel, baserel->rows, startup, total,
										 dir == 1 ? root->query_pathkeys : NIL, NULL, 1));
	if (dir == 2)
		add_path(baserel, (Path *) make_path(root, baserel, baserel->rows, startup, total,
											 root->query_pathkeys, NULL, 2));
	add_probe_paths(root, baserel, info);
}

/* ---------------------------------------------------------------------
 * LIMIT (the final upper relation)
 * ---------------------------------------------------------------------
 */

/* The one cfstore base relation a query reads, or NULL. */
static RelOptInfo *
single_foreign_rel(PlannerInfo *root)
{
	int			relid;
	RelOptInfo *rel;

	if (bms_membership(root->all_baserels) != BMS_SINGLETON)
		return NULL;
	relid = bms_singleton_member(root->all_baserels);
	rel = find_base_rel(root, relid);
	if (rel->reloptkind != RELOPT_BASEREL || rel->fdwroutine == NULL ||
		rel->fdwroutine->GetForeignUpperPaths != cfFdwGetForeignUpperPaths || rel->fdw_private == NULL)
		return NULL;
	return rel;
}

/* Whether a target contains a whole-row or system column reference. */
static bool
has_special_vars(List *exprs)
{
	ListCell   *lc;

	foreach(lc, pull_var_clause((Node *) exprs, PVC_RECURSE_PLACEHOLDERS | PVC_RECURSE_AGGREGATES |
								PVC_RECURSE_WINDOWFUNCS))
		if (((Var *) lfirst(lc))->varattno <= 0)
			return true;
	return false;
}

/* GetForeignUpperPaths: take LIMIT over where that is exactly right. */
void
cfFdwGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage, RelOptInfo *input_rel,
						  RelOptInfo *output_rel, void *extra)
{
	FinalPathExtraData *fextra = (FinalPathExtraData *) extra;
	Query	   *parse = root->parse;
	RelOptInfo *baserel;
	CfFdwRelInfo *info;
	PathTarget *target;
	Path	   *base = NULL;
	ListCell   *lc;
	int			dir = 1;
	double		rows;
	Cost		startup,
				total;
	ForeignPath *path;

	(void) input_rel;
	if (stage != UPPERREL_FINAL || !fextra->limit_needed)
		return;
	if (parse->commandType != CMD_SELECT || parse->hasTargetSRFs || parse->rowMarks != NIL ||
		parse->limitOffset != NULL || parse->limitOption != LIMIT_OPTION_COUNT ||
		parse->limitCount == NULL || parse->groupClause != NIL || parse->groupingSets != NIL ||
		parse->hasAggs || parse->hasWindowFuncs || parse->distinctClause != NIL ||
		parse->havingQual != NULL || parse->setOperations != NULL || parse->hasSubLinks)
		return;
	if (!(IsA(parse->limitCount, Const) || IsA(parse->limitCount, Param)) ||
		exprType(parse->limitCount) != INT8OID)
		return;
	if ((baserel = single_foreign_rel(root)) == NULL)
		return;
	info = (CfFdwRelInfo *) baserel->fdw_private;
	if (info->base.local != NIL)
		return;					/* LIMIT is taken over only when nothing stays local */
	target = root->upper_targets[UPPERREL_FINAL];
	if (has_special_vars(target->exprs))
		return;
	/* the cheapest unparameterized path of ours that gives the order asked for */
	foreach(lc, baserel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (!IsA(p, ForeignPath) || p->param_info != NULL)
			continue;
		if (!pathkeys_contained_in(root->query_pathkeys, p->pathkeys))
			continue;
		if (base == NULL || p->total_cost < base->total_cost)
			base = p;
	}
	if (base == NULL)
		return;
	dir = linitial_int(((ForeignPath *) base)->fdw_private);
	rows = fextra->count_est > 0 ? Min(fextra->count_est, base->rows) : base->rows;
	startup = base->startup_cost;
	total = startup + (base->total_cost - startup) * (base->rows > 0 ? rows / base->rows : 1.0);
	/* cheaper than a Limit over the same scan by the Limit node's own work */
	total -= cpu_tuple_cost * rows * 0.5;
	total = Max(total, startup);
	path = create_foreign_upper_path(root, output_rel, target, rows, startup, total,
									 root->query_pathkeys, NULL,
									 list_make2_int(dir, baserel->relid));
	add_path(output_rel, (Path *) path);
}

/* ---------------------------------------------------------------------
 * Plans
 * ---------------------------------------------------------------------
 */

/* Append expr to *exprs and return its index. */
static int
add_expr(List **exprs, Expr *expr)
{
	if (expr == NULL)
		return -1;
	*exprs = lappend(*exprs, expr);
	return list_length(*exprs) - 1;
}

/* Add the Vars of node to a scan target list, each once. */
static List *
add_vars(List *tlist, Node *node)
{
	ListCell   *lc;

	foreach(lc, pull_var_clause(node, PVC_RECURSE_PLACEHOLDERS | PVC_RECURSE_AGGREGATES |
								PVC_RECURSE_WINDOWFUNCS))
		if (tlist_member(lfirst(lc), tlist) == NULL)
			tlist = lappend(tlist, makeTargetEntry((Expr *) copyObjectImpl(lfirst(lc)), list_length(tlist) + 1, NULL, false));
	return tlist;
}

/* GetForeignPlan: the pushed conditions, the order, the LIMIT and the columns read. */
ForeignScan *
cfFdwGetForeignPlan(PlannerInfo *root, RelOptInfo *foreignrel, Oid foreigntableid, ForeignPath *best_path,
					List *tlist, List *scan_clauses, Plan *outer_plan)
{
	bool		upper = foreignrel->reloptkind == RELOPT_UPPER_REL;
	RelOptInfo *baserel = upper ? find_base_rel(root, lsecond_int(best_path->fdw_private)) : foreignrel;
	CfFdwRelInfo *info = (CfFdwRelInfo *) baserel->fdw_private;
	Index		scan_relid = upper ? 0 : baserel->relid;
	int			dir = linitial_int(best_path->fdw_private);
	CfFdwPush	p;
	List	   *exprs = NIL;
	List	   *eqs = NIL;
	List	   *parts = NIL;
	List	   *attnums = NIL;
	List	   *scan_tlist = NIL;
	List	   *private;
	int			limit = -1;
	Bitmapset  *attrs = NULL;
	int			x;
	ListCell   *lc;

	(void) foreigntableid;
	if (upper)
		scan_clauses = baserel->baserestrictinfo;
	cfFdwClassify(info->t, baserel->relid, scan_clauses, &p);
	x = add_expr(&exprs, p.key);
	for (int k = 0; k < p.nkey_parts; k++)
		parts = lappend_int(parts, k == 0 ? x : add_expr(&exprs, p.key_parts[k]));
	for (int k = 0; k < p.neq; k++)
		eqs = lappend_int(eqs, add_expr(&exprs, p.eq[k]));
	if (upper)
	{
		limit = add_expr(&exprs, (Expr *) copyObjectImpl(root->parse->limitCount));
		/* the scan tuple: the table's columns the query reads */
		scan_tlist = add_vars(NIL, (Node *) tlist);
		scan_tlist = add_vars(scan_tlist, (Node *) extract_actual_clauses(p.pushed, false));
		foreach(lc, scan_tlist)
			attnums = lappend_int(attnums, ((Var *) lfirst_node(TargetEntry, lc)->expr)->varattno);
	}
	else
	{
		/*
		 * The columns read, of the relation's row: those the query uses above
		 * the scan and in its conditions (the target list may name every
		 * column, as a physical target list does).
		 */
		pull_varattnos((Node *) extract_actual_clauses(p.local, false), baserel->relid, &attrs);
		attrs = bms_union(attrs, info->attrs_used);
		for (int a = 1; a <= info->t->natts; a++)
			if (bms_is_member(a - FirstLowInvalidHeapAttributeNumber, attrs) ||
				bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs))
				attnums = lappend_int(attnums, a);
	}
	private = list_make5(makeInteger(info->t->relid),
						 list_make4_int(p.key == NULL ? CF_FDW_KEY_NONE : p.key_any ? CF_FDW_KEY_ANY
										: p.nkey_parts > 0 ? CF_FDW_KEY_PARTS : CF_FDW_KEY_EQ,
										x, add_expr(&exprs, p.sc), dir),
						 eqs,
						 list_make5_int(add_expr(&exprs, p.lo), p.lo_incl, add_expr(&exprs, p.hi), p.hi_incl, limit),
						 attnums);
	private = lappend(private, p.pushed_kind);
	private = lappend(private, parts);
	(void) outer_plan;
	return make_foreignscan(tlist,
							extract_actual_clauses(p.local, false),
							scan_relid,
							exprs,
							private,
							scan_tlist,
							extract_actual_clauses(p.pushed, false),
							NULL);
}
