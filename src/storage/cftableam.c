/*-------------------------------------------------------------------------
 *
 * cftableam.c
 *	  The cfstore table access method: how PostgreSQL's generic table paths
 *	  (SELECT, COPY, INSERT, TRUNCATE, VACUUM, ANALYZE, ALTER TABLE SET
 *	  TABLESPACE, pg_dump) reach a column family's storage relation.
 *
 * Rows of a storage relation are live cells, reconciled:
 *
 *	key bytea, super_column bytea, column_name bytea, value bytea,
 *	writetime bigint, ttl integer, expires_at integer
 *
 * (counters: value is the 8-byte total, writetime NULL).  Inserting a row
 * writes the cell version the row describes (a NULL ttl: a cell that never
 * expires, not the column family's default); that is how COPY and
 * pg_restore load data.
 * Operations that address existing rows (UPDATE, DELETE, FOR UPDATE, index
 * scans) have no meaning for cells reconciled by timestamp and are refused
 * with a hint naming the API function to use.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/multixact.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_am_d.h"
#include "catalog/storage.h"
#include "catalog/storage_xlog.h"
#include "commands/vacuum.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "storage/cfstorage.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_am_handler);

typedef struct CfTableScanDesc
{
	TableScanDescData base;
	CfRelScanState *scan;
	uint64		rowno;
	/* ANALYZE: rows of the sampled page */
	CfOutCell  *sample;
	int			nsample;
	int			isample;
	MemoryContext samplecxt;
} CfTableScanDesc;

/* Raise the error for an operation a storage relation does not support. */
static void
not_supported(Relation rel, const char *what, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s is not supported on cfstore table \"%s\"", what,
					rel ? RelationGetRelationName(rel) : "?"),
			 errhint("%s", hint)));
}

/* Slots of storage relations are virtual: rows are built, not stored. */
static const TupleTableSlotOps *
cf_slot_callbacks(Relation rel pg_attribute_unused())
{
	return &TTSOpsVirtual;
}

/* A fake but valid tid for the n-th row of a scan. */
static void
row_tid(ItemPointer tid, uint64 n)
{
	ItemPointerSet(tid, (BlockNumber) (n >> 11), (OffsetNumber) ((n & 0x7ff) + 1));
}

/* Fill a slot from a cell. */
static void
store_cell(TupleTableSlot *slot, Relation rel, const CfOutCell *c, uint64 rowno)
{
	/* cfRelInfo checked the relation; a slot of another shape is a bug */
	if (slot->tts_tupleDescriptor->natts != CF_NATTS)
		elog(ERROR, "a slot of %d columns cannot hold a cell of cfstore table \"%s\"",
			 slot->tts_tupleDescriptor->natts, RelationGetRelationName(rel));
	ExecClearTuple(slot);
	memset(slot->tts_isnull, 0, sizeof(bool) * CF_NATTS);
	slot->tts_values[0] = PointerGetDatum(c->key);
	if (c->sc)
		slot->tts_values[1] = PointerGetDatum(c->sc);
	else
		slot->tts_isnull[1] = true;
	slot->tts_values[2] = PointerGetDatum(c->name);
	slot->tts_values[3] = PointerGetDatum(c->value);
	if (c->is_counter)
		slot->tts_isnull[4] = true;
	else
		slot->tts_values[4] = Int64GetDatum(c->writetime);
	if (c->ttl > 0)
	{
		slot->tts_values[5] = Int32GetDatum(c->ttl);
		slot->tts_values[6] = Int32GetDatum((int32) c->expires_at);
	}
	else
		slot->tts_isnull[5] = slot->tts_isnull[6] = true;
	ExecStoreVirtualTuple(slot);
	slot->tts_tableOid = RelationGetRelid(rel);
	row_tid(&slot->tts_tid, rowno);
}

/* Begin a scan of every live cell. */
static TableScanDesc
cf_scan_begin(Relation rel, Snapshot snapshot, int nkeys, struct ScanKeyData *key,
			  ParallelTableScanDesc pscan, uint32 flags)
{
	CfTableScanDesc *scan = palloc0(sizeof(CfTableScanDesc));

	if (pscan != NULL)
		not_supported(rel, "a parallel scan", "Parallel plans are disabled for cfstore tables.");
	scan->base.rs_rd = rel;
	scan->base.rs_snapshot = snapshot;
	scan->base.rs_nkeys = nkeys;
	scan->base.rs_key = key;
	scan->base.rs_flags = flags;
	if (flags & SO_TYPE_SAMPLESCAN)
		not_supported(rel, "TABLESAMPLE", "Use cfstore.get_range_slices() or a LIMIT.");
	if (flags & (SO_TYPE_SEQSCAN | SO_TYPE_TIDSCAN | SO_TYPE_TIDRANGESCAN))
		scan->scan = cfRelScanBegin(rel, snapshot);
	if (flags & SO_TYPE_ANALYZE)
		scan->samplecxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore analyze",
												ALLOCSET_DEFAULT_SIZES);
	return &scan->base;
}

/* End a scan. */
static void
cf_scan_end(TableScanDesc sscan)
{
	CfTableScanDesc *scan = (CfTableScanDesc *) sscan;

	if (scan->scan)
		cfRelScanEnd(scan->scan);
	if (scan->samplecxt)
		MemoryContextDelete(scan->samplecxt);
	if (sscan->rs_flags & SO_TEMP_SNAPSHOT)
		UnregisterSnapshot(sscan->rs_snapshot);
	pfree(scan);
}

/* Restart a scan. */
static void
cf_scan_rescan(TableScanDesc sscan, struct ScanKeyData *key pg_attribute_unused(),
			   bool set_params pg_attribute_unused(), bool allow_strat pg_attribute_unused(),
			   bool allow_sync pg_attribute_unused(), bool allow_pagemode pg_attribute_unused())
{
	CfTableScanDesc *scan = (CfTableScanDesc *) sscan;

	if (scan->scan)
		cfRelScanEnd(scan->scan);
	scan->scan = cfRelScanBegin(sscan->rs_rd, sscan->rs_snapshot);
	scan->rowno = 0;
}

/* The next live cell of a scan. */
static bool
cf_scan_getnextslot(TableScanDesc sscan, ScanDirection direction, TupleTableSlot *slot)
{
	CfTableScanDesc *scan = (CfTableScanDesc *) sscan;
	CfOutCell	c;

	if (direction == BackwardScanDirection)
		not_supported(sscan->rs_rd, "a backward scan", "Use cfstore.get_slice() with reversed => true.");
	if (scan->scan == NULL)
		scan->scan = cfRelScanBegin(sscan->rs_rd, sscan->rs_snapshot);
	if (!cfRelScanNext(scan->scan, &c))
	{
		ExecClearTuple(slot);
		return false;
	}
	store_cell(slot, sscan->rs_rd, &c, scan->rowno++);
	pgstat_count_heap_getnext(sscan->rs_rd);
	return true;
}

/* Parallel scans are switched off (see cfstore.c); these never run. */
static Size
cf_parallelscan_estimate(Relation rel)
{
	not_supported(rel, "a parallel scan", "Parallel plans are disabled for cfstore tables.");
	return 0;
}

/* Parallel scans are switched off: never runs. */
static Size
cf_parallelscan_initialize(Relation rel, ParallelTableScanDesc pscan pg_attribute_unused())
{
	not_supported(rel, "a parallel scan", "Parallel plans are disabled for cfstore tables.");
	return 0;
}

/* Parallel scans are switched off: never runs. */
static void
cf_parallelscan_reinitialize(Relation rel, ParallelTableScanDesc pscan pg_attribute_unused())
{
	not_supported(rel, "a parallel scan", "Parallel plans are disabled for cfstore tables.");
}

/* Indexes on storage relations are refused, so index fetches never happen. */
static struct IndexFetchTableData *
cf_index_fetch_begin(Relation rel)
{
	not_supported(rel, "an index", "Read through cfstore.get_slice() and the other API functions.");
	return NULL;
}

/* No index fetch is ever begun: nothing to reset. */
static void
cf_index_fetch_reset(struct IndexFetchTableData *data pg_attribute_unused())
{
}

/* No index fetch is ever begun: nothing to end. */
static void
cf_index_fetch_end(struct IndexFetchTableData *data pg_attribute_unused())
{
}

/* Indexes on storage relations are refused: never runs. */
static bool
cf_index_fetch_tuple(struct IndexFetchTableData *data, ItemPointer tid pg_attribute_unused(),
					 Snapshot snapshot pg_attribute_unused(),
					 TupleTableSlot *slot pg_attribute_unused(),
					 bool *call_again pg_attribute_unused(), bool *all_dead pg_attribute_unused())
{
	not_supported(data->rel, "an index", "Read through cfstore.get_slice() and the other API functions.");
	return false;
}

/* Rows have no stable address: fetching one by tid is refused. */
static bool
cf_tuple_fetch_row_version(Relation rel, ItemPointer tid pg_attribute_unused(),
						   Snapshot snapshot pg_attribute_unused(),
						   TupleTableSlot *slot pg_attribute_unused())
{
	not_supported(rel, "fetching a row by its ctid", "Read through cfstore.get_slice() and the other API functions.");
	return false;
}

/* No tid names a row for good: none is valid. */
static bool
cf_tuple_tid_valid(TableScanDesc scan pg_attribute_unused(), ItemPointer tid pg_attribute_unused())
{
	return false;
}

/* Rows have no versions chained by tid: the tid stays as it is. */
static void
cf_tuple_get_latest_tid(TableScanDesc scan pg_attribute_unused(),
						ItemPointer tid pg_attribute_unused())
{
}

/* A row of a scan was visible to the scan's snapshot when it was built. */
static bool
cf_tuple_satisfies_snapshot(Relation rel pg_attribute_unused(),
							TupleTableSlot *slot pg_attribute_unused(),
							Snapshot snapshot pg_attribute_unused())
{
	return true;
}

/* Indexes on storage relations are refused: never runs. */
static TransactionId
cf_index_delete_tuples(Relation rel, TM_IndexDeleteOp *delstate pg_attribute_unused())
{
	not_supported(rel, "an index", "Read through cfstore.get_slice() and the other API functions.");
	return InvalidTransactionId;
}

/* The datum of a slot column as bytes, or NULL. */
static bytea *
slot_bytea(TupleTableSlot *slot, int att)
{
	if (slot->tts_isnull[att])
		return NULL;
	return DatumGetByteaPP(slot->tts_values[att]);
}

/*
 * Insert a row of the column family cf's relation: one cell version, the
 * current transaction's, or xmin's (VACUUM FULL: see CfWrite).
 */
static void
insert_row(Relation rel, const CfColumnFamily *cf, TupleTableSlot *slot, CommandId cid, TransactionId xmin)
{
	CfWrite		w;
	bytea	   *key,
			   *sc,
			   *name,
			   *value;

	slot_getallattrs(slot);
	key = slot_bytea(slot, 0);
	sc = slot_bytea(slot, 1);
	name = slot_bytea(slot, 2);
	value = slot_bytea(slot, 3);

	memset(&w, 0, sizeof(w));
	w.cf = cf;
	if (key == NULL || name == NULL || value == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("key, column_name and value of a cfstore table must not be null")));
	w.key = (const uint8 *) VARDATA_ANY(key);
	w.keylen = VARSIZE_ANY_EXHDR(key);
	if (sc)
	{
		w.sc = (const uint8 *) VARDATA_ANY(sc);
		w.sclen = VARSIZE_ANY_EXHDR(sc);
		w.has_sc = true;
	}
	w.name = (const uint8 *) VARDATA_ANY(name);
	w.namelen = VARSIZE_ANY_EXHDR(name);
	w.value = (const uint8 *) VARDATA_ANY(value);
	w.valuelen = VARSIZE_ANY_EXHDR(value);
	w.kind = w.cf->is_counter ? CF_WRITE_COUNTER : CF_WRITE_COLUMN;
	w.has_writetime = !slot->tts_isnull[4];
	w.writetime = w.has_writetime ? DatumGetInt64(slot->tts_values[4]) : 0;
	w.ttl = slot->tts_isnull[5] ? 0 : DatumGetInt32(slot->tts_values[5]);
	w.has_ttl = !slot->tts_isnull[5];
	/* a row without ttl is a cell that never expires, whatever the default */
	w.exact_ttl = true;
	w.expires_at = slot->tts_isnull[6] ? 0 : (uint32) DatumGetInt32(slot->tts_values[6]);
	w.cid = cid;
	w.xmin = xmin;
	cfWriteCell(rel, &w);

	slot->tts_tableOid = RelationGetRelid(rel);
	row_tid(&slot->tts_tid, 0);
}

/* Insert a row: one cell version (INSERT, pg_restore). */
static void
cf_tuple_insert(Relation rel, TupleTableSlot *slot, CommandId cid,
				int options pg_attribute_unused(),
				struct BulkInsertStateData *bistate pg_attribute_unused())
{
	insert_row(rel, cfRelationColumnFamily(rel), slot, cid, InvalidTransactionId);
}

/* INSERT ... ON CONFLICT is refused. */
static void
cf_tuple_insert_speculative(Relation rel, TupleTableSlot *slot pg_attribute_unused(),
							CommandId cid pg_attribute_unused(), int options pg_attribute_unused(),
							struct BulkInsertStateData *bistate pg_attribute_unused(),
							uint32 specToken pg_attribute_unused())
{
	not_supported(rel, "INSERT ... ON CONFLICT", "cfstore.insert() already overwrites by timestamp.");
}

/* INSERT ... ON CONFLICT is refused. */
static void
cf_tuple_complete_speculative(Relation rel, TupleTableSlot *slot pg_attribute_unused(),
							  uint32 specToken pg_attribute_unused(),
							  bool succeeded pg_attribute_unused())
{
	not_supported(rel, "INSERT ... ON CONFLICT", "cfstore.insert() already overwrites by timestamp.");
}

/* COPY: insert the rows one by one, finding the column family once. */
static void
cf_multi_insert(Relation rel, TupleTableSlot **slots, int nslots, CommandId cid,
				int options pg_attribute_unused(),
				struct BulkInsertStateData *bistate pg_attribute_unused())
{
	const CfColumnFamily *cf;

	if (nslots == 0)
		return;
	cf = cfRelationColumnFamily(rel);
	for (int i = 0; i < nslots; i++)
		insert_row(rel, cf, slots[i], cid, InvalidTransactionId);
}

/* DELETE on a storage relation is refused (cfstore.remove() deletes). */
static TM_Result
cf_tuple_delete(Relation rel, ItemPointer tid pg_attribute_unused(),
				CommandId cid pg_attribute_unused(), Snapshot snapshot pg_attribute_unused(),
				Snapshot crosscheck pg_attribute_unused(), bool wait pg_attribute_unused(),
				TM_FailureData *tmfd pg_attribute_unused(), bool changingPart pg_attribute_unused())
{
	not_supported(rel, "DELETE", "Use cfstore.remove() or cfstore.truncate().");
	return TM_Ok;
}

/* UPDATE on a storage relation is refused (a newer cell overwrites). */
static TM_Result
cf_tuple_update(Relation rel, ItemPointer otid pg_attribute_unused(),
				TupleTableSlot *slot pg_attribute_unused(), CommandId cid pg_attribute_unused(),
				Snapshot snapshot pg_attribute_unused(), Snapshot crosscheck pg_attribute_unused(),
				bool wait pg_attribute_unused(), TM_FailureData *tmfd pg_attribute_unused(),
				LockTupleMode *lockmode pg_attribute_unused(),
				bool *update_indexes pg_attribute_unused())
{
	not_supported(rel, "UPDATE", "Use cfstore.insert(): a newer timestamp overwrites.");
	return TM_Ok;
}

/* Row locks are refused: writers never wait for each other. */
static TM_Result
cf_tuple_lock(Relation rel, ItemPointer tid pg_attribute_unused(),
			  Snapshot snapshot pg_attribute_unused(), TupleTableSlot *slot pg_attribute_unused(),
			  CommandId cid pg_attribute_unused(), LockTupleMode mode pg_attribute_unused(),
			  LockWaitPolicy wait_policy pg_attribute_unused(), uint8 flags pg_attribute_unused(),
			  TM_FailureData *tmfd pg_attribute_unused())
{
	not_supported(rel, "SELECT FOR UPDATE/SHARE", "Writers never wait for each other in cfstore: the newest timestamp wins.");
	return TM_Ok;
}

/* Bulk inserts leave nothing to finish. */
static void
cf_finish_bulk_insert(Relation rel pg_attribute_unused(), int options pg_attribute_unused())
{
}

/*
 * New storage (CREATE TABLE, TRUNCATE): an empty file, as heap's; the
 * metapage and root are created by the first insert.
 */
static void
cf_relation_set_new_filenode(Relation rel, const RelFileNode *newrnode, char persistence,
							 TransactionId *freezeXid, MultiXactId *minmulti)
{
	SMgrRelation srel;

	(void) cfRelationCfId(rel);
	cfCheckColumns(rel);
	*freezeXid = RecentXmin;
	*minmulti = GetOldestMultiXactId();
	srel = RelationCreateStorage(*newrnode, persistence, true);
	if (persistence == RELPERSISTENCE_UNLOGGED)
	{
		smgrcreate(srel, INIT_FORKNUM, false);
		log_smgrcreate(newrnode, INIT_FORKNUM);
		smgrimmedsync(srel, INIT_FORKNUM);
	}
	smgrclose(srel);
}

/*
 * TRUNCATE of a relation created in the same transaction: the file is cut
 * in place, so the relcache entry is not rebuilt, and what this backend
 * cached of the tree (its root, the root's image, the buffers blocks were
 * last found in) describes blocks that are gone: dropped, to be read
 * again from the empty relation.
 */
static void
cf_relation_nontransactional_truncate(Relation rel)
{
	RelationTruncate(rel, 0);
	if (rel->rd_amcache != NULL)
	{
		pfree(rel->rd_amcache);
		rel->rd_amcache = NULL;
	}
}

/* ALTER TABLE SET TABLESPACE: copy every fork (nothing refers to block locations outside). */
static void
cf_relation_copy_data(Relation rel, const RelFileNode *newrnode)
{
	SMgrRelation dstrel;

	dstrel = smgropen(*newrnode, rel->rd_backend);
	FlushRelationBuffers(rel);
	RelationCreateStorage(*newrnode, rel->rd_rel->relpersistence, true);
	RelationCopyStorage(RelationGetSmgr(rel), dstrel, MAIN_FORKNUM, rel->rd_rel->relpersistence);
	for (ForkNumber fork = MAIN_FORKNUM + 1; fork <= MAX_FORKNUM; fork++)
	{
		if (smgrexists(RelationGetSmgr(rel), fork))
		{
			smgrcreate(dstrel, fork, false);
			if (RelationIsPermanent(rel) ||
				(rel->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED && fork == INIT_FORKNUM))
				log_smgrcreate(newrnode, fork);
			RelationCopyStorage(RelationGetSmgr(rel), dstrel, fork, rel->rd_rel->relpersistence);
		}
	}
	RelationDropStorage(rel);
	smgrclose(dstrel);
}

/*
 * VACUUM FULL / CLUSTER: copy the live cells into the new storage.  Each
 * keeps the transaction that wrote it, frozen if every snapshot sees it
 * (committed before OldestXmin), so that a snapshot taken before VACUUM
 * FULL that reads the new storage later sees a column written since then
 * as absent, as it saw it before, rather than the copy as new; and
 * relfrozenxid becomes OldestXmin.  Counter totals are the copying
 * transaction's.  (What the latest snapshot no longer sees is not copied:
 * README "Limitations".)
 */
static void
cf_relation_copy_for_cluster(Relation OldTable, Relation NewTable, Relation OldIndex,
							 bool use_sort pg_attribute_unused(),
							 TransactionId OldestXmin,
							 TransactionId *xid_cutoff,
							 MultiXactId *multi_cutoff pg_attribute_unused(), double *num_tuples,
							 double *tups_vacuumed, double *tups_recently_dead)
{
	CfRelScanState *scan;
	CfOutCell	c;
	TupleTableSlot *slot;
	Snapshot	snapshot;
	const CfColumnFamily *cf = cfRelationColumnFamily(NewTable);
	CommandId	cid = GetCurrentCommandId(true);

	if (OldIndex != NULL)
		not_supported(OldTable, "CLUSTER", "cfstore tables are always clustered by row key and column name.");
	*num_tuples = *tups_vacuumed = *tups_recently_dead = 0;
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	slot = MakeSingleTupleTableSlot(RelationGetDescr(NewTable), &TTSOpsVirtual);
	scan = cfRelScanBegin(OldTable, snapshot);
	while (cfRelScanNext(scan, &c))
	{
		TransactionId xmin = c.xmin;

		if (!TransactionIdIsNormal(xmin) || TransactionIdPrecedes(xmin, OldestXmin))
			xmin = c.is_counter ? InvalidTransactionId : FrozenTransactionId;
		store_cell(slot, NewTable, &c, 0);
		insert_row(NewTable, cf, slot, cid, xmin);
		*num_tuples += 1;
		CHECK_FOR_INTERRUPTS();
	}
	cfRelScanEnd(scan);
	ExecDropSingleTupleTableSlot(slot);
	UnregisterSnapshot(snapshot);
	/* every cell left unfrozen is OldestXmin's or later (the counters: this transaction's) */
	if (TransactionIdIsNormal(OldestXmin) && TransactionIdFollows(OldestXmin, *xid_cutoff))
		*xid_cutoff = OldestXmin;
}

/* VACUUM: see cfvacuum.c. */
static void
cf_relation_vacuum(Relation rel, struct VacuumParams *params, BufferAccessStrategy bstrategy)
{
	cfVacuum(rel, params, bstrategy);
}

/* ANALYZE: sample leaf pages; each gives its columns' newest visible versions. */
static bool
cf_scan_analyze_next_block(TableScanDesc sscan, BlockNumber blockno, BufferAccessStrategy bstrategy)
{
	CfTableScanDesc *scan = (CfTableScanDesc *) sscan;
	MemoryContext old;

	MemoryContextReset(scan->samplecxt);
	scan->nsample = scan->isample = 0;
	old = MemoryContextSwitchTo(scan->samplecxt);
	scan->sample = cfSamplePage(sscan->rs_rd, blockno, bstrategy, &scan->nsample);
	MemoryContextSwitchTo(old);
	return true;
}

/* ANALYZE: the next sampled cell of the current block as a row. */
static bool
cf_scan_analyze_next_tuple(TableScanDesc sscan, TransactionId OldestXmin pg_attribute_unused(),
						   double *liverows, double *deadrows pg_attribute_unused(),
						   TupleTableSlot *slot)
{
	CfTableScanDesc *scan = (CfTableScanDesc *) sscan;

	if (scan->isample >= scan->nsample)
		return false;
	store_cell(slot, sscan->rs_rd, &scan->sample[scan->isample], scan->isample);
	scan->isample++;
	*liverows += 1;
	return true;
}

/* CREATE INDEX on a storage relation is refused. */
static double
cf_index_build_range_scan(Relation table_rel, Relation index_rel pg_attribute_unused(),
						  struct IndexInfo *index_info pg_attribute_unused(),
						  bool allow_sync pg_attribute_unused(),
						  bool anyvisible pg_attribute_unused(),
						  bool progress pg_attribute_unused(),
						  BlockNumber start_blockno pg_attribute_unused(),
						  BlockNumber numblocks pg_attribute_unused(),
						  IndexBuildCallback callback pg_attribute_unused(),
						  void *callback_state pg_attribute_unused(),
						  TableScanDesc scan pg_attribute_unused())
{
	not_supported(table_rel, "CREATE INDEX", "Cells are already clustered by row key and column name; secondary indexes are declared in column_metadata.");
	return 0;
}

/* CREATE INDEX on a storage relation is refused. */
static void
cf_index_validate_scan(Relation table_rel, Relation index_rel pg_attribute_unused(),
					   struct IndexInfo *index_info pg_attribute_unused(),
					   Snapshot snapshot pg_attribute_unused(),
					   struct ValidateIndexState *state pg_attribute_unused())
{
	not_supported(table_rel, "CREATE INDEX", "Cells are already clustered by row key and column name; secondary indexes are declared in column_metadata.");
}

/* Long values live in the relation's own overflow pages (cfoverflow.c): no TOAST table. */
static bool
cf_relation_needs_toast_table(Relation rel pg_attribute_unused())
{
	return false;
}

/* The access method of a TOAST table, were there one (there is none, see above). */
static Oid
cf_relation_toast_am(Relation rel pg_attribute_unused())
{
	return HEAP_TABLE_AM_OID;
}

/* Planner estimate: pages from the file, rows from the last VACUUM / ANALYZE. */
static void
cf_relation_estimate_size(Relation rel, int32 *attr_widths pg_attribute_unused(),
						  BlockNumber *pages, double *tuples, double *allvisfrac)
{
	BlockNumber npages = RelationGetNumberOfBlocks(rel);

	*pages = npages;
	*allvisfrac = 0;
	if (rel->rd_rel->reltuples >= 0 && rel->rd_rel->relpages > 0)
		*tuples = rel->rd_rel->reltuples / rel->rd_rel->relpages * npages;
	else
		*tuples = npages > 1 ? (double) (npages - 1) * 150 : 0;
}

/* TABLESAMPLE is refused. */
static bool
cf_scan_sample_next_block(TableScanDesc scan,
						  struct SampleScanState *scanstate pg_attribute_unused())
{
	not_supported(scan->rs_rd, "TABLESAMPLE", "Use cfstore.get_range_slices() or a LIMIT.");
	return false;
}

/* TABLESAMPLE is refused. */
static bool
cf_scan_sample_next_tuple(TableScanDesc scan,
						  struct SampleScanState *scanstate pg_attribute_unused(),
						  TupleTableSlot *slot pg_attribute_unused())
{
	not_supported(scan->rs_rd, "TABLESAMPLE", "Use cfstore.get_range_slices() or a LIMIT.");
	return false;
}

static const TableAmRoutine cf_methods = {
	.type = T_TableAmRoutine,
	.slot_callbacks = cf_slot_callbacks,
	.scan_begin = cf_scan_begin,
	.scan_end = cf_scan_end,
	.scan_rescan = cf_scan_rescan,
	.scan_getnextslot = cf_scan_getnextslot,
	.parallelscan_estimate = cf_parallelscan_estimate,
	.parallelscan_initialize = cf_parallelscan_initialize,
	.parallelscan_reinitialize = cf_parallelscan_reinitialize,
	.index_fetch_begin = cf_index_fetch_begin,
	.index_fetch_reset = cf_index_fetch_reset,
	.index_fetch_end = cf_index_fetch_end,
	.index_fetch_tuple = cf_index_fetch_tuple,
	.tuple_fetch_row_version = cf_tuple_fetch_row_version,
	.tuple_tid_valid = cf_tuple_tid_valid,
	.tuple_get_latest_tid = cf_tuple_get_latest_tid,
	.tuple_satisfies_snapshot = cf_tuple_satisfies_snapshot,
	.index_delete_tuples = cf_index_delete_tuples,
	.tuple_insert = cf_tuple_insert,
	.tuple_insert_speculative = cf_tuple_insert_speculative,
	.tuple_complete_speculative = cf_tuple_complete_speculative,
	.multi_insert = cf_multi_insert,
	.tuple_delete = cf_tuple_delete,
	.tuple_update = cf_tuple_update,
	.tuple_lock = cf_tuple_lock,
	.finish_bulk_insert = cf_finish_bulk_insert,
	.relation_set_new_filenode = cf_relation_set_new_filenode,
	.relation_nontransactional_truncate = cf_relation_nontransactional_truncate,
	.relation_copy_data = cf_relation_copy_data,
	.relation_copy_for_cluster = cf_relation_copy_for_cluster,
	.relation_vacuum = cf_relation_vacuum,
	.scan_analyze_next_block = cf_scan_analyze_next_block,
	.scan_analyze_next_tuple = cf_scan_analyze_next_tuple,
	.index_build_range_scan = cf_index_build_range_scan,
	.index_validate_scan = cf_index_validate_scan,
	.relation_size = table_block_relation_size,
	.relation_needs_toast_table = cf_relation_needs_toast_table,
	.relation_toast_am = cf_relation_toast_am,
	.relation_fetch_toast_slice = heap_fetch_toast_slice,
	.relation_estimate_size = cf_relation_estimate_size,
	.scan_bitmap_next_block = NULL,
	.scan_bitmap_next_tuple = NULL,
	.scan_sample_next_block = cf_scan_sample_next_block,
	.scan_sample_next_tuple = cf_scan_sample_next_tuple
};

/* Whether a relation uses the cfstore access method. */
bool
cfIsStorageRelation(Relation rel)
{
	return rel->rd_tableam == &cf_methods;
}

/* The handler of access method cfstore. */
Datum
cfstore_am_handler(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	PG_RETURN_POINTER(&cf_methods);
}
