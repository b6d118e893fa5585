/*-------------------------------------------------------------------------
 *
 * cfvacuum.c
 *	  VACUUM of a storage relation: compaction and freezing.
 *
 * Compaction is VACUUM (architecture doc).  VACUUM walks the leaf level
 * left to right, one page at a time under an exclusive lock, in key order,
 * so a row's or a column's versions are met newest first and a container's
 * tombstones before its cells.  It carries across pages the deletions of
 * the current row and super column and the newest version of the current
 * column that every snapshot sees ("all-visible": inserted by a transaction
 * that committed before the oldest xmin any backend may still use), and
 * removes:
 *
 *	- versions of aborted transactions;
 *	- versions shadowed for every snapshot: older than an all-visible
 *	  version of their column (doc/semantics.md §4: a lower timestamp never wins),
 *	  or not newer than an all-visible deletion of their row or super
 *	  column (§5: deletion wins ties), or, for counters, not newer than an
 *	  all-visible deletion of the counter (§7);
 *	- tombstones, and expired TTL cells, whose local deletion time is more
 *	  than gc_grace_seconds ago, once all-visible, when nothing they shadow
 *	  can remain: the column (row, super column) they delete does not go on
 *	  to the next page (else the next VACUUM removes them, after this one
 *	  has removed what they shadow there).  An all-visible expired cell is
 *	  first rewritten as the tombstone it reads as (§6).
 *
 * Counter increments that are all-visible and adjacent in a run, with no
 * deletion between them, are merged into one delta carrying the newest
 * timestamp: every deletion already written is either newer than all of
 * them or older than all of them, and a deletion written later is newer
 * still (counter deletions take the server clock), so a read adds the
 * same total.
 *
 * Freezing: a remaining version whose transaction committed before the
 * freeze limit loses its xmin (CF_CELL_FROZEN), and relfrozenxid advances
 * to the oldest xmin left.  Cells inserted into pages VACUUM has passed
 * come from transactions at or after its oldest xmin, so they do not hold
 * relfrozenxid back.
 *
 * A page that changes is rebuilt in place (one Generic WAL record);
 * readers hold one page at a time and never keep positions inside a page
 * across locks, so a rebuild is invisible to them.  The space a rebuild
 * frees is reused by the inserts that land on the page.  A leaf the pass
 * leaves empty is unlinked from the tree after the pass, and freed once no
 * snapshot can still reach it (cffree.c).  Overflow chains that no page
 * refers to any more are freed too: the pass notes the chains the pages it
 * leaves behind refer to, and the others go to the free space map
 * (cfoverflow.c, "Reclaiming").  A split a crash left unfinished (a page
 * flagged INCOMPLETE_SPLIT, its right sibling without a downlink) is
 * finished after the pass, as an insert passing the page would finish it,
 * so that after a crash one VACUUM leaves a tree verify accepts.
 *
 * Standbys.  Generic WAL carries no conflict horizon, so a standby replays
 * a rebuild that removes versions without cancelling the queries that may
 * still need them, as it would for heap's pruning.  Instead the rebuild
 * stamps the leaf with the horizon it removed under (pd_prune_xid: the
 * oldest xmin; only snapshots older than that may need what went; the same
 * when it froze versions before the freeze limit, which such snapshots
 * may see as inserted by a running transaction, as heap's freezing
 * conflicts), a
 * reader on a standby whose snapshot is older than a leaf's stamp raises
 * rather than answer without the versions (cfwalk.c), and the stamp goes
 * with the cells: a rebuild keeps it, a split gives it to both halves.  A
 * leaf that a split makes of a page freed earlier is stamped with the next
 * transaction id, for the snapshots that may still hold a pointer to what
 * the page was.  With hot_standby_feedback the oldest xmin covers the
 * standby's snapshots and no query is cancelled.  A stamp older than the
 * freeze limit is cleared, as the xmins of cells are frozen, so that no
 * stamp is left to look newer than it is after the transaction ids wrap.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/multixact.h"
#include "access/transam.h"
#include "access/xact.h"
#include "commands/progress.h"
#include "commands/vacuum.h"
#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "storage/cfstorage.h"

#define CF_NO_DELETION PG_INT64_MIN

/* A growing list of block numbers. */
typedef struct CfBlockList
{
	BlockNumber *blocks;
	int			n;
	int			max;
} CfBlockList;

/* What VACUUM knows of a version's inserting transaction. */
typedef enum CfXminState
{
	CF_XMIN_ABORTED,
	CF_XMIN_RUNNING,			/* in progress: keep, and it shadows nothing */
	CF_XMIN_RECENT,				/* committed, but some snapshot may not see it */
	CF_XMIN_ALL_VISIBLE
} CfXminState;

/* A copy of one part of a key (row key, super column or name). */
typedef struct CfPart
{
	bool		set;
	int			len;
	int			cap;
	uint8	   *bytes;
} CfPart;

/* A tombstone past gc_grace_seconds whose column or container went on past its page. */
typedef struct CfDeferred
{
	CfKey		key;			/* a copy: row key, super column, name, writetime */
} CfDeferred;

/* The state of one VACUUM. */
typedef struct CfVacuum
{
	Relation	rel;
	MemoryContext cxt;			/* lives as long as the VACUUM */
	CfRelInfo  *info;
	TransactionId oldest_xmin;
	TransactionId freeze_limit;
	TransactionId freeze_cutoff;	/* the page's: freeze_limit, or oldest_xmin (vacuum_page) */
	TransactionId new_frozen_xid;	/* the oldest xmin left unfrozen */
	int64		now;			/* seconds since 1970 */
	int64		gc_grace;

	/* the containers and the column being read, across pages */
	CfPart		key;
	CfPart		sc;
	CfPart		name;
	int64		row_del;		/* newest all-visible row deletion */
	int64		sc_del;			/* newest all-visible super column deletion */
	CfRangeDels ranges;			/* the row's all-visible range tombstones */
	BlockNumber blkno;			/* the leaf being vacuumed (for damage reports) */
	bool		col_won;		/* an all-visible version of the column was met */
	int64		col_won_ts;
	int64		col_del;		/* counters: newest all-visible deletion */
	bool		col_counted;

	/* what the page being rebuilt ends with, and its right sibling's start */
	bool		page_continues; /* the page has a right sibling */
	CfPart		next_key;		/* the right sibling's first row key and sc */
	CfPart		next_sc;
	CfPart		next_name;
	bool		next_known;

	/* tombstones to remove once the pass has removed what they shadow */
	List	   *deferred;		/* of CfDeferred */

	/*
	 * Overflow chains: the first blocks of those the pages left behind refer
	 * to, and whether the pass met any long part (if not, no chain can have
	 * lost its last reference)
	 */
	CfBlockSet	heads;
	bool		saw_long;
	bool		page_long;		/* the page being vacuumed had a long part */

	/*
	 * Tree pages the pass met (leaves left linked, and internal pages once
	 * mark_internal has read them), which the reclaiming scan skips; blocks
	 * added since VACUUM began are not in it.  And the leaves the pass left
	 * empty, to unlink, and the pages met with a split a crash left
	 * unfinished, to finish.
	 */
	CfBlockSet	tree;
	CfBlockList leaves;			/* every leaf the pass met, in key order */
	CfBlockList empty;
	CfBlockList unfinished;

	/* counts */
	double		pages;
	double		live;
	double		removed;
	double		frozen;
	BlockNumber unlinked;		/* empty leaves unlinked */
	CfCompactStats compact;		/* underfull leaves compacted */
	uint64		splits_before;	/* cfSplitsFinished() when VACUUM began */
	CfReclaimStats reclaim;		/* pages freed */
	CfShrinkStats shrink;		/* pages moved and cut off */
} CfVacuum;

/* Append blkno to list (in the current memory context). */
static void
block_list_add(CfBlockList *list, BlockNumber blkno)
{
	if (list->n == list->max)
	{
		list->max = Max(64, list->max * 2);
		list->blocks = list->blocks ? repalloc(list->blocks, sizeof(BlockNumber) * list->max)
			: palloc(sizeof(BlockNumber) * list->max);
	}
	list->blocks[list->n++] = blkno;
}

/* Seconds since 1970 now. */
static int64
unix_seconds(void)
{
	return (int64) (GetCurrentTimestamp() / USECS_PER_SEC) +
		(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
}

/* Whether a part holds these bytes. */
static bool
part_is(const CfPart *p, const uint8 *bytes, int len)
{
	return p->set && p->len == len && (len == 0 || memcmp(p->bytes, bytes, len) == 0);
}

/* Make a part hold these bytes (memory of cxt, which outlives pages). */
static void
part_set(MemoryContext cxt, CfPart *p, const uint8 *bytes, int len)
{
	if (p->cap < len || p->bytes == NULL)
	{
		p->cap = Max(len, 64);
		p->bytes = p->bytes ? repalloc(p->bytes, p->cap) : MemoryContextAlloc(cxt, p->cap);
	}
	if (len > 0)
		memcpy(p->bytes, bytes, len);
	p->len = len;
	p->set = true;
}

/* The state of a version's inserting transaction, for VACUUM. */
static CfXminState
xmin_state(CfVacuum *v, const CfCell *cell)
{
	TransactionId xmin = cell->xmin;

	if (cell->flags & CF_CELL_FROZEN)
		return CF_XMIN_ALL_VISIBLE;
	if (cell->flags & CF_CELL_XMIN_INVALID)
		return CF_XMIN_ABORTED;
	if (!(cell->flags & CF_CELL_XMIN_COMMITTED))
	{
		if (TransactionIdIsCurrentTransactionId(xmin) || TransactionIdIsInProgress(xmin))
			return CF_XMIN_RUNNING;
		if (!TransactionIdDidCommit(xmin))
			return CF_XMIN_ABORTED;
	}
	return TransactionIdPrecedes(xmin, v->oldest_xmin) ? CF_XMIN_ALL_VISIBLE : CF_XMIN_RECENT;
}

/*
 * The local deletion time of a tombstone: its value's first 4 bytes,
 * big-endian seconds (a range tombstone's value goes on, cfrangedel.c).
 */
static int64
deletion_time(CfVacuum *v, const CfCell *cell)
{
	int			len;
	const uint8 *value;

	if (cfCellIsRangeDel(cell))
		value = cfCellValue(v->rel, cell, &len);
	else
	{
		value = cell->value;
		len = (cell->flags & CF_CELL_LONG_VALUE) ? 0 : cell->valuelen;
	}
	if (cfCellIsRangeDel(cell) ? len < 4 : len != 4)
		return 0;
	return ((int64) value[0] << 24) | ((int64) value[1] << 16) |
		((int64) value[2] << 8) | (int64) value[3];
}

/*
 * Whether the container or column ending with the given parts may go on
 * past this page (into its right sibling), so that a tombstone for it must
 * stay until what it shadows there is gone.  nparts: 1 row, 2 super
 * column, 3 column.
 */
static bool
goes_on(CfVacuum *v, const CfRun *run, const CfCell *cell, int nparts)
{
	if (!v->page_continues)
		return false;
	if (!v->next_known)
		return true;			/* an empty right sibling: be safe */
	if (!part_is(&v->next_key, run->key, run->keylen))
		return false;
	if (nparts >= 2 && !part_is(&v->next_sc, run->sc, run->sclen))
		return false;
	if (nparts >= 3 && !part_is(&v->next_name, cell->name, cell->namelen))
		return false;
	return true;
}

/* Whether a tombstone deleted at deltime is past gc_grace_seconds. */
static bool
past_grace(CfVacuum *v, int64 deltime)
{
	return deltime + v->gc_grace < v->now;
}

/*
 * Whether an all-visible tombstone past gc_grace_seconds goes now.  If
 * what it deletes goes on past this page, it stays for now and is removed
 * after the pass (remove_deferred), once the pass has removed what it
 * shadows there: removing it first would let a crash bring them back.
 */
static bool
gc_now(CfVacuum *v, const CfRun *run, const CfCell *cell, int nparts)
{
	CfDeferred *d;
	CfKey		k;
	MemoryContext old;

	if (!goes_on(v, run, cell, nparts))
		return true;
	old = MemoryContextSwitchTo(v->cxt);
	cfCellKey(run, cell, &k);
	d = palloc(sizeof(CfDeferred));
	cfKeyCopy(&k, &d->key, CurrentMemoryContext);
	v->deferred = lappend(v->deferred, d);
	MemoryContextSwitchTo(old);
	return false;
}

/* Enter the run's containers: reset what belongs to the previous ones. */
static void
enter_run(CfVacuum *v, const CfRun *run)
{
	if (!part_is(&v->key, run->key, run->keylen))
	{
		part_set(v->cxt, &v->key, run->key, run->keylen);
		v->row_del = CF_NO_DELETION;
		cfRangeDelsReset(&v->ranges);
		v->sc.set = false;
	}
	if (!part_is(&v->sc, run->sc, run->sclen))
	{
		part_set(v->cxt, &v->sc, run->sc, run->sclen);
		v->sc_del = CF_NO_DELETION;
		v->name.set = false;
	}
}

/* Enter a cell's column: reset the previous column's state. */
static void
enter_column(CfVacuum *v, const CfCell *cell)
{
	if (part_is(&v->name, cell->name, cell->namelen))
		return;
	part_set(v->cxt, &v->name, cell->name, cell->namelen);
	v->col_won = false;
	v->col_won_ts = 0;
	v->col_del = CF_NO_DELETION;
	v->col_counted = false;
}

/*
 * Decide the fate of one version (already entered); returns false to
 * remove it.  May rewrite *cell (an expired cell into its tombstone,
 * freezing); deltime_buf holds a rewritten tombstone's value.
 */
static bool
keep_cell(CfVacuum *v, const CfRun *run, CfCell *cell, CfXminState st, uint8 *deltime_buf)
{
	bool		tomb = (cell->flags & CF_CELL_TOMBSTONE) != 0;
	bool		counter = (cell->flags & CF_CELL_COUNTER) != 0;
	int64		container_del;

	if (st == CF_XMIN_ABORTED)
		return false;

	/* a container's tombstone */
	if (cell->namelen == 0)
	{
		bool		row = (run->sclen == 0);

		if (st == CF_XMIN_ALL_VISIBLE)
		{
			if (cfCellIsRangeDel(cell))
			{
				/* a newer deletion of the whole row shadows it (a row's versions come newest first) */
				if (cell->writetime <= v->row_del)
					return false;
				if (row && !v->info->is_super)
					cfRangeDelsAdd(&v->ranges, v->rel, v->blkno, cell);
			}
			else if (row)
				v->row_del = Max(v->row_del, cell->writetime);
			else
				v->sc_del = Max(v->sc_del, cell->writetime);
			if (past_grace(v, deletion_time(v, cell)) && gc_now(v, run, cell, row ? 1 : 2))
				return false;
		}
		return true;
	}

	container_del = Max(v->row_del, v->sc_del);
	if (v->ranges.n > 0)
		container_del = cfRangeDelsAt(&v->ranges, v->info->order.namecmp, cell->name, cell->namelen,
									  container_del);

	/* shadowed by a container's deletion (deletion wins ties) */
	if (cell->writetime <= container_del)
		return false;

	if (counter || (tomb && v->info->is_counter))
	{
		/* counters: a deletion shadows the increments not newer than it */
		if (cell->writetime <= v->col_del)
			return false;
		if (tomb && st == CF_XMIN_ALL_VISIBLE)
		{
			v->col_del = cell->writetime;
			if (past_grace(v, deletion_time(v, cell)) && gc_now(v, run, cell, 3))
				return false;
		}
		return true;
	}

	/* a lower timestamp than an all-visible version never wins */
	if (v->col_won && cell->writetime < v->col_won_ts)
		return false;

	/* an expired cell reads as a tombstone at its timestamp */
	if (!tomb && (cell->flags & CF_CELL_EXPIRING) && v->now >= (int64) cell->expires_at &&
		st == CF_XMIN_ALL_VISIBLE)
	{
		uint32		t = cell->expires_at;

		deltime_buf[0] = (uint8) (t >> 24);
		deltime_buf[1] = (uint8) (t >> 16);
		deltime_buf[2] = (uint8) (t >> 8);
		deltime_buf[3] = (uint8) t;
		cell->flags = (cell->flags & ~(CF_CELL_EXPIRING | CF_CELL_LONG_VALUE)) | CF_CELL_TOMBSTONE;
		cell->compressed = false;
		cell->value = deltime_buf;
		cell->valuelen = 4;
		cell->ttl = 0;
		cell->expires_at = 0;
		tomb = true;
	}

	if (st == CF_XMIN_ALL_VISIBLE && !v->col_won)
	{
		v->col_won = true;
		v->col_won_ts = cell->writetime;
		if (tomb && past_grace(v, deletion_time(v, cell)) && gc_now(v, run, cell, 3))
			return false;
	}
	return true;
}

/* Freeze a version kept, or note its xmin as one relfrozenxid must not pass. */
static void
freeze_cell(CfVacuum *v, CfCell *cell, CfXminState st)
{
	if (cell->flags & CF_CELL_FROZEN)
		return;
	if (st == CF_XMIN_ALL_VISIBLE && TransactionIdPrecedes(cell->xmin, v->freeze_cutoff))
	{
		cell->flags = (cell->flags & ~(CF_CELL_XMIN_COMMITTED | CF_CELL_XMIN_INVALID)) | CF_CELL_FROZEN;
		cell->xmin = FrozenTransactionId;
		cell->cmin = 0;
		v->frozen++;
		return;
	}
	if (TransactionIdIsNormal(cell->xmin) && TransactionIdPrecedes(cell->xmin, v->new_frozen_xid))
		v->new_frozen_xid = cell->xmin;
}

/*
 * Compact one run.  Returns true if it changed; *out receives the kept
 * cells (memory of the current context).
 */
static bool
compact_run(CfVacuum *v, CfRun *run, CfRun *out)
{
	CfCell	   *kept = palloc(sizeof(CfCell) * Max(run->ncells, 1));
	bool	   *allvis = palloc(sizeof(bool) * Max(run->ncells, 1));
	int			n = 0;
	bool		changed = false;

	enter_run(v, run);
	for (int i = 0; i < run->ncells; i++)
	{
		CfCell		c = run->cells[i];
		uint8	   *deltime = palloc(4);
		uint8		oldflags = c.flags;
		CfXminState st = xmin_state(v, &c);

		enter_column(v, &c);
		if (!keep_cell(v, run, &c, st, deltime))
		{
			v->removed++;
			changed = true;
			continue;
		}
		freeze_cell(v, &c, st);

		/* adjacent all-visible increments of one counter merge */
		if (n > 0 && st == CF_XMIN_ALL_VISIBLE && allvis[n - 1] &&
			(c.flags & CF_CELL_COUNTER) && !(c.flags & CF_CELL_TOMBSTONE) &&
			(kept[n - 1].flags & CF_CELL_COUNTER) && !(kept[n - 1].flags & CF_CELL_TOMBSTONE) &&
			c.valuelen == 8 && kept[n - 1].valuelen == 8 &&
			c.namelen == kept[n - 1].namelen && memcmp(c.name, kept[n - 1].name, c.namelen) == 0)
		{
			uint8	   *sum = palloc(8);
			uint64		total = (uint64) cfReadBe64(kept[n - 1].value) + (uint64) cfReadBe64(c.value);
			uint64		be = pg_hton64(total);

			memcpy(sum, &be, 8);
			kept[n - 1].value = sum;
			v->removed++;
			changed = true;
			continue;
		}
		if (c.flags != oldflags)
			changed = true;
		if (c.namelen > 0 && !(c.flags & CF_CELL_TOMBSTONE) && !v->col_counted)
		{
			v->live++;
			v->col_counted = true;
		}
		allvis[n] = (st == CF_XMIN_ALL_VISIBLE);
		kept[n++] = c;
	}
	*out = *run;
	out->cells = kept;
	out->ncells = n;
	return changed;
}

/*
 * Note the first key to the right of the page in buf (locked): that of its
 * right sibling, or of the first non-empty page after empty ones (at most
 * a few; beyond them, the key stays unknown and tombstones stay).
 */
static void
peek_right(CfVacuum *v, Buffer buf, BufferAccessStrategy strategy)
{
	BlockNumber right = CfPageGetOpaque(BufferGetPage(buf))->right;

	v->page_continues = (right != InvalidBlockNumber);
	v->next_known = false;
	for (int hops = 0; hops < 16 && right != InvalidBlockNumber; hops++)
	{
		Buffer		rbuf;
		Page		rpage;
		CfPageOpaque rop;

		/* left to right, as a split locks its pages: no deadlock */
		if (right == BufferGetBlockNumber(buf))
		{
			/* a right-link back to the page (damage): it would wait on its own lock */
			cfReachedAgain(v->rel, right);
		}
		rbuf = ReadBufferExtended(v->rel, MAIN_FORKNUM, right, RBM_NORMAL, strategy);
		LockBuffer(rbuf, BUFFER_LOCK_SHARE);
		cfCheckTreePage(v->rel, rbuf, 0);
		rpage = BufferGetPage(rbuf);
		rop = CfPageGetOpaque(rpage);
		if (PageGetMaxOffsetNumber(rpage) >= CfPageFirstData(rop))
		{
			CfKey		fk;

			cfRunFirstKey(v->rel, PageGetItem(rpage, cfPageItemId(v->rel, rpage, CfPageFirstData(rop))), &fk);
			part_set(v->cxt, &v->next_key, fk.key, fk.keylen);
			part_set(v->cxt, &v->next_sc, fk.sc, fk.sclen);
			part_set(v->cxt, &v->next_name, fk.name, fk.namelen);
			v->next_known = true;
			UnlockReleaseBuffer(rbuf);
			return;
		}
		right = rop->right;
		UnlockReleaseBuffer(rbuf);
		if (right == InvalidBlockNumber)
		{
			/* only empty pages follow: nothing goes on */
			v->page_continues = false;
			return;
		}
	}
}

/* Room for one more item in an array of n with *cap slots. */
static CfItem *
grow_items(CfItem *items, int n, int *cap)
{
	if (n < *cap)
		return items;
	*cap *= 2;
	return repalloc(items, sizeof(CfItem) * *cap);
}

/* Whether a decoded run has a part stored out of line. */
static bool
run_has_long(const CfRun *run)
{
	if (run->keyref != NULL || run->scref != NULL)
		return true;
	for (int i = 0; i < run->ncells; i++)
		if (run->cells[i].nameref != NULL || (run->cells[i].flags & CF_CELL_LONG_VALUE))
			return true;
	return false;
}

/*
 * The standby horizon of a leaf after a rebuild (see "Standbys" above):
 * the oldest xmin if versions went or were frozen before the freeze limit
 * (a standby snapshot older than the oldest xmin may still see their
 * inserting transaction as running), the later of that and the old one;
 * cleared if it is older than the freeze limit; else as it was.
 */
static TransactionId
rebuilt_horizon(CfVacuum *v, Page page, bool removed)
{
	TransactionId horizon = ((PageHeader) page)->pd_prune_xid;

	if (TransactionIdIsNormal(horizon) && TransactionIdPrecedes(horizon, v->freeze_limit))
		horizon = InvalidTransactionId;
	if (removed && (!TransactionIdIsNormal(horizon) || TransactionIdPrecedes(horizon, v->oldest_xmin)))
		horizon = v->oldest_xmin;
	return horizon;
}

/*
 * Whether the locked leaf holds part of a row that goes on into a
 * neighbour (its first row began on the leaf before, as the pass read it,
 * or its last goes on into the right sibling, peek_right) and would be
 * underfull (cfLeafUnderfullWithout) without the transaction ids of the
 * versions every snapshot sees: the bytes that freezing them would give
 * back, their runs re-encoded.  The decoded runs stay in cxt, which
 * vacuum_page resets.
 */
static bool
freezing_underfills(CfVacuum *v, Page page, MemoryContext cxt)
{
	CfPageOpaque op = CfPageGetOpaque(page);
	OffsetNumber first = CfPageFirstData(op),
				max = PageGetMaxOffsetNumber(page);
	Size		saved = 0;
	CfKey		fk,
				lk;
	MemoryContext old;

	/* the row keys first, from the first and last runs' headers: most leaves stop here */
	cfRunFirstKey(v->rel, PageGetItem(page, cfPageItemId(v->rel, page, first)), &fk);
	cfRunFirstKey(v->rel, PageGetItem(page, cfPageItemId(v->rel, page, max)), &lk);
	if (!(v->key.set && part_is(&v->key, fk.key, fk.keylen)) &&
		!(v->page_continues && v->next_known && part_is(&v->next_key, lk.key, lk.keylen)))
		return false;

	old = MemoryContextSwitchTo(cxt);
	for (OffsetNumber off = first; off <= max; off++)
	{
		ItemId		iid = cfPageItemId(v->rel, page, off);
		CfRun		run;
		bool		any = false;

		cfRunDecode(v->rel, PageGetItem(page, iid), ItemIdGetLength(iid), &run, cxt);
		for (int i = 0; i < run.ncells; i++)
		{
			CfCell	   *cell = &run.cells[i];

			if (!(cell->flags & CF_CELL_FROZEN) && xmin_state(v, cell) == CF_XMIN_ALL_VISIBLE)
			{
				cell->flags |= CF_CELL_FROZEN;
				any = true;
			}
		}
		if (any)
			saved += ItemIdGetLength(iid) - Min(ItemIdGetLength(iid), cfRunEncodedSize(&run));
	}
	MemoryContextSwitchTo(old);
	return saved > 0 && cfLeafUnderfullWithout(v->rel, page, saved);
}

/* Compact the leaf page in buf (exclusively locked), rebuilding it if anything changed. */
static void
vacuum_page(CfVacuum *v, Buffer buf, BufferAccessStrategy strategy, MemoryContext cxt)
{
	Page		page = BufferGetPage(buf);
	CfPageOpaque op = CfPageGetOpaque(page);
	OffsetNumber first = CfPageFirstData(op);
	OffsetNumber max = PageGetMaxOffsetNumber(page);
	CfItem	   *items;
	int			n = 0,
				cap;
	bool		changed = false;
	double		removed_before = v->removed,
				frozen_before = v->frozen;
	TransactionId horizon;
	MemoryContext old;

	v->blkno = BufferGetBlockNumber(buf);
	v->pages++;
	v->page_long = false;
	if (max < first)
	{
		/* an empty leaf left linked keeps no old horizon either */
		horizon = rebuilt_horizon(v, page, false);
		if (horizon != ((PageHeader) page)->pd_prune_xid)
			cfRebuildPage(v->rel, buf, InvalidBuffer, NULL, 0, &horizon);
		return;
	}
	old = MemoryContextSwitchTo(cxt);
	peek_right(v, buf, strategy);
	/*
	 * A leaf the compaction will fill (cfmerge.c) is rewritten anyway: its
	 * versions that every snapshot sees lose their xmin now, as VACUUM
	 * FREEZE would take them (2 to 6 bytes a cell), rather than at the
	 * freeze limit.  So does a leaf that freezing them would leave
	 * underfull, if a row on it goes on into a neighbour: the compaction
	 * then fills it, and the tree takes fewer leaves (a leaf 94% full of
	 * cells inserted together gives back about 5%).  A leaf of whole rows
	 * is left as it is: filling it would take the end of its left
	 * neighbour's row, which slices of that row would then read on two
	 * leaves (bench/timeline.sh's rows of 200 columns, each alone on a
	 * leaf 94% full: 2.9 shared buffers a latest-10 slice instead of 2).
	 * The leaf is stamped for standbys as if versions went.
	 */
	v->freeze_cutoff = v->freeze_limit;
	if (cf_vacuum_compact_leaves &&
		(cfLeafUnderfull(v->rel, page) || freezing_underfills(v, page, cxt)))
		v->freeze_cutoff = v->oldest_xmin;
	cap = max - first + 1;
	items = palloc(sizeof(CfItem) * cap);
	for (OffsetNumber off = first; off <= max; off++)
	{
		OffsetNumber last = off;
		ItemId		first_iid = cfPageItemId(v->rel, page, off);
		CfRun		run,
					kept;

		/* the runs of one row key and super column on this page, as one */
		cfRunDecode(v->rel, PageGetItem(page, first_iid), ItemIdGetLength(first_iid), &run, cxt);
		while (last < max)
		{
			ItemId		iid = cfPageItemId(v->rel, page, last + 1);
			CfRun		next;

			cfRunDecode(v->rel, PageGetItem(page, iid), ItemIdGetLength(iid), &next, cxt);
			if (next.keylen != run.keylen || memcmp(next.key, run.key, run.keylen) != 0 ||
				next.sclen != run.sclen || (run.sclen > 0 && memcmp(next.sc, run.sc, run.sclen) != 0))
				break;
			run.cells = repalloc(run.cells, sizeof(CfCell) * (run.ncells + next.ncells));
			memcpy(run.cells + run.ncells, next.cells, sizeof(CfCell) * next.ncells);
			run.ncells += next.ncells;
			last++;
		}

		/* chains that this pass may leave unreferenced: see mark_leaf */
		if (!v->page_long && run_has_long(&run))
			v->saw_long = v->page_long = true;
		if (!compact_run(v, &run, &kept))
		{
			/* unchanged: keep the items as they are, room to grow included */
			for (; off <= last; off++)
			{
				ItemId		iid = cfPageItemId(v->rel, page, off);

				items = grow_items(items, n, &cap);
				items[n].len = ItemIdGetLength(iid);
				items[n].data = palloc(items[n].len);
				memcpy(items[n].data, PageGetItem(page, iid), items[n].len);
				n++;
			}
			off = last;
			continue;
		}
		changed = true;
		off = last;

		/* the cells left, in runs of at most CF_RUN_MAX bytes (at least one cell) */
		for (int start = 0; start < kept.ncells;)
		{
			CfRun		chunk = kept;

			chunk.cells = kept.cells + start;
			chunk.ncells = 1;
			while (start + chunk.ncells < kept.ncells)
			{
				chunk.ncells++;
				if (cfRunEncodedSize(&chunk) > CF_RUN_MAX)
				{
					chunk.ncells--;
					break;
				}
			}
			items = grow_items(items, n, &cap);
			items[n].len = cfRunEncodedSize(&chunk);
			items[n].data = palloc(items[n].len);
			cfRunEncode(&chunk, items[n].data);
			n++;
			start += chunk.ncells;
		}
	}

	if (changed && !cfItemsFitPage(page, items, n))
	{
		/*
		 * Runs re-encoded apart from the neighbours they shared bytes with
		 * can outgrow the page: leave it as it is.  What was to be removed
		 * here stays, so no deferred tombstone may go either.
		 */
		v->deferred = NIL;
		changed = false;
	}
	/* an old horizon goes even if nothing else changes */
	horizon = rebuilt_horizon(v, page, v->removed > removed_before ||
							  (v->frozen > frozen_before &&
							   TransactionIdFollows(v->freeze_cutoff, v->freeze_limit)));
	if (horizon != ((PageHeader) page)->pd_prune_xid && cfItemsFitPage(page, items, n))
		changed = true;
	if (changed)
		cfRebuildPage(v->rel, buf, InvalidBuffer, items, n, &horizon);
	MemoryContextSwitchTo(old);
	MemoryContextReset(cxt);
}

/*
 * Remove a deferred tombstone (key: its full key) from the leaf that now
 * holds it, if it is still there and still past gc_grace_seconds.
 */
static void
remove_deferred(CfVacuum *v, const CfKey *key, MemoryContext cxt)
{
	Buffer		buf = cfDescend(v->rel, v->info, key, true, NULL, NULL, NULL);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	Page		page;
	CfItem	   *items;
	int			n,
				target = -1;
	TransactionId horizon;

	if (!BufferIsValid(buf))
	{
		MemoryContextSwitchTo(old);
		return;
	}
	page = BufferGetPage(buf);
	items = cfPageItems(v->rel, page, &n);

	/* the run that holds it: the last whose first key is at or below it */
	for (int lo = 0, hi = n; lo < hi;)
	{
		int			mid = (lo + hi) / 2;
		CfKey		fk;

		cfRunFirstKey(v->rel, items[mid].data, &fk);
		if (cfKeyCompare(&v->info->order, &fk, key) <= 0)
			lo = mid + 1, target = mid;
		else
			hi = mid;
	}
	if (target >= 0)
	{
		CfRun		run;
		int			j = 0;

		cfRunDecode(v->rel, items[target].data, items[target].len, &run, cxt);
		for (int i = 0; i < run.ncells; i++)
		{
			CfCell	   *c = &run.cells[i];
			CfKey		ck;

			cfCellKey(&run, c, &ck);
			if ((c->flags & CF_CELL_TOMBSTONE) && cfKeyCompare(&v->info->order, &ck, key) == 0 &&
				xmin_state(v, c) == CF_XMIN_ALL_VISIBLE && past_grace(v, deletion_time(v, c)))
			{
				v->removed++;
				continue;
			}
			run.cells[j++] = *c;
		}
		if (j < run.ncells)
		{
			run.ncells = j;
			if (j == 0)
			{
				memmove(&items[target], &items[target + 1], sizeof(CfItem) * (n - target - 1));
				n--;
			}
			else
			{
				items[target].len = cfRunEncodedSize(&run);
				items[target].data = palloc(items[target].len);
				cfRunEncode(&run, items[target].data);
			}
			horizon = rebuilt_horizon(v, page, true);
			cfRebuildPage(v->rel, buf, InvalidBuffer, items, n, &horizon);
		}
	}
	UnlockReleaseBuffer(buf);
	MemoryContextSwitchTo(old);
	MemoryContextReset(cxt);
}

/* ---------------------------------------------------------------------
 * Overflow chains still referenced (cfoverflow.c, "Reclaiming")
 * ---------------------------------------------------------------------
 */

/* Note the chain a stored reference (or NULL) stands for. */
static void
mark_ref(CfVacuum *v, const uint8 *ref)
{
	BlockNumber blkno;

	if (ref == NULL)
		return;
	v->saw_long = true;
	blkno = cfOverflowRefBlock(ref);
	if (blkno == InvalidBlockNumber)
		return;
	cfBlockSetGrow(&v->heads, blkno + 1);
	cfBlockSetAdd(&v->heads, blkno);
}

/* Note the chains of the key parts an index tuple (separator, high key) carries. */
static void
mark_itup(CfVacuum *v, CfIndexTuple itup)
{
	CfKey		k;

	cfIndexTupleKey(NULL, itup, &k);
	mark_ref(v, k.keyref);
	mark_ref(v, k.scref);
	mark_ref(v, k.nameref);
}

/*
 * Note the chains the locked leaf page that vacuum_page just left behind
 * refers to: its high key and its runs.  The runs are decoded again (their
 * long parts unread) only if the page had a long part before.
 */
static void
mark_leaf(CfVacuum *v, Page page, MemoryContext cxt)
{
	CfPageOpaque op = CfPageGetOpaque(page);

	if (!CfPageIsRightmost(op))
		mark_itup(v, (CfIndexTuple) PageGetItem(page, cfPageItemId(v->rel, page, CF_HIKEY)));
	if (!v->page_long)
		return;
	for (OffsetNumber off = CfPageFirstData(op); off <= PageGetMaxOffsetNumber(page); off++)
	{
		ItemId		iid = cfPageItemId(v->rel, page, off);
		CfRun		run;

		/* without the relation, long parts come back as their references */
		cfRunDecode(NULL, PageGetItem(page, iid), ItemIdGetLength(iid), &run, cxt);
		mark_ref(v, run.keyref);
		mark_ref(v, run.scref);
		for (int i = 0; i < run.ncells; i++)
		{
			mark_ref(v, run.cells[i].nameref);
			if (run.cells[i].flags & CF_CELL_LONG_VALUE)
				mark_ref(v, run.cells[i].value);
		}
	}
	MemoryContextReset(cxt);
}

/* Note the chains an internal page (share-locked) refers to. */
static void
mark_internal(CfVacuum *v, BlockNumber blkno, Page page)
{
	cfBlockSetAdd(&v->tree, blkno);
	for (OffsetNumber off = FirstOffsetNumber; off <= PageGetMaxOffsetNumber(page); off++)
		mark_itup(v, (CfIndexTuple) PageGetItem(page, cfPageItemId(v->rel, page, off)));
}

/*
 * Call visit on every internal page, each under its share lock.  Each
 * level is read left to right from its first page, after the leaf pass,
 * so a separator a split adds meanwhile is met.
 *
 * mark_internal as the visitor notes the chains the internal pages refer
 * to: separators and high keys keep copies of keys after the cells they
 * were taken from are gone.  While pages are never merged, every
 * separator is also some leaf's high key (a leaf split makes it the left
 * page's, and a later split of that page hands it on to the right half),
 * which mark_leaf notes; reading the internal levels too keeps reclaiming
 * safe without that invariant, for about one page in a hundred.
 */
static void
walk_internal(CfVacuum *v, BufferAccessStrategy strategy,
			  void (*visit) (CfVacuum *v, BlockNumber blkno, Page page))
{
	BlockNumber blkno;
	uint32		level;

	cfRelInfoRefreshRoot(v->rel, v->info);
	blkno = v->info->root;
	level = v->info->root_level;
	while (level >= 1 && blkno != InvalidBlockNumber)
	{
		BlockNumber first_child = InvalidBlockNumber;
		BlockNumber start = blkno;
		uint32		moves = 0;

		while (blkno != InvalidBlockNumber)
		{
			Buffer		buf = ReadBufferExtended(v->rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
			Page		page;
			CfPageOpaque op;

			LockBuffer(buf, BUFFER_LOCK_SHARE);
			cfCheckTreePage(v->rel, buf, level);
			page = BufferGetPage(buf);
			op = CfPageGetOpaque(page);
			visit(v, blkno, page);
			if (first_child == InvalidBlockNumber && CfPageFirstData(op) <= PageGetMaxOffsetNumber(page))
				first_child = ((CfIndexTuple) PageGetItem(page, cfPageItemId(v->rel, page, CfPageFirstData(op))))->child;
			blkno = op->right;
			UnlockReleaseBuffer(buf);
			vacuum_delay_point();
			if (blkno != InvalidBlockNumber)
				cfCountMoveRight(v->rel, &moves, start);
		}
		blkno = first_child;
		level--;
	}
}

/* ---------------------------------------------------------------------
 * Splits a crash left unfinished
 * ---------------------------------------------------------------------
 */

/* Whether the (locked) page is a tree page whose split a crash left unfinished. */
static bool
split_unfinished(Page page)
{
	CfPageOpaque op = CfPageGetOpaque(page);

	return CfPageIsCfstore(page) && (op->flags & CF_PAGE_INCOMPLETE_SPLIT) && !CfPageIsDead(op) &&
		!CfPageIsRightmost(op);
}

/* Note a (locked) page whose split a crash left unfinished. */
static void
note_unfinished(CfVacuum *v, BlockNumber blkno, Page page)
{
	if (split_unfinished(page))
		block_list_add(&v->unfinished, blkno);
}

/*
 * Finish the splits of the pages noted, unless an insert did meanwhile: a
 * descent for an insert to the page's high key reaches the page (its
 * right sibling has no downlink yet) and finishes its split (cfDescend),
 * and any other on its way, as an insert there would.
 */
static void
finish_unfinished(CfVacuum *v, BufferAccessStrategy strategy, MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);

	for (int i = 0; i < v->unfinished.n; i++)
	{
		Buffer		buf = ReadBufferExtended(v->rel, MAIN_FORKNUM, v->unfinished.blocks[i], RBM_NORMAL, strategy);
		Page		page;
		char	   *hikey = NULL;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		/* still unfinished: an insert may have finished it since */
		if (split_unfinished(page))
		{
			ItemId		iid = cfPageItemId(v->rel, page, CF_HIKEY);

			hikey = palloc(ItemIdGetLength(iid));
			memcpy(hikey, PageGetItem(page, iid), ItemIdGetLength(iid));
		}
		UnlockReleaseBuffer(buf);
		if (hikey)
		{
			CfKey		hk;
			CfStack    *stack;

			cfIndexTupleKey(v->rel, (CfIndexTuple) hikey, &hk);
			buf = cfDescend(v->rel, v->info, &hk, true, &stack, NULL, NULL);
			if (BufferIsValid(buf))
				UnlockReleaseBuffer(buf);
		}
		MemoryContextReset(cxt);
		vacuum_delay_point();
	}
	MemoryContextSwitchTo(old);
}

/* VACUUM: compact and freeze every leaf page, then update the statistics. */
void
cfVacuum(Relation rel, struct VacuumParams *params, BufferAccessStrategy strategy)
{
	BlockNumber npages = RelationGetNumberOfBlocks(rel);
	CfVacuum	v;
	MultiXactId oldest_mxact,
				multi_cutoff;
	bool		frozenxid_updated,
				minmulti_updated;
	MemoryContext cxt,
				pagecxt,
				old;
	uint32		dead_before,
				dead_now;
	uint8		dict_ref[CF_LONGREF_SIZE];

	memset(&v, 0, sizeof(v));
	v.rel = rel;
	v.info = cfRelInfo(rel);
	v.now = unix_seconds();
	v.gc_grace = cfRelationColumnFamily(rel)->gc_grace_seconds;
	(void) vacuum_set_xid_limits(rel, params->freeze_min_age, params->freeze_table_age,
								 params->multixact_freeze_min_age,
								 params->multixact_freeze_table_age,
								 &v.oldest_xmin, &oldest_mxact, &v.freeze_limit, &multi_cutoff);
	v.new_frozen_xid = v.oldest_xmin;
	v.freeze_cutoff = v.freeze_limit;
	v.row_del = v.sc_del = v.col_del = CF_NO_DELETION;
	/* the descents of the pass finish the splits they pass too: count them all */
	v.splits_before = cfSplitsFinished();

	cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore vacuum", ALLOCSET_DEFAULT_SIZES);
	pagecxt = AllocSetContextCreate(cxt, "cfstore vacuum page", ALLOCSET_DEFAULT_SIZES);
	v.cxt = cxt;
	cfRangeDelsInit(&v.ranges, cxt);
	old = MemoryContextSwitchTo(cxt);
	cfBlockSetInit(&v.heads, Max(npages, 8));
	cfBlockSetInit(&v.tree, npages);

	/*
	 * Progress, in pg_stat_progress_vacuum as heap's: "scanning heap" for the
	 * pass (heap_blks_scanned counts the leaves read, of all the blocks),
	 * "vacuuming heap" for unlinking and compacting leaves
	 * (heap_blks_vacuumed counts the leaves looked at), "performing final
	 * cleanup" for the scan for free pages and the statistics.
	 */
	pgstat_progress_start_command(PROGRESS_COMMAND_VACUUM, RelationGetRelid(rel));
	pgstat_progress_update_param(PROGRESS_VACUUM_PHASE, PROGRESS_VACUUM_PHASE_SCAN_HEAP);
	pgstat_progress_update_param(PROGRESS_VACUUM_TOTAL_HEAP_BLKS, npages);

	if (npages > 0)
	{
		Buffer		buf = cfDescend(rel, v.info, &cfMinusInfinity, true, NULL, NULL, NULL);

		while (BufferIsValid(buf))
		{
			BlockNumber right;
			Page		page = BufferGetPage(buf);
			CfPageOpaque op = CfPageGetOpaque(page);

			note_unfinished(&v, BufferGetBlockNumber(buf), page);
			vacuum_page(&v, buf, strategy, pagecxt);
			mark_leaf(&v, page, pagecxt);
			cfBlockSetAdd(&v.tree, BufferGetBlockNumber(buf));
			block_list_add(&v.leaves, BufferGetBlockNumber(buf));
			pgstat_progress_update_param(PROGRESS_VACUUM_HEAP_BLKS_SCANNED, v.leaves.n);
			right = op->right;
			/* an empty leaf: unlinked after the pass, if it still is (cffree.c) */
			if (right != InvalidBlockNumber && PageGetMaxOffsetNumber(page) < CfPageFirstData(op))
				block_list_add(&v.empty, BufferGetBlockNumber(buf));
			UnlockReleaseBuffer(buf);
			vacuum_delay_point();
			if (right == InvalidBlockNumber)
				break;
			buf = ReadBufferExtended(rel, MAIN_FORKNUM, right, RBM_NORMAL, strategy);
			LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
			cfCheckTreePage(rel, buf, 0);
			/* a right-link that leads back (damage) would loop */
			if (cfBlockSetHas(&v.tree, right))
				cfReachedAgain(rel, right);
		}
	}
	{
		ListCell   *lc;

		foreach(lc, v.deferred)
		{
			remove_deferred(&v, &((CfDeferred *) lfirst(lc))->key, pagecxt);
			vacuum_delay_point();
		}
	}
	/* the internal pages' unfinished splits too, then all of them */
	if (npages > 0)
	{
		walk_internal(&v, strategy, note_unfinished);
		finish_unfinished(&v, strategy, pagecxt);
	}

	/*
	 * The empty leaves go from the tree.  The metapage's count of dead
	 * leaves is raised first, so that a crash cannot leave dead leaves that
	 * no VACUUM looks for.
	 */
	pgstat_progress_update_param(PROGRESS_VACUUM_PHASE, PROGRESS_VACUUM_PHASE_VACUUM_HEAP);
	dead_before = cfMetaDeadPages(rel);
	dead_now = dead_before;
	if (v.empty.n > 0)
	{
		dead_now = dead_before + v.empty.n;
		cfMetaSetDeadPages(rel, dead_now);
		for (int i = 0; i < v.empty.n; i++)
		{
			if (cfUnlinkLeaf(rel, v.info, v.empty.blocks[i], strategy))
			{
				v.unlinked++;
				cfBlockSetRemove(&v.tree, v.empty.blocks[i]);
			}
			vacuum_delay_point();
		}
		if (v.unlinked == 0 && dead_before == 0)
		{
			dead_now = 0;
			cfMetaSetDeadPages(rel, 0);
		}
	}
	/* underfull leaves take runs from their left siblings (cfmerge.c) */
	if (v.leaves.n > 1 && cf_vacuum_compact_leaves)
	{
		cfCompactLeaves(rel, v.info, v.leaves.blocks, v.leaves.n, &v.tree, strategy, &v.compact);
		if (v.compact.raised_dead)
			dead_now = cfMetaDeadPages(rel);
	}
	pgstat_progress_update_param(PROGRESS_VACUUM_PHASE, PROGRESS_VACUUM_PHASE_FINAL_CLEANUP);
	/*
	 * Pages nothing reaches any more, looked for by reading the blocks that
	 * are not tree pages (cffree.c): dead leaves whenever there are some,
	 * and overflow pages no page refers to when the pass removed versions
	 * and met long parts.  A chain a failed write or a crash left without a
	 * reference goes with the next such VACUUM.  (The long names of the
	 * deferred tombstones just removed were noted: their chains go next
	 * time too.)  The same scan records the free pages in the free space
	 * map again, which is not WAL-logged: after a crash or on a promoted
	 * standby it may have lost some, which would then never be used again.
	 * So the scan also runs whenever the leaves hold no long parts, when
	 * it reads little besides the free pages themselves; with long parts
	 * it would read every overflow page, and the free pages wait for the
	 * next VACUUM that removes long parts or finds dead leaves.
	 */
	if (npages > 0 && cfDictRef(rel, dict_ref))
		mark_ref(&v, dict_ref);		/* the metapage's: the dictionary (cfcompress.c) */
	if (npages > 0 && ((v.saw_long && v.removed > 0) || dead_now > 0 || !v.saw_long))
	{
		walk_internal(&v, strategy, mark_internal);
		cfReclaimPages(rel, &v.tree, &v.heads, v.saw_long && v.removed > 0,
					   v.oldest_xmin, strategy, &v.reclaim);
		if (v.reclaim.dead_left != dead_now)
			cfMetaSetDeadPages(rel, v.reclaim.dead_left);
		/* free pages are known now: move tree pages off the end and cut it (cfshrink.c) */
		cfShrink(rel, v.info, &v.reclaim.free, v.reclaim.nfree, params, &v.shrink);
	}
	/* this backend's image of the root may name leaves freed just now */
	if (v.unlinked > 0 || v.compact.unlinked > 0 || v.reclaim.leaves_freed > 0)
		v.info->rootcopy_blkno = InvalidBlockNumber;
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);

	/* every leaf was read: nothing older than new_frozen_xid is left unfrozen */
	vac_update_relstats(rel, RelationGetNumberOfBlocks(rel), v.live, 0, false,
						npages > 0 ? v.new_frozen_xid : v.oldest_xmin, oldest_mxact,
						&frozenxid_updated, &minmulti_updated, false);
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared, v.live, v.removed);
	pgstat_progress_end_command();
	ereport((params->options & VACOPT_VERBOSE) ? INFO : DEBUG2,
			(errmsg("vacuumed cfstore table \"%s\": %.0f leaf pages, %.0f live columns, %.0f versions removed, %.0f frozen, %u empty leaves unlinked, %u leaves moved runs into their right siblings and %u more gave all and were unlinked, %u unlinked leaves and %u overflow pages freed, %u unlinked leaves still reachable, %u splits left unfinished by a crash completed, %u pages moved and %u cut off the end%s",
					RelationGetRelationName(rel), v.pages, v.live, v.removed, v.frozen, v.unlinked,
					v.compact.moved, v.compact.unlinked,
					v.reclaim.leaves_freed, v.reclaim.overflow_freed, v.reclaim.dead_left,
					(unsigned int) (cfSplitsFinished() - v.splits_before),
					v.shrink.moved, v.shrink.truncated,
					v.shrink.lock_missed ? " (the lock to cut it could not be had)" :
					v.shrink.lock_waiters ? " (stopped for a backend waiting for the table)" : "")));
}
