/*-------------------------------------------------------------------------
 *
 * cfwalk.c
 *	  Walking leaf pages in key order, in either direction, handing the
 *	  visible cell versions of each to a consumer (cfreconcile.c, and the
 *	  row key and sample readers of cfslice.c).
 *
 * The design is in src/storage/README ("The tree").  The walker holds one
 * page locked at a time.  It reads a page whole (or from a start position
 * to the page's end) under a share lock, handing the visible cell versions
 * to a consumer that copies what it keeps, then moves on: forward by the
 * right-link read under the same lock (Lehman and Yao: keys that a later
 * split moves right of us were already read), or backward by the
 * left-link, correcting for a concurrent split of the left page by moving
 * right until the page whose right-link is ours.  A walk starts with a
 * descent (cfReadDescend, cfsearch.c).  Nothing is materialised beyond one
 * page.
 *
 * The page read last stays pinned until the next one is locked, between
 * steps too: VACUUM moves runs from a leaf into its right sibling only
 * when nobody else holds either pinned (cfmerge.c), so runs never move
 * from the page a walk has read to the page it reads next, where a
 * forward walk would read them twice and a backward one miss them.  A
 * standby replays the moves without waiting for pins, so there a walk
 * checks that none happened between its two pages (check_moved) and is
 * cancelled, as a conflict with recovery, if one did.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "storage/cfread.h"

/* The leaf blkno, share-locked: a page a walk reaches by a sibling link, checked. */
static inline Buffer
read_leaf(Relation rel, BlockNumber blkno)
{
	Buffer		buf = ReadBuffer(rel, blkno);

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	cfCheckTreePage(rel, buf, 0);
	return buf;
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
OffsetNumber
cfPageSearch(Relation rel, CfRelInfo *info, Page page, const CfKey *pos, bool backward)
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
 * Hand the cells of the run item at src (len bytes) of the locked leaf
 * page in buf to fn in key order, from position from (NULL: its first
 * cell), decoding each cell only when it is needed: the one fn gets, and
 * the one after it, which fn may look at (a column's versions are
 * adjacent).  Returns true if fn asked to stop.
 */
static bool
scan_run_forward(Relation rel, CfRelInfo *info, const char *src, Size len, const CfKey *from,
				 CfFeedFn fn, void *arg, Buffer buf, MemoryContext cxt)
{
	CfRunDecoder d;
	CfRun		run;

	cfRunDecodeBegin(&d, rel, src, len, &run, cxt);
	if (!cfRunDecodeNext(&d))
		return false;
	/*
	 * A position that names only a row (or an infinity) puts every cell of
	 * the run on the same side of it: decide once for the run.
	 */
	if (from != NULL && from->nparts <= 1)
	{
		CfKey		ck;

		cfCellKey(&run, &run.cells[0], &ck);
		if (cfKeyCompare(&info->order, &ck, from) < 0)
			return false;
		from = NULL;
	}
	for (int i = 0; i < run.ncells; i++)
	{
		CfCell	   *cell = &run.cells[i];

		if (i + 1 < run.ncells)
			(void) cfRunDecodeNext(&d);
		if (from != NULL)
		{
			CfKey		ck;

			cfCellKey(&run, cell, &ck);
			if (cfKeyCompare(&info->order, &ck, from) < 0)
				continue;
			from = NULL;		/* a run is in key order: the cells after it are past from too */
		}
		if (fn(arg, &run, cell, buf) == CF_FEED_STOP)
			return true;
	}
	return false;
}

/*
 * Hand the cells of the locked leaf page in buf to fn, in key order or
 * backwards, starting at position from (NULL: the page's first or last
 * cell).  Returns true if fn asked to stop.  Decoded runs are allocated in
 * cxt, which the caller resets once it is done with the page.
 */
bool
cfScanPage(Relation rel, CfRelInfo *info, Buffer buf, const CfKey *from, bool backward,
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
		OffsetNumber lo = cfPageSearch(rel, info, page, from, backward);

		off = lo > first ? lo - 1 : (backward ? InvalidOffsetNumber : first);
		if (off != InvalidOffsetNumber)
			prefetch_runs(page, off, first, backward);
	}

	while (!stopped && off != InvalidOffsetNumber && off >= first && off <= max)
	{
		ItemId		iid = cfPageItemId(rel, page, off);
		CfRun		run;
		bool		skip_run = false;

		if (!backward)
		{
			/* forward, a run is decoded only as far as the reader reads */
			stopped = scan_run_forward(rel, info, PageGetItem(page, iid), ItemIdGetLength(iid), from,
									   fn, arg, buf, cxt);
			from = NULL;
			off++;
			continue;
		}
		/* backwards, a run is decoded whole: its last cells come first */
		cfRunDecode(rel, PageGetItem(page, iid), ItemIdGetLength(iid), &run, cxt);
		/*
		 * A position that names only a row (or an infinity) puts every cell
		 * of a run on the same side of it: decide once for the run.
		 */
		if (from != NULL && from->nparts <= 1)
		{
			CfKey		ck;

			if (run.ncells > 0)
			{
				cfCellKey(&run, &run.cells[0], &ck);
				skip_run = cfKeyCompare(&info->order, &ck, from) >= 0;
			}
			from = NULL;
		}
		for (int i = run.ncells - 1; i >= 0 && !skip_run; i--)
		{
			CfCell	   *cell = &run.cells[i];

			if (from != NULL)
			{
				CfKey		ck;

				cfCellKey(&run, cell, &ck);
				if (cfKeyCompare(&info->order, &ck, from) >= 0)
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
		off = off > first ? off - 1 : InvalidOffsetNumber;
	}
	MemoryContextSwitchTo(old);
	return stopped;
}

/*
 * For a read with snapshot (from cfHorizonSnapshot), of a leaf: raise if
 * VACUUM on the primary removed versions from it that the snapshot may
 * still need (the snapshot is older than the page's horizon).  A page that
 * is no longer a leaf (freed after an unlink no snapshot of the primary
 * could see, and perhaps used again) is refused before, by
 * cfCheckTreePage.
 */
void
cfCheckHorizon(Relation rel, Page page, Snapshot snapshot)
{
	TransactionId horizon = ((PageHeader) page)->pd_prune_xid;

	if (snapshot == NULL)
		return;
	if (TransactionIdIsNormal(horizon) && TransactionIdPrecedes(snapshot->xmin, horizon))
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("canceling statement due to conflict with recovery"),
				 errdetail("VACUUM on the primary removed or froze cell versions of cfstore table \"%s\" that the query's snapshot might need.",
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
void
cfWalkInit(CfWalk *w, Relation rel, CfRelInfo *info, const CfKey *start, bool backward,
		  MemoryContext pagecxt, MemoryContext keycxt, Snapshot snapshot)
{
	memset(w, 0, sizeof(*w));
	w->rel = rel;
	w->info = info;
	w->backward = backward;
	w->horizon = cfHorizonSnapshot(snapshot);
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

/* Cancel a standby read that VACUUM on the primary moved cells under (cfmerge.c). */
static pg_attribute_noreturn() void
moved_under_read(Relation rel)
{
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("canceling statement due to conflict with recovery"),
			 errdetail("VACUUM on the primary moved cells of cfstore table \"%s\" between two pages the query was reading.",
					   RelationGetRelationName(rel)),
			 errhint("Run the query again; cfstore.vacuum_compact_leaves = off on the primary stops such moves.")));
}

/* Keep a copy of len bytes at src as what the walk saw last (see CfWalk.seen). */
static void
keep_seen(CfWalk *w, const char *src, Size len)
{
	if (len > w->seen_cap)
	{
		w->seen_cap = Max(len, 256);
		w->seen = w->seen ? repalloc(w->seen, w->seen_cap) : MemoryContextAlloc(w->keycxt, w->seen_cap);
	}
	if (len > 0)
		memcpy(w->seen, src, len);
	w->seen_len = len;
	w->seen_valid = true;
}

/*
 * On a standby, whether VACUUM on the primary moved runs into a page since
 * the walk read the page before it: forward, the locked page in buf
 * starts below the high key the page before had when it was read (the
 * moved runs were read there); backward, buf is the page read before
 * (pinned, not locked), and it now starts below where it started when it
 * was read, or was unlinked (the moved runs were not read there).  An
 * insert at a page's very start looks the same, and is cancelled too.
 */
static void
check_moved(CfWalk *w, Buffer buf, bool locked)
{
	Page		page;
	CfPageOpaque op;
	OffsetNumber first;
	bool		moved = false;

	if (!w->seen_valid)
		return;
	if (!locked)
		LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	op = CfPageGetOpaque(page);
	first = CfPageFirstData(op);
	if (CfPageIsDead(op))
		moved = w->backward;
	else if (first <= PageGetMaxOffsetNumber(page))
	{
		CfKey		fk;

		cfRunFirstKey(w->rel, PageGetItem(page, cfPageItemId(w->rel, page, first)), &fk);
		if (w->backward)
			moved = w->seen_len == 0 || cfRunCompare(w->rel, &w->info->order, w->seen, &fk) > 0;
		else
			moved = cfIndexTupleCompare(w->rel, &w->info->order, (CfIndexTuple) w->seen, &fk) > 0;
	}
	if (!locked)
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	if (moved)
		moved_under_read(w->rel);
}

/* On a standby, note what check_moved compares the next step with, from the locked page. */
static void
note_seen(CfWalk *w, Page page)
{
	CfPageOpaque op = CfPageGetOpaque(page);
	OffsetNumber first = CfPageFirstData(op);

	if (!w->backward)
	{
		if (CfPageIsRightmost(op))
			w->seen_valid = false;
		else
		{
			ItemId		iid = cfPageItemId(w->rel, page, CF_HIKEY);

			keep_seen(w, PageGetItem(page, iid), ItemIdGetLength(iid));
		}
	}
	else if (first <= PageGetMaxOffsetNumber(page))
	{
		ItemId		iid = cfPageItemId(w->rel, page, first);

		keep_seen(w, PageGetItem(page, iid), ItemIdGetLength(iid));
	}
	else
		keep_seen(w, NULL, 0);
}

/* How many pages cfWalkLeft moves right from a left-link before it looks at its start again. */
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
Buffer
cfWalkLeft(CfWalk *w, BlockNumber blkno, BlockNumber left)
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
		buf = read_leaf(w->rel, left);
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
			buf = read_leaf(w->rel, right);
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();

		/* look at blkno again: its left-link now, or its successor's */
		buf = read_leaf(w->rel, blkno);
		op = CfPageGetOpaque(BufferGetPage(buf));
		moves = 0;
		start = blkno;
		while (CfPageIsDead(op))
		{
			blkno = op->right;
			buf = cfStepRight(w->rel, buf, blkno, 0, BUFFER_LOCK_SHARE, &moves, start);
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
 * unlink it).  Returns false once the walk is over.
 */
bool
cfWalkStep(CfWalk *w, CfFeedFn fn, void *arg, CfLandFn landing, CfResolveFn resolve)
{
	Buffer		buf;
	CfPageOpaque op;
	bool		stopped;
	const CfKey *from = NULL;
	Buffer		prev;
	bool		standby = (w->horizon != NULL);
	bool		first_step = !w->started;
	bool		lowkey_known = false;	/* w->lowkey is this page's */

	if (w->finished)
		return false;
	/* the last page's decoded runs, and what the consumer kept there, can go */
	MemoryContextReset(w->pagecxt);
	if (!w->started)
	{
		w->started = true;
		buf = cfReadDescend(w->rel, w->info, &w->start, &w->lowkey, w->keycxt, &w->left);
		if (!BufferIsValid(buf))
		{
			w->finished = true;
			return false;
		}
		lowkey_known = true;
		if (landing && !landing(arg, buf, &w->lowkey))
		{
			/* a reader never holds two page locks: let go before reading others */
			BlockNumber left = CfPageGetOpaque(BufferGetPage(buf))->left;

			LockBuffer(buf, BUFFER_LOCK_UNLOCK);
			resolve(arg, BufferGetBlockNumber(buf), left);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			buf = cfMoveRight(w->rel, w->info, buf, &w->start, BUFFER_LOCK_SHARE);
			lowkey_known = false;	/* it may be a page further right */
		}
		from = w->has_start ? &w->start : NULL;
	}
	else if (!w->backward)
	{
		if (w->next == InvalidBlockNumber)
		{
			cfWalkRelease(w);
			w->finished = true;
			return false;
		}
		/* the descent and cfWalkLeft check the pages they return themselves */
		buf = read_leaf(w->rel, w->next);
	}
	else
	{
		buf = cfWalkLeft(w, w->next, w->prev);
		if (!BufferIsValid(buf))
		{
			cfWalkRelease(w);
			w->finished = true;
			return false;
		}
	}
	/*
	 * The next page is locked: the last one may go; on a standby, a backward
	 * walk looks at it again once this one is read (check_moved).
	 */
	prev = w->held;
	w->held = InvalidBuffer;
	if (BufferIsValid(prev) && !(standby && w->backward))
	{
		ReleaseBuffer(prev);
		prev = InvalidBuffer;
	}

	w->pages++;
	if (!w->backward)
		note_read(w, buf);
	op = CfPageGetOpaque(BufferGetPage(buf));
	if (unlikely(standby))
	{
		cfCheckHorizon(w->rel, BufferGetPage(buf), w->horizon);
		if (!w->backward && !first_step)
			check_moved(w, buf, true);
	}
	stopped = cfScanPage(w->rel, w->info, buf, from, w->backward, fn, arg, w->pagecxt);
	if (w->backward)
	{
		w->next = BufferGetBlockNumber(buf);
		w->prev = op->left;
		/*
		 * Every key left of the landing page is below its low key (or below
		 * a lower one, if VACUUM moved runs into the page since the descent
		 * read it: key space only moves right).
		 */
		if (w->has_end && !stopped && lowkey_known &&
			cfKeyCompare(&w->info->order, &w->lowkey, &w->end) <= 0)
			w->prev = InvalidBlockNumber;
	}
	else
	{
		w->next = op->right;
		/* every key right of this page is above its high key */
		if (w->has_end && !stopped && !CfPageIsRightmost(op) && !CfPageIsDead(op) &&
			cfIndexTupleCompare(w->rel, &w->info->order,
								(CfIndexTuple) PageGetItem(BufferGetPage(buf),
														   cfPageItemId(w->rel, BufferGetPage(buf), CF_HIKEY)),
								&w->end) > 0)
			w->next = InvalidBlockNumber;
	}
	if (unlikely(standby) && !w->backward)
		note_seen(w, BufferGetPage(buf));
	if (unlikely(standby) && w->backward)
	{
		/* this page's start, to compare with after the next page is read */
		char	   *keep = NULL;
		Size		keeplen = 0;
		Page		page = BufferGetPage(buf);
		OffsetNumber first = CfPageFirstData(op);

		if (first <= PageGetMaxOffsetNumber(page))
		{
			ItemId		iid = cfPageItemId(w->rel, page, first);

			keeplen = ItemIdGetLength(iid);
			keep = palloc(keeplen);
			memcpy(keep, PageGetItem(page, iid), keeplen);
		}
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
		if (BufferIsValid(prev))
		{
			check_moved(w, prev, false);
			ReleaseBuffer(prev);
		}
		keep_seen(w, keep, keeplen);
		if (keep)
			pfree(keep);
	}
	else
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	if (stopped)
	{
		ReleaseBuffer(buf);
		w->finished = true;
	}
	else
		w->held = buf;
	return !w->finished;
}

/*
 * Tell a walk that no key beyond end is wanted (a slice of one row: the
 * row's end, or going backward its start).  Forward, it stops at a page
 * whose high key is above end, instead of reading the next page to find
 * that it starts with another row; backward, at a landing page whose low
 * key is at or below end.  end's parts must live as long as the walk.
 */
void
cfWalkSetEnd(CfWalk *w, const CfKey *end)
{
	w->end = *end;
	w->has_end = true;
}

/* Let go of the page a walk holds pinned (see the file's comment); a walk's end calls it. */
void
cfWalkRelease(CfWalk *w)
{
	if (BufferIsValid(w->held))
	{
		ReleaseBuffer(w->held);
		w->held = InvalidBuffer;
	}
}
