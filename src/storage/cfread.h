/*-------------------------------------------------------------------------
 *
 * cfread.h
 *	  What the files of the read path share, and nothing else includes:
 *	  the walk over leaf pages (cfwalk.c), the read descent (cfsearch.c),
 *	  and the state of a slice being reconciled (cfreconcile.c, cfslice.c).
 *
 * The design of reads is in src/storage/README ("The tree") and in the
 * file comments of cfwalk.c (walking pages, either direction) and
 * cfreconcile.c (reducing versions into live columns, container
 * tombstones).  cfstorage.h is the storage layer's public header; this one
 * is private to the read files.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFREAD_H
#define CFREAD_H

#include "access/xlog.h"

#include "storage/cfstorage.h"

/*
 * Functions the read files call in one another, on the path of every
 * slice: hidden from other libraries, so that the calls are direct, as
 * calls of a file's static functions are, not through the procedure
 * linkage table that calls of the library's exported functions go through.
 */
#define CF_READ_INTERNAL __attribute__((visibility("hidden")))

/* What a consumer of the cells a walk hands out answers. */
typedef enum CfFeed
{
	CF_FEED_CONTINUE,
	CF_FEED_STOP
} CfFeed;

/* A consumer: handed each cell version of a run, with the locked leaf's buffer. */
typedef CfFeed (*CfFeedFn) (void *arg, const CfRun *run, CfCell *cell, Buffer buf);

/*
 * Ask for bytes from to end of a page, from the lowest address up.  A leaf
 * page is seldom in the processor's cache when a read reaches it, and
 * decoding a run waits on memory every other cell.  Asked for all at once,
 * in address order (which the processor's own prefetcher follows), the
 * lines arrive together while the first run is decoded.  Only what the
 * read will use is asked for (see prefetch_runs in cfwalk.c): the
 * processor keeps a handful of lines in flight, and the rest of a request
 * waits for them, so asking for a whole leaf made a 100-column slice of
 * the timeline benchmark (half a leaf) wait for the other half too.
 */
static pg_attribute_always_inline void
prefetch_page(Page page, Size from, Size end)
{
	for (Size at = TYPEALIGN_DOWN(64, from); at < end; at += 64)
		__builtin_prefetch((const char *) page + at);
}

/*
 * A leaf page passed on the way down, next to the landing page on its left
 * as far as the descent saw, with its low key: see read_markers in
 * cfreconcile.c.
 */
typedef struct CfLeftLeaf
{
	BlockNumber blkno;			/* InvalidBlockNumber: unknown */
	CfKey		lowkey;
} CfLeftLeaf;

/* A walk over leaf pages. */
typedef struct CfWalk
{
	Relation	rel;
	CfRelInfo  *info;
	bool		backward;
	bool		started;
	bool		finished;
	CfKey		start;			/* where the first page is read from */
	CfKey		end;			/* no key beyond it (forward: above; backward: below) is wanted (has_end) */
	bool		has_end;
	bool		has_start;
	BlockNumber next;			/* forward: next page; backward: the page just read */
	BlockNumber prev;			/* backward: its left-link when read */
	MemoryContext pagecxt;		/* decoded runs, reset per page */
	MemoryContext keycxt;		/* the landing page's low key */
	CfKey		lowkey;
	CfLeftLeaf	left;			/* the landing page's left neighbour, as the descent saw it */
	uint64		pages;			/* pages read */
	Buffer		held;			/* the page read last, pinned until the next is locked */
	/*
	 * On a standby (horizon set): forward, a copy of the high key of the page
	 * read last; backward, of its first run (seen_len 0: it had none); in
	 * keycxt (see check_moved in cfwalk.c)
	 */
	char	   *seen;
	Size		seen_len;
	Size		seen_cap;
	bool		seen_valid;
	Snapshot	horizon;		/* on a standby: the snapshot leaves' horizons are checked against */
	/* forward: the first block read, then all, an open-addressing set in keycxt (see note_read) */
	BlockNumber first_read;
	BlockNumber *read;
	uint32		read_cap;		/* a power of 2, or 0 before the second page */
	uint32		nread;
} CfWalk;

/*
 * A walk's landing callback and the resolver of what it could not find on
 * the landing page (see cfWalkStep).
 */
typedef bool (*CfLandFn) (void *arg, Buffer buf, const CfKey *lowkey);
typedef void (*CfResolveFn) (void *arg, BlockNumber blkno, BlockNumber left);

/*
 * The snapshot whose reads must check the standby horizons of the leaves
 * (see "Standbys" in cfvacuum.c), or NULL: an MVCC snapshot on a standby.
 */
static inline Snapshot
cfHorizonSnapshot(Snapshot snapshot)
{
	if (snapshot != NULL && snapshot->snapshot_type == SNAPSHOT_MVCC && RecoveryInProgress())
		return snapshot;
	return NULL;
}

/* cfwalk.c */
extern CF_READ_INTERNAL OffsetNumber cfPageSearch(Relation rel, CfRelInfo *info, Page page, const CfKey *pos,
												  bool backward);
extern CF_READ_INTERNAL bool cfScanPage(Relation rel, CfRelInfo *info, Buffer buf, const CfKey *from,
										bool backward, CfFeedFn fn, void *arg, MemoryContext cxt);
extern CF_READ_INTERNAL void cfCheckHorizon(Relation rel, Page page, Snapshot snapshot);
extern CF_READ_INTERNAL void cfWalkInit(CfWalk *w, Relation rel, CfRelInfo *info, const CfKey *start,
										bool backward, MemoryContext pagecxt, MemoryContext keycxt,
										Snapshot snapshot);
extern CF_READ_INTERNAL Buffer cfWalkLeft(CfWalk *w, BlockNumber blkno, BlockNumber left);
extern CF_READ_INTERNAL void cfWalkRelease(CfWalk *w);
extern CF_READ_INTERNAL void cfWalkSetEnd(CfWalk *w, const CfKey *end);
extern CF_READ_INTERNAL bool cfWalkStep(CfWalk *w, CfFeedFn fn, void *arg, CfLandFn landing,
										CfResolveFn resolve);

/* cfsearch.c */
extern CF_READ_INTERNAL Buffer cfReadDescend(Relation rel, CfRelInfo *info, const CfKey *key, CfKey *lowkey,
											 MemoryContext lowcxt, CfLeftLeaf *left);

/* A column's versions, reduced as they arrive. */
typedef struct CfColumn
{
	bytea	   *name;
	bool		any;			/* a visible version was seen */
	/* standard columns: the winner so far (doc/semantics.md §4) */
	bool		tomb;			/* winner is a tombstone or expired */
	int64		ts;
	TransactionId xmin;			/* the winner's inserting transaction */
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
	CfRemoteSlice *remote;		/* not NULL: the cells come from there (cfSliceRemote) */
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
	CfRangeDels ranges;			/* the row's visible range tombstones (cfrangedel.c) */

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

/* No deletion of a column or container: below every timestamp. */
#define CF_NO_DELETION PG_INT64_MIN

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

/* cfreconcile.c */
extern CF_READ_INTERNAL void cfColumnFinish(CfSliceState *s);
extern CF_READ_INTERNAL void cfGroupFinish(CfSliceState *s);
extern CF_READ_INTERNAL CfFeed cfSliceFeed(void *arg, const CfRun *run, CfCell *cell, Buffer buf);
extern CF_READ_INTERNAL bool cfSliceLanding(void *arg, Buffer buf, const CfKey *lowkey);
extern CF_READ_INTERNAL void cfSliceResolve(void *arg, BlockNumber blkno, BlockNumber left);

#endif							/* CFREAD_H */
