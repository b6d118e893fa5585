/*-------------------------------------------------------------------------
 *
 * cfoverflow.c
 *	  Out-of-line storage of long row keys, names and values.
 *
 * A row key, super column or column name longer than CF_PART_INLINE bytes,
 * or a value longer than CF_VALUE_INLINE bytes, is written to a chain of
 * overflow pages of the column family's own relation, and the tree keeps a
 * reference (CF_LONGREF_SIZE bytes: length, first block, CRC-32C) where the
 * bytes would be.  The decoders in cfpage.c resolve references to the full
 * bytes, so key order, reconciliation and output never see them; only the
 * encoders and the tuple builders carry them, so that a run rewritten or a
 * separator copied from a key keeps pointing at the same chain.
 *
 * Why not TOAST: a reference may sit in a separator or a high key, which
 * outlive the transaction that wrote them (a split is not undone by an
 * abort), so the bytes must not be MVCC tuples that an abort hides.
 * Overflow pages are written once, WAL-logged as full images before the
 * reference is stored, and never changed; a reader needs no lock order
 * beyond the tree page it holds.  A crash between the two leaves an
 * unreferenced chain (space, never a wrong answer).
 *
 * Reclaiming.  A chain is garbage once no page of the tree refers to it:
 * VACUUM removed the cells that did (a version shadowed, a tombstone past
 * gc_grace_seconds, an aborted insert), or the writer never stored its
 * reference.  VACUUM collects the chains its pass finds referenced (the
 * runs and high keys of every leaf it leaves behind, then the separators
 * and high keys of every internal page, which keep copies of keys, and the
 * high keys of unlinked leaves that a backend may still reach), and
 * cfReclaimPages (cffree.c) frees every other overflow page whose writer
 * ended before VACUUM began (its transaction id, in pd_prune_xid, precedes
 * VACUUM's oldest xmin: cfOverflowReclaimable): such a writer stored its
 * references before the pass looked, and later references to an existing
 * chain are copies of ones the pass saw (items move right only,
 * separators are copied from items), while chains written meanwhile carry
 * newer ids.  A freed page is
 * marked CF_PAGE_FREE (WAL-logged) and recorded in the free space map, and
 * cfNewPage hands it out again, for a chain or a tree page.  A reference
 * to a freed page cannot be met; if it were, the page's flags and the
 * chain's checksum would make the read fail, never return other bytes.
 *
 * Page format: a standard page flagged CF_PAGE_OVERFLOW whose bytes follow
 * the page header up to pd_lower; the opaque right-link is the next page
 * of the chain; pd_prune_xid is the writer's transaction id.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "port/pg_crc32c.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"

#include "storage/cfstorage.h"

/* Bytes of one overflow page's chunk. */
#define CF_OVERFLOW_CAP (BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - MAXALIGN(sizeof(CfPageOpaqueData)))

/* A reference, decoded. */
typedef struct CfLongRef
{
	uint32		len;
	BlockNumber first;
	pg_crc32c	crc;
} CfLongRef;

StaticAssertDecl(sizeof(CfLongRef) == CF_LONGREF_SIZE, "CfLongRef must be CF_LONGREF_SIZE bytes");

/* The CRC-32C of a part's bytes. */
static pg_crc32c
part_crc(const uint8 *data, Size len)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, data, len);
	FIN_CRC32C(crc);
	return crc;
}

/*
 * Write len bytes to a new chain of overflow pages and store a reference
 * to them in ref (CF_LONGREF_SIZE bytes).  The chain is written from its
 * end, so that each page knows its successor when it is logged.
 */
void
cfOverflowWrite(Relation rel, const uint8 *data, Size len, uint8 *ref)
{
	CfLongRef	r;
	int			npages = (int) ((len + CF_OVERFLOW_CAP - 1) / CF_OVERFLOW_CAP);
	BlockNumber next = InvalidBlockNumber;
	TransactionId xid = GetCurrentTransactionId();

	if (len == 0 || len > PG_UINT32_MAX)
		elog(ERROR, "cannot store %zu bytes out of line", len);
	/* block 0 is the metapage: an empty relation gets its tree first */
	if (RelationGetNumberOfBlocks(rel) == 0)
		cfTreeEnsure(rel, cfRelInfo(rel));

	for (int i = npages - 1; i >= 0; i--)
	{
		Size		off = (Size) i * CF_OVERFLOW_CAP;
		Size		n = Min(CF_OVERFLOW_CAP, len - off);
		Buffer		buf;
		Page		page;
		CfPageOpaque op;

		CHECK_FOR_INTERRUPTS();
		buf = cfNewPage(rel);
		page = BufferGetPage(buf);

		START_CRIT_SECTION();
		cfPageInit(page, 0, CF_PAGE_OVERFLOW);
		((PageHeader) page)->pd_prune_xid = xid;
		op = CfPageGetOpaque(page);
		op->right = next;
		memcpy(PageGetContents(page), data + off, n);
		((PageHeader) page)->pd_lower = MAXALIGN(SizeOfPageHeaderData) + n;
		MarkBufferDirty(buf);
		if (RelationNeedsWAL(rel))
			log_newpage_buffer(buf, true);
		END_CRIT_SECTION();

		next = BufferGetBlockNumber(buf);
		UnlockReleaseBuffer(buf);
	}

	r.len = (uint32) len;
	r.first = next;
	r.crc = part_crc(data, len);
	memcpy(ref, &r, sizeof(r));
}

/* The first block of the chain a reference stands for. */
BlockNumber
cfOverflowRefBlock(const uint8 *ref)
{
	CfLongRef	r;

	memcpy(&r, ref, sizeof(r));
	return r.first;
}

/* The length of the bytes a reference stands for. */
Size
cfOverflowLength(const uint8 *ref)
{
	CfLongRef	r;

	memcpy(&r, ref, sizeof(r));
	return r.len;
}

/*
 * The bytes a reference stands for, read into memory allocated in the
 * current context.  The caller may hold a lock on a tree page: chains are
 * immutable, so this takes only share locks, one page at a time.
 */
uint8 *
cfOverflowRead(Relation rel, const uint8 *ref)
{
	CfLongRef	r;
	uint8	   *out;
	Size		got = 0;
	BlockNumber blkno,
				nblocks;

	memcpy(&r, ref, sizeof(r));
	out = palloc(Max(r.len, 1));
	blkno = r.first;
	nblocks = RelationGetNumberOfBlocks(rel);
	while (got < r.len)
	{
		Buffer		buf;
		Page		page;
		CfPageOpaque op;
		Size		n;

		if (blkno == InvalidBlockNumber || blkno == CF_META_BLOCK ||
			blkno >= nblocks)
			cfCorrupt(rel, r.first, "The chain of overflow pages that starts here ends after %zu of its %u bytes.",
					  got, r.len);
		buf = ReadBuffer(rel, blkno);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		op = CfPageIsCfstore(page) ? CfPageGetOpaque(page) : NULL;
		n = ((PageHeader) page)->pd_lower - MAXALIGN(SizeOfPageHeaderData);
		if (op == NULL || !(op->flags & CF_PAGE_OVERFLOW) ||
			n == 0 || n > CF_OVERFLOW_CAP || n > r.len - got)
			cfCorrupt(rel, blkno, "The page is not the overflow page a reference expects.");
		memcpy(out + got, PageGetContents(page), n);
		got += n;
		blkno = op->right;
		UnlockReleaseBuffer(buf);
	}
	if (part_crc(out, r.len) != r.crc)
		cfCorrupt(rel, r.first, "The chain of overflow pages that starts here fails its checksum.");
	return out;
}

/* cfCellValue of a value stored out of line: read into the current memory context. */
const uint8 *
cfCellValueLong(Relation rel, const CfCell *cell, int *len)
{
	Assert(cell->flags & CF_CELL_LONG_VALUE);
	if (cell->valuelen != CF_LONGREF_SIZE)
		cfCorrupt(rel, InvalidBlockNumber, "A reference to a value stored out of line is %d bytes long.", cell->valuelen);
	*len = (int) cfOverflowLength(cell->value);
	return cfOverflowRead(rel, cell->value);
}

/*
 * Whether the page is an overflow page whose writer ended before
 * oldest_xmin, so that no reference to it can appear that VACUUM's pass did
 * not see (see "Reclaiming" above): pages written before writers were
 * stamped (an invalid id) count as old.
 */
bool
cfOverflowReclaimable(Page page, TransactionId oldest_xmin)
{
	CfPageOpaque op;
	TransactionId xid = ((PageHeader) page)->pd_prune_xid;

	if (!CfPageIsCfstore(page))
		return false;
	op = CfPageGetOpaque(page);
	return (op->flags & CF_PAGE_OVERFLOW) &&
		(!TransactionIdIsNormal(xid) || TransactionIdPrecedes(xid, oldest_xmin));
}
