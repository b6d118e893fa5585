/*-------------------------------------------------------------------------
 *
 * cfsplit.c
 *	  Page images and splits: the items of a page, rebuilding a page from
 *	  items, choosing where a page splits, writing the two halves, and the
 *	  downlink that completes a split in the parent.
 *
 * The design is in src/storage/README ("Writes, WAL and splits", which
 * says where leaves split too); splits are
 * locked and logged as nbtree's are.  A split is two Generic WAL records:
 * (1) the left page with INCOMPLETE_SPLIT and its new high key, the new
 * right page as a full image, and the old right sibling's left-link; (2)
 * the parent's new downlink and the left page's flag cleared.  A split keeps the left page locked while it inserts the
 * downlink into the parent (locks are taken bottom-up only by splitters,
 * top-down only one at a time by everyone, so there is no deadlock).  A
 * crash between the two records leaves a page that readers cross by its
 * right-link and that the next inserter finishes (cfFinishSplit).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

static void insert_downlink(Relation rel, CfRelInfo *info, Buffer lbuf, CfStack *stack,
							const CfKey *sep, BlockNumber rblk);

/*
 * A palloc'd copy of the high key of a page (its length into *len), or
 * NULL with *len 0 if the page is the rightmost of its level.
 */
char *
cfCopyHighKey(Relation rel, Page page, Size *len)
{
	char	   *hikey = NULL;

	*len = 0;
	if (!CfPageIsRightmost(CfPageGetOpaque(page)))
	{
		ItemId		iid = cfPageItemId(rel, page, CF_HIKEY);

		*len = ItemIdGetLength(iid);
		hikey = palloc(*len);
		memcpy(hikey, PageGetItem(page, iid), *len);
	}
	return hikey;
}

/*
 * Register the page in buf with a Generic WAL record being built, after
 * child if child is valid, whose INCOMPLETE_SPLIT flag the record clears
 * (the downlink to child's right sibling is among buf's new items).
 * Returns buf's image.
 */
static Page
register_with_child(GenericXLogState *state, Buffer buf, Buffer child)
{
	if (BufferIsValid(child))
	{
		Page		cpage = GenericXLogRegisterBuffer(state, child, 0);

		CfPageGetOpaque(cpage)->flags &= ~CF_PAGE_INCOMPLETE_SPLIT;
	}
	return GenericXLogRegisterBuffer(state, buf, 0);
}

/*
 * Make items[0..n) copies of their own, except items[skip..skip+nskip):
 * the others point into a page that a rebuild is about to overwrite.
 */
void
cfItemsCopy(CfItem *items, int n, int skip, int nskip)
{
	for (int i = 0; i < n; i++)
	{
		if (i < skip || i >= skip + nskip)
		{
			char	   *c = palloc(items[i].len);

			memcpy(c, items[i].data, items[i].len);
			items[i].data = c;
		}
	}
}

/* The items of a page after its high key, pointing into the page. */
CfItem *
cfPageItems(Relation rel, Page page, int *n)
{
	CfPageOpaque op = CfPageGetOpaque(page);
	OffsetNumber first = CfPageFirstData(op);
	OffsetNumber max = PageGetMaxOffsetNumber(page);
	CfItem	   *items = palloc(sizeof(CfItem) * (max + 2));
	int			k = 0;

	for (OffsetNumber off = first; off <= max; off++)
	{
		ItemId		iid = cfPageItemId(rel, page, off);

		items[k].data = PageGetItem(page, iid);
		items[k].len = ItemIdGetLength(iid);
		k++;
	}
	*n = k;
	return items;
}

/* Bytes items take on a page, line pointers included. */
Size
cfItemsSpace(const CfItem *items, int n)
{
	Size		sz = 0;

	for (int i = 0; i < n; i++)
		sz += MAXALIGN(items[i].len) + sizeof(ItemIdData);
	return sz;
}

/* Room a rebuilt page has for items, besides a high key of hikey_len bytes (0: none). */
Size
cfPageCapacity(Size hikey_len)
{
	Size		sz = BLCKSZ - SizeOfPageHeaderData - MAXALIGN(sizeof(CfPageOpaqueData));

	if (hikey_len > 0)
		sz -= MAXALIGN(hikey_len) + sizeof(ItemIdData);
	return sz;
}

/*
 * Write a page from scratch: opaque fields as given, an optional high key,
 * then items.  The page keeps its LSN: page is the Generic WAL image of a
 * page being rebuilt, and GenericXLogFinish installs the image before
 * XLogInsert looks at the page's LSN, so an LSN cleared here would make
 * every rebuild log a full page image instead of its changes.  It keeps
 * its standby horizon (pd_prune_xid, see "Standbys" in cfvacuum.c) too.
 */
void
cfBuildPage(Page page, const CfPageOpaqueData *opaque, const char *hikey, Size hikey_len,
		   const CfItem *items, int n)
{
	CfPageOpaque op;
	XLogRecPtr	lsn = PageGetLSN(page);
	TransactionId horizon = ((PageHeader) page)->pd_prune_xid;

	cfPageInit(page, opaque->level, opaque->flags);
	PageSetLSN(page, lsn);
	((PageHeader) page)->pd_prune_xid = horizon;
	op = CfPageGetOpaque(page);
	op->left = opaque->left;
	op->right = opaque->right;
	if (hikey != NULL)
	{
		if (PageAddItem(page, (Item) hikey, hikey_len, CF_HIKEY, false, false) != CF_HIKEY)
			elog(ERROR, "could not add high key");
	}
	for (int i = 0; i < n; i++)
	{
		if (PageAddItem(page, (Item) items[i].data, items[i].len, InvalidOffsetNumber,
						false, false) == InvalidOffsetNumber)
			elog(ERROR, "could not rebuild page (item %d of %d, %zu bytes)",
				 i, n, items[i].len);
	}
}

/* Room a rebuild of the page (which keeps its high key) has for items. */
Size
cfRebuiltCapacity(Page page)
{
	CfPageOpaque op = CfPageGetOpaque(page);

	return cfPageCapacity(CfPageIsRightmost(op) ? 0 : ItemIdGetLength(PageGetItemId(page, CF_HIKEY)));
}

/* Whether items fit a rebuild of the page (which keeps its high key). */
bool
cfItemsFitPage(Page page, const CfItem *items, int n)
{
	return cfItemsSpace(items, n) <= cfRebuiltCapacity(page);
}

/*
 * Rebuild the page in buf (exclusively locked) with items, keeping its
 * opaque data and high key, in one WAL record that also clears child's
 * INCOMPLETE_SPLIT flag if child is valid.  Items may point into the page.
 * horizon: the page's new standby horizon (see "Standbys" in cfvacuum.c),
 * or NULL to keep it.
 */
void
cfRebuildPage(Relation rel, Buffer buf, Buffer child, const CfItem *items, int n,
			  const TransactionId *horizon)
{
	Page		page = BufferGetPage(buf);
	CfPageOpaqueData keep = *CfPageGetOpaque(page);
	Size		hikey_len;
	char	   *hikey = cfCopyHighKey(rel, page, &hikey_len);
	GenericXLogState *state;
	Page		gpage;

	state = GenericXLogStart(rel);
	gpage = register_with_child(state, buf, child);
	cfBuildPage(gpage, &keep, hikey, hikey_len, items, n);
	if (horizon)
		((PageHeader) gpage)->pd_prune_xid = *horizon;
	GenericXLogFinish(state);
}

/* The last full key of an item (the last cell of a run, or an index tuple's key). */
static void
item_last_key(Relation rel, bool leaf, const CfItem *item, CfKey *key, MemoryContext cxt)
{
	if (leaf)
	{
		CfRun		run;

		cfRunDecode(rel, item->data, item->len, &run, cxt);
		cfCellKey(&run, &run.cells[run.ncells - 1], key);
	}
	else
		cfIndexTupleKey(rel, (CfIndexTuple) item->data, key);
}

/* The first full key of an item. */
static void
item_first_key(Relation rel, bool leaf, const CfItem *item, CfKey *key)
{
	if (leaf)
		cfRunFirstKey(rel, item->data, key);
	else
		cfIndexTupleKey(rel, (CfIndexTuple) item->data, key);
}

/*
 * The separator between two adjacent leaf keys: the shortest prefix of the
 * right one, with bound -1, that is above the left one (suffix truncation).
 */
static void
leaf_separator(CfRelInfo *info, const CfKey *left, const CfKey *right, CfKey *sep)
{
	*sep = *right;
	for (int n = 1; n <= 3; n++)
	{
		sep->nparts = n;
		sep->bound = -1;
		if (cfKeyCompare(&info->order, sep, left) > 0)
			return;
	}
	*sep = *right;
}

/*
 * The separator between two adjacent runs of a leaf level, left and right
 * (the key a page boundary between them takes: the left page's high key,
 * the right page's downlink), into *sep, whose parts may point into right
 * or into memory allocated in cxt.
 */
void
cfRunsSeparator(Relation rel, CfRelInfo *info, const CfItem *left, const CfItem *right,
				CfKey *sep, MemoryContext cxt)
{
	CfKey		lastleft,
				firstright;

	item_last_key(rel, true, left, &lastleft, cxt);
	item_first_key(rel, true, right, &firstright);
	leaf_separator(info, &lastleft, &firstright, sep);
}

/*
 * Room for items on the left page of a split before item first (the first
 * on the right): what a page has besides its new high key, the separator.
 * That is at most first's own first key: an index tuple's key on internal
 * pages; on leaves the run's row key and super column as stored and a name
 * of at most CF_PART_INLINE bytes (a longer one is a reference).
 */
static Size
split_left_capacity(bool leaf, const CfItem *first)
{
	CfRunHeader hdr;

	if (!leaf)
		return cfPageCapacity(first->len);
	memcpy(&hdr, first->data, sizeof(hdr));
	return cfPageCapacity(sizeof(CfIndexTupleData) + hdr.keylen + hdr.sclen + CF_PART_INLINE);
}

/*
 * Where to split n items: the number that go left.  A leaf splits at the
 * boundary between two row keys nearest its middle, so that rows stay
 * whole and each grows on a page of its own; a page holding one row only
 * splits 90/10 when the change is at its end (rows grow at their end, as
 * timelines do), else in the middle.  The rightmost leaf splits about
 * 90/10 too when the change is at its end, whatever rows it holds: at the
 * row boundary nearest 90% if one lies between 75% and 95%, else 90/10
 * inside the last row.  Cells arriving in key order (a sorted COPY,
 * pg_restore, VACUUM FULL) then fill their leaves instead of leaving each
 * half full, splitting a row between two only where rows are large.  Internal pages split in the middle, or 90/10 at the right edge
 * of the tree.  A choice is taken only if both
 * halves fit: the right one in rcap bytes, the left one in what a page has
 * besides the high key the split would give it (split_left_capacity).
 */
static int
choose_split(bool leaf, const CfItem *items, int n, int newpos, bool rightmost, Size rcap)
{
	Size		total = 0,
				acc = 0;
	int			best = -1,
				mid = -1;
	Size		bestdist = 0,
				middist = 0;
	/* the rightmost leaf growing at its end (see above) */
	bool		tail = leaf && rightmost && newpos == n - 1 && n > 2;
	int			tailrow = -1;
	Size		taildist = 0;

	for (int i = 0; i < n; i++)
		total += MAXALIGN(items[i].len) + sizeof(ItemIdData);

	for (int i = 1; i < n; i++)
	{
		Size		dist;
		bool		fits;

		acc += MAXALIGN(items[i - 1].len) + sizeof(ItemIdData);
		fits = acc <= split_left_capacity(leaf, &items[i]) && total - acc <= rcap;
		if (!fits)
			continue;
		dist = acc > total / 2 ? acc - total / 2 : total / 2 - acc;
		if (mid < 0 || dist < middist)
		{
			mid = i;
			middist = dist;
		}
		if (leaf)
		{
			CfRunHeader a,
						b;

			memcpy(&a, items[i - 1].data, sizeof(a));
			memcpy(&b, items[i].data, sizeof(b));
			if (a.keylen != b.keylen ||
				memcmp(items[i - 1].data + sizeof(a), items[i].data + sizeof(b), a.keylen) != 0)
			{
				Size		d90 = acc > total * 9 / 10 ? acc - total * 9 / 10 : total * 9 / 10 - acc;

				if (best < 0 || dist < bestdist)
				{
					best = i;
					bestdist = dist;
				}
				/* a row boundary between 75% and 95%, nearest 90% */
				if (tail && acc >= total * 3 / 4 && acc <= total * 19 / 20 &&
					(tailrow < 0 || d90 < taildist))
				{
					tailrow = i;
					taildist = d90;
				}
			}
		}
	}
	if (mid < 0)
		return -1;				/* no split point fits: the caller reports it */
	if (tailrow > 0)
		return tailrow;
	if (best > 0 && !tail)
		return best;
	if (newpos == n - 1 && n > 2 && (leaf || rightmost))
	{
		Size		target = total * 9 / 10;

		acc = 0;
		for (int i = 0; i < n - 1; i++)
		{
			acc += MAXALIGN(items[i].len) + sizeof(ItemIdData);
			if (acc >= target && acc <= split_left_capacity(leaf, &items[i + 1]) &&
				total - acc <= rcap)
				return i + 1;
		}
	}
	return mid;
}

/*
 * Give the runs of items[0..n) of rows other than growing's back their
 * room to grow: each becomes as long as its run's image.
 */
static void
trim_room(CfItem *items, int n, const CfItem *growing)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore split", ALLOCSET_SMALL_SIZES);
	CfRunHeader g;

	memcpy(&g, growing->data, sizeof(g));
	for (int i = 0; i < n; i++)
	{
		CfRun		run;
		CfRunHeader h;

		memcpy(&h, items[i].data, sizeof(h));
		if (h.keylen == g.keylen && h.sclen == g.sclen &&
			memcmp(items[i].data + sizeof(h), growing->data + sizeof(g), h.keylen + h.sclen) == 0)
			continue;

		/* without the relation: long parts stay references, unread */
		cfRunDecode(NULL, items[i].data, items[i].len, &run, cxt);
		items[i].len = run.used;
		MemoryContextReset(cxt);
	}
	MemoryContextDelete(cxt);
}

/*
 * The halves of a split of items[0..n) of block blkno (see choose_split;
 * hikey_len: the page's high key's length, which the right half gets):
 * returns how many items go left; the right page's items, an internal
 * page's first being minus infinity, into *ritems and *nright; the
 * separator, the left page's new high key, as an index tuple into *sepbuf
 * and *seplen.
 */
static int
split_halves(Relation rel, CfRelInfo *info, BlockNumber blkno, bool leaf, bool rightmost,
			 CfItem *items, int n, int newpos, Size hikey_len,
			 CfItem **ritems, int *nright, char **sepbuf, Size *seplen)
{
	int			nleft;
	CfKey		sep;
	MemoryContext tmp = CurrentMemoryContext;

	if (n < 2)
		elog(ERROR, "cannot split a page holding one item of %zu bytes", items[0].len);
	/* the left page's high key will be the separator: at most a full key */
	nleft = choose_split(leaf, items, n, newpos, rightmost, cfPageCapacity(hikey_len));
	if (nleft < 1)
		elog(ERROR, "no split of block %u fits (%d items)", blkno, n);
	Assert(nleft < n);

	if (leaf)
		cfRunsSeparator(rel, info, &items[nleft - 1], &items[nleft], &sep, tmp);
	else
		item_first_key(rel, leaf, &items[nleft], &sep);

	/* the right page of an internal split starts with minus infinity */
	*ritems = palloc(sizeof(CfItem) * n);
	*nright = n - nleft;
	memcpy(*ritems, items + nleft, sizeof(CfItem) * *nright);
	if (!leaf)
	{
		CfIndexTuple first = (CfIndexTuple) (*ritems)[0].data;
		Size		len = cfIndexTupleSize(&cfMinusInfinity);

		(*ritems)[0].data = palloc(len);
		(*ritems)[0].len = len;
		cfIndexTupleForm(&cfMinusInfinity, first->child, (*ritems)[0].data);
	}
	*seplen = cfIndexTupleSize(&sep);
	*sepbuf = palloc(*seplen);
	cfIndexTupleForm(&sep, InvalidBlockNumber, *sepbuf);
	if (cfItemsSpace(items, nleft) > cfPageCapacity(*seplen) ||
		cfItemsSpace(*ritems, *nright) > cfPageCapacity(hikey_len))
		elog(ERROR, "split of block %u does not fit (%d items)", blkno, n);
	return nleft;
}

/*
 * Replace the items of the page in buf (exclusively locked) by items[0..n),
 * splitting it if they do not fit.  newpos is the index of the item that
 * received the new cell or downlink (for the split heuristic; of a run
 * split in two, the half holding the new cell).  If child is valid, its
 * INCOMPLETE_SPLIT flag is cleared in the same WAL record (the downlink to
 * its right sibling is among the items).  Releases nothing.
 */
void
cfRewritePage(Relation rel, CfRelInfo *info, Buffer buf, CfStack *stack,
			  CfItem *items, int n, int newpos, Buffer child)
{
	Page		page = BufferGetPage(buf);
	CfPageOpaque op = CfPageGetOpaque(page);
	bool		leaf = (op->level == 0);
	Size		hikey_len;
	char	   *hikey = cfCopyHighKey(rel, page, &hikey_len);
	GenericXLogState *state;
	Page		gpage;
	int			nleft;
	CfPageOpaqueData lop,
				rop;
	char	   *sepbuf;
	Size		seplen;
	Buffer		rbuf,
				obuf = InvalidBuffer;
	BlockNumber rblk;
	CfItem	   *ritems;
	int			nright;
	TransactionId rhorizon;

	/*
	 * The rightmost leaf growing at its end takes cells arriving in key
	 * order (choose_split): the rows before the growing one are complete,
	 * so their runs give back their room to grow before the page counts as
	 * full, and it splits about 90% full of cells rather than of cells and
	 * room (10-cell rows in key order: 100 leaves instead of 134).
	 */
	if (leaf && CfPageIsRightmost(op) && newpos == n - 1 && n > 2 &&
		cfItemsSpace(items, n) > cfPageCapacity(hikey_len))
		trim_room(items, n - 1, &items[n - 1]);
	if (cfItemsSpace(items, n) <= cfPageCapacity(hikey_len))
	{
		/* it fits once compacted: rebuild the page in one record */
		cfRebuildPage(rel, buf, child, items, n, NULL);
		return;
	}

	/* split */
	nleft = split_halves(rel, info, BufferGetBlockNumber(buf), leaf, CfPageIsRightmost(op),
						 items, n, newpos, hikey_len, &ritems, &nright, &sepbuf, &seplen);

	rbuf = cfNewPage(rel);
	rblk = BufferGetBlockNumber(rbuf);
	/*
	 * The right half's standby horizon: the left's, for the cells it takes
	 * over; and a page freed and used again is new to no snapshot older
	 * than now, which may still hold a pointer to what it was.
	 */
	rhorizon = ((PageHeader) page)->pd_prune_xid;
	if (!PageIsNew(BufferGetPage(rbuf)))
		rhorizon = ReadNextTransactionId();
	if (leaf && !CfPageIsRightmost(op))
	{
		/* a right-link to the page itself (damage) would wait on its own lock */
		if (op->right == BufferGetBlockNumber(buf))
			cfReachedAgain(rel, op->right);
		/*
		 * So would one to the page just added (damage: a link past the end
		 * of the file, after VACUUM cut it, names the block it grows into)
		 */
		if (op->right == rblk)
			cfCorrupt(rel, BufferGetBlockNumber(buf), "Its right-link leads to the page its split is adding.");
		obuf = ReadBuffer(rel, op->right);
		LockBuffer(obuf, BUFFER_LOCK_EXCLUSIVE);
		cfCheckTreePage(rel, obuf, 0);
	}

	lop = *op;
	lop.right = rblk;
	lop.flags = (op->flags & ~CF_PAGE_ROOT) | CF_PAGE_INCOMPLETE_SPLIT;
	rop = *op;
	rop.left = leaf ? BufferGetBlockNumber(buf) : InvalidBlockNumber;
	rop.right = op->right;
	rop.flags = op->flags & ~(CF_PAGE_ROOT | CF_PAGE_INCOMPLETE_SPLIT);

	/* record 1: left, new right, old right sibling (and a child's flag) */
	state = GenericXLogStart(rel);
	gpage = register_with_child(state, buf, child);
	{
		Page		rpage = GenericXLogRegisterBuffer(state, rbuf, GENERIC_XLOG_FULL_IMAGE);

		cfBuildPage(rpage, &rop, hikey, hikey_len, ritems, nright);
		((PageHeader) rpage)->pd_prune_xid = rhorizon;
	}
	if (BufferIsValid(obuf))
	{
		Page		opage = GenericXLogRegisterBuffer(state, obuf, 0);

		CfPageGetOpaque(opage)->left = rblk;
	}
	cfBuildPage(gpage, &lop, sepbuf, seplen, items, nleft);
	GenericXLogFinish(state);

	if (BufferIsValid(obuf))
		UnlockReleaseBuffer(obuf);
	UnlockReleaseBuffer(rbuf);

	/* record 2: the downlink, and the left page's flag cleared */
	{
		CfKey		sepkey;

		cfIndexTupleKey(rel, (CfIndexTuple) sepbuf, &sepkey);
		insert_downlink(rel, info, buf, stack, &sepkey, rblk);
	}
}

/*
 * A split of the root in lbuf (exclusively locked, flagged INCOMPLETE_SPLIT)
 * at level: a new root above it, with downlinks to it and to rblk (whose
 * separator is sep), which the metapage in mbuf (exclusively locked) names
 * and which clears lbuf's flag, in one record.  Releases mbuf.
 */
static void
new_root(Relation rel, CfRelInfo *info, Buffer lbuf, Buffer mbuf, uint16 level,
		 const CfKey *sep, BlockNumber rblk)
{
	Buffer		root = cfNewPage(rel);
	GenericXLogState *state = GenericXLogStart(rel);
	Page		lp = GenericXLogRegisterBuffer(state, lbuf, 0);
	Page		rp = GenericXLogRegisterBuffer(state, root, GENERIC_XLOG_FULL_IMAGE);
	Page		mp = GenericXLogRegisterBuffer(state, mbuf, 0);
	CfItem		ritems[2];
	CfPageOpaqueData rop;

	memset(&rop, 0, sizeof(rop));
	rop.left = rop.right = InvalidBlockNumber;
	rop.level = level + 1;
	rop.flags = CF_PAGE_ROOT;
	ritems[0].len = cfIndexTupleSize(&cfMinusInfinity);
	ritems[0].data = palloc(ritems[0].len);
	cfIndexTupleForm(&cfMinusInfinity, BufferGetBlockNumber(lbuf), ritems[0].data);
	ritems[1].len = cfIndexTupleSize(sep);
	ritems[1].data = palloc(ritems[1].len);
	cfIndexTupleForm(sep, rblk, ritems[1].data);
	cfBuildPage(rp, &rop, NULL, 0, ritems, 2);
	CfPageGetOpaque(lp)->flags &= ~CF_PAGE_INCOMPLETE_SPLIT;
	CfPageGetMeta(mp)->root = BufferGetBlockNumber(root);
	CfPageGetMeta(mp)->root_level = level + 1;
	GenericXLogFinish(state);
	info->root = BufferGetBlockNumber(root);
	info->root_level = level + 1;
	UnlockReleaseBuffer(root);
	UnlockReleaseBuffer(mbuf);
}

/*
 * For a split of the page in lbuf (at level) that has no stack of parents:
 * lbuf was the root, or a descent began below a root split it missed.  A
 * root gets a new root above it (new_root), and NULL comes back; else the
 * parent to start from is found by a descent.
 */
static CfStack *
parent_without_stack(Relation rel, CfRelInfo *info, Buffer lbuf, uint16 level,
					 const CfKey *sep, BlockNumber rblk)
{
	Buffer		mbuf = ReadBuffer(rel, CF_META_BLOCK);
	CfMetaPageData *meta;
	CfStack    *stack;

	LockBuffer(mbuf, BUFFER_LOCK_EXCLUSIVE);
	meta = CfPageGetMeta(BufferGetPage(mbuf));
	if (meta->root == BufferGetBlockNumber(lbuf))
	{
		new_root(rel, info, lbuf, mbuf, level, sep, rblk);
		return NULL;
	}

	/*
	 * Someone else made a new root since our descent: find the page one
	 * level up that covers the separator.
	 */
	UnlockReleaseBuffer(mbuf);
	stack = palloc(sizeof(CfStack));
	stack->blkno = cfFindPageAtLevel(rel, info, sep, level + 1);
	stack->parent = NULL;
	return stack;
}

/*
 * Lock the page of level + 1 that holds the downlink to lblk, exclusively:
 * the page stack names, or one right of it.  The downlink's index among the
 * page's data items goes to *pos.
 */
static Buffer
lock_parent(Relation rel, CfRelInfo *info, CfStack *stack, BlockNumber lblk, uint16 level, int *pos)
{
	Buffer		pbuf;
	uint32		moves = 0;

	*pos = -1;
	pbuf = ReadBuffer(rel, stack->blkno);
	LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
	cfCheckTreePage(rel, pbuf, level + 1);
	for (;;)
	{
		Page		ppage = BufferGetPage(pbuf);
		CfPageOpaque pop = CfPageGetOpaque(ppage);
		OffsetNumber max;

		/*
		 * A page of the parent level whose own split is unfinished is
		 * finished first: the downlink may be in its right half, which
		 * has none yet for a split of its own to go next to.
		 */
		if (pop->flags & CF_PAGE_INCOMPLETE_SPLIT)
		{
			BlockNumber blkno = BufferGetBlockNumber(pbuf);

			cfFinishSplit(rel, info, pbuf, stack->parent);
			UnlockReleaseBuffer(pbuf);
			pbuf = ReadBuffer(rel, blkno);
			LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
			continue;
		}
		max = PageGetMaxOffsetNumber(ppage);
		for (OffsetNumber off = CfPageFirstData(pop); off <= max; off++)
		{
			CfIndexTuple t = (CfIndexTuple) PageGetItem(ppage, cfPageItemId(rel, ppage, off));

			if (t->child == lblk)
			{
				*pos = off - CfPageFirstData(pop);
				break;
			}
		}
		if (*pos >= 0)
			return pbuf;
		if (CfPageIsRightmost(pop))
			elog(ERROR, "downlink to block %u not found at level %u",
				 lblk, pop->level);
		{
			BlockNumber right = pop->right;
			uint16		plevel = pop->level;

			UnlockReleaseBuffer(pbuf);
			cfCountMoveRight(rel, &moves, stack->blkno);
			pbuf = ReadBuffer(rel, right);
			LockBuffer(pbuf, BUFFER_LOCK_EXCLUSIVE);
			cfCheckTreePage(rel, pbuf, plevel);
		}
	}
}

/*
 * Insert the downlink (sep -> rblk) for a split of the page in lbuf (still
 * exclusively locked, flagged INCOMPLETE_SPLIT) into its parent, clearing
 * the flag in the same record.  A split root gets a new root above it.
 */
static void
insert_downlink(Relation rel, CfRelInfo *info, Buffer lbuf, CfStack *stack,
				const CfKey *sep, BlockNumber rblk)
{
	BlockNumber lblk = BufferGetBlockNumber(lbuf);
	uint16		level = CfPageGetOpaque(BufferGetPage(lbuf))->level;
	Buffer		pbuf;
	CfItem	   *items;
	int			n;
	int			pos;
	Size		len;
	char	   *itup;

	if (stack == NULL)
	{
		stack = parent_without_stack(rel, info, lbuf, level, sep, rblk);
		if (stack == NULL)
			return;
	}

	/* lock the parent and move right until it holds our downlink */
	pbuf = lock_parent(rel, info, stack, lblk, level, &pos);

	items = cfPageItems(rel, BufferGetPage(pbuf), &n);
	items = repalloc(items, sizeof(CfItem) * (n + 1));
	memmove(&items[pos + 2], &items[pos + 1], sizeof(CfItem) * (n - pos - 1));
	len = cfIndexTupleSize(sep);
	itup = palloc(len);
	cfIndexTupleForm(sep, rblk, itup);
	items[pos + 1].data = itup;
	items[pos + 1].len = len;
	/* cfPageItems points into the page: copy before the rebuild overwrites it */
	cfItemsCopy(items, n + 1, pos + 1, 1);
	cfRewritePage(rel, info, pbuf, stack->parent, items, n + 1, pos + 1, lbuf);
	UnlockReleaseBuffer(pbuf);
}

/* How many splits a crash interrupted this backend has finished (cfFinishSplit). */
static uint64 splits_finished = 0;

/* How many splits a crash interrupted this backend has finished so far. */
uint64
cfSplitsFinished(void)
{
	return splits_finished;
}

/*
 * Finish a split a crash interrupted: insert the missing downlink of the
 * right sibling of the page in buf (exclusively locked, flagged).
 */
void
cfFinishSplit(Relation rel, CfRelInfo *info, Buffer buf, CfStack *stack)
{
	Page		page = BufferGetPage(buf);
	CfPageOpaque op = CfPageGetOpaque(page);
	CfKey		hk;
	char	   *copy;
	Size		len;

	Assert(op->flags & CF_PAGE_INCOMPLETE_SPLIT);
	/* a flagged page has a right sibling, and so a high key */
	copy = cfCopyHighKey(rel, page, &len);
	cfIndexTupleKey(rel, (CfIndexTuple) copy, &hk);
	insert_downlink(rel, info, buf, stack, &hk, op->right);
	splits_finished++;
}
