/*-------------------------------------------------------------------------
 *
 * cffdw.c
 *	  cfstore_fdw's handler and validator, the map of a foreign table onto
 *	  its column family, and the conversions between cells and SQL values.
 *
 * A foreign table is mapped once per backend and kept until the cfstore
 * catalog changes or the foreign table's definition does (a relcache
 * invalidation of it).  Conversions go straight from the Cassandra
 * encoding to the column's SQL type for the types README.md ("Foreign
 * tables") names;
 * a column declared with another type receives the value's text form
 * through the type's input function, so `text` always works.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/reloptions.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_foreign_table.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "api/cfargs.h"
#include "cql/cfcql.h"
#include "fdw/cffdw.h"
#include "object/cfobject.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_fdw_handler);
PG_FUNCTION_INFO_V1(cfstore_fdw_validator);

/* A cached map of a foreign table. */
typedef struct CfFdwCacheEntry
{
	Oid			relid;			/* hash key */
	bool		valid;
	uint64		generation;		/* cfCatalogGeneration() when built */
	CfFdwTable *table;
	MemoryContext cxt;			/* holds table */
} CfFdwCacheEntry;

static HTAB *cf_fdw_cache = NULL;

/* The FDW's entry points. */
Datum
cfstore_fdw_handler(PG_FUNCTION_ARGS)
{
	FdwRoutine *routine = makeNode(FdwRoutine);

	(void) fcinfo;
	routine->GetForeignRelSize = cfFdwGetForeignRelSize;
	routine->GetForeignPaths = cfFdwGetForeignPaths;
	routine->GetForeignPlan = cfFdwGetForeignPlan;
	routine->GetForeignUpperPaths = cfFdwGetForeignUpperPaths;
	routine->BeginForeignScan = cfFdwBeginForeignScan;
	routine->IterateForeignScan = cfFdwIterateForeignScan;
	routine->ReScanForeignScan = cfFdwReScanForeignScan;
	routine->EndForeignScan = cfFdwEndForeignScan;
	routine->ExplainForeignScan = cfFdwExplainForeignScan;
	routine->ImportForeignSchema = cfFdwImportForeignSchema;
	cfFdwModifyRoutines(routine);
	PG_RETURN_POINTER(routine);
}

/* Check the options of the wrapper, the server, user mappings and foreign tables. */
Datum
cfstore_fdw_validator(PG_FUNCTION_ARGS)
{
	List	   *options = untransformRelOptions(PG_GETARG_DATUM(0));
	Oid			catalog = PG_GETARG_OID(1);
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		bool		known = catalog == ForeignTableRelationId &&
			(strcmp(def->defname, "keyspace") == 0 || strcmp(def->defname, "column_family") == 0 ||
			 strcmp(def->defname, "rows") == 0 || strcmp(def->defname, "object_column") == 0);

		if (!known)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\"", def->defname),
					 catalog == ForeignTableRelationId
					 ? errhint("Valid options in this context are: keyspace, column_family, rows, object_column")
					 : errhint("There are no valid options in this context.")));
		if (strcmp(def->defname, "rows") == 0 &&
			strcmp(defGetString(def), "cql") != 0 && strcmp(defGetString(def), "cells") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid value for option \"rows\": \"%s\"", defGetString(def)),
					 errhint("A foreign table shows its column family's cells (rows 'cells', the default) or its CQL3 rows (rows 'cql').")));
		(void) defGetString(def);
	}
	PG_RETURN_VOID();
}

/* Forget the map of a foreign table whose definition changed (relcache callback). */
static void
cache_invalidate(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	CfFdwCacheEntry *e;

	(void) arg;
	if (cf_fdw_cache == NULL)
		return;
	hash_seq_init(&status, cf_fdw_cache);
	while ((e = hash_seq_search(&status)) != NULL)
		if (!OidIsValid(relid) || e->relid == relid)
			e->valid = false;
}

/* The Cassandra type's natural SQL type (README.md "Foreign tables"). */
Oid
cfFdwSqlType(const CfType *type)
{
	switch (type->kind)
	{
		case CF_BYTES:
			return BYTEAOID;
		case CF_ASCII:
		case CF_UTF8:
			return TEXTOID;
		case CF_LONG:
		case CF_COUNTER:
			return INT8OID;
		case CF_INT32:
			return INT4OID;
		case CF_INTEGER:
		case CF_DECIMAL:
			return NUMERICOID;
		case CF_FLOAT:
			return FLOAT4OID;
		case CF_DOUBLE:
			return FLOAT8OID;
		case CF_BOOLEAN:
			return BOOLOID;
		case CF_DATE:
			return TIMESTAMPTZOID;
		case CF_UUID:
		case CF_LEXICALUUID:
			return UUIDOID;
		case CF_TIMEUUID:
			return cfTimeuuidOid();
		case CF_REVERSED:
			return cfFdwSqlType(type->sub[0]);
		case CF_COMPOSITE:
			return TEXTOID;
	}
	return BYTEAOID;
}

/* An option of a foreign table, or NULL. */
static char *
table_option_or_null(ForeignTable *ft, const char *name)
{
	ListCell   *lc;

	foreach(lc, ft->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, name) == 0)
			return defGetString(def);
	}
	return NULL;
}

/* An option of a foreign table, or an error naming it. */
static char *
table_option(ForeignTable *ft, const char *name)
{
	ListCell   *lc;

	foreach(lc, ft->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, name) == 0)
			return defGetString(def);
	}
	ereport(ERROR,
			(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
			 errmsg("foreign table \"%s\" has no option \"%s\"", get_rel_name(ft->relid), name),
			 errhint("A cfstore foreign table names its column family with the options keyspace and column_family.")));
	return NULL;				/* keep compiler quiet */
}

/* Raise the error for a column that the column family does not have. */
static void
unknown_column(const CfFdwTable *t, const char *attname)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_COLUMN_NAME),
			 errmsg("column \"%s\" of foreign table \"%s\" is not a column of column family %s.%s",
					attname, get_rel_name(t->relid), t->cf->keyspace, t->cf->name),
			 errhint("The columns are key%s, %s, %s.", t->cf->is_super ? ", super_column" : "",
					 t->nametype->kind == CF_COMPOSITE ? "column1 .. columnN" : "column_name",
					 t->cf->is_counter ? "value" : "value, writetime, ttl")));
}

/* Whether any column_metadata validator maps to another SQL type than the default's. */
bool
cfFdwMixedValidators(const CfColumnFamily *cf)
{
	Oid			def = cfFdwSqlType(cf->default_validator);

	for (int i = 0; i < cf->ncolumns; i++)
		if (cfFdwSqlType(cf->columns[i].validator) != def)
			return true;
	return false;
}

/*
 * Map the columns of a foreign table with rows 'cql' onto the CQL3 shape
 * of its column family (src/cql/cfcql_schema.c): partition key parts,
 * clustering columns (the name components), the value of a compact table
 * and the other columns, each the value of the cells of its name.
 */
static void
map_cql_columns(CfFdwTable *t, const CfColumnFamily *cf, TupleDesc desc, const char *relname,
				const char *object_column)
{
	CfCqlTable *ct = cfCqlTable(cf->keyspace, cf->name);

	t->rows = ct->compact ? CF_FDW_ROWS_DENSE : ct->composite ? CF_FDW_ROWS_SPARSE : CF_FDW_ROWS_STATIC;
	t->nname = ct->nclustering;
	t->nkey_parts = ct->npartition > 1 ? ct->npartition : 0;
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		CfFdwColumn *col = &t->cols[i];
		CfCqlColumn *c;

		col->component = -1;
		if (att->attisdropped)
			continue;
		col->attname = pstrdup(NameStr(att->attname));
		col->typid = getBaseType(att->atttypid);
		if (object_column != NULL && strcmp(col->attname, object_column) == 0)
		{
			/* the object of the row's cells (src/object) */
			if (col->typid != JSONBOID || t->rows != CF_FDW_ROWS_SPARSE || cf->is_counter)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
						 errmsg("object column \"%s\" of foreign table \"%s\" must be jsonb, of a CQL3 table "
								"with clustering columns or CQL3 columns", col->attname, relname)));
			(void) cfObjShapeOf(cf->keyspace, cf->name);	/* a clear error if it holds no objects */
			col->role = CF_FDW_OBJECT;
			t->object_att = i + 1;
			continue;
		}
		c = cfCqlColumn(ct, col->attname);
		if (c == NULL)
		{
			StringInfoData names;

			initStringInfo(&names);
			for (int k = 0; k < ct->ncolumns; k++)
				appendStringInfo(&names, "%s%s", k > 0 ? ", " : "", ct->columns[k].name);
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_COLUMN_NAME),
					 errmsg("column \"%s\" of foreign table \"%s\" is not a column of CQL3 table %s.%s",
							col->attname, relname, cf->keyspace, cf->name),
					 errhint("The columns are %s.", names.data)));
		}
		switch (c->kind)
		{
			case CQL_COL_PARTITION:
				col->role = ct->npartition > 1 ? CF_FDW_KEY_PART : CF_FDW_KEY;
				col->component = ct->npartition > 1 ? c->position : -1;
				col->type = ct->npartition > 1 ? cf->key_validator->sub[c->position] : cf->key_validator;
				if (ct->npartition == 1)
					t->key_att = i + 1;
				break;
			case CQL_COL_CLUSTERING:
				col->role = CF_FDW_NAME;
				col->component = ct->composite ? c->position : -1;
				col->type = ct->composite ? cf->comparator->sub[c->position] : cf->comparator;
				t->name_att[c->position] = i + 1;
				break;
			case CQL_COL_VALUE:
				col->role = CF_FDW_VALUE;
				col->type = cf->default_validator;
				t->value_att = i + 1;
				break;
			case CQL_COL_REGULAR:
				col->role = CF_FDW_CELL;
				col->type = c->type;
				col->cell_name = c->cell_name;
				t->ncells++;
				break;
		}
	}
	for (int k = 0; k < ct->npartition + ct->nclustering; k++)
	{
		bool		found = false;

		for (int i = 0; i < desc->natts; i++)
			if (t->cols[i].attname && strcmp(t->cols[i].attname, ct->columns[k].name) == 0)
				found = true;
		if (!found)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_COLUMN_NAME_NOT_FOUND),
					 errmsg("foreign table \"%s\" has no column \"%s\"", relname, ct->columns[k].name),
					 errhint("Every PRIMARY KEY part of CQL3 table %s.%s needs its column.",
							 cf->keyspace, cf->name)));
	}
}

/* Map the columns of foreign table relid onto column family cf (in the current context). */
static CfFdwTable *
build_table(Oid relid, const CfColumnFamily *cf, const char *rows, const char *object_column)
{
	CfFdwTable *t = palloc0(sizeof(CfFdwTable));
	Relation	rel = table_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);

	t->relid = relid;
	t->cf = cf;
	t->storage_relid = cfStorageRelid(cf->id, false);
	t->natts = desc->natts;
	t->cols = palloc0(sizeof(CfFdwColumn) * Max(desc->natts, 1));
	t->nametype = cf->is_super ? cf->subcomparator : cf->comparator;
	t->nname = t->nametype->kind == CF_COMPOSITE ? t->nametype->nsub : 1;
	if (t->nname > CF_FDW_MAX_COMPONENTS)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("column family %s.%s has %d name components; a foreign table maps at most %d",
						cf->keyspace, cf->name, t->nname, CF_FDW_MAX_COMPONENTS)));
	t->value_as_text = cfFdwMixedValidators(cf);
	if (rows != NULL && strcmp(rows, "cql") == 0)
	{
		t->value_as_text = false;
		map_cql_columns(t, cf, desc, RelationGetRelationName(rel), object_column);
		if (object_column != NULL && t->object_att == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_COLUMN_NAME_NOT_FOUND),
					 errmsg("foreign table \"%s\" has no column \"%s\" (its option object_column)",
							RelationGetRelationName(rel), object_column)));
		table_close(rel, AccessShareLock);
		return t;
	}
	if (object_column != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("option object_column of foreign table \"%s\" needs rows 'cql'",
						RelationGetRelationName(rel))));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		CfFdwColumn *col = &t->cols[i];
		const char *name = NameStr(att->attname);
		int			n;

		col->component = -1;
		if (att->attisdropped)
			continue;
		col->attname = pstrdup(name);
		col->typid = getBaseType(att->atttypid);
		if (strcmp(name, "key") == 0)
		{
			col->role = CF_FDW_KEY;
			col->type = cf->key_validator;
			t->key_att = i + 1;
		}
		else if (strcmp(name, "super_column") == 0 && cf->is_super)
		{
			col->role = CF_FDW_SUPER;
			col->type = cf->comparator;
			t->sc_att = i + 1;
		}
		else if (strcmp(name, "column_name") == 0 && t->nametype->kind != CF_COMPOSITE)
		{
			col->role = CF_FDW_NAME;
			col->type = t->nametype;
			t->name_att[0] = i + 1;
		}
		else if (t->nametype->kind == CF_COMPOSITE && sscanf(name, "column%d", &n) == 1 &&
				 n >= 1 && n <= t->nname && strcmp(name, psprintf("column%d", n)) == 0)
		{
			col->role = CF_FDW_NAME;
			col->component = n - 1;
			col->type = t->nametype->sub[n - 1];
			t->name_att[n - 1] = i + 1;
		}
		else if (strcmp(name, "value") == 0)
		{
			col->role = CF_FDW_VALUE;
			col->type = cf->default_validator;
			t->value_att = i + 1;
		}
		else if (strcmp(name, "writetime") == 0 && !cf->is_counter)
		{
			col->role = CF_FDW_WRITETIME;
			t->writetime_att = i + 1;
		}
		else if (strcmp(name, "ttl") == 0 && !cf->is_counter)
		{
			col->role = CF_FDW_TTL;
			t->ttl_att = i + 1;
		}
		else
			unknown_column(t, name);
		if ((col->role == CF_FDW_WRITETIME && col->typid != INT8OID) ||
			(col->role == CF_FDW_TTL && col->typid != INT4OID && col->typid != INT8OID))
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
					 errmsg("column \"%s\" of foreign table \"%s\" must be of type %s",
							name, RelationGetRelationName(rel),
							col->role == CF_FDW_WRITETIME ? "bigint" : "integer")));
	}
	if (t->key_att == 0)
		unknown_column(t, "(none named key)");
	for (int i = 0; i < t->nname; i++)
		if (t->name_att[i] == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FDW_COLUMN_NAME_NOT_FOUND),
					 errmsg("foreign table \"%s\" has no column \"%s\"", RelationGetRelationName(rel),
							t->nname == 1 ? "column_name" : psprintf("column%d", i + 1)),
					 errhint("Every column name component of column family %s.%s needs its column.",
							 cf->keyspace, cf->name)));
	table_close(rel, AccessShareLock);
	return t;
}

/*
 * The map of foreign table relid onto its column family, built on first
 * use and kept until the catalog or the table changes.
 */
CfFdwTable *
cfFdwTableGet(Oid relid)
{
	CfFdwCacheEntry *e;
	bool		found;

	if (cf_fdw_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(CfFdwCacheEntry);
		ctl.hcxt = CacheMemoryContext;
		cf_fdw_cache = hash_create("cfstore foreign tables", 16, &ctl,
								   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterRelcacheCallback(cache_invalidate, (Datum) 0);
	}
	AcceptInvalidationMessages();
	e = hash_search(cf_fdw_cache, &relid, HASH_ENTER, &found);
	if (!found)
	{
		e->valid = false;
		e->cxt = NULL;
		e->table = NULL;
	}
	if (!e->valid || e->generation != cfCatalogGeneration())
	{
		ForeignTable *ft = GetForeignTable(relid);
		char	   *ks = table_option(ft, "keyspace");
		char	   *cfname = table_option(ft, "column_family");
		const CfColumnFamily *cf = cfCatalogLookup(ks, cfname);
		MemoryContext cxt = AllocSetContextCreate(CacheMemoryContext, "cfstore foreign table",
												  ALLOCSET_SMALL_SIZES);
		MemoryContext old = MemoryContextSwitchTo(cxt);
		uint64		generation = cfCatalogGeneration();
		CfFdwTable *t;

		PG_TRY();
		{
			t = build_table(relid, cf, table_option_or_null(ft, "rows"), table_option_or_null(ft, "object_column"));
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(old);
			MemoryContextDelete(cxt);
			PG_RE_THROW();
		}
		PG_END_TRY();
		MemoryContextSwitchTo(old);
		/* the entry may have moved: the hash table is not changed meanwhile */
		e = hash_search(cf_fdw_cache, &relid, HASH_FIND, NULL);
		/*
		 * A scan of this transaction may still hold the old map (another
		 * scan's lock taken meanwhile can have processed the invalidation):
		 * it goes with the transaction, not now.
		 */
		if (e->cxt != NULL && IsTransactionState())
			MemoryContextSetParent(e->cxt, TopTransactionContext);
		else if (e->cxt != NULL)
			MemoryContextDelete(e->cxt);
		e->cxt = cxt;
		e->table = t;
		e->generation = generation;
		e->valid = true;
	}
	return e->table;
}

/* The validator of a value cell named name. */
static const CfType *
value_type(const CfFdwTable *t, const uint8 *name, int namelen)
{
	if (t->cf->is_counter)
		return t->cf->default_validator;
	if (t->cf->ncolumns == 0)
		return t->cf->default_validator;
	return cfCatalogValueValidator(t->cf, name, namelen);
}

/* The Cassandra type a column's bytes are in (the value's depends on its name). */
static const CfType *
column_type(const CfFdwTable *t, const CfFdwColumn *col, const uint8 *name, int namelen)
{
	const CfType *type = col->role == CF_FDW_VALUE ? value_type(t, name, namelen) : col->type;

	while (type->kind == CF_REVERSED)
		type = type->sub[0];
	return type;
}

/* Whether the empty byte string reads as NULL in column col: in every type but text and bytea. */
bool
cfFdwEmptyIsNull(const CfFdwColumn *col)
{
	return col->typid != BYTEAOID && col->typid != TEXTOID && col->typid != VARCHAROID;
}

/*
 * A cell's bytes as a value of a foreign table column.  The value column's
 * validator depends on the cell's name (name, namelen).  The empty byte
 * string is NULL in every type but text and bytea (cfFdwEmptyIsNull).
 */
Datum
cfFdwToDatum(const CfFdwTable *t, const CfFdwColumn *col, const uint8 *data, int len,
			 const uint8 *name, int namelen, bool *isnull)
{
	const CfType *type = column_type(t, col, name, namelen);
	Oid			typid = col->typid;

	*isnull = false;
	if (typid == BYTEAOID)
		return PointerGetDatum(cfMakeBytea(data, len));
	if (typid == TEXTOID || typid == VARCHAROID)
	{
		StringInfoData buf;

		/* UTF-8 text checked as pg_any_to_server checks it: a NUL or an invalid sequence raises */
		if (type->kind == CF_UTF8 && GetDatabaseEncoding() == PG_UTF8)
		{
			if (!cfPlainAscii((const char *) data, len))
				(void) pg_verify_mbstr(PG_UTF8, (const char *) data, len, false);
			return PointerGetDatum(cstring_to_text_with_len((const char *) data, len));
		}
		if (type->kind == CF_ASCII)
		{
			cfAsciiCheckText(data, len);
			return PointerGetDatum(cstring_to_text_with_len((const char *) data, len));
		}
		initStringInfo(&buf);
		return PointerGetDatum(cfTypeToText(type, data, len, &buf));
	}
	Assert(cfFdwEmptyIsNull(col));
	if (len == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}
	switch (type->kind)
	{
		case CF_LONG:
		case CF_COUNTER:
			if (len == 8 && typid == INT8OID)
				return Int64GetDatum((int64) cfReadBe64(data));
			break;
		case CF_INT32:
			if (len == 4 && (typid == INT4OID || typid == INT8OID))
				return typid == INT4OID ? Int32GetDatum((int32) cfReadBe32(data))
					: Int64GetDatum((int64) (int32) cfReadBe32(data));
			break;
		case CF_FLOAT:
			if (len == 4 && typid == FLOAT4OID)
			{
				uint32		u = cfReadBe32(data);
				float4		f;

				memcpy(&f, &u, 4);
				return Float4GetDatum(f);
			}
			break;
		case CF_DOUBLE:
			if (len == 8 && typid == FLOAT8OID)
			{
				uint64		u = cfReadBe64(data);
				float8		f;

				memcpy(&f, &u, 8);
				return Float8GetDatum(f);
			}
			break;
		case CF_BOOLEAN:
			if (len == 1 && typid == BOOLOID)
				return BoolGetDatum(data[0] != 0);
			break;
		case CF_DATE:
			if (len == 8 && typid == TIMESTAMPTZOID)
			{
				int64		ms = (int64) cfReadBe64(data);

				return TimestampTzGetDatum(ms * 1000 -
										   (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY);
			}
			break;
		case CF_UUID:
		case CF_LEXICALUUID:
		case CF_TIMEUUID:
			if (len == CF_UUID_LEN && (typid == UUIDOID || typid == cfTimeuuidOid()))
			{
				pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

				memcpy(u->data, data, CF_UUID_LEN);
				return UUIDPGetDatum(u);
			}
			break;
		default:
			break;
	}
	/* anything else: the text form through the type's input function */
	{
		Oid			typinput;
		Oid			typioparam;

		getTypeInputInfo(typid, &typinput, &typioparam);
		return OidInputFunctionCall(typinput, cfTypeToString(type, data, len), typioparam, -1);
	}
}

/*
 * A SQL value of a foreign table column as the bytes of its Cassandra type
 * (the value column's validator depends on the cell's name), validated.
 */
bytea *
cfFdwFromDatum(const CfFdwTable *t, const CfFdwColumn *col, Datum value, const uint8 *name, int namelen)
{
	const CfType *type = col->role == CF_FDW_VALUE ? value_type(t, name, namelen) : col->type;
	bytea	   *b = cfArgToBytes(type, value, col->typid, col->attname);

	if (col->typid == BYTEAOID)
		cfTypeValidate(type, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
	return b;
}

/*
 * Encode a SQL value compared with a column of Cassandra type `type`, for
 * a condition pushed into the storage engine (cffdw_plan.c decides which
 * pairs are pushed: those where equal SQL values are equal bytes and the
 * orders agree).  False if no stored value can equal it (an integer out
 * of Int32Type's range, say).
 */
bool
cfFdwEncodeExact(const CfType *type, Datum value, Oid valtype, bytea **out)
{
	uint8		buf[8];

	/* a ReversedType value is its base type's bytes */
	while (type->kind == CF_REVERSED)
		type = type->sub[0];
	switch (valtype)
	{
		case INT8OID:
		case INT4OID:
		case INT2OID:
			{
				int64		v = valtype == INT8OID ? DatumGetInt64(value)
					: valtype == INT4OID ? DatumGetInt32(value) : DatumGetInt16(value);

				if (type->kind == CF_INT32)
				{
					if (v < PG_INT32_MIN || v > PG_INT32_MAX)
						return false;
					*(uint32 *) buf = pg_hton32((uint32) (int32) v);
					*out = cfMakeBytea(buf, 4);
					return true;
				}
				if (type->kind == CF_LONG)
				{
					*(uint64 *) buf = pg_hton64((uint64) v);
					*out = cfMakeBytea(buf, 8);
					return true;
				}
				*out = cfArgToBytes(type, value, valtype, "bound");
				return true;
			}
		case TEXTOID:
		case VARCHAROID:
		case BYTEAOID:
			{
				struct varlena *v = PG_DETOAST_DATUM_PACKED(value);

				*out = cfMakeBytea(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v));
				return true;
			}
		case BOOLOID:
			buf[0] = DatumGetBool(value) ? 1 : 0;
			*out = cfMakeBytea(buf, 1);
			return true;
		default:
			/* uuid and timeuuid: 16 bytes */
			*out = cfMakeBytea(DatumGetUUIDP(value)->data, CF_UUID_LEN);
			return true;
	}
}

/* Component i of a composite name, or false if the name has fewer. */
static bool
composite_component(const uint8 *name, int len, int i, const uint8 **data, int *clen)
{
	int			p = 0;

	for (int k = 0; p + 3 <= len; k++)
	{
		int			l = (name[p] << 8) | name[p + 1];

		if (p + 2 + l + 1 > len)
			return false;
		if (k == i)
		{
			*data = name + p + 2;
			*clen = l;
			return true;
		}
		p += 2 + l + 1;
	}
	return false;
}

/*
 * A name or value the storage engine returned (a plain varlena copy, valid
 * as long as the row) as the column's datum without copying it, where its
 * bytes are the datum's: bytea, text of UTF-8 (verified) or ASCII bytes,
 * and the 16 bytes of a uuid or timeuuid.  False if it must be converted.
 */
static bool
datum_in_place(const CfFdwTable *t, const CfFdwColumn *col, const bytea *v, const uint8 *name, int namelen,
			   Datum *out)
{
	const CfType *type;
	int			len = VARSIZE(v) - VARHDRSZ;

	if (VARATT_IS_EXTENDED(v))
		return false;
	if (col->typid == BYTEAOID)
	{
		*out = PointerGetDatum(v);
		return true;
	}
	type = column_type(t, col, name, namelen);
	if (col->typid == TEXTOID || col->typid == VARCHAROID)
	{
		if (type->kind == CF_UTF8 && GetDatabaseEncoding() == PG_UTF8 &&
			(cfPlainAscii(VARDATA(v), len) || pg_verify_mbstr(PG_UTF8, VARDATA(v), len, true)))
		{
			*out = PointerGetDatum(v);
			return true;
		}
		return false;
	}
	if (len == CF_UUID_LEN && (type->kind == CF_TIMEUUID || type->kind == CF_UUID ||
							   type->kind == CF_LEXICALUUID) &&
		(col->typid == UUIDOID || col->typid == cfTimeuuidOid()))
	{
		*out = PointerGetDatum(VARDATA(v));
		return true;
	}
	return false;
}

/*
 * Fill the columns of a foreign table row (those needed, by attnum - 1)
 * from a cell the storage engine returned.
 */
void
cfFdwFillSlot(const CfFdwTable *t, const CfOutCell *c, const bool *needed, Datum *values, bool *nulls)
{
	const uint8 *name = (const uint8 *) VARDATA_ANY(c->name);
	int			namelen = VARSIZE_ANY_EXHDR(c->name);

	for (int i = 0; i < t->natts; i++)
	{
		const CfFdwColumn *col = &t->cols[i];

		nulls[i] = true;
		values[i] = (Datum) 0;
		if (!needed[i])
			continue;
		switch (col->role)
		{
			case CF_FDW_NONE:
				break;
			case CF_FDW_KEY:
				values[i] = cfFdwToDatum(t, col, (const uint8 *) VARDATA_ANY(c->key),
										 VARSIZE_ANY_EXHDR(c->key), name, namelen, &nulls[i]);
				break;
			case CF_FDW_KEY_PART:
				{
					const uint8 *d;
					int			l;

					if (composite_component((const uint8 *) VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key),
											col->component, &d, &l))
						values[i] = cfFdwToDatum(t, col, d, l, name, namelen, &nulls[i]);
				}
				break;
			case CF_FDW_CELL:
			case CF_FDW_OBJECT:
				break;			/* filled from the cells of the row (cffdw_scan.c) */
			case CF_FDW_SUPER:
				if (c->sc != NULL)
					values[i] = cfFdwToDatum(t, col, (const uint8 *) VARDATA_ANY(c->sc),
											 VARSIZE_ANY_EXHDR(c->sc), name, namelen, &nulls[i]);
				break;
			case CF_FDW_NAME:
				if (col->component < 0 && namelen > 0 &&
					datum_in_place(t, col, c->name, name, namelen, &values[i]))
					nulls[i] = false;
				else if (col->component < 0)
					values[i] = cfFdwToDatum(t, col, name, namelen, name, namelen, &nulls[i]);
				else
				{
					const uint8 *d;
					int			l;

					if (composite_component(name, namelen, col->component, &d, &l))
						values[i] = cfFdwToDatum(t, col, d, l, name, namelen, &nulls[i]);
				}
				break;
			case CF_FDW_VALUE:
				if (!c->is_counter && VARSIZE_ANY_EXHDR(c->value) > 0 &&
					datum_in_place(t, col, c->value, name, namelen, &values[i]))
				{
					nulls[i] = false;
					break;
				}
				values[i] = cfFdwToDatum(t, col, (const uint8 *) VARDATA_ANY(c->value),
										 VARSIZE_ANY_EXHDR(c->value), name, namelen, &nulls[i]);
				break;
			case CF_FDW_WRITETIME:
				if (!c->is_counter)
				{
					values[i] = Int64GetDatum(c->writetime);
					nulls[i] = false;
				}
				break;
			case CF_FDW_TTL:
				if (c->ttl > 0)
				{
					values[i] = col->typid == INT8OID ? Int64GetDatum(c->ttl) : Int32GetDatum(c->ttl);
					nulls[i] = false;
				}
				break;
		}
	}
}
