/*-------------------------------------------------------------------------
 *
 * cfcql_select.c
 *	  SELECT: CQL3 rows out of cells, with Cassandra 1.2's rules.
 *
 * Design.  The WHERE clause is checked as Cassandra 1.2's SelectStatement
 * checks it, then turned into a plan: which partitions (the keys of '=' and
 * IN on the partition key, the keys an index names for an '=' on an
 * indexed column, else every key in byte order, as cfstore's
 * ByteOrderedPartitioner-like placement lists them, bounded by token()
 * relations), and for each partition the slices of cell names that hold
 * the rows asked for.  A slice's bounds are inclusive and may hold a cell
 * too many; every row is checked against the restrictions before it is
 * kept, so bounds never decide correctness.  Cells are read with
 * _read_slice (the encodings, as the caller, with its privileges; on a
 * coordinator, from the shard servers),
 * a page at a time, and grouped into CQL rows as cfcql_schema.c describes;
 * reading stops once LIMIT rows are kept.  Rows go out as jsonb objects.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

#include "api/cfapi.h"
#include "cql/cfcql.h"
#include "storage/cfstorage.h"
#include "storage/cfwrite.h"

/* Cells read per _read_slice call. */
#define CQL_PAGE 1000

/* A restriction on one column: =, a range, IN, as encoded values. */
typedef struct CqlRestriction
{
	CfCqlColumn *col;
	bytea	   *eq;				/* '=' (or a one-value IN) */
	List	   *in;				/* IN of several values */
	bytea	   *lo;
	bool		lo_incl;
	bytea	   *hi;
	bool		hi_incl;
} CqlRestriction;

/* A CQL row being built or kept: a value per table column. */
typedef struct CqlRow
{
	bytea	   *key;
	bytea	  **values;			/* NULL: null */
	int64	   *writetime;
	int32	   *ttl;			/* remaining seconds, 0: none */
	bool		exists;
	int			ord;			/* the order it was read in (a stable sort) */
} CqlRow;

typedef struct CqlSelect
{
	CfCqlStmt  *stmt;
	CfCqlTable *t;
	const char *keyspace;
	CqlRestriction *r;			/* one per table column */
	List	   *keys;			/* partitions to read (bytea), if named */
	bool		by_keys;
	bytea	   *index_value;	/* read the partitions an index names */
	const char *index_name;
	bytea	   *key_lo;			/* token() bounds on the row key */
	bool		key_lo_incl;
	bytea	   *key_hi;
	bool		key_hi_incl;
	int			neq;			/* clustering columns restricted by '=' */
	bool		reversed;
	int64		limit;
	List	   *rows;			/* kept rows (CqlRow) */
	bool		collect_all;	/* IN with ORDER BY: read all, sort, then trim */
	int64		now_s;
	CqlRow	   *cur;			/* the row being assembled */
	bytea	  **cur_prefix;
} CqlSelect;

static const char *const op_names[] = {"EQ", "LT", "LTE", "GT", "GTE", "IN"};

/* The type whose order the CQL values of a column follow. */
static int
compare_values(const CfCqlColumn *c, const bytea *a, const bytea *b)
{
	return cfTypeCompare(c->type, (const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a),
						 (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
}

/* Whether a value meets a restriction. */
static bool
restriction_holds(const CqlRestriction *r, const bytea *v)
{
	if (r->col == NULL)
		return true;
	if (v == NULL)
		return r->eq == NULL && r->in == NIL && r->lo == NULL && r->hi == NULL;
	if (r->eq && compare_values(r->col, v, r->eq) != 0)
		return false;
	if (r->in != NIL)
	{
		ListCell   *lc;
		bool		found = false;

		foreach(lc, r->in)
			if (compare_values(r->col, v, lfirst(lc)) == 0)
				found = true;
		if (!found)
			return false;
	}
	if (r->lo)
	{
		int			c = compare_values(r->col, v, r->lo);

		if (c < 0 || (c == 0 && !r->lo_incl))
			return false;
	}
	if (r->hi)
	{
		int			c = compare_values(r->col, v, r->hi);

		if (c > 0 || (c == 0 && !r->hi_incl))
			return false;
	}
	return true;
}

/* Render a term for "Undefined name ... in where clause" messages. */
static char *
relation_text(const CfCqlRelation *rel)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (rel->op == CQL_IN)
	{
		ListCell   *lc;

		appendStringInfo(&buf, "%s IN [", rel->column);
		foreach(lc, rel->values)
		{
			CfCqlTerm  *term = lfirst(lc);

			appendStringInfo(&buf, "%s%s%s%s", foreach_current_index(lc) > 0 ? ", " : "",
							 term->kind == CQL_TERM_STRING ? "'" : "", term->text,
							 term->kind == CQL_TERM_STRING ? "'" : "");
		}
		appendStringInfoChar(&buf, ']');
	}
	else
		appendStringInfo(&buf, "%s %s %s%s%s", rel->column, op_names[rel->op],
						 rel->value->kind == CQL_TERM_STRING ? "'" : "", rel->value->text,
						 rel->value->kind == CQL_TERM_STRING ? "'" : "");
	return buf.data;
}

/* A restriction's value, not null. */
static bytea *
restriction_value(CfCqlColumn *c, CfCqlTerm *term)
{
	bytea	   *b = cfCqlTermBytes(term, c->type, c->name);

	if (b == NULL)
		cfInvalidRequest(c->kind == CQL_COL_PARTITION ? "Invalid null value for partition key part %s"
						 : "Invalid null clustering key part %s", c->name);
	return b;
}

/* Record the WHERE clause's relations as restrictions, checking each one. */
static void
take_relations(CqlSelect *q)
{
	ListCell   *lc;

	foreach(lc, q->stmt->where)
	{
		CfCqlRelation *rel = lfirst(lc);
		CfCqlColumn *c = cfCqlColumn(q->t, rel->column);
		CqlRestriction *r;

		if (c == NULL)
			cfInvalidRequest("Undefined name %s in where clause ('%s')", rel->column, relation_text(rel));
		if (c->kind == CQL_COL_VALUE)
			cfInvalidRequest("Restricting the value of a compact CF (%s) is not supported", c->name);
		r = &q->r[c - q->t->columns];
		r->col = c;
		if (rel->token)
		{
			bytea	   *v;

			if (c->kind != CQL_COL_PARTITION)
				cfInvalidRequest("The token() function is only supported on the partition key, found on %s", c->name);
			if (q->t->npartition > 1)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("token() on a composite partition key is not supported by cfstore")));
			v = restriction_value(c, rel->value);
			switch (rel->op)
			{
				case CQL_EQ:
					q->key_lo = q->key_hi = v;
					q->key_lo_incl = q->key_hi_incl = true;
					break;
				case CQL_GT:
				case CQL_GTE:
					if (q->key_lo)
						cfInvalidRequest("Invalid restrictions found on %s", c->name);
					q->key_lo = v;
					q->key_lo_incl = rel->op == CQL_GTE;
					break;
				default:
					if (q->key_hi)
						cfInvalidRequest("Invalid restrictions found on %s", c->name);
					q->key_hi = v;
					q->key_hi_incl = rel->op == CQL_LTE;
					break;
			}
			r->col = NULL;		/* the key range carries it */
			continue;
		}
		switch (rel->op)
		{
			case CQL_EQ:
				if (r->eq || r->in || r->lo || r->hi)
					cfInvalidRequest("%s cannot be restricted by more than one relation if it includes an Equal", c->name);
				r->eq = restriction_value(c, rel->value);
				break;
			case CQL_IN:
				if (r->eq || r->in || r->lo || r->hi)
					cfInvalidRequest("%s cannot be restricted by more than one reation if it includes a IN", c->name);
				if (c->kind == CQL_COL_REGULAR && list_length(rel->values) > 1)
					cfInvalidRequest("Cannot use IN operator on column not part of the PRIMARY KEY");
				if (list_length(rel->values) == 1)
					r->eq = restriction_value(c, linitial(rel->values));
				else
				{
					ListCell   *vc;

					foreach(vc, rel->values)
						r->in = lappend(r->in, restriction_value(c, lfirst(vc)));
				}
				break;
			case CQL_GT:
			case CQL_GTE:
				if (r->eq || r->in)
					cfInvalidRequest("%s cannot be restricted by both an equal and an inequal relation", c->name);
				if (r->lo)
					cfInvalidRequest("Invalid restrictions found on %s", c->name);
				r->lo = restriction_value(c, rel->value);
				r->lo_incl = rel->op == CQL_GTE;
				break;
			case CQL_LT:
			case CQL_LTE:
				if (r->eq || r->in)
					cfInvalidRequest("%s cannot be restricted by both an equal and an inequal relation", c->name);
				if (r->hi)
					cfInvalidRequest("Invalid restrictions found on %s", c->name);
				r->hi = restriction_value(c, rel->value);
				r->hi_incl = rel->op == CQL_LTE;
				break;
		}
	}
}

/* Which partitions, slices and order the restrictions ask for (SelectStatement's checks). */
static void
plan(CqlSelect *q)
{
	CfCqlTable *t = q->t;
	bool		keys_restricted = true;
	bool		any_key = false;
	bool		clustering_restricted = false;
	int			nregular = 0;
	CfCqlColumn *indexed_eq = NULL;
	ListCell   *lc;

	/* clustering columns: '=' on a prefix, then one slice, or IN on the last */
	q->neq = 0;
	for (int i = 0; i < t->nclustering; i++)
	{
		CqlRestriction *r = &q->r[t->npartition + i];

		if (r->col == NULL)
			continue;
		clustering_restricted = true;
		if (q->neq < i || (i > 0 && q->r[t->npartition + i - 1].col != NULL && q->r[t->npartition + i - 1].eq == NULL))
			cfInvalidRequest("PRIMARY KEY part %s cannot be restricted (preceding part %s is either not restricted or by a non-EQ relation)",
							 r->col->name, t->columns[t->npartition + i - 1].name);
		if (r->in != NIL && i != t->nclustering - 1)
			cfInvalidRequest("PRIMARY KEY part %s cannot be restricted by IN relation", r->col->name);
		if (r->eq)
			q->neq++;
	}

	/* the partition key: all '=' (the last may be IN), else a key range */
	for (int i = 0; i < t->npartition; i++)
	{
		CqlRestriction *r = &q->r[i];

		if (r->col == NULL)
		{
			keys_restricted = false;
			continue;
		}
		any_key = true;
		if (!keys_restricted)
			cfInvalidRequest("partition key part %s cannot be restricted (preceding part %s is either not restricted or by a non-EQ relation)",
							 r->col->name, t->columns[i - 1].name);
		if (r->in != NIL && i != t->npartition - 1)
			cfInvalidRequest("Partition KEY part %s cannot be restricted by IN relation (only the last part of the partition key can)",
							 r->col->name);
		if (r->lo || r->hi)
			cfInvalidRequest("Only EQ and IN relation are supported on the partition key for random partitioners (unless you use the token() function)");
	}
	if (any_key && q->key_lo == NULL && q->key_hi == NULL && !keys_restricted)
		cfInvalidRequest("Partition key part %s must be restricted since preceding part is",
						 t->columns[t->npartition - 1].name);
	if (any_key && (q->key_lo || q->key_hi))
		cfInvalidRequest("The token() function must be applied to all partition key components or none of them");
	q->by_keys = any_key && keys_restricted;

	/* regular columns: an '=' on an indexed one chooses the partitions */
	for (int i = 0; i < t->ncolumns; i++)
	{
		CqlRestriction *r = &q->r[i];

		if (r->col == NULL || r->col->kind != CQL_COL_REGULAR)
			continue;
		nregular++;
		if (r->eq && r->col->indexed && indexed_eq == NULL)
			indexed_eq = r->col;
	}
	if (nregular > 0)
	{
		if (indexed_eq == NULL)
			cfInvalidRequest("No indexed columns present in by-columns clause with Equal operator");
		if (q->by_keys && (q->r[t->npartition - 1].in != NIL))
			cfInvalidRequest("Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
		if (q->stmt->order_by != NIL)
			cfInvalidRequest("ORDER BY with 2ndary indexes is not supported.");
		q->index_value = q->r[indexed_eq - t->columns].eq;
		for (int j = 0; j < t->cf->ncolumns; j++)
			if (t->cf->columns[j].index_id != 0 &&
				VARSIZE_ANY_EXHDR(t->cf->columns[j].name) == VARSIZE_ANY_EXHDR(indexed_eq->cell_name) &&
				memcmp(VARDATA_ANY(t->cf->columns[j].name), VARDATA_ANY(indexed_eq->cell_name),
					   VARSIZE_ANY_EXHDR(indexed_eq->cell_name)) == 0)
				q->index_name = t->cf->columns[j].index_name;
	}
	if (!q->by_keys && !q->stmt->allow_filtering &&
		(nregular > 1 || (nregular == 0 && clustering_restricted)))
		cfInvalidRequest("Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING");

	/* ORDER BY: a prefix of the clustering columns, the table's order or its reverse */
	foreach(lc, q->stmt->order_by)
	{
		CfCqlOrder *o = lfirst(lc);
		CfCqlColumn *c = cfCqlColumn(t, o->column);
		bool		rev;

		if (!q->by_keys)
			cfInvalidRequest("ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
		if (c == NULL)
			cfInvalidRequest("Order by on unknown column %s", o->column);
		if (c->kind != CQL_COL_CLUSTERING)
			cfInvalidRequest("Order by is currently only supported on the clustered columns of the PRIMARY KEY, got %s",
							 o->column);
		if (c->position != foreach_current_index(lc))
			cfInvalidRequest("Order by currently only support the ordering of columns following their declared order in the PRIMARY KEY");
		rev = o->desc != c->reversed;
		if (foreach_current_index(lc) > 0 && rev != q->reversed)
			cfInvalidRequest("Unsupported order by relation");
		q->reversed = rev;
	}
	if (q->stmt->order_by != NIL && q->by_keys && q->r[t->npartition - 1].in != NIL)
	{
		if (!q->stmt->star && !q->stmt->count)
			foreach(lc, q->stmt->order_by)
			{
				ListCell   *sc;
				bool		found = false;

				foreach(sc, q->stmt->selectors)
					if (((CfCqlSelector *) lfirst(sc))->fn == 0 &&
						strcmp(((CfCqlSelector *) lfirst(sc))->column, ((CfCqlOrder *) lfirst(lc))->column) == 0)
						found = true;
				if (!found)
					cfInvalidRequest("ORDER BY could not be used on columns missing in select clause.");
			}
		q->collect_all = true;
	}
	/* an empty clustering range: Cassandra refuses an inverted one */
	if (q->neq < t->nclustering)
	{
		CqlRestriction *r = &q->r[t->npartition + q->neq];

		if (r->col && r->lo && r->hi)
		{
			int			c = compare_values(r->col, r->lo, r->hi);

			if (c > 0 || (c == 0 && !r->lo_incl && !r->hi_incl))
				cfInvalidRequest("Slice finish must come after start in traversal order");
		}
	}
}

/* The partitions named by the key restrictions, in IN order. */
static List *
named_keys(CqlSelect *q)
{
	CfCqlTable *t = q->t;
	List	   *lasts = q->r[t->npartition - 1].in != NIL ? q->r[t->npartition - 1].in
		: list_make1(q->r[t->npartition - 1].eq);
	List	   *keys = NIL;
	ListCell   *lc;

	foreach(lc, lasts)
	{
		bytea	   *key;

		if (t->npartition == 1)
			key = lfirst(lc);
		else
		{
			StringInfoData buf;

			initStringInfo(&buf);
			for (int i = 0; i < t->npartition; i++)
			{
				bytea	   *part = i == t->npartition - 1 ? lfirst(lc) : q->r[i].eq;

				cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(part), VARSIZE_ANY_EXHDR(part), 0);
			}
			key = cfMakeBytea(buf.data, buf.len);
		}
		if (VARSIZE_ANY_EXHDR(key) == 0)
			cfInvalidRequest("Key may not be empty");
		keys = lappend(keys, key);
	}
	return keys;
}

/* A new empty row of the table. */
static CqlRow *
new_row(CfCqlTable *t, bytea *key)
{
	CqlRow	   *row = palloc0(sizeof(CqlRow));

	row->key = key;
	row->values = palloc0(sizeof(bytea *) * t->ncolumns);
	row->writetime = palloc0(sizeof(int64) * t->ncolumns);
	row->ttl = palloc0(sizeof(int32) * t->ncolumns);
	if (t->npartition == 1)
		row->values[0] = key;
	else
	{
		const uint8 *parts[64];
		int			lens[64];
		int			n = cfCompositeSplit((const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key), 64, parts, lens, NULL);

		for (int i = 0; i < n && i < t->npartition; i++)
			row->values[i] = cfMakeBytea(parts[i], lens[i]);
	}
	return row;
}

/* Keep a finished row if it exists and meets every restriction; false once LIMIT rows are kept. */
static bool
keep_row(CqlSelect *q, CqlRow *row)
{
	CfCqlTable *t = q->t;

	if (row == NULL || !row->exists)
		return true;
	for (int i = t->npartition; i < t->ncolumns; i++)
		if (!restriction_holds(&q->r[i], row->values[i]))
			return true;
	row->ord = list_length(q->rows);
	q->rows = lappend(q->rows, row);
	return q->collect_all || list_length(q->rows) < q->limit;
}

/* Set column i of a row from a cell. */
static void
set_from_cell(CqlSelect *q, CqlRow *row, int i, bytea *value, int64 writetime, int64 expires_at)
{
	row->values[i] = value;
	row->writetime[i] = writetime;
	row->ttl[i] = expires_at > 0 && expires_at > q->now_s ? (int32) (expires_at - q->now_s) : 0;
}

/* Take one live cell of partition key into the row being assembled; false to stop reading. */
static bool
take_cell(CqlSelect *q, bytea *key, bytea *name, bytea *value, int64 writetime, int64 expires_at)
{
	CfCqlTable *t = q->t;
	const uint8 *parts[64];
	int			lens[64];
	int			n;

	if (!t->composite)
	{
		if (t->compact)
		{
			CqlRow	   *row = new_row(t, key);

			row->values[t->npartition] = name;
			if (t->value)
				set_from_cell(q, row, t->value - t->columns, value, writetime, expires_at);
			row->exists = true;
			return keep_row(q, row);
		}
		/* static: one row per partition */
		if (q->cur == NULL)
			q->cur = new_row(t, key);
		for (int i = t->npartition; i < t->ncolumns; i++)
		{
			CfCqlColumn *c = &t->columns[i];

			if (VARSIZE_ANY_EXHDR(c->cell_name) == VARSIZE_ANY_EXHDR(name) &&
				memcmp(VARDATA_ANY(c->cell_name), VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)) == 0)
			{
				set_from_cell(q, q->cur, i, value, writetime, expires_at);
				q->cur->exists = true;
			}
		}
		return true;
	}
	n = cfCompositeSplit((const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), 64, parts, lens, NULL);
	if (t->compact)
	{
		CqlRow	   *row;

		if (n < 1 || n > t->nclustering)
			return true;		/* not a name of this table */
		row = new_row(t, key);
		for (int i = 0; i < n; i++)
			row->values[t->npartition + i] = cfMakeBytea(parts[i], lens[i]);
		if (t->value)
			set_from_cell(q, row, t->value - t->columns, value, writetime, expires_at);
		row->exists = true;
		return keep_row(q, row);
	}
	/* sparse: cells sharing the clustering values make one row */
	if (n != t->nclustering + 1)
		return true;
	if (q->cur != NULL)
	{
		bool		same = true;

		for (int i = 0; i < t->nclustering && same; i++)
		{
			bytea	   *p = q->cur->values[t->npartition + i];

			same = (int) VARSIZE_ANY_EXHDR(p) == lens[i] && memcmp(VARDATA_ANY(p), parts[i], lens[i]) == 0;
		}
		if (!same)
		{
			CqlRow	   *done = q->cur;

			q->cur = NULL;
			if (!keep_row(q, done))
				return false;
		}
	}
	if (q->cur == NULL)
	{
		q->cur = new_row(t, key);
		for (int i = 0; i < t->nclustering; i++)
			q->cur->values[t->npartition + i] = cfMakeBytea(parts[i], lens[i]);
	}
	q->cur->exists = true;
	for (int i = t->npartition + t->nclustering; i < t->ncolumns; i++)
	{
		CfCqlColumn *c = &t->columns[i];

		if (c->kind == CQL_COL_REGULAR && (int) VARSIZE_ANY_EXHDR(c->cell_name) == lens[t->nclustering] &&
			memcmp(VARDATA_ANY(c->cell_name), parts[t->nclustering], lens[t->nclustering]) == 0)
			set_from_cell(q, q->cur, i, value, writetime, expires_at);
	}
	return true;
}

/* Finish the row being assembled at the end of a partition; false once LIMIT rows are kept. */
static bool
finish_partition(CqlSelect *q)
{
	CqlRow	   *done = q->cur;

	q->cur = NULL;
	return keep_row(q, done);
}

/* A composite bound: the prefix values, then v (if any), the last with end-of-component eoc. */
static bytea *
composite_bound(CqlSelect *q, int nprefix, bytea *v, int8 eoc)
{
	StringInfoData buf;
	CfCqlTable *t = q->t;

	if (!t->composite)
		return v ? v : nprefix > 0 ? q->r[t->npartition].eq : NULL;
	if (nprefix == 0 && v == NULL)
		return NULL;
	initStringInfo(&buf);
	for (int i = 0; i < nprefix; i++)
	{
		bytea	   *p = q->r[t->npartition + i].eq;

		cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(p), VARSIZE_ANY_EXHDR(p),
						  (v == NULL && i == nprefix - 1) ? eoc : 0);
	}
	if (v)
		cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), eoc);
	return cfMakeBytea(buf.data, buf.len);
}

/*
 * Read the cells between start and finish (storage order; inclusive) of
 * a partition, a page at a time, into rows; false once LIMIT rows are
 * kept.
 */
static bool
read_slice(CqlSelect *q, bytea *key, bytea *start, bytea *finish)
{
	Oid			types[10] = {TEXTOID, TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID, BOOLOID, INT8OID, BOOLOID};
	Datum		values[10];
	char		nulls[11] = "  n n      ";
	bytea	   *last = NULL;

	values[0] = CStringGetTextDatum(q->keyspace);
	values[1] = CStringGetTextDatum(q->t->cf->name);
	values[3] = PointerGetDatum(key);
	values[7] = BoolGetDatum(q->reversed);
	values[8] = Int64GetDatum(CQL_PAGE);
	values[9] = BoolGetDatum(false);
	for (;;)
	{
		bytea	   *from = last ? last : (q->reversed ? finish : start);
		bytea	   *to = q->reversed ? start : finish;
		uint64		n;

		/* reversed: start is the upper bound */
		values[5] = PointerGetDatum(from);
		nulls[5] = from ? ' ' : 'n';
		values[6] = PointerGetDatum(to);
		nulls[6] = to ? ' ' : 'n';
		if (SPI_execute_with_args("SELECT column_name, value, writetime, expires_at FROM "
								  "cfstore._read_slice($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
								  10, types, values, nulls, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not read a slice of %s", q->t->cf->name);
		n = SPI_processed;
		for (uint64 i = 0; i < n; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			TupleDesc	desc = SPI_tuptable->tupdesc;
			bool		isnull;
			bytea	   *name = DatumGetByteaPCopy(SPI_getbinval(tup, desc, 1, &isnull));
			bytea	   *value = DatumGetByteaPCopy(SPI_getbinval(tup, desc, 2, &isnull));
			int64		wt = DatumGetInt64(SPI_getbinval(tup, desc, 3, &isnull));
			int64		exp = DatumGetInt64(SPI_getbinval(tup, desc, 4, &isnull));

			if (last && i == 0 && VARSIZE_ANY_EXHDR(name) == VARSIZE_ANY_EXHDR(last) &&
				memcmp(VARDATA_ANY(name), VARDATA_ANY(last), VARSIZE_ANY_EXHDR(last)) == 0)
				continue;		/* the previous page's last cell */
			if (!take_cell(q, key, name, value, wt, exp))
				return false;
			if (i == n - 1)
				last = name;
		}
		if (n < CQL_PAGE)
			return true;
		CHECK_FOR_INTERRUPTS();
	}
}

/* Read the rows of one partition; false once LIMIT rows are kept. */
/* How in_value_cmp orders the values of an IN: a component's type and the query's direction. */
typedef struct CfInOrder
{
	const CfType *type;
	bool		reversed;
} CfInOrder;

/* Compare two IN values (pointers to them) in the order of a CfInOrder (qsort_arg). */
static int
in_value_cmp(const void *a, const void *b, void *arg)
{
	const CfInOrder *order = arg;
	const bytea *va = *(bytea *const *) a;
	const bytea *vb = *(bytea *const *) b;
	int			c = cfTypeCompare(order->type, (const uint8 *) VARDATA_ANY(va), VARSIZE_ANY_EXHDR(va),
								  (const uint8 *) VARDATA_ANY(vb), VARSIZE_ANY_EXHDR(vb));

	return order->reversed ? -c : c;
}

static bool
read_partition(CqlSelect *q, bytea *key)
{
	CfCqlTable *t = q->t;
	CqlRestriction *r = t->nclustering > q->neq ? &q->r[t->npartition + q->neq] : NULL;
	bool		more;

	if (t->nclustering == 0 || r == NULL || r->col == NULL)
	{
		/* an '=' prefix (or nothing): the names under it */
		more = read_slice(q, key, composite_bound(q, q->neq, NULL, 0),
						  composite_bound(q, q->neq, NULL, 1));
	}
	else if (r->in != NIL)
	{
		/* IN on the last clustering column: a slice per value, in storage order (compact: IN order) */
		List	   *vals = r->in;
		ListCell   *lc;

		if (!t->compact)
		{
			/*
			 * the names asked for, as a set (Cassandra 1.2's TreeSet): in the
			 * stored order, then the query's direction, each once
			 */
			CfInOrder	order = {t->composite ? t->cf->comparator->sub[r->col->position] : t->cf->comparator,
			q->reversed};
			int			n = list_length(r->in);
			bytea	  **arr = palloc(sizeof(bytea *) * n);

			foreach(lc, r->in)
				arr[foreach_current_index(lc)] = lfirst(lc);
			qsort_arg(arr, n, sizeof(bytea *), in_value_cmp, &order);
			vals = NIL;
			for (int i = 0; i < n; i++)
				if (i == 0 || in_value_cmp(&arr[i - 1], &arr[i], &order) != 0)
					vals = lappend(vals, arr[i]);
		}
		more = true;
		foreach(lc, vals)
		{
			bytea	   *v = lfirst(lc);

			more = read_slice(q, key, composite_bound(q, q->neq, v, 0), composite_bound(q, q->neq, v, 1));
			if (t->composite && more)
				more = finish_partition(q);
			if (!more)
				break;
		}
	}
	else
	{
		/* a range on the next clustering column, inclusive bounds (rows are checked later) */
		bytea	   *lo = r->col->reversed ? r->hi : r->lo;
		bytea	   *hi = r->col->reversed ? r->lo : r->hi;
		bytea	   *start = lo ? composite_bound(q, q->neq, lo, 0) : composite_bound(q, q->neq, NULL, 0);
		bytea	   *finish = hi ? composite_bound(q, q->neq, hi, 1) : composite_bound(q, q->neq, NULL, 1);

		more = read_slice(q, key, start, finish);
	}
	if (more)
		more = finish_partition(q);
	else
		q->cur = NULL;
	return more;
}

/* The next batch of row keys after from (inclusive if incl), in byte order. */
static List *
next_keys(CqlSelect *q, bytea *from, bool incl)
{
	Oid			types[5] = {TEXTOID, TEXTOID, BYTEAOID, BOOLOID, INT4OID};
	Datum		values[5];
	char		nulls[5] = "     ";
	List	   *keys = NIL;

	values[0] = CStringGetTextDatum(q->keyspace);
	values[1] = CStringGetTextDatum(q->t->cf->name);
	values[2] = PointerGetDatum(from);
	nulls[2] = from ? ' ' : 'n';
	values[3] = BoolGetDatum(incl);
	values[4] = Int32GetDatum(64);
	if (SPI_execute_with_args("SELECT k FROM cfstore._read_row_keys($1, $2, $3, $4, $5) k",
							  5, types, values, nulls, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list the row keys of %s", q->t->cf->name);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		keys = lappend(keys, DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull)));
	}
	return keys;
}

/* The row keys an index entry names for the value (its cells' names). */
static List *
index_keys(CqlSelect *q)
{
	Oid			types[10] = {TEXTOID, TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID, BOOLOID, INT8OID, BOOLOID};
	Datum		values[10];
	char		nulls[11] = "    nnn   ";
	List	   *keys = NIL;

	if (VARSIZE_ANY_EXHDR(q->index_value) == 0)
		return NIL;
	values[0] = CStringGetTextDatum(q->keyspace);
	values[1] = CStringGetTextDatum(q->t->cf->name);
	values[2] = CStringGetTextDatum(q->index_name);
	values[3] = PointerGetDatum(q->index_value);
	values[7] = BoolGetDatum(false);
	values[8] = Int64GetDatum(PG_INT64_MAX);
	values[9] = BoolGetDatum(false);
	if (SPI_execute_with_args("SELECT column_name FROM cfstore._read_slice($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
							  10, types, values, nulls, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read index %s", q->index_name);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		bytea	   *entry = DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
		const uint8 *key = (const uint8 *) VARDATA_ANY(entry);
		int			keylen = VARSIZE_ANY_EXHDR(entry);

		/* a CQL3 column's entry is (row key, cell name); a row's entries are together */
		if (q->t->composite && !cfCompositeComponent(key, keylen, 0, &key, &keylen))
			continue;
		if (keys != NIL && (int) VARSIZE_ANY_EXHDR(llast(keys)) == keylen &&
			memcmp(VARDATA_ANY(llast(keys)), key, keylen) == 0)
			continue;
		keys = lappend(keys, cfMakeBytea(key, keylen));
	}
	return keys;
}

/* Whether a row key is inside the token() bounds. */
static int
key_position(CqlSelect *q, bytea *key)
{
	if (q->key_lo)
	{
		int			c = cfBytesCompare((const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key),
									   (const uint8 *) VARDATA_ANY(q->key_lo), VARSIZE_ANY_EXHDR(q->key_lo));

		if (c < 0 || (c == 0 && !q->key_lo_incl))
			return -1;
	}
	if (q->key_hi)
	{
		int			c = cfBytesCompare((const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key),
									   (const uint8 *) VARDATA_ANY(q->key_hi), VARSIZE_ANY_EXHDR(q->key_hi));

		if (c > 0 || (c == 0 && !q->key_hi_incl))
			return 1;
	}
	return 0;
}

/* The stored order of clustering column i (ReversedType if declared DESC). */
static const CfType *
clustering_order_type(CfCqlTable *t, int i)
{
	return t->composite ? t->cf->comparator->sub[i] : t->cf->comparator;
}

/* Sort kept rows by the ORDER BY columns' stored order (IN with ORDER BY). */
static CqlSelect *sort_q;

static int
compare_rows(const ListCell *a, const ListCell *b)
{
	CqlRow	   *x = lfirst(a);
	CqlRow	   *y = lfirst(b);
	CfCqlTable *t = sort_q->t;

	for (int i = 0; i < list_length(sort_q->stmt->order_by); i++)
	{
		bytea	   *u = x->values[t->npartition + i];
		bytea	   *v = y->values[t->npartition + i];
		int			cmp;

		if (u == NULL || v == NULL)
			cmp = (u != NULL) - (v != NULL);
		else
			cmp = cfTypeCompare(clustering_order_type(t, i), (const uint8 *) VARDATA_ANY(u), VARSIZE_ANY_EXHDR(u),
								(const uint8 *) VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
		if (cmp != 0)
			return cmp;
	}
	return (x->ord > y->ord) - (x->ord < y->ord);
}

/* Push "name": value for one selected column of a row. */
static void
push_column(JsonbParseState **state, CfCqlTable *t, CqlRow *row, const char *alias, int i, char fn)
{
	JsonbValue	k;
	JsonbValue	v;

	k.type = jbvString;
	k.val.string.val = (char *) alias;
	k.val.string.len = strlen(alias);
	pushJsonbValue(state, WJB_KEY, &k);
	if (fn == 0)
	{
		bytea	   *b = row->values[i];

		cfCqlJsonValue(state, t->columns[i].type, b ? (const uint8 *) VARDATA_ANY(b) : NULL,
					   b ? VARSIZE_ANY_EXHDR(b) : 0);
		return;
	}
	if (row->values[i] == NULL || (fn == 't' && row->ttl[i] == 0))
	{
		v.type = jbvNull;
		pushJsonbValue(state, WJB_VALUE, &v);
		return;
	}
	v.type = jbvNumeric;
	v.val.numeric = fn == 'w' ? int64_to_numeric(row->writetime[i]) : int64_to_numeric(row->ttl[i]);
	pushJsonbValue(state, WJB_VALUE, &v);
}

/* Put one jsonb result row into the tuplestore. */
static void
put_json(Tuplestorestate *out, TupleDesc desc, JsonbValue *obj)
{
	Datum		value = JsonbPGetDatum(JsonbValueToJsonb(obj));
	bool		isnull = false;

	tuplestore_putvalues(out, desc, &value, &isnull);
}

/* Run a SELECT, putting a jsonb object per CQL row into out. */
void
cfCqlRunSelect(CfCqlStmt *stmt, const char *keyspace, Tuplestorestate *out, TupleDesc desc)
{
	CqlSelect	q;
	CfCqlTable *t;
	ListCell   *lc;
	int		   *sel_index;
	int			nsel;
	bool		sort_reversed = false;

	memset(&q, 0, sizeof(q));
	q.stmt = stmt;
	q.keyspace = cfCqlKeyspace(stmt, keyspace);
	q.t = t = cfCqlTable(q.keyspace, stmt->table);
	/* checked before anything can make the read empty (an empty index value, say) */
	if (pg_class_aclcheck(cfStorageRelid(t->cf->id, false), GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		cfPermissionDenied(t->cf, ACL_SELECT);
	if (stmt->has_limit && stmt->limit <= 0)
		cfInvalidRequest("LIMIT must be strictly positive");
	q.limit = stmt->has_limit ? stmt->limit : PG_INT64_MAX;
	q.now_s = (int64) (GetCurrentTimestamp() / USECS_PER_SEC) +
		(int64) ((POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY);

	/* the selection */
	nsel = stmt->star ? t->ncolumns : list_length(stmt->selectors);
	sel_index = palloc0(sizeof(int) * Max(nsel, 1));
	if (!stmt->star)
		foreach(lc, stmt->selectors)
		{
			CfCqlSelector *sel = lfirst(lc);
			CfCqlColumn *c = cfCqlColumn(t, sel->column);

			if (c == NULL)
				cfInvalidRequest("Undefined name %s in selection clause", sel->column);
			if (sel->fn != 0 && (c->kind == CQL_COL_PARTITION || c->kind == CQL_COL_CLUSTERING))
				cfInvalidRequest("Cannot use selection function %s on PRIMARY KEY part %s",
								 sel->fn == 'w' ? "writeTime" : "ttl", c->name);
			sel_index[foreach_current_index(lc)] = c - t->columns;
		}

	q.r = palloc0(sizeof(CqlRestriction) * t->ncolumns);
	take_relations(&q);
	plan(&q);

	/*
	 * read: rows sorted across partitions (IN with ORDER BY) are read
	 * forward, sorted, then reversed, as Cassandra 1.2 orders them
	 */
	if (q.collect_all && q.reversed)
	{
		q.reversed = false;
		sort_reversed = true;
	}
	if (q.by_keys && q.index_value == NULL)
	{
		foreach(lc, named_keys(&q))
		{
			if (!read_partition(&q, lfirst(lc)) && !q.collect_all)
				break;
		}
	}
	else if (q.index_value != NULL)
	{
		List	   *named = q.by_keys ? named_keys(&q) : NIL;

		foreach(lc, index_keys(&q))
		{
			bytea	   *key = lfirst(lc);
			ListCell   *nc;
			bool		wanted = named == NIL;

			foreach(nc, named)
				if (VARSIZE_ANY_EXHDR(key) == VARSIZE_ANY_EXHDR(lfirst(nc)) &&
					memcmp(VARDATA_ANY(key), VARDATA_ANY(lfirst(nc)), VARSIZE_ANY_EXHDR(key)) == 0)
					wanted = true;
			if (!wanted || key_position(&q, key) != 0)
				continue;
			if (!read_partition(&q, key))
				break;
		}
	}
	else
	{
		bytea	   *from = q.key_lo;
		bool		incl = q.key_lo == NULL || q.key_lo_incl;
		bool		more = true;

		while (more)
		{
			List	   *keys = next_keys(&q, from, incl);

			if (keys == NIL)
				break;
			foreach(lc, keys)
			{
				bytea	   *key = lfirst(lc);
				int			pos = key_position(&q, key);

				if (pos > 0)
				{
					more = false;
					break;
				}
				if (pos == 0 && !read_partition(&q, key))
				{
					more = false;
					break;
				}
			}
			from = llast(keys);
			incl = false;
			CHECK_FOR_INTERRUPTS();
		}
	}
	if (q.collect_all)
	{
		sort_q = &q;
		list_sort(q.rows, compare_rows);
		if (sort_reversed)
		{
			List	   *rev = NIL;

			foreach(lc, q.rows)
				rev = lcons(lfirst(lc), rev);
			q.rows = rev;
		}
		if (list_length(q.rows) > q.limit)
			q.rows = list_truncate(q.rows, (int) q.limit);
	}

	/* rows out */
	if (stmt->count)
	{
		JsonbParseState *state = NULL;
		JsonbValue	k,
					v;

		pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
		k.type = jbvString;
		k.val.string.val = "count";
		k.val.string.len = 5;
		pushJsonbValue(&state, WJB_KEY, &k);
		v.type = jbvNumeric;
		v.val.numeric = int64_to_numeric(list_length(q.rows));
		pushJsonbValue(&state, WJB_VALUE, &v);
		put_json(out, desc, pushJsonbValue(&state, WJB_END_OBJECT, NULL));
		return;
	}
	foreach(lc, q.rows)
	{
		CqlRow	   *row = lfirst(lc);
		JsonbParseState *state = NULL;
		JsonbValue *obj;

		pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
		if (stmt->star)
			for (int i = 0; i < t->ncolumns; i++)
				push_column(&state, t, row, t->columns[i].name, i, 0);
		else
		{
			ListCell   *sc;

			foreach(sc, stmt->selectors)
			{
				CfCqlSelector *sel = lfirst(sc);

				push_column(&state, t, row, sel->alias, sel_index[foreach_current_index(sc)], sel->fn);
			}
		}
		obj = pushJsonbValue(&state, WJB_END_OBJECT, NULL);
		put_json(out, desc, obj);
	}
}
