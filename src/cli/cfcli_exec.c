/*-------------------------------------------------------------------------
 *
 * cfcli_exec.c
 *	  Running cassandra-cli statements, and cfstore.cli(script).
 *
 * Each statement runs through the Thrift-style functions over SPI, in the
 * caller's transaction and as the caller, and prints what cassandra-cli
 * 1.2 prints on its standard output, a row per line, except the
 * "Elapsed time" lines, and schema statements print nothing (the cli
 * prints a schema version).  What the cli prints on its standard error
 * is an ERROR, and the whole call rolls back.  `use` lasts for the rest of
 * the script; so do `assume` and the column types a value function or
 * `get ... as` gives a column, as they last for the cli's session.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

#include "catalog/cfcatalog.h"
#include "cli/cfcli.h"
#include "cql/cfcql.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_cli);

/* A column's type set in this session: by `set ... = fn(x)` or `get ... as T`. */
typedef struct CliColumnType
{
	char	   *cf;
	bytea	   *name;
	CfType	   *type;
} CliColumnType;

static List *column_types = NIL;	/* of the running cli() call */

/* Append a line (or several, split at newlines) to the output. */
void
cfCliPrint(CliSession *s, const char *fmt,...)
{
	va_list		args;
	StringInfoData buf;
	char	   *line;
	char	   *nl;

	initStringInfo(&buf);
	for (;;)
	{
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&buf, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	line = buf.data;
	while ((nl = strchr(line, '\n')) != NULL)
	{
		s->lines = lappend(s->lines, pnstrdup(line, nl - line));
		line = nl + 1;
	}
	s->lines = lappend(s->lines, pstrdup(line));
}

/* The keyspace in use, or the cli's error. */
static const char *
need_keyspace(CliSession *s)
{
	if (s->keyspace == NULL)
		cfCliError("Not authorized to a working keyspace.");
	return s->keyspace;
}

/* Resolve a name among candidates: an exact match, else the one that matches in any case. */
static char *
resolve(List *names, const char *name)
{
	ListCell   *lc;
	char	   *found = NULL;
	int			n = 0;

	foreach(lc, names)
		if (strcmp(lfirst(lc), name) == 0)
			return lfirst(lc);
	foreach(lc, names)
		if (pg_strcasecmp(lfirst(lc), name) == 0)
		{
			found = lfirst(lc);
			n++;
		}
	return n == 1 ? found : NULL;
}

/* The names a catalog query returns (one text column). */
static List *
names_of(const char *sql, const char *arg)
{
	List	   *names = NIL;
	const char *args[1] = {arg};

	cfCqlRunText(sql, arg ? 1 : 0, args);
	for (uint64 i = 0; i < SPI_processed; i++)
		names = lappend(names, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
	return names;
}

/* A keyspace by the cli's rule, or its error. */
static char *
keyspace_named(const char *name)
{
	char	   *ks = resolve(names_of("SELECT name FROM cfstore.keyspace ORDER BY name", NULL), name);

	if (ks == NULL)
		cfCliError("Keyspace '%s' not found.", name);
	return ks;
}

/* A column family of the keyspace in use, by the cli's rule. */
static const CfColumnFamily *
column_family(CliSession *s, const char *name)
{
	const char *ks = need_keyspace(s);
	char	   *cf = resolve(names_of("SELECT name FROM cfstore.column_family WHERE keyspace = $1 ORDER BY name", ks),
							 name);
	const CfColumnFamily *def;

	if (cf == NULL || (def = cfCatalogLookup(ks, cf)) == NULL)
		cfCliError("%s not found in current keyspace.", name);
	return def;
}

/* An assumption of this session for a column family's element, or NULL. */
static CfType *
assumed(CliSession *s, const CfColumnFamily *cf, const char *element)
{
	ListCell   *lc;
	CfType	   *t = NULL;

	foreach(lc, s->assumptions)
	{
		List	   *a = lfirst(lc);

		if (strcmp(linitial(a), cf->name) == 0 && strcmp(lsecond(a), element) == 0)
			t = cfCliFormatType(lthird(a));
	}
	return t;
}

static const CfType *
key_type(CliSession *s, const CfColumnFamily *cf)
{
	CfType	   *t = assumed(s, cf, "KEYS");

	return t ? t : cf->key_validator;
}

static const CfType *
comparator(CliSession *s, const CfColumnFamily *cf)
{
	CfType	   *t = assumed(s, cf, "COMPARATOR");

	return t ? t : cf->comparator;
}

static const CfType *
subcomparator(CliSession *s, const CfColumnFamily *cf)
{
	CfType	   *t = assumed(s, cf, "SUB_COMPARATOR");

	return t ? t : cf->subcomparator;
}

/* The validator of a column's values: set in this session, its metadata, else the default. */
static const CfType *
value_type(CliSession *s, const CfColumnFamily *cf, const bytea *name)
{
	ListCell   *lc;
	const CfType *t = NULL;
	CfType	   *a;

	foreach(lc, column_types)
	{
		CliColumnType *c = lfirst(lc);

		if (strcmp(c->cf, cf->name) == 0 && VARSIZE_ANY_EXHDR(c->name) == VARSIZE_ANY_EXHDR(name) &&
			memcmp(VARDATA_ANY(c->name), VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)) == 0)
			t = c->type;
	}
	if (t)
		return t;
	if ((a = assumed(s, cf, "VALIDATOR")) != NULL)
	{
		const CfColumnDef *d = cfCatalogColumn(cf, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));

		return d ? d->validator : a;
	}
	return cfCatalogValueValidator(cf, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
}

/* Remember the type a column has from now on in this session. */
static void
set_column_type(const CfColumnFamily *cf, bytea *name, CfType *type)
{
	MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);
	CliColumnType *c = palloc(sizeof(CliColumnType));

	c->cf = pstrdup(cf->name);
	c->name = cfMakeBytea(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
	c->type = cfTypeCopy(type);
	column_types = lappend(column_types, c);
	MemoryContextSwitchTo(old);
}

/* Bytes of a key, column name or value term under type (a function call: its own). */
static bytea *
term_bytes(const CliTerm *t, const CfType *type, CfType **fntype)
{
	CfType	   *ft;
	bytea	   *b;

	if (t->fn)
	{
		b = cfCliFunction(t, &ft);
		if (fntype)
			*fntype = ft;
		return b;
	}
	if (fntype)
		*fntype = NULL;
	return cfCliFromString(type, t->text);
}

/* The text of a key as the cli prints it (RowKey:). */
static char *
key_text(CliSession *s, const CfColumnFamily *cf, const bytea *key)
{
	return cfCliToString(key_type(s, cf), (const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));
}

/* A cell read back: name, value, timestamp, ttl, counter. */
typedef struct CliCell
{
	bytea	   *sc;
	bytea	   *name;
	bytea	   *value;
	int64		writetime;
	int32		ttl;
	bool		counter;
} CliCell;

/* The live cells of a row (in a super column, or whole super columns), at most count items. */
static List *
read_cells(CliSession *s, const CfColumnFamily *cf, bytea *key, bytea *sc, bytea *start, bytea *finish,
		   bool reversed, int64 count)
{
	Oid			types[10] = {TEXTOID, TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID, BOOLOID, INT8OID, BOOLOID};
	Datum		values[10];
	char		nulls[11] = "  n       ";
	List	   *cells = NIL;

	values[0] = CStringGetTextDatum(need_keyspace(s));
	values[1] = CStringGetTextDatum(cf->name);
	values[3] = PointerGetDatum(key);
	values[4] = PointerGetDatum(sc);
	nulls[4] = sc ? ' ' : 'n';
	values[5] = PointerGetDatum(start);
	nulls[5] = start ? ' ' : 'n';
	values[6] = PointerGetDatum(finish);
	nulls[6] = finish ? ' ' : 'n';
	values[7] = BoolGetDatum(reversed);
	values[8] = Int64GetDatum(count);
	values[9] = BoolGetDatum(cf->is_super && sc == NULL);
	cfCqlCallVoid("SELECT super_column, column_name, value, writetime, ttl, is_counter "
		"FROM cfstore._read_slice($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", 10, types, values, nulls);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		CliCell    *c = palloc0(sizeof(CliCell));
		bool		isnull;
		Datum		d;

		d = SPI_getbinval(tup, desc, 1, &isnull);
		c->sc = isnull ? NULL : DatumGetByteaPCopy(d);
		c->name = DatumGetByteaPCopy(SPI_getbinval(tup, desc, 2, &isnull));
		c->value = DatumGetByteaPCopy(SPI_getbinval(tup, desc, 3, &isnull));
		c->writetime = DatumGetInt64(SPI_getbinval(tup, desc, 4, &isnull));
		c->ttl = DatumGetInt32(SPI_getbinval(tup, desc, 5, &isnull));
		c->counter = DatumGetBool(SPI_getbinval(tup, desc, 6, &isnull));
		cells = lappend(cells, c);
	}
	return cells;
}

/* "(column=..., value=..., timestamp=...)" or "(counter=..., value=...)" of a cell; names by names. */
static char *
cell_text(CliSession *s, const CfColumnFamily *cf, const CfType *names, const CliCell *c)
{
	const char *name = cfCliToString(names, (const uint8 *) VARDATA_ANY(c->name), VARSIZE_ANY_EXHDR(c->name));

	if (c->counter)
		return psprintf("(counter=%s, value=" INT64_FORMAT ")", name,
						(int64) cfReadBe64((const uint8 *) VARDATA_ANY(c->value)));
	return psprintf("(column=%s, value=%s, timestamp=" INT64_FORMAT "%s)", name,
					cfCliToString(value_type(s, cf, c->name), (const uint8 *) VARDATA_ANY(c->value),
								  VARSIZE_ANY_EXHDR(c->value)),
					c->writetime, c->ttl > 0 ? psprintf(", ttl=%d", c->ttl) : "");
}

/* Print the cells of a row: columns, or super columns with their subcolumns; the number of items. */
static int
print_cells(CliSession *s, const CfColumnFamily *cf, List *cells, bool in_super)
{
	ListCell   *lc;
	int			n = 0;
	StringInfoData sup;
	bytea	   *cur = NULL;

	initStringInfo(&sup);
	foreach(lc, cells)
	{
		CliCell    *c = lfirst(lc);

		if (!cf->is_super || in_super)
		{
			cfCliPrint(s, "=> %s", cell_text(s, cf, cf->is_super ? subcomparator(s, cf) : comparator(s, cf), c));
			n++;
			continue;
		}
		/* a new super column */
		if (cur == NULL || VARSIZE_ANY_EXHDR(cur) != VARSIZE_ANY_EXHDR(c->sc) ||
			memcmp(VARDATA_ANY(cur), VARDATA_ANY(c->sc), VARSIZE_ANY_EXHDR(cur)) != 0)
		{
			if (sup.len > 0)
				cfCliPrint(s, "%s)", sup.data);
			resetStringInfo(&sup);
			appendStringInfo(&sup, "=> (super_column=%s,",
							 cfCliToString(comparator(s, cf), (const uint8 *) VARDATA_ANY(c->sc), VARSIZE_ANY_EXHDR(c->sc)));
			cur = c->sc;
			n++;
		}
		appendStringInfo(&sup, "\n     %s", cell_text(s, cf, subcomparator(s, cf), c));
	}
	if (sup.len > 0)
		cfCliPrint(s, "%s)", sup.data);
	return n;
}

/* The bytes of a column spec: a super column under the comparator, a subcolumn under the subcomparator. */
static bytea *
spec_bytes(CliSession *s, const CfColumnFamily *cf, const CliTerm *t, bool sub, CfType **fntype)
{
	const CfType *type = sub ? subcomparator(s, cf) : comparator(s, cf);

	if (sub && type == NULL)
	{
		cfCliPrint(s, "Notice: defaulting to BytesType subcomparator for '%s'", cf->name);
		type = cfTypeParse("BytesType");
	}
	if (t->fn)
		return term_bytes(t, type, fntype);
	return cfCliFromString(type, t->text);
}

/* The current time in microseconds, as the cli stamps its writes (milliseconds * 1000). */
static int64
cli_now(void)
{
	return (cfNowMicros() / 1000) * 1000;
}

/* set CF[key][col] = value [with ttl = n] */
static void
run_set(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	bytea	   *sc = NULL;
	bytea	   *name;
	bytea	   *value;
	bytea	   *key;
	CfType	   *fntype;
	Oid			types[8] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, INT8OID, INT4OID, BYTEAOID};
	Datum		values[8];
	char		nulls[8] = "        ";
	int64		ttl = 0;

	if (st->nspecs == 0)
		cfCliError("No column name specified, (type 'help;' or '?' for help on syntax).");
	if (cf->is_super && st->nspecs == 1)
	{
		cfCliPrint(s, "Column family %s may only contain SuperColumns", st->name);
		return;
	}
	if (st->nspecs == 2)
	{
		sc = spec_bytes(s, cf, st->specs[0], false, NULL);
		name = spec_bytes(s, cf, st->specs[1], true, NULL);
	}
	else
		name = spec_bytes(s, cf, st->specs[0], false, NULL);
	if (st->value->fn)
	{
		value = cfCliFunction(st->value, &fntype);
		set_column_type(cf, name, fntype);
	}
	else
	{
		const CfColumnDef *d = cfCatalogColumn(cf, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
		char	   *volatile err = NULL;

		value = NULL;
		PG_TRY();
		{
			value = cfCliFromString(value_type(s, cf, name), st->value->text);
		}
		PG_CATCH();
		{
			ErrorData  *e;

			MemoryContextSwitchTo(CurTransactionContext);
			e = CopyErrorData();
			FlushErrorState();
			err = e->message;
		}
		PG_END_TRY();
		if (err != NULL)
		{
			/* the metadata path wraps the error once more; the default validator's is bare */
			if (d != NULL)
				cfCliError("java.lang.RuntimeException: %s", err);
			cfCliError("%s", err + strlen("org.apache.cassandra.db.marshal.MarshalException: "));
		}
	}
	if (st->ttl)
	{
		char	   *end;

		errno = 0;
		ttl = strtoi64(st->ttl, &end, 10);
		if (errno != 0 || ttl > PG_INT32_MAX)
			cfCliError("TTL '%s' is invalid, should be a positive integer.", st->ttl);
		if (ttl == 0)
			cfCliError("ttl must be positive");
	}
	key = term_bytes(st->key, key_type(s, cf), NULL);
	values[0] = CStringGetTextDatum(need_keyspace(s));
	values[1] = CStringGetTextDatum(cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = PointerGetDatum(name);
	values[4] = PointerGetDatum(value);
	values[5] = Int64GetDatum(cli_now());
	values[6] = Int32GetDatum((int32) ttl);
	nulls[6] = st->ttl ? ' ' : 'n';
	values[7] = PointerGetDatum(sc);
	nulls[7] = sc ? ' ' : 'n';
	cfCqlCallVoid("SELECT cfstore.insert($1, $2, $3, $4, $5, $6, $7, $8)", 8, types, values, nulls);
	cfCliPrint(s, "Value inserted.");
}

/* get CF[key] / CF[key][col] / SCF[key][sc] / SCF[key][sc][col] [as T] [limit n] */
static void
run_get(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	bytea	   *key;
	int64		limit = st->has_limit ? st->limit : 1000000;
	List	   *cells;

	if (st->has_limit && st->limit <= 0)
		cfCliError("LIMIT should be greater than zero.");
	key = term_bytes(st->key, key_type(s, cf), NULL);
	if (st->nspecs == 0 || (cf->is_super && st->nspecs == 1))
	{
		bytea	   *sc = st->nspecs == 1 ? spec_bytes(s, cf, st->specs[0], false, NULL) : NULL;
		int			n;

		cells = read_cells(s, cf, key, sc, NULL, NULL, false, limit);
		n = print_cells(s, cf, cells, sc != NULL);
		cfCliPrint(s, "Returned %d results.", n);
		return;
	}
	{
		bytea	   *sc = NULL;
		bytea	   *name;
		CliCell    *c;

		if (st->nspecs == 2)
		{
			sc = spec_bytes(s, cf, st->specs[0], false, NULL);
			name = spec_bytes(s, cf, st->specs[1], true, NULL);
		}
		else
			name = spec_bytes(s, cf, st->specs[0], false, NULL);
		if (st->as_type)
			set_column_type(cf, name, cfCliFormatType(st->as_type));
		cells = read_cells(s, cf, key, sc, name, name, false, 1);
		if (cells == NIL)
		{
			cfCliPrint(s, "Value was not found");
			return;
		}
		c = linitial(cells);
		cfCliPrint(s, "=> %s", cell_text(s, cf, cf->is_super ? subcomparator(s, cf) : comparator(s, cf), c));
	}
}

/* Print one row as list and get ... where print it; false if it has no live columns. */
static bool
print_row(CliSession *s, const CfColumnFamily *cf, bytea *key, int64 columns, bool reversed)
{
	List	   *cells = read_cells(s, cf, key, NULL, NULL, NULL, reversed, columns);

	if (cells == NIL)
		return false;			/* no live columns: no row (no range ghosts) */
	cfCliPrint(s, "-------------------");
	cfCliPrint(s, "RowKey: %s", key_text(s, cf, key));
	print_cells(s, cf, cells, false);
	return true;
}

/* The next row keys of a column family in storage order, after from (inclusive if incl). */
static List *
row_keys(CliSession *s, const CfColumnFamily *cf, bytea *from, bool incl)
{
	Oid			types[5] = {TEXTOID, TEXTOID, BYTEAOID, BOOLOID, INT4OID};
	Datum		values[5];
	char		nulls[5] = "     ";
	List	   *keys = NIL;

	values[0] = CStringGetTextDatum(need_keyspace(s));
	values[1] = CStringGetTextDatum(cf->name);
	values[2] = PointerGetDatum(from);
	nulls[2] = from ? ' ' : 'n';
	values[3] = BoolGetDatum(incl);
	values[4] = Int32GetDatum(64);
	cfCqlCallVoid("SELECT k FROM cfstore._read_row_keys($1, $2, $3, $4, $5) k", 5, types, values, nulls);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;

		keys = lappend(keys, DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull)));
	}
	return keys;
}

/* The "N Row(s) Returned." line. */
static void
rows_returned(CliSession *s, int n)
{
	cfCliPrint(s, "%s", "");
	cfCliPrint(s, "%d Row%s Returned.", n, n > 1 ? "s" : "");
}

/* list CF [start:end] [limit n] [columns m [reversed]] */
static void
run_list(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	int64		limit = st->limit;
	int64		columns = st->columns;
	CfType	   *keys = assumed(s, cf, "KEYS");
	bytea	   *start = NULL;
	bytea	   *end = NULL;
	bytea	   *from;
	bool		incl = true;
	int			n = 0;

	if (st->has_limit && st->limit <= 0)
	{
		cfCliPrint(s, "Invalid limit " INT64_FORMAT, st->limit);
		return;
	}
	if (!st->has_limit)
	{
		cfCliPrint(s, "Using default limit of 100");
		limit = 100;
	}
	if (!st->has_columns)
	{
		cfCliPrint(s, "Using default column limit of 100");
		columns = 100;
	}
	/* the range's keys: the assumed key type, else hex (not the key validator) */
	if (keys == NULL)
		keys = cfTypeParse("BytesType");
	if (st->range_start && st->range_start[0])
		start = cfCliFromString(keys, st->range_start);
	if (st->range_end && st->range_end[0])
		end = cfCliFromString(keys, st->range_end);
	from = start;
	while (n < limit)
	{
		List	   *batch = row_keys(s, cf, from, incl);
		ListCell   *lc;
		bool		done = batch == NIL;

		foreach(lc, batch)
		{
			bytea	   *key = lfirst(lc);

			if (end && cfBytesCompare((const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key),
									  (const uint8 *) VARDATA_ANY(end), VARSIZE_ANY_EXHDR(end)) > 0)
			{
				done = true;
				break;
			}
			if (columns > 0 ? print_row(s, cf, key, columns, st->reversed) : true)
			{
				if (columns == 0)
				{
					cfCliPrint(s, "-------------------");
					cfCliPrint(s, "RowKey: %s", key_text(s, cf, key));
				}
				if (++n >= limit)
					break;
			}
		}
		if (done || batch == NIL)
			break;
		from = llast(batch);
		incl = false;
		CHECK_FOR_INTERRUPTS();
	}
	rows_returned(s, n);
}

/* get CF where col op value [and ...] [limit n]: through the KEYS indexes */
static void
run_get_where(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	StringInfoData expr;
	ListCell   *lc;
	const char *args[4];
	List	   *keys = NIL;
	int			n = 0;

	if (st->has_limit && st->limit <= 0)
		cfCliError("LIMIT should be greater than zero.");
	initStringInfo(&expr);
	appendStringInfoChar(&expr, '[');
	foreach(lc, st->conds)
	{
		CliCond    *c = lfirst(lc);
		bytea	   *name = spec_bytes(s, cf, c->column, false, NULL);
		bytea	   *value = c->value->fn ? cfCliFunction(c->value, &(CfType *) {NULL})
			: cfCliFromString(value_type(s, cf, name), c->value->text);
		const CfType *vt = cfCatalogValueValidator(cf, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));

		if (expr.len > 1)
			appendStringInfoChar(&expr, ',');
		appendStringInfoString(&expr, "{\"column_name\":");
		escape_json(&expr, cfTypeToString(cf->comparator, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name)));
		appendStringInfo(&expr, ",\"op\":\"%s\",\"value\":", c->op);
		escape_json(&expr, cfTypeToString(vt, (const uint8 *) VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)));
		appendStringInfoChar(&expr, '}');
	}
	appendStringInfoChar(&expr, ']');
	args[0] = need_keyspace(s);
	args[1] = cf->name;
	args[2] = expr.data;
	args[3] = psprintf(INT64_FORMAT, st->has_limit ? st->limit : 100);
	cfCqlRunText("SELECT key FROM cfstore.get_indexed_slices($1, $2, $3::jsonb, key_count => $4::integer, count => 1)",
			 4, args);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *k = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);

		if (keys == NIL || strcmp(llast(keys), k) != 0)
			keys = lappend(keys, k);
	}
	/* in storage order of the keys */
	foreach(lc, keys)
	{
		bytea	   *key = cfTypeFromString(cf->key_validator, lfirst(lc));

		if (print_row(s, cf, key, 100, false))
			n++;
	}
	rows_returned(s, n);
}

/* count CF[key] / SCF[key][sc] */
static void
run_count(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	bytea	   *key = term_bytes(st->key, key_type(s, cf), NULL);
	bytea	   *sc = cf->is_super && st->nspecs >= 1 ? spec_bytes(s, cf, st->specs[0], false, NULL) : NULL;
	List	   *cells = read_cells(s, cf, key, sc, NULL, NULL, false, PG_INT64_MAX);
	int			n = 0;

	if (cf->is_super && sc == NULL)
	{
		ListCell   *lc;
		bytea	   *cur = NULL;

		foreach(lc, cells)
		{
			CliCell    *c = lfirst(lc);

			if (cur == NULL || VARSIZE_ANY_EXHDR(cur) != VARSIZE_ANY_EXHDR(c->sc) ||
				memcmp(VARDATA_ANY(cur), VARDATA_ANY(c->sc), VARSIZE_ANY_EXHDR(cur)) != 0)
				n++;
			cur = c->sc;
		}
	}
	else
		n = list_length(cells);
	cfCliPrint(s, "%d columns", n);
}

/* del CF[key] / CF[key][col] / SCF[key][sc] / SCF[key][sc][col] */
static void
run_del(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	bytea	   *key = term_bytes(st->key, key_type(s, cf), NULL);
	bytea	   *sc = NULL;
	bytea	   *name = NULL;
	Oid			types[6] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, INT8OID};
	Datum		values[6];
	char		nulls[6] = "      ";

	if (cf->is_super && st->nspecs >= 1)
	{
		sc = spec_bytes(s, cf, st->specs[0], false, NULL);
		if (st->nspecs == 2)
			name = spec_bytes(s, cf, st->specs[1], true, NULL);
	}
	else if (st->nspecs >= 1)
		name = spec_bytes(s, cf, st->specs[0], false, NULL);
	values[0] = CStringGetTextDatum(need_keyspace(s));
	values[1] = CStringGetTextDatum(cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = PointerGetDatum(name);
	nulls[3] = name ? ' ' : 'n';
	values[4] = PointerGetDatum(sc);
	nulls[4] = sc ? ' ' : 'n';
	values[5] = Int64GetDatum(cli_now());
	if (cf->is_counter)
		cfCqlCallVoid("SELECT cfstore.remove_counter($1, $2, $3, $4, $5)", 5, types, values, nulls);
	else
		cfCqlCallVoid("SELECT cfstore.remove($1, $2, $3, $4, $5, $6)", 6, types, values, nulls);
	cfCliPrint(s, "%s removed.", st->nspecs == 0 ? "row" : "column");
}

/* incr / decr CF[key][col] [by n] */
static void
run_incr(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	bytea	   *key;
	bytea	   *sc = NULL;
	bytea	   *name;
	int64		by = 1;
	Oid			types[6] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, INT8OID, BYTEAOID};
	Datum		values[6];
	char		nulls[6] = "      ";

	if (st->nspecs == 0)
	{
		cfCliPrint(s, "Invalid row, super column, or column specification.");
		return;
	}
	if (st->by)
	{
		char	   *end;

		errno = 0;
		by = strtoi64(st->by, &end, 10);
		if (errno != 0)
			cfCliError("'%s' is an invalid value, should be an integer.", st->by);
	}
	if (st->kind == CLI_DECR)
		by = -by;
	if (st->nspecs == 2)
	{
		sc = spec_bytes(s, cf, st->specs[0], false, NULL);
		name = spec_bytes(s, cf, st->specs[1], true, NULL);
	}
	else
		name = spec_bytes(s, cf, st->specs[0], false, NULL);
	key = term_bytes(st->key, key_type(s, cf), NULL);
	if (!cf->is_counter)
		cfCliError("invalid operation for non commutative columnfamily %s", cf->name);
	values[0] = CStringGetTextDatum(need_keyspace(s));
	values[1] = CStringGetTextDatum(cf->name);
	values[2] = PointerGetDatum(key);
	values[3] = PointerGetDatum(name);
	values[4] = Int64GetDatum(by);
	values[5] = PointerGetDatum(sc);
	nulls[5] = sc ? ' ' : 'n';
	cfCqlCallVoid("SELECT cfstore.add($1, $2, $3, $4, $5, $6)", 6, types, values, nulls);
	cfCliPrint(s, st->kind == CLI_INCR ? "Value incremented." : "Value decremented.");
}

/* assume CF keys|comparator|sub_comparator|validator as TYPE */
static void
run_assume(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	char	   *element = pstrdup(st->element);
	CfType	   *type = NULL;
	MemoryContext cxt = CurrentMemoryContext;

	for (char *c = element; *c; c++)
		*c = pg_ascii_toupper((unsigned char) *c);
	PG_TRY();
	{
		type = cfCliFormatType(st->as_type);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		type = NULL;
	}
	PG_END_TRY();
	if (type == NULL)
	{
		cfCliPrint(s, "Type '%s' was not found. Available: %s. Or any class which extends o.a.c.db.marshal.AbstractType.",
				   st->as_type, cf_cli_functions);
		return;
	}
	if (strcmp(element, "KEYS") != 0 && strcmp(element, "COMPARATOR") != 0 &&
		strcmp(element, "SUB_COMPARATOR") != 0 && strcmp(element, "VALIDATOR") != 0)
	{
		cfCliPrint(s, "'%s' is invalid. Available: VALIDATOR, COMPARATOR, KEYS, SUB_COMPARATOR.", element);
		return;
	}
	s->assumptions = lappend(s->assumptions, list_make3(pstrdup(cf->name), element, cfTypeName(type)));
	cfCliPrint(s, "Assumption for column family '%s' added successfully.", st->name);
}

/* The column_metadata JSON of a cli [{column_name: ..., ...}] array, names under names. */
static char *
metadata_json(const CliAttr *a, const CfType *names)
{
	StringInfoData buf;
	ListCell   *lc;

	if (!a->is_array)
		cfCliError("java.lang.RuntimeException: 'column_metadata' format - [{ k:v, k:v, ..}, { ... }, ...]");
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	foreach(lc, a->array)
	{
		CliAttr    *h = lfirst(lc);
		ListCell   *pc;
		volatile bool first = true;

		appendStringInfoString(&buf, buf.len > 1 ? ",{" : "{");
		foreach(pc, h->hash)
		{
			char	   *k = linitial((List *) lfirst(pc));
			CliAttr    *v = lsecond((List *) lfirst(pc));
			char	   *val = v->text;

			if (!first)
				appendStringInfoChar(&buf, ',');
			first = false;
			if (strcmp(k, "column_name") == 0)
			{
				char	   *err;
				bytea	   *b = cfCliParseValue(names, val, &err);

				if (b == NULL)
					cfCliError("java.lang.RuntimeException: org.apache.cassandra.db.marshal.MarshalException: %s",
							   err);
				val = cfTypeToString(names, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
			}
			else if (strcmp(k, "index_type") == 0)
			{
				if (strcmp(val, "0") == 0 || strcmp(val, "KEYS") == 0)
					val = "KEYS";
				else if (strcmp(val, "1") == 0 || strcmp(val, "CUSTOM") == 0 ||
						 strcmp(val, "2") == 0 || strcmp(val, "COMPOSITES") == 0)
					val = strcmp(val, "1") == 0 ? "CUSTOM" : strcmp(val, "2") == 0 ? "COMPOSITES" : val;
				else
					cfCliError("java.lang.RuntimeException: IndexType '%s' is unsupported.", val);
			}
			else if (strcmp(k, "validation_class") != 0 && strcmp(k, "index_name") != 0)
				cfCliError("java.lang.RuntimeException: Unsupported column_metadata pair given => %s: %s", k, val);
			escape_json(&buf, k);
			appendStringInfoChar(&buf, ':');
			escape_json(&buf, val);
		}
		appendStringInfoChar(&buf, '}');
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/*
 * The JSON object of a cli {k: v, ...} map (or [{k: v, ...}]), as
 * Cassandra's cli reads strategy and compression options: values as text.
 */
static char *
options_json(const CliAttr *a)
{
	const CliAttr *h = a->is_array ? (a->array ? linitial(a->array) : NULL) : a;
	StringInfoData buf;
	ListCell   *pc;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	if (h != NULL)
		foreach(pc, h->hash)
		{
			char	   *k = linitial((List *) lfirst(pc));
			CliAttr    *v = lsecond((List *) lfirst(pc));

			if (buf.len > 1)
				appendStringInfoChar(&buf, ',');
			escape_json(&buf, k);
			appendStringInfoChar(&buf, ':');
			escape_json(&buf, v->text ? v->text : "");
		}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* create / update column family name with ... */
static void
run_column_family(CliSession *s, CliStmt *st)
{
	const char *ks = need_keyspace(s);
	const CfColumnFamily *cf = NULL;
	const char *column_type = NULL;
	const char *cmp = NULL;
	const char *subcmp = NULL;
	const char *defcls = NULL;
	const char *keycls = NULL;
	const char *meta = NULL;
	const char *gc = NULL;
	const char *ttl = NULL;
	const char *comment = NULL;
	const char *compression = NULL;
	const char *args[12];
	ListCell   *lc;

	if (st->kind == CLI_UPDATE_CF)
		cf = column_family(s, st->name);
	foreach(lc, st->attrs)
	{
		CliAttr    *a = lfirst(lc);
		char	   *n = a->name;

		if (pg_strcasecmp(n, "column_type") == 0)
			column_type = a->text;
		else if (pg_strcasecmp(n, "comparator") == 0)
			cmp = a->text;
		else if (pg_strcasecmp(n, "subcomparator") == 0)
			subcmp = a->text;
		else if (pg_strcasecmp(n, "default_validation_class") == 0)
			defcls = a->text;
		else if (pg_strcasecmp(n, "key_validation_class") == 0)
			keycls = a->text;
		else if (pg_strcasecmp(n, "comment") == 0)
			comment = a->text;
		else if (pg_strcasecmp(n, "gc_grace") == 0 || pg_strcasecmp(n, "default_time_to_live") == 0)
		{
			char	   *end;

			errno = 0;
			(void) strtol(a->raw ? a->raw : "", &end, 10);
			if (a->raw == NULL || *end != '\0' || errno != 0)
				cfCliError("java.lang.NumberFormatException: For input string: \"%s\"", a->raw ? a->raw : "");
			if (pg_strcasecmp(n, "gc_grace") == 0)
				gc = a->raw;
			else
				ttl = a->raw;
		}
		else if (pg_strcasecmp(n, "column_metadata") == 0)
		{
			const CfType *names;

			/* names under the comparator as given so far (or the column family's) */
			if (cf != NULL)
				names = cf->is_super ? cf->subcomparator : cf->comparator;
			else if (column_type && strcmp(column_type, "Super") == 0)
				names = cfCliFormatType(subcmp ? subcmp : "BytesType");
			else
				names = cfCliFormatType(cmp ? cmp : "BytesType");
			meta = metadata_json(a, names);
		}
		else if (pg_strcasecmp(n, "read_repair_chance") == 0 || pg_strcasecmp(n, "dclocal_read_repair_chance") == 0)
		{
			double		d = strtod(a->raw ? a->raw : "x", NULL);

			if (d < 0 || d > 1)
				cfCliError("java.lang.RuntimeException: Error: %s must be between 0 and 1.", n);
		}
		else if (pg_strcasecmp(n, "compression_options") == 0)
			compression = options_json(a);
		else if (pg_strcasecmp(n, "compaction_strategy_options") == 0 ||
				 pg_strcasecmp(n, "memtable_operations") == 0 || pg_strcasecmp(n, "memtable_throughput") == 0 ||
				 pg_strcasecmp(n, "min_compaction_threshold") == 0 ||
				 pg_strcasecmp(n, "max_compaction_threshold") == 0 ||
				 pg_strcasecmp(n, "replicate_on_write") == 0 || pg_strcasecmp(n, "compaction_strategy") == 0 ||
				 pg_strcasecmp(n, "bloom_filter_fp_chance") == 0 || pg_strcasecmp(n, "caching") == 0 ||
				 pg_strcasecmp(n, "populate_io_cache_on_flush") == 0)
			continue;			/* Cassandra's storage tuning: nothing here to set */
		else
		{
			char	   *upper = pstrdup(n);

			for (char *c = upper; *c; c++)
				*c = pg_ascii_toupper((unsigned char) *c);
			cfCliError("java.lang.IllegalArgumentException: No enum constant org.apache.cassandra.cli.CliClient.ColumnFamilyArgument.%s",
					   upper);
		}
	}
	args[0] = ks;
	if (st->kind == CLI_CREATE_CF)
	{
		args[1] = st->name;
		args[2] = column_type ? column_type : "Standard";
		args[3] = cmp ? cmp : "BytesType";
		args[4] = subcmp;
		args[5] = keycls ? keycls : "BytesType";
		args[6] = defcls ? defcls : "BytesType";
		args[7] = meta;
		args[8] = gc ? gc : "864000";
		args[9] = ttl ? ttl : "0";
		args[10] = comment;
		args[11] = compression;
		cfCqlRunText("SELECT cfstore.create_column_family($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::integer, "
				 "$10::integer, $11, $12::jsonb)", 12, args);
		return;
	}
	if (column_type || cmp || subcmp)
		cfCliError("comparators do not match or are not compatible.");
	args[1] = cf->name;
	args[2] = defcls;
	args[3] = keycls;
	args[4] = meta;
	args[5] = gc;
	args[6] = ttl;
	args[7] = comment;
	args[8] = compression;
	cfCqlRunText("SELECT cfstore.update_column_family($1, $2, $3, $4, $5::jsonb, $6::integer, $7::integer, $8, "
				 "$9::jsonb)", 9, args);
}

/* create / update keyspace name with placement_strategy = ... and strategy_options = {...} */
static void
run_keyspace(CliStmt *st)
{
	const char *strategy = "NetworkTopologyStrategy";
	bool		strategy_given = false;
	const char *rf = NULL;
	ListCell   *lc;
	const char *args[3];

	foreach(lc, st->attrs)
	{
		CliAttr    *a = lfirst(lc);

		if (pg_strcasecmp(a->name, "placement_strategy") == 0)
		{
			strategy = a->text;
			strategy_given = true;
		}
		else if (pg_strcasecmp(a->name, "strategy_options") == 0)
		{
			CliAttr    *h = a->is_array ? (a->array ? linitial(a->array) : NULL) : a;
			ListCell   *pc;

			if (h)
				foreach(pc, h->hash)
				{
					List	   *pair = lfirst(pc);

					/* SimpleStrategy's replication_factor, or a data center's (datacenter1: 1) */
					rf = ((CliAttr *) lsecond(pair))->text;
				}
		}
		else if (pg_strcasecmp(a->name, "durable_writes") == 0)
			continue;
		else
		{
			char	   *upper = pstrdup(a->name);

			for (char *c = upper; *c; c++)
				*c = pg_ascii_toupper((unsigned char) *c);
			cfCliError("java.lang.IllegalArgumentException: No enum constant org.apache.cassandra.cli.CliClient.AddKeyspaceArgument.%s",
					   upper);
		}
	}
	if (st->kind == CLI_UPDATE_KEYSPACE)
	{
		/* what the statement does not name stays as it is */
		args[0] = keyspace_named(st->name);
		args[1] = rf;
		args[2] = strategy_given ? strategy : NULL;
		cfCqlRunText("SELECT cfstore.update_keyspace($1, $2::integer, $3)", 3, args);
		return;
	}
	args[0] = st->name;
	args[1] = rf ? rf : "1";
	args[2] = strategy;
	cfCqlRunText("SELECT cfstore.create_keyspace($1, $2::integer, $3)", 3, args);
}

/* drop index on CF.col: the column keeps its metadata, without its index */
static void
run_drop_index(CliSession *s, CliStmt *st)
{
	const CfColumnFamily *cf = column_family(s, st->name);
	bytea	   *name = spec_bytes(s, cf, st->specs[0], false, NULL);
	const CfColumnDef *d = cfCatalogColumn(cf, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
	StringInfoData meta;
	const char *args[3];
	const CfType *names = cf->is_super ? cf->subcomparator : cf->comparator;

	if (d == NULL || d->component >= 0)
		cfCliError("Column '%s' definition was not found in ColumnFamily '%s'.", st->specs[0]->text, cf->name);
	if (d->index_name == NULL)
		cfCliError("Column '%s' does not have an index.", st->specs[0]->text);
	initStringInfo(&meta);
	appendStringInfoChar(&meta, '[');
	for (int i = 0; i < cf->nwhole; i++)
	{
		const CfColumnDef *c = &cf->columns[i];

		if (meta.len > 1)
			appendStringInfoChar(&meta, ',');
		appendStringInfoString(&meta, "{\"column_name\":");
		escape_json(&meta, cfTypeToString(names, (const uint8 *) VARDATA_ANY(c->name), VARSIZE_ANY_EXHDR(c->name)));
		appendStringInfoString(&meta, ",\"validation_class\":");
		escape_json(&meta, cfTypeName(c->validator));
		if (c->index_name && c != d)
		{
			appendStringInfoString(&meta, ",\"index_type\":\"KEYS\",\"index_name\":");
			escape_json(&meta, c->index_name);
		}
		appendStringInfoChar(&meta, '}');
	}
	appendStringInfoChar(&meta, ']');
	args[0] = cf->keyspace;
	args[1] = cf->name;
	args[2] = meta.data;
	cfCqlRunText("SELECT cfstore.update_column_family($1, $2, column_metadata => $3::jsonb)", 3, args);
}

/* Run one statement. */
void
cfCliRun(CliSession *s, CliStmt *st)
{
	const char *args[2];

	switch (st->kind)
	{
		case CLI_NOOP:
			break;
		case CLI_USE:
			{
				char	   *ks = keyspace_named(st->name);
				MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);

				s->keyspace = pstrdup(ks);
				MemoryContextSwitchTo(old);
				cfCliPrint(s, "Authenticated to keyspace: %s", ks);
			}
			break;
		case CLI_CREATE_KEYSPACE:
		case CLI_UPDATE_KEYSPACE:
			run_keyspace(st);
			break;
		case CLI_DROP_KEYSPACE:
			args[0] = keyspace_named(st->name);
			cfCqlRunText("SELECT cfstore.drop_keyspace($1)", 1, args);
			if (s->keyspace && strcmp(s->keyspace, args[0]) == 0)
				s->keyspace = NULL;
			break;
		case CLI_CREATE_CF:
		case CLI_UPDATE_CF:
			run_column_family(s, st);
			break;
		case CLI_DROP_CF:
			args[0] = need_keyspace(s);
			args[1] = column_family(s, st->name)->name;
			cfCqlRunText("SELECT cfstore.drop_column_family($1, $2)", 2, args);
			break;
		case CLI_DROP_INDEX:
			run_drop_index(s, st);
			break;
		case CLI_SET:
			run_set(s, st);
			break;
		case CLI_GET:
			run_get(s, st);
			break;
		case CLI_GET_WHERE:
			run_get_where(s, st);
			break;
		case CLI_LIST:
			run_list(s, st);
			break;
		case CLI_COUNT:
			run_count(s, st);
			break;
		case CLI_DEL:
			run_del(s, st);
			break;
		case CLI_INCR:
		case CLI_DECR:
			run_incr(s, st);
			break;
		case CLI_TRUNCATE:
			{
				const CfColumnFamily *cf = column_family(s, st->raw_name);

				args[0] = cf->keyspace;
				args[1] = cf->name;
				cfCqlRunText("SELECT cfstore.truncate($1, $2)", 2, args);
				cfCliPrint(s, "%s truncated.", st->raw_name);
			}
			break;
		case CLI_ASSUME:
			run_assume(s, st);
			break;
		case CLI_SHOW_KEYSPACES:
			{
				ListCell   *lc;

				foreach(lc, names_of("SELECT name FROM cfstore.keyspace ORDER BY name COLLATE \"C\"", NULL))
					cfCliDescribeKeyspace(s, lfirst(lc));
			}
			break;
		case CLI_DESCRIBE:
			if (st->name == NULL)
			{
				if (s->keyspace == NULL)
					cfCliPrint(s, "Authenticate to a Keyspace, before using `describe` or `describe <column_family>`");
				else
					cfCliDescribeKeyspace(s, s->keyspace);
			}
			else
			{
				char	   *ks = resolve(names_of("SELECT name FROM cfstore.keyspace ORDER BY name", NULL), st->raw_name);

				if (ks)
					cfCliDescribeKeyspace(s, ks);
				else if (s->keyspace == NULL)
					cfCliError("Keyspace with name '%s' wasn't found, to lookup ColumnFamily with that name, please, authorize to one of the keyspaces first.",
							   st->raw_name);
				else
					cfCliPrint(s, "Sorry, no Keyspace nor ColumnFamily was found with name: %s", st->raw_name);
			}
			break;
		case CLI_CONSISTENCYLEVEL:
			{
				static const char *const levels[] = {"ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_QUORUM",
				"EACH_QUORUM", "ANY", NULL};
				char	   *upper = pstrdup(st->element);
				bool		ok = false;

				for (char *c = upper; *c; c++)
					*c = pg_ascii_toupper((unsigned char) *c);
				for (int i = 0; levels[i]; i++)
					ok |= strcmp(levels[i], upper) == 0;
				if (ok)
					cfCliPrint(s, "Consistency level is set to '%s'.", upper);
				else
					cfCliPrint(s, "'%s' is invalid. Available: ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, ANY",
							   upper);
			}
			break;
	}
}

/* cli(script text) RETURNS SETOF text */
Datum
cfstore_cli(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CliSession	session;
	ListCell   *lc;
	int			pin;

	if (PG_ARGISNULL(0))
		cfCliError("a cli script is required");
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	memset(&session, 0, sizeof(session));
	column_types = NIL;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	foreach(lc, cfCliSplit(text_to_cstring(PG_GETARG_TEXT_PP(0))))
	{
		CliStmt    *st = cfCliParse(lfirst(lc));
		ListCell   *l;

		cfCliRun(&session, st);
		foreach(l, session.lines)
		{
			Datum		v = CStringGetTextDatum(lfirst(l));
			bool		isnull = false;

			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &v, &isnull);
		}
		session.lines = NIL;
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	column_types = NIL;
	return (Datum) 0;
}
