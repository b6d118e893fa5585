/*-------------------------------------------------------------------------
 *
 * cfsearch.c
 *	  Finding a page in the cfstore B+tree: high keys and moving right,
 *	  choosing a downlink, the descent for writes (cfDescend), the descent
 *	  for reads (cfReadDescend), the descent to a level (cfFindPageAtLevel),
 *	  and the errors raised for links that lead where they cannot.
 *
 * The design is in src/storage/README ("The tree").  Locking follows
 * Lehman and Yao as nbtree does: a descent holds one buffer lock at a time
 * and moves right past a page whose high key is at or below the key it
 * wants, so it never needs the parent to be consistent with the child.  A
 * page covers [low key, high key): the separator of a downlink is the
 * first key its child may hold.  An inserter locks the leaf exclusively;
 * splits (cfsplit.c) lock bottom-up, descents top-down one page at a time,
 * so there is no deadlock.
 *
 * Both descents may start from the backend's image of the root page (see
 * cfReadDescend for why that is sound) and share the steps here: taking a
 * page's high key or a downlink's separator as the low key, moving right
 * one page (cfStepRight), locking the root the metapage names.  The read
 * descent is the hot path of every slice: its steps are inlined, and it
 * pins pages through the backend's table of recent buffers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "miscadmin.h"
#include "pgstat.h"

#include "storage/cfread.h"

/* The high key of a page that is not the rightmost of its level. */
static inline CfIndexTuple
high_key(Relation rel, Page page)
{
	return (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, CF_HIKEY));
}

/* The key of index tuple itup (a separator or a high key) into *dst, a copy in cxt. */
static inline void
copy_key(Relation rel, CfIndexTuple itup, CfKey *dst, MemoryContext cxt)
{
	CfKey		key;

	cfIndexTupleKey(rel, itup, &key);
	cfKeyCopy(&key, dst, cxt);
}

/*
 * Whether key lies at or beyond the high key of the internal or leaf page
 * (a descent or a reader must move right).  Every key is beyond a dead
 * page: its key space went to its right sibling (cffree.c).
 */
bool
cfBeyondHighKey(Relation rel, CfRelInfo *info, Page page, const CfKey *key)
{
	CfPageOpaque op = CfPageGetOpaque(page);

	if (CfPageIsDead(op))
		return true;
	if (CfPageIsRightmost(op))
		return false;
	return cfIndexTupleCompare(rel, &info->order, high_key(rel, page), key) <= 0;
}

/*
 * Raise for the page in buf, which a descent or a walk reached through a
 * downlink or a sibling link expecting a page of the tree at level, and
 * which is not one (cfCheckTreePage).  VACUUM frees an unlinked leaf for
 * other uses (an overflow chain, another place in the tree) only once no
 * snapshot that could hold a pointer to it is left (cffree.c), so on the
 * primary this is corruption.  A standby replays the freeing regardless of
 * its own snapshots unless hot_standby_feedback holds the primary back:
 * there the pointer was read before the freeing, and the read is
 * cancelled, as one that needs versions VACUUM removed is (cfwalk.c).
 */
void
cfNotTreePage(Relation rel, Buffer buf, uint16 level)
{
	if (RecoveryInProgress())
		cfPageFreedUnderRead(rel);
	cfCorrupt(rel, BufferGetBlockNumber(buf), "A link leads to a page that is not a tree page at level %u.", level);
}

/*
 * Cancel a standby read that met a page VACUUM on the primary freed (and
 * perhaps used again) under it.
 */
void
cfPageFreedUnderRead(Relation rel)
{
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("canceling statement due to conflict with recovery"),
			 errdetail("VACUUM on the primary freed a page of cfstore table \"%s\" that the query was reading.",
					   RelationGetRelationName(rel)),
			 errhint("Set hot_standby_feedback = on on the standby to keep it.")));
}

/*
 * Raise for right-links that lead somewhere they cannot, from block blkno
 * (damage: what is wrong).  On a standby, pages freed and used again under
 * the read can lead anywhere: the read is cancelled instead.
 */
static pg_attribute_noreturn() void
right_links_corrupt(Relation rel, BlockNumber blkno, const char *damage)
{
	if (RecoveryInProgress())
		cfPageFreedUnderRead(rel);
	cfCorrupt(rel, blkno, "%s", damage);
}

/*
 * Raise for leaf blkno, which a walk to the right reached a second time:
 * right-links lead only to higher keys, so one leads back.
 */
void
cfReachedAgain(Relation rel, BlockNumber blkno)
{
	right_links_corrupt(rel, blkno, "A walk to the right reached the page a second time.");
}

/*
 * Raise for a loop moving right from block start that reached more pages
 * than the relation has (cfCountMoveRight).
 */
void
cfRightLinksLoop(Relation rel, BlockNumber start)
{
	right_links_corrupt(rel, start, "The right-links followed from the page go round in a loop.");
}

/*
 * Move right from buf (locked in lockmode) while key lies beyond the
 * page's high key; returns the locked page that covers key.
 */
Buffer
cfMoveRight(Relation rel, CfRelInfo *info, Buffer buf, const CfKey *key, int lockmode)
{
	BlockNumber start = BufferGetBlockNumber(buf);
	uint32		moves = 0;

	for (;;)
	{
		Page		page = BufferGetPage(buf);
		CfPageOpaque op = CfPageGetOpaque(page);

		if (!cfBeyondHighKey(rel, info, page, key))
			return buf;
		buf = cfStepRight(rel, buf, op->right, op->level, lockmode, &moves, start);
	}
}

/*
 * On an internal page (or an image of one): the offset of the last
 * downlink whose separator is at or below key.  The first data item is
 * minus infinity.
 */
OffsetNumber
cfChooseDownlink(Relation rel, CfRelInfo *info, Page page, const CfKey *key)
{
	CfPageOpaque op = CfPageGetOpaque(page);
	OffsetNumber lo = CfPageFirstData(op);
	OffsetNumber hi = PageGetMaxOffsetNumber(page);

	/* invariant: item lo is <= key; find the last such */
	while (lo < hi)
	{
		OffsetNumber mid = lo + (hi - lo + 1) / 2;

		if (cfIndexTupleCompare(rel, &info->order,
								(CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, mid)), key) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* ---------------------------------------------------------------------
 * Descending for a write
 * ---------------------------------------------------------------------
 */

/*
 * Pin block child of a descent and let go of its parent, locked in parent.
 * The child's page header and special space, which the descent reads
 * first, are requested from memory before the parent is released, so that
 * the two overlap.
 */
static Buffer
descend_to(Relation rel, BlockNumber child, Buffer parent)
{
	Buffer		buf = ReadBuffer(rel, child);
	char	   *page = (char *) BufferGetPage(buf);

	__builtin_prefetch(page);
	__builtin_prefetch(page + BLCKSZ - sizeof(CfPageOpaqueData));
	if (BufferIsValid(parent))
		UnlockReleaseBuffer(parent);
	return buf;
}

/*
 * For a descent that will write: finish the split a crash interrupted of
 * the page in *buf (locked, exclusively if a leaf, flagged), as nbtree's
 * descents for insertion do.  Its right half has no downlink yet, and the
 * descent may be about to move right into it; a split of that page would
 * find no downlink to put its own next to.  stack: the pages above, or
 * NULL.  *buf comes back locked again as it was, to be looked at afresh.
 */
static void
finish_interrupted(Relation rel, CfRelInfo *info, Buffer *buf, CfStack *stack)
{
	BlockNumber blkno = BufferGetBlockNumber(*buf);
	bool		leaf = CfPageGetOpaque(BufferGetPage(*buf))->level == 0;

	if (!leaf)
	{
		/* an internal page is descended under a share lock */
		LockBuffer(*buf, BUFFER_LOCK_UNLOCK);
		LockBuffer(*buf, BUFFER_LOCK_EXCLUSIVE);
	}
	if (CfPageGetOpaque(BufferGetPage(*buf))->flags & CF_PAGE_INCOMPLETE_SPLIT)
		cfFinishSplit(rel, info, *buf, stack);
	UnlockReleaseBuffer(*buf);
	*buf = ReadBuffer(rel, blkno);
	LockBuffer(*buf, leaf ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
}

/*
 * Lock the page the cached metapage names as the root, in lockmode, into
 * *buf; whether it still is the root, at the level cached.
 */
static bool
lock_cached_root(Relation rel, CfRelInfo *info, int lockmode, Buffer *buf)
{
	Page		page;
	CfPageOpaque op;

	*buf = ReadBuffer(rel, info->root);
	LockBuffer(*buf, lockmode);
	page = BufferGetPage(*buf);
	if (!CfPageIsCfstore(page))
		cfNotTreePage(rel, *buf, info->root_level);
	op = CfPageGetOpaque(page);
	return (op->flags & CF_PAGE_ROOT) && op->level == info->root_level;
}

/*
 * For cfDescend: the root page, locked (exclusively if it is a leaf and
 * forupdate, else shared), the cached metapage re-read when it names a
 * page that is no longer the root; InvalidBuffer if the relation has no
 * tree yet.  The next descents start from an image of an internal root.
 */
static Buffer
lock_root(Relation rel, CfRelInfo *info, bool forupdate)
{
	bool		refreshed = false;

	for (;;)
	{
		Buffer		buf;
		CfPageOpaque op;

		if (info->root == InvalidBlockNumber)
		{
			if (RelationGetNumberOfBlocks(rel) > 0)
			{
				cfRelInfoRefreshRoot(rel, info);
				refreshed = true;
			}
			/* no tree yet (see read_root) */
			if (info->root == InvalidBlockNumber)
				return InvalidBuffer;
		}
		if (lock_cached_root(rel, info, (info->root_level == 0 && forupdate) ? BUFFER_LOCK_EXCLUSIVE
							 : BUFFER_LOCK_SHARE, &buf))
		{
			/* the next descents start from an image of it */
			if (info->root_level > 0)
				cfRootCopyTake(rel, info, buf);
			return buf;
		}
		op = CfPageGetOpaque(BufferGetPage(buf));
		/* the root moved (a root split): the cached metapage is stale */
		if (refreshed)
		{
			/*
			 * Still not a root: a crash interrupted a root split.  Any page
			 * is a valid starting point thanks to the right-links; go on
			 * from this one unless the lock mode is wrong for its level.
			 */
			if ((op->level == 0) == (info->root_level == 0))
				return buf;
			info->root_level = op->level;
			UnlockReleaseBuffer(buf);
			continue;
		}
		UnlockReleaseBuffer(buf);
		cfRelInfoRefreshRoot(rel, info);
		refreshed = true;
	}
}

/*
 * One step of a descent moving right from the locked page in buf, which key
 * lies beyond: the page's high key becomes the low key, if lowkey is not
 * NULL (a copy in lowcxt; a dead page's key space, and so its low key, is
 * its right sibling's now), and the right sibling comes back locked in
 * lockmode.
 */
static inline Buffer
pass_page(Relation rel, Buffer buf, int lockmode, CfKey *lowkey, MemoryContext lowcxt,
		  uint32 *moves, BlockNumber start)
{
	Page		page = BufferGetPage(buf);
	CfPageOpaque op = CfPageGetOpaque(page);

	if (lowkey != NULL && !CfPageIsDead(op))
		copy_key(rel, high_key(rel, page), lowkey, lowcxt);
	return cfStepRight(rel, buf, op->right, op->level, lockmode, moves, start);
}

/*
 * For cfDescend: follow the downlink for key of page, an internal page in
 * block blkno locked in parent (or an image of one, parent InvalidBuffer),
 * and let go of parent.  blkno goes on *stack (if stack is not NULL), the
 * downlink's separator to lowkey (if lowkey is not NULL) unless it is the
 * page's first, whose separator is the page's own low key, already there.
 * The child comes back locked: exclusively if a leaf and forupdate.
 */
static inline Buffer
descend_downlink(Relation rel, CfRelInfo *info, Page page, BlockNumber blkno, Buffer parent,
				 const CfKey *key, bool forupdate, CfStack **stack, CfKey *lowkey, MemoryContext lowcxt)
{
	OffsetNumber off = cfChooseDownlink(rel, info, page, key);
	CfIndexTuple itup = (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, off));
	uint16		level = CfPageGetOpaque(page)->level - 1;	/* the page goes with parent */
	Buffer		buf;

	if (lowkey && off != CfPageFirstData(CfPageGetOpaque(page)))
		copy_key(rel, itup, lowkey, lowcxt);
	if (stack)
	{
		CfStack    *s = palloc(sizeof(CfStack));

		s->blkno = blkno;
		s->parent = *stack;
		*stack = s;
	}
	buf = descend_to(rel, itup->child, parent);
	LockBuffer(buf, (level == 0 && forupdate) ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE);
	cfCheckTreePage(rel, buf, level);
	return buf;
}

/*
 * Descend from the root to the leaf page that covers key.  The leaf comes
 * back pinned and locked: exclusively if forupdate, else shared.  If stack
 * is not NULL it receives the internal pages passed (for splits); if lowkey
 * is not NULL it receives the leaf's low key (a copy in lowcxt).  Returns
 * InvalidBuffer if the relation has no pages yet.
 *
 * When the backend holds a current image of the root page (CfRelInfo's
 * rootcopy, see cfReadDescend for why any image of an internal page is a
 * sound start), the descent starts from it, and a descent that reads the
 * root page takes the image.  The stack then names the root the image was
 * taken from, which is what a descent that read the root just before it
 * split would name: a split of the level below moves right from it to the
 * parent that covers the separator, and a split of that page finds it is
 * no longer the root (cfsplit.c, insert_downlink).
 */
Buffer
cfDescend(Relation rel, CfRelInfo *info, const CfKey *key, bool forupdate,
		  CfStack **stack, CfKey *lowkey, MemoryContext lowcxt)
{
	Buffer		buf;
	bool		below_image = false;

	if (stack)
		*stack = NULL;
	if (lowkey)
		*lowkey = cfMinusInfinity;

	if (info->root != InvalidBlockNumber && info->root_level > 0 && cfRootCopyUsable(info))
	{
		buf = descend_downlink(rel, info, (Page) info->rootcopy.data, info->rootcopy_blkno, InvalidBuffer,
							   key, forupdate, stack, lowkey, lowcxt);
		below_image = true;
	}
	else
	{
		buf = lock_root(rel, info, forupdate);
		if (!BufferIsValid(buf))
			return InvalidBuffer;
	}

	for (;;)
	{
		Page		page;
		CfPageOpaque op;
		BlockNumber start = BufferGetBlockNumber(buf);
		uint32		moves = 0;

		/* move right past concurrent splits, remembering the low key */
		for (;;)
		{
			page = BufferGetPage(buf);
			op = CfPageGetOpaque(page);
			if (forupdate && (op->flags & CF_PAGE_INCOMPLETE_SPLIT) && !CfPageIsDead(op))
			{
				finish_interrupted(rel, info, &buf, stack ? *stack : NULL);
				continue;
			}
			if (!cfBeyondHighKey(rel, info, page, key))
				break;
			/* the image lacks a downlink: take it again next time */
			if (below_image)
				info->rootcopy_stale = true;
			buf = pass_page(rel, buf, (op->level == 0 && forupdate) ? BUFFER_LOCK_EXCLUSIVE : BUFFER_LOCK_SHARE,
							lowkey, lowcxt, &moves, start);
		}
		if (op->level == 0)
			return buf;
		below_image = false;
		buf = descend_downlink(rel, info, page, BufferGetBlockNumber(buf), buf,
							   key, forupdate, stack, lowkey, lowcxt);
	}
}

/*
 * The block of the page at `level` that covers key, found by a descent from
 * the current root (share locks, one at a time; nothing stays locked).
 */
BlockNumber
cfFindPageAtLevel(Relation rel, CfRelInfo *info, const CfKey *key, uint16 level)
{
	Buffer		buf;

	cfRelInfoRefreshRoot(rel, info);
	if (info->root_level < level)
		elog(ERROR, "no level %u above the split page", level);
	buf = ReadBuffer(rel, info->root);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	cfCheckTreePage(rel, buf, info->root_level);
	for (;;)
	{
		Page		page;
		CfPageOpaque op;
		OffsetNumber off;
		BlockNumber child;
		uint16		childlevel;

		buf = cfMoveRight(rel, info, buf, key, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		op = CfPageGetOpaque(page);
		if (op->level == level)
		{
			BlockNumber blkno = BufferGetBlockNumber(buf);

			UnlockReleaseBuffer(buf);
			return blkno;
		}
		off = cfChooseDownlink(rel, info, page, key);
		child = ((CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, off)))->child;
		childlevel = op->level - 1;
		UnlockReleaseBuffer(buf);
		buf = ReadBuffer(rel, child);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		cfCheckTreePage(rel, buf, childlevel);
	}
}

/* ---------------------------------------------------------------------
 * Descending for a read
 * ---------------------------------------------------------------------
 */

/*
 * On an internal page (or an image of one): the last downlink whose
 * separator is at or below key; its separator goes to lowkey (a copy in
 * lowcxt) unless it is the page's first downlink, whose separator is the
 * page's own low key, already there.  If left is not NULL, it receives the
 * downlink before that one, with its separator (unknown if there is none).
 */
static BlockNumber
follow_downlink(Relation rel, CfRelInfo *info, Page page, const CfKey *key,
				CfKey *lowkey, MemoryContext lowcxt, CfLeftLeaf *left)
{
	OffsetNumber first = CfPageFirstData(CfPageGetOpaque(page));
	OffsetNumber lo = cfChooseDownlink(rel, info, page, key);
	CfIndexTuple itup;

	if (left != NULL)
	{
		left->blkno = InvalidBlockNumber;
		if (lo > first)
		{
			CfIndexTuple prev = (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, lo - 1));

			left->blkno = prev->child;
			if (lo - 1 == first)
				left->lowkey = *lowkey; /* its bytes stay in lowcxt */
			else
				copy_key(rel, prev, &left->lowkey, lowcxt);
		}
	}
	itup = (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, lo));
	if (lo != first)
		copy_key(rel, itup, lowkey, lowcxt);
	return itup->child;
}

/*
 * Pin block blkno of a read descent.  The buffer that held the block when
 * this backend last descended to it is tried first: ReadRecentBuffer
 * checks under the buffer header's lock that it still does, which spares
 * the lookup in the shared buffer table with its partition lock (a latest-10
 * slice of the timeline benchmark: about 7% less time).  Else the block is
 * read as usual.  The relation's statistics count the access as ReadBuffer
 * counts a hit.
 */
static Buffer
read_recent(Relation rel, CfRelInfo *info, BlockNumber blkno)
{
	Buffer	   *recent = &info->recent[blkno & (info->nrecent - 1)];
	Buffer		buf;

	if (BufferIsValid(*recent) && ReadRecentBuffer(rel->rd_node, MAIN_FORKNUM, blkno, *recent))
	{
		pgstat_count_buffer_read(rel);
		pgstat_count_buffer_hit(rel);
		return *recent;
	}
	buf = ReadBuffer(rel, blkno);
	*recent = buf;
	return buf;
}

/*
 * Pin block child of a descent and let go of its parent, locked in parent
 * (or InvalidBuffer).  What the descent reads of the child is requested
 * from memory before the parent is released, so that the two overlap: the
 * whole of an internal page, whose search probes it all over (about 3%
 * less time for a 100-column slice than its header and special space
 * alone); of a leaf, its header with the line pointers (256 bytes hold
 * 58) and its top, where the special space, the high key and the first
 * runs are.  cfScanPage then asks for the runs it will read and, before
 * searching the page, for the first line of each run.
 */
static Buffer
pin_child(Relation rel, CfRelInfo *info, BlockNumber child, Buffer parent, bool leaf)
{
	Buffer		buf = read_recent(rel, info, child);
	char	   *page = (char *) BufferGetPage(buf);

	if (leaf)
	{
		prefetch_page(page, 0, 256);
		prefetch_page(page, BLCKSZ - 512, BLCKSZ);
	}
	else
		prefetch_page(page, 0, BLCKSZ);
	if (BufferIsValid(parent))
		UnlockReleaseBuffer(parent);
	return buf;
}

/*
 * Descend to the leaf page that covers key, share-locked, and its low key
 * (a copy in lowcxt), as cfDescend does, but starting from the backend's
 * image of the root page when the root is an internal page.
 *
 * Any image of an internal page, however old, is a sound place to start a
 * Lehman-Yao descent in this tree: a downlink's separator is the low key of
 * its child, which never rises (a split moves the upper part of a page to
 * a new right sibling; an unlink gives an empty leaf's key space to its
 * right sibling and leaves the page dead, which every key is beyond), so a
 * downlink of an old image leads to a page that starts at or before the
 * key, or to a dead one, and moving right from there reaches the page that
 * covers it.  A page is reused only when no snapshot older than its unlink
 * is left, which cfRootCopyUsable checks for the image.  The
 * image saves a buffer access, its lock and a search of the root per read.
 * It is taken again when the cached metapage names another root, and when
 * a descent from it had to move right at the level below (the tree grew
 * under it).  A tree that is a single leaf is read through cfDescend.
 */
Buffer
cfReadDescend(Relation rel, CfRelInfo *info, const CfKey *key, CfKey *lowkey, MemoryContext lowcxt,
			  CfLeftLeaf *left)
{
	Page		image = (Page) info->rootcopy.data;
	BlockNumber child;
	Buffer		buf;
	bool		first_level = true;
	uint16		level;			/* of the page being descended to */

	left->blkno = InvalidBlockNumber;
	if (info->root == InvalidBlockNumber || info->root_level == 0)
		return cfDescend(rel, info, key, false, NULL, lowkey, lowcxt);
	if (!cfRootCopyUsable(info))
	{
		/* the cached root level is not 0 (above): a root there is an internal page */
		if (!lock_cached_root(rel, info, BUFFER_LOCK_SHARE, &buf))
		{
			/* the root moved: cfDescend finds the new one */
			UnlockReleaseBuffer(buf);
			info->rootcopy_blkno = InvalidBlockNumber;
			return cfDescend(rel, info, key, false, NULL, lowkey, lowcxt);
		}
		cfRootCopyTake(rel, info, buf);
		UnlockReleaseBuffer(buf);
	}

	lowkey->nparts = 0;
	lowkey->bound = -1;
	child = follow_downlink(rel, info, image, key, lowkey, lowcxt,
							CfPageGetOpaque(image)->level == 1 ? left : NULL);
	level = CfPageGetOpaque(image)->level - 1;
	buf = pin_child(rel, info, child, InvalidBuffer, level == 0);
	for (;;)
	{
		Page		page;
		CfPageOpaque op;
		BlockNumber start = BufferGetBlockNumber(buf);
		uint32		moves = 0;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		cfCheckTreePage(rel, buf, level);
		/* move right past splits the parent (or the image) does not show yet */
		for (;;)
		{
			page = BufferGetPage(buf);
			op = CfPageGetOpaque(page);
			if (!cfBeyondHighKey(rel, info, page, key))
				break;
			if (first_level)
				info->rootcopy_stale = true;
			if (level == 0 && !CfPageIsDead(op))
			{
				/* the page passed is the left neighbour now */
				left->blkno = BufferGetBlockNumber(buf);
				left->lowkey = *lowkey;
			}
			buf = pass_page(rel, buf, BUFFER_LOCK_SHARE, lowkey, lowcxt, &moves, start);
		}
		if (level == 0)
			return buf;
		first_level = false;
		level--;
		child = follow_downlink(rel, info, page, key, lowkey, lowcxt, level == 0 ? left : NULL);
		buf = pin_child(rel, info, child, buf, level == 0);
	}
}
