/*-------------------------------------------------------------------------
 *
 * cffdw_scan.c
 *	  Executing a scan of a cfstore foreign table, and its EXPLAIN.
 *
 * When the scan starts (and on every rescan) it evaluates the pushed
 * expressions, turns them into the bytes of the column family's types and
 * reads: one slice per row key (the keys of key = v or key = ANY(array),
 * sorted and without duplicates, in unsigned byte order as they are
 * stored), or every row key in order when only the column range is known,
 * or the whole relation.  A NULL key or bound, or an empty range, reads
 * nothing, as the condition is never true.  The slice's start and finish
 * are inclusive; an exclusive bound on a plain column name skips the one
 * name equal to it, and on a composite name is exact through the
 * end-of-component byte.
 *
 * The cells a slice hands out are copies, made in the executor's
 * per-tuple context, so the scan holds no buffer lock between rows (only
 * the pin a walk keeps on the page it read last, cfwalk.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"

#include "fdw/cffdw.h"
#include "fdw/cffdw_int.h"
#include "object/cfobject.h"

/* Row keys fetched at a time when every row is sliced. */
#define CF_FDW_KEY_BATCH 64

/* The executor state of a scan. */
typedef struct CfFdwScanState
{
	CfFdwTable *t;
	Relation	rel;			/* the storage relation */
	List	   *exprs;			/* ExprStates of fdw_exprs */
	int			keymode;
	int			keyx;
	int			scx;
	int			dir;
	List	   *eqx;
	List	   *partx;			/* CF_FDW_KEY_PARTS: the exprs of the key's parts */
	int			lox,
				loincl,
				hix,
				hiincl,
				limitx;
	int			nattnums;
	int		   *attnums;		/* scan tuple column i comes from attnum attnums[i] */
	bool		relation_row;	/* the scan tuple is the foreign table's row */
	bool	   *needed;			/* by attnum - 1 */
	Datum	   *values;			/* by attnum - 1 */
	bool	   *nulls;
	MemoryContext cxt;			/* one execution's state; reset on rescan */
	MemoryContext keycxt;		/* the batch of row keys being sliced */
	/* one execution */
	bool		started;
	bool		empty;			/* nothing can match */
	bytea	  **keys;			/* the row keys to read (keymode != NONE) */
	int			nkeys;
	int			nextkey;
	bool		walk_keys;		/* every row, one slice each */
	bytea	  **batch;			/* ... the keys fetched, */
	int			nbatch;
	int			nextbatch;
	bool		keys_done;
	CfSliceSpec spec;
	bytea	   *skip_lo;		/* names to skip (exclusive bounds of a plain name) */
	bytea	   *skip_hi;
	CfSliceState *slice;
	CfRelScanState *full;
	int64		limit;			/* -1: none */
	int64		returned;
	/* CQL rows of several cells (CF_FDW_ROWS_SPARSE, _STATIC) */
	MemoryContext rowcxt[2];	/* the row being built, and the one before */
	int			currow;
	CfOutCell	pending;		/* the first cell of the next row, read ahead */
	bool		has_pending;
	CfObjShape *objshape;		/* the object column's: how objects are keyed */
	List	   *objcells;		/* ... the row's cells (CfObjCell) */
	/* EXPLAIN ANALYZE */
	int64		cells_read;
	int64		pages;
} CfFdwScanState;

/* Check that the user may read the column family as the function API would. */
static void
check_storage_privilege(const CfFdwTable *t)
{
	if (pg_class_aclcheck(t->storage_relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for column family %s.%s", t->cf->keyspace, t->cf->name),
				 errdetail("Reading needs the SELECT privilege on table cfstore_data.cf_%d.", t->cf->id)));
}

/* BeginForeignScan: set up the expressions and the columns to fill. */
void
cfFdwBeginForeignScan(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	CfFdwScanState *st = palloc0(sizeof(CfFdwScanState));
	List	   *priv = plan->fdw_private;
	List	   *key = list_nth(priv, CF_FDW_PRIV_KEY);
	List	   *range = list_nth(priv, CF_FDW_PRIV_RANGE);
	List	   *attnums = list_nth(priv, CF_FDW_PRIV_ATTNUMS);
	ListCell   *lc;
	int			i = 0;

	node->fdw_state = st;
	st->t = cfFdwTableGet(intVal(list_nth(priv, CF_FDW_PRIV_RELID)));
	st->keymode = list_nth_int(key, 0);
	st->keyx = list_nth_int(key, 1);
	st->scx = list_nth_int(key, 2);
	st->dir = list_nth_int(key, 3);
	st->eqx = list_nth(priv, CF_FDW_PRIV_EQS);
	st->partx = list_nth(priv, CF_FDW_PRIV_PARTS);
	st->lox = list_nth_int(range, 0);
	st->loincl = list_nth_int(range, 1);
	st->hix = list_nth_int(range, 2);
	st->hiincl = list_nth_int(range, 3);
	st->limitx = list_nth_int(range, 4);
	st->relation_row = plan->scan.scanrelid > 0;
	st->nattnums = list_length(attnums);
	st->attnums = palloc(sizeof(int) * Max(st->nattnums, 1));
	st->needed = palloc0(sizeof(bool) * Max(st->t->natts, 1));
	st->values = palloc0(sizeof(Datum) * Max(st->t->natts, 1));
	st->nulls = palloc0(sizeof(bool) * Max(st->t->natts, 1));
	foreach(lc, attnums)
	{
		st->attnums[i++] = lfirst_int(lc);
		st->needed[lfirst_int(lc) - 1] = true;
	}
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	check_storage_privilege(st->t);
	st->rel = cfStorageOpen(st->t->storage_relid, AccessShareLock);
	st->exprs = ExecInitExprList(plan->fdw_exprs, &node->ss.ps);
	st->cxt = AllocSetContextCreate(estate->es_query_cxt, "cfstore foreign scan", ALLOCSET_DEFAULT_SIZES);
	st->keycxt = AllocSetContextCreate(estate->es_query_cxt, "cfstore foreign scan keys",
									   ALLOCSET_SMALL_SIZES);
	if (st->t->rows == CF_FDW_ROWS_SPARSE || st->t->rows == CF_FDW_ROWS_STATIC)
		for (i = 0; i < 2; i++)
			st->rowcxt[i] = AllocSetContextCreate(estate->es_query_cxt, "cfstore foreign scan row",
												  ALLOCSET_DEFAULT_SIZES);
}

/* Evaluate pushed expression x (not NULL); false if it is NULL. */
static bool
eval_expr(ForeignScanState *node, CfFdwScanState *st, int x, Datum *value, Oid *type)
{
	ExprState  *es = (ExprState *) list_nth(st->exprs, x);
	bool		isnull;

	*value = ExecEvalExpr(es, node->ss.ps.ps_ExprContext, &isnull);
	*type = exprType((Node *) es->expr);
	return !isnull;
}

/* qsort comparator: row keys in unsigned byte order. */
static int
key_cmp(const void *a, const void *b)
{
	const bytea *x = *(const bytea *const *) a;
	const bytea *y = *(const bytea *const *) b;
	int			lx = VARSIZE_ANY_EXHDR(x);
	int			ly = VARSIZE_ANY_EXHDR(y);
	int			c = memcmp(VARDATA_ANY(x), VARDATA_ANY(y), Min(lx, ly));

	return c != 0 ? c : (lx > ly) - (lx < ly);
}

static void append_component(StringInfo buf, const bytea *v, int8 eoc);

/*
 * The CompositeType row key whose parts the key's part = v conditions fix,
 * in *key; false if no row can have it (a NULL part, a value the part's
 * type cannot hold, a part longer than a component can be).
 */
static bool
eval_key_parts(ForeignScanState *node, CfFdwScanState *st, bytea **key)
{
	StringInfoData buf;
	ListCell   *lc;
	int			k = 0;

	initStringInfo(&buf);
	appendStringInfoSpaces(&buf, VARHDRSZ);
	foreach(lc, st->partx)
	{
		const CfFdwColumn *col = NULL;
		Datum		v;
		Oid			type;
		bytea	   *b;

		for (int i = 0; i < st->t->natts && col == NULL; i++)
			if (st->t->cols[i].role == CF_FDW_KEY_PART && st->t->cols[i].component == k)
				col = &st->t->cols[i];
		Assert(col != NULL);
		if (!eval_expr(node, st, lfirst_int(lc), &v, &type) || !cfFdwEncodeExact(col->type, v, type, &b) ||
			VARSIZE_ANY_EXHDR(b) > 0xFFFF)
			return false;
		append_component(&buf, b, 0);
		k++;
	}
	SET_VARSIZE(buf.data, buf.len);
	*key = (bytea *) buf.data;
	return true;
}

/* The row keys of key = v, key = ANY(array) or the parts' equalities, sorted, without duplicates. */
static void
eval_keys(ForeignScanState *node, CfFdwScanState *st)
{
	const CfFdwColumn *col = st->t->key_att > 0 ? &st->t->cols[st->t->key_att - 1] : NULL;
	Datum		v;
	Oid			type;
	int			n = 0;

	if (st->keymode == CF_FDW_KEY_PARTS)
	{
		st->keys = palloc(sizeof(bytea *));
		if (eval_key_parts(node, st, &st->keys[0]))
			st->nkeys = 1;
		return;
	}
	if (!eval_expr(node, st, st->keyx, &v, &type))
		return;
	if (st->keymode == CF_FDW_KEY_EQ)
	{
		st->keys = palloc(sizeof(bytea *));
		if (cfFdwEncodeExact(col->type, v, type, &st->keys[0]))
			st->nkeys = 1;
		return;
	}
	{
		ArrayType  *arr = DatumGetArrayTypeP(v);
		Oid			elemtype = ARR_ELEMTYPE(arr);
		int16		elmlen;
		bool		elmbyval;
		char		elmalign;
		Datum	   *elems;
		bool	   *elnulls;
		int			nelems;

		get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
		deconstruct_array(arr, elemtype, elmlen, elmbyval, elmalign, &elems, &elnulls, &nelems);
		st->keys = palloc(sizeof(bytea *) * Max(nelems, 1));
		for (int i = 0; i < nelems; i++)
			if (!elnulls[i] && cfFdwEncodeExact(col->type, elems[i], elemtype, &st->keys[n]))
				n++;
	}
	if (n > 1)
	{
		int			m = 1;

		qsort(st->keys, n, sizeof(bytea *), key_cmp);
		for (int i = 1; i < n; i++)
			if (key_cmp(&st->keys[i], &st->keys[m - 1]) != 0)
				st->keys[m++] = st->keys[i];
		n = m;
	}
	st->nkeys = n;
}

/* Append one composite component (2-byte length, bytes, end-of-component byte). */
static void
append_component(StringInfo buf, const bytea *v, int8 eoc)
{
	int			len = VARSIZE_ANY_EXHDR(v);

	appendStringInfoChar(buf, (char) ((len >> 8) & 0xff));
	appendStringInfoChar(buf, (char) (len & 0xff));
	appendBinaryStringInfo(buf, VARDATA_ANY(v), len);
	appendStringInfoChar(buf, (char) eoc);
}

/*
 * The bounds of the name range: the start and finish of a forward slice
 * (NULL: open).  False if nothing can match (a NULL value, a value no
 * name can equal, an empty range).
 */
static bool
eval_bounds(ForeignScanState *node, CfFdwScanState *st, bytea **lo, bytea **hi)
{
	const CfFdwTable *t = st->t;
	int			neq = list_length(st->eqx);
	bool		composite = t->nametype->kind == CF_COMPOSITE;
	const CfType *rtype;
	bytea	   *lov = NULL,
			   *hiv = NULL;
	Datum		v;
	Oid			type;
	StringInfoData prefix;
	ListCell   *lc;
	int			k = 0;

	*lo = *hi = NULL;
	if (neq == 0 && st->lox < 0 && st->hix < 0)
		return true;			/* no bounds: the whole row */
	initStringInfo(&prefix);
	foreach(lc, st->eqx)
	{
		bytea	   *b;

		if (!eval_expr(node, st, lfirst_int(lc), &v, &type) ||
			!cfFdwEncodeExact(t->nametype->sub[k], v, type, &b))
			return false;
		append_component(&prefix, b, 0);
		k++;
	}
	rtype = composite ? (neq < t->nametype->nsub ? t->nametype->sub[neq] : NULL) : t->nametype;
	if (st->lox >= 0 && (!eval_expr(node, st, st->lox, &v, &type) || !cfFdwEncodeExact(rtype, v, type, &lov)))
		return false;
	if (st->hix >= 0 && (!eval_expr(node, st, st->hix, &v, &type) || !cfFdwEncodeExact(rtype, v, type, &hiv)))
		return false;
	if (lov != NULL && hiv != NULL)
	{
		int			c = cfTypeCompare(rtype, (const uint8 *) VARDATA_ANY(lov), VARSIZE_ANY_EXHDR(lov),
									  (const uint8 *) VARDATA_ANY(hiv), VARSIZE_ANY_EXHDR(hiv));

		if (c > 0 || (c == 0 && !(st->loincl && st->hiincl)))
			return false;
	}
	if (!composite)
	{
		*lo = lov;
		*hi = hiv;
		if (lov != NULL && !st->loincl)
			st->skip_lo = lov;
		if (hiv != NULL && !st->hiincl)
			st->skip_hi = hiv;
		return true;
	}
	if (lov != NULL)
	{
		StringInfoData b;

		initStringInfo(&b);
		appendBinaryStringInfo(&b, prefix.data, prefix.len);
		append_component(&b, lov, st->loincl ? 0 : 1);
		*lo = cfMakeBytea(b.data, b.len);
	}
	else if (neq > 0)
		*lo = cfMakeBytea(prefix.data, prefix.len);
	if (hiv != NULL)
	{
		StringInfoData b;

		initStringInfo(&b);
		appendBinaryStringInfo(&b, prefix.data, prefix.len);
		append_component(&b, hiv, st->hiincl ? 1 : -1);
		*hi = cfMakeBytea(b.data, b.len);
	}
	else if (neq > 0)
	{
		/* the end of the prefix: its last end-of-component byte set to 1 */
		prefix.data[prefix.len - 1] = 1;
		*hi = cfMakeBytea(prefix.data, prefix.len);
	}
	return true;
}

/* Start an execution: evaluate the pushed expressions and decide what to read. */
static void
scan_start(ForeignScanState *node, CfFdwScanState *st)
{
	MemoryContext old = MemoryContextSwitchTo(st->cxt);
	bytea	   *lo,
			   *hi;
	Datum		v;
	Oid			type;

	st->started = true;
	st->limit = -1;
	memset(&st->spec, 0, sizeof(st->spec));
	if (st->limitx >= 0 && eval_expr(node, st, st->limitx, &v, &type))
	{
		st->limit = DatumGetInt64(v);
		if (st->limit <= 0)
			st->empty = true;
	}
	if (st->keymode != CF_FDW_KEY_NONE)
	{
		eval_keys(node, st);
		if (st->nkeys == 0)
			st->empty = true;
	}
	if (st->scx >= 0)
	{
		if (!eval_expr(node, st, st->scx, &v, &type) ||
			!cfFdwEncodeExact(st->t->cf->comparator, v, type, &st->spec.sc))
			st->empty = true;
	}
	if (!st->empty && !eval_bounds(node, st, &lo, &hi))
		st->empty = true;
	if (!st->empty)
	{
		st->spec.whole_super = st->t->cf->is_super && st->spec.sc == NULL;
		st->spec.reversed = st->dir == 2;
		st->spec.start = st->spec.reversed ? hi : lo;
		st->spec.finish = st->spec.reversed ? lo : hi;
		st->spec.count = PG_INT64_MAX;
		/* a LIMIT counts cells, unless a row is several cells */
		if (st->limit > 0 && !st->spec.whole_super && st->rowcxt[0] == NULL)
			st->spec.count = st->limit + (st->skip_lo != NULL) + (st->skip_hi != NULL);
		/* without a key, every row is sliced when a slice has bounds */
		st->walk_keys = st->keymode == CF_FDW_KEY_NONE &&
			(st->spec.sc != NULL || st->spec.start != NULL || st->spec.finish != NULL);
	}
	MemoryContextSwitchTo(old);
}

/* The next row key to slice, or NULL when there are no more. */
static bytea *
next_key(CfFdwScanState *st)
{
	if (!st->walk_keys)
		return st->nextkey < st->nkeys ? st->keys[st->nextkey++] : NULL;
	if (st->nextbatch >= st->nbatch && !st->keys_done)
	{
		bytea	   *from = NULL;
		MemoryContext old;

		/* continue after the last key of the batch read (kept in the execution's context) */
		if (st->nbatch > 0)
		{
			from = MemoryContextAlloc(st->cxt, VARSIZE(st->batch[st->nbatch - 1]));
			memcpy(from, st->batch[st->nbatch - 1], VARSIZE(st->batch[st->nbatch - 1]));
		}
		MemoryContextReset(st->keycxt);
		old = MemoryContextSwitchTo(st->keycxt);
		st->batch = palloc(sizeof(bytea *) * CF_FDW_KEY_BATCH);
		st->nbatch = cfNextRowKeys(st->rel, from, from == NULL, st->batch, CF_FDW_KEY_BATCH);
		MemoryContextSwitchTo(old);
		st->nextbatch = 0;
		if (st->nbatch == 0)
			st->keys_done = true;
	}
	return st->nextbatch < st->nbatch ? st->batch[st->nextbatch++] : NULL;
}

/* Whether a name equals a skipped bound. */
static bool
is_skipped(const bytea *name, const bytea *skip)
{
	return skip != NULL && VARSIZE_ANY_EXHDR(name) == VARSIZE_ANY_EXHDR(skip) &&
		memcmp(VARDATA_ANY(name), VARDATA_ANY(skip), VARSIZE_ANY_EXHDR(skip)) == 0;
}

/* The next cell the scan returns; false at the end. */
static bool
next_cell(ForeignScanState *node, CfFdwScanState *st, CfOutCell *c)
{
	Snapshot	snapshot = node->ss.ps.state->es_snapshot;

	for (;;)
	{
		if (st->full != NULL)
			return cfRelScanNext(st->full, c);
		if (st->slice != NULL)
		{
			if (cfSliceNext(st->slice, c))
			{
				if (is_skipped(c->name, st->skip_lo) || is_skipped(c->name, st->skip_hi))
					continue;
				return true;
			}
			cfSliceEnd(st->slice);
			st->slice = NULL;
		}
		if (st->keymode == CF_FDW_KEY_NONE && !st->walk_keys)
		{
			MemoryContext old = MemoryContextSwitchTo(st->cxt);

			st->full = cfRelScanBegin(st->rel, snapshot);
			MemoryContextSwitchTo(old);
			continue;
		}
		{
			bytea	   *key = next_key(st);
			MemoryContext old;

			if (key == NULL)
				return false;
			old = MemoryContextSwitchTo(st->cxt);
			st->spec.key = key;
			st->slice = cfSliceBegin(st->rel, &st->spec, snapshot);
			MemoryContextSwitchTo(old);
		}
	}
}

/*
 * Whether cell c belongs to the CQL row whose first cell is first: the same
 * row key and, in a sparse table, the same clustering values (the first
 * nname components of the name).
 */
static bool
same_cql_row(const CfFdwTable *t, const CfOutCell *first, const CfOutCell *c)
{
	int			len[2] = {0, 0};
	const bytea *names[2] = {first->name, c->name};

	if (VARSIZE_ANY_EXHDR(first->key) != VARSIZE_ANY_EXHDR(c->key) ||
		memcmp(VARDATA_ANY(first->key), VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key)) != 0)
		return false;
	if (t->rows == CF_FDW_ROWS_STATIC)
		return true;
	/* the bytes of the clustering components */
	for (int k = 0; k < 2; k++)
	{
		const uint8 *d = (const uint8 *) VARDATA_ANY(names[k]);
		int			n = VARSIZE_ANY_EXHDR(names[k]);

		for (int comp = 0; comp < t->nname && len[k] + 3 <= n; comp++)
			len[k] += 2 + ((d[len[k]] << 8) | d[len[k] + 1]) + 1;
	}
	return len[0] == len[1] && memcmp(VARDATA_ANY(first->name), VARDATA_ANY(c->name), len[0]) == 0;
}

/* A copy of a varlena in the current context. */
static bytea *
copy_bytes(const bytea *b)
{
	return b == NULL ? NULL : cfMakeBytea(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
}

/*
 * Keep cell c beyond the next cfSliceNext, which may reuse the memory of
 * what it returned: its key, name and value copied into the current
 * context.
 */
static void
keep_cell(CfOutCell *c)
{
	c->key = copy_bytes(c->key);
	c->name = copy_bytes(c->name);
	c->value = copy_bytes(c->value);
	c->sc = copy_bytes(c->sc);
}

/*
 * Set the columns of a CQL row that cell c holds the value of (and keep
 * the cell for the object column, which all of them make).
 */
static bool
take_cql_cell(CfFdwScanState *st, const CfOutCell *c)
{
	const CfFdwTable *t = st->t;
	const uint8 *name = (const uint8 *) VARDATA_ANY(c->name);
	int			namelen = VARSIZE_ANY_EXHDR(c->name);
	bool		taken = false;

	if (st->objshape != NULL)
	{
		CfObjCell  *oc = palloc(sizeof(CfObjCell));

		oc->name = copy_bytes(c->name);
		oc->value = copy_bytes(c->value);
		oc->writetime = c->writetime;
		st->objcells = lappend(st->objcells, oc);
	}

	if (t->rows == CF_FDW_ROWS_SPARSE &&
		!cfCompositeComponent(name, namelen, t->nname, &name, &namelen))
		return false;
	for (int i = 0; i < t->natts; i++)
	{
		const CfFdwColumn *col = &t->cols[i];

		if (col->role != CF_FDW_CELL || (int) VARSIZE_ANY_EXHDR(col->cell_name) != namelen ||
			memcmp(VARDATA_ANY(col->cell_name), name, namelen) != 0)
			continue;
		taken = true;
		if (st->needed[i])
			st->values[i] = cfFdwToDatum(t, col, (const uint8 *) VARDATA_ANY(c->value),
										 VARSIZE_ANY_EXHDR(c->value), name, namelen, &st->nulls[i]);
	}
	return taken;
}

/*
 * The next CQL row of a table whose rows are several cells (sparse: the
 * cells sharing the row key and clustering values; static: the cells of a
 * row key) into st->values; false at the end.  A static row whose declared
 * columns have no live cell is no row (Cassandra 1.2).  The row's values
 * live in one of two contexts taken in turn, so the previous row stays
 * valid while this one is read.
 */
static bool
next_cql_row(ForeignScanState *node, CfFdwScanState *st)
{
	MemoryContext old;
	bool		found = true;

	if (st->t->object_att != 0 && st->needed[st->t->object_att - 1] && st->objshape == NULL)
	{
		old = MemoryContextSwitchTo(node->ss.ps.state->es_query_cxt);
		st->objshape = cfObjShapeOf(st->t->cf->keyspace, st->t->cf->name);
		MemoryContextSwitchTo(old);
	}
	st->currow ^= 1;
	MemoryContextReset(st->rowcxt[st->currow]);
	old = MemoryContextSwitchTo(st->rowcxt[st->currow]);
	st->objcells = NIL;
	for (;;)
	{
		CfOutCell	first;
		CfOutCell	c;
		bool		any;

		if (st->has_pending)
		{
			first = st->pending;
			st->has_pending = false;
		}
		else if (next_cell(node, st, &first))
		{
			st->cells_read++;
			keep_cell(&first);
		}
		else
		{
			found = false;
			break;
		}
		cfFdwFillSlot(st->t, &first, st->needed, st->values, st->nulls);
		any = take_cql_cell(st, &first);
		while (next_cell(node, st, &c))
		{
			st->cells_read++;
			if (!same_cql_row(st->t, &first, &c))
			{
				keep_cell(&c);
				st->pending = c;
				st->has_pending = true;
				break;
			}
			any |= take_cql_cell(st, &c);
		}
		if (any || st->t->rows == CF_FDW_ROWS_SPARSE)
		{
			if (st->objshape != NULL)
			{
				st->values[st->t->object_att - 1] = JsonbPGetDatum(cfObjBuild(st->objshape, first.key, st->objcells));
				st->nulls[st->t->object_att - 1] = false;
			}
			break;
		}
		st->objcells = NIL;
		CHECK_FOR_INTERRUPTS();
	}
	MemoryContextSwitchTo(old);
	return found;
}

/* IterateForeignScan: the next row, or an empty slot. */
TupleTableSlot *
cfFdwIterateForeignScan(ForeignScanState *node)
{
	CfFdwScanState *st = (CfFdwScanState *) node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	CfOutCell	c;
	bool		found;
	int64		before;

	ExecClearTuple(slot);
	if (!st->started)
		scan_start(node, st);
	if (st->empty || (st->limit >= 0 && st->returned >= st->limit))
		return slot;
	before = pgBufferUsage.shared_blks_hit + pgBufferUsage.shared_blks_read;
	if (st->rowcxt[0] != NULL)
		found = next_cql_row(node, st);
	else
	{
		found = next_cell(node, st, &c);
		if (found)
		{
			st->cells_read++;
			cfFdwFillSlot(st->t, &c, st->needed, st->values, st->nulls);
		}
	}
	st->pages += pgBufferUsage.shared_blks_hit + pgBufferUsage.shared_blks_read - before;
	if (!found)
		return slot;
	st->returned++;
	if (st->relation_row)
	{
		memcpy(slot->tts_values, st->values, sizeof(Datum) * st->t->natts);
		memcpy(slot->tts_isnull, st->nulls, sizeof(bool) * st->t->natts);
	}
	else
		for (int i = 0; i < st->nattnums; i++)
		{
			slot->tts_values[i] = st->values[st->attnums[i] - 1];
			slot->tts_isnull[i] = st->nulls[st->attnums[i] - 1];
		}
	return ExecStoreVirtualTuple(slot);
}

/* End what one execution opened. */
static void
scan_stop(CfFdwScanState *st)
{
	if (st->slice != NULL)
		cfSliceEnd(st->slice);
	if (st->full != NULL)
		cfRelScanEnd(st->full);
	st->slice = NULL;
	st->full = NULL;
	st->started = st->empty = st->keys_done = st->walk_keys = false;
	st->keys = st->batch = NULL;
	st->nkeys = st->nextkey = st->nbatch = st->nextbatch = 0;
	st->skip_lo = st->skip_hi = NULL;
	st->returned = 0;
	st->has_pending = false;
	if (st->cxt != NULL)
	{
		MemoryContextReset(st->cxt);
		MemoryContextReset(st->keycxt);
	}
}

/* ReScanForeignScan: start over, with the parameters' new values. */
void
cfFdwReScanForeignScan(ForeignScanState *node)
{
	scan_stop((CfFdwScanState *) node->fdw_state);
}

/* EndForeignScan. */
void
cfFdwEndForeignScan(ForeignScanState *node)
{
	CfFdwScanState *st = (CfFdwScanState *) node->fdw_state;

	if (st == NULL || st->rel == NULL)
		return;
	scan_stop(st);
	table_close(st->rel, NoLock);
}

/* The pushed clauses of one kind, deparsed and joined by AND; NULL if none. */
static char *
pushed_text(ForeignScanState *node, List *context, int kind)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	List	   *kinds = list_nth(plan->fdw_private, CF_FDW_PRIV_KINDS);
	StringInfoData buf;
	ListCell   *lc,
			   *lk;

	initStringInfo(&buf);
	forboth(lc, plan->fdw_recheck_quals, lk, kinds)
	{
		if (lfirst_int(lk) != kind)
			continue;
		if (buf.len > 0)
			appendStringInfoString(&buf, " AND ");
		appendStringInfoString(&buf, deparse_expression(lfirst(lc), context, true, false));
	}
	return buf.len > 0 ? buf.data : NULL;
}

/* ExplainForeignScan: what the storage engine does for this scan. */
void
cfFdwExplainForeignScan(ForeignScanState *node, ExplainState *es)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	CfFdwScanState *st = (CfFdwScanState *) node->fdw_state;
	List	   *context = set_deparse_context_plan(es->deparse_cxt, (Plan *) plan, NIL);
	char	   *s;

	ExplainPropertyText("CF Column Family", psprintf("%s.%s", st->t->cf->keyspace, st->t->cf->name), es);
	if (st->t->rows != CF_FDW_ROWS_CELLS)
		ExplainPropertyText("CF Rows", st->t->rows == CF_FDW_ROWS_SPARSE ? "CQL3, the cells of a clustering prefix each"
							: st->t->rows == CF_FDW_ROWS_STATIC ? "CQL3, the cells of a row key each"
							: "CQL3, a cell each", es);
	s = pushed_text(node, context, CF_FDW_PUSH_KEY);
	ExplainPropertyText("CF Key", s ? s : "all rows", es);
	if ((s = pushed_text(node, context, CF_FDW_PUSH_SC)) != NULL)
		ExplainPropertyText("CF Super Column", s, es);
	if ((s = pushed_text(node, context, CF_FDW_PUSH_NAME)) != NULL)
		ExplainPropertyText("CF Column Range", s, es);
	ExplainPropertyText("CF Direction", st->dir == 2 ? "backward" : "forward", es);
	if (st->limitx >= 0)
	{
		Node	   *limit = list_nth(plan->fdw_exprs, st->limitx);

		if (IsA(limit, Const) && !((Const *) limit)->constisnull)
			ExplainPropertyInteger("CF Limit", NULL, DatumGetInt64(((Const *) limit)->constvalue), es);
		else
			ExplainPropertyText("CF Limit", deparse_expression(limit, context, true, false), es);
	}
	if (es->analyze)
	{
		ExplainPropertyInteger("CF Cells Read", NULL, st->cells_read, es);
		ExplainPropertyInteger("CF Pages Touched", NULL, st->pages, es);
	}
}
