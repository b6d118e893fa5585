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

/*
 * Insert one cell version.  cellrun is a run of one cell carrying its row
 * key and super column.  The caller has validated sizes and values.
 */
void
cfInsertCell(Relation rel, CfRelInfo *info, const CfRun *cellrun)
{
	CfKey		key;
	CfStack    *stack;
	Buffer		buf;
	Page		page;
	CfPageOpaque op;
	OffsetNumber first,
				max,
				target = InvalidOffsetNumber;
	CfRun		run;
	bool		same = false;
	bool		first_inplace = false;
	CfItem		newitems[2];
	Size		imglen[2] = {0, 0};	/* their images, without room to grow */
	int			nnew;
	int			newcell = 0;	/* which of newitems holds the new cell */
	MemoryContext tmp,
				old;

	tmp = AllocSetContextCreate(CurrentMemoryContext, "cfstore insert", ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(tmp);

	cfCellKey(cellrun, &cellrun->cells[0], &key);
	for (;;)
	{
		buf = cfDescend(rel, info, &key, true, &stack, NULL, NULL);
		if (!BufferIsValid(buf))
		{
			cfTreeEnsure(rel, info);
			continue;
		}
		page = BufferGetPage(buf);
		op = CfPageGetOpaque(page);
		if (!(op->flags & CF_PAGE_INCOMPLETE_SPLIT))
			break;
		cfFinishSplit(rel, info, buf, stack);
		UnlockReleaseBuffer(buf);
	}

	/* the run the cell belongs in: the last whose first key is at or below it */
	first = CfPageFirstData(op);
	max = PageGetMaxOffsetNumber(page);
	{
		OffsetNumber lo = first,
					hi = max + 1;

		while (lo < hi)
		{
			OffsetNumber mid = lo + (hi - lo) / 2;

			if (cfRunCompare(rel, &info->order, PageGetItem(page, cfPageItemId(rel, page, mid)), &key) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* lo is the first run above the key */
		target = lo > first ? lo - 1 : InvalidOffsetNumber;
	}

	/* same row key and super column as the target run, or as the next one? */
	for (int pass = 0; pass < 2 && !same; pass++)
	{
		OffsetNumber off = pass == 0 ? target : (target == InvalidOffsetNumber ? first : target + 1);

		if (off == InvalidOffsetNumber || off > max)
			continue;
		if (run_holds(rel, PageGetItem(page, cfPageItemId(rel, page, off)), &key))
		{
			ItemId		iid = cfPageItemId(rel, page, off);

			cfRunDecode(rel, PageGetItem(page, iid), ItemIdGetLength(iid), &run, tmp);
			target = off;
			same = true;
		}
	}

	if (same)
	{
		ItemId		iid = cfPageItemId(rel, page, target);
		Size		cap = ItemIdGetLength(iid);
		int			j = run_position(info, &run, &key);
		bool		tail = true;
		CfItem		img;

		/* is this the last run of its row (and super column) here? it grows */
		if (target < max)
			tail = !run_holds(rel, PageGetItem(page, cfPageItemId(rel, page, target + 1)), &key);
		run_insert_cell(&run, &cellrun->cells[0], j);
		img = run_item_inserted(info, &run, j, PageGetItem(page, iid));
		imglen[0] = img.len;
		nnew = 1;
		if (img.len <= cap)
		{
			/* rewrite in place: only the bytes from the new cell on change */
			newitems[0] = img;
			first_inplace = true;
		}
		else if (img.len > CF_RUN_MAX && run.ncells > 1)
		{
			/* split the run: after its last old cell when appending, else in the middle */
			CfRun		a = run,
						b = run;

			a.ncells = (j == run.ncells - 1) ? run.ncells - 1 : run.ncells / 2;
			b.cells = run.cells + a.ncells;
			b.ncells = run.ncells - a.ncells;
			newitems[0] = run_item(info, &a);
			imglen[0] = newitems[0].len;
			first_inplace = newitems[0].len <= cap;
			newitems[1] = run_item(info, &b);
			imglen[1] = newitems[1].len;
			newcell = j >= a.ncells ? 1 : 0;
			if (tail)
				newitems[1] = with_capacity(newitems[1], grown_capacity(newitems[1].len));
			nnew = 2;
		}
		else
			newitems[0] = tail ? with_capacity(img, grown_capacity(img.len)) : img;
	}
	else
	{
		CfRun		single = *cellrun;
		uint8		keyref[CF_LONGREF_SIZE],
					scref[CF_LONGREF_SIZE];

		/* a new run: long key and super column get chains of their own */
		if (CfPartIsLong(single.keylen) && single.keyref == NULL)
		{
			cfOverflowWrite(rel, single.key, single.keylen, keyref);
			single.keyref = keyref;
		}
		if (CfPartIsLong(single.sclen) && single.scref == NULL)
		{
			cfOverflowWrite(rel, single.sc, single.sclen, scref);
			single.scref = scref;
		}
		newitems[0] = run_item(info, &single);
		imglen[0] = newitems[0].len;
		newitems[0] = with_capacity(newitems[0], grown_capacity(newitems[0].len));
		nnew = 1;
		target = target == InvalidOffsetNumber ? first : target + 1;
	}

	/* fast path: the new images fit the page's free space */
	{
		Size		need = 0;
		Size		freespace = ((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower;

		for (int i = first_inplace ? 1 : 0; i < nnew; i++)
			need += MAXALIGN(newitems[i].len);
		need += sizeof(ItemIdData) * (same ? nnew - 1 : nnew);
		if (need <= freespace && same && first_inplace && nnew == 1)
			cfWalOverwrite(rel, buf, target, newitems[0].data, newitems[0].len);
		else if (need <= freespace)
		{
			/* new item images at pd_upper, line pointers from target on */
			PGAlignedBlock copy;
			Page		gpage = copy.data;
			PageHeader	ph = (PageHeader) gpage;
			OffsetNumber at = target;
			uint16		ranges[10];
			uint16		old_upper = ((PageHeader) page)->pd_upper;

			memcpy(gpage, page, BLCKSZ);
			if (same)
			{
				ItemId		iid = PageGetItemId(gpage, target);

				if (first_inplace)
					memcpy(PageGetItem(gpage, iid), newitems[0].data, newitems[0].len);
				else
				{
					Size		sz = MAXALIGN(newitems[0].len);

					CfPageGetOpaque(gpage)->garbage += MAXALIGN(ItemIdGetLength(iid));
					ph->pd_upper -= sz;
					memcpy((char *) gpage + ph->pd_upper, newitems[0].data, newitems[0].len);
					ItemIdSetNormal(iid, ph->pd_upper, newitems[0].len);
				}
				at = target + 1;
				if (nnew == 2 &&
					PageAddItem(gpage, (Item) newitems[1].data, newitems[1].len, at, false, false) != at)
					elog(ERROR, "could not add run item");
			}
			else if (PageAddItem(gpage, (Item) newitems[0].data, newitems[0].len, at, false, false) != at)
				elog(ERROR, "could not add run item");

			/*
			 * What may have changed: the page header; line pointers from the
			 * first that changed; the new images (over the zeroed hole, so
			 * their room to grow is not logged); the opaque data; a run
			 * rewritten in place.  Only the bytes that differ are logged.
			 */
			ranges[0] = 0;
			ranges[1] = SizeOfPageHeaderData;
			ranges[2] = (char *) PageGetItemId(gpage, target) - (char *) gpage;
			ranges[3] = ph->pd_lower;
			ranges[4] = ph->pd_upper;
			ranges[5] = old_upper;
			ranges[6] = ph->pd_special;
			ranges[7] = BLCKSZ;
			if (same && first_inplace)
			{
				ItemId		iid = PageGetItemId(gpage, target);

				ranges[8] = ItemIdGetOffset(iid);
				ranges[9] = ItemIdGetOffset(iid) + newitems[0].len;
			}
			else
				ranges[8] = ranges[9] = 0;
			{
				uint16		changed[2 * CF_WAL_MAX_RANGES];
				int			nchanged = cfWalChangedRanges(page, gpage, ranges, 5, changed);

				if (nchanged >= 0)
					cfWalInstallRanges(rel, buf, gpage, changed, nchanged);
				else
					cfWalInstallRanges(rel, buf, gpage, ranges, 5);
			}
		}
		else
		{
			/* rebuild (compacting) or split the page */
			int			n;
			CfItem	   *items = cfPageItems(rel, page, &n);
			CfItem	   *all = palloc(sizeof(CfItem) * (n + 2));
			int			k = 0;
			int			idx = target - first;
			int			newpos;

			for (int i = 0; i < idx; i++)
				all[k++] = items[i];
			newpos = k;
			if (first_inplace)
				newitems[0] = with_capacity(newitems[0], items[idx].len);
			for (int i = 0; i < nnew; i++)
				all[k++] = newitems[i];
			for (int i = same ? idx + 1 : idx; i < n; i++)
				all[k++] = items[i];
			/* the rebuild overwrites the page: copy what points into it */
			cfItemsCopy(all, k, newpos, nnew);
			if (!cfItemsFitPage(page, all, k))
				fit_room(page, all, k, newpos, nnew, imglen, newcell);
			cfRewritePage(rel, info, buf, stack, all, k, newpos + newcell, InvalidBuffer);
		}
	}

	UnlockReleaseBuffer(buf);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
}
