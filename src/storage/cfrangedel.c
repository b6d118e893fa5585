/*-------------------------------------------------------------------------
 *
 * cfrangedel.c
 *	  Range tombstones: the deletion, at one timestamp, of every column of
 *	  a row whose name lies in [start, finish] under the comparator.
 *
 * Design.  Cassandra 1.2 deletes a CQL3 row, or the rows under a partial
 * clustering prefix, with one range tombstone over the prefix, kept with
 * the row's deletion info and read before any of its columns; Cassandra
 * 2.0 deletes a Thrift slice the same way.  cfstore stores a range
 * tombstone as a version of its row's container tombstone column (the
 * empty name, which sorts first in the row, src/storage/README): a
 * tombstone cell whose value is the local deletion time (4 bytes
 * big-endian, as every tombstone's), the start's length (2 bytes
 * big-endian), the start, and the finish (an empty finish is the row's
 * end).  A row tombstone's value is the deletion time alone, so the length
 * tells the two apart (cfCellIsRangeDel).
 *
 * So every reader that already gathers a row's tombstones before its
 * columns gathers its range tombstones with them, and no other page: a
 * slice's read-ahead of its container's markers (cfreconcile.c), a scan
 * meeting them at the head of the row, VACUUM's pass (cfvacuum.c).  A
 * column is deleted at the newest of its row's deletion and of the range
 * tombstones whose range holds its name; deletion wins ties (§5).  Only
 * standard column families that do not hold counters have them (their
 * writer, cfWriteCell, refuses the others).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

/* The bytes of a range tombstone's value before its start: deletion time, start length. */
#define CF_RANGE_HEADER 6

/* Append the value of a range tombstone deleted at deltime (seconds) to buf. */
void
cfRangeDelEncode(StringInfo buf, uint32 deltime, const uint8 *start, int startlen,
				 const uint8 *finish, int finishlen)
{
	uint8		hdr[CF_RANGE_HEADER];

	Assert(startlen >= 0 && startlen <= PG_UINT16_MAX);
	hdr[0] = (uint8) (deltime >> 24);
	hdr[1] = (uint8) (deltime >> 16);
	hdr[2] = (uint8) (deltime >> 8);
	hdr[3] = (uint8) deltime;
	hdr[4] = (uint8) (startlen >> 8);
	hdr[5] = (uint8) startlen;
	appendBinaryStringInfo(buf, (const char *) hdr, CF_RANGE_HEADER);
	appendBinaryStringInfo(buf, (const char *) start, startlen);
	appendBinaryStringInfo(buf, (const char *) finish, finishlen);
}

/* Decode a range tombstone's value (pointing into it); damage raises, naming block blkno. */
void
cfRangeDelDecode(Relation rel, BlockNumber blkno, const uint8 *value, int len, CfRangeDel *out)
{
	int			startlen;

	if (len < CF_RANGE_HEADER)
		cfCorrupt(rel, blkno, "A range tombstone's value is %d bytes long.", len);
	startlen = (value[4] << 8) | value[5];
	if (startlen > len - CF_RANGE_HEADER)
		cfCorrupt(rel, blkno, "A range tombstone's start (%d bytes) overruns its value (%d bytes).",
				  startlen, len);
	out->start = value + CF_RANGE_HEADER;
	out->startlen = startlen;
	out->finish = out->start + startlen;
	out->finishlen = len - CF_RANGE_HEADER - startlen;
	out->writetime = 0;
}

/* Start an empty set of range tombstones, kept under parent. */
void
cfRangeDelsInit(CfRangeDels *d, MemoryContext parent)
{
	memset(d, 0, sizeof(*d));
	d->parent = parent;
}

/*
 * Keep in d only the ranges that share a name with [lo, hi] under cmp
 * (NULL or empty: unbounded on that side), the names a slice may read: the
 * others cannot delete what it returns.
 */
void
cfRangeDelsWindow(CfRangeDels *d, const CfType *cmp, const bytea *lo, const bytea *hi)
{
	d->wcmp = cmp;
	d->wlo = (lo != NULL && VARSIZE_ANY_EXHDR(lo) > 0) ? lo : NULL;
	d->whi = (hi != NULL && VARSIZE_ANY_EXHDR(hi) > 0) ? hi : NULL;
}

/* Whether range r shares a name with d's window (it starts at or before its end, and ends at or after its start). */
static bool
in_window(const CfRangeDels *d, const CfRangeDel *r)
{
	if (d->whi != NULL && r->startlen > 0 &&
		cfTypeCompare(d->wcmp, r->start, r->startlen,
					  (const uint8 *) VARDATA_ANY(d->whi), VARSIZE_ANY_EXHDR(d->whi)) > 0)
		return false;
	if (d->wlo != NULL && r->finishlen > 0 &&
		cfTypeCompare(d->wcmp, r->finish, r->finishlen,
					  (const uint8 *) VARDATA_ANY(d->wlo), VARSIZE_ANY_EXHDR(d->wlo)) < 0)
		return false;
	return true;
}

/*
 * Add the range tombstone cell (cfCellIsRangeDel) of block blkno to d,
 * copying its bounds, unless it is outside d's window.
 */
void
cfRangeDelsAdd(CfRangeDels *d, Relation rel, BlockNumber blkno, const CfCell *cell)
{
	MemoryContext old;
	CfRangeDel	r;
	int			len;
	const uint8 *value;
	uint8	   *copy;

	Assert(cfCellIsRangeDel(cell));
	if (d->cxt == NULL)
		d->cxt = AllocSetContextCreate(d->parent, "cfstore range tombstones", ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(d->cxt);
	value = cfCellValue(rel, cell, &len);
	cfRangeDelDecode(rel, blkno, value, len, &r);
	if (d->wcmp != NULL && !in_window(d, &r))
	{
		MemoryContextSwitchTo(old);
		return;
	}
	copy = palloc(r.startlen + r.finishlen + 1);
	memcpy(copy, r.start, r.startlen);
	memcpy(copy + r.startlen, r.finish, r.finishlen);
	r.start = copy;
	r.finish = copy + r.startlen;
	r.writetime = cell->writetime;
	if (d->n == d->max)
	{
		d->max = Max(8, d->max * 2);
		d->items = d->items ? repalloc(d->items, sizeof(CfRangeDel) * d->max)
			: palloc(sizeof(CfRangeDel) * d->max);
	}
	d->items[d->n++] = r;
	d->sorted = false;
	MemoryContextSwitchTo(old);
}

/* Forget the range tombstones of d (a new row). */
void
cfRangeDelsReset(CfRangeDels *d)
{
	if (d->cxt != NULL && d->n > 0)
	{
		MemoryContextReset(d->cxt);
		d->items = NULL;
		d->reach = NULL;
		d->max = 0;
	}
	d->n = 0;
	d->sorted = false;
}

/* Whether a range of d holds name. */
static inline bool
range_holds(const CfRangeDel *r, const CfType *cmp, const uint8 *name, int len)
{
	return cfTypeCompare(cmp, name, len, r->start, r->startlen) >= 0 &&
		(r->finishlen == 0 || cfTypeCompare(cmp, name, len, r->finish, r->finishlen) <= 0);
}

/* Whether finish a comes after finish b (an empty finish is the row's end). */
static bool
finish_after(const CfType *cmp, const CfRangeDel *a, const CfRangeDel *b)
{
	if (a->finishlen == 0 || b->finishlen == 0)
		return a->finishlen == 0 && b->finishlen != 0;
	return cfTypeCompare(cmp, a->finish, a->finishlen, b->finish, b->finishlen) > 0;
}

/* What the sort of a set's indexes compares with. */
typedef struct CfRangeSortArg
{
	const CfType *cmp;
	const CfRangeDel *items;
} CfRangeSortArg;

/* qsort_arg: indexes of ranges, by their ranges' starts. */
static int
start_cmp(const void *a, const void *b, void *arg)
{
	const CfRangeSortArg *sa = arg;
	const CfRangeDel *ra = &sa->items[*(const int *) a];
	const CfRangeDel *rb = &sa->items[*(const int *) b];

	return cfTypeCompare(sa->cmp, ra->start, ra->startlen, rb->start, rb->startlen);
}

/* The fewest ranges looked up one by one: more are sorted first. */
#define CF_RANGE_SORT_MIN 8

/*
 * Sorting is most of a slice's work once a row holds hundreds of range
 * tombstones (the rows a CQL3 partition has had deleted), and a row's set
 * seldom changes between reads.  So the backend keeps the order of the last
 * sets it sorted, each under an exact image of the set: the comparator's
 * shape, then each range's timestamp and bounds, in the order they were
 * read.  A set read again, the same in every byte, takes its order from
 * there instead of being sorted.
 */
#define CF_RANGE_ORDERS 8
#define CF_RANGE_ORDER_MAX_IMAGE (1024 * 1024)

typedef struct CfRangeOrder
{
	uint32		hash;
	Size		len;			/* of image; 0: an empty slot */
	char	   *image;
	int			n;
	int		   *perm;			/* perm[i]: the read position of the i-th by start */
	int		   *reach;			/* as CfRangeDels.reach, over the sorted order */
} CfRangeOrder;

static CfRangeOrder range_orders[CF_RANGE_ORDERS];
static int	range_order_next;
static MemoryContext range_order_cxt;

/* Append the shape of a comparator (its kinds, depth first) to buf. */
static void
type_image(StringInfo buf, const CfType *t)
{
	int			kind = (int) t->kind;

	appendBinaryStringInfo(buf, (const char *) &kind, sizeof(int));
	appendBinaryStringInfo(buf, (const char *) &t->nsub, sizeof(int));
	for (int i = 0; i < t->nsub; i++)
		type_image(buf, t->sub[i]);
}

/* The image of the set of d under comparator cmp (see CfRangeOrder). */
static void
set_image(StringInfo buf, const CfRangeDels *d, const CfType *cmp)
{
	type_image(buf, cmp);
	for (int i = 0; i < d->n; i++)
	{
		const CfRangeDel *r = &d->items[i];

		appendBinaryStringInfo(buf, (const char *) &r->writetime, sizeof(int64));
		appendBinaryStringInfo(buf, (const char *) &r->startlen, sizeof(int));
		appendBinaryStringInfo(buf, (const char *) r->start, r->startlen);
		appendBinaryStringInfo(buf, (const char *) &r->finishlen, sizeof(int));
		appendBinaryStringInfo(buf, (const char *) r->finish, r->finishlen);
	}
}

/* The order kept for this image, or NULL. */
static const CfRangeOrder *
order_find(const StringInfoData *img, uint32 hash, int n)
{
	for (int i = 0; i < CF_RANGE_ORDERS; i++)
	{
		const CfRangeOrder *o = &range_orders[i];

		if (o->len == (Size) img->len && o->hash == hash && o->n == n &&
			memcmp(o->image, img->data, img->len) == 0)
			return o;
	}
	return NULL;
}

/* Keep an order under its image, in place of the oldest kept. */
static void
order_keep(const StringInfoData *img, uint32 hash, int n, const int *perm, const int *reach)
{
	CfRangeOrder *o;

	if (img->len > CF_RANGE_ORDER_MAX_IMAGE)
		return;
	if (range_order_cxt == NULL)
		range_order_cxt = AllocSetContextCreate(TopMemoryContext, "cfstore range tombstone orders",
												ALLOCSET_SMALL_SIZES);
	o = &range_orders[range_order_next];
	range_order_next = (range_order_next + 1) % CF_RANGE_ORDERS;
	if (o->len > 0)
	{
		pfree(o->image);
		pfree(o->perm);
		pfree(o->reach);
		o->len = 0;
	}
	o->image = MemoryContextAlloc(range_order_cxt, img->len);
	o->perm = MemoryContextAlloc(range_order_cxt, sizeof(int) * n);
	o->reach = MemoryContextAlloc(range_order_cxt, sizeof(int) * n);
	memcpy(o->image, img->data, img->len);
	memcpy(o->perm, perm, sizeof(int) * n);
	memcpy(o->reach, reach, sizeof(int) * n);
	o->hash = hash;
	o->n = n;
	o->len = img->len;
}

/*
 * Sort the ranges of d by start and note, for each, the furthest finish up
 * to it; or take both from the order kept for the same set.
 */
static void
ranges_sort(CfRangeDels *d, const CfType *cmp)
{
	MemoryContext old = MemoryContextSwitchTo(d->cxt);
	StringInfoData img;
	uint32		hash;
	const CfRangeOrder *kept;
	int		   *perm;
	int		   *reach = palloc(sizeof(int) * d->n);
	CfRangeDel *sorted = palloc(sizeof(CfRangeDel) * d->n);

	initStringInfo(&img);
	set_image(&img, d, cmp);
	hash = hash_bytes((const unsigned char *) img.data, img.len);
	kept = order_find(&img, hash, d->n);
	if (kept != NULL)
	{
		perm = kept->perm;
		memcpy(reach, kept->reach, sizeof(int) * d->n);
	}
	else
	{
		CfRangeSortArg arg = {cmp, d->items};

		perm = palloc(sizeof(int) * d->n);
		for (int i = 0; i < d->n; i++)
			perm[i] = i;
		qsort_arg(perm, d->n, sizeof(int), start_cmp, &arg);
		for (int i = 0; i < d->n; i++)
			reach[i] = (i == 0 || finish_after(cmp, &d->items[perm[i]], &d->items[perm[reach[i - 1]]]))
				? i : reach[i - 1];
		order_keep(&img, hash, d->n, perm, reach);
	}
	for (int i = 0; i < d->n; i++)
		sorted[i] = d->items[perm[i]];
	d->items = sorted;
	d->max = d->n;
	d->reach = reach;
	d->sorted = true;
	pfree(img.data);
	MemoryContextSwitchTo(old);
}

/*
 * The deletion time of a column named name under d: the newest of floor
 * (its row's deletion) and the range tombstones of d whose range holds the
 * name.  Ranges not newer than floor are not compared.  Many ranges (the
 * rows a CQL3 partition has had deleted) are sorted by start at the first
 * lookup: then only those that start at or before the name are looked at,
 * from the last one back, and only while one of them reaches the name.
 */
int64
cfRangeDelsAt(CfRangeDels *d, const CfType *cmp, const uint8 *name, int len, int64 floor)
{
	int64		del = floor;
	int			lo = 0,
				hi;

	if (d->n < CF_RANGE_SORT_MIN)
	{
		for (int i = 0; i < d->n; i++)
			if (d->items[i].writetime > del && range_holds(&d->items[i], cmp, name, len))
				del = d->items[i].writetime;
		return del;
	}
	if (!d->sorted)
		ranges_sort(d, cmp);
	/* hi: how many ranges start at or before the name */
	hi = d->n;
	while (lo < hi)
	{
		int			mid = (lo + hi) / 2;

		if (cfTypeCompare(cmp, d->items[mid].start, d->items[mid].startlen, name, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo - 1; i >= 0; i--)
	{
		const CfRangeDel *far = &d->items[d->reach[i]];

		/* no range up to i reaches the name */
		if (far->finishlen > 0 && cfTypeCompare(cmp, name, len, far->finish, far->finishlen) > 0)
			break;
		if (d->items[i].writetime > del &&
			(d->items[i].finishlen == 0 ||
			 cfTypeCompare(cmp, name, len, d->items[i].finish, d->items[i].finishlen) <= 0))
			del = d->items[i].writetime;
	}
	return del;
}
