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

/* Add the range tombstone cell (cfCellIsRangeDel) of block blkno to d, copying its bounds. */
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

/* qsort_arg: ranges by start. */
static int
start_cmp(const void *a, const void *b, void *arg)
{
	const CfRangeDel *ra = a;
	const CfRangeDel *rb = b;

	return cfTypeCompare((const CfType *) arg, ra->start, ra->startlen, rb->start, rb->startlen);
}

/* The fewest ranges looked up one by one: more are sorted first. */
#define CF_RANGE_SORT_MIN 8

/* Sort the ranges of d by start and note, for each, the furthest finish up to it. */
static void
ranges_sort(CfRangeDels *d, const CfType *cmp)
{
	MemoryContext old = MemoryContextSwitchTo(d->cxt);

	qsort_arg(d->items, d->n, sizeof(CfRangeDel), start_cmp, (void *) cmp);
	d->reach = d->reach ? repalloc(d->reach, sizeof(int) * d->max) : palloc(sizeof(int) * d->max);
	for (int i = 0; i < d->n; i++)
		d->reach[i] = (i == 0 || finish_after(cmp, &d->items[i], &d->items[d->reach[i - 1]]))
			? i : d->reach[i - 1];
	d->sorted = true;
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
