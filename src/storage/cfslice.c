/*-------------------------------------------------------------------------
 *
 * cfslice.c
 *	  Reading: walking leaf pages in key order (either direction) and
 *	  reconciling cell versions into live columns.
 *
 * The walker holds one page locked at a time.  It reads a page whole (or
 * from a start position to the page's end) under a share lock, handing the
 * visible cell versions to a consumer that copies what it keeps, then
 * moves on: forward by the right-link read under the same lock (Lehman and
 * Yao: keys that a later split moves right of us were already read), or
 * backward by the left-link, correcting for a concurrent split of the left
 * page by moving right until the page whose right-link is ours.  Nothing is
 * materialised beyond one page and one column's versions (one super
 * column's, for super column slices).
 *
 * The consumer reconciles (cassandra-semantics.md §4-§7): versions of one
 * column are adjacent, so each column is resolved when the next begins.  A
 * container's tombstones (row, super column) are cells with an empty name
 * that sort first in their container.  A forward scan that starts at a
 * container's beginning meets them in the stream; a slice that starts
 * inside it (a start bound, or reversed) reads them first, from the page
 * it lands on when that page's low key shows they are on it (usually
 * without decoding a run: the container's first run shows whether it
 * starts with one), else from the pages before it, reached by left-links
 * while the landing page stays pinned (a descent when the row is long).
 *
 * Memory: a slice has its own context with a child for the page being
 * read, which holds its decoded runs and the results it produced until the
 * queue of results is drained and the walk steps to the next page (and,
 * for super column slices, a child for the super column being gathered).
 * The column being reduced is kept in buffers reused from column to
 * column, so reading a cell allocates only its decoded run and, if it is
 * returned, one chunk for its name and value.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xlog.h"
#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "storage/cfstorage.h"

typedef enum CfFeed
{
	CF_FEED_CONTINUE,
	CF_FEED_STOP
} CfFeed;

typedef CfFeed (*CfFeedFn) (void *arg, const CfRun *run, CfCell *cell, Buffer buf);

/* ---------------------------------------------------------------------
 * Walking pages
 * ---------------------------------------------------------------------
 */

/*
 * Ask for bytes from to end of a page, from the lowest address up.  A leaf
 * page is seldom in the processor's cache when a read reaches it, and
 * decoding a run waits on memory every other cell.  Asked for all at once,
 * in address order (which the processor's own prefetcher follows), the
 * lines arrive together while the first run is decoded.  Only what the
 * read will use is asked for (see prefetch_runs): the processor keeps a
 * handful of lines in flight, and the rest of a request waits for them, so
 * asking for a whole leaf made a 100-column slice of the timeline
 * benchmark (half a leaf) wait for the other half too.
 */
static pg_attribute_always_inline void
prefetch_page(Page page, Size from, Size end)
{
	for (Size at = TYPEALIGN_DOWN(64, from); at < end; at += 64)
		__builtin_prefetch((const char *) page + at);
}

/*
 * Ask for the runs a read of the locked leaf page will decode: from item
 * off to the page's last (forward) or first data item (backward).  Runs are
 * placed on a page in key order from its end down, so these are one range
 * of addresses.  Asking run by run as each is reached gained nothing.
 *
 * These helpers must be inlined where they are used: a function that only
 * asks for memory has no effect the compiler has to keep, and GCC 12
 * drops a call of one it has not inlined yet.
 */
static pg_attribute_always_inline void
prefetch_runs(Page page, OffsetNumber off, OffsetNumber first, bool backward)
{
	ItemId		start = PageGetItemId(page, off);
	ItemId		last = PageGetItemId(page, backward ? first : PageGetMaxOffsetNumber(page));

	if (backward)
		prefetch_page(page, ItemIdGetOffset(start), ItemIdGetOffset(last) + ItemIdGetLength(last));
	else
		prefetch_page(page, ItemIdGetOffset(last), ItemIdGetOffset(start) + ItemIdGetLength(start));
}

/*
 * The first data item of the locked page whose run's first key is above
 * pos (forward) or at or above it (backward); max + 1 if there is none.
 */
static OffsetNumber
page_search(Relation rel, CfRelInfo *info, Page page, const CfKey *pos, bool backward)
{
	OffsetNumber lo = CfPageFirstData(CfPageGetOpaque(page)),
				hi = PageGetMaxOffsetNumber(page) + 1;
	int			c;

	/* the probes below then wait on memory once, not once each */
	for (OffsetNumber o = lo; o < hi; o++)
		__builtin_prefetch((const char *) page + ItemIdGetOffset(PageGetItemId(page, o)));

	/*
	 * Leaf splits keep rows whole where they can, so a page often starts or
	 * ends with the row a slice reads: look at both ends before bisecting
	 * (a page not yet in the processor's cache costs a miss per probe).
	 */
	if (lo < hi)
	{
		c = cfRunCompare(rel, &info->order, PageGetItem(page, cfPageItemId(rel, page, hi - 1)), pos);
		if (backward ? c < 0 : c <= 0)
			return hi;
		hi--;
	}
	if (lo < hi)
	{
		c = cfRunCompare(rel, &info->order, PageGetItem(page, cfPageItemId(rel, page, lo)), pos);
		if (!(backward ? c < 0 : c <= 0))
			return lo;
		lo++;
	}
	while (lo < hi)
	{
		OffsetNumber mid = lo + (hi - lo) / 2;

		c = cfRunCompare(rel, &info->order, PageGetItem(page, cfPageItemId(rel, page, mid)), pos);
		if (backward ? c < 0 : c <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Hand the cells of the locked leaf page in buf to fn, in key order or
 * backwards, starting at position from (NULL: the page's first or last
 * cell).  Returns true if fn asked to stop.  Decoded runs are allocated in
 * cxt, which the caller resets once it is done with the page.
 */
static bool
scan_page(Relation rel, CfRelInfo *info, Buffer buf, const CfKey *from, bool backward,
		  CfFeedFn fn, void *arg, MemoryContext cxt)
{
	Page		page = BufferGetPage(buf);
	CfPageOpaque op = CfPageGetOpaque(page);
	OffsetNumber first = CfPageFirstData(op);
	OffsetNumber max = PageGetMaxOffsetNumber(page);
	OffsetNumber off;
	MemoryContext old;
	bool		stopped = false;

	if (max < first)
		return false;
	/* a page read whole: all its items */
	if (from == NULL)
		prefetch_page(page, ((PageHeader) page)->pd_upper, ((PageHeader) page)->pd_special);

	old = MemoryContextSwitchTo(cxt);
	/* the run to start in */
	if (from == NULL)
		off = backward ? max : first;
	else
	{
		OffsetNumber lo = page_search(rel, info, page, from, backward);

		off = lo > first ? lo - 1 : (backward ? InvalidOffsetNumber : first);
		if (off != InvalidOffsetNumber)
			prefetch_runs(page, off, first, backward);
	}

	while (!stopped && off != InvalidOffsetNumber && off >= first && off <= max)
	{
		ItemId		iid = cfPageItemId(rel, page, off);
		CfRun		run;
		bool		skip_run = false;
		cfRunDecode(rel, PageGetItem(page, iid), ItemIdGetLength(iid), &run, cxt);
		/*
		 * A position that names only a row (or an infinity) puts every cell
		 * of a run on the same side of it: decide once for the run.
		 */
		if (from != NULL && from->nparts <= 1)
		{
			CfKey		ck;
			int			c;

			if (run.ncells > 0)
			{
				cfCellKey(&run, &run.cells[0], &ck);
				c = cfKeyCompare(&info->order, &ck, from);
				skip_run = backward ? c >= 0 : c < 0;
			}
			from = NULL;
		}
		for (int k = 0; k < run.ncells && !skip_run; k++)
		{
			int			i = backward ? run.ncells - 1 - k : k;
			CfCell	   *cell = &run.cells[i];

			if (from != NULL)
			{
				CfKey		ck;
				int			c;

				cfCellKey(&run, cell, &ck);
				c = cfKeyCompare(&info->order, &ck, from);
				if (backward ? c >= 0 : c < 0)
					continue;
			}
			if (fn(arg, &run, cell, buf) == CF_FEED_STOP)
			{
				stopped = true;
				break;
			}
		}
		/* past the start run, no more position checks are needed */
		from = NULL;
		if (backward)
			off = off > first ? off - 1 : InvalidOffsetNumber;
		else
			off++;
	}
	MemoryContextSwitchTo(old);
	return stopped;
}

/* ---------------------------------------------------------------------
 * Descending for a read
 * ---------------------------------------------------------------------
 */

/*
 * A leaf page passed on the way down, next to the landing page on its left
 * as far as the descent saw, with its low key: see read_markers.
 */
typedef struct CfLeftLeaf
{
	BlockNumber blkno;			/* InvalidBlockNumber: unknown */
	CfKey		lowkey;
} CfLeftLeaf;

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
			{
				CfKey		sep;

				cfIndexTupleKey(rel, prev, &sep);
				cfKeyCopy(&sep, &left->lowkey, lowcxt);
			}
		}
	}
	itup = (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, lo));
	if (lo != first)
	{
		CfKey		sep;

		cfIndexTupleKey(rel, itup, &sep);
		cfKeyCopy(&sep, lowkey, lowcxt);
	}
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
 * runs are.  scan_page then asks for the runs it will read and, before
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
static Buffer
read_descend(Relation rel, CfRelInfo *info, const CfKey *key, CfKey *lowkey, MemoryContext lowcxt,
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
		Page		page;
		CfPageOpaque op;

		buf = ReadBuffer(rel, info->root);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!CfPageIsCfstore(page))
			cfNotTreePage(rel, buf, info->root_level);
		op = CfPageGetOpaque(page);
		if (!(op->flags & CF_PAGE_ROOT) || op->level != info->root_level || op->level == 0)
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
			CfKey		hk;

			page = BufferGetPage(buf);
			op = CfPageGetOpaque(page);
			if (!cfBeyondHighKey(rel, info, page, key))
				break;
			if (first_level)
				info->rootcopy_stale = true;
			/* a dead page's key space, and so its low key, is its right sibling's now */
			if (!CfPageIsDead(op))
			{
				if (op->level == 0)
				{
					/* the page passed is the left neighbour now */
					left->blkno = BufferGetBlockNumber(buf);
					left->lowkey = *lowkey;
				}
				cfIndexTupleKey(rel, (CfIndexTuple) PageGetItem(page, cfPageItemId(rel, page, CF_HIKEY)), &hk);
				cfKeyCopy(&hk, lowkey, lowcxt);
			}
			child = op->right;
			UnlockReleaseBuffer(buf);
			CHECK_FOR_INTERRUPTS();
			cfCountMoveRight(rel, &moves, start);
			buf = ReadBuffer(rel, child);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			cfCheckTreePage(rel, buf, level);
		}
		if (level == 0)
			return buf;
		first_level = false;
		level--;
		child = follow_downlink(rel, info, page, key, lowkey, lowcxt, level == 0 ? left : NULL);
		buf = pin_child(rel, info, child, buf, level == 0);
	}
}

/* A walk over leaf pages. */
typedef struct CfWalk
{
	Relation	rel;
	CfRelInfo  *info;
	bool		backward;
	bool		started;
	bool		finished;
	CfKey		start;			/* where the first page is read from */
	bool		has_start;
	BlockNumber next;			/* forward: next page; backward: the page just read */
	BlockNumber prev;			/* backward: its left-link when read */
	MemoryContext pagecxt;		/* decoded runs, reset per page */
	MemoryContext keycxt;		/* the landing page's low key */
	CfKey		lowkey;
	CfLeftLeaf	left;			/* the landing page's left neighbour, as the descent saw it */
	uint64		pages;			/* pages read */
	Snapshot	horizon;		/* on a standby: the snapshot leaves' horizons are checked against */
	/* forward: the first block read, then all, an open-addressing set in keycxt (see note_read) */
	BlockNumber first_read;
	BlockNumber *read;
	uint32		read_cap;		/* a power of 2, or 0 before the second page */
	uint32		nread;
} CfWalk;

/*
 * The snapshot whose reads must check the standby horizons of the leaves
 * (see "Standbys" in cfvacuum.c), or NULL: an MVCC snapshot on a standby.
 */
static Snapshot
horizon_snapshot(Snapshot snapshot)
{
	if (snapshot != NULL && snapshot->snapshot_type == SNAPSHOT_MVCC && RecoveryInProgress())
		return snapshot;
	return NULL;
}

/*
 * For a read with snapshot (from horizon_snapshot), of a leaf: raise if
 * VACUUM on the primary removed versions from it that the snapshot may
 * still need (the snapshot is older than the page's horizon).  A page that
 * is no longer a leaf (freed after an unlink no snapshot of the primary
 * could see, and perhaps used again) is refused before, by
 * cfCheckTreePage.
 */
static void
check_horizon(Relation rel, Page page, Snapshot snapshot)
{
	TransactionId horizon = ((PageHeader) page)->pd_prune_xid;

	if (snapshot == NULL)
		return;
	if (TransactionIdIsNormal(horizon) && TransactionIdPrecedes(snapshot->xmin, horizon))
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("canceling statement due to conflict with recovery"),
				 errdetail("VACUUM on the primary removed cell versions of cfstore table \"%s\" that the query's snapshot might need.",
						   RelationGetRelationName(rel)),
				 errhint("Set hot_standby_feedback = on on the standby to keep them.")));
}

/*
 * Set up a walk from start (NULL: the first or last key).  The walk
 * decodes pages in pagecxt, which it resets before each page (what the
 * consumer allocates there lasts until the next step), and copies the
 * landing page's low key into keycxt (a walk descends once: that memory is
 * left to the caller, who owns both contexts).
 */
static void
walk_init(CfWalk *w, Relation rel, CfRelInfo *info, const CfKey *start, bool backward,
		  MemoryContext pagecxt, MemoryContext keycxt, Snapshot snapshot)
{
	memset(w, 0, sizeof(*w));
	w->rel = rel;
	w->info = info;
	w->backward = backward;
	w->horizon = horizon_snapshot(snapshot);
	if (start)
	{
		w->start = *start;
		w->has_start = true;
	}
	else
	{
		w->start.nparts = 0;
		w->start.bound = backward ? 1 : -1;
	}
	w->pagecxt = pagecxt;
	w->keycxt = keycxt;
}

/* Add blkno to a set of blocks (capacity cap, a power of 2); false if it was there. */
static bool
block_set_add(BlockNumber *set, uint32 cap, BlockNumber blkno)
{
	for (uint32 i = (blkno * 2654435761U) & (cap - 1);; i = (i + 1) & (cap - 1))
	{
		if (set[i] == blkno)
			return false;
		if (set[i] == InvalidBlockNumber)
		{
			set[i] = blkno;
			return true;
		}
	}
}

/*
 * Note that a forward walk read the leaf in buf (locked), and raise if it
 * read it before.  Right-links lead only to higher keys (Lehman and Yao),
 * so a walk meets a page once; a link that leads back (damage) would hand
 * out rows again, or forever.
 */
static void
note_read(CfWalk *w, Buffer buf)
{
	BlockNumber blkno = BufferGetBlockNumber(buf);

	/* most walks read one page: the set is made at the second */
	if (w->nread == 0)
	{
		w->first_read = blkno;
		w->nread = 1;
		return;
	}
	if (w->nread * 2 >= w->read_cap)
	{
		/* make the set, or grow it, and take the blocks over */
		BlockNumber *old = w->read;
		uint32		oldcap = w->read_cap;

		w->read_cap = Max(oldcap * 2, 16);
		w->read = MemoryContextAlloc(w->keycxt, sizeof(BlockNumber) * w->read_cap);
		memset(w->read, 0xFF, sizeof(BlockNumber) * w->read_cap);
		if (old == NULL)
			(void) block_set_add(w->read, w->read_cap, w->first_read);
		for (uint32 i = 0; i < oldcap; i++)
			if (old[i] != InvalidBlockNumber)
				(void) block_set_add(w->read, w->read_cap, old[i]);
		if (old)
			pfree(old);
	}
	if (block_set_add(w->read, w->read_cap, blkno))
	{
		w->nread++;
		return;
	}
	cfReachedAgain(w->rel, blkno);
}

/* How many pages walk_left moves right from a left-link before it looks at its start again. */
#define CF_WALK_LEFT_TRIES 4
/* How many times it looks again before it takes the chain for broken. */
#define CF_WALK_LEFT_ROUNDS 1000

/*
 * The page before blkno (whose left-link was left), share-locked, or
 * InvalidBuffer if blkno is the leftmost.  The page the left-link named
 * may have split since (move right to the page whose right-link is
 * blkno) or been unlinked (cffree.c): then, or after a few pages right,
 * blkno is looked at again.  If it is still linked its left-link is
 * current; if it was unlinked itself (VACUUM emptied it after it was
 * read), the first live page right of it holds its key space, and the
 * page before that one is the one wanted.
 */
static Buffer
walk_left(CfWalk *w, BlockNumber blkno, BlockNumber left)
{
	for (int rounds = 0;; rounds++)
	{
		Buffer		buf;
		CfPageOpaque op;
		BlockNumber start;
		uint32		moves;

		if (left == InvalidBlockNumber)
			return InvalidBuffer;
		/* each round follows a newer link: so many mean a broken chain */
		if (rounds >= CF_WALK_LEFT_ROUNDS)
			cfCorrupt(w->rel, blkno, "The chain of left-links before the page is broken.");
		buf = ReadBuffer(w->rel, left);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		cfCheckTreePage(w->rel, buf, 0);
		for (int tries = 0;; tries++)
		{
			BlockNumber right;

			op = CfPageGetOpaque(BufferGetPage(buf));
			if (CfPageIsDead(op))
				break;
			right = op->right;
			if (right == blkno)
				return buf;
			if (right == InvalidBlockNumber || tries >= CF_WALK_LEFT_TRIES)
				break;
			/* the left page split after we saw its link: move right to our neighbour */
			UnlockReleaseBuffer(buf);
			CHECK_FOR_INTERRUPTS();
			buf = ReadBuffer(w->rel, right);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			cfCheckTreePage(w->rel, buf, 0);
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();

		/* look at blkno again: its left-link now, or its successor's */
		buf = ReadBuffer(w->rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		cfCheckTreePage(w->rel, buf, 0);
		op = CfPageGetOpaque(BufferGetPage(buf));
		moves = 0;
		start = blkno;
		while (CfPageIsDead(op))
		{
			blkno = op->right;
			UnlockReleaseBuffer(buf);
			CHECK_FOR_INTERRUPTS();
			cfCountMoveRight(w->rel, &moves, start);
			buf = ReadBuffer(w->rel, blkno);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			cfCheckTreePage(w->rel, buf, 0);
			op = CfPageGetOpaque(BufferGetPage(buf));
		}
		left = op->left;
		UnlockReleaseBuffer(buf);
	}
}

/*
 * Read the next page of the walk into fn.  The first call lands with a
 * descent and, if landing is not NULL, calls it on the locked page before
 * the cells are read, with the page's low key.  If landing returns false
 * (it needs other pages first), the page is unlocked but stays pinned
 * while resolve, given the page's block and left-link, reads them; then it
 * is locked again and the walk moves right from it if it split meanwhile
 * (splits move keys right only; the page is pinned, so VACUUM does not
 * unlink it).  Returns false
 * once the walk is over.
 */
typedef bool (*CfLandFn) (void *arg, Buffer buf, const CfKey *lowkey);
typedef void (*CfResolveFn) (void *arg, BlockNumber blkno, BlockNumber left);

static bool
walk_step(CfWalk *w, CfFeedFn fn, void *arg, CfLandFn landing, CfResolveFn resolve)
{
	Buffer		buf;
	CfPageOpaque op;
	bool		stopped;
	const CfKey *from = NULL;

	if (w->finished)
		return false;
	/* the last page's decoded runs, and what the consumer kept there, can go */
	MemoryContextReset(w->pagecxt);
	if (!w->started)
	{
		w->started = true;
		buf = read_descend(w->rel, w->info, &w->start, &w->lowkey, w->keycxt, &w->left);
		if (!BufferIsValid(buf))
		{
			w->finished = true;
			return false;
		}
		if (landing && !landing(arg, buf, &w->lowkey))
		{
			/* a reader never holds two page locks: let go before reading others */
			BlockNumber left = CfPageGetOpaque(BufferGetPage(buf))->left;

			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
			resolve(arg, BufferGetBlockNumber(buf), left);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			buf = cfMoveRight(w->rel, w->info, buf, &w->start, BUFFER_LOCK_SHARE);
		}
		from = w->has_start ? &w->start : NULL;
	}
	else if (!w->backward)
	{
		if (w->next == InvalidBlockNumber)
		{
			w->finished = true;
			return false;
		}
		buf = ReadBuffer(w->rel, w->next);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		/* the descent and walk_left check the pages they return themselves */
		cfCheckTreePage(w->rel, buf, 0);
	}
	else
	{
		buf = walk_left(w, w->next, w->prev);
		if (!BufferIsValid(buf))
		{
			w->finished = true;
			return false;
		}
	}

	w->pages++;
	if (!w->backward)
		note_read(w, buf);
	op = CfPageGetOpaque(BufferGetPage(buf));
	if (unlikely(w->horizon != NULL))
		check_horizon(w->rel, BufferGetPage(buf), w->horizon);
	stopped = scan_page(w->rel, w->info, buf, from, w->backward, fn, arg, w->pagecxt);
	if (w->backward)
	{
		w->next = BufferGetBlockNumber(buf);
		w->prev = op->left;
	}
	else
		w->next = op->right;
	UnlockReleaseBuffer(buf);
	if (stopped)
		w->finished = true;
	return !w->finished;
}

/* ---------------------------------------------------------------------
 * Reconciliation
 * ---------------------------------------------------------------------
 */

/* A column's versions, reduced as they arrive. */
typedef struct CfColumn
{
	bytea	   *name;
	bool		any;			/* a visible version was seen */
	/* standard columns: the winner so far (§4) */
	bool		tomb;			/* winner is a tombstone or expired */
	int64		ts;
	bytea	   *value;
	int32		ttl;
	uint32		expires_at;
	/* counters: the newest deletion, and every increment */
	int64		deleted_at;
	int			ndeltas;
	int			maxdeltas;
	int64	   *delta_ts;
	int64	   *delta;
} CfColumn;

typedef enum CfReadMode
{
	CF_READ_SCAN,				/* every live column of every row */
	CF_READ_COLUMNS,			/* columns (or subcolumns) of one container */
	CF_READ_SUPERS				/* super columns of one row, with all their subcolumns */
} CfReadMode;

/* A grow-only buffer holding one bytea (the current column's name or value). */
typedef struct CfByteBuf
{
	bytea	   *data;
	Size		cap;
} CfByteBuf;

struct CfSliceState
{
	Relation	rel;
	CfRelInfo  *info;
	Snapshot	snapshot;
	CfReadMode	mode;
	bool		backward;
	bool		is_counter;
	bool		is_super;
	int64		now;			/* seconds since 1970, for TTL expiry */
	MemoryContext cxt;			/* the state's own memory, parent of the others */
	CfWalk		walk;
	/* the last committed xmin checked against the snapshot, and the answer */
	TransactionId seen_xmin;
	bool		seen_visible;
	MemoryContext pagecxt;		/* decoded runs of the page being read */

	/* the slice */
	bytea	   *key;
	bytea	   *sc;				/* CF_READ_COLUMNS in a Super CF */
	bytea	   *start;
	bytea	   *finish;
	int64		count;
	int64		items;

	/* containers */
	bytea	   *curkey;
	int64		row_del;
	bytea	   *cursc;
	int64		sc_del;
	bool		markers_known;	/* row_del / sc_del resolved before the walk */
	bool		row_markers_known;
	bool		sc_markers_known;

	/*
	 * The column being reduced.  Its name, value and counter increments live
	 * in buffers that are reused from column to column.
	 */
	CfColumn	col;
	CfByteBuf	namebuf;
	CfByteBuf	valuebuf;
	int64	   *delta_ts;
	int64	   *delta;
	int			maxdeltas;

	/* CF_READ_SUPERS: the super column being gathered */
	int			ngroup;
	int			maxgroup;
	CfColumn   *group;
	MemoryContext groupcxt;

	/*
	 * results: the queue's bytes are in pagecxt, which the walk resets only
	 * at its next step, once the queue is drained
	 */
	CfOutCell  *queue;
	int			nqueue;
	int			maxqueue;
	int			qhead;
	bytea	   *outkey;			/* curkey and cursc copied into pagecxt, or NULL */
	bytea	   *outsc;
	char	   *outbuf;			/* where out_bytes carves results (in pagecxt) */
	Size		outleft;
	bool		done;

	/*
	 * CF_READ_COLUMNS: the stored row key of the last run found to be the
	 * slice's (it identifies the run on the page being read), or NULL
	 */
	const uint8 *fedrun;
};

#define CF_NO_DELETION PG_INT64_MIN

/* The size of the blocks results are carved from (out_bytes). */
#define CF_OUT_BLOCK 4096

/*
 * Whether two byte strings of len bytes are equal; 16 bytes (a UUID name)
 * without a call.
 */
static inline bool
bytes_eq(const uint8 *a, const uint8 *b, int len)
{
	if (len == 16)
	{
		uint64		a0,
					a1,
					b0,
					b1;

		memcpy(&a0, a, 8);
		memcpy(&a1, a + 8, 8);
		memcpy(&b0, b, 8);
		memcpy(&b1, b + 8, 8);
		return ((a0 ^ b0) | (a1 ^ b1)) == 0;
	}
	return memcmp(a, b, len) == 0;
}

/* Whether a bytea holds exactly these bytes. */
static inline bool
bytea_eq(const bytea *b, const uint8 *data, int len)
{
	return b != NULL && VARSIZE_ANY_EXHDR(b) == (Size) len &&
		bytes_eq((const uint8 *) VARDATA_ANY(b), data, len);
}

/* Seconds since 1970 now. */
static int64
unix_now(void)
{
	return (int64) (GetCurrentTimestamp() / USECS_PER_SEC) +
		(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
}

/* Put len bytes into a buffer as a bytea, growing it in cxt if needed. */
static bytea *
bytebuf_set(CfByteBuf *buf, MemoryContext cxt, const uint8 *data, int len)
{
	Size		need = VARHDRSZ + len;

	if (buf->cap < need)
	{
		Size		cap = Max(buf->cap, 64);

		while (cap < need)
			cap *= 2;
		if (buf->data)
			pfree(buf->data);
		buf->data = MemoryContextAlloc(cxt, cap);
		buf->cap = cap;
	}
	SET_VARSIZE(buf->data, need);
	if (len > 0)
		memcpy(VARDATA(buf->data), data, len);
	return buf->data;
}

/* Start reducing a new column. */
static void
column_reset(CfSliceState *s, const uint8 *name, int len)
{
	CfColumn   *col = &s->col;

	memset(col, 0, sizeof(*col));
	col->name = bytebuf_set(&s->namebuf, s->cxt, name, len);
	col->deleted_at = CF_NO_DELETION;
	col->delta_ts = s->delta_ts;
	col->delta = s->delta;
	col->maxdeltas = s->maxdeltas;
}

/* Fold one visible version into the current column (semantics §4, §6, §7). */
static void
column_add(CfSliceState *s, const CfCell *cell)
{
	CfColumn   *col = &s->col;
	bool		tomb = (cell->flags & CF_CELL_TOMBSTONE) != 0;
	MemoryContext old;

	if ((cell->flags & CF_CELL_EXPIRING) && s->now >= (int64) cell->expires_at)
		tomb = true;			/* expired: a tombstone at its timestamp */

	if (s->is_counter || (cell->flags & CF_CELL_COUNTER))
	{
		if (tomb)
		{
			if (cell->writetime > col->deleted_at)
				col->deleted_at = cell->writetime;
		}
		else
		{
			if (col->ndeltas == col->maxdeltas)
			{
				int			n = Max(8, col->maxdeltas * 2);

				old = MemoryContextSwitchTo(s->cxt);
				col->delta_ts = col->delta_ts ? repalloc(col->delta_ts, sizeof(int64) * n) : palloc(sizeof(int64) * n);
				col->delta = col->delta ? repalloc(col->delta, sizeof(int64) * n) : palloc(sizeof(int64) * n);
				MemoryContextSwitchTo(old);
				col->maxdeltas = n;
				/* the arrays serve the next columns too */
				s->delta_ts = col->delta_ts;
				s->delta = col->delta;
				s->maxdeltas = n;
			}
			col->delta_ts[col->ndeltas] = cell->writetime;
			col->delta[col->ndeltas] = cell->valuelen == 8 ? (int64) cfReadBe64(cell->value) : 0;
			col->ndeltas++;
		}
		col->any = true;
		return;
	}

	if (col->any)
	{
		bool		wins;

		if (col->tomb)
			wins = col->ts < cell->writetime;
		else if (tomb)
			wins = !(col->ts > cell->writetime);
		else if (col->ts == cell->writetime)
		{
			int			vlen;
			const uint8 *v = cfCellValue(s->rel, cell, &vlen);

			wins = cfSignedBytesCompare((const uint8 *) VARDATA(col->value), VARSIZE(col->value) - VARHDRSZ,
										v, vlen) < 0;
		}
		else
			wins = col->ts < cell->writetime;
		if (!wins)
			return;
	}
	col->any = true;
	col->tomb = tomb;
	col->ts = cell->writetime;
	col->ttl = (cell->flags & CF_CELL_EXPIRING) ? cell->ttl : 0;
	col->expires_at = (cell->flags & CF_CELL_EXPIRING) ? cell->expires_at : 0;
	if (tomb)
		col->value = NULL;
	else
	{
		int			vlen;
		const uint8 *v = cfCellValue(s->rel, cell, &vlen);

		col->value = bytebuf_set(&s->valuebuf, s->cxt, v, vlen);
	}
}

/* A copy of a bytea in the current memory context. */
static bytea *
bytea_copy(const bytea *b)
{
	return cfMakeBytea(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
}

/*
 * The name and value of a live item in out, in one chunk allocated in the
 * current context (pagecxt), with the row key and super column, which are
 * copied into pagecxt once and shared by the items that follow.
 */
static void
out_bytes(CfSliceState *s, const uint8 *name, int nlen, const uint8 *value, int vlen, CfOutCell *out)
{
	Size		nsize = MAXALIGN(VARHDRSZ + nlen);
	Size		need = MAXALIGN(nsize + VARHDRSZ + vlen);
	char	   *chunk;

	/* small results are carved from a block of the page's, as decoded names are */
	if (need > CF_OUT_BLOCK / 8)
		chunk = palloc(need);
	else
	{
		if (s->outleft < need)
		{
			s->outbuf = palloc(CF_OUT_BLOCK);
			s->outleft = CF_OUT_BLOCK;
		}
		chunk = s->outbuf;
		s->outbuf += need;
		s->outleft -= need;
	}

	out->name = (bytea *) chunk;
	SET_VARSIZE(out->name, VARHDRSZ + nlen);
	memcpy(VARDATA(out->name), name, nlen);
	out->value = (bytea *) (chunk + nsize);
	SET_VARSIZE(out->value, VARHDRSZ + vlen);
	memcpy(VARDATA(out->value), value, vlen);
	if (s->curkey && s->outkey == NULL)
		s->outkey = bytea_copy(s->curkey);
	out->key = s->curkey ? s->outkey : NULL;
	if (s->is_super && s->cursc && s->outsc == NULL)
		s->outsc = bytea_copy(s->cursc);
	out->sc = (s->is_super && s->cursc) ? s->outsc : NULL;
}

/*
 * Resolve a reduced column against its containers' deletions into out
 * (out_bytes, in the current context, pagecxt); false if it is not live.
 */
static bool
column_resolve(CfSliceState *s, const CfColumn *col, int64 container_del, CfOutCell *out)
{
	const uint8 *value;
	int			vlen;
	uint64		be;

	if (!col->any)
		return false;
	memset(out, 0, sizeof(*out));
	if (col->ndeltas > 0 || (s->is_counter && col->deleted_at != CF_NO_DELETION))
	{
		int64		del = Max(col->deleted_at, container_del);
		uint64		total = 0;	/* modulo 2^64, as Java's long (cfvacuum.c) */
		bool		live = false;

		for (int i = 0; i < col->ndeltas; i++)
		{
			if (col->delta_ts[i] > del)
			{
				total += (uint64) col->delta[i];
				live = true;
			}
		}
		if (!live)
			return false;
		be = pg_hton64(total);
		value = (const uint8 *) &be;
		vlen = 8;
		out->is_counter = true;
	}
	else
	{
		if (col->tomb || col->ts <= container_del)
			return false;
		value = (const uint8 *) VARDATA(col->value);
		vlen = VARSIZE(col->value) - VARHDRSZ;
		out->writetime = col->ts;
		out->ttl = col->ttl;
		out->expires_at = col->expires_at;
	}
	out_bytes(s, (const uint8 *) VARDATA(col->name), VARSIZE(col->name) - VARHDRSZ, value, vlen, out);
	return true;
}

/* Make room in the output queue: for the whole slice at first, if it is short. */
static void
queue_grow(CfSliceState *s)
{
	MemoryContext old = MemoryContextSwitchTo(s->cxt);

	s->maxqueue = s->maxqueue == 0 ? (int) Max(16, Min(s->count, 256)) : s->maxqueue * 2;
	s->queue = s->queue ? repalloc(s->queue, sizeof(CfOutCell) * s->maxqueue)
		: palloc(sizeof(CfOutCell) * s->maxqueue);
	MemoryContextSwitchTo(old);
}

/* Append a resolved cell to the output queue. */
static inline CfOutCell *
queue_push(CfSliceState *s)
{
	if (unlikely(s->nqueue == s->maxqueue))
		queue_grow(s);
	return &s->queue[s->nqueue++];
}

/*
 * cfCellVisible for a slice.  A committed cell's visibility depends only on
 * its xmin and the snapshot, and the cells a slice meets were mostly
 * written by few transactions: the answer for the last such xmin is kept.
 */
static inline bool
cell_visible(CfSliceState *s, CfCell *cell, Buffer buf)
{
	if (cell->flags & CF_CELL_FROZEN)
		return true;
	if ((cell->flags & (CF_CELL_XMIN_COMMITTED | CF_CELL_XMIN_INVALID)) == CF_CELL_XMIN_COMMITTED &&
		s->snapshot->snapshot_type == SNAPSHOT_MVCC)
	{
		if (cell->xmin != s->seen_xmin || !TransactionIdIsValid(s->seen_xmin))
		{
			s->seen_visible = cfCellVisible(cell, cell->flagsp, buf, s->snapshot);
			s->seen_xmin = cell->xmin;
		}
		return s->seen_visible;
	}
	return cfCellVisible(cell, cell->flagsp, buf, s->snapshot);
}

/* The deletion time that applies to columns of the current container. */
static inline int64
container_deletion(CfSliceState *s)
{
	return Max(s->row_del, s->sc_del);
}

/* Finish the column being reduced: emit it if live (not in CF_READ_SUPERS). */
static void
column_finish(CfSliceState *s)
{
	if (s->col.name == NULL)
		return;
	if (s->mode == CF_READ_SUPERS)
	{
		/* keep it (resolved later against its super column's deletion) */
		MemoryContext old = MemoryContextSwitchTo(s->groupcxt);
		CfColumn   *g;

		if (s->ngroup == s->maxgroup)
		{
			s->maxgroup = Max(16, s->maxgroup * 2);
			s->group = s->group ? repalloc(s->group, sizeof(CfColumn) * s->maxgroup)
				: palloc(sizeof(CfColumn) * s->maxgroup);
		}
		g = &s->group[s->ngroup++];
		*g = s->col;
		g->name = (bytea *) pg_detoast_datum_copy((struct varlena *) s->col.name);
		if (s->col.value)
			g->value = (bytea *) pg_detoast_datum_copy((struct varlena *) s->col.value);
		if (s->col.ndeltas > 0)
		{
			g->delta_ts = palloc(sizeof(int64) * s->col.ndeltas);
			g->delta = palloc(sizeof(int64) * s->col.ndeltas);
			memcpy(g->delta_ts, s->col.delta_ts, sizeof(int64) * s->col.ndeltas);
			memcpy(g->delta, s->col.delta, sizeof(int64) * s->col.ndeltas);
		}
		MemoryContextSwitchTo(old);
	}
	else
	{
		CfOutCell	out;
		MemoryContext old = MemoryContextSwitchTo(s->pagecxt);

		if (column_resolve(s, &s->col, container_deletion(s), &out))
		{
			*queue_push(s) = out;
			s->items++;
		}
		MemoryContextSwitchTo(old);
	}
	s->col.name = NULL;
}

/*
 * Whether cell is the only version of its column, as its run shows: the
 * versions of a column are adjacent and every one of them is fed, so a
 * cell that starts a column in the walk has none before it (in the walk's
 * direction), and none after it if the next cell of its run has another
 * name.  The last cell of a run may have versions in the next run.
 */
static inline bool
lone_version(const CfRun *run, const CfCell *cell, bool backward)
{
	int			i = cell - run->cells;
	const CfCell *next;

	if (backward ? i == 0 : i == run->ncells - 1)
		return false;
	next = backward ? cell - 1 : cell + 1;
	return next->namelen != cell->namelen || !bytes_eq(next->name, cell->name, cell->namelen);
}

/*
 * CF_READ_COLUMNS of a standard (not counter) column: a column whose only
 * version is cell (lone_version), resolved as column_reset, column_add and
 * column_finish would resolve it, without copying it into the column
 * being reduced first.  The common case: most columns have one version.
 */
static void
lone_finish(CfSliceState *s, CfCell *cell, Buffer buf)
{
	bool		expiring = (cell->flags & CF_CELL_EXPIRING) != 0;
	const uint8 *value;
	int			vlen;
	CfOutCell  *out;
	MemoryContext old;

	if (!cell_visible(s, cell, buf) ||
		(cell->flags & CF_CELL_TOMBSTONE) != 0 ||
		(expiring && s->now >= (int64) cell->expires_at) ||
		cell->writetime <= container_deletion(s))
		return;
	old = MemoryContextSwitchTo(s->pagecxt);
	value = cfCellValue(s->rel, cell, &vlen);
	out = queue_push(s);
	/*
	 * Field by field: zeroing the whole cell first (a memset or a compound
	 * literal) compiles to a "rep stos", on which perf put a quarter of
	 * slice_feed's samples.  out_bytes sets the pointers.
	 */
	out->writetime = cell->writetime;
	out->ttl = expiring ? cell->ttl : 0;
	out->expires_at = expiring ? cell->expires_at : 0;
	out->is_counter = false;
	out_bytes(s, cell->name, cell->namelen, value, vlen, out);
	MemoryContextSwitchTo(old);
	s->items++;
}

/* CF_READ_SUPERS: finish the super column being gathered. */
static void
group_finish(CfSliceState *s)
{
	int			nlive = 0;
	int			first = s->nqueue;
	MemoryContext old;

	column_finish(s);
	if (s->cursc == NULL)
		return;
	old = MemoryContextSwitchTo(s->pagecxt);
	for (int i = 0; i < s->ngroup; i++)
	{
		CfOutCell	out;

		if (column_resolve(s, &s->group[i], container_deletion(s), &out))
		{
			*queue_push(s) = out;
			nlive++;
		}
	}
	MemoryContextSwitchTo(old);
	/* subcolumns come out ascending even in a reversed slice (§8.2) */
	if (s->backward && nlive > 1)
	{
		for (int i = first, j = s->nqueue - 1; i < j; i++, j--)
		{
			CfOutCell	t = s->queue[i];

			s->queue[i] = s->queue[j];
			s->queue[j] = t;
		}
	}
	if (nlive > 0)
		s->items++;
	s->ngroup = 0;
	MemoryContextReset(s->groupcxt);
	s->group = NULL;
	s->maxgroup = 0;
}

/* Compare a name with a bound under the name (or super column) comparator. */
static int
bound_compare(const CfType *type, const uint8 *name, int len, const bytea *bound)
{
	return cfTypeCompare(type, name, len, (const uint8 *) VARDATA_ANY(bound), VARSIZE_ANY_EXHDR(bound));
}

/* Set the current super column. */
static void
set_cursc(CfSliceState *s, const CfRun *run)
{
	MemoryContext old = MemoryContextSwitchTo(s->cxt);

	if (s->cursc)
		pfree(s->cursc);
	s->cursc = cfMakeBytea(run->sc, run->sclen);
	s->outsc = NULL;
	MemoryContextSwitchTo(old);
	s->sc_del = CF_NO_DELETION;
}

/* The consumer of a slice or scan: see the file header. */
static CfFeed
slice_feed(void *arg, const CfRun *run, CfCell *cell, Buffer buf)
{
	CfSliceState *s = (CfSliceState *) arg;
	const CfType *namecmp = s->info->order.namecmp;

	/* leaving the row (or super column)?  Asked once per run of a page. */
	if (s->mode == CF_READ_COLUMNS)
	{
		if (run->key != s->fedrun)
		{
			if (!bytea_eq(s->key, run->key, run->keylen) ||
				(s->is_super && !bytea_eq(s->sc, run->sc, run->sclen)))
				return CF_FEED_STOP;
			s->fedrun = run->key;
		}
	}
	else if (s->mode == CF_READ_SUPERS)
	{
		if (!bytea_eq(s->key, run->key, run->keylen))
			return CF_FEED_STOP;
	}
	else if (!bytea_eq(s->curkey, run->key, run->keylen))
	{
		MemoryContext old;

		column_finish(s);
		old = MemoryContextSwitchTo(s->cxt);
		if (s->curkey)
			pfree(s->curkey);
		s->curkey = cfMakeBytea(run->key, run->keylen);
		if (s->cursc)
			pfree(s->cursc);
		s->cursc = NULL;
		s->outkey = s->outsc = NULL;
		MemoryContextSwitchTo(old);
		s->row_del = CF_NO_DELETION;
		s->sc_del = CF_NO_DELETION;
	}

	if (s->mode == CF_READ_SUPERS || (s->mode == CF_READ_SCAN && s->is_super))
	{
		/* the row's own markers are known in advance (supers) or come first (scan) */
		if (run->sclen == 0)
		{
			if (s->mode == CF_READ_SUPERS)
				return s->backward ? CF_FEED_STOP : CF_FEED_CONTINUE;
		}
		else if (!bytea_eq(s->cursc, run->sc, run->sclen))
		{
			/* a new super column */
			if (s->mode == CF_READ_SUPERS)
			{
				group_finish(s);
				if (s->items >= s->count)
					return CF_FEED_STOP;
				if (s->finish != NULL)
				{
					int			c = bound_compare(s->info->order.sccmp, run->sc, run->sclen, s->finish);

					if (s->backward ? c < 0 : c > 0)
						return CF_FEED_STOP;
				}
			}
			else
				column_finish(s);
			set_cursc(s, run);
		}
	}

	/* a container's tombstone */
	if (cell->namelen == 0)
	{
		if (s->mode == CF_READ_COLUMNS)
			return s->backward ? CF_FEED_STOP : CF_FEED_CONTINUE;
		if (!cell_visible(s, cell, buf))
			return CF_FEED_CONTINUE;
		if (run->sclen == 0)
		{
			if (s->mode == CF_READ_SCAN && cell->writetime > s->row_del)
				s->row_del = cell->writetime;
		}
		else if (cell->writetime > s->sc_del)
			s->sc_del = cell->writetime;
		return CF_FEED_CONTINUE;
	}

	/* a new column? */
	if (s->col.name == NULL || !bytea_eq(s->col.name, cell->name, cell->namelen))
	{
		column_finish(s);
		if (s->mode == CF_READ_COLUMNS)
		{
			if (s->items >= s->count)
				return CF_FEED_STOP;
			if (s->finish != NULL)
			{
				int			c = bound_compare(namecmp, cell->name, cell->namelen, s->finish);

				if (s->backward ? c < 0 : c > 0)
					return CF_FEED_STOP;
			}
			if (!s->is_counter && !(cell->flags & CF_CELL_COUNTER) &&
				lone_version(run, cell, s->backward))
			{
				lone_finish(s, cell, buf);
				return CF_FEED_CONTINUE;
			}
		}
		column_reset(s, cell->name, cell->namelen);
	}
	if (cell_visible(s, cell, buf))
		column_add(s, cell);
	return CF_FEED_CONTINUE;
}

/* ---------------------------------------------------------------------
 * Container tombstones read ahead of a slice
 * ---------------------------------------------------------------------
 */
typedef struct CfMarkerScan
{
	CfSliceState *s;
	bytea	   *sc;				/* NULL: the row's markers */
	int64		del;
	bool		ended;
} CfMarkerScan;

/* Consumer collecting the tombstones of one container. */
static CfFeed
marker_feed(void *arg, const CfRun *run, CfCell *cell, Buffer buf)
{
	CfMarkerScan *m = (CfMarkerScan *) arg;
	CfSliceState *s = m->s;

	if (!bytea_eq(s->key, run->key, run->keylen) || cell->namelen != 0 ||
		(m->sc == NULL ? run->sclen != 0 : !bytea_eq(m->sc, run->sc, run->sclen)))
	{
		m->ended = true;
		return CF_FEED_STOP;
	}
	if (cell_visible(s, cell, buf) && cell->writetime > m->del)
		m->del = cell->writetime;
	return CF_FEED_CONTINUE;
}

/* The position of a container's tombstones: (key, sc or '', '') before every version. */
static void
marker_position(CfSliceState *s, bytea *sc, CfKey *pos)
{
	memset(pos, 0, sizeof(*pos));
	pos->key = (const uint8 *) VARDATA_ANY(s->key);
	pos->keylen = VARSIZE_ANY_EXHDR(s->key);
	pos->sc = sc ? (const uint8 *) VARDATA_ANY(sc) : (const uint8 *) "";
	pos->sclen = sc ? VARSIZE_ANY_EXHDR(sc) : 0;
	pos->name = (const uint8 *) "";
	pos->namelen = 0;
	pos->nparts = 3;
	pos->bound = -1;
}

/*
 * Whether the run at off of a locked page belongs to the container whose
 * tombstones are at pos: CF_RUN_OTHER if not, else whether it starts with a
 * tombstone.  Only the run's first cell is read.
 */
typedef enum CfRunOpens
{
	CF_RUN_OTHER,
	CF_RUN_TOMBSTONE_FIRST,
	CF_RUN_CELL_FIRST
} CfRunOpens;

static CfRunOpens
run_opens(CfSliceState *s, Page page, OffsetNumber off, const CfKey *pos)
{
	CfKey		fk;

	cfRunFirstKey(s->rel, PageGetItem(page, cfPageItemId(s->rel, page, off)), &fk);
	if (fk.keylen != pos->keylen || memcmp(fk.key, pos->key, pos->keylen) != 0 ||
		fk.sclen != pos->sclen || memcmp(fk.sc, pos->sc, pos->sclen) != 0)
		return CF_RUN_OTHER;
	return fk.namelen == 0 ? CF_RUN_TOMBSTONE_FIRST : CF_RUN_CELL_FIRST;
}

/*
 * The deletion time of the container whose tombstones are at pos, read
 * from the locked page in buf, which covers pos.  A container's tombstones
 * are its first cells, so they open the first run at or after pos: unless
 * that run is the container's and starts with an empty name, there are
 * none, and no run needs decoding.
 */
static int64
page_markers(CfSliceState *s, Buffer buf, bytea *sc, const CfKey *pos)
{
	Page		page = BufferGetPage(buf);
	MemoryContext old = MemoryContextSwitchTo(s->pagecxt);
	OffsetNumber off = CfPageFirstData(CfPageGetOpaque(page));
	CfRunOpens	opens = CF_RUN_OTHER;
	CfMarkerScan m;

	check_horizon(s->rel, page, horizon_snapshot(s->snapshot));

	m.s = s;
	m.sc = sc;
	m.del = CF_NO_DELETION;
	m.ended = false;
	/*
	 * The page covers pos, so a first run that is the container's is its
	 * first one (rows often start their page); else search for it.
	 */
	if (off <= PageGetMaxOffsetNumber(page))
		opens = run_opens(s, page, off, pos);
	if (opens == CF_RUN_OTHER)
	{
		off = page_search(s->rel, s->info, page, pos, true);
		if (off <= PageGetMaxOffsetNumber(page))
			opens = run_opens(s, page, off, pos);
	}
	if (opens == CF_RUN_TOMBSTONE_FIRST)
		scan_page(s->rel, s->info, buf, pos, false, marker_feed, &m, s->pagecxt);
	MemoryContextSwitchTo(old);
	MemoryContextReset(s->pagecxt);
	return m.del;
}

/* How many pages a slice walks left to its container's tombstones before it descends instead. */
#define CF_MARKER_LEFT_PAGES 3

/*
 * Read a container's tombstones, which lie left of the landing page blkno
 * (whose left-link is left).  A row that does not fit its landing page
 * starts on a page before it: walk left to the first page that starts
 * before the tombstones' position (or is the leftmost), and read forward
 * from there.  A page passed on the way that starts with one of the
 * container's cells holds no tombstones, so the reading ends at it.  For a
 * long row the walk would be long: after a few pages, descend to the
 * position instead.
 */
static int64
read_markers(CfSliceState *s, bytea *sc, BlockNumber blkno, BlockNumber left)
{
	CfMarkerScan m;
	CfWalk		w;
	CfKey		pos;
	Buffer		buf = InvalidBuffer;
	BlockNumber clean = InvalidBlockNumber;
	MemoryContext old;

	m.s = s;
	m.sc = sc;
	m.del = CF_NO_DELETION;
	m.ended = false;
	marker_position(s, sc, &pos);
	walk_init(&w, s->rel, s->info, &pos, false, s->pagecxt, s->cxt, s->snapshot);
	old = MemoryContextSwitchTo(s->pagecxt);
	for (int i = 0; i < CF_MARKER_LEFT_PAGES && left != InvalidBlockNumber; i++)
	{
		Page		page;
		CfPageOpaque op;
		OffsetNumber first;

		buf = walk_left(&w, blkno, left);
		page = BufferGetPage(buf);
		check_horizon(s->rel, page, w.horizon);
		op = CfPageGetOpaque(page);
		first = CfPageFirstData(op);
		if (op->left == InvalidBlockNumber ||
			(first <= PageGetMaxOffsetNumber(page) &&
			 cfRunCompare(s->rel, &s->info->order, PageGetItem(page, cfPageItemId(s->rel, page, first)), &pos) < 0))
			break;
		/*
		 * The landing page's left neighbour, as the descent saw it, with its
		 * low key from the parent: if it starts at or before pos, it covers
		 * pos (its right-link is the landing page, whose low key is above
		 * pos), even if its first run is already the container's.
		 */
		if (i == 0 && BufferGetBlockNumber(buf) == s->walk.left.blkno &&
			cfKeyCompare(&s->info->order, &s->walk.left.lowkey, &pos) <= 0)
			break;
		blkno = BufferGetBlockNumber(buf);
		clean = (first <= PageGetMaxOffsetNumber(page) &&
				 run_opens(s, page, first, &pos) == CF_RUN_CELL_FIRST) ? blkno : InvalidBlockNumber;
		left = op->left;
		UnlockReleaseBuffer(buf);
		buf = InvalidBuffer;
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(s->pagecxt);

	if (BufferIsValid(buf))
	{
		/* the page that covers pos: read it, then the pages after it */
		BlockNumber right = CfPageGetOpaque(BufferGetPage(buf))->right;

		scan_page(s->rel, s->info, buf, &pos, false, marker_feed, &m, s->pagecxt);
		MemoryContextReset(s->pagecxt);
		UnlockReleaseBuffer(buf);
		if (right == clean || right == InvalidBlockNumber)
			m.ended = true;
		w.started = true;
		w.next = right;
	}
	while (!m.ended && walk_step(&w, marker_feed, &m, NULL, NULL))
		;
	return m.del;
}

/*
 * Landing callback: read the markers that are on the landing page (those at
 * or after its low key); false if some must be read from other pages.
 */
static bool
slice_landing(void *arg, Buffer buf, const CfKey *lowkey)
{
	CfSliceState *s = (CfSliceState *) arg;
	CfKey		pos;

	if (s->markers_known)
		return true;

	if (!s->row_markers_known)
	{
		marker_position(s, NULL, &pos);
		if (cfKeyCompare(&s->info->order, lowkey, &pos) <= 0)
		{
			s->row_del = page_markers(s, buf, NULL, &pos);
			s->row_markers_known = true;
		}
	}
	if (!s->sc_markers_known)
	{
		marker_position(s, s->sc, &pos);
		if (cfKeyCompare(&s->info->order, lowkey, &pos) <= 0)
		{
			s->sc_del = page_markers(s, buf, s->sc, &pos);
			s->sc_markers_known = true;
		}
	}
	s->markers_known = s->row_markers_known && s->sc_markers_known;
	return s->markers_known;
}

/* Read the markers the landing page (blkno, left-link left) did not hold. */
static void
slice_resolve(void *arg, BlockNumber blkno, BlockNumber left)
{
	CfSliceState *s = (CfSliceState *) arg;

	if (!s->row_markers_known)
		s->row_del = read_markers(s, NULL, blkno, left);
	if (!s->sc_markers_known)
		s->sc_del = read_markers(s, s->sc, blkno, left);
	s->row_markers_known = s->sc_markers_known = s->markers_known = true;
}

/* ---------------------------------------------------------------------
 * Slices
 * ---------------------------------------------------------------------
 */

/* Build the position a slice starts from. */
static void
slice_start(CfSliceState *s, CfKey *pos)
{
	bytea	   *bound = s->start;

	memset(pos, 0, sizeof(*pos));
	pos->key = (const uint8 *) VARDATA_ANY(s->key);
	pos->keylen = VARSIZE_ANY_EXHDR(s->key);
	pos->sc = (const uint8 *) "";
	pos->name = (const uint8 *) "";
	pos->bound = s->backward ? 1 : -1;

	if (s->mode == CF_READ_SUPERS)
	{
		if (bound)
		{
			pos->sc = (const uint8 *) VARDATA_ANY(bound);
			pos->sclen = VARSIZE_ANY_EXHDR(bound);
			pos->nparts = 2;
		}
		else if (s->backward)
			pos->nparts = 1;	/* after the whole row */
		else
		{
			pos->nparts = 2;	/* after the row's own markers (sc '') */
			pos->bound = 1;
		}
		return;
	}

	if (s->is_super)
	{
		pos->sc = (const uint8 *) VARDATA_ANY(s->sc);
		pos->sclen = VARSIZE_ANY_EXHDR(s->sc);
	}
	if (bound)
	{
		pos->name = (const uint8 *) VARDATA_ANY(bound);
		pos->namelen = VARSIZE_ANY_EXHDR(bound);
		pos->nparts = 3;
	}
	else if (s->backward)
		pos->nparts = s->is_super ? 2 : 1;	/* after the whole container */
	else
	{
		pos->nparts = 3;		/* after the container's markers (name '') */
		pos->bound = 1;
	}
}

/*
 * Common set-up of a slice or scan.  The state lives in a memory context of
 * its own, with children for the page being decoded, the results waiting
 * in the queue and (super column slices) the super column being gathered.
 */
static CfSliceState *
state_create(Relation rel, Snapshot snapshot, CfReadMode mode, bool backward)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore slice",
											  ALLOCSET_DEFAULT_SIZES);
	CfSliceState *s = MemoryContextAllocZero(cxt, sizeof(CfSliceState));

	s->cxt = cxt;
	s->rel = rel;
	s->info = cfRelInfo(rel);
	s->snapshot = snapshot;
	s->mode = mode;
	s->backward = backward;
	s->is_counter = s->info->is_counter;
	s->is_super = s->info->is_super;
	s->now = unix_now();
	s->row_del = CF_NO_DELETION;
	s->sc_del = CF_NO_DELETION;
	s->pagecxt = AllocSetContextCreate(cxt, "cfstore page", ALLOCSET_DEFAULT_SIZES);
	if (mode == CF_READ_SUPERS)
		s->groupcxt = AllocSetContextCreate(cxt, "cfstore super column", ALLOCSET_DEFAULT_SIZES);
	s->count = PG_INT64_MAX;
	return s;
}

/* Begin a slice (see CfSliceSpec). */
CfSliceState *
cfSliceBegin(Relation rel, const CfSliceSpec *spec, Snapshot snapshot)
{
	CfSliceState *s;
	CfKey		pos;
	MemoryContext old;

	s = state_create(rel, snapshot, spec->whole_super ? CF_READ_SUPERS : CF_READ_COLUMNS, spec->reversed);
	old = MemoryContextSwitchTo(s->cxt);
	s->key = (bytea *) pg_detoast_datum_copy((struct varlena *) spec->key);
	s->curkey = s->key;
	s->sc = spec->sc ? (bytea *) pg_detoast_datum_copy((struct varlena *) spec->sc) : NULL;
	if (s->mode == CF_READ_COLUMNS && s->is_super)
		s->cursc = s->sc;
	s->start = spec->start ? (bytea *) pg_detoast_datum_copy((struct varlena *) spec->start) : NULL;
	s->finish = spec->finish ? (bytea *) pg_detoast_datum_copy((struct varlena *) spec->finish) : NULL;
	s->count = spec->count;
	s->sc_markers_known = !(s->mode == CF_READ_COLUMNS && s->is_super);
	if (s->count <= 0)
		s->done = true;
	slice_start(s, &pos);
	walk_init(&s->walk, rel, s->info, &pos, s->backward, s->pagecxt, s->cxt, snapshot);
	MemoryContextSwitchTo(old);
	return s;
}

/* The next live item of a slice into out; false when there are no more. */
bool
cfSliceNext(CfSliceState *s, CfOutCell *out)
{
	for (;;)
	{
		if (s->qhead < s->nqueue)
		{
			*out = s->queue[s->qhead++];
			return true;
		}
		if (s->done)
			return false;
		/* the queue is drained: the next step frees its bytes */
		s->qhead = s->nqueue = 0;
		s->outkey = s->outsc = NULL;
		s->outbuf = NULL;
		s->outleft = 0;
		s->fedrun = NULL;
		{
			MemoryContext old = MemoryContextSwitchTo(s->cxt);
			bool		more = walk_step(&s->walk, slice_feed, s, slice_landing, slice_resolve);

			if (!more)
			{
				/* the walk is over: resolve what is still open */
				if (s->mode == CF_READ_SUPERS)
				{
					if (s->items < s->count)
						group_finish(s);
				}
				else if (s->items < s->count)
					column_finish(s);
				s->done = true;
			}
			MemoryContextSwitchTo(old);
		}
		/* never hand out more items than asked for */
		if (s->mode != CF_READ_SCAN && s->items >= s->count)
			s->done = true;
	}
}

/* End a slice. */
void
cfSliceEnd(CfSliceState *s)
{
	MemoryContextDelete(s->cxt);
}

/* ---------------------------------------------------------------------
 * Whole-relation scans
 * ---------------------------------------------------------------------
 */
struct CfScanState
{
	CfSliceState *s;
};

/* Begin a scan of every live column. */
CfScanState *
cfScanBegin(Relation rel, Snapshot snapshot)
{
	CfScanState *scan = palloc0(sizeof(CfScanState));
	MemoryContext old;

	scan->s = state_create(rel, snapshot, CF_READ_SCAN, false);
	old = MemoryContextSwitchTo(scan->s->cxt);
	walk_init(&scan->s->walk, rel, scan->s->info, NULL, false, scan->s->pagecxt, scan->s->cxt, snapshot);
	scan->s->markers_known = true;
	MemoryContextSwitchTo(old);
	return scan;
}

/* The next live column of a scan. */
bool
cfScanNext(CfScanState *scan, CfOutCell *out)
{
	return cfSliceNext(scan->s, out);
}

/* End a scan. */
void
cfScanEnd(CfScanState *scan)
{
	cfSliceEnd(scan->s);
	pfree(scan);
}

/* ---------------------------------------------------------------------
 * Row keys in order
 * ---------------------------------------------------------------------
 */

/* The row keys a walk has collected. */
typedef struct CfRowKeys
{
	bytea	  **keys;
	int			n;
	int			max;
	MemoryContext cxt;			/* where the keys are kept */
} CfRowKeys;

/* Consumer collecting the distinct row keys of the cells it is handed. */
static CfFeed
rowkey_feed(void *arg, const CfRun *run, CfCell *cell pg_attribute_unused(),
			Buffer buf pg_attribute_unused())
{
	CfRowKeys  *rk = (CfRowKeys *) arg;
	bytea	   *key;

	if (rk->n > 0 && bytea_eq(rk->keys[rk->n - 1], run->key, run->keylen))
		return CF_FEED_CONTINUE;
	key = MemoryContextAlloc(rk->cxt, VARHDRSZ + run->keylen);
	SET_VARSIZE(key, VARHDRSZ + run->keylen);
	memcpy(VARDATA(key), run->key, run->keylen);
	rk->keys[rk->n++] = key;
	return rk->n >= rk->max ? CF_FEED_STOP : CF_FEED_CONTINUE;
}

/*
 * The row keys stored at or after from (after it when inclusive is false;
 * from NULL: from the first key), in unsigned byte order: up to max of
 * them, those of the first leaf page that has any (so a caller walking a
 * key range reads each page once, not once per row).  Any stored version
 * counts, visible or not: the caller reads each row to see what is live
 * in it.  The keys are palloc'd in the caller's context; returns how many
 * there are, 0 at the end of the relation.
 */
int
cfNextRowKeys(Relation rel, const bytea *from, bool inclusive, bytea **keys, int max)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore row keys",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext pagecxt = AllocSetContextCreate(cxt, "cfstore page", ALLOCSET_DEFAULT_SIZES);
	MemoryContext caller = MemoryContextSwitchTo(cxt);
	CfWalk		w;
	CfKey		pos;
	CfRowKeys	rk;

	Assert(max > 0);
	rk.keys = keys;
	rk.n = 0;
	rk.max = max;
	rk.cxt = caller;
	memset(&pos, 0, sizeof(pos));
	if (from != NULL)
	{
		pos.key = (const uint8 *) VARDATA_ANY(from);
		pos.keylen = VARSIZE_ANY_EXHDR(from);
		pos.nparts = 1;
		pos.bound = inclusive ? -1 : 1;
	}
	/* a row whose versions VACUUM removed is a row a key listing misses */
	walk_init(&w, rel, cfRelInfo(rel), from != NULL ? &pos : NULL, false, pagecxt, cxt,
			  ActiveSnapshotSet() ? GetActiveSnapshot() : NULL);
	while (rk.n == 0 && walk_step(&w, rowkey_feed, &rk, NULL, NULL))
		CHECK_FOR_INTERRUPTS();
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(cxt);
	return rk.n;
}

/* ---------------------------------------------------------------------
 * ANALYZE samples
 * ---------------------------------------------------------------------
 */

/* Consumer for a page sample: every column's newest visible live version. */
typedef struct CfSample
{
	Relation	rel;
	Snapshot	snapshot;
	CfOutCell  *cells;
	int			n;
	int			max;
	int64		now;
} CfSample;

static CfFeed
sample_feed(void *arg, const CfRun *run, CfCell *cell, Buffer buf)
{
	CfSample   *sm = (CfSample *) arg;
	CfOutCell  *o;
	MemoryContext old;

	if (cell->namelen == 0 || (cell->flags & CF_CELL_TOMBSTONE) ||
		((cell->flags & CF_CELL_EXPIRING) && sm->now >= (int64) cell->expires_at))
		return CF_FEED_CONTINUE;
	if (!cfCellVisible(cell, cell->flagsp, buf, sm->snapshot))
		return CF_FEED_CONTINUE;
	if (sm->n > 0)
	{
		CfOutCell  *last = &sm->cells[sm->n - 1];

		/* versions of one column are adjacent, newest first: keep the first */
		if (bytea_eq(last->key, run->key, run->keylen) &&
			(last->sc == NULL ? run->sclen == 0 : bytea_eq(last->sc, run->sc, run->sclen)) &&
			bytea_eq(last->name, cell->name, cell->namelen))
			return CF_FEED_CONTINUE;
	}
	old = MemoryContextSwitchTo(GetMemoryChunkContext(sm->cells));
	if (sm->n == sm->max)
	{
		sm->max *= 2;
		sm->cells = repalloc(sm->cells, sizeof(CfOutCell) * sm->max);
	}
	o = &sm->cells[sm->n++];
	memset(o, 0, sizeof(*o));
	o->key = cfMakeBytea(run->key, run->keylen);
	o->sc = run->sclen > 0 ? cfMakeBytea(run->sc, run->sclen) : NULL;
	o->name = cfMakeBytea(cell->name, cell->namelen);
	{
		int			vlen;
		const uint8 *v = cfCellValue(sm->rel, cell, &vlen);

		o->value = cfMakeBytea(v, vlen);
	}
	o->writetime = cell->writetime;
	o->is_counter = (cell->flags & CF_CELL_COUNTER) != 0;
	o->ttl = (cell->flags & CF_CELL_EXPIRING) ? cell->ttl : 0;
	o->expires_at = cell->expires_at;
	MemoryContextSwitchTo(old);
	return CF_FEED_CONTINUE;
}

/*
 * The cells of one leaf page for ANALYZE (in the current memory context):
 * each column's newest visible version, tombstones left out.  Other pages
 * give nothing.
 */
CfOutCell *
cfSamplePage(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy, int *n)
{
	CfRelInfo  *info = cfRelInfo(rel);
	Buffer		buf;
	Page		page;
	CfSample	sm;
	MemoryContext cxt;

	sm.rel = rel;
	sm.snapshot = GetActiveSnapshot();
	sm.max = 64;
	sm.n = 0;
	sm.cells = palloc(sizeof(CfOutCell) * sm.max);
	sm.now = unix_now();
	*n = 0;
	if (blkno == CF_META_BLOCK)
		return sm.cells;
	buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (CfPageIsCfstore(page) && (CfPageGetOpaque(page)->flags & CF_PAGE_LEAF))
	{
		cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore sample page", ALLOCSET_DEFAULT_SIZES);
		scan_page(rel, info, buf, NULL, false, sample_feed, &sm, cxt);
		MemoryContextDelete(cxt);
	}
	UnlockReleaseBuffer(buf);
	*n = sm.n;
	return sm.cells;
}

/* The most row keys cfForEachRowKey looks up at once (those of one leaf page). */
#define CF_ROW_KEY_BATCH 64

/*
 * Call fn on every stored row key from start_key on (NULL: the first), in
 * storage order, until it returns true.  Keys are looked up a leaf page at
 * a time; each is valid during its call.
 */
void
cfForEachRowKey(Relation rel, const bytea *start_key, bool (*fn) (bytea *key, void *arg), void *arg)
{
	bytea	   *keys[CF_ROW_KEY_BATCH];
	int			nkeys = cfNextRowKeys(rel, start_key, true, keys, CF_ROW_KEY_BATCH);

	while (nkeys > 0)
	{
		bytea	   *last = keys[nkeys - 1];

		for (int i = 0; i < nkeys; i++)
		{
			if (fn(keys[i], arg))
				return;
			CHECK_FOR_INTERRUPTS();
		}
		for (int i = 0; i < nkeys - 1; i++)
			pfree(keys[i]);
		nkeys = cfNextRowKeys(rel, last, false, keys, CF_ROW_KEY_BATCH);
		pfree(last);
	}
}
