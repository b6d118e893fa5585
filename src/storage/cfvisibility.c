/*-------------------------------------------------------------------------
 *
 * cfvisibility.c
 *	  Whether a cell version is visible to a snapshot.
 *
 * A version carries only its inserting transaction (xmin, cmin): it is
 * never updated or deleted in place, newer versions and tombstones
 * shadow it by Cassandra timestamp instead.  So this is the xmin half of
 * HeapTupleSatisfiesMVCC and friends (access/heap/heapam_visibility.c), in
 * the same order of checks: the current transaction and its command id
 * first, then, for MVCC snapshots, XidInMVCCSnapshot before the commit log
 * (a transaction is marked committed in pg_xact before it leaves the proc
 * array), then TransactionIdDidCommit.  Hints are set as heap sets them:
 * "aborted" always, "committed" only once the commit record is flushed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "storage/procarray.h"
#include "utils/snapmgr.h"

#include "storage/cfstorage.h"

/* Set a hint flag on the page, if it may be set now (heap's SetHintBits rule). */
static void
set_hint(uint8 *flagsptr, Buffer buf, uint8 hint, TransactionId xid)
{
	if (flagsptr == NULL || !BufferIsValid(buf))
		return;
	if (hint == CF_CELL_XMIN_COMMITTED)
	{
		XLogRecPtr	commitLSN = TransactionIdGetCommitLSN(xid);

		if (BufferIsPermanent(buf) && XLogNeedsFlush(commitLSN) &&
			BufferGetLSNAtomic(buf) < commitLSN)
			return;
	}
	*flagsptr |= hint;
	MarkBufferDirtyHint(buf, true);
}

/* Status of a cell's inserting transaction as far as the clog tells (no snapshot). */
static bool
xmin_committed(CfCell *cell, uint8 *flagsptr, Buffer buf)
{
	if (TransactionIdDidCommit(cell->xmin))
	{
		set_hint(flagsptr, buf, CF_CELL_XMIN_COMMITTED, cell->xmin);
		cell->flags |= CF_CELL_XMIN_COMMITTED;
		return true;
	}
	set_hint(flagsptr, buf, CF_CELL_XMIN_INVALID, cell->xmin);
	cell->flags |= CF_CELL_XMIN_INVALID;
	return false;
}

/*
 * Whether cell is visible to snapshot.  flagsptr, if not NULL, is the
 * cell's flag byte on the page in buf (share-locked at least), where hints
 * may be recorded.
 */
bool
cfCellVisible(CfCell *cell, uint8 *flagsptr, Buffer buf, Snapshot snapshot)
{
	TransactionId xmin = cell->xmin;

	if (cell->flags & CF_CELL_FROZEN)
		return true;
	if (cell->flags & CF_CELL_XMIN_INVALID)
		return snapshot->snapshot_type == SNAPSHOT_ANY;

	switch (snapshot->snapshot_type)
	{
		case SNAPSHOT_MVCC:
			if (!(cell->flags & CF_CELL_XMIN_COMMITTED))
			{
				if (TransactionIdIsCurrentTransactionId(xmin))
					return cell->cmin < snapshot->curcid;
				if (XidInMVCCSnapshot(xmin, snapshot))
					return false;
				return xmin_committed(cell, flagsptr, buf);
			}
			/* committed, but perhaps after the snapshot was taken */
			return !XidInMVCCSnapshot(xmin, snapshot);

		case SNAPSHOT_ANY:
			return true;

		case SNAPSHOT_SELF:
		case SNAPSHOT_TOAST:
		case SNAPSHOT_NON_VACUUMABLE:
			if (cell->flags & CF_CELL_XMIN_COMMITTED)
				return true;
			if (TransactionIdIsCurrentTransactionId(xmin))
				return true;
			if (TransactionIdIsInProgress(xmin))
				return snapshot->snapshot_type == SNAPSHOT_NON_VACUUMABLE;
			return xmin_committed(cell, flagsptr, buf);

		case SNAPSHOT_DIRTY:
			snapshot->xmin = snapshot->xmax = InvalidTransactionId;
			if (cell->flags & CF_CELL_XMIN_COMMITTED)
				return true;
			if (TransactionIdIsCurrentTransactionId(xmin))
				return true;
			if (TransactionIdIsInProgress(xmin))
			{
				snapshot->xmin = xmin;
				return true;
			}
			return xmin_committed(cell, flagsptr, buf);

		case SNAPSHOT_HISTORIC_MVCC:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cfstore relations cannot be read by logical decoding")));
	}
	return false;				/* keep the compiler quiet */
}
