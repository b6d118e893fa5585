/*-------------------------------------------------------------------------
 *
 * cfcatalog.c
 *	  Per-backend cache of column-family definitions (see cfcatalog.h).
 *
 * Entries live in a hash table in a child of CacheMemoryContext, keyed by
 * (keyspace, column family).  Any relcache invalidation of the catalog
 * table, or a relcache reset, drops every entry and the remembered table
 * oid (DDL is rare; DROP EXTENSION and a re-create change the oid).
 *
 * Lifetime.  Invalidations are processed whenever a lock is taken, so a
 * reset can happen while a caller still uses an entry.  A reset therefore
 * hands the old cache to TopTransactionContext instead of freeing it, and
 * an entry stays valid until the end of the transaction that looked it up.
 * An entry is read into a context of its own and joins the cache only if
 * no invalidation arrived while it was read; otherwise it is read again.
 * An error while reading leaves nothing behind.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "commands/extension.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "catalog/cfcatalog.h"

typedef struct CfCatalogKey
{
	char		keyspace[CF_NAME_BUFSIZE];
	char		name[CF_NAME_BUFSIZE];
} CfCatalogKey;

typedef struct CfCatalogEntry
{
	CfCatalogKey key;
	CfColumnFamily *cf;
} CfCatalogEntry;

static HTAB *cf_cache = NULL;
static MemoryContext cf_cache_cxt = NULL;
static Oid	cf_catalog_relid = InvalidOid;	/* cfstore.column_family */
static uint64 cf_cache_generation = 0;	/* counts resets */

PG_FUNCTION_INFO_V1(cfstore_catalog_changed);
PG_FUNCTION_INFO_V1(cfstore_column_family_info);

/* The oid of cfstore.column_family, or InvalidOid if it does not exist. */
static Oid
catalog_relid(void)
{
	if (!OidIsValid(cf_catalog_relid))
	{
		Oid			nsp = get_namespace_oid("cfstore", true);

		if (OidIsValid(nsp))
			cf_catalog_relid = get_relname_relid("column_family", nsp);
	}
	return cf_catalog_relid;
}

/* Free a context now, or at the end of the transaction if one is running. */
static void
release_context(MemoryContext cxt)
{
	if (IsTransactionState())
		MemoryContextSetParent(cxt, TopTransactionContext);
	else
		MemoryContextDelete(cxt);
}

/* Drop every cached entry (entries stay readable until transaction end). */
static void
cache_reset(void)
{
	if (cf_cache_cxt != NULL)
		release_context(cf_cache_cxt);
	cf_cache_cxt = NULL;
	cf_cache = NULL;
	cf_catalog_relid = InvalidOid;
	cf_cache_generation++;
}

/* Relcache callback: empty the cache when the catalog table changes. */
static void
relcache_callback(Datum arg, Oid relid)
{
	(void) arg;
	if (!OidIsValid(relid) || relid == cf_catalog_relid)
		cache_reset();
}

/* Register the invalidation callback; called from _PG_init. */
void
cfCatalogInit(void)
{
	CacheRegisterRelcacheCallback(relcache_callback, (Datum) 0);
}

/*
 * Trigger (AFTER ... FOR EACH STATEMENT on the catalog tables): tell every
 * backend that column-family definitions changed.
 */
Datum
cfstore_catalog_changed(PG_FUNCTION_ARGS)
{
	Oid			relid;

	if (!CALLED_AS_TRIGGER(fcinfo))
		elog(ERROR, "cfstore._catalog_changed() must be called as a trigger");
	relid = catalog_relid();
	if (OidIsValid(relid))
		CacheInvalidateRelcacheByRelid(relid);
	return PointerGetDatum(NULL);
}

/* Parse a type name of a catalog row into the cache context. */
static CfType *
parse_column(HeapTuple tup, TupleDesc desc, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);

	if (isnull)
		return NULL;
	return cfTypeParse(TextDatumGetCString(d));
}

/*
 * qsort comparator for column definitions: whole-name entries first, under
 * the name comparator, then the CQL3 columns by their names' bytes.
 */
static int
compare_column_defs(const void *a, const void *b, void *arg)
{
	const CfColumnDef *x = a;
	const CfColumnDef *y = b;

	if ((x->component >= 0) != (y->component >= 0))
		return x->component >= 0 ? 1 : -1;
	if (x->component >= 0)
		return cfBytesCompare((const uint8 *) VARDATA_ANY(x->name), VARSIZE_ANY_EXHDR(x->name),
							  (const uint8 *) VARDATA_ANY(y->name), VARSIZE_ANY_EXHDR(y->name));
	return cfTypeCompare((const CfType *) arg,
						 (const uint8 *) VARDATA_ANY(x->name), VARSIZE_ANY_EXHDR(x->name),
						 (const uint8 *) VARDATA_ANY(y->name), VARSIZE_ANY_EXHDR(y->name));
}

/* A text[] column of a catalog row as a C array in the current context. */
static char **
text_array_column(HeapTuple tup, TupleDesc desc, int col, int *n)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);
	Datum	   *elems;
	char	  **out;

	*n = 0;
	if (isnull)
		return NULL;
	deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT, &elems, NULL, n);
	out = palloc(sizeof(char *) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
		out[i] = TextDatumGetCString(elems[i]);
	return out;
}

/*
 * Pin search_path to pg_catalog, pg_temp for the SPI statements that
 * follow, until cfSearchPathRestore(level): their operators, functions and
 * types then resolve in pg_catalog, never in a schema of the caller's
 * search_path, whose objects could otherwise answer them (and poison the
 * per-backend caches built from what they return, which other roles' code
 * in the same session trusts).  Allowed in parallel mode.
 */
int
cfSearchPathPin(void)
{
	int			level = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return level;
}

/* Give search_path back its value from before cfSearchPathPin. */
void
cfSearchPathRestore(int level)
{
	AtEOXact_GUC(false, level);
}

/*
 * Run a catalog query with the latest snapshot, as PostgreSQL reads its own
 * catalogs: a REPEATABLE READ transaction must not cache (and so leave
 * behind) a definition older than what is committed.
 */
static void
catalog_query(const char *sql, int nargs, Oid *argtypes, Datum *args, long limit)
{
	int			pin = cfSearchPathPin();
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, argtypes);
	int			ret;

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql, SPI_result_code_string(SPI_result));
	/*
	 * Parallel mode (a storage relation scanned inside a parallel plan)
	 * forbids taking a new snapshot; there the query's own snapshot serves,
	 * as the catalog cannot change under a parallel query.
	 */
	ret = SPI_execute_snapshot(plan, args, NULL,
							   IsInParallelMode() ? InvalidSnapshot : GetLatestSnapshot(),
							   InvalidSnapshot, true, false, limit);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "catalog query \"%s\" failed: %s", sql, SPI_result_code_string(ret));
	SPI_freeplan(plan);
	cfSearchPathRestore(pin);
}

/*
 * The definition of a KEYS index on column def of cf, as the storage layer
 * sees it: a Standard column family whose rows are keyed by the indexed
 * value and whose columns are the row keys of cf, all bytes (so both sort
 * by unsigned bytes), with cf's gc_grace_seconds (src/storage/cfindex.c).
 * Allocated in the current memory context, which holds cf.
 */
static CfColumnFamily *
index_column_family(const CfColumnFamily *cf, const CfColumnDef *def)
{
	CfColumnFamily *ix = palloc0(sizeof(CfColumnFamily));
	CfType	   *bytes = cfTypeParse("BytesType");

	strlcpy(ix->keyspace, cf->keyspace, CF_NAME_BUFSIZE);
	strlcpy(ix->name, cf->name, CF_NAME_BUFSIZE);
	ix->id = def->index_id;
	ix->comparator = bytes;
	ix->key_validator = bytes;
	ix->default_validator = bytes;
	ix->gc_grace_seconds = cf->gc_grace_seconds;
	ix->index_of = cf->id;
	ix->index_column = def;
	ix->sharded = cf->sharded;
	return ix;
}

/* The compression method a column of the catalog names (NULL: none). */
static CfCompression
compression_column(HeapTuple tup, TupleDesc desc, int col)
{
	char	   *m = SPI_getvalue(tup, desc, col);

	if (m == NULL)
		return CF_COMPRESSION_NONE;
	if (strcmp(m, "pglz") == 0)
		return CF_COMPRESSION_PGLZ;
	if (strcmp(m, "lz4") == 0)
		return CF_COMPRESSION_LZ4;
	elog(ERROR, "unknown compression method \"%s\" in cfstore.column_family", m);
}

/* Read one column family from the catalog tables into cxt; NULL if absent. */
static CfColumnFamily *
read_column_family(const char *keyspace, const char *name, MemoryContext cxt)
{
	Oid			argtypes[2] = {TEXTOID, TEXTOID};
	Datum		args[2];
	CfColumnFamily *cf = NULL;

	args[0] = CStringGetTextDatum(keyspace);
	args[1] = CStringGetTextDatum(name);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_query("SELECT cf.id, cf.column_type, cf.comparator, cf.subcomparator, cf.key_validation_class, "
				  "cf.default_validation_class, cf.gc_grace_seconds, cf.default_time_to_live, "
				  "k.placement IS NOT NULL, cf.key_aliases, cf.column_aliases, cf.value_alias, "
				  "cf.compression "
				  "FROM cfstore.column_family cf JOIN cfstore.keyspace k ON k.name = cf.keyspace "
				  "WHERE cf.keyspace = $1 AND cf.name = $2",
				  2, argtypes, args, 1);

	if (SPI_processed == 1)
	{
		HeapTuple	tup = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		MemoryContext old = MemoryContextSwitchTo(cxt);
		bool		isnull;
		CfType	   *names;
		Datum		n;

		cf = palloc0(sizeof(CfColumnFamily));
		strlcpy(cf->keyspace, keyspace, CF_NAME_BUFSIZE);
		strlcpy(cf->name, name, CF_NAME_BUFSIZE);
		cf->id = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
		cf->is_super = strcmp(SPI_getvalue(tup, desc, 2), "Super") == 0;
		cf->comparator = parse_column(tup, desc, 3);
		cf->subcomparator = parse_column(tup, desc, 4);
		cf->key_validator = parse_column(tup, desc, 5);
		cf->default_validator = parse_column(tup, desc, 6);
		cf->is_counter = cf->default_validator->kind == CF_COUNTER;
		cf->gc_grace_seconds = DatumGetInt32(SPI_getbinval(tup, desc, 7, &isnull));
		cf->default_time_to_live = DatumGetInt32(SPI_getbinval(tup, desc, 8, &isnull));
		cf->sharded = DatumGetBool(SPI_getbinval(tup, desc, 9, &isnull));
		cf->key_aliases = text_array_column(tup, desc, 10, &cf->nkey_aliases);
		cf->column_aliases = text_array_column(tup, desc, 11, &cf->ncolumn_aliases);
		cf->value_alias = SPI_getvalue(tup, desc, 12);
		cf->compression = compression_column(tup, desc, 13);
		cf->cql_component = -1;
		MemoryContextSwitchTo(old);

		args[0] = Int32GetDatum(cf->id);
		argtypes[0] = INT4OID;
		catalog_query("SELECT name, validation_class, index_name, index_id, component_index "
					  "FROM cfstore.column_definition "
					  "WHERE column_family_id = $1",
					  1, argtypes, args, 0);

		old = MemoryContextSwitchTo(cxt);
		cf->ncolumns = (int) SPI_processed;
		cf->columns = palloc0(sizeof(CfColumnDef) * Max(cf->ncolumns, 1));
		for (int i = 0; i < cf->ncolumns; i++)
		{
			HeapTuple	t = SPI_tuptable->vals[i];
			n = SPI_getbinval(t, SPI_tuptable->tupdesc, 1, &isnull);
			cf->columns[i].name = DatumGetByteaPCopy(n);
			cf->columns[i].validator = parse_column(t, SPI_tuptable->tupdesc, 2);
			cf->columns[i].index_name = SPI_getvalue(t, SPI_tuptable->tupdesc, 3);
			n = SPI_getbinval(t, SPI_tuptable->tupdesc, 4, &isnull);
			cf->columns[i].index_id = isnull ? 0 : DatumGetInt32(n);
			n = SPI_getbinval(t, SPI_tuptable->tupdesc, 5, &isnull);
			cf->columns[i].component = isnull ? -1 : DatumGetInt32(n);
			if (isnull)
				cf->nwhole++;
			else
				cf->cql_component = cf->columns[i].component;
		}
		names = cf->is_super ? cf->subcomparator : cf->comparator;
		qsort_arg(cf->columns, cf->ncolumns, sizeof(CfColumnDef), compare_column_defs, names);
		for (int i = 0; i < cf->ncolumns; i++)
			if (cf->columns[i].index_id != 0)
			{
				cf->columns[i].index_cf = index_column_family(cf, &cf->columns[i]);
				cf->nindexes++;
			}
		MemoryContextSwitchTo(old);
	}
	else
	{
		/* tell a missing keyspace from a missing column family */
		catalog_query("SELECT 1 FROM cfstore.keyspace WHERE name = $1", 1, argtypes, args, 1);
		if (SPI_processed == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_SCHEMA_NAME),
					 errmsg("Keyspace %s does not exist", keyspace)));
	}
	SPI_finish();
	return cf;
}

/* Whether keyspace name exists (in a database with cfstore). */
bool
cfKeyspaceExists(const char *name)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	bool		exists;

	if (!OidIsValid(get_extension_oid("cfstore", true)))
		return false;
	args[0] = CStringGetTextDatum(name);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_query("SELECT 1 FROM cfstore.keyspace WHERE name = $1", 1, argtypes, args, 1);
	exists = SPI_processed > 0;
	SPI_finish();
	return exists;
}

/* Whether column family keyspace.name exists in a sharded keyspace. */
bool
cfColumnFamilySharded(const char *keyspace, const char *name)
{
	Oid			argtypes[2] = {TEXTOID, TEXTOID};
	Datum		args[2];
	bool		sharded;

	if (!OidIsValid(get_extension_oid("cfstore", true)))
		return false;
	args[0] = CStringGetTextDatum(keyspace);
	args[1] = CStringGetTextDatum(name);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_query("SELECT 1 FROM cfstore.column_family c JOIN cfstore.keyspace k ON k.name = c.keyspace"
				  " WHERE c.keyspace = $1 AND c.name = $2 AND k.placement IS NOT NULL", 2, argtypes, args, 1);
	sharded = SPI_processed > 0;
	SPI_finish();
	return sharded;
}

/* A keyspace whose schema role owns (in the current context), or NULL if it owns none. */
char *
cfKeyspaceOwnedBy(Oid role)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		args[1];
	char	   *name = NULL;
	MemoryContext cxt = CurrentMemoryContext;

	if (!OidIsValid(get_extension_oid("cfstore", true)))
		return NULL;
	args[0] = ObjectIdGetDatum(role);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_query("SELECT k.name FROM cfstore.keyspace k JOIN pg_catalog.pg_namespace n ON n.nspname = k.name "
				  "WHERE n.nspowner = $1 ORDER BY k.name", 1, argtypes, args, 1);
	if (SPI_processed > 0)
		name = MemoryContextStrdup(cxt, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	SPI_finish();
	return name;
}

/*
 * The definition of a column family, from the backend's cache.  Raises
 * Cassandra's errors for an unknown keyspace or column family.  Like a
 * lookup in PostgreSQL's own catalogs, it sees the latest committed
 * definition (and the current transaction's own changes), whatever the
 * isolation level.  The result stays valid until the end of the current
 * transaction.
 */
const CfColumnFamily *
cfCatalogLookup(const char *keyspace, const char *column_family)
{
	CfCatalogKey key;
	CfCatalogEntry *entry;
	CfColumnFamily *cf;
	bool		found;

	if (strlen(keyspace) >= CF_NAME_BUFSIZE || strlen(column_family) >= CF_NAME_BUFSIZE)
		ereport(ERROR,
				(errcode(strlen(keyspace) >= CF_NAME_BUFSIZE ? ERRCODE_INVALID_SCHEMA_NAME
						 : ERRCODE_UNDEFINED_TABLE),
				 errmsg(strlen(keyspace) >= CF_NAME_BUFSIZE ? "Keyspace %s does not exist"
						: "unconfigured columnfamily %s",
						strlen(keyspace) >= CF_NAME_BUFSIZE ? keyspace : column_family)));

	/* see committed DDL now, as PostgreSQL's own catalog lookups do */
	AcceptInvalidationMessages();

	memset(&key, 0, sizeof(key));
	strlcpy(key.keyspace, keyspace, CF_NAME_BUFSIZE);
	strlcpy(key.name, column_family, CF_NAME_BUFSIZE);

	if (cf_cache != NULL)
	{
		entry = hash_search(cf_cache, &key, HASH_FIND, NULL);
		if (entry != NULL)
			return entry->cf;
	}

	for (;;)
	{
		uint64		generation = cf_cache_generation;
		MemoryContext entry_cxt;

		if (!OidIsValid(catalog_relid()))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("extension \"cfstore\" is not installed in this database")));

		entry_cxt = AllocSetContextCreate(CacheMemoryContext, "cfstore column family",
										  ALLOCSET_SMALL_SIZES);
		PG_TRY();
		{
			cf = read_column_family(keyspace, column_family, entry_cxt);
		}
		PG_CATCH();
		{
			MemoryContextDelete(entry_cxt);
			PG_RE_THROW();
		}
		PG_END_TRY();
		if (cf == NULL)
		{
			MemoryContextDelete(entry_cxt);
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("unconfigured columnfamily %s", column_family)));
		}
		if (generation != cf_cache_generation)
		{
			/* the catalog changed while we read it: read it again */
			release_context(entry_cxt);
			continue;
		}

		if (cf_cache_cxt == NULL)
		{
			HASHCTL		ctl;

			cf_cache_cxt = AllocSetContextCreate(CacheMemoryContext, "cfstore catalog cache",
												 ALLOCSET_SMALL_SIZES);
			memset(&ctl, 0, sizeof(ctl));
			ctl.keysize = sizeof(CfCatalogKey);
			ctl.entrysize = sizeof(CfCatalogEntry);
			ctl.hcxt = cf_cache_cxt;
			cf_cache = hash_create("cfstore column families", 32, &ctl,
								   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		}
		MemoryContextSetParent(entry_cxt, cf_cache_cxt);
		entry = hash_search(cf_cache, &key, HASH_ENTER, &found);
		Assert(!found);
		entry->cf = cf;
		return cf;
	}
}

/*
 * The number of times the cache has been emptied.  An entry returned by
 * cfCatalogLookup stays in the cache, so it stays valid and current, for as
 * long as this number does not change (after AcceptInvalidationMessages).
 */
uint64
cfCatalogGeneration(void)
{
	return cf_cache_generation;
}

/*
 * The cached definition of the column family (or KEYS index) with this id,
 * if a lookup by name read it; else NULL.  The cache holds few entries.
 */
static const CfColumnFamily *
cached_by_id(int32 id)
{
	HASH_SEQ_STATUS status;
	CfCatalogEntry *entry;

	if (cf_cache == NULL)
		return NULL;
	hash_seq_init(&status, cf_cache);
	while ((entry = hash_seq_search(&status)) != NULL)
	{
		const CfColumnFamily *cf = entry->cf;

		if (cf->id == id)
		{
			hash_seq_term(&status);
			return cf;
		}
		for (int i = 0; i < cf->ncolumns; i++)
			if (cf->columns[i].index_id == id && cf->columns[i].index_cf != NULL)
			{
				hash_seq_term(&status);
				return cf->columns[i].index_cf;
			}
	}
	return NULL;
}

/*
 * The definition of the column family with this id (for the storage layer,
 * which knows relations by id); NULL if no column family has it.  The API
 * has usually just looked the column family up by name: the cache answers
 * then, without a catalog query (a new backend's first call makes one
 * query fewer).
 */
const CfColumnFamily *
cfCatalogLookupById(int32 id)
{
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1];
	char		keyspace[CF_NAME_BUFSIZE];
	char		name[CF_NAME_BUFSIZE];
	bool		found = false;
	bool		is_index = false;
	const CfColumnFamily *cf;

	/* see committed DDL now, as cfCatalogLookup does */
	AcceptInvalidationMessages();
	cf = cached_by_id(id);
	if (cf != NULL)
		return cf;

	if (!OidIsValid(catalog_relid()))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("extension \"cfstore\" is not installed in this database")));
	args[0] = Int32GetDatum(id);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_query("SELECT keyspace, name FROM cfstore.column_family WHERE id = $1",
				  1, argtypes, args, 1);
	if (SPI_processed == 0)
	{
		/* not a column family: perhaps one's index */
		catalog_query("SELECT cf.keyspace, cf.name FROM cfstore.column_definition d "
					  "JOIN cfstore.column_family cf ON cf.id = d.column_family_id WHERE d.index_id = $1",
					  1, argtypes, args, 1);
		is_index = true;
	}
	if (SPI_processed == 1)
	{
		strlcpy(keyspace, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1), CF_NAME_BUFSIZE);
		strlcpy(name, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2), CF_NAME_BUFSIZE);
		found = true;
	}
	SPI_finish();
	if (!found)
		return NULL;
	cf = cfCatalogLookup(keyspace, name);
	if (!is_index)
		return cf;
	for (int i = 0; i < cf->ncolumns; i++)
		if (cf->columns[i].index_id == id)
			return cf->columns[i].index_cf;
	return NULL;
}

/* The column_metadata entry of a column, or NULL if it has none. */
const CfColumnDef *
cfCatalogColumn(const CfColumnFamily *cf, const uint8 *name, int len)
{
	const CfType *names = cf->is_super ? cf->subcomparator : cf->comparator;
	int			lo = 0,
				hi = cf->nwhole - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		const CfColumnDef *d = &cf->columns[mid];
		int			c = cfTypeCompare(names, (const uint8 *) VARDATA_ANY(d->name),
									  VARSIZE_ANY_EXHDR(d->name), name, len);

		if (c == 0)
			return d;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	/* a CQL3 column: the name's component at cql_component */
	if (cf->cql_component >= 0 &&
		cfCompositeComponent(name, len, cf->cql_component, &name, &len))
	{
		lo = cf->nwhole;
		hi = cf->ncolumns - 1;
		while (lo <= hi)
		{
			int			mid = (lo + hi) / 2;
			const CfColumnDef *d = &cf->columns[mid];
			int			c = cfBytesCompare((const uint8 *) VARDATA_ANY(d->name),
										   VARSIZE_ANY_EXHDR(d->name), name, len);

			if (c == 0)
				return d;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
	}
	return NULL;
}

/*
 * The validator for a column's value: its column_metadata validation_class,
 * else the default_validation_class.
 */
const CfType *
cfCatalogValueValidator(const CfColumnFamily *cf, const uint8 *name, int len)
{
	const CfColumnDef *d = cfCatalogColumn(cf, name, len);

	return d != NULL ? d->validator : cf->default_validator;
}

/*
 * cfstore._column_family_info(keyspace, column_family): what the C layers
 * see of a column family, through the cache (for tests and debugging).
 */
Datum
cfstore_column_family_info(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = cfCatalogLookup(text_to_cstring(PG_GETARG_TEXT_PP(0)),
											   text_to_cstring(PG_GETARG_TEXT_PP(1)));
	TupleDesc	desc;
	Datum		values[8];
	bool		nulls[8] = {false};
	Datum	   *metadata;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	metadata = palloc(sizeof(Datum) * Max(cf->ncolumns, 1));
	for (int i = 0; i < cf->ncolumns; i++)
	{
		const CfType *names = cf->is_super ? cf->subcomparator : cf->comparator;
		const CfColumnDef *d = &cf->columns[i];

		metadata[i] = CStringGetTextDatum(psprintf("%s%s=%s", d->component >= 0 ? "[CQL3] " : "",
												   d->component >= 0 ? text_to_cstring(d->name)
												   : cfTypeToString(names, (const uint8 *) VARDATA_ANY(d->name),
																	VARSIZE_ANY_EXHDR(d->name)),
												   cfTypeShortName(d->validator->kind)));
	}
	values[0] = Int32GetDatum(cf->id);
	values[1] = CStringGetTextDatum(cf->is_super ? "Super" : "Standard");
	values[2] = CStringGetTextDatum(cfTypeName(cf->comparator));
	if (cf->subcomparator)
		values[3] = CStringGetTextDatum(cfTypeName(cf->subcomparator));
	else
		nulls[3] = true;
	values[4] = CStringGetTextDatum(cfTypeName(cf->key_validator));
	values[5] = CStringGetTextDatum(cfTypeName(cf->default_validator));
	values[6] = BoolGetDatum(cf->is_counter);
	values[7] = PointerGetDatum(construct_array(metadata, cf->ncolumns, TEXTOID, -1, false, TYPALIGN_INT));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
