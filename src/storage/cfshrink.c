/*-------------------------------------------------------------------------
 *
 * cfshrink.c
 *	  Shrinking the file at the end of VACUUM: tree pages near the end of
 *	  the relation move into free pages nearer its start, and the free
 *	  pages left at the end are cut off, as heap's VACUUM truncates.
 *
 * Why.  Leaves that arrive interleaved are half full until VACUUM compacts
 * them (cfmerge.c); the leaves that gave all their runs are unlinked and
 * freed, but they lie all over the file, among the leaves that stay.
 * Freed pages are taken by later splits, so a table that keeps growing
 * reuses them; one that stops growing would keep a file twice its tree.
 *
 * When.  After the scan that frees pages (cfReclaimPages, which hands over
 * the set of free pages it found), if at least a sixteenth of the file, or
 * 1,000 pages, is free (heap's rule), VACUUM's TRUNCATE option and the
 * vacuum_truncate storage parameter allow it.
 *
 * How.  Under an ACCESS EXCLUSIVE lock, taken without waiting in a queue:
 * tried every 50 ms for up to 5 seconds, as heap does, and given up if it
 * cannot be had.  With it, nothing else reads or writes the relation, on
 * the primary or on a standby (which replays the lock), so a page can move
 * without the protocols that concurrent readers need (cffree.c, cfmerge.c).
 * The images of the root other backends keep (rd_amcache) go with the
 * relation cache invalidation VACUUM sends at its commit, before the lock
 * is let go.  The internal levels are read first: the parent of every page
 * and the left neighbour of every internal page.  Then the file is read
 * from its end: free, new and dead pages stay where they are (they will be
 * cut off); a tree page moves to the lowest free page, or unlinked leaf
 * (one that a snapshot still holds back from cfReclaimPages: nothing
 * reaches it under the lock, as nothing reaches it after), in one WAL record
 * (full page images, replayed by core) of every page that changes: the new
 * page gets the old one's contents, the old one is freed, the parent's
 * downlink (the metapage's root for the root) and the siblings' links
 * (the right-link of the left neighbour; for a leaf also the right
 * neighbour's left-link) name the new block.  So a crash between two moves
 * leaves a consistent tree with a freed page more, which the next VACUUM
 * cuts off.  The walk stops at a page it cannot move: the metapage, an
 * overflow page (long parts are referred to from inside runs and high
 * keys), a leaf that is the root, or a page with no downlink yet (the
 * right half of a split not finished); and when no free page is left
 * below it.  Every 32 moves it looks whether a backend waits for the lock
 * and stops if one does.  What lies after the page it stopped at is cut
 * off (RelationTruncate, WAL-logged).
 *
 * Cost.  Each move writes the full images of up to five pages to WAL, and
 * the maps of parents take 8 bytes per block of the relation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "access/xloginsert.h"
#include "catalog/pg_control.h"
#include "catalog/storage.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "utils/inval.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

/* How long and how often to try for the lock (heap's values). */
#define CF_SHRINK_LOCK_TIMEOUT_MS 5000
#define CF_SHRINK_LOCK_RETRY_MS 50
/* Moves between two looks for backends waiting for the lock. */
#define CF_SHRINK_CHECK_EVERY 32
/* The most pages one move changes: new, old, parent, two siblings. */
#define CF_SHRINK_MAX_PAGES 5

/* What move_page did. */
typedef enum CfMoveResult
{
	CF_MOVE_DONE,				/* moved */
	CF_MOVE_TAKEN,				/* the page to move to is not free any more */
	CF_MOVE_FAILED				/* a page around it is not what the map says */
} CfMoveResult;

/* What the walk knows of the internal levels. */
typedef struct CfShrinkMap
{
	BlockNumber nblocks;
	BlockNumber *parent;		/* each tree page's parent, or Invalid */
	BlockNumber *left;			/* each internal page's left neighbour, or Invalid */
	BlockNumber root;
	uint32		root_level;
} CfShrinkMap;

/* Whether a shrink of a file of nblocks with nfree free pages is worth the lock. */
static bool
worth_shrinking(BlockNumber nblocks, BlockNumber nfree)
{
	return nfree > 0 && (nfree >= 1000 || nfree >= nblocks / 16);
}

/* Take the ACCESS EXCLUSIVE lock without queueing, trying for a while; whether it was had. */
static bool
lock_for_shrink(Relation rel)
{
	for (int waited = 0; waited < CF_SHRINK_LOCK_TIMEOUT_MS; waited += CF_SHRINK_LOCK_RETRY_MS)
	{
		if (ConditionalLockRelation(rel, AccessExclusiveLock))
			return true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 CF_SHRINK_LOCK_RETRY_MS, WAIT_EVENT_VACUUM_TRUNCATE);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	return false;
}

/* Read the internal levels into map: every child's parent, every internal page's left neighbour. */
static void
read_internal(Relation rel, CfRelInfo *info, CfShrinkMap *map)
{
	BlockNumber blkno;
	uint32		level;

	map->parent = palloc_extended(sizeof(BlockNumber) * map->nblocks, MCXT_ALLOC_HUGE);
	map->left = palloc_extended(sizeof(BlockNumber) * map->nblocks, MCXT_ALLOC_HUGE);
	memset(map->parent, 0xFF, sizeof(BlockNumber) * map->nblocks);
	memset(map->left, 0xFF, sizeof(BlockNumber) * map->nblocks);
	cfRelInfoRefreshRoot(rel, info);
	map->root = info->root;
	map->root_level = info->root_level;
	blkno = map->root;
	level = map->root_level;
	while (level >= 1 && blkno != InvalidBlockNumber)
	{
		BlockNumber first_child = InvalidBlockNumber;
		BlockNumber start = blkno;
		uint32		moves = 0;

		while (blkno != InvalidBlockNumber)
		{
			Buffer		buf = ReadBuffer(rel, blkno);
			Page		page;
			CfPageOpaque op;

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			cfCheckTreePage(rel, buf, level);
			page = BufferGetPage(buf);
			op = CfPageGetOpaque(page);
			for (OffsetNumber off = CfPageFirstData(op); off <= PageGetMaxOffsetNumber(page); off++)
			{
				BlockNumber child = ((CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, off)))->child;

				if (child < map->nblocks)
					map->parent[child] = blkno;
				if (first_child == InvalidBlockNumber)
					first_child = child;
			}
			if (op->right < map->nblocks)
				map->left[op->right] = blkno;
			blkno = op->right;
			UnlockReleaseBuffer(buf);
			if (blkno != InvalidBlockNumber)
				cfCountMoveRight(rel, &moves, start);
		}
		blkno = first_child;
		level--;
	}
}

/*
 * Whether the locked page can be cut off or written over: new, free or an
 * unlinked leaf (nothing reaches one under the lock, see "How").
 */
static bool
page_removable(Page page)
{
	if (PageIsNew(page))
		return true;
	if (!CfPageIsCfstore(page))
		return false;
	return (CfPageGetOpaque(page)->flags & (CF_PAGE_FREE | CF_PAGE_DEAD)) != 0;
}

/* The offset of the downlink to child on the locked internal page, or InvalidOffsetNumber. */
static OffsetNumber
downlink_to(Relation rel, Page page, BlockNumber child)
{
	CfPageOpaque op = CfPageGetOpaque(page);

	for (OffsetNumber off = CfPageFirstData(op); off <= PageGetMaxOffsetNumber(page); off++)
		if (((CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, off)))->child == child)
			return off;
	return InvalidOffsetNumber;
}

/*
 * Whether the pages a move locks are distinct blocks of the file (the
 * invalid ones aside): links that damage made lead to the page itself, to
 * the page moved into, or to another of them would wait on a lock this
 * backend holds.
 */
static bool
distinct_pages(const CfShrinkMap *map, BlockNumber from, BlockNumber to, BlockNumber parent,
			   BlockNumber left, BlockNumber right)
{
	BlockNumber b[5] = {from, to, parent, left, right};

	for (int i = 0; i < 5; i++)
	{
		if (b[i] == InvalidBlockNumber)
			continue;
		if (b[i] >= map->nblocks)
			return false;
		for (int j = 0; j < i; j++)
			if (b[j] == b[i])
				return false;
	}
	return true;
}

/* Pin and exclusively lock blkno of rel. */
static Buffer
lock_page(Relation rel, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(rel, blkno);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	return buf;
}

/*
 * Move the tree page in bbuf (locked, block from) to block to, if that is
 * free; see "How" above.  Nothing changes unless it returns CF_MOVE_DONE.
 */
static CfMoveResult
move_page(Relation rel, CfShrinkMap *map, Buffer bbuf, BlockNumber to)
{
	BlockNumber from = BufferGetBlockNumber(bbuf);
	Page		bpage = BufferGetPage(bbuf);
	CfPageOpaque op = CfPageGetOpaque(bpage);
	bool		leaf = op->level == 0;
	bool		root = from == map->root;
	Buffer		bufs[CF_SHRINK_MAX_PAGES];
	int			nbufs = 0;
	Buffer		fbuf,
				pbuf,
				lbuf = InvalidBuffer,
				rbuf = InvalidBuffer;
	BlockNumber parent = root ? CF_META_BLOCK : map->parent[from];
	BlockNumber left = leaf ? op->left : map->left[from];
	OffsetNumber poff = InvalidOffsetNumber;
	CfMoveResult res = CF_MOVE_FAILED;

	if (parent == InvalidBlockNumber || (root && leaf) || !distinct_pages(map, from, to, parent, left,
																	   leaf ? op->right : InvalidBlockNumber))
		return CF_MOVE_FAILED;
	fbuf = lock_page(rel, to);
	if (!page_removable(BufferGetPage(fbuf)))
	{
		UnlockReleaseBuffer(fbuf);
		return CF_MOVE_TAKEN;
	}
	pbuf = lock_page(rel, parent);
	if (!CfPageIsCfstore(BufferGetPage(pbuf)))
		goto out;
	if (root)
	{
		if (CfPageGetMeta(BufferGetPage(pbuf))->root != from)
			goto out;
	}
	else if ((poff = downlink_to(rel, BufferGetPage(pbuf), from)) == InvalidOffsetNumber)
		goto out;
	if (left != InvalidBlockNumber)
	{
		lbuf = lock_page(rel, left);
		if (!CfPageIsCfstore(BufferGetPage(lbuf)) || CfPageGetOpaque(BufferGetPage(lbuf))->right != from)
			goto out;
	}
	if (leaf && op->right != InvalidBlockNumber)
	{
		rbuf = lock_page(rel, op->right);
		if (!CfPageIsCfstore(BufferGetPage(rbuf)) || CfPageGetOpaque(BufferGetPage(rbuf))->left != from)
			goto out;
	}

	bufs[nbufs++] = fbuf;
	bufs[nbufs++] = bbuf;
	bufs[nbufs++] = pbuf;
	if (BufferIsValid(lbuf))
		bufs[nbufs++] = lbuf;
	if (BufferIsValid(rbuf))
		bufs[nbufs++] = rbuf;
	XLogEnsureRecordSpace(nbufs - 1, 0);

	START_CRIT_SECTION();
	memcpy(BufferGetPage(fbuf), bpage, BLCKSZ);
	cfPageInit(bpage, 0, CF_PAGE_FREE);
	if (root)
		CfPageGetMeta(BufferGetPage(pbuf))->root = to;
	else
		((CfIndexTuple) PageGetItem(BufferGetPage(pbuf), PageGetItemId(BufferGetPage(pbuf), poff)))->child = to;
	if (BufferIsValid(lbuf))
		CfPageGetOpaque(BufferGetPage(lbuf))->right = to;
	if (BufferIsValid(rbuf))
		CfPageGetOpaque(BufferGetPage(rbuf))->left = to;
	for (int i = 0; i < nbufs; i++)
		MarkBufferDirty(bufs[i]);
	if (RelationNeedsWAL(rel))
	{
		XLogRecPtr	lsn;

		XLogBeginInsert();
		for (int i = 0; i < nbufs; i++)
			XLogRegisterBuffer(i, bufs[i], REGBUF_FORCE_IMAGE | REGBUF_STANDARD);
		lsn = XLogInsert(RM_XLOG_ID, XLOG_FPI);
		for (int i = 0; i < nbufs; i++)
			PageSetLSN(BufferGetPage(bufs[i]), lsn);
	}
	END_CRIT_SECTION();

	/* the map follows: the page's children and right neighbour now name `to` */
	map->parent[to] = map->parent[from];
	map->left[to] = map->left[from];
	if (root)
		map->root = to;
	if (!leaf)
	{
		Page		fpage = BufferGetPage(fbuf);
		CfPageOpaque fop = CfPageGetOpaque(fpage);

		for (OffsetNumber off = CfPageFirstData(fop); off <= PageGetMaxOffsetNumber(fpage); off++)
		{
			BlockNumber child = ((CfIndexTuple) PageGetItem(fpage, PageGetItemId(fpage, off)))->child;

			if (child < map->nblocks)
				map->parent[child] = to;
		}
		if (fop->right < map->nblocks)
			map->left[fop->right] = to;
	}
	res = CF_MOVE_DONE;

out:
	if (BufferIsValid(rbuf))
		UnlockReleaseBuffer(rbuf);
	if (BufferIsValid(lbuf))
		UnlockReleaseBuffer(lbuf);
	UnlockReleaseBuffer(pbuf);
	UnlockReleaseBuffer(fbuf);
	return res;
}

/*
 * Shrink rel's file if enough of it is free (see the header comment);
 * free holds the free pages cfReclaimPages found.  Counts go to st.
 */
void
cfShrink(Relation rel, CfRelInfo *info, const CfBlockSet *free, BlockNumber nfree,
		 struct VacuumParams *params, CfShrinkStats *st)
{
	CfShrinkMap map;
	BlockNumber hi,
				lo = CF_META_BLOCK + 1,
				cut;
	MemoryContext cxt,
				old;
	int			since_check = 0;

	memset(st, 0, sizeof(*st));
	if (params->truncate == VACOPTVALUE_DISABLED)
		return;
	if (!worth_shrinking(RelationGetNumberOfBlocks(rel), nfree))
		return;
	pgstat_progress_update_param(PROGRESS_VACUUM_PHASE, PROGRESS_VACUUM_PHASE_TRUNCATE);
	if (!lock_for_shrink(rel))
	{
		st->lock_missed = true;
		return;
	}

	cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore shrink", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	map.nblocks = RelationGetNumberOfBlocks(rel);
	read_internal(rel, info, &map);

	/* from the end: cut off what is free, move what is not, stop at what cannot move */
	cut = map.nblocks;
	for (hi = map.nblocks - 1; hi > CF_META_BLOCK; hi--)
	{
		Buffer		bbuf = lock_page(rel, hi);
		Page		bpage = BufferGetPage(bbuf);
		CfMoveResult res = CF_MOVE_FAILED;

		if (page_removable(bpage))
		{
			UnlockReleaseBuffer(bbuf);
			cut = hi;
			continue;
		}
		if (CfPageIsCfstore(bpage) && !(CfPageGetOpaque(bpage)->flags & (CF_PAGE_META | CF_PAGE_OVERFLOW)))
		{
			/* the lowest page still free (one the map named may have been taken since) */
			for (;; lo++)
			{
				while (lo < hi && !cfBlockSetHas(free, lo))
					lo++;
				if (lo >= hi)
					break;
				res = move_page(rel, &map, bbuf, lo);
				if (res != CF_MOVE_TAKEN)
					break;
			}
		}
		UnlockReleaseBuffer(bbuf);
		if (res != CF_MOVE_DONE)
			break;
		st->moved++;
		lo++;
		cut = hi;
		CHECK_FOR_INTERRUPTS();
		if (++since_check >= CF_SHRINK_CHECK_EVERY)
		{
			since_check = 0;
			if (LockHasWaitersRelation(rel, AccessExclusiveLock))
			{
				st->lock_waiters = true;
				break;
			}
		}
	}
	if (cut < map.nblocks)
	{
		RelationTruncate(rel, cut);
		st->truncated = map.nblocks - cut;
	}
	/* the pages moved into are no longer free; the ones cut off left the map with the file */
	for (BlockNumber b = CF_META_BLOCK + 1; b < lo && b < cut; b++)
		if (cfBlockSetHas(free, b))
			RecordUsedIndexPage(rel, b);
	IndexFreeSpaceMapVacuum(rel);
	/* every backend's image of the root and cached root block go at commit */
	CacheInvalidateRelcache(rel);
	info->rootcopy_blkno = InvalidBlockNumber;
	cfRelInfoRefreshRoot(rel, info);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}
