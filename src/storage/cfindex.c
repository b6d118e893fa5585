/*-------------------------------------------------------------------------
 *
 * cfindex.c
 *	  KEYS secondary indexes (doc/semantics.md §8.6): keeping them
 *	  in step with every write, filling a new one, emptying them.
 *
 * An index is stored as a column family of its own, in a storage relation
 * like any other (cfstore_data.cf_<index_id>): one row per indexed value
 * (the row key is the value's bytes) whose columns are the row keys of the
 * indexed column family that hold that value, with empty values.  Both
 * sort by unsigned bytes, so the rows with a value come in key order, the
 * order get_indexed_slices returns them in.  An entry is a cell version
 * like any other: transactional, visible by the same rules, compacted by
 * VACUUM.
 *
 * Every write of an indexed column passes through cfWriteCell, which calls
 * cfIndexWrite before it stores the cell.  That reads the column's current
 * winner and follows reconciliation (§4, §5):
 *   - a new value that wins writes an entry (value, key) with the cell's
 *     timestamp and expiry (so it expires with the cell), and, if the
 *     value changed, a tombstone for (old value, key) at the old value's
 *     timestamp: it shadows the old value's entries and no later one (at
 *     the new timestamp it would also shadow the entry of the old value
 *     written back at that timestamp, which wins the column if it is the
 *     bigger value);
 *   - a value that loses (an older timestamp) changes nothing;
 *   - a column or row deletion that covers the current winner writes a
 *     tombstone for (its value, key) at the deletion's timestamp.
 * Entries are hints, not the truth: get_indexed_slices checks each row it
 * finds against the row itself (with the reader's snapshot), so an entry
 * that is stale (a concurrent write, a row deleted by a deletion newer
 * than a write) can cost a read but never give a wrong answer.  What the
 * maintenance guarantees is that no live matching row lacks an entry.
 *
 * The column of a CQL3 table (a component of the cell names, so a value of
 * one cell of many in its row) has entries named (row key, cell name)
 * instead, one per CQL row (cfcql_select.c reads them).
 *
 * Empty values cannot be row keys, so they are not indexed (a search for
 * the empty value scans the rows instead), and a value longer than 65535
 * bytes cannot be indexed: writing one is an error, as in Cassandra.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"

#include "storage/cfstorage.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_index_build);
PG_FUNCTION_INFO_V1(cfstore_index_truncate);

/* The longest value an index can hold (a row key). */
#define CF_INDEX_MAX_VALUE 65535

/* The current winner of one column of a row, as a read sees it now. */
typedef struct CfCurrent
{
	bool		live;
	bytea	   *value;
	int64		writetime;
} CfCurrent;

/*
 * Read the live value of (key, name) in the base relation with the latest
 * snapshot (committed writes of others and this transaction's earlier
 * commands).
 */
static void
read_current(Relation rel, const uint8 *key, int keylen, const uint8 *name, int namelen, CfCurrent *cur)
{
	CfSliceSpec spec;
	CfSliceState *slice;
	CfOutCell	c;
	Snapshot	snap = RegisterSnapshot(GetLatestSnapshot());

	memset(&spec, 0, sizeof(spec));
	spec.key = cfMakeBytea(key, keylen);
	spec.start = spec.finish = cfMakeBytea(name, namelen);
	spec.count = 1;
	slice = cfSliceBegin(rel, &spec, snap);
	cur->live = cfSliceNext(slice, &c);
	if (cur->live)
	{
		cur->value = (bytea *) pg_detoast_datum_copy((struct varlena *) c.value);
		cur->writetime = c.writetime;
	}
	cfSliceEnd(slice);
	UnregisterSnapshot(snap);
}

/*
 * The name of the entry for the cell (key, name) in def's index: the row
 * key, or for a column of a CQL3 table (a component of many cells of a row)
 * the composite (row key, cell name), so that each CQL row has an entry of
 * its own and a value leaving one row does not take the entry of another.
 */
static bytea *
entry_name(const CfColumnDef *def, const uint8 *key, int keylen, const uint8 *name, int namelen)
{
	StringInfoData buf;

	if (def->component < 0)
		return cfMakeBytea(key, keylen);
	initStringInfo(&buf);
	cfCompositeAppend(&buf, key, keylen, 0);
	cfCompositeAppend(&buf, name, namelen, 0);
	return cfMakeBytea(buf.data, buf.len);
}

/* Write one index cell (an entry, or with tombstone a deletion of one). */
static void
index_put(const CfColumnDef *def, CommandId cid, const uint8 *value, int valuelen,
		  const uint8 *key, int keylen, const uint8 *name, int namelen, int64 writetime, bool tombstone,
		  int32 ttl, uint32 expires_at)
{
	Relation	ixrel;
	CfWrite		iw;
	bytea	   *entry;

	if (valuelen == 0)
		return;					/* empty values are not indexed */
	entry = entry_name(def, key, keylen, name, namelen);
	ixrel = cfStorageOpen(cfStorageRelid(def->index_id, false), RowExclusiveLock);
	memset(&iw, 0, sizeof(iw));
	iw.cf = def->index_cf;
	iw.kind = tombstone ? CF_WRITE_TOMBSTONE : CF_WRITE_COLUMN;
	iw.key = value;
	iw.keylen = valuelen;
	iw.name = (const uint8 *) VARDATA(entry);
	iw.namelen = VARSIZE(entry) - VARHDRSZ;
	iw.value = (const uint8 *) "";
	iw.valuelen = 0;
	iw.writetime = writetime;
	iw.has_writetime = true;
	iw.exact_ttl = true;
	if (ttl > 0)
	{
		iw.has_ttl = true;
		iw.ttl = ttl;
		iw.expires_at = expires_at;
	}
	iw.cid = cid;
	cfWriteCell(ixrel, &iw);
	table_close(ixrel, NoLock);
}

/*
 * Keep one indexed column's entries in step with a deletion at deltime of
 * the cell w names (or, for a row or range deletion, of the column named
 * def).  A row or range deletion leaves the entries of a CQL3 table's
 * column, which stand for many cells of the row: they are hints, checked
 * by every read.
 */
static void
index_delete(Relation rel, const CfColumnDef *def, const CfWrite *w, int64 deltime)
{
	CfCurrent	cur;
	bool		whole = w->namelen == 0 || w->kind == CF_WRITE_RANGE_TOMBSTONE;
	const uint8 *name = whole ? (const uint8 *) VARDATA_ANY(def->name) : w->name;
	int			namelen = whole ? (int) VARSIZE_ANY_EXHDR(def->name) : w->namelen;

	if (whole && def->component >= 0)
		return;
	/* a range deletion: the column's entries if the range holds its name */
	if (w->kind == CF_WRITE_RANGE_TOMBSTONE &&
		((w->namelen > 0 && cfTypeCompare(w->cf->comparator, name, namelen, w->name, w->namelen) < 0) ||
		 (w->valuelen > 0 && cfTypeCompare(w->cf->comparator, name, namelen, w->value, w->valuelen) > 0)))
		return;
	read_current(rel, w->key, w->keylen, name, namelen, &cur);
	/* deletion wins ties (§5) */
	if (cur.live && deltime >= cur.writetime)
		index_put(def, w->cid, (const uint8 *) VARDATA_ANY(cur.value), VARSIZE_ANY_EXHDR(cur.value),
				  w->key, w->keylen, name, namelen, deltime, true, 0, 0);
}

/*
 * Keep the indexes of w's column family in step with w, about to be stored
 * as cell (whose timestamp and expiry are final).  Called before the cell
 * is stored, so the reads see the column as it was.
 */
void
cfIndexWrite(Relation rel, const CfWrite *w, const CfCell *cell)
{
	const CfColumnFamily *cf = w->cf;

	Assert(cf->nindexes > 0 && !cf->is_super && !cf->is_counter);
	if ((w->kind == CF_WRITE_TOMBSTONE && w->namelen == 0) || w->kind == CF_WRITE_RANGE_TOMBSTONE)
	{
		/* a row deletion covers every indexed column, a range deletion those in its range */
		for (int i = 0; i < cf->ncolumns; i++)
			if (cf->columns[i].index_id != 0)
				index_delete(rel, &cf->columns[i], w, cell->writetime);
	}
	else
	{
		const CfColumnDef *def = cfCatalogColumn(cf, w->name, w->namelen);
		CfCurrent	cur;

		if (def == NULL || def->index_id == 0)
			return;
		if (w->kind == CF_WRITE_TOMBSTONE)
		{
			index_delete(rel, def, w, cell->writetime);
			return;
		}
		if (w->valuelen > CF_INDEX_MAX_VALUE)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Can't index column value of size %d for index %s on %s.%s",
							w->valuelen, def->index_name, cf->keyspace, cf->name)));
		read_current(rel, w->key, w->keylen, w->name, w->namelen, &cur);
		if (cur.live)
		{
			const uint8 *old = (const uint8 *) VARDATA_ANY(cur.value);
			int			oldlen = VARSIZE_ANY_EXHDR(cur.value);
			bool		same = oldlen == w->valuelen && memcmp(old, w->value, oldlen) == 0;

			/* the new version must win (§4: a later timestamp, or the bigger value) */
			if (cell->writetime < cur.writetime ||
				(cell->writetime == cur.writetime &&
				 cfSignedBytesCompare(old, oldlen, w->value, w->valuelen) >= 0))
				return;
			if (!same)
				index_put(def, w->cid, old, oldlen, w->key, w->keylen, w->name, w->namelen, cur.writetime,
						  true, 0, 0);
		}
		index_put(def, w->cid, w->value, w->valuelen, w->key, w->keylen, w->name, w->namelen,
				  cell->writetime, false, (cell->flags & CF_CELL_EXPIRING) ? cell->ttl : 0, cell->expires_at);
	}
}

/*
 * Check the indexes of cf (base relation rel): every live value of an
 * indexed column (up to 65535 bytes, not empty) has a live entry, with the
 * cell's timestamp or a later one.  Raises on the first one missing.
 * check_tree checks each index relation's own structure.
 */
void
cfIndexVerify(Relation rel, const CfColumnFamily *cf, void (*check_tree) (Relation, Relation))
{
	CfRelScanState *scan;
	CfOutCell	c;
	Snapshot	snapshot = GetActiveSnapshot();

	for (int i = 0; i < cf->ncolumns; i++)
		if (cf->columns[i].index_id != 0)
		{
			Relation	ixrel = cfStorageOpen(cfStorageRelid(cf->columns[i].index_id, false), AccessShareLock);

			check_tree(ixrel, rel);
			table_close(ixrel, NoLock);
		}
	scan = cfRelScanBegin(rel, snapshot);
	while (cfRelScanNext(scan, &c))
	{
		const CfColumnDef *def = cfCatalogColumn(cf, (const uint8 *) VARDATA_ANY(c.name),
												 VARSIZE_ANY_EXHDR(c.name));
		Relation	ixrel;
		CfSliceSpec spec;
		CfSliceState *slice;
		CfOutCell	e;
		bool		found;

		if (def == NULL || def->index_id == 0 || VARSIZE_ANY_EXHDR(c.value) == 0 ||
			VARSIZE_ANY_EXHDR(c.value) > CF_INDEX_MAX_VALUE)
			continue;
		ixrel = cfStorageOpen(cfStorageRelid(def->index_id, false), AccessShareLock);
		memset(&spec, 0, sizeof(spec));
		spec.key = c.value;
		spec.start = spec.finish = entry_name(def, (const uint8 *) VARDATA_ANY(c.key), VARSIZE_ANY_EXHDR(c.key),
											  (const uint8 *) VARDATA_ANY(c.name), VARSIZE_ANY_EXHDR(c.name));
		spec.count = 1;
		slice = cfSliceBegin(ixrel, &spec, snapshot);
		found = cfSliceNext(slice, &e) && e.writetime >= c.writetime;
		cfSliceEnd(slice);
		if (!found)
			cfCorrupt(ixrel, InvalidBlockNumber, "Index %s of column family %s.%s lacks the entry of row %s.",
					  def->index_name, cf->keyspace, cf->name,
					  cfTypeToString(cf->key_validator, (const uint8 *) VARDATA_ANY(c.key),
									 VARSIZE_ANY_EXHDR(c.key)));
		table_close(ixrel, NoLock);
		CHECK_FOR_INTERRUPTS();
	}
	cfRelScanEnd(scan);
}

/* The column family and column definition of index index_id. */
static const CfColumnFamily *
index_lookup(int32 index_id, const CfColumnDef **def)
{
	const CfColumnFamily *ix = cfCatalogLookupById(index_id);

	if (ix == NULL || ix->index_of == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("no cfstore index has id %d", index_id)));
	*def = ix->index_column;
	return cfCatalogLookupById(ix->index_of);
}

/*
 * _index_build(index_id): enter every live value of the indexed column in
 * a new, empty index.  Writers of the column family are shut out until the
 * transaction ends (a SHARE lock on its storage relation), so none can
 * write the column without the index between this scan and the commit
 * that makes the index known to them, and the scan sees what those it
 * waited for committed.
 */
Datum
cfstore_index_build(PG_FUNCTION_ARGS)
{
	int32		index_id = PG_GETARG_INT32(0);
	const CfColumnDef *def;
	const CfColumnFamily *cf = index_lookup(index_id, &def);
	Relation	rel;
	const CfType *names = cf->comparator;
	CfRelScanState *scan;
	CfOutCell	c;
	CommandId	cid = GetCurrentCommandId(true);
	Snapshot	snapshot;
	int64		n = 0;

	/* before any lock: only the keyspace's owner may hold up its writers */
	cfCheckKeyspaceOwner(cf->keyspace);
	rel = cfStorageOpen(cfStorageRelid(cf->id, false), ShareLock);
	/* a sharded column family's cells, and indexes, are on its shards */
	if (cfRelSharded(rel))
	{
		table_close(rel, NoLock);
		PG_RETURN_VOID();
	}

	/*
	 * What the writers we waited for committed is not in the statement's
	 * snapshot, which predates the lock: read with a snapshot taken now.
	 */
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	scan = cfRelScanBegin(rel, snapshot);
	while (cfRelScanNext(scan, &c))
	{
		if (def->component >= 0
			? cfCatalogColumn(cf, (const uint8 *) VARDATA_ANY(c.name), VARSIZE_ANY_EXHDR(c.name)) != def
			: cfTypeCompare(names, (const uint8 *) VARDATA_ANY(c.name), VARSIZE_ANY_EXHDR(c.name),
							(const uint8 *) VARDATA_ANY(def->name), VARSIZE_ANY_EXHDR(def->name)) != 0)
			continue;
		/* values too long for an index cannot equal an expression's value (at most 64K) */
		if (VARSIZE_ANY_EXHDR(c.value) > CF_INDEX_MAX_VALUE)
			continue;
		index_put(def, cid, (const uint8 *) VARDATA_ANY(c.value), VARSIZE_ANY_EXHDR(c.value),
				  (const uint8 *) VARDATA_ANY(c.key), VARSIZE_ANY_EXHDR(c.key),
				  (const uint8 *) VARDATA_ANY(c.name), VARSIZE_ANY_EXHDR(c.name), c.writetime, false,
				  c.ttl, c.expires_at);
		n++;
		CHECK_FOR_INTERRUPTS();
	}
	cfRelScanEnd(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, NoLock);
	ereport(DEBUG1, (errmsg_internal("cfstore index %s: " INT64_FORMAT " entries", def->index_name, n)));
	PG_RETURN_VOID();
}

/*
 * _index_truncate(cf_id): empty the indexes of a column family whose
 * storage relation the caller of truncate() has just truncated (which
 * checked the TRUNCATE privilege; checked again here).  The indexes' relations belong to the keyspace's
 * owner; they are truncated as that owner, so the privilege on the column
 * family is what decides, as it does for every other write.
 */
Datum
cfstore_index_truncate(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = cfCatalogLookupById(PG_GETARG_INT32(0));
	Oid			save_userid;
	int			save_sec;
	Oid			owner;

	if (cf == NULL || cf->nindexes == 0)
		PG_RETURN_VOID();
	owner = cfKeyspaceOwner(cf->keyspace);
	if (pg_class_aclcheck(cfStorageRelid(cf->id, false), cfDdlCaller(), ACL_TRUNCATE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for column family %s.%s", cf->keyspace, cf->name)));
	GetUserIdAndSecContext(&save_userid, &save_sec);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		for (int i = 0; i < cf->ncolumns; i++)
		{
			if (cf->columns[i].index_id == 0)
				continue;
			SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE);
			if (SPI_execute(psprintf("TRUNCATE " CF_STORAGE_SCHEMA ".cf_%d", cf->columns[i].index_id),
							false, 0) != SPI_OK_UTILITY)
				elog(ERROR, "could not truncate index %s", cf->columns[i].index_name);
			SetUserIdAndSecContext(save_userid, save_sec);
		}
		SPI_finish();
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec);
	}
	PG_END_TRY();
	PG_RETURN_VOID();
}
