/*-------------------------------------------------------------------------
 *
 * cfcql_table.c
 *	  Column families as CQL3 tables: Cassandra 1.2's CFDefinition.
 *
 * Design.  A CQL3 table is a column family; what makes it a table is the
 * way Cassandra 1.2 reads its definition (CFDefinition), done here by
 * cfCqlTable():
 *   - the partition key is the row key: one column, or one per component
 *     of a CompositeType key validator; named by key_aliases, else key,
 *     key2, ...;
 *   - a CompositeType comparator whose last component is UTF8Type, with
 *     one column alias per other component, is a "sparse" table: the other
 *     components are the clustering columns and a cell (clustering values,
 *     column name) holds one column of one CQL row; the columns are the
 *     column_metadata entries that match that last component, and the
 *     cell (clustering values, '') is the row marker INSERT writes;
 *   - any other comparator is "dense" (COMPACT STORAGE): each component is
 *     a clustering column (column1, column2, ... unless aliased) and a
 *     cell is one CQL row whose one other column (value_alias, else value)
 *     is the cell's value;
 *   - a non-composite comparator with column_metadata and no column alias
 *     is a static column family: one CQL row per row key, a column per
 *     column_metadata entry.
 * This file only reads the catalog's cache: cql() (the other cfcql_*
 * files) and the foreign tables' CQL row shape (src/fdw) both use it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "cql/cfcql.h"

/* The type a column's values have: a ReversedType's base. */
static const CfType *
value_type(const CfType *t, bool *reversed)
{
	*reversed = t->kind == CF_REVERSED;
	return *reversed ? t->sub[0] : t;
}

/* The name of part i of a list of aliases, else prefix + (i + 1) ("key" for the first key). */
static char *
alias_or_default(char **aliases, int naliases, int i, const char *prefix)
{
	if (i < naliases)
		return aliases[i];
	if (strcmp(prefix, "key") == 0)
		return i == 0 ? pstrdup("key") : psprintf("key%d", i + 1);
	return psprintf("%s%d", prefix, i + 1);
}

/* qsort: regular columns by name. */
static int
compare_by_name(const void *a, const void *b)
{
	return strcmp(((const CfCqlColumn *) a)->name, ((const CfCqlColumn *) b)->name);
}

/* The CQL3 shape of keyspace.table (Cassandra 1.2's CFDefinition). */
CfCqlTable *
cfCqlTable(const char *keyspace, const char *table)
{
	const CfColumnFamily *cf = cfCatalogLookup(keyspace, table);
	CfCqlTable *t;
	const CfType *cmp;
	int			nkeys;
	int			n = 0;
	int			nregular = 0;
	int			max;

	if (cf == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("unconfigured columnfamily %s", table)));
	if (cf->is_super)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Super column families are not supported by CQL3 (column family %s)", table)));
	t = palloc0(sizeof(CfCqlTable));
	t->cf = cf;
	cmp = cf->comparator;
	t->composite = cmp->kind == CF_COMPOSITE;
	nkeys = cf->key_validator->kind == CF_COMPOSITE ? cf->key_validator->nsub : 1;
	max = nkeys + (t->composite ? cmp->nsub : 1) + cf->ncolumns + 1;
	t->columns = palloc0(sizeof(CfCqlColumn) * max);

	/* the partition key */
	for (int i = 0; i < nkeys; i++)
	{
		CfCqlColumn *c = &t->columns[n++];

		c->name = alias_or_default(cf->key_aliases, cf->nkey_aliases, i, "key");
		c->kind = CQL_COL_PARTITION;
		c->position = i;
		c->type = value_type(nkeys > 1 ? cf->key_validator->sub[i] : cf->key_validator, &c->reversed);
	}
	t->npartition = nkeys;

	if (t->composite)
	{
		int			last = cmp->nsub - 1;
		bool		sparse = cmp->sub[last]->kind == CF_UTF8 && cf->ncolumn_aliases == last;
		int			nclust = sparse ? last : cmp->nsub;

		for (int i = 0; i < nclust; i++)
		{
			CfCqlColumn *c = &t->columns[n++];

			c->name = alias_or_default(cf->column_aliases, cf->ncolumn_aliases, i, "column");
			c->kind = CQL_COL_CLUSTERING;
			c->position = i;
			c->type = value_type(cmp->sub[i], &c->reversed);
		}
		t->nclustering = nclust;
		t->compact = !sparse;
		if (sparse)
			for (int i = 0; i < cf->ncolumns; i++)
			{
				const CfColumnDef *d = &cf->columns[i];
				CfCqlColumn *c;

				if (d->component != last)
					continue;
				c = &t->columns[n + nregular++];
				c->name = text_to_cstring(d->name);
				c->kind = CQL_COL_REGULAR;
				c->type = d->validator;
				c->cell_name = d->name;
				c->indexed = d->index_id != 0;
			}
	}
	else if (cf->ncolumn_aliases > 0 || cf->nwhole == 0)
	{
		/* a dynamic column family: one clustering column */
		CfCqlColumn *c = &t->columns[n++];

		c->name = alias_or_default(cf->column_aliases, cf->ncolumn_aliases, 0, "column");
		c->kind = CQL_COL_CLUSTERING;
		c->type = value_type(cmp, &c->reversed);
		t->nclustering = 1;
		t->compact = true;
	}
	else
	{
		/* a static column family: a column per column_metadata entry */
		for (int i = 0; i < cf->nwhole; i++)
		{
			const CfColumnDef *d = &cf->columns[i];
			CfCqlColumn *c = &t->columns[n + nregular++];

			c->name = cfTypeToString(cmp, (const uint8 *) VARDATA_ANY(d->name), VARSIZE_ANY_EXHDR(d->name));
			c->kind = CQL_COL_REGULAR;
			c->type = d->validator;
			c->cell_name = d->name;
			c->indexed = d->index_id != 0;
		}
	}
	qsort(&t->columns[n], nregular, sizeof(CfCqlColumn), compare_by_name);
	n += nregular;
	if (t->compact)
	{
		/* an empty value_alias: no value column */
		if (cf->value_alias == NULL || cf->value_alias[0] != '\0')
		{
			CfCqlColumn *c = &t->columns[n++];

			c->name = cf->value_alias ? cf->value_alias : pstrdup("value");
			c->kind = CQL_COL_VALUE;
			c->type = cf->default_validator;
			t->value = c;
		}
	}
	t->ncolumns = n;
	return t;
}

/* The column of a table called name, or NULL. */
CfCqlColumn *
cfCqlColumn(CfCqlTable *t, const char *name)
{
	for (int i = 0; i < t->ncolumns; i++)
		if (strcmp(t->columns[i].name, name) == 0)
			return &t->columns[i];
	return NULL;
}

