/*-------------------------------------------------------------------------
 *
 * cfindexed.c
 *	  get_indexed_slices: the rows whose columns satisfy index expressions
 *	  (README.md "Reading and writing", doc/semantics.md §8.6).
 *
 * One EQ expression on a column with a KEYS index chooses the rows: its
 * index row (src/storage/cfindex.c) lists the row keys that hold the
 * value, in key order, from start_key on.  Each candidate is then checked
 * against the row itself, with the call's snapshot, for every expression
 * (the indexed one too: index entries are hints, see cfindex.c), and a row
 * that qualifies returns the predicate's slice.  The cost follows the
 * number of rows the index lists for the value, never the size of the
 * column family.  Rows that return nothing do not count towards
 * key_count, as in get_range_slices.
 *
 * A candidate costs one read of its row when the predicate's range holds
 * the expressions' columns (the usual case: the whole row): the slice is
 * read once, and each expression is decided by the slice's own cells, on
 * its column or on the first column past it (then it has no live value).
 * The cells read before every expression is decided are held, and
 * returned once they all hold; the slice stops at the first that fails.
 * A column the predicate's range cannot hold is read by name before the
 * slice, and so is one the slice did not reach because its count ran out
 * (or because the cells held would outgrow work_mem).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/snapmgr.h"

#include "api/cfapi.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_get_indexed_slices);

/* get_indexed_slices's argument positions (sql/60_api.sql) */
#define ARG_EXPRESSIONS 2
#define ARG_START_KEY 3
#define ARG_KEY_COUNT 4
#define ARG_START 5
#define ARG_FINISH 6
#define ARG_REVERSED 7
#define ARG_COUNT 8
#define ARG_NO_SUPER_COLUMN 9	/* past the last: never given */

typedef enum CfIndexOp
{
	CF_OP_EQ,
	CF_OP_GTE,
	CF_OP_GT,
	CF_OP_LTE,
	CF_OP_LT
} CfIndexOp;

/* One index expression, converted. */
typedef struct CfIndexExpr
{
	bytea	   *name;
	CfIndexOp	op;
	bytea	   *value;
	const CfType *validator;
	const CfColumnDef *def;		/* the column's metadata, or NULL */
} CfIndexExpr;

/* The lowercase hex of some bytes, as Cassandra's bytesToHex writes them. */
static char *
hex(const char *data, int len)
{
	char	   *out = palloc(len * 2 + 1);

	for (int i = 0; i < len; i++)
		sprintf(out + i * 2, "%02x", (unsigned char) data[i]);
	out[len * 2] = '\0';
	return out;
}

/* The text of a scalar JSON member, or NULL if the member is absent or null. */
static char *
member_text(JsonbContainer *obj, const char *key, int *len)
{
	JsonbValue	v;

	if (getKeyJsonValueFromContainer(obj, key, strlen(key), &v) == NULL || v.type == jbvNull)
		return NULL;
	switch (v.type)
	{
		case jbvString:
			*len = v.val.string.len;
			return pnstrdup(v.val.string.val, v.val.string.len);
		case jbvNumeric:
			{
				char	   *s = DatumGetCString(DirectFunctionCall1(numeric_out,
																	NumericGetDatum(v.val.numeric)));

				*len = strlen(s);
				return s;
			}
		case jbvBool:
			*len = v.val.boolean ? 4 : 5;
			return pstrdup(v.val.boolean ? "true" : "false");
		default:
			cfInvalidRequest("index expression member \"%s\" must be a string, number or boolean", key);
	}
	return NULL;					/* not reached */
}

/*
 * The encoding of the text form str for type, or NULL with *msg set to the
 * conversion's error message.  The conversions only parse and allocate,
 * so catching their error here is safe.
 */
static bytea *
try_convert(const CfType *type, const char *str, char **msg)
{
	MemoryContext cxt = CurrentMemoryContext;
	bytea	   *result = NULL;

	PG_TRY();
	{
		result = cfTypeFromString(type, str);
	}
	PG_CATCH();
	{
		ErrorData  *err;

		MemoryContextSwitchTo(cxt);
		err = CopyErrorData();
		FlushErrorState();
		*msg = err->message;
		result = NULL;
	}
	PG_END_TRY();
	return result;
}

/*
 * Convert and validate the expressions (doc/semantics.md §8.6, in Cassandra's
 * order: each expression's name, then its value's length, then its value);
 * raise unless one is an EQ on an indexed column.
 */
static CfIndexExpr *
parse_expressions(FunctionCallInfo fcinfo, const CfColumnFamily *cf, int *nexprs)
{
	Jsonb	   *jb;
	int			n;
	CfIndexExpr *exprs;
	bool		indexed = false;

	if (cfArgIsNull(fcinfo, ARG_EXPRESSIONS))
		cfInvalidRequest("index clause list may not be empty");
	jb = PG_GETARG_JSONB_P(ARG_EXPRESSIONS);
	if (!JsonContainerIsArray(&jb->root) || JB_ROOT_IS_SCALAR(jb))
		cfInvalidRequest("expressions must be a JSON array of index expressions");
	n = JsonContainerSize(&jb->root);
	if (n == 0)
		cfInvalidRequest("index clause list may not be empty");
	exprs = palloc0(sizeof(CfIndexExpr) * n);
	for (int i = 0; i < n; i++)
	{
		JsonbValue *elem = getIthJsonbValueFromContainer(&jb->root, i);
		JsonbContainer *obj;
		char	   *name,
				   *op,
				   *value,
				   *msg = NULL;
		int			namelen = 0,
					oplen = 0,
					valuelen = 0;
		CfIndexExpr *e = &exprs[i];

		if (elem->type != jbvBinary || !JsonContainerIsObject(elem->val.binary.data))
			cfInvalidRequest("index expressions must be JSON objects with column_name, op and value");
		obj = elem->val.binary.data;
		name = member_text(obj, "column_name", &namelen);
		op = member_text(obj, "op", &oplen);
		value = member_text(obj, "value", &valuelen);
		if (name == NULL || op == NULL || value == NULL)
			cfInvalidRequest("index expressions must be JSON objects with column_name, op and value");
		if (strcmp(op, "EQ") == 0)
			e->op = CF_OP_EQ;
		else if (strcmp(op, "GTE") == 0)
			e->op = CF_OP_GTE;
		else if (strcmp(op, "GT") == 0)
			e->op = CF_OP_GT;
		else if (strcmp(op, "LTE") == 0)
			e->op = CF_OP_LTE;
		else if (strcmp(op, "LT") == 0)
			e->op = CF_OP_LT;
		else
			cfInvalidRequest("unknown index operator \"%s\" (expected EQ, GTE, GT, LTE or LT)", op);

		e->name = try_convert(cf->comparator, name, &msg);
		if (e->name != NULL && VARSIZE_ANY_EXHDR(e->name) == 0)
			msg = "column name must not be empty";
		if (msg != NULL)
			cfInvalidRequest("[%s]=[%s] failed name validation (%s)", hex(name, namelen), hex(value, valuelen), msg);
		e->def = cfCatalogColumn(cf, (const uint8 *) VARDATA_ANY(e->name), VARSIZE_ANY_EXHDR(e->name));
		e->validator = e->def != NULL ? e->def->validator : cf->default_validator;
		e->value = try_convert(e->validator, value, &msg);
		if (e->value != NULL && VARSIZE_ANY_EXHDR(e->value) > 0xFFFF)
			cfInvalidRequest("Index expression values may not be larger than 64K");
		if (msg != NULL)
			cfInvalidRequest("[%s]=[%s] failed value validation (%s)",
							 hex(VARDATA_ANY(e->name), VARSIZE_ANY_EXHDR(e->name)), hex(value, valuelen), msg);
		if (e->op == CF_OP_EQ && e->def != NULL && e->def->index_id != 0)
			indexed = true;
	}
	if (!indexed)
		cfInvalidRequest("No indexed columns present in index clause with operator EQ");
	*nexprs = n;
	return exprs;
}

/* Whether value, a live value of e's column, satisfies e (doc/semantics.md §8.6). */
static bool
expr_holds(const CfIndexExpr *e, const bytea *value)
{
	int			cmp = cfTypeCompare(e->validator,
									(const uint8 *) VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value),
									(const uint8 *) VARDATA_ANY(e->value), VARSIZE_ANY_EXHDR(e->value));

	switch (e->op)
	{
		case CF_OP_EQ:
			return cmp == 0;
		case CF_OP_GTE:
			return cmp >= 0;
		case CF_OP_GT:
			return cmp > 0;
		case CF_OP_LTE:
			return cmp <= 0;
		case CF_OP_LT:
			return cmp < 0;
	}
	return false;				/* not reached */
}

/* Whether row key has a live value of e's column that satisfies e: a read by name. */
static bool
expr_matches_by_name(CfTarget *t, const bytea *key, const CfIndexExpr *e, Snapshot snapshot)
{
	CfSliceSpec spec;
	CfSliceState *slice;
	CfOutCell	c;
	bool		ok;

	memset(&spec, 0, sizeof(spec));
	spec.key = (bytea *) key;
	spec.start = spec.finish = e->name;
	spec.count = 1;
	slice = cfSliceBegin(t->rel, &spec, snapshot);
	ok = cfSliceNext(slice, &c) && expr_holds(e, c.value);
	cfSliceEnd(slice);
	return ok;
}

/* A search in progress: the rows returned, and the expressions they must satisfy. */
typedef struct CfSearch
{
	CfRowsOut	out;

	/*
	 * The expressions: first nbyname on columns outside the predicate's
	 * range, read by name; then those the slice's cells decide, while open.
	 */
	const CfIndexExpr *exprs;
	int			nexprs;
	int			nbyname;
	bool	   *open;

	/* the cells of the row being read that wait for its expressions */
	CfOutCell  *held;
	int			nheld;
	int			maxheld;
	Size		heldbytes;
	bytea	   *heldkey;
	MemoryContext rowcxt;		/* the held cells' bytes, reset per row */
} CfSearch;

/* Compare two column names in the order of the predicate's slice. */
static int
slice_order(const CfSearch *sr, const bytea *a, const bytea *b)
{
	int			c = cfTypeCompare(sr->out.t->cf->comparator,
								  (const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a),
								  (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));

	c = (c > 0) - (c < 0);
	return sr->out.spec->reversed ? -c : c;
}

/*
 * Order the expressions of a search (a copy, in sr): those on columns the
 * predicate's range cannot hold first (they are read by name, before the
 * slice, so a row they reject is not sliced), then those its cells decide.
 */
static void
order_expressions(CfSearch *sr, const CfIndexExpr *exprs, int n)
{
	const CfSliceSpec *spec = sr->out.spec;
	CfIndexExpr *ordered = palloc(sizeof(CfIndexExpr) * n);
	bool	   *inrange = palloc(sizeof(bool) * n);
	int			next = 0;

	for (int i = 0; i < n; i++)
	{
		inrange[i] = (spec->start == NULL || slice_order(sr, exprs[i].name, spec->start) >= 0) &&
			(spec->finish == NULL || slice_order(sr, exprs[i].name, spec->finish) <= 0);
		if (!inrange[i])
			ordered[next++] = exprs[i];
	}
	sr->nbyname = next;
	for (int i = 0; i < n; i++)
		if (inrange[i])
			ordered[next++] = exprs[i];
	pfree(inrange);
	sr->exprs = ordered;
	sr->nexprs = n;
	sr->open = palloc(sizeof(bool) * n);
}

/* Keep a copy of a cell of the row being read until its expressions are decided. */
static void
hold_cell(CfSearch *sr, const CfOutCell *c)
{
	MemoryContext old;
	CfOutCell  *h;

	Assert(c->sc == NULL);
	if (sr->nheld == sr->maxheld)
	{
		/* the array serves every row: it lives beside rowcxt, not in it */
		sr->maxheld = Max(16, sr->maxheld * 2);
		sr->held = sr->held ? repalloc(sr->held, sizeof(CfOutCell) * sr->maxheld)
			: MemoryContextAlloc(MemoryContextGetParent(sr->rowcxt), sizeof(CfOutCell) * sr->maxheld);
	}
	old = MemoryContextSwitchTo(sr->rowcxt);
	if (sr->heldkey == NULL)
		sr->heldkey = cfMakeBytea(VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key));
	h = &sr->held[sr->nheld++];
	*h = *c;
	h->key = sr->heldkey;
	h->name = cfMakeBytea(VARDATA_ANY(c->name), VARSIZE_ANY_EXHDR(c->name));
	h->value = cfMakeBytea(VARDATA_ANY(c->value), VARSIZE_ANY_EXHDR(c->value));
	sr->heldbytes += VARSIZE_ANY(c->name) + VARSIZE_ANY(c->value) + sizeof(CfOutCell);
	MemoryContextSwitchTo(old);
}

/* Return the cells held, in the order they were read. */
static void
emit_held(CfSearch *sr)
{
	for (int i = 0; i < sr->nheld; i++)
		cfEmitCell(sr->out.fcinfo, sr->out.t->cf, &sr->held[i]);
	sr->nheld = 0;
}

/*
 * Decide the open expressions that cell c of the row's slice reaches:
 * those on its column, by its value, and those on a column it has passed,
 * which then has no live value.  False if one of them fails.
 */
static bool
check_cell(CfSearch *sr, const CfOutCell *c, int *nopen)
{
	for (int i = sr->nbyname; i < sr->nexprs; i++)
	{
		const CfIndexExpr *e = &sr->exprs[i];
		int			cmp;

		if (!sr->open[i])
			continue;
		cmp = slice_order(sr, c->name, e->name);
		if (cmp < 0)
			continue;			/* not reached yet */
		sr->open[i] = false;
		(*nopen)--;
		if (cmp > 0 || !expr_holds(e, c->value))
			return false;
	}
	return true;
}

/* Whether row key satisfies the open expressions, each read by name. */
static bool
open_match_by_name(CfSearch *sr, const bytea *key, Snapshot snapshot)
{
	for (int i = sr->nbyname; i < sr->nexprs; i++)
		if (sr->open[i] && !expr_matches_by_name(sr->out.t, key, &sr->exprs[i], snapshot))
			return false;
	return true;
}

/*
 * Emit the predicate's slice of a candidate row if it matches, reading the
 * row once where the slice holds the expressions' columns (see the file
 * header); true once key_count rows have been returned.
 */
static bool
search_row(bytea *key, void *arg)
{
	CfSearch   *sr = (CfSearch *) arg;
	Snapshot	snapshot = GetActiveSnapshot();
	CfSliceState *slice;
	CfOutCell	c;
	int			nopen = sr->nexprs - sr->nbyname;
	int64		items = 0;
	bool		fails = false;

	for (int i = 0; i < sr->nbyname; i++)
		if (!expr_matches_by_name(sr->out.t, key, &sr->exprs[i], snapshot))
			return false;

	for (int i = sr->nbyname; i < sr->nexprs; i++)
		sr->open[i] = true;
	sr->nheld = 0;
	sr->heldbytes = 0;
	sr->heldkey = NULL;
	MemoryContextReset(sr->rowcxt);
	sr->out.spec->key = key;
	slice = cfSliceBegin(sr->out.t->rel, sr->out.spec, snapshot);
	while (cfSliceNext(slice, &c))
	{
		CHECK_FOR_INTERRUPTS();
		items++;
		if (nopen > 0)
		{
			if (!check_cell(sr, &c, &nopen))
			{
				fails = true;
				break;
			}
			if (nopen > 0)
			{
				if (sr->heldbytes < (Size) work_mem * 1024)
				{
					hold_cell(sr, &c);
					continue;
				}
				/* too much to hold: decide the rest by name, then stream */
				if (!open_match_by_name(sr, key, snapshot))
				{
					fails = true;
					break;
				}
				nopen = 0;
			}
			emit_held(sr);
		}
		cfEmitCell(sr->out.fcinfo, sr->out.t->cf, &c);
	}
	cfSliceEnd(slice);
	if (fails)
		return false;
	if (nopen > 0)
	{
		/* the range ended before those columns (they are not live), or the count ran out */
		if (items < sr->out.spec->count || !open_match_by_name(sr, key, snapshot))
			return false;
		emit_held(sr);
	}
	return cfRowEmitted(&sr->out, items);
}

/* Follow the index of expression e from start_key. */
static void
follow_index(CfSearch *sr, const CfIndexExpr *e, bytea *start_key)
{
	Relation	ixrel = cfStorageOpen(cfStorageRelid(e->def->index_id, false), AccessShareLock);
	CfSliceSpec ixspec;
	CfSliceState *entries;
	CfOutCell	c;

	memset(&ixspec, 0, sizeof(ixspec));
	ixspec.key = e->value;
	ixspec.start = start_key;
	ixspec.count = PG_INT64_MAX;
	entries = cfSliceBegin(ixrel, &ixspec, GetActiveSnapshot());
	while (cfSliceNext(entries, &c))
	{
		if (search_row(c.name, sr))
			break;
		CHECK_FOR_INTERRUPTS();
	}
	cfSliceEnd(entries);
	table_close(ixrel, NoLock);
}

/*
 * get_indexed_slices(keyspace, column_family, expressions, start_key,
 *					  key_count, start, finish, reversed, count)
 */
Datum
cfstore_get_indexed_slices(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfSliceSpec spec;
	CfIndexExpr *exprs;
	int			nexprs;
	const CfIndexExpr *use = NULL;
	bytea	   *start_key;
	int32		key_count;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	cfSlicePredicate(fcinfo, t.cf, ARG_NO_SUPER_COLUMN, ARG_START, ARG_FINISH, ARG_REVERSED, ARG_COUNT,
					 &spec);
	exprs = parse_expressions(fcinfo, t.cf, &nexprs);
	start_key = cfArgBound(fcinfo, ARG_START_KEY, t.cf->key_validator, "start_key");
	key_count = cfArgIsNull(fcinfo, ARG_KEY_COUNT) ? 100 : PG_GETARG_INT32(ARG_KEY_COUNT);
	if (key_count <= 0)
		cfInvalidRequest("maxRows must be positive");

	cfBeginResult(fcinfo);
	if (spec.count > 0)
	{
		CfSearch	sr;

		Assert(!t.cf->is_super);	/* no indexes on Super column families */
		memset(&sr, 0, sizeof(sr));
		sr.out.fcinfo = fcinfo;
		sr.out.t = &t;
		sr.out.spec = &spec;
		sr.out.key_count = key_count;
		order_expressions(&sr, exprs, nexprs);
		sr.rowcxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore indexed row",
										  ALLOCSET_DEFAULT_SIZES);
		for (int i = 0; i < nexprs && use == NULL; i++)
			if (exprs[i].op == CF_OP_EQ && exprs[i].def != NULL && exprs[i].def->index_id != 0 &&
				VARSIZE_ANY_EXHDR(exprs[i].value) > 0)
				use = &exprs[i];
		if (use != NULL)
			follow_index(&sr, use, start_key);
		else
		{
			/* the only indexed EQ is on the empty value, which indexes do not hold */
			cfForEachRowKey(t.rel, start_key, search_row, &sr);
		}
		MemoryContextDelete(sr.rowcxt);
	}
	cfTargetClose(&t);
	return (Datum) 0;
}
