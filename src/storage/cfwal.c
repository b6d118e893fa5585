/*-------------------------------------------------------------------------
 *
 * cfwal.c
 *	  Hand-built Generic WAL records of the frequent page changes: a run
 *	  rewritten in place, and new items written into a page's free space.
 *
 * GenericXLogFinish compares the whole page for every change, which cost a
 * third of load time for changes of a few bytes (src/storage/README,
 * "Writes, WAL and splits").  The records here hold exactly the
 * bytes that change, in the format GenericXLogFinish produces: a delta of
 * fragments, each an offset, a length and the bytes (see
 * access/transam/generic_xlog.c).  Core's generic_redo replays them, so no
 * library is needed on a standby; that format is PostgreSQL 15's own (see
 * the version guard in cfstorage.h).  One function, emit, changes the page
 * and logs the record; the others build deltas.
 *
 * Testing.  The records come in three shapes: an item's changed bytes
 * (cfWalOverwrite), the changed ranges of a page (cfWalInstallRanges after
 * cfWalChangedRanges), and whole regions when there are more changed
 * ranges than the backend's limit (32; a test sets it to 0 with the
 * internal function _wal_max_ranges to take that path every time, which a
 * setting would do too, at the cost of registering it in every backend).  Each backend
 * counts the records of each shape it wrote (_wal_record_counts), so TAP
 * 016 can show that it replayed every shape under wal_consistency_checking.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "funcapi.h"
#include "miscadmin.h"

#include "storage/cfstorage.h"

/* Equal bytes that end a fragment of an in-place overwrite: more than a fragment's header. */
#define CF_FRAGMENT_GAP 8

PG_FUNCTION_INFO_V1(cfstore_wal_record_counts);
PG_FUNCTION_INFO_V1(cfstore_wal_max_ranges);

/* The most changed ranges logged one by one (see "Testing" above). */
static int	cf_wal_max_ranges = CF_WAL_MAX_RANGES;

/* Records this backend wrote, by shape (see "Testing" above). */
static int64 cf_wal_records[CF_WAL_NSHAPES];

/* The first position at or after i, below len, where a and b differ; len if none. */
static Size
first_difference(const char *a, const char *b, Size i, Size len)
{
	while (i + sizeof(uint64) <= len)
	{
		uint64		x,
					y;

		memcpy(&x, a + i, sizeof(x));
		memcpy(&y, b + i, sizeof(y));
		if (x != y)
			break;
		i += sizeof(uint64);
	}
	while (i < len && a[i] == b[i])
		i++;
	return i;
}

/*
 * The end of the changed range that starts at a difference at start,
 * below len: it takes in runs of fewer than CF_FRAGMENT_GAP equal bytes.
 * *next receives the next difference after it (len if none).
 */
static Size
changed_range_end(const char *a, const char *b, Size start, Size len, Size *next)
{
	Size		end = start + 1;

	for (;;)
	{
		Size		diff = first_difference(a, b, end, len);

		if (diff == len || diff - end >= CF_FRAGMENT_GAP)
		{
			*next = diff;
			return end;
		}
		end = diff + 1;
	}
}

/* Append a fragment (page offset off, len bytes from src) to a delta of dlen bytes; its new length. */
static inline Size
put_fragment(char *delta, Size dlen, OffsetNumber off, const char *src, OffsetNumber len)
{
	memcpy(delta + dlen, &off, sizeof(off));
	memcpy(delta + dlen + sizeof(off), &len, sizeof(len));
	memcpy(delta + dlen + 2 * sizeof(off), src, len);
	return dlen + 2 * sizeof(off) + len;
}

/*
 * Apply a delta (dlen bytes of fragments) to the page in buf, exclusively
 * locked, and log it as one Generic WAL record, in one critical section:
 * the record changes the page on replay exactly as it was changed here.
 */
static void
emit(Relation rel, Buffer buf, char *delta, Size dlen)
{
	Page		page = BufferGetPage(buf);

	START_CRIT_SECTION();
	for (Size at = 0; at < dlen;)
	{
		OffsetNumber frag[2];

		memcpy(frag, delta + at, sizeof(frag));
		memcpy((char *) page + frag[0], delta + at + sizeof(frag), frag[1]);
		at += sizeof(frag) + frag[1];
	}
	MarkBufferDirty(buf);
	if (RelationNeedsWAL(rel))
	{
		XLogRecPtr	recptr;

		XLogBeginInsert();
		XLogRegisterBuffer(0, buf, REGBUF_STANDARD);
		XLogRegisterBufData(0, delta, dlen);
		recptr = XLogInsert(RM_GENERIC_ID, 0);
		PageSetLSN(page, recptr);
	}
	END_CRIT_SECTION();
}

/*
 * Overwrite the bytes of item off of the page in buf (exclusively locked)
 * with the len bytes of img, and WAL-log exactly those that change;
 * computing the same delta with GenericXLogFinish would compare the whole
 * page for a few changed bytes.  An appended cell changes the run's header
 * (its cell count) and its end: two fragments, not the run from its header
 * on.
 */
void
cfWalOverwrite(Relation rel, Buffer buf, OffsetNumber off, const char *img, Size len)
{
	Page		page = BufferGetPage(buf);
	ItemId		iid = cfPageItemId(rel, page, off);
	char	   *item = PageGetItem(page, iid);
	OffsetNumber itemoff = (OffsetNumber) (item - (char *) page);
	char	   *delta = palloc(len + (len / CF_FRAGMENT_GAP + 1) * 2 * sizeof(OffsetNumber));
	Size		dlen = 0;
	Size		i = first_difference(item, img, 0, len);

	Assert(len <= ItemIdGetLength(iid));
	if (i == len)
	{
		pfree(delta);
		return;
	}
	/* the changed ranges, runs of fewer than CF_FRAGMENT_GAP equal bytes included */
	while (i < len)
	{
		Size		start = i;
		Size		end = changed_range_end(item, img, start, len, &i);

		dlen = put_fragment(delta, dlen, (OffsetNumber) (itemoff + start), img + start,
							(OffsetNumber) (end - start));
	}
	emit(rel, buf, delta, dlen);
	cf_wal_records[CF_WAL_OVERWRITE]++;
	pfree(delta);
}

/*
 * The parts of nregions byte ranges [start, end) of page where copy differs
 * from it, into out as pairs (runs of fewer than CF_FRAGMENT_GAP equal bytes
 * included); their number, or -1 if there are more than the backend's
 * limit (at most CF_WAL_MAX_RANGES).
 */
int
cfWalChangedRanges(Page page, Page copy, const uint16 *regions, int nregions, uint16 *out)
{
	int			n = 0;

	for (int r = 0; r < nregions; r++)
	{
		Size		end = regions[2 * r + 1];
		Size		i = regions[2 * r] < end
			? first_difference((char *) page, (char *) copy, regions[2 * r], end) : end;

		while (i < end)
		{
			Size		start = i;
			Size		last = changed_range_end((char *) page, (char *) copy, start, end, &i);

			if (n == cf_wal_max_ranges)
				return -1;
			out[2 * n] = (uint16) start;
			out[2 * n + 1] = (uint16) last;
			n++;
		}
	}
	return n;
}

/*
 * Install the byte ranges [start, end) of a modified copy of the page in
 * buf (exclusively locked), WAL-logging exactly them as one hand-built
 * Generic WAL record.  Ranges must cover every change; those that did not
 * change cost a few bytes.  The hole between pd_lower and pd_upper must be
 * zero in the copy, as generic_redo zeroes it.
 */
void
cfWalInstallRanges(Relation rel, Buffer buf, Page copy, const uint16 *ranges, int nranges,
				   CfWalShape shape)
{
	char	   *data = palloc(BLCKSZ + nranges * 2 * sizeof(OffsetNumber));
	Size		dlen = 0;

	for (int i = 0; i < nranges; i++)
	{
		OffsetNumber off = ranges[2 * i];
		OffsetNumber len = ranges[2 * i + 1] - ranges[2 * i];

		if (len == 0)
			continue;
		dlen = put_fragment(data, dlen, off, (char *) copy + off, len);
	}
	emit(rel, buf, data, dlen);
	pfree(data);
	cf_wal_records[shape]++;
}

/*
 * _wal_max_ranges(n): set the most changed ranges this backend's
 * insertions log one by one (0 to CF_WAL_MAX_RANGES); returns the
 * previous limit.
 */
Datum
cfstore_wal_max_ranges(PG_FUNCTION_ARGS)
{
	int32		n = PG_GETARG_INT32(0);
	int32		previous = cf_wal_max_ranges;

	if (n < 0 || n > CF_WAL_MAX_RANGES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the limit of changed ranges must be between 0 and %d", CF_WAL_MAX_RANGES)));
	cf_wal_max_ranges = n;
	PG_RETURN_INT32(previous);
}

/* _wal_record_counts(): the hand-built records this backend wrote, by shape. */
Datum
cfstore_wal_record_counts(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[CF_WAL_NSHAPES];
	bool		nulls[CF_WAL_NSHAPES] = {false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	for (int i = 0; i < CF_WAL_NSHAPES; i++)
		values[i] = Int64GetDatum(cf_wal_records[i]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
