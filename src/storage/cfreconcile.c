/*-------------------------------------------------------------------------
 *
 * cfreconcile.c
 *	  Reconciling the cell versions a walk hands out into live columns, and
 *	  reading a container's tombstones ahead of a slice that starts inside
 *	  the container.
 *
 * The design is in src/storage/README; the rules are
 * doc/semantics.md §4-§7.  Versions of one column are adjacent, so
 * each column is resolved when the next begins.  A container's tombstones
 * (row, super column) are cells with an empty name that sort first in
 * their container.  A forward scan that starts at a container's beginning
 * meets them in the stream; a slice that starts inside it (a start bound,
 * or reversed) reads them first, from the page it lands on when that
 * page's low key shows they are on it (usually without decoding a run: the
 * container's first run shows whether it starts with one), else from the
 * pages before it, reached by left-links while the landing page stays
 * pinned (a descent when the row is long).  A row's range tombstones are
 * versions of its tombstone column (cfrangedel.c), gathered with them; a
 * column is deleted at the newest deletion of its row, its super column,
 * or a range holding its name (container_deletion).
 *
 * Memory: a slice has its own context with a child for the page being
 * read, which holds its decoded runs and the results it produced until the
 * queue of results is drained and the walk steps to the next page (and,
 * for super column slices, a child for the super column being gathered).
 * The column being reduced is kept in buffers reused from column to
 * column, so reading a cell allocates only its decoded run and, if it is
 * returned, one chunk for its name and value.  Slices are begun and
 * driven in cfslice.c; the walk is cfwalk.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "fmgr.h"
#include "utils/memutils.h"

#include "storage/cfread.h"

/* The size of the blocks results are carved from (out_bytes). */
#define CF_OUT_BLOCK 4096

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

/* Fold one visible version into the current column (doc/semantics.md §4, §6, §7). */
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
	col->xmin = cell->xmin;
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
		out->xmin = col->xmin;
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

/*
 * The deletion time that applies to the column name of the current
 * container: its row's or super column's, or a newer range tombstone's.
 */
static inline int64
container_deletion(CfSliceState *s, const uint8 *name, int len)
{
	int64		del = Max(s->row_del, s->sc_del);

	if (unlikely(s->ranges.n > 0))
		del = cfRangeDelsAt(&s->ranges, s->info->order.namecmp, name, len, del);
	return del;
}

/* Finish the column being reduced: emit it if live (not in CF_READ_SUPERS). */
void
cfColumnFinish(CfSliceState *s)
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

		if (column_resolve(s, &s->col,
						   container_deletion(s, (const uint8 *) VARDATA(s->col.name),
											  VARSIZE(s->col.name) - VARHDRSZ),
						   &out))
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
 * cfColumnFinish would resolve it, without copying it into the column
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
		cell->writetime <= container_deletion(s, cell->name, cell->namelen))
		return;
	old = MemoryContextSwitchTo(s->pagecxt);
	value = cfCellValue(s->rel, cell, &vlen);
	out = queue_push(s);
	/*
	 * Field by field: zeroing the whole cell first (a memset or a compound
	 * literal) compiles to a "rep stos", on which perf put a quarter of
	 * cfSliceFeed's samples.  out_bytes sets the pointers.
	 */
	out->writetime = cell->writetime;
	out->xmin = cell->xmin;
	out->ttl = expiring ? cell->ttl : 0;
	out->expires_at = expiring ? cell->expires_at : 0;
	out->is_counter = false;
	out_bytes(s, cell->name, cell->namelen, value, vlen, out);
	MemoryContextSwitchTo(old);
	s->items++;
}

/* CF_READ_SUPERS: finish the super column being gathered. */
void
cfGroupFinish(CfSliceState *s)
{
	int			nlive = 0;
	int			first = s->nqueue;
	MemoryContext old;

	cfColumnFinish(s);
	if (s->cursc == NULL)
		return;
	old = MemoryContextSwitchTo(s->pagecxt);
	for (int i = 0; i < s->ngroup; i++)
	{
		CfOutCell	out;

		const CfColumn *g = &s->group[i];

		if (column_resolve(s, g, container_deletion(s, (const uint8 *) VARDATA(g->name),
													VARSIZE(g->name) - VARHDRSZ), &out))
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
CfFeed
cfSliceFeed(void *arg, const CfRun *run, CfCell *cell, Buffer buf)
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

		cfColumnFinish(s);
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
		cfRangeDelsReset(&s->ranges);
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
				cfGroupFinish(s);
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
				cfColumnFinish(s);
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
			if (s->mode != CF_READ_SCAN)
				;				/* the row's markers were read ahead */
			else if (cfCellIsRangeDel(cell))
			{
				if (!s->is_super)
					cfRangeDelsAdd(&s->ranges, s->rel, BufferGetBlockNumber(buf), cell);
			}
			else if (cell->writetime > s->row_del)
				s->row_del = cell->writetime;
		}
		else if (cell->writetime > s->sc_del)
			s->sc_del = cell->writetime;
		return CF_FEED_CONTINUE;
	}

	/* a new column? */
	if (s->col.name == NULL || !bytea_eq(s->col.name, cell->name, cell->namelen))
	{
		cfColumnFinish(s);
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
/* A reading of one container's tombstones: the newest visible one's time. */
typedef struct CfMarkerScan
{
	CfSliceState *s;
	bytea	   *sc;				/* NULL: the row's markers */
	int64		del;
	bool		ended;
} CfMarkerScan;

/* Start a reading of the tombstones of the row of s, or of its super column sc. */
static void
marker_scan_init(CfMarkerScan *m, CfSliceState *s, bytea *sc)
{
	m->s = s;
	m->sc = sc;
	m->del = CF_NO_DELETION;
	m->ended = false;
}

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
	if (!cell_visible(s, cell, buf))
		return CF_FEED_CONTINUE;
	if (cfCellIsRangeDel(cell))
	{
		if (m->sc == NULL && !s->is_super)
			cfRangeDelsAdd(&s->ranges, s->rel, BufferGetBlockNumber(buf), cell);
	}
	else if (cell->writetime > m->del)
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

/* How a run opens, for a container whose tombstones are looked for (run_opens). */
typedef enum CfRunOpens
{
	CF_RUN_OTHER,
	CF_RUN_TOMBSTONE_FIRST,
	CF_RUN_CELL_FIRST
} CfRunOpens;

/*
 * Whether the run at off of a locked page belongs to the container whose
 * tombstones are at pos: CF_RUN_OTHER if not, else whether it starts with a
 * tombstone.  Only the run's first cell is read.
 */
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
 * Read into m the tombstones of the container at pos that the locked page
 * in buf holds.  A container's tombstones are its first cells, so they
 * open its first run, the first run at or after pos: unless that run is
 * the container's and starts with an empty name, there are none (m->ended)
 * and no run needs decoding.  If no run of the page is at or after pos,
 * the container starts on a later page, and m->ended stays false; so it
 * does if the tombstones go on to the page's end.
 */
static void
markers_on_page(CfSliceState *s, Buffer buf, CfMarkerScan *m, const CfKey *pos)
{
	Page		page = BufferGetPage(buf);
	MemoryContext old = MemoryContextSwitchTo(s->pagecxt);
	OffsetNumber off = CfPageFirstData(CfPageGetOpaque(page));
	CfRunOpens	opens = CF_RUN_OTHER;

	/* a page that starts with the container holds it first (rows often start their page); else search */
	if (off <= PageGetMaxOffsetNumber(page))
		opens = run_opens(s, page, off, pos);
	if (opens == CF_RUN_OTHER)
	{
		off = cfPageSearch(s->rel, s->info, page, pos, true);
		if (off <= PageGetMaxOffsetNumber(page))
			opens = run_opens(s, page, off, pos);
		else
			off = InvalidOffsetNumber;
	}
	if (opens == CF_RUN_TOMBSTONE_FIRST)
		cfScanPage(s->rel, s->info, buf, pos, false, marker_feed, m, s->pagecxt);
	else if (off != InvalidOffsetNumber)
		m->ended = true;
	MemoryContextSwitchTo(old);
	MemoryContextReset(s->pagecxt);
}

/*
 * The deletion time of the container whose tombstones are at pos, read
 * from the locked page in buf, which covers pos.
 */
static int64
page_markers(CfSliceState *s, Buffer buf, bytea *sc, const CfKey *pos)
{
	CfMarkerScan m;

	cfCheckHorizon(s->rel, BufferGetPage(buf), cfHorizonSnapshot(s->snapshot));
	marker_scan_init(&m, s, sc);
	markers_on_page(s, buf, &m, pos);
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

	marker_scan_init(&m, s, sc);
	marker_position(s, sc, &pos);
	cfWalkInit(&w, s->rel, s->info, &pos, false, s->pagecxt, s->cxt, s->snapshot);
	old = MemoryContextSwitchTo(s->pagecxt);
	for (int i = 0; i < CF_MARKER_LEFT_PAGES && left != InvalidBlockNumber; i++)
	{
		Page		page;
		CfPageOpaque op;
		OffsetNumber first;

		buf = cfWalkLeft(&w, blkno, left);
		page = BufferGetPage(buf);
		cfCheckHorizon(s->rel, page, w.horizon);
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

		markers_on_page(s, buf, &m, &pos);
		UnlockReleaseBuffer(buf);
		if (right == clean || right == InvalidBlockNumber)
			m.ended = true;
		w.started = true;
		w.next = right;
	}
	while (!m.ended && cfWalkStep(&w, marker_feed, &m, NULL, NULL))
		;
	cfWalkRelease(&w);
	return m.del;
}

/*
 * Landing callback: read the markers that are on the landing page (those at
 * or after its low key); false if some must be read from other pages.
 */
bool
cfSliceLanding(void *arg, Buffer buf, const CfKey *lowkey)
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
void
cfSliceResolve(void *arg, BlockNumber blkno, BlockNumber left)
{
	CfSliceState *s = (CfSliceState *) arg;

	if (!s->row_markers_known)
		s->row_del = read_markers(s, NULL, blkno, left);
	if (!s->sc_markers_known)
		s->sc_del = read_markers(s, s->sc, blkno, left);
	s->row_markers_known = s->sc_markers_known = s->markers_known = true;
}
