/*-------------------------------------------------------------------------
 *
 * cfslice.c
 *	  Reading: slices of a row, whole-relation scans, row keys in order and
 *	  ANALYZE samples, on top of the walk over leaf pages (cfwalk.c) and
 *	  the reconciliation of cell versions (cfreconcile.c).
 *
 * The design is in src/storage/README.  A slice or scan is a walk whose
 * consumer reconciles versions into live columns and queues them; the
 * caller drains the queue, and the walk steps to the next page when it is
 * empty.  The row key and sample readers hand a page's cells to consumers
 * of their own.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "storage/cfread.h"

/* Seconds since 1970 now. */
static int64
unix_now(void)
{
	return (int64) (GetCurrentTimestamp() / USECS_PER_SEC) +
		(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
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
	cfRangeDelsInit(&s->ranges, cxt);
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
	const CfRemoteStorage *remote = cfRemoteStorage(rel);

	if (remote != NULL)
		return remote->slice_begin(rel, cfRelationColumnFamily(rel), spec);
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
	/* the row's range tombstones that can delete what the slice reads */
	if (s->mode == CF_READ_COLUMNS && !s->is_super)
		cfRangeDelsWindow(&s->ranges, s->info->order.namecmp,
						  s->backward ? s->finish : s->start, s->backward ? s->start : s->finish);
	if (s->count <= 0)
		s->done = true;
	slice_start(s, &pos);
	cfWalkInit(&s->walk, rel, s->info, &pos, s->backward, s->pagecxt, s->cxt, snapshot);
	{
		/*
		 * Nothing past the row's end (forward) or before its start
		 * (backward): the walk stops at a high key above it, or at a
		 * landing page whose low key is at or below it.
		 */
		CfKey		end;

		memset(&end, 0, sizeof(end));
		end.key = (const uint8 *) VARDATA_ANY(s->key);
		end.keylen = VARSIZE_ANY_EXHDR(s->key);
		end.nparts = 1;
		end.bound = s->backward ? -1 : 1;
		cfWalkSetEnd(&s->walk, &end);
	}
	MemoryContextSwitchTo(old);
	return s;
}

/* A slice whose cells come from remote (see CfRemoteSlice). */
CfSliceState *
cfSliceRemote(Relation rel, CfRemoteSlice *remote)
{
	CfSliceState *s = palloc0(sizeof(CfSliceState));

	s->remote = remote;
	s->rel = rel;
	return s;
}

/* The next live item of a slice into out; false when there are no more. */
bool
cfSliceNext(CfSliceState *s, CfOutCell *out)
{
	if (unlikely(s->remote != NULL))
		return s->remote->next(s->remote, out);
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
			bool		more = cfWalkStep(&s->walk, cfSliceFeed, s, cfSliceLanding, cfSliceResolve);

			if (!more)
			{
				/* the walk is over: resolve what is still open */
				if (s->mode == CF_READ_SUPERS)
				{
					if (s->items < s->count)
						cfGroupFinish(s);
				}
				else if (s->items < s->count)
					cfColumnFinish(s);
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
	if (s->remote != NULL)
	{
		s->remote->end(s->remote);
		pfree(s);
		return;
	}
	cfWalkRelease(&s->walk);
	MemoryContextDelete(s->cxt);
}

/* ---------------------------------------------------------------------
 * Whole-relation scans
 * ---------------------------------------------------------------------
 */
struct CfRelScanState
{
	CfSliceState *s;
};

/* Begin a scan of every live column. */
CfRelScanState *
cfRelScanBegin(Relation rel, Snapshot snapshot)
{
	CfRelScanState *scan = palloc0(sizeof(CfRelScanState));
	MemoryContext old;
	const CfRemoteStorage *remote = cfRemoteStorage(rel);

	if (remote != NULL)
	{
		scan->s = remote->scan_begin(rel, cfRelationColumnFamily(rel));
		return scan;
	}
	scan->s = state_create(rel, snapshot, CF_READ_SCAN, false);
	old = MemoryContextSwitchTo(scan->s->cxt);
	cfWalkInit(&scan->s->walk, rel, scan->s->info, NULL, false, scan->s->pagecxt, scan->s->cxt, snapshot);
	scan->s->markers_known = true;
	MemoryContextSwitchTo(old);
	return scan;
}

/* The next live column of a scan. */
bool
cfRelScanNext(CfRelScanState *scan, CfOutCell *out)
{
	return cfSliceNext(scan->s, out);
}

/* End a scan. */
void
cfRelScanEnd(CfRelScanState *scan)
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
	MemoryContext cxt;
	MemoryContext pagecxt;
	MemoryContext caller;
	CfWalk		w;
	CfKey		pos;
	CfRowKeys	rk;
	const CfRemoteStorage *remote = cfRemoteStorage(rel);

	Assert(max > 0);
	if (remote != NULL)
		return remote->next_row_keys(rel, cfRelationColumnFamily(rel), from, inclusive, keys, max);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore row keys", ALLOCSET_SMALL_SIZES);
	pagecxt = AllocSetContextCreate(cxt, "cfstore page", ALLOCSET_DEFAULT_SIZES);
	caller = MemoryContextSwitchTo(cxt);
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
	cfWalkInit(&w, rel, cfRelInfo(rel), from != NULL ? &pos : NULL, false, pagecxt, cxt,
			  ActiveSnapshotSet() ? GetActiveSnapshot() : NULL);
	while (rk.n == 0 && cfWalkStep(&w, rowkey_feed, &rk, NULL, NULL))
		CHECK_FOR_INTERRUPTS();
	cfWalkRelease(&w);
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(cxt);
	return rk.n;
}

/* ---------------------------------------------------------------------
 * ANALYZE samples
 * ---------------------------------------------------------------------
 */

/* What a page sample collects (sample_feed). */
typedef struct CfSample
{
	Relation	rel;
	Snapshot	snapshot;
	CfOutCell  *cells;
	int			n;
	int			max;
	int64		now;
} CfSample;

/* Consumer for a page sample: every column's newest visible live version. */
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
	o->xmin = cell->xmin;
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
		cfScanPage(rel, info, buf, NULL, false, sample_feed, &sm, cxt);
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

