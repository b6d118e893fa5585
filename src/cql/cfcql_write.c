/*-------------------------------------------------------------------------
 *
 * cfcql_write.c
 *	  INSERT, UPDATE, DELETE and BATCH: the cells of CQL3 rows.
 *
 * Design.  A write names one CQL row or more (IN on the last part of the
 * partition key); every cell it writes carries the statement's one
 * timestamp (USING TIMESTAMP, else now) and TTL.  The cells are Cassandra
 * 1.2's (cfcql_schema.c): in a sparse table a column of a row is the cell
 * (clustering values..., column name), and INSERT and UPDATE also write
 * the row marker (clustering values..., '') with an empty value, so a row
 * whose columns are all null or deleted still exists (as Cassandra 1.2.4
 * does; counter tables get no marker, since a counter column family holds
 * counters only).  A null value is a tombstone for its cell.
 * In a compact table the row is one cell, named by the clustering values,
 * holding the value column; in a static column family each column is the
 * cell of that name.  DELETE of columns writes a tombstone per cell (the
 * marker stays, so the row shows with nulls).  DELETE of a whole row, or
 * of the rows under a partial clustering prefix, writes one range
 * tombstone over the prefix, as Cassandra 1.2 does (src/storage/cfrangedel.c;
 * a counter table a tombstone per live counter).  DELETE of a whole
 * partition is a row tombstone.  Counters are incremented with add().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"

#include "cql/cfcql.h"
#include "storage/cfwrite.h"

/* The maximum TTL (Cassandra's ExpiringColumn.MAX_TTL: 20 years). */
#define CQL_MAX_TTL 630720000

/* One CQL row's key: the encoded row key and the clustering values. */
typedef struct CqlRowKey
{
	bytea	   *key;
	int			nclust;
	bytea	  **clust;
} CqlRowKey;

/* What a write statement runs with: table, keyspace, timestamp, ttl. */
typedef struct CqlWriteCtx
{
	CfCqlTable *t;
	const char *keyspace;
	int64		timestamp;
	int32		ttl;			/* 0: none */
} CqlWriteCtx;

/* Run a statement over SPI and fail unless it ran. */
void
cfCqlCallVoid(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls)
{
	int			ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 0);

	if (ret < 0)
		elog(ERROR, "SPI_execute_with_args failed for \"%s\": %s", sql, SPI_result_code_string(ret));
}

/* The row key of the partition key values (a CompositeType key if several). */
static bytea *
row_key(CfCqlTable *t, bytea **parts)
{
	StringInfoData buf;

	if (t->npartition == 1)
		return parts[0];
	initStringInfo(&buf);
	for (int i = 0; i < t->npartition; i++)
		cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(parts[i]), VARSIZE_ANY_EXHDR(parts[i]), 0);
	return cfMakeBytea(buf.data, buf.len);
}

/*
 * A cell name: the clustering values and, in a sparse table, the column's
 * name (NULL: the row marker's empty one).  A compact table without
 * composite names has the one clustering value as its name; a static
 * column family the column's name.
 */
static bytea *
cell_name(CfCqlTable *t, bytea **clust, int nclust, const bytea *column)
{
	StringInfoData buf;

	if (!t->composite)
		return t->compact ? clust[0] : (bytea *) column;
	initStringInfo(&buf);
	for (int i = 0; i < nclust; i++)
		cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(clust[i]), VARSIZE_ANY_EXHDR(clust[i]), 0);
	if (!t->compact)
	{
		if (column)
			cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(column), VARSIZE_ANY_EXHDR(column), 0);
		else
			cfCompositeAppend(&buf, NULL, 0, 0);
	}
	return cfMakeBytea(buf.data, buf.len);
}

/* Write one cell with insert(), or increment a counter cell with add(). */
static void
write_cell(CqlWriteCtx *w, bytea *key, bytea *name, bytea *value)
{
	Oid			types[7] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, INT8OID, INT4OID};
	Datum		values[7];
	char		nulls[7] = "       ";

	values[0] = CStringGetTextDatum(w->keyspace);
	values[1] = CStringGetTextDatum(w->t->cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = PointerGetDatum(name);
	values[4] = PointerGetDatum(value);
	values[5] = Int64GetDatum(w->timestamp);
	values[6] = Int32GetDatum(w->ttl);
	if (w->ttl == 0)
		nulls[6] = 'n';
	cfCqlCallVoid("SELECT cfstore.insert($1, $2, $3, $4, $5, $6, $7)", 7, types, values, nulls);
}

/* Add delta (an 8-byte encoding) to a counter cell. */
static void
add_counter(CqlWriteCtx *w, bytea *key, bytea *name, int64 delta)
{
	Oid			types[5] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, INT8OID};
	Datum		values[5];

	values[0] = CStringGetTextDatum(w->keyspace);
	values[1] = CStringGetTextDatum(w->t->cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = PointerGetDatum(name);
	values[4] = Int64GetDatum(delta);
	cfCqlCallVoid("SELECT cfstore.add($1, $2, $3, $4, $5)", 5, types, values, NULL);
}

/* A tombstone for one cell (name) or the whole row (name NULL). */
static void
delete_cell(CqlWriteCtx *w, bytea *key, bytea *name)
{
	Oid			types[4] = {TEXTOID, TEXTOID, BYTEAOID, INT8OID};
	Datum		values[4];

	values[0] = CStringGetTextDatum(w->keyspace);
	values[1] = CStringGetTextDatum(w->t->cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = Int64GetDatum(w->timestamp);
	if (w->t->cf->is_counter)
	{
		types[3] = BYTEAOID;
		values[3] = PointerGetDatum(name);
		cfCqlCallVoid(name ? "SELECT cfstore.remove_counter($1, $2, $3, $4)"
					  : "SELECT cfstore.remove_counter($1, $2, $3)", name ? 4 : 3, types, values, NULL);
		return;
	}
	if (name == NULL)
	{
		cfCqlCallVoid("SELECT cfstore.remove($1, $2, $3, writetime => $4)", 4, types, values, NULL);
		return;
	}
	{
		Oid			t5[5] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, INT8OID};
		Datum		v5[5] = {values[0], values[1], values[2], PointerGetDatum(name), values[3]};

		cfCqlCallVoid("SELECT cfstore.remove($1, $2, $3, $4, writetime => $5)", 5, t5, v5, NULL);
	}
}

/*
 * The deletion of a CQL row, or of the rows under a partial clustering
 * prefix: as Cassandra 1.2, one range tombstone over every name that
 * starts with the prefix (so a write under the prefix older than the
 * DELETE stays deleted).  A counter table, whose column family holds
 * counters only, gets a tombstone for each of its live counters there.
 */
static void
delete_prefix(CqlWriteCtx *w, bytea *key, bytea **clust, int nclust)
{
	StringInfoData lo,
				hi;
	Oid			types[6] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, INT8OID};
	Datum		values[6];

	initStringInfo(&lo);
	initStringInfo(&hi);
	for (int i = 0; i < nclust; i++)
	{
		cfCompositeAppend(&lo, (const uint8 *) VARDATA_ANY(clust[i]), VARSIZE_ANY_EXHDR(clust[i]), 0);
		cfCompositeAppend(&hi, (const uint8 *) VARDATA_ANY(clust[i]), VARSIZE_ANY_EXHDR(clust[i]),
						  i == nclust - 1 ? 1 : 0);
	}
	values[0] = CStringGetTextDatum(w->keyspace);
	values[1] = CStringGetTextDatum(w->t->cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = PointerGetDatum(cfMakeBytea(lo.data, lo.len));
	values[4] = PointerGetDatum(cfMakeBytea(hi.data, hi.len));
	values[5] = Int64GetDatum(w->timestamp);
	cfCqlCallVoid(w->t->cf->is_counter
				  ? "SELECT cfstore.remove_counter($1, $2, $3, s.column_name) "
				  "FROM cfstore.get_slice($1, $2, $3, $4, $5, false, 2147483647) s"
				  : "SELECT cfstore._remove_range($1, $2, $3, $4, $5, $6)",
				  6, types, values, NULL);
}

/* A partition key part's value: not null, and the key not empty. */
static bytea *
key_part(CfCqlColumn *c, CfCqlTerm *term)
{
	bytea	   *b = cfCqlTermBytes(term, c->type, c->name);

	if (b == NULL)
		cfInvalidRequest("Invalid null value for partition key part %s", c->name);
	return b;
}

/* Find the relation on column c in a WHERE list, or NULL. */
static CfCqlRelation *
relation_on(List *where, const char *column)
{
	ListCell   *lc;
	CfCqlRelation *found = NULL;

	foreach(lc, where)
	{
		CfCqlRelation *r = lfirst(lc);

		if (strcmp(r->column, column) == 0)
			found = r;
	}
	return found;
}

/*
 * The CQL rows a write's WHERE clause names: every partition key part by
 * '=' (the last may be IN), then the clustering columns by '='; need_full
 * says whether all of them are required (else a prefix is taken).
 */
static List *
rows_of_where(CfCqlTable *t, List *where, bool need_full, int *nclust_out)
{
	ListCell   *lc;
	List	   *keys = NIL;
	bytea	  **parts = palloc0(sizeof(bytea *) * t->npartition);
	List	   *last_values = NIL;
	bytea	  **clust = palloc0(sizeof(bytea *) * Max(t->nclustering, 1));
	int			nclust = 0;
	bool		gap = false;

	foreach(lc, where)
	{
		CfCqlRelation *r = lfirst(lc);
		CfCqlColumn *c = cfCqlColumn(t, r->column);

		if (r->token)
			cfInvalidRequest("The token function cannot be used in WHERE clauses for UPDATE and DELETE statements");
		if (c == NULL)
			cfInvalidRequest("Unknown key identifier %s", r->column);
		if (c->kind != CQL_COL_PARTITION && c->kind != CQL_COL_CLUSTERING)
			cfInvalidRequest("Non PRIMARY KEY %s found in where clause", r->column);
		if (relation_on(where, r->column) != r)
			cfInvalidRequest("Multiple definitions found for PRIMARY KEY part %s", r->column);
		if (r->op != CQL_EQ && !(r->op == CQL_IN && c->kind == CQL_COL_PARTITION))
			cfInvalidRequest("Invalid operator %s for PRIMARY KEY part %s",
							 r->op == CQL_LT ? "LT" : r->op == CQL_LTE ? "LTE" : r->op == CQL_GT ? "GT"
							 : r->op == CQL_GTE ? "GTE" : "IN", r->column);
	}
	for (int i = 0; i < t->npartition; i++)
	{
		CfCqlColumn *c = &t->columns[i];
		CfCqlRelation *r = relation_on(where, c->name);

		if (r == NULL)
			cfInvalidRequest("Missing mandatory PRIMARY KEY part %s", c->name);
		if (r->op == CQL_IN)
		{
			ListCell   *vc;

			if (i != t->npartition - 1)
				cfInvalidRequest("IN is only supported on the last column of the partition key");
			foreach(vc, r->values)
				last_values = lappend(last_values, key_part(c, lfirst(vc)));
		}
		else
			parts[i] = key_part(c, r->value);
	}
	for (int i = 0; i < t->nclustering; i++)
	{
		CfCqlColumn *c = &t->columns[t->npartition + i];
		CfCqlRelation *r = relation_on(where, c->name);

		if (r == NULL)
		{
			if (need_full)
				cfInvalidRequest("Missing mandatory PRIMARY KEY part %s", c->name);
			gap = true;
			continue;
		}
		if (gap)
			cfInvalidRequest("Missing PRIMARY KEY part %s since %s is set", t->columns[t->npartition + i - 1].name,
							 c->name);
		clust[nclust] = cfCqlTermBytes(r->value, c->type, c->name);
		if (clust[nclust] == NULL)
			cfInvalidRequest("Invalid null value for clustering key part %s", c->name);
		nclust++;
	}
	if (last_values == NIL)
		last_values = list_make1(parts[t->npartition - 1]);
	foreach(lc, last_values)
	{
		CqlRowKey  *rk = palloc0(sizeof(CqlRowKey));

		parts[t->npartition - 1] = lfirst(lc);
		rk->key = row_key(t, parts);
		if (VARSIZE_ANY_EXHDR(rk->key) == 0)
			cfInvalidRequest("Key may not be empty");
		if (VARSIZE_ANY_EXHDR(rk->key) > 0xFFFF)
			cfInvalidRequest("Key length of %d is longer than maximum of 65535", (int) VARSIZE_ANY_EXHDR(rk->key));
		rk->nclust = nclust;
		rk->clust = clust;
		keys = lappend(keys, rk);
	}
	*nclust_out = nclust;
	return keys;
}

/* Check USING TTL and TIMESTAMP and set the context from them. */
static void
using_clause(CqlWriteCtx *w, CfCqlStmt *stmt, int64 batch_timestamp, bool has_batch_timestamp)
{
	if (stmt->has_ttl)
	{
		if (stmt->ttl < 0)
			cfInvalidRequest("A TTL must be greater or equal to 0");
		if (stmt->ttl > CQL_MAX_TTL)
			cfInvalidRequest("ttl is too large. requested (" INT64_FORMAT ") maximum (%d)", stmt->ttl, CQL_MAX_TTL);
	}
	if (w->t->cf->is_counter && stmt->has_timestamp)
		cfInvalidRequest("Cannot provide custom timestamp for counter updates");
	if (w->t->cf->is_counter && stmt->has_ttl)
		cfInvalidRequest("Cannot provide custom TTL for counter updates");
	if (stmt->has_timestamp && has_batch_timestamp)
		cfInvalidRequest("Timestamp must be set either on BATCH or individual statements");
	w->ttl = stmt->has_ttl ? (int32) stmt->ttl : 0;
	if (stmt->has_timestamp)
		w->timestamp = stmt->timestamp;
	else if (has_batch_timestamp)
		w->timestamp = batch_timestamp;
}

/* The value of a column assignment, as bytes (counters: checked, then added). */
static void
set_column(CqlWriteCtx *w, CqlRowKey *rk, CfCqlColumn *c, CfCqlSet *s)
{
	bytea	   *name;
	bytea	   *value;

	if (c->kind == CQL_COL_VALUE)
		name = cell_name(w->t, rk->clust, rk->nclust, NULL);
	else
		name = cell_name(w->t, rk->clust, rk->nclust, c->cell_name);
	if (w->t->cf->is_counter)
	{
		bytea	   *delta;
		int64		d;

		if (s->op == '=')
			cfInvalidRequest("Cannot set the value of counter column %s (counters can only be incremented/decremented, not set)",
							 c->name);
		delta = cfCqlTermBytes(s->value, c->type, c->name);
		if (delta == NULL || VARSIZE_ANY_EXHDR(delta) != 8)
			cfInvalidRequest("Invalid null value for counter increment/decrement");
		d = (int64) cfReadBe64((const uint8 *) VARDATA_ANY(delta));
		if (s->op == '-')
		{
			if (d == PG_INT64_MIN)
				cfInvalidRequest("The negation of " INT64_FORMAT " overflows supported counter precision (signed 8 bytes integer)", d);
			d = -d;
		}
		add_counter(w, rk->key, name, d);
		return;
	}
	if (s->op != '=')
		cfInvalidRequest("Invalid operation (%s = %s %c %s) for non counter column %s", c->name, c->name, s->op,
						 s->value->text, c->name);
	value = cfCqlTermBytes(s->value, c->type, c->name);
	if (value == NULL)
		delete_cell(w, rk->key, name);
	else
		write_cell(w, rk->key, name, value);
}

/*
 * The CQL rows an INSERT or UPDATE writes: in a sparse composite table all
 * clustering columns are needed; a compact one takes a prefix of at least
 * one.
 */
static List *
rows_to_write(CfCqlTable *t, List *where)
{
	int			nclust;
	List	   *rows = rows_of_where(t, where, !t->compact, &nclust);

	if (t->compact && nclust == 0)
		cfInvalidRequest("Missing PRIMARY KEY part %s", t->columns[t->npartition].name);
	return rows;
}

/* Write one CQL row: its marker (sparse composite tables) and its columns. */
static void
write_row(CqlWriteCtx *w, CqlRowKey *rk, List *sets)
{
	CfCqlTable *t = w->t;
	ListCell   *sc;

	if (!t->compact && t->composite && !t->cf->is_counter)
		write_cell(w, rk->key, cell_name(t, rk->clust, rk->nclust, NULL), cfMakeBytea(NULL, 0));
	if (t->compact && t->value == NULL)
		write_cell(w, rk->key, cell_name(t, rk->clust, rk->nclust, NULL), cfMakeBytea(NULL, 0));
	foreach(sc, sets)
	{
		CfCqlSet   *s = lfirst(sc);

		set_column(w, rk, cfCqlColumn(t, s->column), s);
	}
}

/* INSERT INTO t (columns) VALUES (terms) [USING ...] */
static void
run_insert(CqlWriteCtx *w, CfCqlStmt *stmt)
{
	CfCqlTable *t = w->t;
	List	   *where = NIL;
	List	   *sets = NIL;
	ListCell   *lc,
			   *vc;
	List	   *rows;
	bool		has_value = false;

	if (t->cf->is_counter)
		cfInvalidRequest("INSERT statement are not allowed on counter tables, use UPDATE instead");
	if (list_length(stmt->insert_columns) != list_length(stmt->insert_values))
		cfInvalidRequest("Unmatched column names/values");
	forboth(lc, stmt->insert_columns, vc, stmt->insert_values)
	{
		char	   *name = lfirst(lc);
		CfCqlColumn *c = cfCqlColumn(t, name);
		ListCell   *lc2;

		if (c == NULL)
			cfInvalidRequest("Unknown identifier %s", name);
		foreach(lc2, stmt->insert_columns)
		{
			if (lc2 == lc)
				break;
			if (strcmp(lfirst(lc2), name) == 0)
				cfInvalidRequest("Multiple definitions found for column %s", name);
		}
		if (c->kind == CQL_COL_PARTITION || c->kind == CQL_COL_CLUSTERING)
		{
			CfCqlRelation *r = palloc0(sizeof(CfCqlRelation));

			r->column = name;
			r->op = CQL_EQ;
			r->value = lfirst(vc);
			where = lappend(where, r);
		}
		else
		{
			CfCqlSet   *s = palloc0(sizeof(CfCqlSet));

			s->column = name;
			s->op = '=';
			s->value = lfirst(vc);
			sets = lappend(sets, s);
			if (c->kind == CQL_COL_VALUE)
				has_value = true;
		}
	}
	rows = rows_to_write(t, where);
	if (t->value != NULL && !has_value)
		cfInvalidRequest("Missing mandatory column %s", t->value->name);
	foreach(lc, rows)
		write_row(w, lfirst(lc), sets);
}

/* UPDATE t [USING ...] SET ... WHERE ... */
static void
run_update(CqlWriteCtx *w, CfCqlStmt *stmt)
{
	CfCqlTable *t = w->t;
	ListCell   *lc;
	List	   *rows;

	foreach(lc, stmt->sets)
	{
		CfCqlSet   *s = lfirst(lc);
		CfCqlColumn *c = cfCqlColumn(t, s->column);
		ListCell   *lc2;

		if (c == NULL)
			cfInvalidRequest("Unknown identifier %s", s->column);
		if (c->kind == CQL_COL_PARTITION || c->kind == CQL_COL_CLUSTERING)
			cfInvalidRequest("PRIMARY KEY part %s found in SET part", s->column);
		foreach(lc2, stmt->sets)
			if (lc2 != lc && strcmp(((CfCqlSet *) lfirst(lc2))->column, s->column) == 0 &&
				(s->op == '=' || ((CfCqlSet *) lfirst(lc2))->op == '='))
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("Multiple incompatible setting of column %s", s->column)));
	}
	rows = rows_to_write(t, stmt->where);
	foreach(lc, rows)
		write_row(w, lfirst(lc), stmt->sets);
}

/* DELETE [columns] FROM t [USING TIMESTAMP n] WHERE ... */
static void
run_delete(CqlWriteCtx *w, CfCqlStmt *stmt)
{
	CfCqlTable *t = w->t;
	ListCell   *lc;
	List	   *rows;
	int			nclust;

	foreach(lc, stmt->delete_columns)
	{
		CfCqlColumn *c = cfCqlColumn(t, lfirst(lc));

		if (c == NULL)
			cfInvalidRequest("Unknown identifier %s", (char *) lfirst(lc));
		if (c->kind == CQL_COL_PARTITION || c->kind == CQL_COL_CLUSTERING)
			cfInvalidRequest("Invalid identifier %s for deletion (should not be a PRIMARY KEY part)", c->name);
	}
	rows = rows_of_where(t, stmt->where, false, &nclust);
	if (stmt->delete_columns != NIL && nclust < t->nclustering)
		cfInvalidRequest("Missing mandatory PRIMARY KEY part %s since %s specified",
						 t->columns[t->npartition + nclust].name, (char *) linitial(stmt->delete_columns));
	foreach(lc, rows)
	{
		CqlRowKey  *rk = lfirst(lc);
		ListCell   *dc;

		if (rk->nclust == 0 && stmt->delete_columns == NIL)
			delete_cell(w, rk->key, NULL);	/* the whole partition */
		else if (t->compact && rk->nclust == t->nclustering)
			delete_cell(w, rk->key, cell_name(t, rk->clust, rk->nclust, NULL));
		else if (stmt->delete_columns == NIL || t->compact)
			delete_prefix(w, rk->key, rk->clust, rk->nclust);
		else
			foreach(dc, stmt->delete_columns)
			{
				CfCqlColumn *c = cfCqlColumn(t, lfirst(dc));

				delete_cell(w, rk->key, cell_name(t, rk->clust, rk->nclust, c->cell_name));
			}
	}
}

/* Run one INSERT, UPDATE or DELETE (in a batch: with its timestamp). */
static void
run_one(CfCqlStmt *stmt, const char *keyspace, int64 now, bool has_batch_ts, int64 batch_ts,
		int batch_kind)
{
	CqlWriteCtx w;

	w.keyspace = cfCqlKeyspace(stmt, keyspace);
	w.t = cfCqlTable(w.keyspace, stmt->table);
	w.timestamp = now;
	using_clause(&w, stmt, batch_ts, has_batch_ts);
	if (batch_kind == 'c' && !w.t->cf->is_counter)
		cfInvalidRequest("Only counter mutations are allowed in COUNTER batches");
	if (batch_kind == 'l' && w.t->cf->is_counter)
		cfInvalidRequest("Counter mutations are only allowed in COUNTER batches");
	switch (stmt->kind)
	{
		case CQL_INSERT:
			run_insert(&w, stmt);
			break;
		case CQL_UPDATE:
			run_update(&w, stmt);
			break;
		case CQL_DELETE:
			run_delete(&w, stmt);
			break;
		default:
			elog(ERROR, "not a write statement: %d", (int) stmt->kind);
	}
}

/* Run INSERT, UPDATE, DELETE or BATCH; now is the statement's timestamp. */
void
cfCqlRunWrite(CfCqlStmt *stmt, const char *keyspace, int64 now)
{
	ListCell   *lc;

	if (stmt->kind != CQL_BATCH)
	{
		run_one(stmt, keyspace, now, false, 0, 0);
		return;
	}
	if (stmt->has_ttl)
		cfInvalidRequest("Global TTL on the BATCH statement is not supported.");
	foreach(lc, stmt->batch)
		run_one(lfirst(lc), keyspace, now, stmt->has_timestamp, stmt->timestamp,
				stmt->counter_batch ? 'c' : 'l');
}
