/*-------------------------------------------------------------------------
 *
 * cfrel.c
 *	  Storage relations and the column families they hold.
 *
 * A column family's cells live in the relation cfstore_data.cf_<id>, id
 * being cfstore.column_family.id.  The relation knows its column family
 * only by that name; the comparators it is ordered by come from the
 * catalog and, as they never change for an id, are kept for the life of
 * the backend in a small hash table.  rd_amcache holds a CfRelInfo (one
 * chunk, freed by the relcache) pointing at them, with the root block read
 * from the metapage and room for the readers' image of the root page
 * (8 kB per storage relation a backend has opened).
 *
 * The metapage is read here (read_root), and so it is made here too, with
 * the first root leaf, by the first write to an empty relation
 * (cfTreeEnsure): the rules for a metapage that is still all zeroes are
 * the same on both sides.  The tree's design is in src/storage/README.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/syscache.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

typedef struct CfOrderEntry
{
	int32		cf_id;
	bool		is_super;
	bool		is_counter;
	CfOrder		order;
	char		keyspace[CF_NAME_BUFSIZE];	/* names, to find the catalog entry fast */
	char		name[CF_NAME_BUFSIZE];
} CfOrderEntry;

static HTAB *order_cache = NULL;

/* The column family id a storage relation holds, from its name. */
int32
cfRelationCfId(Relation rel)
{
	const char *name = RelationGetRelationName(rel);
	char	   *nspname = get_namespace_name(RelationGetNamespace(rel));
	int32		id = 0;
	const char *p;

	/*
	 * VACUUM FULL and CLUSTER copy into a transient "pg_temp_<oid>" made in
	 * the same schema, named after the relation it replaces.
	 */
	if (nspname != NULL && strcmp(nspname, CF_STORAGE_SCHEMA) == 0 &&
		strncmp(name, "pg_temp_", 8) == 0)
	{
		char	   *end;
		unsigned long oid = strtoul(name + 8, &end, 10);
		char	   *orig = (*end == '\0' && oid > 0 && oid <= PG_UINT32_MAX) ? get_rel_name((Oid) oid) : NULL;

		if (orig != NULL)
			name = orig;
	}

	if (nspname == NULL || strcmp(nspname, CF_STORAGE_SCHEMA) != 0 || strncmp(name, "cf_", 3) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("table \"%s\" is not the storage of a cfstore column family", name),
				 errhint("Tables using the cfstore access method are created by cfstore.create_column_family().")));
	for (p = name + 3; *p; p++)
	{
		if (*p < '0' || *p > '9' || id > 100000000)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("table \"%s\" is not the storage of a cfstore column family", name),
					 errhint("Tables using the cfstore access method are created by cfstore.create_column_family().")));
		id = id * 10 + (*p - '0');
	}
	return id;
}

/* The columns of a storage relation, in order. */
static const struct
{
	const char *name;
	Oid			type;
}			cf_columns[CF_NATTS] =
{
	{"key", BYTEAOID},
	{"super_column", BYTEAOID},
	{"column_name", BYTEAOID},
	{"value", BYTEAOID},
	{"writetime", INT8OID},
	{"ttl", INT4OID},
	{"expires_at", INT4OID}
};

/*
 * Raise unless a relation has exactly the columns of a storage relation,
 * in order, and no dropped ones: every path fills rows by position.
 */
void
cfCheckColumns(Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (i >= CF_NATTS || att->attisdropped ||
			strcmp(NameStr(att->attname), cf_columns[i].name) != 0 ||
			att->atttypid != cf_columns[i].type)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("table \"%s\" does not have the columns of a cfstore storage relation",
							RelationGetRelationName(rel)),
					 errdetail("The columns must be key bytea, super_column bytea, column_name bytea, value bytea, writetime bigint, ttl integer, expires_at integer, and no others, not even dropped ones.")));
	}
	if (desc->natts != CF_NATTS)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" does not have the columns of a cfstore storage relation",
						RelationGetRelationName(rel)),
				 errdetail("The columns must be key bytea, super_column bytea, column_name bytea, value bytea, writetime bigint, ttl integer, expires_at integer, and no others, not even dropped ones.")));
}

/*
 * Raise unless rel is a table of the cfstore access method with the
 * columns of a storage relation: what every path that reads or writes
 * one relies on.
 */
void
cfCheckStorage(Relation rel)
{
	if (rel->rd_rel->relkind != RELKIND_RELATION || !cfIsStorageRelation(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a cfstore storage relation", RelationGetRelationName(rel)),
				 errdetail("A column family's storage relation is a table of access method cfstore.")));
	cfCheckColumns(rel);
}

/* The catalog entry of column family id, or raise. */
static const CfColumnFamily *
lookup_by_id(Relation rel, int32 id)
{
	const CfColumnFamily *cf = cfCatalogLookupById(id);

	if (cf == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("column family %d of table \"%s\" is not in the cfstore catalog",
						id, RelationGetRelationName(rel)),
				 errhint("Restore the cfstore catalog tables (schema cfstore) before the data of schema cfstore_data.")));
	return cf;
}

static CfOrderEntry *order_lookup(Relation rel, int32 cf_id);

/*
 * The column family a storage relation holds (errors if it is missing).
 * Its names are remembered per id, so this is a hash lookup in the
 * catalog cache, not a query.
 */
const CfColumnFamily *
cfRelationColumnFamily(Relation rel)
{
	int32		id = cfRelationCfId(rel);
	CfOrderEntry *entry = order_lookup(rel, id);
	const CfColumnFamily *cf = cfCatalogLookup(entry->keyspace, entry->name);

	/* an index is known by the names of its column family */
	if (cf->id != id)
		for (int i = 0; i < cf->ncolumns; i++)
			if (cf->columns[i].index_id == id)
				return cf->columns[i].index_cf;
	/* names are immutable and ids never reused, but be exact */
	if (cf->id != id)
	{
		cf = lookup_by_id(rel, id);
		strlcpy(entry->keyspace, cf->keyspace, CF_NAME_BUFSIZE);
		strlcpy(entry->name, cf->name, CF_NAME_BUFSIZE);
	}
	return cf;
}

/*
 * Storage relations found lately, by column family id: two catalog
 * lookups by name (the schema, the relation) were 1.6% of a one-cell
 * slice's backend time.  An entry goes when its relation's cache entry is
 * invalidated (dropped, or a reset of every entry) or the column families'
 * catalog changes; the oldest is replaced.
 */
#define CF_RELID_CACHE 16
typedef struct CfRelidEntry
{
	int32		cf_id;			/* 0: empty */
	Oid			relid;
	uint64		generation;		/* cfCatalogGeneration() when found */
} CfRelidEntry;

static CfRelidEntry relid_cache[CF_RELID_CACHE];
static int	relid_cache_next = 0;
static bool relid_callback_registered = false;

/* Relcache callback: forget the storage relation invalidated (every one, for InvalidOid). */
static void
relid_cache_callback(Datum arg, Oid relid)
{
	(void) arg;
	for (int i = 0; i < CF_RELID_CACHE; i++)
		if (!OidIsValid(relid) || relid_cache[i].relid == relid)
			relid_cache[i].cf_id = 0;
}

/* The storage relation of a column family, or InvalidOid if missing_ok. */
Oid
cfStorageRelid(int32 cf_id, bool missing_ok)
{
	char		name[NAMEDATALEN];
	Oid			nsp;
	Oid			relid = InvalidOid;

	for (int i = 0; i < CF_RELID_CACHE; i++)
		if (relid_cache[i].cf_id == cf_id && relid_cache[i].generation == cfCatalogGeneration())
			return relid_cache[i].relid;
	nsp = get_namespace_oid(CF_STORAGE_SCHEMA, missing_ok);
	snprintf(name, sizeof(name), "cf_%d", cf_id);
	if (OidIsValid(nsp))
		relid = get_relname_relid(name, nsp);
	if (!OidIsValid(relid))
	{
		if (!missing_ok)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("the storage relation %s.%s of column family %d is missing",
							CF_STORAGE_SCHEMA, name, cf_id)));
		return relid;
	}
	if (!relid_callback_registered)
	{
		CacheRegisterRelcacheCallback(relid_cache_callback, (Datum) 0);
		relid_callback_registered = true;
	}
	relid_cache[relid_cache_next].cf_id = cf_id;
	relid_cache[relid_cache_next].relid = relid;
	relid_cache[relid_cache_next].generation = cfCatalogGeneration();
	relid_cache_next = (relid_cache_next + 1) % CF_RELID_CACHE;
	return relid;
}

/*
 * Open a storage relation, checking that it still is one (cfCheckStorage,
 * once per relcache entry).  The caller found it before locking it: a
 * column family dropped by a transaction that committed while the lock was
 * awaited is a user's error, not a missing relation.
 */
Relation
cfStorageOpen(Oid relid, LOCKMODE lockmode)
{
	Relation	rel = try_table_open(relid, lockmode);

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("the column family was dropped by a concurrent transaction")));

	(void) cfRelInfo(rel);
	return rel;
}

/* The comparators of column family cf_id, cached for the backend's life. */
static CfOrderEntry *
order_lookup(Relation rel, int32 cf_id)
{
	CfOrderEntry *entry;
	bool		found;

	if (order_cache == NULL)
	{
		HASHCTL		ctl;

		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(int32);
		ctl.entrysize = sizeof(CfOrderEntry);
		ctl.hcxt = TopMemoryContext;
		order_cache = hash_create("cfstore comparators", 16, &ctl,
								  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	entry = hash_search(order_cache, &cf_id, HASH_FIND, NULL);
	if (entry == NULL)
	{
		const CfColumnFamily *cf = lookup_by_id(rel, cf_id);
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
		CfOrder		order;

		order.sccmp = cf->is_super ? cfTypeCopy(cf->comparator) : NULL;
		order.namecmp = cfTypeCopy(cf->is_super ? cf->subcomparator : cf->comparator);
		MemoryContextSwitchTo(old);
		entry = hash_search(order_cache, &cf_id, HASH_ENTER, &found);
		entry->is_super = cf->is_super;
		entry->is_counter = cf->is_counter;
		entry->order = order;
		strlcpy(entry->keyspace, cf->keyspace, CF_NAME_BUFSIZE);
		strlcpy(entry->name, cf->name, CF_NAME_BUFSIZE);
	}
	return entry;
}

/*
 * Read the root and its level from the metapage.  A new (all-zero)
 * metapage means no tree yet: the relation was just extended by the first
 * write, which initialises it next (cfTreeEnsure), or a crash came between
 * the two; the root is then InvalidBlockNumber, as in a relation without
 * pages.
 */
static void
read_root(Relation rel, BlockNumber *root, uint32 *root_level)
{
	Buffer		buf = ReadBuffer(rel, CF_META_BLOCK);
	Page		page;
	CfMetaPageData *meta;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (PageIsNew(page))
	{
		UnlockReleaseBuffer(buf);
		*root = InvalidBlockNumber;
		*root_level = 0;
		return;
	}
	meta = CfPageGetMeta(page);
	if (meta->magic != CF_META_MAGIC)
		cfCorrupt(rel, CF_META_BLOCK, "The metapage's magic number is %08x, not %08x.", meta->magic, CF_META_MAGIC);
	if (meta->version != CF_FORMAT_VERSION)
		cfCorrupt(rel, CF_META_BLOCK, "The metapage says format version %u; this build reads version %d.",
				  meta->version, CF_FORMAT_VERSION);
	*root = meta->root;
	*root_level = meta->root_level;
	UnlockReleaseBuffer(buf);
}

/* Re-read the root from the metapage into info. */
void
cfRelInfoRefreshRoot(Relation rel, CfRelInfo *info)
{
	read_root(rel, &info->root, &info->root_level);
}

/*
 * Create the metapage and an empty root leaf if the relation has none: a
 * new or truncated relation (storage is created empty, like heap's), or
 * one whose first write extended it and then did not get as far as the
 * WAL record that initialises its pages (a crash, an error), which leaves
 * block 0 all zeroes for good.
 *
 * A writer that extends an empty relation holds the extension lock until
 * it has locked the new pages, so a metapage found new under its own
 * exclusive lock, after waiting for the extension lock, is such a
 * remnant: it is initialised there with a new root.  The extension lock is
 * never waited for with the metapage locked the other way round: a root
 * split locks the metapage and then extends the relation.
 */
void
cfTreeEnsure(Relation rel, CfRelInfo *info)
{
	Buffer		meta,
				root;
	GenericXLogState *state;
	Page		mpage,
				rpage;

	LockRelationForExtension(rel, ExclusiveLock);
	if (RelationGetNumberOfBlocks(rel) == 0)
	{
		meta = ReadBuffer(rel, P_NEW);
		LockBuffer(meta, BUFFER_LOCK_EXCLUSIVE);
		root = ReadBuffer(rel, P_NEW);
		LockBuffer(root, BUFFER_LOCK_EXCLUSIVE);
		UnlockRelationForExtension(rel, ExclusiveLock);
		Assert(BufferGetBlockNumber(meta) == CF_META_BLOCK);
	}
	else
	{
		/* an extension in progress, if any, has its pages locked now */
		UnlockRelationForExtension(rel, ExclusiveLock);
		meta = ReadBuffer(rel, CF_META_BLOCK);
		LockBuffer(meta, BUFFER_LOCK_EXCLUSIVE);
		if (!PageIsNew(BufferGetPage(meta)))
		{
			UnlockReleaseBuffer(meta);
			cfRelInfoRefreshRoot(rel, info);
			return;
		}
		root = cfNewPage(rel);
	}

	state = GenericXLogStart(rel);
	mpage = GenericXLogRegisterBuffer(state, meta, GENERIC_XLOG_FULL_IMAGE);
	rpage = GenericXLogRegisterBuffer(state, root, GENERIC_XLOG_FULL_IMAGE);
	cfMetaPageInit(mpage, info->cf_id, BufferGetBlockNumber(root));
	cfPageInit(rpage, 0, CF_PAGE_LEAF | CF_PAGE_ROOT);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(root);
	UnlockReleaseBuffer(meta);
	cfRelInfoRefreshRoot(rel, info);
}

/* What this backend knows about a storage relation. */
CfRelInfo *
cfRelInfo(Relation rel)
{
	CfRelInfo  *info = (CfRelInfo *) rel->rd_amcache;

	if (info == NULL)
	{
		int32		cf_id;
		CfOrderEntry *entry;
		BlockNumber root = InvalidBlockNumber;
		uint32		root_level = 0;
		BlockNumber nblocks;
		uint32		nrecent = CF_RECENT_MIN;

		/* once per relcache entry, which any ALTER rebuilds */
		cfCheckStorage(rel);
		cf_id = cfRelationCfId(rel);
		entry = order_lookup(rel, cf_id);
		nblocks = RelationGetNumberOfBlocks(rel);
		if (nblocks > 0)
			read_root(rel, &root, &root_level);
		/* a hint slot per page of the relation as it is now, within bounds */
		while (nrecent < nblocks && nrecent < CF_RECENT_MAX)
			nrecent *= 2;
		info = MemoryContextAllocZero(CacheMemoryContext,
									  offsetof(CfRelInfo, recent) + sizeof(Buffer) * nrecent);
		info->nrecent = nrecent;
		info->cf_id = cf_id;
		info->is_super = entry->is_super;
		info->is_counter = entry->is_counter;
		info->order = entry->order;
		info->root = root;
		info->root_level = root_level;
		info->rootcopy_blkno = InvalidBlockNumber;
		info->sharded_generation = PG_UINT64_MAX;	/* not looked at yet */
		rel->rd_amcache = info;
	}
	return info;
}

/*
 * Whether the column family of a storage relation lives on shard servers
 * (then this relation holds nothing): looked up again once the catalog
 * has changed, so a keyspace sharded by another session is seen at the
 * next statement.
 */
bool
cfRelSharded(Relation rel)
{
	CfRelInfo  *info = cfRelInfo(rel);
	uint64		generation = cfCatalogGeneration();

	if (info->sharded_generation != generation)
	{
		info->sharded = cfRelationColumnFamily(rel)->sharded;
		info->sharded_generation = generation;
	}
	return info->sharded;
}

/* Set by src/shard when the library loads (see cfstorage.h). */
const CfRemoteStorage *cf_remote_storage = NULL;

/* The remote storage of rel's column family, or NULL if its cells are here. */
const CfRemoteStorage *
cfRemoteStorage(Relation rel)
{
	if (!cfRelSharded(rel))
		return NULL;
	if (cf_remote_storage == NULL)
		elog(ERROR, "no remote storage for sharded column family of table \"%s\"",
			 RelationGetRelationName(rel));
	return cf_remote_storage;
}

/*
 * Take an image of the root page (locked in buf, an internal page) for the
 * next descents, which read its items unchecked: they are checked here.
 */
void
cfRootCopyTake(Relation rel, CfRelInfo *info, Buffer buf)
{
	Page		root = BufferGetPage(buf);

	for (OffsetNumber off = FirstOffsetNumber; off <= PageGetMaxOffsetNumber(root); off++)
		if (!cfPageItemOk(root, off))
			cfBadItem(rel, root, BufferGetBlockNumber(buf), off);
	memcpy(info->rootcopy.data, root, BLCKSZ);
	info->rootcopy_blkno = info->root;
	info->rootcopy_stale = false;
	info->rootcopy_fxid = ReadNextFullTransactionId();
}

/* How many transaction ids old an image of a root over leaves may be (see below). */
#define CF_ROOTCOPY_MAX_AGE ((uint64) 1 << 30)

/*
 * Whether a descent may start from the backend's image of the root page:
 * it must be of the current root and not known to miss a downlink, and if
 * its children are leaves, which VACUUM may free and reuse (cffree.c), the
 * backend's xmin must not be past the next transaction id read when the
 * image was taken.  A leaf unlinked after that is stamped with a later id,
 * and VACUUM frees it only once the stamp is behind every backend's xmin
 * in the cluster, so not while this backend's xmin holds it back; an xmin
 * taken after the freeing is past the stamp.  The comparison of 32-bit ids
 * holds only for ids less than 2^31 apart, so an image older than 2^30 ids
 * is taken again.  The images of higher roots name internal pages only,
 * which are never freed.
 */
bool
cfRootCopyUsable(CfRelInfo *info)
{
	if (info->rootcopy_blkno != info->root || info->rootcopy_stale)
		return false;
	if (CfPageGetOpaque((Page) info->rootcopy.data)->level > 1)
		return true;
	if (!TransactionIdIsValid(MyProc->xmin) ||
		U64FromFullTransactionId(ReadNextFullTransactionId()) -
		U64FromFullTransactionId(info->rootcopy_fxid) > CF_ROOTCOPY_MAX_AGE)
		return false;
	return TransactionIdPrecedesOrEquals(MyProc->xmin, XidFromFullTransactionId(info->rootcopy_fxid));
}

/* The owner of a schema. */
static Oid
schema_owner(Oid nsp)
{
	HeapTuple	tup = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(nsp));
	Oid			owner;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for schema %u", nsp);
	owner = ((Form_pg_namespace) GETSTRUCT(tup))->nspowner;
	ReleaseSysCache(tup);
	return owner;
}

/* The owner of a keyspace (of its schema), who owns its storage relations. */
Oid
cfKeyspaceOwner(const char *keyspace)
{
	return schema_owner(get_namespace_oid(keyspace, false));
}

PG_FUNCTION_INFO_V1(cfstore_storage_create);

/* Raise unless the role cfstore's DDL acts for may act as the keyspace's owner. */
void
cfCheckKeyspaceOwner(const char *keyspace)
{
	if (!has_privs_of_role(cfDdlCaller(), cfKeyspaceOwner(keyspace)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be owner of keyspace %s", keyspace)));
}

/*
 * _storage_create(cf_id): create cfstore_data.cf_<id>, owned by the owner
 * of the column family's keyspace.  create_column_family's body runs it
 * as the extension's owner, who owns schema cfstore_data, for a caller
 * that owns the keyspace.
 */
Datum
cfstore_storage_create(PG_FUNCTION_ARGS)
{
	int			pin;
	int32		id = PG_GETARG_INT32(0);
	const CfColumnFamily *cf = cfCatalogLookupById(id);
	char	   *sql;

	if (cf == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("no column family has id %d", id)));
	cfCheckKeyspaceOwner(cf->keyspace);
	if (OidIsValid(cfStorageRelid(id, true)))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("the storage relation of column family %d already exists", id)));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	/* in the database's default tablespace, not one the caller has set (and may lack CREATE on) */
	(void) set_config_option("default_tablespace", "", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	sql = psprintf("CREATE TABLE " CF_STORAGE_SCHEMA ".cf_%d ("
				   "key bytea NOT NULL, super_column bytea, column_name bytea NOT NULL, "
				   "value bytea NOT NULL, writetime bigint, ttl integer, expires_at integer"
				   ") USING cfstore", id);
	if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "could not create the storage relation of column family %d", id);
	sql = psprintf("COMMENT ON TABLE " CF_STORAGE_SCHEMA ".cf_%d IS %s", id,
				   quote_literal_cstr(cf->index_of != 0
									  ? psprintf("cfstore index %s of column family %s.%s",
												 cf->index_column->index_name, cf->keyspace, cf->name)
									  : psprintf("cfstore column family %s.%s", cf->keyspace, cf->name)));
	SPI_execute(sql, false, 0);
	sql = psprintf("ALTER TABLE " CF_STORAGE_SCHEMA ".cf_%d OWNER TO %s", id,
				   quote_identifier(GetUserNameFromId(cfKeyspaceOwner(cf->keyspace), false)));
	if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "could not set the owner of the storage relation of column family %d", id);
	cfSearchPathRestore(pin);
	SPI_finish();
	PG_RETURN_OID(cfStorageRelid(id, false));
}
