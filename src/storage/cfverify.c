/*-------------------------------------------------------------------------
 *
 * cfverify.c
 *	  Checking and measuring a storage relation: what cfstore.verify and
 *	  cfstore.stats (src/api/cfinspect.c) report.
 *
 * verify walks every level of the tree left to right through the right-
 * links and checks: page identity and level, key order within and across
 * runs and pages, keys below the page's high key and at or above the
 * previous page's, each internal downlink's child level and high key
 * (equal to the next separator: no split is unfinished), left-links
 * mirroring right-links on the leaf level, no INCOMPLETE_SPLIT flag, every
 * run decodable, and the page's space accounted for (items + garbage +
 * free space = the page).  No page is reached twice.  Then it reads every
 * block the walk did not reach: each must be new, an overflow page, a free
 * page, or an unlinked leaf holding no cells (cffree.c); a tree page there
 * is lost from the tree.
 *
 * Writers.  Both functions lock the relation in ACCESS SHARE mode, so
 * writes and VACUUM go on while they walk, and a split or an unlink may be
 * seen half done: an unfinished split, an unlinked page still linked from
 * where the walk came, a left-link or a child's high key not updated yet,
 * a new page not linked yet (outside the tree).  A walk that is not exact
 * (st->exact false) does not raise on those, which a moment of a write
 * explains, but notes them (st->suspect) and steps over unlinked pages.
 * stats walks so and counts.  verify walks so first, and only if it noted
 * something locks the relation in SHARE mode, which waits for the writes
 * in progress and keeps new ones and VACUUM out until its transaction
 * ends, and walks again, exactly: what it meets then is what the tree was
 * left in.  PostgreSQL lets a role take that lock (LOCK TABLE ... IN SHARE
 * MODE) only with UPDATE, DELETE or TRUNCATE on the relation, so a caller
 * with SELECT alone gets a few more walks beside the writers instead, and
 * an error if each still notes something.  (On a standby, where replay
 * cannot be held off, the second walk runs without that lock: exact only
 * while the primary is idle.)  Each page is read from a copy taken under
 * its share lock, and no page lock is held while another is waited for: a
 * split holds its page and waits for the parent's lock, so a walk that
 * held a parent while it waited for a child could wait forever.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "access/xlog.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "storage/cfstorage.h"
#include "storage/cfwrite.h"


/* Raise about block blkno, left flagged by a split never finished. */
static void
corrupt_split(Relation rel, BlockNumber blkno)
{
	cfCorruptHint(rel, blkno,
				  "A crash between the two steps of a split leaves one; VACUUM finishes it, "
				  "as does the next insert that passes the page.",
				  "A split was left unfinished.");
}

/* Counters gathered while verifying. */
typedef struct CfTreeStats
{
	int64		pages;
	int64		leaf_pages;
	double		leaf_used;		/* bytes the leaves' cells take, line pointers included */
	double		leaf_room;		/* bytes the leaves have for cells */
	int			height;
	int64		versions;
	int64		tombstones;
	CfBlockSet	reached;		/* the tree's pages */
	bool		exact;			/* nothing writes: raise on a half-done split or unlink too */
	bool		suspect;		/* a walk not exact met one */
} CfTreeStats;

/*
 * Whether the walk must raise on what a write in progress can leave for a
 * moment: if it is exact; else it notes it.
 */
static bool
must_raise(CfTreeStats *st)
{
	if (!st->exact)
		st->suspect = true;
	return st->exact;
}

/* A copy of a key (the key points into the copy). */
typedef struct CfKeyCopy
{
	CfKey		key;
	char	   *buf;
	bool		valid;
} CfKeyCopy;

/* Make kc a copy of key. */
static void
keycopy_set(CfKeyCopy *kc, const CfKey *key)
{
	if (kc->buf)
		pfree(kc->buf);
	cfKeyCopy(key, &kc->key, CurrentMemoryContext);
	kc->buf = (char *) kc->key.key;
	kc->valid = true;
}

/* Whether two keys are the same position. */
static bool
key_equal(const CfOrder *order, const CfKey *a, const CfKey *b)
{
	return a->nparts == b->nparts && a->bound == b->bound && cfKeyCompare(order, a, b) == 0;
}

/* A copy of block blkno of rel, taken under its share lock, into copy. */
static Page
page_copy(Relation rel, BlockNumber blkno, PGAlignedBlock *copy)
{
	Buffer		buf = ReadBuffer(rel, blkno);

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	memcpy(copy->data, BufferGetPage(buf), BLCKSZ);
	UnlockReleaseBuffer(buf);
	return (Page) copy->data;
}

/* Item off of page (a copy of block blkno), raising if it cannot be read (cfPageItemOk). */
static char *
checked_item(Relation rel, Page page, BlockNumber blkno, OffsetNumber off)
{
	if (!cfPageItemOk(page, off))
		cfBadItem(rel, page, blkno, off);
	return PageGetItem(page, PageGetItemId(page, off));
}

/*
 * Check a range tombstone (cfrangedel.c): a row's, in a standard column
 * family, whose value decodes to bounds in the comparator's order.
 */
static void
check_range(Relation rel, BlockNumber blkno, CfRelInfo *info, const CfRun *run, const CfCell *cell)
{
	CfRangeDel	r;
	int			len;
	const uint8 *value = cfCellValue(rel, cell, &len);

	if (info->is_super || run->sclen != 0)
		cfCorrupt(rel, blkno, "A super column family holds a range tombstone.");
	cfRangeDelDecode(rel, blkno, value, len, &r);
	if (r.startlen > 0 && r.finishlen > 0 &&
		cfTypeCompare(info->order.namecmp, r.start, r.startlen, r.finish, r.finishlen) > 0)
		cfCorrupt(rel, blkno, "A range tombstone's start is after its finish.");
}

/* Check one page; returns its right-link. */
static BlockNumber
verify_page(Relation rel, CfRelInfo *info, BlockNumber blkno, uint16 level,
			BlockNumber expect_left, CfKeyCopy *lowkey, CfTreeStats *st, BlockNumber *firstchild)
{
	PGAlignedBlock copy;
	Page		page;
	CfPageOpaque op;
	OffsetNumber first,
				max;
	CfKey		hk;
	bool		has_hk;
	Size		used = 0;
	CfKeyCopy	prev = {0};
	BlockNumber right;
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore verify", ALLOCSET_DEFAULT_SIZES);

	page = page_copy(rel, blkno, &copy);
	if (!CfPageIsCfstore(page))
		cfCorrupt(rel, blkno, "The page is not a cfstore page.");
	op = CfPageGetOpaque(page);
	if (op->level != level)
		cfCorrupt(rel, blkno, "The page is at level %u where level %u was expected.", op->level, level);
	if ((level == 0) != ((op->flags & CF_PAGE_LEAF) != 0))
		cfCorrupt(rel, blkno, "The page's leaf flag does not match its level.");
	if (cfBlockSetHas(&st->reached, blkno))
		cfCorrupt(rel, blkno, "The page is reached twice walking the tree.");
	/* the walk may meet pages added since it began */
	cfBlockSetGrow(&st->reached, blkno + 1);
	cfBlockSetAdd(&st->reached, blkno);
	if ((op->flags & CF_PAGE_INCOMPLETE_SPLIT) && must_raise(st))
		corrupt_split(rel, blkno);
	if (CfPageIsDead(op))
	{
		if (must_raise(st))
			cfCorrupt(rel, blkno, "An unlinked page is still linked.");
		/* unlinked since the page before it was read: its right-link goes on */
		MemoryContextDelete(cxt);
		return op->right;
	}
	if (op->flags & (CF_PAGE_META | CF_PAGE_OVERFLOW | CF_PAGE_FREE))
		cfCorrupt(rel, blkno, "A page of the tree is flagged as a metapage, overflow or free page.");
	if (level == 0 && op->left != expect_left && must_raise(st))
		cfCorrupt(rel, blkno, "The left-link is %u, but the page to its left is %u.", op->left, expect_left);
	if (((PageHeader) page)->pd_lower > ((PageHeader) page)->pd_upper)
		cfCorrupt(rel, blkno, "The page's pd_lower is above its pd_upper.");
	first = CfPageFirstData(op);
	max = PageGetMaxOffsetNumber(page);
	/* every item lies inside the page, before anything reads one */
	for (OffsetNumber off = FirstOffsetNumber; off <= max; off++)
		(void) checked_item(rel, page, blkno, off);

	has_hk = !CfPageIsRightmost(op);
	if (has_hk && max < CF_HIKEY)
		cfCorrupt(rel, blkno, "A page with a right sibling has no high key.");
	if (has_hk)
		cfIndexTupleKey(rel, (CfIndexTuple) PageGetItem(page, PageGetItemId(page, CF_HIKEY)), &hk);
	for (OffsetNumber off = FirstOffsetNumber; off <= max; off++)
		used += MAXALIGN(ItemIdGetLength(PageGetItemId(page, off)));
	if (((PageHeader) page)->pd_upper + used + op->garbage != ((PageHeader) page)->pd_special)
		cfCorrupt(rel, blkno, "Space not accounted for: upper %u + items %zu + garbage %u != special %u.",
									 ((PageHeader) page)->pd_upper, used, op->garbage,
									 ((PageHeader) page)->pd_special);

	if (level > 0 && max < first)
		cfCorrupt(rel, blkno, "An internal page has no downlinks.");

	for (OffsetNumber off = first; off <= max; off++)
	{
		ItemId		iid = PageGetItemId(page, off);
		char	   *item = PageGetItem(page, iid);

		if (level == 0)
		{
			CfRun		run;

			cfRunDecode(rel, item, ItemIdGetLength(iid), &run, cxt);
			if (run.ncells == 0)
				cfCorrupt(rel, blkno, "A run holds no cells.");
			for (int i = 0; i < run.ncells; i++)
			{
				CfKey		ck;

				cfCellKey(&run, &run.cells[i], &ck);
				if ((run.cells[i].flags & CF_CELL_LONG_VALUE) || run.cells[i].compressed)
				{
					int			vlen;

					/* the chain is whole, its checksum holds, the value decompresses */
					pfree((void *) cfCellValue(rel, &run.cells[i], &vlen));
				}
				if (cfCellIsRangeDel(&run.cells[i]))
					check_range(rel, blkno, info, &run, &run.cells[i]);
				if (prev.valid && cfKeyCompare(&info->order, &prev.key, &ck) > 0)
					cfCorrupt(rel, blkno, "Cells are out of order at item %u.", off);
				/* runs VACUUM moved right since the page to the left was read (cfmerge.c) */
				if (i == 0 && lowkey->valid && cfKeyCompare(&info->order, &ck, &lowkey->key) < 0 &&
					must_raise(st))
					cfCorrupt(rel, blkno, "Item %u is below the page's low key.", off);
				if (has_hk)
				{
					int			c = cfKeyCompare(&info->order, &ck, &hk);

					if (c > 0 || (c == 0 && hk.nparts < 4))
						cfCorrupt(rel, blkno, "Item %u is not below the high key.", off);
				}
				st->versions++;
				if (run.cells[i].flags & CF_CELL_TOMBSTONE)
					st->tombstones++;
				keycopy_set(&prev, &ck);
			}
			MemoryContextReset(cxt);
		}
		else
		{
			CfIndexTuple itup = (CfIndexTuple) item;
			CfKey		sep;

			cfIndexTupleKey(rel, itup, &sep);
			if (off == first)
			{
				if (sep.nparts != 0 || sep.bound != -1)
					cfCorrupt(rel, blkno, "The first downlink is not minus infinity.");
				*firstchild = itup->child;
			}
			else
			{
				/* equal separators are full keys of versions that tie exactly */
				if (prev.valid && (cfKeyCompare(&info->order, &prev.key, &sep) > 0 ||
								   (cfKeyCompare(&info->order, &prev.key, &sep) == 0 && sep.nparts < 4)))
					cfCorrupt(rel, blkno, "Separators are out of order at item %u.", off);
				if (lowkey->valid && cfKeyCompare(&info->order, &sep, &lowkey->key) < 0)
					cfCorrupt(rel, blkno, "Separator %u is below the page's low key.", off);
				if (has_hk && (cfKeyCompare(&info->order, &sep, &hk) > 0 ||
							   (cfKeyCompare(&info->order, &sep, &hk) == 0 && sep.nparts < 4)))
					cfCorrupt(rel, blkno, "Separator %u is not below the high key.", off);
				keycopy_set(&prev, &sep);
			}

			/* the child: one level down, its high key the next separator */
			{
				PGAlignedBlock ccopy;
				Page		cpage = page_copy(rel, itup->child, &ccopy);
				CfPageOpaque cop;

				if (!CfPageIsCfstore(cpage) || CfPageGetOpaque(cpage)->level != level - 1)
					cfCorrupt(rel, itup->child, "A downlink from block %u leads to a page that is not at level %u.",
													   blkno, level - 1);
				cop = CfPageGetOpaque(cpage);
				if (cop->flags & (CF_PAGE_META | CF_PAGE_OVERFLOW | CF_PAGE_FREE))
					cfCorrupt(rel, itup->child, "A downlink from block %u leads to a metapage, overflow or free page.",
													   blkno);
				/*
				 * Its split, or a split of it since the copy of its parent,
				 * may be in progress.
				 */
				if (cop->flags & CF_PAGE_INCOMPLETE_SPLIT)
				{
					if (must_raise(st))
						corrupt_split(rel, itup->child);
				}
				else if (off < max)
				{
					CfKey		next,
								chk;

					cfIndexTupleKey(rel, (CfIndexTuple) PageGetItem(page, PageGetItemId(page, off + 1)), &next);
					if (CfPageIsRightmost(cop))
						cfCorrupt(rel, itup->child, "A child with a right neighbour in its parent is rightmost.");
					cfIndexTupleKey(rel, (CfIndexTuple) checked_item(rel, cpage, itup->child, CF_HIKEY), &chk);
					if (!key_equal(&info->order, &chk, &next) && must_raise(st))
						cfCorrupt(rel, itup->child, "The high key differs from the next separator in block %u.", blkno);
				}
				else if (has_hk)
				{
					CfKey		chk;

					if (CfPageIsRightmost(cop))
						cfCorrupt(rel, itup->child, "The last child of a page that is not rightmost is rightmost.");
					cfIndexTupleKey(rel, (CfIndexTuple) checked_item(rel, cpage, itup->child, CF_HIKEY), &chk);
					if (!key_equal(&info->order, &chk, &hk) && must_raise(st))
						cfCorrupt(rel, itup->child, "The high key differs from that of its parent %u.", blkno);
				}
				else if (!CfPageIsRightmost(cop) && must_raise(st))
					cfCorrupt(rel, itup->child, "The last child of a rightmost page is not rightmost.");
			}
		}
	}
	if (level == 0 && max < first && has_hk)
	{
		/* an empty leaf is allowed: VACUUM unlinks it when it can */
	}

	if (has_hk)
		keycopy_set(lowkey, &hk);
	right = op->right;
	st->pages++;
	if (level == 0)
	{
		int			n;
		CfItem	   *items = cfPageItems(rel, page, &n);

		st->leaf_pages++;
		st->leaf_used += cfItemsSpace(items, n);
		st->leaf_room += cfRebuiltCapacity(page);
	}
	MemoryContextDelete(cxt);
	return right;
}

/*
 * Verify the tree of rel, gathering statistics; exact: nothing writes it
 * (see "Writers" above).
 */
static void
verify_tree(Relation rel, CfTreeStats *st, bool exact)
{
	CfRelInfo  *info = cfRelInfo(rel);
	BlockNumber leftmost;
	int			level;

	memset(st, 0, sizeof(*st));
	st->exact = exact;
	cfBlockSetInit(&st->reached, RelationGetNumberOfBlocks(rel));
	if (st->reached.nblocks == 0)
		return;
	cfRelInfoRefreshRoot(rel, info);
	/* extended by a first write that has not initialised it yet, or never will (read_root) */
	if (info->root == InvalidBlockNumber)
		return;
	leftmost = info->root;
	level = info->root_level;
	st->height = level + 1;
	st->pages = 1;				/* the metapage */
	for (;;)
	{
		BlockNumber blkno = leftmost,
					left = InvalidBlockNumber,
					firstchild = InvalidBlockNumber,
					nextfirst = InvalidBlockNumber;
		CfKeyCopy	lowkey = {0};

		while (blkno != InvalidBlockNumber)
		{
			BlockNumber right;

			CHECK_FOR_INTERRUPTS();
			firstchild = InvalidBlockNumber;
			right = verify_page(rel, info, blkno, (uint16) level, left, &lowkey, st, &firstchild);
			if (nextfirst == InvalidBlockNumber)
				nextfirst = firstchild;
			left = blkno;
			blkno = right;
		}
		if (level == 0)
			break;
		leftmost = nextfirst;
		level--;
	}
}

/*
 * Check the blocks of rel that the walk of its tree did not reach: none
 * may hold cells the tree has lost.
 */
static void
verify_outside(Relation rel, CfTreeStats *st)
{
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);

	for (BlockNumber blkno = CF_META_BLOCK + 1; blkno < nblocks; blkno++)
	{
		Buffer		buf;
		Page		page;
		CfPageOpaque op;

		if (cfBlockSetHas(&st->reached, blkno))
			continue;
		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!PageIsNew(page))
		{
			if (!CfPageIsCfstore(page))
				cfCorrupt(rel, blkno, "The page is not a cfstore page.");
			op = CfPageGetOpaque(page);
			if (CfPageIsDead(op))
			{
				if (op->level != 0 || !(op->flags & CF_PAGE_LEAF))
					cfCorrupt(rel, blkno, "An unlinked page is not a leaf.");
				if (PageGetMaxOffsetNumber(page) >= CfPageFirstData(op))
					cfCorrupt(rel, blkno, "An unlinked leaf holds cells.");
			}
			else if (!(op->flags & (CF_PAGE_OVERFLOW | CF_PAGE_FREE)) && must_raise(st))
				cfCorrupt(rel, blkno, "A page of the tree is not reachable from its root.");
		}
		UnlockReleaseBuffer(buf);
	}
	FreeAccessStrategy(strategy);
}

/* Walk rel's tree and the blocks outside it; whether a walk not exact noted something. */
static bool
check_walk(Relation rel, bool exact)
{
	CfTreeStats st;

	verify_tree(rel, &st, exact);
	if (st.pages > 0)
		verify_outside(rel, &st);
	cfBlockSetFree(&st.reached);
	return st.suspect;
}

/*
 * Check one relation's tree and the blocks outside it (also for the
 * indexes' relations): a walk beside the writers, and if it met what a
 * write in progress may explain, another with them kept out (see
 * "Writers" above), if the caller's privileges on base, the column
 * family's relation, allow that lock.
 */
void
cfVerifyTree(Relation rel, Relation base)
{
	uint8		dict_ref[CF_LONGREF_SIZE];

	/* the dictionary of compressed values: whole, and its checksum holds */
	if (cfDictRef(rel, dict_ref))
		pfree(cfOverflowRead(rel, dict_ref));
	if (!check_walk(rel, false))
		return;
	if (!RecoveryInProgress() &&
		pg_class_aclmask(RelationGetRelid(base), GetUserId(), ACL_UPDATE | ACL_DELETE | ACL_TRUNCATE,
						 ACLMASK_ANY) == 0)
	{
		/* no right to keep the writers out: walk beside them again, a moment later */
		for (int i = 0; i < 3; i++)
		{
			pg_usleep(100000L);
			CHECK_FOR_INTERRUPTS();
			if (!check_walk(rel, false))
				return;
		}
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("could not verify \"%s\": each walk met what a write in progress or damage leaves",
						RelationGetRelationName(rel)),
				 errdetail("Telling the two apart keeps writers out (a SHARE lock), which needs the UPDATE, DELETE or TRUNCATE privilege."),
				 errhint("Run verify as a role with one of them, or when the column family is not being written.")));
	}
	if (!RecoveryInProgress())
		LockRelation(rel, ShareLock);
	(void) check_walk(rel, true);
}

/*
 * The size and shape of a storage relation: a walk of its tree beside the
 * writers (not exact), and a count of the live cells a scan returns.
 */
void
cfStorageStats(Relation rel, CfStorageStats *out)
{
	CfTreeStats st;

	verify_tree(rel, &st, false);
	cfBlockSetFree(&st.reached);
	memset(out, 0, sizeof(*out));
	out->height = st.height;
	out->tree_pages = st.pages;
	out->leaf_pages = st.leaf_pages;
	out->leaf_used = st.leaf_used;
	out->leaf_room = st.leaf_room;
	out->versions = st.versions;
	out->tombstones = st.tombstones;
	if (st.pages > 0)
	{
		CfRelScanState *scan = cfRelScanBegin(rel, GetActiveSnapshot());
		CfOutCell	c;

		while (cfRelScanNext(scan, &c))
			out->live_cells++;
		cfRelScanEnd(scan);
	}
	out->pages = RelationGetNumberOfBlocks(rel);
}
