/*-------------------------------------------------------------------------
 *
 * cfmerge.c
 *	  VACUUM's compaction of underfull leaves: moving the last runs of a
 *	  leaf into its right sibling, and unlinking a leaf that gives them all.
 *
 * Why.  A leaf splits at the row boundary nearest its middle, so rows that
 * arrive interleaved end up one (or a few) per leaf, and a leaf whose rows
 * stop growing stays as full as its last split left it: 100 columns of
 * 24-byte values fill 60% of a leaf, for good.  Cassandra's compaction
 * writes full SSTables whatever the arrival order; this is cfstore's.
 *
 * What.  After its pass, VACUUM goes over the leaves it met from right to
 * left.  A leaf R less than CF_MERGE_TARGET full takes, from the end of its
 * left sibling L, as many whole runs as keep it at most CF_MERGE_FILL full,
 * preferring to cut L at a row boundary when that still fills R to the
 * target (a row read whole then stays on one page).  If every run of L
 * fits, L gives them all and is unlinked in the same record; R then goes
 * on taking from the leaf left of L.  Going right to left, each leaf is
 * filled from its left neighbour before that neighbour fills itself from
 * its own, so one pass leaves every leaf but the leftmost of each parent
 * at least CF_MERGE_TARGET full, whatever the arrival order.  Runs are at
 * most CF_RUN_MAX bytes, a sixteenth of a page, so whole runs are fine
 * enough a grain.
 *
 * Key space moves right only.  Moving L's last runs to R lowers L's high
 * key and R's low key to the first key moved (a separator made as a split
 * makes one): a descent or insert that read the old separator and reaches
 * L with a key now above L's high key moves right to R, where the cells
 * are, as after a split; one that reaches R finds them there.  A key space
 * that moved left would strand readers that stepped right from L on a
 * page that no longer holds the key.  When L gives everything it is
 * unlinked exactly as cfUnlinkLeaf unlinks an empty leaf (cffree.c): its
 * downlink points to R, R's goes, the links skip it, it is flagged dead
 * with its high key kept, stamped, counted on the metapage and freed
 * later.
 *
 * One record.  L, R and their parent P change in one Generic WAL record,
 * with L's left sibling when L is unlinked (four pages, Generic WAL's
 * limit): replay and a crash see the move whole or not at all.  Only an L
 * whose downlink and R's are adjacent in one parent is used, so no
 * separator above P changes.  P is locked first, holding nothing else;
 * then L and R with conditional cleanup locks (nobody else holds them
 * pinned) and L's left sibling with a conditional lock, as the unlink
 * does: nothing waits while holding a lock, so nothing deadlocks with a
 * split, and a busy pair waits for the next VACUUM.  A partial move also
 * replaces R's downlink in P with the new separator, and is skipped when
 * P has no room for it, or when the old or new separator has a part kept
 * out of line (the backend images of a root keep old separators, whose
 * chains must stay readable; an unlinked leaf keeps them in its high key,
 * a partial move would not).
 *
 * Readers on the primary.  A walk holds the page it read pinned until it
 * has locked the next one (cfwalk.c): a forward walk between L and R holds
 * L, a backward one holds R, so neither can see runs move from the page
 * it read to the page it reads next (they would be read twice, or not at
 * all); the cleanup locks wait for no pin.  A slice landing on R and
 * reading its container's tombstones further left keeps R pinned too.
 *
 * cfstore.vacuum_compact_leaves = off turns the compaction off (for a
 * standby whose long reads must not be cancelled, see below).
 *
 * Standbys.  Replay takes no cleanup locks, so a standby walk can be
 * between L and R when a move is replayed.  There a walk checks, after
 * each step, that no runs moved between the two pages it read (cfwalk.c,
 * check_moved): forward, that the page it reads does not start below the
 * high key the page before had when it was read; backward, that the page
 * it read before does not now start below where it started.  If runs
 * moved, the read is cancelled as a conflict with recovery (with
 * hot_standby_feedback too: no horizon covers a walk in progress); reads
 * that begin after the move are not affected.  The moved runs keep their
 * standby horizon: R takes the later of L's and its own.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

/* A leaf taking runs is filled up to this. */
#define CF_MERGE_FILL 97

/* cfstore.vacuum_compact_leaves */
bool		cf_vacuum_compact_leaves = true;

/* What a move did. */
typedef enum CfMove
{
	CF_MOVE_NONE,				/* nothing: full enough, busy, or not adjacent */
	CF_MOVE_SOME,				/* L's last runs went to R */
	CF_MOVE_ALL,				/* all of L went to R, and L was unlinked */
	CF_MOVE_RAISE				/* all of L would go: raise the count of dead leaves first */
} CfMove;

/*
 * Whether the locked page is a leaf that can give runs to its right
 * sibling right: a live leaf, not the rightmost, no split of it unfinished.
 */
static bool
can_give(Page page, BlockNumber right)
{
	return cfLeafWithout(page, CF_PAGE_DEAD | CF_PAGE_ROOT | CF_PAGE_INCOMPLETE_SPLIT | CF_PAGE_FREE) &&
		!CfPageIsRightmost(CfPageGetOpaque(page)) && CfPageGetOpaque(page)->right == right;
}

/* Whether the locked page is a live leaf whose left sibling is left. */
static bool
can_take(Page page, BlockNumber left)
{
	return cfLeafWithout(page, CF_PAGE_DEAD | CF_PAGE_INCOMPLETE_SPLIT | CF_PAGE_FREE) &&
		CfPageGetOpaque(page)->left == left;
}

/* Whether the locked leaf is less than CF_MERGE_TARGET full: the compaction fills it. */
bool
cfLeafUnderfull(Relation rel, Page page)
{
	return cfLeafUnderfullWithout(rel, page, 0);
}

/* Whether the locked leaf would be less than CF_MERGE_TARGET full with less bytes fewer. */
bool
cfLeafUnderfullWithout(Relation rel, Page page, Size less)
{
	int			n;
	CfItem	   *items = cfPageItems(rel, page, &n);
	Size		space = cfItemsSpace(items, n);
	bool		under = (space - Min(space, less)) * 100 < cfRebuiltCapacity(page) * CF_MERGE_TARGET;

	pfree(items);
	return under;
}

/* Whether two adjacent runs belong to different rows. */
static bool
row_boundary(const CfItem *a, const CfItem *b)
{
	CfRunHeader ha,
				hb;

	memcpy(&ha, a->data, sizeof(ha));
	memcpy(&hb, b->data, sizeof(hb));
	return ha.keylen != hb.keylen ||
		memcmp(a->data + sizeof(ha), b->data + sizeof(hb), ha.keylen) != 0;
}

/*
 * How many of L's nl last items R takes, given what R holds (rused of
 * rcap bytes): as many as keep R at most CF_MERGE_FILL full, cut back to
 * a row boundary if R still reaches CF_MERGE_TARGET; 0 if R is full
 * enough already.
 */
static int
items_to_move(const CfItem *litems, int nl, Size rused, Size rcap)
{
	Size		room,
				acc = 0,
				target = rcap * CF_MERGE_TARGET / 100;
	int			k = 0;

	if (rused >= target)
		return 0;
	room = rcap * CF_MERGE_FILL / 100 - rused;
	while (k < nl)
	{
		Size		sz = cfItemsSpace(&litems[nl - 1 - k], 1);

		if (acc + sz > room)
			break;
		acc += sz;
		k++;
	}
	if (k == 0 || k == nl)
		return k;
	/* cut at a row boundary if one keeps R at the target */
	for (int j = k; j >= 1; j--)
	{
		if (rused + cfItemsSpace(&litems[nl - j], j) < target)
			break;
		if (row_boundary(&litems[nl - j - 1], &litems[nl - j]))
			return j;
	}
	return k;
}

/*
 * Move runs from the end of leaf lblk into its right sibling rblk (see the
 * file's comment), or all of them and unlink lblk, which is done only once
 * the metapage counts the dead leaf (may_unlink; else CF_MOVE_RAISE, having
 * changed nothing: the metapage is not locked while leaves are).
 * Allocates in the current memory context.
 */
static CfMove
move_runs(Relation rel, CfRelInfo *info, BlockNumber lblk, BlockNumber rblk,
		  bool may_unlink, BufferAccessStrategy strategy)
{
	Buffer		lbuf,
				pbuf,
				rbuf = InvalidBuffer,
				sbuf = InvalidBuffer;
	Page		lpage,
				rpage,
				ppage;
	CfPageOpaqueData lop,
				rop;
	CfItem	   *litems,
			   *ritems,
			   *moved;
	int			nl,
				nr,
				k;
	char	   *lhk,
			   *rhk,
			   *sepbuf = NULL,
			   *downbuf = NULL;
	Size		lhk_len,
				rhk_len,
				seplen = 0;
	CfKey		hk;
	OffsetNumber loff;
	CfMove		result = CF_MOVE_NONE;
	TransactionId lhorizon;

	/* a first look at L: its high key finds the parent */
	lbuf = ReadBufferExtended(rel, MAIN_FORKNUM, lblk, RBM_NORMAL, strategy);
	LockBuffer(lbuf, BUFFER_LOCK_SHARE);
	lpage = BufferGetPage(lbuf);
	if (!can_give(lpage, rblk))
	{
		UnlockReleaseBuffer(lbuf);
		return CF_MOVE_NONE;
	}
	lhk = cfCopyHighKey(rel, lpage, &lhk_len);
	UnlockReleaseBuffer(lbuf);

	cfRelInfoRefreshRoot(rel, info);
	if (info->root_level < 1)
		return CF_MOVE_NONE;
	cfIndexTupleKey(rel, (CfIndexTuple) lhk, &hk);
	pbuf = ReadBufferExtended(rel, MAIN_FORKNUM, cfFindPageAtLevel(rel, info, &hk, 1), RBM_NORMAL,
							  strategy);
	LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
	ppage = BufferGetPage(pbuf);
	loff = cfAdjacentDownlinks(rel, ppage, lblk, rblk);
	if (loff == InvalidOffsetNumber)
		goto out;

	/* the leaves, without waiting, and with nobody else holding them pinned */
	lbuf = cfTryLockPage(rel, lblk, strategy, true);
	if (!BufferIsValid(lbuf))
		goto out;
	lpage = BufferGetPage(lbuf);
	if (!can_give(lpage, rblk))
		goto out_leaves;
	rbuf = cfTryLockPage(rel, rblk, strategy, true);
	if (!BufferIsValid(rbuf))
		goto out_leaves;
	rpage = BufferGetPage(rbuf);
	if (!can_take(rpage, lblk))
		goto out_leaves;

	litems = cfPageItems(rel, lpage, &nl);
	ritems = cfPageItems(rel, rpage, &nr);
	k = items_to_move(litems, nl, cfItemsSpace(ritems, nr), cfRebuiltCapacity(rpage));
	if (k == 0)
		goto out_leaves;
	lop = *CfPageGetOpaque(lpage);
	rop = *CfPageGetOpaque(rpage);
	lhk = cfCopyHighKey(rel, lpage, &lhk_len);
	rhk = cfCopyHighKey(rel, rpage, &rhk_len);

	if (k < nl)
	{
		/* the new boundary: L's high key, and the key of R's downlink */
		CfIndexTuple olddown = (CfIndexTuple) PageGetItem(ppage, cfPageItemId(rel, ppage, OffsetNumberNext(loff)));
		Size		oldlen = ItemIdGetLength(PageGetItemId(ppage, OffsetNumberNext(loff)));
		CfKey		sep;

		cfRunsSeparator(rel, info, &litems[nl - k - 1], &litems[nl - k], &sep, CurrentMemoryContext);
		seplen = cfIndexTupleSize(&sep);
		sepbuf = palloc(seplen);
		cfIndexTupleForm(&sep, InvalidBlockNumber, sepbuf);
		downbuf = palloc(seplen);
		cfIndexTupleForm(&sep, rblk, downbuf);
		if (((CfIndexTuple) sepbuf)->flags != 0 || olddown->flags != 0 ||
			((CfIndexTuple) lhk)->flags != 0)
			goto out_leaves;
		if (MAXALIGN(seplen) > MAXALIGN(oldlen) &&
			MAXALIGN(seplen) - MAXALIGN(oldlen) > (Size) (((PageHeader) ppage)->pd_upper - ((PageHeader) ppage)->pd_lower))
			goto out_leaves;
		if (cfItemsSpace(litems, nl - k) > cfPageCapacity(seplen))
			goto out_leaves;
	}
	else if (!may_unlink)
	{
		result = CF_MOVE_RAISE;
		goto out_leaves;
	}
	else if (lop.left != InvalidBlockNumber)
	{
		sbuf = cfLockSibling(rel, lop.left, lblk, true, strategy);
		if (!BufferIsValid(sbuf))
			goto out_leaves;
	}

	/* R's items: L's last k, then its own */
	moved = palloc(sizeof(CfItem) * (k + nr));
	memcpy(moved, &litems[nl - k], sizeof(CfItem) * k);
	memcpy(moved + k, ritems, sizeof(CfItem) * nr);
	lhorizon = ((PageHeader) lpage)->pd_prune_xid;
	{
		GenericXLogState *state = GenericXLogStart(rel);
		Page		gp = GenericXLogRegisterBuffer(state, pbuf, 0);
		Page		gl = GenericXLogRegisterBuffer(state, lbuf, 0);
		Page		gr = GenericXLogRegisterBuffer(state, rbuf, 0);

		/* the images are built from the pages, which change only at the finish */
		if (k < nl)
		{
			if (!PageIndexTupleOverwrite(gp, OffsetNumberNext(loff), (Item) downbuf, seplen))
				elog(ERROR, "could not replace a downlink in block %u", BufferGetBlockNumber(pbuf));
			cfBuildPage(gl, &lop, sepbuf, seplen, litems, nl - k);
			result = CF_MOVE_SOME;
		}
		else
		{
			if (BufferIsValid(sbuf))
				CfPageGetOpaque(GenericXLogRegisterBuffer(state, sbuf, 0))->right = rblk;
			((CfIndexTuple) PageGetItem(gp, PageGetItemId(gp, loff)))->child = rblk;
			PageIndexTupleDelete(gp, OffsetNumberNext(loff));
			/* dead and empty: a walk that still reaches it reads nothing twice */
			lop.flags |= CF_PAGE_DEAD;
			cfBuildPage(gl, &lop, lhk, lhk_len, NULL, 0);
			rop.left = lop.left;
			result = CF_MOVE_ALL;
		}
		cfBuildPage(gr, &rop, rhk, rhk_len, moved, k + nr);
		/* the cells keep their standby horizon (cfvacuum.c, "Standbys") */
		if (TransactionIdIsNormal(lhorizon) &&
			(!TransactionIdIsNormal(((PageHeader) gr)->pd_prune_xid) ||
			 TransactionIdFollows(lhorizon, ((PageHeader) gr)->pd_prune_xid)))
			((PageHeader) gr)->pd_prune_xid = lhorizon;
		/* an unlinked leaf is stamped for its reclaiming, as cfUnlinkLeaf does */
		if (result == CF_MOVE_ALL)
			((PageHeader) gl)->pd_prune_xid = ReadNextTransactionId();
		GenericXLogFinish(state);
	}

out_leaves:
	if (BufferIsValid(sbuf))
		UnlockReleaseBuffer(sbuf);
	if (BufferIsValid(rbuf))
		UnlockReleaseBuffer(rbuf);
	if (BufferIsValid(lbuf))
		UnlockReleaseBuffer(lbuf);
out:
	UnlockReleaseBuffer(pbuf);
	return result;
}

/*
 * Compact the leaves VACUUM's pass met, leaves[0..n) in key order (those
 * no longer in tree were unlinked since): from right to left, each
 * underfull leaf takes runs from its left sibling (see the file's
 * comment).  Leaves unlinked are taken out of tree and counted in
 * st->unlinked; the metapage's count of dead leaves is raised before the
 * first one, by n (an upper bound: VACUUM's scan for dead leaves sets it
 * exactly), and st->raised_dead says so.
 */
void
cfCompactLeaves(Relation rel, CfRelInfo *info, const BlockNumber *leaves, int n, CfBlockSet *tree,
				BufferAccessStrategy strategy, CfCompactStats *st)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore compaction",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	bool		raised = false;
	int			r = n - 1;

	while (r > 0)
	{
		int			l = r - 1;

		/* VACUUM's progress: the leaves looked at (cfvacuum.c) */
		pgstat_progress_update_param(PROGRESS_VACUUM_HEAP_BLKS_VACUUMED, n - r);

		if (!cfBlockSetHas(tree, leaves[r]))
		{
			r--;
			continue;
		}
		for (;;)
		{
			CfMove		m;

			while (l >= 0 && !cfBlockSetHas(tree, leaves[l]))
				l--;
			if (l < 0)
				break;
			m = move_runs(rel, info, leaves[l], leaves[r], raised, strategy);
			if (m == CF_MOVE_RAISE)
			{
				cfMetaSetDeadPages(rel, cfMetaDeadPages(rel) + n);
				raised = true;
				m = move_runs(rel, info, leaves[l], leaves[r], raised, strategy);
			}
			MemoryContextReset(cxt);
			vacuum_delay_point();
			if (m == CF_MOVE_SOME)
				st->moved++;
			if (m != CF_MOVE_ALL)
				break;
			/* L is gone: R goes on with the leaf left of it */
			st->unlinked++;
			cfBlockSetRemove(tree, leaves[l]);
			l--;
		}
		r = l;
	}
	pgstat_progress_update_param(PROGRESS_VACUUM_HEAP_BLKS_VACUUMED, n);
	st->raised_dead = raised;
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

/* Define cfstore.vacuum_compact_leaves (from _PG_init). */
void
cfMergeInit(void)
{
	DefineCustomBoolVariable("cfstore.vacuum_compact_leaves",
							 "Lets VACUUM of a cfstore table move runs from underfull leaves into their right siblings.",
							 "Off, VACUUM leaves every leaf as full as it is (it still unlinks empty ones); "
							 "a standby read older than a move that reaches a moved leaf is cancelled.",
							 &cf_vacuum_compact_leaves, true, PGC_USERSET, 0, NULL, NULL, NULL);
}
