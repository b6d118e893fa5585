/*-------------------------------------------------------------------------
 *
 * cfcql_schema.c
 *	  The CQL3 DDL statements.
 *
 * CREATE TABLE writes a definition that reads back as the table declared:
 * the comparator, validators and column_metadata through
 * create_column_family, the names through _cql_define.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

#include "cql/cfcql.h"
#include "storage/cfwrite.h"

/* CQL3 type names and the Cassandra types they stand for. */
static const struct
{
	const char *cql;
	const char *cassandra;
}			cql_types[] = {
	{"ascii", "AsciiType"},
	{"bigint", "LongType"},
	{"blob", "BytesType"},
	{"boolean", "BooleanType"},
	{"counter", "CounterColumnType"},
	{"decimal", "DecimalType"},
	{"double", "DoubleType"},
	{"float", "FloatType"},
	{"int", "Int32Type"},
	{"text", "UTF8Type"},
	{"timestamp", "DateType"},
	{"uuid", "UUIDType"},
	{"varchar", "UTF8Type"},
	{"varint", "IntegerType"},
	{"timeuuid", "TimeUUIDType"},
	{NULL, NULL}
};

/* The Cassandra type (short name) of a CQL3 type name or quoted class. */
static const char *
cassandra_type(const char *cql)
{
	CfType	   *parsed;

	for (int i = 0; cql_types[i].cql; i++)
		if (strcmp(cql_types[i].cql, cql) == 0)
			return cql_types[i].cassandra;
	if (strcmp(cql, "inet") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("CQL3 type inet (InetAddressType) is not supported by cfstore")));
	/* a quoted custom type: a class name */
	if (strchr(cql, '.') != NULL || (cql[0] >= 'A' && cql[0] <= 'Z'))
	{
		parsed = cfTypeParse(cql);
		return cfTypeName(parsed);
	}
	cfInvalidRequest("Unknown type %s", cql);
}

/* The keyspace a statement works in: its own, else the current one. */
const char *
cfCqlKeyspace(const CfCqlStmt *stmt, const char *current)
{
	if (stmt->keyspace != NULL)
		return stmt->keyspace;
	if (current == NULL)
		cfInvalidRequest("no keyspace has been specified");
	return current;
}

/* Run a statement over SPI with text arguments (NULL entries are SQL NULL). */
void
cfCqlRunText(const char *sql, int nargs, const char **args)
{
	Oid		   *types = palloc(sizeof(Oid) * Max(nargs, 1));
	Datum	   *values = palloc(sizeof(Datum) * Max(nargs, 1));
	char	   *nulls = palloc(Max(nargs, 1));

	for (int i = 0; i < nargs; i++)
	{
		types[i] = TEXTOID;
		values[i] = args[i] ? CStringGetTextDatum(args[i]) : (Datum) 0;
		nulls[i] = args[i] ? ' ' : 'n';
	}
	cfCqlCallVoid(sql, nargs, types, values, nulls);
}

/* The value of a property as an integer, with Cassandra's message when it is not one. */
static char *
int_property(const CfCqlProperty *prop)
{
	char	   *end;
	long		v;

	if (prop->value == NULL)
		cfInvalidRequest("Invalid value for property '%s'", prop->name);
	errno = 0;
	v = strtol(prop->value, &end, 10);
	if (errno != 0 || *end != '\0' || v < PG_INT32_MIN || v > PG_INT32_MAX)
		cfInvalidRequest("Invalid integer value %s for '%s'", prop->value, prop->name);
	return prop->value;
}

/*
 * The compression_options of a "compression" property: its map as a JSON
 * object, which must name sstable_compression (Cassandra 1.2's CFPropDefs).
 */
static char *
compression_property(const CfCqlProperty *prop)
{
	StringInfoData buf;
	ListCell   *lc;
	bool		has_class = false;

	if (prop->value != NULL)
		cfInvalidRequest("Invalid value for property '%s'. It should be a map.", prop->name);
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	foreach(lc, prop->map)
	{
		List	   *pair = lfirst(lc);

		if (buf.len > 1)
			appendStringInfoChar(&buf, ',');
		escape_json(&buf, linitial(pair));
		appendStringInfoChar(&buf, ':');
		escape_json(&buf, lsecond(pair));
		has_class |= strcmp(linitial(pair), "sstable_compression") == 0;
	}
	appendStringInfoChar(&buf, '}');
	if (prop->map != NIL && !has_class)
		cfInvalidRequest("Missing sub-option 'sstable_compression' for the 'compression' option.");
	return buf.data;
}

/* CREATE KEYSPACE name WITH replication = {...} (or 1.1's strategy_class form). */
static void
create_keyspace(CfCqlStmt *stmt)
{
	const char *strategy = NULL;
	const char *rf = NULL;
	ListCell   *lc;
	const char *args[3];

	foreach(lc, stmt->properties)
	{
		CfCqlProperty *prop = lfirst(lc);

		if (strcmp(prop->name, "replication") == 0 && prop->map != NIL)
		{
			ListCell   *mc;

			foreach(mc, prop->map)
			{
				List	   *pair = lfirst(mc);
				char	   *k = linitial(pair);

				if (strcmp(k, "class") == 0)
					strategy = lsecond(pair);
				else if (strcmp(k, "replication_factor") == 0)
					rf = lsecond(pair);
			}
		}
		else if (strcmp(prop->name, "durable_writes") == 0 ||
				 strcmp(prop->name, "strategy_class") == 0 ||
				 strncmp(prop->name, "strategy_options", 16) == 0)
			continue;			/* 1.2.4 accepts, and ignores, CQL2's forms */
		else
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("Unknown property '%s'", prop->name)));
	}
	if (strategy == NULL)
		cfInvalidRequest("Missing mandatory replication strategy class");
	args[0] = stmt->keyspace;
	args[1] = rf ? rf : "1";
	args[2] = strategy;
	cfCqlRunText("SELECT cfstore.create_keyspace($1, $2::integer, $3)", 3, args);
}

/* Append {"name":..., "validation_class":..., "index_name":...} to a JSON array being built. */
static void
append_column_json(StringInfo buf, const char *name, const char *vclass, const char *index_name,
				   const char *name_key)
{
	if (buf->len > 1)
		appendStringInfoChar(buf, ',');
	appendStringInfo(buf, "{\"%s\":", name_key);
	escape_json(buf, name);
	appendStringInfoString(buf, ",\"validation_class\":");
	escape_json(buf, vclass);
	if (index_name)
	{
		appendStringInfoString(buf, strcmp(name_key, "name") == 0 ? ",\"index_name\":" : ",\"index_type\":\"KEYS\",\"index_name\":");
		escape_json(buf, index_name);
	}
	appendStringInfoChar(buf, '}');
}

/* A text[] literal of names. */
static char *
names_array(List *names)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	foreach(lc, names)
	{
		if (buf.len > 1)
			appendStringInfoChar(&buf, ',');
		appendStringInfoChar(&buf, '"');
		for (const char *p = lfirst(lc); *p; p++)
		{
			if (*p == '"' || *p == '\\')
				appendStringInfoChar(&buf, '\\');
			appendStringInfoChar(&buf, *p);
		}
		appendStringInfoChar(&buf, '"');
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/* The declared type of column name in CREATE TABLE, or NULL. */
static CfCqlColumnDef *
declared(CfCqlStmt *stmt, const char *name)
{
	ListCell   *lc;

	foreach(lc, stmt->columns)
	{
		CfCqlColumnDef *d = lfirst(lc);

		if (strcmp(d->name, name) == 0)
			return d;
	}
	return NULL;
}

/* Whether name is in a list of names. */
static bool
name_in(List *names, const char *name)
{
	ListCell   *lc;

	foreach(lc, names)
		if (strcmp(lfirst(lc), name) == 0)
			return true;
	return false;
}

/* CREATE TABLE: Cassandra 1.2's CreateColumnFamilyStatement. */
static void
create_table(CfCqlStmt *stmt, const char *keyspace)
{
	ListCell   *lc;
	StringInfoData cmp,
				key,
				cols,
				meta;
	List	   *regular = NIL;
	bool		counters = false;
	bool		non_counters = false;
	const char *defcls = "BytesType";
	const char *value_alias = NULL;
	const char *comment = NULL;
	const char *compression = NULL;
	const char *gc_grace = "864000";
	const char *ttl = "0";
	const char *args[11];
	int			nclust = list_length(stmt->clustering);

	/* names: declared once, key parts declared, not twice in the key */
	foreach(lc, stmt->columns)
	{
		CfCqlColumnDef *d = lfirst(lc);
		ListCell   *lc2;

		for_each_cell(lc2, stmt->columns, lnext(stmt->columns, lc))
			if (strcmp(((CfCqlColumnDef *) lfirst(lc2))->name, d->name) == 0)
				cfInvalidRequest("Multiple definition of identifier %s", d->name);
	}
	if (stmt->partition_key == NIL)
		cfInvalidRequest("You must specify one and only one PRIMARY KEY");
	foreach(lc, list_concat_copy(stmt->partition_key, stmt->clustering))
	{
		char	   *name = lfirst(lc);
		ListCell   *lc2;
		int			seen = 0;

		if (declared(stmt, name) == NULL)
			cfInvalidRequest("Unkown definition %s referenced in PRIMARY KEY", name);
		foreach(lc2, list_concat_copy(stmt->partition_key, stmt->clustering))
			if (strcmp(lfirst(lc2), name) == 0)
				seen++;
		if (seen > 1)
			cfInvalidRequest("Unkown definition %s referenced in PRIMARY KEY", name);
		if (strcmp(cassandra_type(declared(stmt, name)->type), "CounterColumnType") == 0)
			cfInvalidRequest("counter type is not supported for PRIMARY KEY part %s", name);
	}
	foreach(lc, stmt->columns)
	{
		CfCqlColumnDef *d = lfirst(lc);

		if (name_in(stmt->partition_key, d->name) || name_in(stmt->clustering, d->name))
			continue;
		regular = lappend(regular, d);
		if (strcmp(cassandra_type(d->type), "CounterColumnType") == 0)
			counters = true;
		else
			non_counters = true;
	}
	if (counters && non_counters)
		cfInvalidRequest("Cannot mix counter and non counter columns in the same table");
	if (counters)
		defcls = "CounterColumnType";

	/* the key validator */
	initStringInfo(&key);
	if (list_length(stmt->partition_key) > 1)
	{
		appendStringInfoString(&key, "CompositeType(");
		foreach(lc, stmt->partition_key)
			appendStringInfo(&key, "%s%s", foreach_current_index(lc) > 0 ? "," : "",
							 cassandra_type(declared(stmt, lfirst(lc))->type));
		appendStringInfoChar(&key, ')');
	}
	else
		appendStringInfoString(&key, cassandra_type(declared(stmt, linitial(stmt->partition_key))->type));

	/* clustering order: a prefix of the clustering columns, in order (the rest ASC) */
	if (list_length(stmt->clustering_order) > nclust)
		cfInvalidRequest("Too much columns provided for CLUSTERING ORDER");
	foreach(lc, stmt->clustering_order)
	{
		CfCqlOrder *o = lfirst(lc);
		char	   *expected = list_nth(stmt->clustering, foreach_current_index(lc));

		if (strcmp(o->column, expected) != 0)
		{
			ListCell   *later;

			for_each_cell(later, stmt->clustering_order, lnext(stmt->clustering_order, lc))
				if (strcmp(((CfCqlOrder *) lfirst(later))->column, expected) == 0)
					cfInvalidRequest("The order of columns in the CLUSTERING ORDER directive must be the one of the clustering key (%s must appear before %s)",
									 expected, o->column);
			cfInvalidRequest("Missing CLUSTERING ORDER for column %s", expected);
		}
	}

	/* the comparator: clustering types, then the column name unless compact */
	initStringInfo(&cmp);
	initStringInfo(&cols);
	initStringInfo(&meta);
	appendStringInfoChar(&cols, '[');
	appendStringInfoChar(&meta, '[');
	if (stmt->compact)
	{
		if (nclust == 0)
		{
			/* static: UTF8 names, a column_metadata entry per column */
			if (regular == NIL)
				cfInvalidRequest("No definition found that is not part of the PRIMARY KEY");
			appendStringInfoString(&cmp, "UTF8Type");
			foreach(lc, regular)
			{
				CfCqlColumnDef *d = lfirst(lc);

				append_column_json(&meta, d->name, cassandra_type(d->type), NULL, "column_name");
			}
		}
		else
		{
			if (list_length(regular) > 1)
			{
				StringInfoData names;

				initStringInfo(&names);
				foreach(lc, regular)
					appendStringInfo(&names, "%s%s", names.len > 0 ? ", " : "", ((CfCqlColumnDef *) lfirst(lc))->name);
				cfInvalidRequest("COMPACT STORAGE with composite PRIMARY KEY allows no more than one column not part of the PRIMARY KEY (got: %s)",
								 names.data);
			}
			if (regular != NIL)
			{
				value_alias = ((CfCqlColumnDef *) linitial(regular))->name;
				defcls = cassandra_type(((CfCqlColumnDef *) linitial(regular))->type);
			}
			else
				value_alias = "";	/* no value column: the cells' values are empty */
		}
	}
	if (!(stmt->compact && nclust == 0))
	{
		bool		composite = !stmt->compact || nclust > 1;
		int			i = 0;

		if (composite)
			appendStringInfoString(&cmp, "CompositeType(");
		foreach(lc, stmt->clustering)
		{
			const char *t = cassandra_type(declared(stmt, lfirst(lc))->type);
			bool		desc = i < list_length(stmt->clustering_order) &&
				((CfCqlOrder *) list_nth(stmt->clustering_order, i))->desc;

			appendStringInfo(&cmp, "%s%s%s%s", i > 0 ? "," : "", desc ? "ReversedType(" : "", t,
							 desc ? ")" : "");
			i++;
		}
		if (!stmt->compact)
		{
			appendStringInfo(&cmp, "%sUTF8Type", i > 0 ? "," : "");
			foreach(lc, regular)
			{
				CfCqlColumnDef *d = lfirst(lc);

				append_column_json(&cols, d->name, cassandra_type(d->type), NULL, "name");
			}
		}
		if (composite)
			appendStringInfoChar(&cmp, ')');
	}
	appendStringInfoChar(&cols, ']');
	appendStringInfoChar(&meta, ']');

	/* properties */
	foreach(lc, stmt->properties)
	{
		CfCqlProperty *prop = lfirst(lc);

		if (strcmp(prop->name, "comment") == 0)
			comment = prop->value;
		else if (strcmp(prop->name, "gc_grace_seconds") == 0)
			gc_grace = int_property(prop);
		else if (strcmp(prop->name, "default_time_to_live") == 0)
			ttl = int_property(prop);
		else if (strcmp(prop->name, "compression") == 0)
			compression = compression_property(prop);
		else if (strcmp(prop->name, "read_repair_chance") == 0 ||
				 strcmp(prop->name, "dclocal_read_repair_chance") == 0 ||
				 strcmp(prop->name, "replicate_on_write") == 0 ||
				 strcmp(prop->name, "caching") == 0 ||
				 strcmp(prop->name, "bloom_filter_fp_chance") == 0 ||
				 strcmp(prop->name, "compaction") == 0 ||
				 strcmp(prop->name, "populate_io_cache_on_flush") == 0)
			continue;			/* Cassandra's tuning: nothing to map to */
		else
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("Unknown property '%s'", prop->name)));
	}

	args[0] = keyspace;
	args[1] = stmt->table;
	args[2] = cmp.data;
	args[3] = key.data;
	args[4] = defcls;
	args[5] = meta.len > 2 ? meta.data : NULL;
	args[6] = gc_grace;
	args[7] = ttl;
	args[8] = comment;
	args[9] = compression;
	cfCqlRunText("SELECT cfstore.create_column_family($1, $2, 'Standard', $3, NULL, $4, $5, $6::jsonb, "
			"$7::integer, $8::integer, $9, $10::jsonb)", 10, args);
	args[2] = names_array(stmt->partition_key);
	args[3] = names_array(stmt->clustering);
	args[4] = value_alias;
	args[5] = cols.data;
	cfCqlRunText("SELECT cfstore._cql_define($1, $2, $3::text[], $4::text[], $5, $6::jsonb)", 6, args);
}

/* The JSON array of a sparse table's CQL3 columns, with a change applied. */
static char *
sparse_columns_json(CfCqlTable *t, const char *add_name, const char *add_class, const char *index_column,
					const char *index_name)
{
	StringInfoData cols;

	initStringInfo(&cols);
	appendStringInfoChar(&cols, '[');
	for (int i = 0; i < t->ncolumns; i++)
	{
		CfCqlColumn *c = &t->columns[i];
		const CfColumnDef *d;

		if (c->kind != CQL_COL_REGULAR)
			continue;
		d = NULL;
		for (int j = 0; j < t->cf->ncolumns; j++)
			if (t->cf->columns[j].component >= 0 && strcmp(text_to_cstring(t->cf->columns[j].name), c->name) == 0)
				d = &t->cf->columns[j];
		append_column_json(&cols, c->name, cfTypeName(c->type),
						   index_column && strcmp(index_column, c->name) == 0 ? index_name
						   : (d ? d->index_name : NULL), "name");
	}
	if (add_name)
		append_column_json(&cols, add_name, add_class, NULL, "name");
	appendStringInfoChar(&cols, ']');
	return cols.data;
}

/* The JSON column_metadata of a static table, with a change applied. */
static char *
static_columns_json(CfCqlTable *t, const char *add_name, const char *add_class, const char *index_column,
					const char *index_name)
{
	StringInfoData meta;

	initStringInfo(&meta);
	appendStringInfoChar(&meta, '[');
	for (int i = 0; i < t->cf->nwhole; i++)
	{
		const CfColumnDef *d = &t->cf->columns[i];
		char	   *name = cfTypeToString(t->cf->comparator, (const uint8 *) VARDATA_ANY(d->name),
										  VARSIZE_ANY_EXHDR(d->name));

		append_column_json(&meta, name, cfTypeName(d->validator),
						   index_column && strcmp(index_column, name) == 0 ? index_name : d->index_name,
						   "column_name");
	}
	if (add_name)
		append_column_json(&meta, add_name, add_class, NULL, "column_name");
	appendStringInfoChar(&meta, ']');
	return meta.data;
}

/*
 * ALTER TABLE ... RENAME: new names for primary key columns (and a compact
 * table's value), as Cassandra 1.2 keeps them, in the key, column and
 * value aliases.  Naming the components of a column family made with the
 * functions or the cli can turn it into a sparse table: a CompositeType
 * comparator whose last component is UTF8Type, with an alias for every
 * other component, is one (its columns then come with ALTER TABLE ADD).
 */
static void
rename_columns(CfCqlTable *t, List *pairs)
{
	List	   *keys = NIL;
	List	   *clust = NIL;
	char	   *value = t->cf->value_alias;
	int			nclust_named = t->cf->ncolumn_aliases;
	ListCell   *lc;
	const char *args[6];

	for (int i = 0; i < t->ncolumns; i++)
		if (t->columns[i].kind == CQL_COL_PARTITION)
			keys = lappend(keys, t->columns[i].name);
		else if (t->columns[i].kind == CQL_COL_CLUSTERING)
			clust = lappend(clust, t->columns[i].name);
	foreach(lc, pairs)
	{
		char	   *from = linitial((List *) lfirst(lc));
		char	   *to = lsecond((List *) lfirst(lc));
		CfCqlColumn *c = cfCqlColumn(t, from);

		if (c == NULL)
			cfInvalidRequest("Column %s was not found in table %s", from, t->cf->name);
		if (cfCqlColumn(t, to) != NULL)
			cfInvalidRequest("Cannot rename column %s to %s in keyspace %s; another column of that name already exist",
							 from, to, t->cf->keyspace);
		switch (c->kind)
		{
			case CQL_COL_PARTITION:
				list_nth_cell(keys, c->position)->ptr_value = to;
				break;
			case CQL_COL_CLUSTERING:
				list_nth_cell(clust, c->position)->ptr_value = to;
				nclust_named = Max(nclust_named, c->position + 1);
				break;
			case CQL_COL_VALUE:
				value = to;
				break;
			default:
				cfInvalidRequest("Cannot rename non PRIMARY KEY part %s", from);
		}
		c->name = to;
	}
	args[0] = t->cf->keyspace;
	args[1] = t->cf->name;
	args[2] = names_array(keys);
	args[3] = names_array(list_truncate(clust, nclust_named));
	args[4] = value;
	args[5] = t->composite && !t->compact ? sparse_columns_json(t, NULL, NULL, NULL, NULL) : "[]";
	cfCqlRunText("SELECT cfstore._cql_define($1, $2, $3::text[], $4::text[], $5, $6::jsonb)", 6, args);
}

/* Write a sparse table's CQL3 columns, keeping its names. */
static void
redefine_sparse(CfCqlTable *t, const char *columns)
{
	const char *args[6];
	List	   *keys = NIL;
	List	   *clust = NIL;

	for (int i = 0; i < t->ncolumns; i++)
		if (t->columns[i].kind == CQL_COL_PARTITION)
			keys = lappend(keys, t->columns[i].name);
		else if (t->columns[i].kind == CQL_COL_CLUSTERING)
			clust = lappend(clust, t->columns[i].name);
	args[0] = t->cf->keyspace;
	args[1] = t->cf->name;
	args[2] = names_array(keys);
	args[3] = names_array(clust);
	args[4] = t->cf->value_alias;
	args[5] = columns;
	cfCqlRunText("SELECT cfstore._cql_define($1, $2, $3::text[], $4::text[], $5, $6::jsonb)", 6, args);
}

/* ALTER TABLE ... ADD column type (the other forms: Cassandra's messages or 0A000). */
static void
alter_table(CfCqlStmt *stmt, const char *keyspace)
{
	CfCqlTable *t = cfCqlTable(keyspace, stmt->table);
	CfCqlColumn *c = cfCqlColumn(t, stmt->name ? stmt->name : "");
	const char *args[3];

	switch (stmt->alter)
	{
		case 'a':
			if (t->compact)
				cfInvalidRequest("Cannot add new column to a compact CF");
			if (c != NULL)
				cfInvalidRequest("Invalid column name %s because it conflicts with an existing column", stmt->name);
			if ((strcmp(cassandra_type(stmt->alter_type), "CounterColumnType") == 0) != t->cf->is_counter)
				cfInvalidRequest(t->cf->is_counter ? "Cannot add a non counter column (%s) in a counter column family"
								 : "Cannot add a counter column (%s) in a non counter column family", stmt->name);
			if (t->composite)
				redefine_sparse(t, sparse_columns_json(t, stmt->name, cassandra_type(stmt->alter_type), NULL, NULL));
			else
			{
				args[0] = keyspace;
				args[1] = stmt->table;
				args[2] = static_columns_json(t, stmt->name, cassandra_type(stmt->alter_type), NULL, NULL);
				cfCqlRunText("SELECT cfstore.update_column_family($1, $2, column_metadata => $3::jsonb)", 3, args);
				redefine_sparse(t, "[]");	/* the table's rows gain the column */
			}
			break;
		case 'r':
			rename_columns(t, stmt->sets);
			break;
		case 'w':
			{
				ListCell   *lc;

				foreach(lc, stmt->properties)
				{
					CfCqlProperty *prop = lfirst(lc);

					args[0] = keyspace;
					args[1] = stmt->table;
					if (strcmp(prop->name, "comment") == 0)
					{
						args[2] = prop->value;
						cfCqlRunText("SELECT cfstore.update_column_family($1, $2, comment => $3)", 3, args);
					}
					else if (strcmp(prop->name, "gc_grace_seconds") == 0)
					{
						args[2] = int_property(prop);
						cfCqlRunText("SELECT cfstore.update_column_family($1, $2, gc_grace_seconds => $3::integer)", 3, args);
					}
					else if (strcmp(prop->name, "default_time_to_live") == 0)
					{
						args[2] = int_property(prop);
						cfCqlRunText("SELECT cfstore.update_column_family($1, $2, default_time_to_live => $3::integer)", 3, args);
					}
					else if (strcmp(prop->name, "compression") == 0)
					{
						args[2] = compression_property(prop);
						cfCqlRunText("SELECT cfstore.update_column_family($1, $2, compression_options => $3::jsonb)", 3, args);
					}
				}
			}
			break;
		default:
			if (c == NULL)
				cfInvalidRequest("Column %s was not found in table %s", stmt->name, stmt->table);
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("ALTER TABLE ... %s is not supported by cfstore", stmt->alter == 'd' ? "DROP" : "ALTER ... TYPE")));
	}
}

/* CREATE INDEX [name] ON table (column): a KEYS index on a regular column. */
static void
create_index(CfCqlStmt *stmt, const char *keyspace)
{
	CfCqlTable *t = cfCqlTable(keyspace, stmt->table);
	const char *column = linitial(stmt->delete_columns);
	CfCqlColumn *c = cfCqlColumn(t, column);
	char	   *name = stmt->name;
	const char *args[3];

	if (c == NULL)
		cfInvalidRequest("No column definition found for column %s", column);
	if (c->kind == CQL_COL_PARTITION || c->kind == CQL_COL_CLUSTERING)
		cfInvalidRequest("Cannot create index on PRIMARY KEY part %s", column);
	if (c->kind == CQL_COL_VALUE)
		cfInvalidRequest("Secondary indexes are not supported on COMPACT STORAGE tables that have clustering columns");
	if (c->indexed)
		cfInvalidRequest("Index already exists");
	if (name == NULL)
		name = psprintf("%s_%s_idx", t->cf->name, column);
	if (t->composite)
		redefine_sparse(t, sparse_columns_json(t, NULL, NULL, column, name));
	else
	{
		args[0] = keyspace;
		args[1] = stmt->table;
		args[2] = static_columns_json(t, NULL, NULL, column, name);
		cfCqlRunText("SELECT cfstore.update_column_family($1, $2, column_metadata => $3::jsonb)", 3, args);
		redefine_sparse(t, "[]");
	}
}

/* Run a CQL3 DDL statement (or TRUNCATE). */
void
cfCqlRunSchema(CfCqlStmt *stmt, const char *keyspace)
{
	const char *args[2];

	switch (stmt->kind)
	{
		case CQL_CREATE_KEYSPACE:
			create_keyspace(stmt);
			break;
		case CQL_DROP_KEYSPACE:
			args[0] = stmt->keyspace;
			cfCqlRunText("SELECT cfstore.drop_keyspace($1)", 1, args);
			break;
		case CQL_CREATE_TABLE:
			create_table(stmt, cfCqlKeyspace(stmt, keyspace));
			break;
		case CQL_DROP_TABLE:
			args[0] = cfCqlKeyspace(stmt, keyspace);
			args[1] = stmt->table;
			(void) cfCqlTable(args[0], args[1]);
			cfCqlRunText("SELECT cfstore.drop_column_family($1, $2)", 2, args);
			break;
		case CQL_TRUNCATE:
			args[0] = cfCqlKeyspace(stmt, keyspace);
			args[1] = stmt->table;
			(void) cfCqlTable(args[0], args[1]);
			cfCqlRunText("SELECT cfstore.truncate($1, $2)", 2, args);
			break;
		case CQL_ALTER_TABLE:
			alter_table(stmt, cfCqlKeyspace(stmt, keyspace));
			break;
		case CQL_CREATE_INDEX:
			create_index(stmt, cfCqlKeyspace(stmt, keyspace));
			break;
		case CQL_DROP_INDEX:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("DROP INDEX is not supported by cfstore.cql()"),
					 errhint("Drop the index with cfstore.update_column_family().")));
			break;
		default:
			elog(ERROR, "not a schema statement: %d", (int) stmt->kind);
	}
}
