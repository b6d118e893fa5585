/*-------------------------------------------------------------------------
 *
 * cfinsert.c
 *	  Inserting a cell version into the cfstore B+tree.
 *
 * The design is in src/storage/README ("Leaf items: row runs" and "Writes,
 * WAL and splits").  A cell goes into the run of its row and super column
 * on the leaf that covers it (cfDescend, cfsearch.c), or into a new run.
 * The last run of a row gets room to grow, so that an appended cell is
 * written in place.  A cell insertion that fits is one record: the run is
 * rewritten in its slot, logging only the bytes that change, or rewritten
 * into free space at pd_upper (its old image becomes garbage, counted in
 * the page's opaque data and reclaimed when the page is next rebuilt), so
 * the record carries the run and a line pointer, not the page (cfwal.c).
 * Otherwise the page is rebuilt, or split (cfsplit.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "storage/cfstorage.h"

/* Insert cell (with its key into run) at position j of run. */
static void
run_insert_cell(CfRun *run, const CfCell *cell, int j)
{
	CfCell	   *cells = palloc(sizeof(CfCell) * (run->ncells + 1));

	memcpy(cells, run->cells, sizeof(CfCell) * j);
	cells[j] = *cell;
	memcpy(cells + j + 1, run->cells + j, sizeof(CfCell) * (run->ncells - j));
	run->cells = cells;
	run->ncells++;
}

/* The position of key among a run's cells: after every cell at or below it. */
static int
run_position(CfRelInfo *info, const CfRun *run, const CfKey *key)
{
	int			lo = 0,
				hi = run->ncells;

	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;
		CfKey		ck;

		cfCellKey(run, &run->cells[mid], &ck);
		if (cfKeyCompare(&info->order, &ck, key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Encode a run into a palloc'd item. */
static CfItem
run_item(CfRelInfo *info, CfRun *run)
{
	CfItem		item;

	run->timeuuid_names = info->order.namecmp->kind == CF_TIMEUUID;
	item.len = cfRunEncodedSize(run);
	item.data = palloc(item.len);
	cfRunEncode(run, item.data);
	return item;
}

/*
 * The item of a decoded run into which cell j was just inserted, its old
 * item at src: a cell appended after the others (what an interleaved load
 * of rising names always does) is encoded alone after the old item's
 * bytes (cfRunEncodeAppended), anything else re-encodes the run.
 */
static CfItem
run_item_inserted(CfRelInfo *info, CfRun *run, int j, const char *src)
{
	CfItem		item;

	if (j == 0 || j != run->ncells - 1 ||
		run->timeuuid_names != (info->order.namecmp->kind == CF_TIMEUUID))
		return run_item(info, run);
	item.len = cfRunAppendedSize(run, run->used);
	item.data = palloc(item.len);
	cfRunEncodeAppended(run, src, run->used, item.data);
#ifdef USE_ASSERT_CHECKING
	{
		CfItem		full = run_item(info, run);

		Assert(full.len == item.len && memcmp(full.data, item.data, item.len) == 0);
	}
#endif
	return item;
}

/* A copy of an item image with room to grow to cap bytes (zeroed). */
static CfItem
with_capacity(CfItem img, Size cap)
{
	CfItem		item;

	if (cap <= img.len)
		return img;
	item.len = cap;
	item.data = palloc0(cap);
	memcpy(item.data, img.data, img.len);
	return item;
}

/*
 * The room to give a run that may grow (the last run of its row): double
 * its size, at most CF_RUN_MAX, so that appends are mostly in place.
 */
static Size
grown_capacity(Size len)
{
	Size		cap = Max(len + 64, len * 2);

	return Max(len, Min(cap, (Size) CF_RUN_MAX));
}

/*
 * Room to grow is slack, not data: a page must not split for it.  all[0..n)
 * are the items of a page rebuild that do not fit; the new items
 * all[newpos..newpos+nnew) carry room to grow (a run's old slot, or
 * grown_capacity), their images being imglen[] bytes.  Trim them to their
 * images, and give the one holding the new cell (newcell) back as much of
 * its room as the page has left.  Without this, a leaf holding a row that
 * nearly fills it split when the row's last run doubled its room, with
 * every cell fitting, and the row ended on two leaves.
 */
static void
fit_room(Page page, CfItem *all, int n, int newpos, int nnew, const Size *imglen, int newcell)
{
	CfItem	   *grow = &all[newpos + newcell];
	Size		want = grow->len;
	Size		cap = cfRebuiltCapacity(page),
				used;

	for (int i = 0; i < nnew; i++)
		all[newpos + i].len = imglen[i];
	used = cfItemsSpace(all, n);
	if (used < cap)
	{
		Size		room = (cap - used) & ~((Size) MAXIMUM_ALIGNOF - 1);

		grow->len = Min(want, MAXALIGN(grow->len) + room);
	}
}

/*
 * Whether the run item at src holds cells of key's row and super column.
 * Short parts are compared as stored, in the run's header; long ones as
 * they read.
 */
static bool
run_holds(Relation rel, const char *src, const CfKey *key)
{
	CfRunHeader hdr;
	CfKey		fk;

	memcpy(&hdr, src, sizeof(hdr));
	if (!(hdr.flags & (CF_RUN_LONG_KEY | CF_RUN_LONG_SC)))
		return hdr.keylen == key->keylen && hdr.sclen == key->sclen &&
			memcmp(src + sizeof(hdr), key->key, key->keylen) == 0 &&
			(key->sclen == 0 || memcmp(src + sizeof(hdr) + hdr.keylen, key->sc, key->sclen) == 0);
	cfRunFirstKey(rel, src, &fk);
	return fk.keylen == key->keylen && memcmp(fk.key, key->key, key->keylen) == 0 &&
		fk.sclen == key->sclen && (key->sclen == 0 || memcmp(fk.sc, key->sc, key->sclen) == 0);
}

/* A cell insertion under way: the leaf, the run the cell goes in, the new item images. */
typedef struct CfInsert
{
	Relation	rel;
	CfRelInfo  *info;
	CfKey		key;			/* the cell's */
	CfStack    *stack;			/* the pages above the leaf */
	Buffer		buf;			/* the leaf, exclusively locked */
	Page		page;
	OffsetNumber first;			/* the leaf's first and last data items */
	OffsetNumber max;
	OffsetNumber target;		/* the run the cell goes in, or where its new run goes */
	bool		same;			/* target holds the cell's row and super column */
	CfRun		run;			/* with same: target decoded, then the cell inserted */
	bool		first_inplace;	/* newitems[0] fits target's slot */
	CfItem		newitems[2];
	Size		imglen[2];		/* their images, without room to grow */
	int			nnew;
	int			newcell;		/* which of newitems holds the new cell */
} CfInsert;

/*
 * Descend to the leaf that covers the cell, exclusively locked: the tree is
 * made if there is none, and a split of the leaf a crash interrupted is
 * finished first.
 */
static void
lock_leaf(CfInsert *ins)
{
	for (;;)
	{
		ins->buf = cfDescend(ins->rel, ins->info, &ins->key, true, &ins->stack, NULL, NULL);
		if (!BufferIsValid(ins->buf))
		{
			cfTreeEnsure(ins->rel, ins->info);
			continue;
		}
		ins->page = BufferGetPage(ins->buf);
		if (!(CfPageGetOpaque(ins->page)->flags & CF_PAGE_INCOMPLETE_SPLIT))
			break;
		cfFinishSplit(ins->rel, ins->info, ins->buf, ins->stack);
		UnlockReleaseBuffer(ins->buf);
	}
	ins->first = CfPageFirstData(CfPageGetOpaque(ins->page));
	ins->max = PageGetMaxOffsetNumber(ins->page);
}

/*
 * Find the run the cell belongs in: the last whose first key is at or below
 * it, or the next one, if either holds the cell's row and super column (it
 * is decoded in cxt); else target is the run after which a new run goes.
 */
static void
find_run(CfInsert *ins, MemoryContext cxt)
{
	Relation	rel = ins->rel;
	Page		page = ins->page;
	OffsetNumber lo = ins->first,
				hi = ins->max + 1;

	while (lo < hi)
	{
		OffsetNumber mid = lo + (hi - lo) / 2;

		if (cfRunCompare(rel, &ins->info->order, PageGetItem(page, cfPageItemId(rel, page, mid)), &ins->key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo is the first run above the key */
	ins->target = lo > ins->first ? lo - 1 : InvalidOffsetNumber;

	/* same row key and super column as the target run, or as the next one? */
	for (int pass = 0; pass < 2 && !ins->same; pass++)
	{
		OffsetNumber off = pass == 0 ? ins->target
			: (ins->target == InvalidOffsetNumber ? ins->first : ins->target + 1);

		if (off == InvalidOffsetNumber || off > ins->max)
			continue;
		if (run_holds(rel, PageGetItem(page, cfPageItemId(rel, page, off)), &ins->key))
		{
			ItemId		iid = cfPageItemId(rel, page, off);

			cfRunDecode(rel, PageGetItem(page, iid), ItemIdGetLength(iid), &ins->run, cxt);
			ins->target = off;
			ins->same = true;
		}
	}
}

/*
 * Split the run the cell j was inserted into, too long for a run, in two:
 * after its last old cell when the cell was appended, else in the middle.
 * cap: the old run's slot; tail: whether the run is the last of its row.
 */
static void
split_run(CfInsert *ins, int j, Size cap, bool tail)
{
	CfRun		a = ins->run,
				b = ins->run;

	a.ncells = (j == ins->run.ncells - 1) ? ins->run.ncells - 1 : ins->run.ncells / 2;
	b.cells = ins->run.cells + a.ncells;
	b.ncells = ins->run.ncells - a.ncells;
	ins->newitems[0] = run_item(ins->info, &a);
	ins->imglen[0] = ins->newitems[0].len;
	ins->first_inplace = ins->newitems[0].len <= cap;
	ins->newitems[1] = run_item(ins->info, &b);
	ins->imglen[1] = ins->newitems[1].len;
	ins->newcell = j >= a.ncells ? 1 : 0;
	if (tail)
		ins->newitems[1] = with_capacity(ins->newitems[1], grown_capacity(ins->newitems[1].len));
	ins->nnew = 2;
}

/*
 * The new images of the target run with the cell inserted: in its slot if
 * the run still fits it, else with room to grow if it is the last run of
 * its row, or two runs if it grew too long.
 */
static void
grow_run(CfInsert *ins, const CfRun *cellrun)
{
	Page		page = ins->page;
	ItemId		iid = cfPageItemId(ins->rel, page, ins->target);
	Size		cap = ItemIdGetLength(iid);
	int			j = run_position(ins->info, &ins->run, &ins->key);
	bool		tail = true;
	CfItem		img;

	/* is this the last run of its row (and super column) here? it grows */
	if (ins->target < ins->max)
		tail = !run_holds(ins->rel, PageGetItem(page, cfPageItemId(ins->rel, page, ins->target + 1)), &ins->key);
	run_insert_cell(&ins->run, &cellrun->cells[0], j);
	img = run_item_inserted(ins->info, &ins->run, j, PageGetItem(page, iid));
	ins->imglen[0] = img.len;
	ins->nnew = 1;
	if (img.len <= cap)
	{
		/* rewrite in place: only the bytes from the new cell on change */
		ins->newitems[0] = img;
		ins->first_inplace = true;
	}
	else if (img.len > CF_RUN_MAX && ins->run.ncells > 1)
		split_run(ins, j, cap, tail);
	else
		ins->newitems[0] = tail ? with_capacity(img, grown_capacity(img.len)) : img;
}

/* The image of a new run holding the cell alone, with room to grow, placed after target. */
static void
new_run(CfInsert *ins, const CfRun *cellrun)
{
	CfRun		single = *cellrun;
	uint8		keyref[CF_LONGREF_SIZE],
				scref[CF_LONGREF_SIZE];

	/* a new run: long key and super column get chains of their own */
	if (CfPartIsLong(single.keylen) && single.keyref == NULL)
	{
		cfOverflowWrite(ins->rel, single.key, single.keylen, keyref);
		single.keyref = keyref;
	}
	if (CfPartIsLong(single.sclen) && single.scref == NULL)
	{
		cfOverflowWrite(ins->rel, single.sc, single.sclen, scref);
		single.scref = scref;
	}
	ins->newitems[0] = run_item(ins->info, &single);
	ins->imglen[0] = ins->newitems[0].len;
	ins->newitems[0] = with_capacity(ins->newitems[0], grown_capacity(ins->newitems[0].len));
	ins->nnew = 1;
	ins->target = ins->target == InvalidOffsetNumber ? ins->first : ins->target + 1;
}

/*
 * Install gpage, a copy of the leaf with the new images (old_upper: the
 * leaf's pd_upper before them), logging only what changed, in one record.
 */
static void
install_copy(CfInsert *ins, Page gpage, uint16 old_upper)
{
	PageHeader	ph = (PageHeader) gpage;
	uint16		ranges[10];
	uint16		changed[2 * CF_WAL_MAX_RANGES];
	int			nchanged;

	/*
	 * What may have changed: the page header; line pointers from the first
	 * that changed; the new images (over the zeroed hole, so their room to
	 * grow is not logged); the opaque data; a run rewritten in place.  Only
	 * the bytes that differ are logged.
	 */
	ranges[0] = 0;
	ranges[1] = SizeOfPageHeaderData;
	ranges[2] = (char *) PageGetItemId(gpage, ins->target) - (char *) gpage;
	ranges[3] = ph->pd_lower;
	ranges[4] = ph->pd_upper;
	ranges[5] = old_upper;
	ranges[6] = ph->pd_special;
	ranges[7] = BLCKSZ;
	if (ins->same && ins->first_inplace)
	{
		ItemId		iid = PageGetItemId(gpage, ins->target);

		ranges[8] = ItemIdGetOffset(iid);
		ranges[9] = ItemIdGetOffset(iid) + ins->newitems[0].len;
	}
	else
		ranges[8] = ranges[9] = 0;
	nchanged = cfWalChangedRanges(ins->page, gpage, ranges, 5, changed);
	if (nchanged >= 0)
		cfWalInstallRanges(ins->rel, ins->buf, gpage, changed, nchanged, CF_WAL_RANGES);
	else
		cfWalInstallRanges(ins->rel, ins->buf, gpage, ranges, 5, CF_WAL_REGIONS);
}

/* Write the new images at pd_upper of a copy of the leaf, line pointers from target on, and install it. */
static void
add_items(CfInsert *ins)
{
	PGAlignedBlock copy;
	Page		gpage = copy.data;
	PageHeader	ph = (PageHeader) gpage;
	OffsetNumber at = ins->target;
	uint16		old_upper = ((PageHeader) ins->page)->pd_upper;

	memcpy(gpage, ins->page, BLCKSZ);
	if (ins->same)
	{
		ItemId		iid = PageGetItemId(gpage, ins->target);

		if (ins->first_inplace)
			memcpy(PageGetItem(gpage, iid), ins->newitems[0].data, ins->newitems[0].len);
		else
		{
			Size		sz = MAXALIGN(ins->newitems[0].len);

			CfPageGetOpaque(gpage)->garbage += MAXALIGN(ItemIdGetLength(iid));
			ph->pd_upper -= sz;
			memcpy((char *) gpage + ph->pd_upper, ins->newitems[0].data, ins->newitems[0].len);
			ItemIdSetNormal(iid, ph->pd_upper, ins->newitems[0].len);
		}
		at = ins->target + 1;
		if (ins->nnew == 2 &&
			PageAddItem(gpage, (Item) ins->newitems[1].data, ins->newitems[1].len, at, false, false) != at)
			elog(ERROR, "could not add run item");
	}
	else if (PageAddItem(gpage, (Item) ins->newitems[0].data, ins->newitems[0].len, at, false, false) != at)
		elog(ERROR, "could not add run item");
	install_copy(ins, gpage, old_upper);
}

/*
 * The fast path: write the new images in place, or into the leaf's free
 * space, in one hand-built record (cfwal.c); false if they do not fit.
 */
static bool
write_in_free_space(CfInsert *ins)
{
	Size		need = 0;
	Size		freespace = ((PageHeader) ins->page)->pd_upper - ((PageHeader) ins->page)->pd_lower;

	for (int i = ins->first_inplace ? 1 : 0; i < ins->nnew; i++)
		need += MAXALIGN(ins->newitems[i].len);
	need += sizeof(ItemIdData) * (ins->same ? ins->nnew - 1 : ins->nnew);
	if (need > freespace)
		return false;
	if (ins->same && ins->first_inplace && ins->nnew == 1)
		cfWalOverwrite(ins->rel, ins->buf, ins->target, ins->newitems[0].data, ins->newitems[0].len);
	else
		add_items(ins);
	return true;
}

/* Rebuild the leaf with the new images (compacting it), or split it if they do not fit. */
static void
rebuild_or_split(CfInsert *ins)
{
	int			n;
	CfItem	   *items = cfPageItems(ins->rel, ins->page, &n);
	CfItem	   *all = palloc(sizeof(CfItem) * (n + 2));
	int			k = 0;
	int			idx = ins->target - ins->first;
	int			newpos;

	for (int i = 0; i < idx; i++)
		all[k++] = items[i];
	newpos = k;
	if (ins->first_inplace)
		ins->newitems[0] = with_capacity(ins->newitems[0], items[idx].len);
	for (int i = 0; i < ins->nnew; i++)
		all[k++] = ins->newitems[i];
	for (int i = ins->same ? idx + 1 : idx; i < n; i++)
		all[k++] = items[i];
	/* the rebuild overwrites the page: copy what points into it */
	cfItemsCopy(all, k, newpos, ins->nnew);
	if (!cfItemsFitPage(ins->page, all, k))
		fit_room(ins->page, all, k, newpos, ins->nnew, ins->imglen, ins->newcell);
	cfRewritePage(ins->rel, ins->info, ins->buf, ins->stack, all, k, newpos + ins->newcell, InvalidBuffer);
}

/*
 * Insert one cell version.  cellrun is a run of one cell carrying its row
 * key and super column.  The caller has validated sizes and values.
 */
void
cfInsertCell(Relation rel, CfRelInfo *info, const CfRun *cellrun)
{
	CfInsert	ins;
	MemoryContext tmp,
				old;

	tmp = AllocSetContextCreate(CurrentMemoryContext, "cfstore insert", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(tmp);

	ins.rel = rel;
	ins.info = info;
	ins.same = false;
	ins.first_inplace = false;
	ins.imglen[0] = ins.imglen[1] = 0;
	ins.newcell = 0;
	cfCellKey(cellrun, &cellrun->cells[0], &ins.key);
	lock_leaf(&ins);
	find_run(&ins, tmp);
	if (ins.same)
		grow_run(&ins, cellrun);
	else
		new_run(&ins, cellrun);
	if (!write_in_free_space(&ins))
		rebuild_or_split(&ins);

	UnlockReleaseBuffer(ins.buf);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
}
