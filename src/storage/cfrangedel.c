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

/* Decode a range tombstone's value (pointing into it); damage raises. */
void
cfRangeDelDecode(Relation rel, const uint8 *value, int len, CfRangeDel *out)
{
	int			startlen;

	if (len < CF_RANGE_HEADER)
		cfCorrupt(rel, InvalidBlockNumber, "A range tombstone's value is %d bytes long.", len);
	startlen = (value[4] << 8) | value[5];
	if (startlen > len - CF_RANGE_HEADER)
		cfCorrupt(rel, InvalidBlockNumber, "A range tombstone's start (%d bytes) overruns its value (%d bytes).",
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

/* Add the range tombstone cell (cfCellIsRangeDel) to d, copying its bounds. */
void
cfRangeDelsAdd(CfRangeDels *d, Relation rel, const CfCell *cell)
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
	cfRangeDelDecode(rel, value, len, &r);
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
		d->max = 0;
	}
	d->n = 0;
}

/*
 * The deletion time of a column named name under d: the newest of floor
 * (its row's deletion) and the range tombstones of d whose range holds the
 * name.  Ranges not newer than floor are not compared.
 */
int64
cfRangeDelsAt(const CfRangeDels *d, const CfType *cmp, const uint8 *name, int len, int64 floor)
{
	int64		del = floor;

	for (int i = 0; i < d->n; i++)
	{
		const CfRangeDel *r = &d->items[i];

		if (r->writetime <= del)
			continue;
		if (cfTypeCompare(cmp, name, len, r->start, r->startlen) < 0)
			continue;
		if (r->finishlen > 0 && cfTypeCompare(cmp, name, len, r->finish, r->finishlen) > 0)
			continue;
		del = r->writetime;
	}
	return del;
}
