/*-------------------------------------------------------------------------
 *
 * cffree.c
 *	  Freeing pages: unlinking empty leaves from the tree, and reclaiming
 *	  the pages nothing can reach any more (dead leaves, overflow chains
 *	  nothing refers to) for cfNewPage, which allocates pages and lives
 *	  here beside them (as nbtpage.c keeps _bt_getbuf beside _bt_pagedel).
 *
 * Unlinking.  A leaf that VACUUM left empty (its row's columns expired or
 * were deleted, and new columns land elsewhere) is taken out of the tree
 * in one Generic WAL record of at most four pages: its parent P, the leaf
 * L, its left sibling LS (unless L is the leftmost leaf) and its right
 * sibling R.  L's downlink in P is pointed at R and R's own downlink goes,
 * so R covers L's key space as well as its own (L holds nothing, so no key
 * moves); LS's right-link and R's left-link skip L; L is flagged
 * CF_PAGE_DEAD and keeps its links and high key.  Only an L whose
 * downlink and R's are adjacent in the same parent is unlinked, and never
 * the rightmost leaf (so the root, internal pages and the right edge of
 * the tree stay), nor one whose split is unfinished.  P is locked first,
 * holding nothing else; the three leaves are taken with conditional locks
 * (L's a cleanup lock: nobody holds it pinned), so the unlink never waits
 * while holding a lock and cannot deadlock with a split, which locks
 * bottom-up.  A page that cannot be had now stays, empty and linked, for
 * the next VACUUM.
 *
 * Stale pointers.  A reader or inserter that read a downlink or a link to
 * L before the unlink reaches a dead page: cfBeyondHighKey says "beyond"
 * for it, so every move-right goes on through its right-link to R, which
 * covers the key now, and nothing is ever inserted into it.  A forward
 * walk reads it as the empty page it is and follows its right-link; a
 * backward walk (cfWalkLeft in cfwalk.c) steps around it.  A low key
 * learnt from L's old separator is above R's new one, which only makes a
 * slice look for its container's tombstones further left than needed.
 *
 * Reclaiming.  A dead leaf is stamped (pd_prune_xid) with the next
 * transaction id at the unlink.  Every transaction that may still hold a
 * pointer to it took its snapshot before that, so once the stamp is
 * behind every backend's xmin in the cluster (GlobalVisCheckRemovableXid
 * with the shared horizon, as nbtree recycles its deleted pages), the page
 * is freed: flagged CF_PAGE_FREE and recorded in the free space map, where
 * cfNewPage finds it.  (A stamp a snapshot holds back is never 2^31 ids
 * old: that snapshot would have stopped the cluster for wraparound first.)
 * One holder of pointers outlives statements, the backend's image of the
 * root page: cfRootCopyUsable trusts an image of a root whose children are
 * leaves only while the backend's xmin is not past the next transaction id
 * read when it was taken (and the image is less than 2^30 ids old).  The image
 * also keeps the separator the unlink deleted, whose long parts live in
 * overflow chains: those chains are kept while the dead leaf, whose high
 * key refers to them, is (cfReclaimPages).  Standbys get the same
 * protection only with hot_standby_feedback; without it, a standby read
 * that follows a pointer to a page freed meanwhile finds a page that is
 * not the tree page it expects and is cancelled (cfNotTreePage), or a
 * leaf a split built from it, whose horizon cancels it (cfvacuum.c,
 * "Standbys").
 *
 * Finding the dead leaves again: the metapage counts dead leaves not yet
 * freed (an upper bound: it is raised before unlinking and set exactly
 * after a scan), and while it is not zero VACUUM reads every block its
 * pass did not meet as a tree page (cfReclaimPages) and frees what it
 * can.  The same scan frees overflow chains nothing refers to
 * (cfoverflow.c, "Reclaiming") when VACUUM asks for it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/indexfsm.h"
#include "storage/lmgr.h"
#include "storage/procarray.h"

#include "storage/cfstorage.h"

/* Whether the locked page is a cfstore leaf with none of the page flags in excluded. */
bool
cfLeafWithout(Page page, uint16 excluded)
{
	CfPageOpaque op;

	if (!CfPageIsCfstore(page))
		return false;
	op = CfPageGetOpaque(page);
	return op->level == 0 && (op->flags & CF_PAGE_LEAF) && !(op->flags & excluded);
}

/*
 * Whether the locked page is a leaf that can be unlinked: empty, not the
 * rightmost (so not the root), no split of it unfinished, not dead yet.
 */
static bool
leaf_unlinkable(Page page)
{
	CfPageOpaque op;

	if (!cfLeafWithout(page, CF_PAGE_DEAD | CF_PAGE_ROOT | CF_PAGE_INCOMPLETE_SPLIT))
		return false;
	op = CfPageGetOpaque(page);
	if (CfPageIsRightmost(op))
		return false;
	return PageGetMaxOffsetNumber(page) < CfPageFirstData(op);
}

/*
 * The offset of the downlink to blkno on the locked level-1 page, if the
 * downlink to right follows it; else InvalidOffsetNumber.
 */
OffsetNumber
cfAdjacentDownlinks(Relation rel, Page ppage, BlockNumber blkno, BlockNumber right)
{
	CfPageOpaque pop = CfPageGetOpaque(ppage);
	OffsetNumber max = PageGetMaxOffsetNumber(ppage);

	if (pop->level != 1 || (pop->flags & CF_PAGE_LEAF))
		return InvalidOffsetNumber;
	for (OffsetNumber off = CfPageFirstData(pop); off < max; off++)
	{
		CfIndexTuple itup = (CfIndexTuple) PageGetItem(ppage, cfPageItemId(rel, ppage, off));

		if (itup->child == blkno)
		{
			CfIndexTuple next = (CfIndexTuple) PageGetItem(ppage, cfPageItemId(rel, ppage, off + 1));

			return next->child == right ? off : InvalidOffsetNumber;
		}
	}
	return InvalidOffsetNumber;
}

/* Pin and conditionally lock block blkno exclusively; InvalidBuffer if it is busy. */
Buffer
cfTryLockPage(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy, bool cleanup)
{
	Buffer		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);

	if (cleanup ? ConditionalLockBufferForCleanup(buf) : ConditionalLockBuffer(buf))
		return buf;
	ReleaseBuffer(buf);
	return InvalidBuffer;
}

/*
 * For an unlink of leaf blkno: its sibling sib, locked exclusively without
 * waiting (cfTryLockPage), if it is a live leaf whose link back leads to blkno
 * (its right-link if it is the left sibling, else its left-link); else
 * InvalidBuffer, holding nothing.
 */
Buffer
cfLockSibling(Relation rel, BlockNumber sib, BlockNumber blkno, bool left_sibling,
			 BufferAccessStrategy strategy)
{
	Buffer		buf = cfTryLockPage(rel, sib, strategy, false);
	CfPageOpaque op;

	if (!BufferIsValid(buf))
		return InvalidBuffer;
	if (CfPageIsCfstore(BufferGetPage(buf)))
	{
		op = CfPageGetOpaque(BufferGetPage(buf));
		if ((left_sibling ? op->right : op->left) == blkno && op->level == 0 && !CfPageIsDead(op))
			return buf;
	}
	UnlockReleaseBuffer(buf);
	return InvalidBuffer;
}

/*
 * Unlink the empty leaf blkno from the tree (see "Unlinking" above), if it
 * still is one and the pages around it can be had without waiting.
 * Returns whether it did.
 */
bool
cfUnlinkLeaf(Relation rel, CfRelInfo *info, BlockNumber blkno, BufferAccessStrategy strategy)
{
	Buffer		lbuf,
				pbuf,
				sbuf = InvalidBuffer,
				rbuf = InvalidBuffer;
	Page		page;
	CfPageOpaque op;
	char	   *hikey;
	Size		hikey_len;
	CfKey		hk;
	BlockNumber right,
				left;
	OffsetNumber loff;
	bool		done = false;

	/* a first look: its high key finds the parent */
	lbuf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	LockBuffer(lbuf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(lbuf);
	if (!leaf_unlinkable(page))
	{
		UnlockReleaseBuffer(lbuf);
		return false;
	}
	op = CfPageGetOpaque(page);
	right = op->right;
	hikey_len = ItemIdGetLength(cfPageItemId(rel, page, CF_HIKEY));
	hikey = palloc(hikey_len);
	memcpy(hikey, PageGetItem(page, PageGetItemId(page, CF_HIKEY)), hikey_len);
	UnlockReleaseBuffer(lbuf);

	cfRelInfoRefreshRoot(rel, info);
	if (info->root_level < 1)
	{
		pfree(hikey);
		return false;
	}
	cfIndexTupleKey(rel, (CfIndexTuple) hikey, &hk);
	pbuf = ReadBufferExtended(rel, MAIN_FORKNUM, cfFindPageAtLevel(rel, info, &hk, 1), RBM_NORMAL,
							  strategy);
	LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
	loff = cfAdjacentDownlinks(rel, BufferGetPage(pbuf), blkno, right);
	if (loff == InvalidOffsetNumber)
		goto out;

	/* the leaves, without waiting: a split holding one waits for the parent */
	lbuf = cfTryLockPage(rel, blkno, strategy, true);
	if (!BufferIsValid(lbuf))
		goto out;
	page = BufferGetPage(lbuf);
	op = CfPageGetOpaque(page);
	if (!leaf_unlinkable(page) || op->right != right)
		goto out_leaf;
	left = op->left;
	if (left != InvalidBlockNumber)
	{
		sbuf = cfLockSibling(rel, left, blkno, true, strategy);
		if (!BufferIsValid(sbuf))
			goto out_leaf;
	}
	rbuf = cfLockSibling(rel, right, blkno, false, strategy);
	if (!BufferIsValid(rbuf))
		goto out_leaf;

	{
		GenericXLogState *state = GenericXLogStart(rel);
		Page		gp = GenericXLogRegisterBuffer(state, pbuf, 0);
		Page		gl = GenericXLogRegisterBuffer(state, lbuf, 0);
		Page		gr = GenericXLogRegisterBuffer(state, rbuf, 0);

		if (BufferIsValid(sbuf))
			CfPageGetOpaque(GenericXLogRegisterBuffer(state, sbuf, 0))->right = right;
		((CfIndexTuple) PageGetItem(gp, PageGetItemId(gp, loff)))->child = right;
		PageIndexTupleDelete(gp, OffsetNumberNext(loff));
		CfPageGetOpaque(gr)->left = left;
		CfPageGetOpaque(gl)->flags |= CF_PAGE_DEAD;
		((PageHeader) gl)->pd_prune_xid = ReadNextTransactionId();
		GenericXLogFinish(state);
		done = true;
	}

out_leaf:
	if (BufferIsValid(rbuf))
		UnlockReleaseBuffer(rbuf);
	if (BufferIsValid(sbuf))
		UnlockReleaseBuffer(sbuf);
	UnlockReleaseBuffer(lbuf);
out:
	UnlockReleaseBuffer(pbuf);
	pfree(hikey);
	return done;
}

/* What cfReclaimPages does with a page it reads. */
typedef enum CfReclaimKind
{
	CF_RECLAIM_NONE,			/* in use */
	CF_RECLAIM_RECORD,			/* free or new: record it in the free space map again */
	CF_RECLAIM_OVERFLOW,		/* an overflow page nothing refers to: free it */
	CF_RECLAIM_DEAD,			/* a dead leaf nobody can reach: free it */
	CF_RECLAIM_DEAD_HELD		/* a dead leaf some snapshot may still reach */
} CfReclaimKind;

/* What cfReclaimPages does with the locked page (see CfReclaimKind). */
static CfReclaimKind
reclaim_kind(Page page, bool overflow, TransactionId oldest_xmin)
{
	CfPageOpaque op;

	if (PageIsNew(page))
		return CF_RECLAIM_RECORD;
	if (!CfPageIsCfstore(page))
		return CF_RECLAIM_NONE;
	op = CfPageGetOpaque(page);
	if (op->flags & CF_PAGE_FREE)
		return CF_RECLAIM_RECORD;
	/* against every backend of the cluster, as cfRootCopyUsable needs */
	if (op->flags & CF_PAGE_DEAD)
		return GlobalVisCheckRemovableXid(NULL, ((PageHeader) page)->pd_prune_xid)
			? CF_RECLAIM_DEAD : CF_RECLAIM_DEAD_HELD;
	if (overflow && cfOverflowReclaimable(page, oldest_xmin))
		return CF_RECLAIM_OVERFLOW;
	return CF_RECLAIM_NONE;
}

/* Add to used every block of the chains whose first blocks are in heads. */
static void
mark_chains(Relation rel, const CfBlockSet *heads, CfBlockSet *used, BufferAccessStrategy strategy)
{
	for (BlockNumber b = 0; b < Min(heads->nblocks, used->nblocks); b++)
	{
		BlockNumber blkno = b;

		if (!cfBlockSetHas(heads, b))
			continue;
		while (blkno != InvalidBlockNumber && blkno != CF_META_BLOCK && blkno < used->nblocks &&
			   !cfBlockSetHas(used, blkno))
		{
			Buffer		buf;
			Page		page;
			BlockNumber next = InvalidBlockNumber;

			cfBlockSetAdd(used, blkno);
			buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			page = BufferGetPage(buf);
			if (CfPageIsCfstore(page) && (CfPageGetOpaque(page)->flags & CF_PAGE_OVERFLOW))
				next = CfPageGetOpaque(page)->right;
			UnlockReleaseBuffer(buf);
			blkno = next;
		}
		vacuum_delay_point();
	}
}

/* Note in heads the chain a stored reference (or NULL) stands for. */
static void
note_ref(CfBlockSet *heads, const uint8 *ref)
{
	if (ref != NULL)
		cfBlockSetAdd(heads, cfOverflowRefBlock(ref));
}

/* Block blkno of rel, pinned and share-locked, unless it is in tree or used: then InvalidBuffer. */
static Buffer
lock_outside_tree(Relation rel, const CfBlockSet *tree, const CfBlockSet *used, BlockNumber blkno,
				  BufferAccessStrategy strategy)
{
	Buffer		buf;

	if (cfBlockSetHas(used, blkno) || cfBlockSetHas(tree, blkno))
		return InvalidBuffer;
	buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	return buf;
}

/*
 * Note in heads the chains of the high keys of the dead leaves some
 * snapshot may still reach, among the blocks of rel (below used's size)
 * outside tree and used.  A separator an unlink deleted lives on in images
 * of the root that a backend may still trust (cfRootCopyUsable) until the
 * dead leaf can be freed, and the dead leaf's high key refers to the same
 * chains.
 */
static void
note_dead_high_keys(Relation rel, const CfBlockSet *tree, const CfBlockSet *used, CfBlockSet *heads,
					BufferAccessStrategy strategy)
{
	for (BlockNumber blkno = CF_META_BLOCK + 1; blkno < used->nblocks; blkno++)
	{
		Buffer		buf = lock_outside_tree(rel, tree, used, blkno, strategy);
		Page		page;

		if (!BufferIsValid(buf))
			continue;
		page = BufferGetPage(buf);
		if (reclaim_kind(page, false, InvalidTransactionId) == CF_RECLAIM_DEAD_HELD)
		{
			CfKey		k;

			cfIndexTupleKey(NULL, (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, CF_HIKEY)), &k);
			note_ref(heads, k.keyref);
			note_ref(heads, k.scref);
			note_ref(heads, k.nameref);
		}
		UnlockReleaseBuffer(buf);
		vacuum_delay_point();
	}
}

/*
 * Read every block of rel that is not a tree page VACUUM met (in tree) and
 * free what nothing can reach: dead leaves past their stamp, and, if
 * overflow, overflow pages outside the chains whose first blocks are in
 * heads (the chains VACUUM found referenced) and whose writers ended
 * before oldest_xmin; the chains of the high keys of dead leaves not yet
 * freed are kept too.  Pages already free, and new pages a crash left
 * empty, are recorded in the free space map again (it is not crash-safe).
 * Counts go to st, and the set of the pages free after the scan, with the
 * dead leaves still held (cfShrink moves pages into both), in the current
 * memory context.
 */
void
cfReclaimPages(Relation rel, const CfBlockSet *tree, const CfBlockSet *heads, bool overflow,
			   TransactionId oldest_xmin, BufferAccessStrategy strategy,
			   CfReclaimStats *st)
{
	BlockNumber nblocks;
	CfBlockSet	used;
	bool		recorded = false;

	/*
	 * Under the extension lock, as nbtree counts its pages: a page that
	 * cfNewPage adds is locked by its taker before the lock is let go, so
	 * none of these is new unless a crash left it so.
	 */
	LockRelationForExtension(rel, ExclusiveLock);
	nblocks = RelationGetNumberOfBlocks(rel);
	UnlockRelationForExtension(rel, ExclusiveLock);
	cfBlockSetInit(&used, nblocks);
	memset(st, 0, sizeof(*st));
	cfBlockSetInit(&st->free, nblocks);
	if (overflow)
	{
		CfBlockSet	kept;

		/* every block of every referenced chain, and of the dead leaves' high keys */
		cfBlockSetInit(&kept, nblocks);
		mark_chains(rel, heads, &used, strategy);
		note_dead_high_keys(rel, tree, &used, &kept, strategy);
		mark_chains(rel, &kept, &used, strategy);
		cfBlockSetFree(&kept);
	}

	for (BlockNumber blkno = CF_META_BLOCK + 1; blkno < nblocks; blkno++)
	{
		Buffer		buf = lock_outside_tree(rel, tree, &used, blkno, strategy);
		Page		page;
		CfReclaimKind kind;

		if (!BufferIsValid(buf))
			continue;
		kind = reclaim_kind(BufferGetPage(buf), overflow, oldest_xmin);
		if (kind == CF_RECLAIM_NONE || kind == CF_RECLAIM_DEAD_HELD)
		{
			if (kind == CF_RECLAIM_DEAD_HELD)
			{
				st->dead_left++;
				cfBlockSetAdd(&st->free, blkno);
				st->nfree++;
			}
			UnlockReleaseBuffer(buf);
			vacuum_delay_point();
			continue;
		}
		/* a candidate: look again under the exclusive lock */
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(buf);
		kind = reclaim_kind(page, overflow, oldest_xmin);
		if (kind == CF_RECLAIM_OVERFLOW || kind == CF_RECLAIM_DEAD)
		{
			GenericXLogState *state = GenericXLogStart(rel);
			Page		gpage = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);

			cfPageInit(gpage, 0, CF_PAGE_FREE);
			GenericXLogFinish(state);
			if (kind == CF_RECLAIM_OVERFLOW)
				st->overflow_freed++;
			else
				st->leaves_freed++;
		}
		else if (kind == CF_RECLAIM_DEAD_HELD)
			st->dead_left++;
		UnlockReleaseBuffer(buf);
		/* a held dead leaf is no use to others, but cfShrink moves pages into it */
		if (kind != CF_RECLAIM_NONE)
		{
			cfBlockSetAdd(&st->free, blkno);
			st->nfree++;
		}
		/* after the page's lock: the map may take the extension lock to grow */
		if (kind != CF_RECLAIM_NONE && kind != CF_RECLAIM_DEAD_HELD)
		{
			RecordFreeIndexPage(rel, blkno);
			recorded = true;
		}
		vacuum_delay_point();
	}
	cfBlockSetFree(&used);
	if (recorded)
		IndexFreeSpaceMapVacuum(rel);
}

/*
 * A page for new contents, pinned and exclusively locked: a page VACUUM
 * reclaimed (cfReclaimPages records them in the free space map), else a
 * new page at the end of the relation.  The free space map is only a hint:
 * a page it names is taken if it is still free (or new, after a crash) and
 * nobody holds its lock, as nbtree takes its recycled pages.  The caller
 * initialises the page and logs it whole.
 */
Buffer
cfNewPage(Relation rel)
{
	Buffer		buf;

	for (;;)
	{
		BlockNumber blkno = GetFreeIndexPage(rel);
		Page		page;

		if (blkno == InvalidBlockNumber)
			break;
		if (blkno == CF_META_BLOCK || blkno >= RelationGetNumberOfBlocks(rel))
			continue;
		buf = ReadBuffer(rel, blkno);
		if (ConditionalLockBuffer(buf))
		{
			page = BufferGetPage(buf);
			if (PageIsNew(page) ||
				(CfPageIsCfstore(page) && (CfPageGetOpaque(page)->flags & CF_PAGE_FREE)))
				return buf;
			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		}
		ReleaseBuffer(buf);
	}
	LockRelationForExtension(rel, ExclusiveLock);
	buf = ReadBuffer(rel, P_NEW);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	UnlockRelationForExtension(rel, ExclusiveLock);
	return buf;
}

/* The metapage's count of dead leaves not yet freed. */
uint32
cfMetaDeadPages(Relation rel)
{
	Buffer		buf;
	uint32		n;

	if (RelationGetNumberOfBlocks(rel) == 0)
		return 0;
	buf = ReadBuffer(rel, CF_META_BLOCK);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	n = CfPageGetMeta(BufferGetPage(buf))->dead_pages;
	UnlockReleaseBuffer(buf);
	return n;
}

/* Set the metapage's count of dead leaves not yet freed (WAL-logged). */
void
cfMetaSetDeadPages(Relation rel, uint32 n)
{
	Buffer		buf = ReadBuffer(rel, CF_META_BLOCK);
	GenericXLogState *state;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(rel);
	CfPageGetMeta(GenericXLogRegisterBuffer(state, buf, 0))->dead_pages = n;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}
