/*-------------------------------------------------------------------------
 *
 * cfstorage.h
 *	  The cfstore table access method: page layout, keys, cell runs, the
 *	  B+tree operations and the slice reader.
 *
 * The design is in src/storage/README.  In short: one relation per column
 * family, a B+tree whose leaf items are *runs* (one row key and super
 * column followed by a packed, sorted sequence of cell versions), internal
 * items are (separator key, child block), every page has a right-link and a
 * high key (Lehman-Yao), leaf pages also a left-link.  Every page change is
 * Generic WAL.
 *
 * Key order: row key (unsigned bytes), super column (comparator), column
 * name (comparator, or subcomparator inside a super column), then version
 * (writetime descending).  The empty name marks a container's tombstones:
 * (key, '', '') is a row tombstone, (key, sc, '') a super column tombstone;
 * real names are never empty, and the empty value sorts first under every
 * comparator, so a container's tombstones come before its cells.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFSTORAGE_H
#define CFSTORAGE_H

#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/transam.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

#include "catalog/cfcatalog.h"
#include "marshal/cftype.h"

/*
 * The storage engine is written against PostgreSQL 15: RelFileNode (16
 * renamed it), and delta records in generic_xlog.c's private format
 * (cfwal.c), which 16 may change.  Refuse to build elsewhere rather
 * than miscompile or write records another server misreads.
 */
#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 160000
#error "cfstore builds against PostgreSQL 15 only: point PG_CONFIG at PostgreSQL 15's pg_config"
#endif

/* ---------------------------------------------------------------------
 * Pages
 * ---------------------------------------------------------------------
 */
#define CF_META_BLOCK		0
#define CF_META_MAGIC		0xCF5700E1
#define CF_FORMAT_VERSION	1
#define CF_PAGE_ID			0xCF57		/* in every page's special space */

/* Special space of every cfstore page. */
typedef struct CfPageOpaqueData
{
	BlockNumber left;			/* left sibling (leaf pages), or Invalid */
	BlockNumber right;			/* right sibling, or Invalid if rightmost */
	uint16		level;			/* 0 = leaf */
	uint16		flags;
	uint16		garbage;		/* bytes of dead run images in the data area */
	uint16		page_id;		/* CF_PAGE_ID */
} CfPageOpaqueData;

typedef CfPageOpaqueData *CfPageOpaque;

#define CF_PAGE_META			0x0001
#define CF_PAGE_LEAF			0x0002
#define CF_PAGE_ROOT			0x0004
#define CF_PAGE_INCOMPLETE_SPLIT 0x0008	/* right sibling has no downlink yet */
#define CF_PAGE_OVERFLOW		0x0010	/* a page of an out-of-line chain (cfoverflow.c) */
#define CF_PAGE_FREE			0x0020	/* a reclaimed page, in the free space map */
#define CF_PAGE_DEAD			0x0040	/* an unlinked empty leaf (cffree.c); pd_prune_xid: when */

#define CfPageGetOpaque(page) ((CfPageOpaque) PageGetSpecialPointer(page))

/*
 * Whether page is a cfstore page: not new, cfstore's special space and
 * page id.  Test it before CfPageGetOpaque on a page that may be new (all
 * zeroes) or foreign: the special pointer of one is not valid.
 */
static inline bool
CfPageIsCfstore(Page page)
{
	return !PageIsNew(page) &&
		((PageHeader) page)->pd_special == BLCKSZ - MAXALIGN(sizeof(CfPageOpaqueData)) &&
		CfPageGetOpaque(page)->page_id == CF_PAGE_ID;
}
#define CfPageIsRightmost(op) ((op)->right == InvalidBlockNumber)
#define CfPageIsDead(op) (((op)->flags & CF_PAGE_DEAD) != 0)
/* item 1 is the high key unless the page is rightmost (as nbtree's P_HIKEY) */
#define CF_HIKEY ((OffsetNumber) 1)
#define CfPageFirstData(op) (CfPageIsRightmost(op) ? FirstOffsetNumber : OffsetNumberNext(CF_HIKEY))

/* The largest run image; a run is rewritten whole when a cell is added. */
#define CF_RUN_MAX			480
/*
 * Row keys, super columns and names longer than CF_PART_INLINE bytes, and
 * values longer than CF_VALUE_INLINE, are stored out of line and referred
 * to by CF_LONGREF_SIZE bytes (cfoverflow.c).  So a stored key is at most
 * CF_KEY_MAX bytes and a run of one cell fits a third of a page.
 */
#define CF_PART_INLINE		340
#define CF_VALUE_INLINE		2000
#define CF_LONGREF_SIZE		12
#define CF_KEY_MAX			(3 * CF_PART_INLINE)
#define CfPartIsLong(len)	((len) > CF_PART_INLINE)

/* Contents of the metapage (block 0), after the page header. */
typedef struct CfMetaPageData
{
	uint32		magic;
	uint32		version;
	BlockNumber root;
	uint32		root_level;
	int32		cf_id;			/* the column family (cfstore.column_family.id) */
	uint32		dead_pages;		/* unlinked leaves not yet reclaimed (cffree.c) */
	uint64		live_cells;		/* unused, zero: the planner reads pg_class.reltuples */
	/*
	 * The dictionary of the values compressed with lz4 (cfcompress.c): a
	 * reference to an overflow chain, set once, never changed; all zeroes
	 * while there is none.  (Metapages of older builds end before it, and
	 * read as zeroes there.)
	 */
	uint8		dict_ref[CF_LONGREF_SIZE];
} CfMetaPageData;

#define CfPageGetMeta(page) ((CfMetaPageData *) PageGetContents(page))


/* ---------------------------------------------------------------------
 * Keys
 * ---------------------------------------------------------------------
 */

/*
 * A position in key order.  A full key has nparts = 4 and bound = 0.  A
 * prefix key gives the first nparts of (row key, super column, name,
 * version) and bound -1 (before every key with that prefix) or +1 (after
 * them).  nparts = 0 with bound -1 / +1 is minus / plus infinity.
 */
typedef struct CfKey
{
	const uint8 *key;
	int			keylen;
	const uint8 *sc;
	int			sclen;
	const uint8 *name;
	int			namelen;
	int64		writetime;
	int8		nparts;
	int8		bound;
	/* stored references of the parts longer than CF_PART_INLINE, else NULL */
	const uint8 *keyref;
	const uint8 *scref;
	const uint8 *nameref;
} CfKey;

/* The comparators a relation orders by. */
typedef struct CfOrder
{
	const CfType *sccmp;		/* super column names (NULL in Standard CFs) */
	const CfType *namecmp;		/* column or subcolumn names */
} CfOrder;

extern int	cfKeyCompare(const CfOrder *order, const CfKey *a, const CfKey *b);

/* Minus infinity, as a position (cfpage.c). */
extern const CfKey cfMinusInfinity;

/* ---------------------------------------------------------------------
 * Cells and runs
 * ---------------------------------------------------------------------
 */
#define CF_CELL_TOMBSTONE		0x01	/* deletion marker; value = local deletion time */
#define CF_CELL_EXPIRING		0x02	/* ttl and expiry follow */
#define CF_CELL_COUNTER			0x04	/* value = 8-byte counter delta */
#define CF_CELL_FROZEN			0x08	/* no xmin/cmin: visible to everyone */
#define CF_CELL_XMIN_COMMITTED	0x10	/* hint */
#define CF_CELL_XMIN_INVALID	0x20	/* hint: inserting transaction aborted */
#define CF_CELL_LONG_NAME		0x40	/* the stored name is a reference */
#define CF_CELL_LONG_VALUE		0x80	/* the value is a reference */

/*
 * One cell version, decoded.  The name is the full name (nameref is its
 * stored reference if it is long); the value is as stored: with
 * CF_CELL_LONG_VALUE, a reference that cfCellValue resolves.
 */
typedef struct CfCell
{
	const uint8 *name;
	int			namelen;
	const uint8 *value;
	int			valuelen;
	int64		writetime;
	int32		ttl;
	uint32		expires_at;		/* seconds since 1970 */
	TransactionId xmin;
	CommandId	cmin;
	uint8		flags;
	bool		compressed;		/* value is a compressed form (cfcompress.c) */
	uint8	   *flagsp;			/* decoded: the flag byte in the item, for hints */
	const uint8 *nameref;		/* with CF_CELL_LONG_NAME */
} CfCell;

/*
 * A compressed value is stored with CF_VALUE_COMPRESSED added to its
 * length varint (an inline value is never that long), so the flag byte,
 * which is full, need not say so.  With CF_CELL_LONG_VALUE the compressed
 * form is what the chain holds.
 */
#define CF_VALUE_COMPRESSED		0x4000

/* A run being built or decoded. */
typedef struct CfRun
{
	const uint8 *key;
	int			keylen;
	const uint8 *sc;
	int			sclen;
	int			ncells;
	CfCell	   *cells;
	bool		timeuuid_names; /* store names in time-major order (TimeUUIDType) */
	Size		used;			/* decoded: bytes of the item the run uses */
	const uint8 *keyref;		/* stored references of long key and sc, else NULL */
	const uint8 *scref;
} CfRun;

/* Header of a run item on a leaf page (cells follow the key and sc). */
typedef struct CfRunHeader
{
	uint16		keylen;
	uint16		sclen;
	uint16		ncells;
	uint16		flags;			/* CF_RUN_* */
	int64		basewt;			/* the first cell's writetime */
} CfRunHeader;

#define CF_RUN_TIMEUUID_NAMES	0x0001
#define CF_RUN_LONG_KEY			0x0002	/* the stored key is a reference */
#define CF_RUN_LONG_SC			0x0004	/* the stored super column is a reference */

/* Header of an internal page item and of a high key. */
typedef struct CfIndexTupleData
{
	BlockNumber child;
	uint16		keylen;
	uint16		sclen;
	uint16		namelen;
	int8		nparts;
	int8		bound;
	uint16		flags;			/* CF_ITUP_LONG_*: which parts are references */
	int64		writetime;
	/* key, sc, name bytes (or references) follow */
} CfIndexTupleData;

extern void cfCorrupt(Relation rel, BlockNumber blkno, const char *detail,...)
			pg_attribute_printf(3, 4) pg_attribute_noreturn();
extern void cfCorruptHint(Relation rel, BlockNumber blkno, const char *hint, const char *detail,...)
			pg_attribute_printf(4, 5) pg_attribute_noreturn();
extern void cfBadItem(Relation rel, Page page, BlockNumber blkno, OffsetNumber off) pg_attribute_noreturn();

/*
 * Whether item off of a cfstore page can be read: its line pointer is a
 * used item inside the page's item space, and the lengths its header
 * declares fit in it (a run on a leaf, an index tuple on an internal page
 * and for a high key).  The cells inside a run are checked by cfRunDecode
 * as it goes.
 */
static inline bool
cfPageItemOk(Page page, OffsetNumber off)
{
	PageHeader	ph = (PageHeader) page;
	CfPageOpaque op = CfPageGetOpaque(page);
	ItemId		iid = PageGetItemId(page, off);
	const char *item = (const char *) page + ItemIdGetOffset(iid);
	uint32		len = ItemIdGetLength(iid);
	uint16		lens[3];

	if (unlikely(off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page) || !ItemIdIsNormal(iid) ||
				 ItemIdGetOffset(iid) < ph->pd_upper || ItemIdGetOffset(iid) + len > ph->pd_special))
		return false;
	if (op->level == 0 && off >= CfPageFirstData(op))
	{
		/* a run: CfRunHeader's keylen and sclen lead */
		if (unlikely(len < sizeof(CfRunHeader)))
			return false;
		memcpy(lens, item, 2 * sizeof(uint16));
		return sizeof(CfRunHeader) + lens[0] + lens[1] <= len;
	}
	if (unlikely(len < sizeof(CfIndexTupleData)))
		return false;
	memcpy(lens, item + offsetof(CfIndexTupleData, keylen), 3 * sizeof(uint16));
	return sizeof(CfIndexTupleData) + lens[0] + lens[1] + lens[2] <= len;
}

/*
 * The line pointer of item off of a cfstore page (a locked buffer's page or
 * a copy of one), checked (cfPageItemOk) before anything reads through it:
 * what a damaged page would make a reader fetch from outside it raises
 * instead.
 */
static inline ItemId
cfPageItemId(Relation rel, Page page, OffsetNumber off)
{
	if (unlikely(!cfPageItemOk(page, off)))
		cfBadItem(rel, page, InvalidBlockNumber, off);
	return PageGetItemId(page, off);
}

#define CF_ITUP_LONG_KEY		0x0001
#define CF_ITUP_LONG_SC			0x0002
#define CF_ITUP_LONG_NAME		0x0004

typedef CfIndexTupleData *CfIndexTuple;

/*
 * A run item being decoded cell by cell (cfRunDecodeBegin): a reader that
 * needs a few cells of a long run decodes only as far as it reads.  The
 * state is that of the decoder's loop: where the next cell starts, the
 * name the next one's prefix and suffix refer to, the last writetime and
 * xmin the next ones are deltas of.
 */
typedef struct CfRunDecoder
{
	Relation	rel;
	CfRun	   *run;
	MemoryContext cxt;
	const char *src;
	const uint8 *p;
	const uint8 *end;
	int			next;			/* the next cell to decode */
	int			prevlen;
	int64		prevwt;
	TransactionId prevxid;
	bool		permuted;
	uint8	   *names;			/* rebuilt names are carved from one chunk */
	Size		names_left;
	uint8		prevstored[CF_KEY_MAX]; /* the last name, as stored */
} CfRunDecoder;

/* cfpage.c */
extern void cfPageInit(Page page, uint16 level, uint16 flags);
extern void cfMetaPageInit(Page page, int32 cf_id, BlockNumber root);
extern Size cfRunEncodedSize(const CfRun *run);
extern void cfRunEncode(const CfRun *run, char *dst);
extern Size cfRunAppendedSize(const CfRun *run, Size used);
extern void cfRunEncodeAppended(const CfRun *run, const char *src, Size used, char *dst);
extern void cfRunDecode(Relation rel, const char *src, Size len, CfRun *run, MemoryContext cxt);
extern void cfRunDecodeBegin(CfRunDecoder *d, Relation rel, const char *src, Size len, CfRun *run,
							 MemoryContext cxt);
extern bool cfRunDecodeNext(CfRunDecoder *d);
extern void cfRunFirstKey(Relation rel, const char *src, CfKey *key);
extern int	cfRunCompare(Relation rel, const CfOrder *order, const char *src, const CfKey *pos);
extern Size cfIndexTupleSize(const CfKey *key);
extern void cfIndexTupleForm(const CfKey *key, BlockNumber child, char *dst);
extern void cfIndexTupleKey(Relation rel, CfIndexTuple itup, CfKey *key);
extern int	cfIndexTupleCompare(Relation rel, const CfOrder *order, CfIndexTuple itup, const CfKey *pos);
extern void cfCellKey(const CfRun *run, const CfCell *cell, CfKey *key);
extern void cfKeyCopy(const CfKey *src, CfKey *dst, MemoryContext cxt);

/* cfoverflow.c */
extern void cfOverflowWrite(Relation rel, const uint8 *data, Size len, uint8 *ref);
extern BlockNumber cfOverflowRefBlock(const uint8 *ref);
extern bool cfOverflowReclaimable(Page page, TransactionId oldest_xmin);
extern Size cfOverflowLength(const uint8 *ref);
extern uint8 *cfOverflowRead(Relation rel, const uint8 *ref);
extern const uint8 *cfCellValueLong(Relation rel, const CfCell *cell, int *len);

/* cfcompress.c */
/* Values shorter than this are stored as they are. */
#define CF_COMPRESS_MIN			32
/* The most bytes cfValueCompress writes for len bytes. */
#define CF_COMPRESS_BOUND(len)	(1 + 5 + (len) + (len) / 255 + 16 + 4)
extern int	cfValueCompress(Relation rel, CfCompression method, const uint8 *src, int len, uint8 *dst);
extern bool cfDictRef(Relation rel, uint8 *ref);
extern const uint8 *cfValueDecompress(Relation rel, const uint8 *src, int len, int *rawlen);
extern const uint8 *cfCellValueStored(Relation rel, const CfCell *cell, int *len);

/*
 * A cell's value: its stored bytes, or (read into the current memory
 * context) the value a reference or a compressed form stands for.
 */
static inline const uint8 *
cfCellValue(Relation rel, const CfCell *cell, int *len)
{
	if (unlikely((cell->flags & CF_CELL_LONG_VALUE) || cell->compressed))
		return cfCellValueStored(rel, cell, len);
	*len = cell->valuelen;
	return cell->value;
}

/* ---------------------------------------------------------------------
 * Range tombstones (cfrangedel.c)
 * ---------------------------------------------------------------------
 */
/*
 * Whether a container tombstone (empty name) is a range tombstone: its
 * value is longer than the 4-byte deletion time of a row tombstone.
 */
static inline bool
cfCellIsRangeDel(const CfCell *cell)
{
	return cell->namelen == 0 && (cell->flags & CF_CELL_TOMBSTONE) &&
		(cell->valuelen != 4 || (cell->flags & CF_CELL_LONG_VALUE));
}

/* One range tombstone: [start, finish] under the comparator; an empty finish is the row's end. */
typedef struct CfRangeDel
{
	const uint8 *start;
	int			startlen;
	const uint8 *finish;
	int			finishlen;
	int64		writetime;
} CfRangeDel;

/*
 * The visible range tombstones of one row, kept in a context of their own.
 * Looked up by a name, many of them are first sorted by start (cfrangedel.c).
 */
typedef struct CfRangeDels
{
	CfRangeDel *items;
	int			n;
	int			max;
	bool		sorted;			/* items are by start, reach holds */
	int		   *reach;			/* reach[i]: the item of 0..i whose finish is last */
	/* a slice's names (cfRangeDelsWindow): ranges outside them are not kept */
	const CfType *wcmp;			/* NULL: no window */
	const bytea *wlo;			/* NULL: from the row's beginning */
	const bytea *whi;			/* NULL: to the row's end */
	MemoryContext cxt;			/* created under parent at the first one */
	MemoryContext parent;
} CfRangeDels;

extern void cfRangeDelEncode(StringInfo buf, uint32 deltime, const uint8 *start, int startlen,
							 const uint8 *finish, int finishlen);
extern void cfRangeDelDecode(Relation rel, BlockNumber blkno, const uint8 *value, int len, CfRangeDel *out);
extern void cfRangeDelsInit(CfRangeDels *d, MemoryContext parent);
extern void cfRangeDelsAdd(CfRangeDels *d, Relation rel, BlockNumber blkno, const CfCell *cell);
extern void cfRangeDelsReset(CfRangeDels *d);
extern void cfRangeDelsWindow(CfRangeDels *d, const CfType *cmp, const bytea *lo, const bytea *hi);
extern int64 cfRangeDelsAt(CfRangeDels *d, const CfType *cmp, const uint8 *name, int len, int64 floor);

/* ---------------------------------------------------------------------
 * Relations
 * ---------------------------------------------------------------------
 */

/* What a backend keeps about a storage relation (rd_amcache). */
/* Bounds of CfRelInfo's table of recent buffers (slots, powers of two). */
#define CF_RECENT_MIN		64
#define CF_RECENT_MAX		16384

typedef struct CfRelInfo
{
	int32		cf_id;
	bool		is_super;
	bool		is_counter;
	CfOrder		order;
	BlockNumber root;			/* cached from the metapage */
	uint32		root_level;
	/* whether the column family lives on shard servers, as of the catalog's generation */
	bool		sharded;
	uint64		sharded_generation;
	/*
	 * Readers' image of the root page when it is an internal page, taken
	 * from block rootcopy_blkno (InvalidBlockNumber: none); stale once a
	 * descent from it had to move right.  See cfReadDescend in cfsearch.c.
	 */
	BlockNumber rootcopy_blkno;
	bool		rootcopy_stale;
	/* the metapage's dict_ref once read (dict_known); it never changes once set */
	bool		dict_known;
	uint8		dict_ref[CF_LONGREF_SIZE];
	FullTransactionId rootcopy_fxid;	/* the next xid when it was taken: cfRootCopyUsable */
	PGAlignedBlock rootcopy;
	/*
	 * The shared buffer that last held each page a read descended to, by
	 * block number modulo nrecent (a power of two): a hint that
	 * ReadRecentBuffer checks (InvalidBuffer: none yet).  Part of this
	 * allocation, as rd_amcache must be one chunk.
	 */
	uint32		nrecent;
	Buffer		recent[FLEXIBLE_ARRAY_MEMBER];
} CfRelInfo;

extern CfRelInfo *cfRelInfo(Relation rel);
extern bool cfRelSharded(Relation rel);
extern void cfRootCopyTake(Relation rel, CfRelInfo *info, Buffer buf);
extern bool cfRootCopyUsable(CfRelInfo *info);
extern void cfRelInfoRefreshRoot(Relation rel, CfRelInfo *info);
extern int32 cfRelationCfId(Relation rel);
extern void cfCheckStorage(Relation rel);
extern void cfCheckColumns(Relation rel);
extern const CfColumnFamily *cfRelationColumnFamily(Relation rel);
extern Oid	cfStorageRelid(int32 cf_id, bool missing_ok);
extern Relation cfStorageOpen(Oid relid, LOCKMODE lockmode);
extern Oid	cfKeyspaceOwner(const char *keyspace);
extern void cfCheckKeyspaceOwner(const char *keyspace);

/* The schema of the storage relations (cfstore_data.cf_<id>). */
#define CF_STORAGE_SCHEMA "cfstore_data"

/* ---------------------------------------------------------------------
 * Tree operations: finding pages (cfsearch.c), page images and splits
 * (cfsplit.c), hand-built WAL records (cfwal.c), inserting cells
 * (cfinsert.c); making the tree (cfrel.c) and allocating pages (cffree.c)
 * ---------------------------------------------------------------------
 */

/* A stack of parent pages remembered on the way down. */
typedef struct CfStack
{
	BlockNumber blkno;
	struct CfStack *parent;
} CfStack;

/* An item of a page being rebuilt. */
typedef struct CfItem
{
	char	   *data;
	Size		len;
} CfItem;

/* cfsearch.c */
extern Buffer cfDescend(Relation rel, CfRelInfo *info, const CfKey *key, bool forupdate,
						CfStack **stack, CfKey *lowkey, MemoryContext lowcxt);
extern Buffer cfMoveRight(Relation rel, CfRelInfo *info, Buffer buf, const CfKey *key, int lockmode);
extern bool cfBeyondHighKey(Relation rel, CfRelInfo *info, Page page, const CfKey *key);
extern OffsetNumber cfChooseDownlink(Relation rel, CfRelInfo *info, Page page, const CfKey *key);
extern BlockNumber cfFindPageAtLevel(Relation rel, CfRelInfo *info, const CfKey *key, uint16 level);
extern void cfNotTreePage(Relation rel, Buffer buf, uint16 level) pg_attribute_noreturn();
extern void cfPageFreedUnderRead(Relation rel) pg_attribute_noreturn();
extern void cfReachedAgain(Relation rel, BlockNumber blkno) pg_attribute_noreturn();
extern void cfRightLinksLoop(Relation rel, BlockNumber start) pg_attribute_noreturn();

/*
 * Count one more page that a loop moving right from block start has
 * reached, and raise once it has reached more pages than the relation
 * has: right-links lead only to higher keys, so such a loop's go round
 * (damage) and it would never end.  The relation's size is looked at only
 * at powers of two from 64 on, which keeps this cheap.
 */
static inline void
cfCountMoveRight(Relation rel, uint32 *moves, BlockNumber start)
{
	uint32		m = ++*moves;

	if (unlikely(m >= 64 && (m & (m - 1)) == 0) && m > RelationGetNumberOfBlocks(rel))
		cfRightLinksLoop(rel, start);
}

/*
 * Raise unless the locked page in buf, reached through a downlink or a
 * sibling link, is a page of the tree at level: for level 0 a leaf, linked
 * or unlinked (see cfNotTreePage).
 */
static inline void
cfCheckTreePage(Relation rel, Buffer buf, uint16 level)
{
	Page		page = BufferGetPage(buf);

	if (unlikely(!CfPageIsCfstore(page) || CfPageGetOpaque(page)->level != level ||
				 (CfPageGetOpaque(page)->flags &
				  (CF_PAGE_META | CF_PAGE_LEAF | CF_PAGE_OVERFLOW | CF_PAGE_FREE)) !=
				 (level == 0 ? CF_PAGE_LEAF : 0)))
		cfNotTreePage(rel, buf, level);
}

/*
 * One step of a loop moving right from block start: let go of the locked
 * page in buf and lock its right sibling right in lockmode, which must be
 * a page of the tree at level.
 */
static inline Buffer
cfStepRight(Relation rel, Buffer buf, BlockNumber right, uint16 level, int lockmode,
			uint32 *moves, BlockNumber start)
{
	UnlockReleaseBuffer(buf);
	CHECK_FOR_INTERRUPTS();
	cfCountMoveRight(rel, moves, start);
	buf = ReadBuffer(rel, right);
	LockBuffer(buf, lockmode);
	cfCheckTreePage(rel, buf, level);
	return buf;
}

/* cfsplit.c */
extern char *cfCopyHighKey(Relation rel, Page page, Size *len);
extern CfItem *cfPageItems(Relation rel, Page page, int *n);
extern void cfItemsCopy(CfItem *items, int n, int skip, int nskip);
extern Size cfItemsSpace(const CfItem *items, int n);
extern Size cfRebuiltCapacity(Page page);
extern bool cfItemsFitPage(Page page, const CfItem *items, int n);
extern Size cfPageCapacity(Size hikey_len);
extern void cfRunsSeparator(Relation rel, CfRelInfo *info, const CfItem *left, const CfItem *right,
							CfKey *sep, MemoryContext cxt);
extern void cfBuildPage(Page page, const CfPageOpaqueData *opaque, const char *hikey, Size hikey_len,
						const CfItem *items, int n);
extern void cfRebuildPage(Relation rel, Buffer buf, Buffer child, const CfItem *items, int n,
						  const TransactionId *horizon);
extern void cfRewritePage(Relation rel, CfRelInfo *info, Buffer buf, CfStack *stack,
						  CfItem *items, int n, int newpos, Buffer child);
extern void cfFinishSplit(Relation rel, CfRelInfo *info, Buffer buf, CfStack *stack);
extern uint64 cfSplitsFinished(void);

/* cfwal.c; the most byte ranges cfWalChangedRanges makes */
#define CF_WAL_MAX_RANGES 32

/* The shapes of hand-built records (cfwal.c, "Testing"). */
typedef enum CfWalShape
{
	CF_WAL_OVERWRITE,			/* an item's changed bytes */
	CF_WAL_RANGES,				/* the changed ranges of a page */
	CF_WAL_REGIONS,				/* whole regions of a page */
	CF_WAL_NSHAPES
} CfWalShape;

extern void cfWalOverwrite(Relation rel, Buffer buf, OffsetNumber off, const char *img, Size len);
extern int	cfWalChangedRanges(Page page, Page copy, const uint16 *regions, int nregions, uint16 *out);
extern void cfWalInstallRanges(Relation rel, Buffer buf, Page copy, const uint16 *ranges, int nranges,
							   CfWalShape shape);

/* cfinsert.c */
extern void cfInsertCell(Relation rel, CfRelInfo *info, const CfRun *cell);

/* cfrel.c, cffree.c */
extern void cfTreeEnsure(Relation rel, CfRelInfo *info);
extern Buffer cfNewPage(Relation rel);

/* ---------------------------------------------------------------------
 * Visibility (cfvisibility.c)
 * ---------------------------------------------------------------------
 */
extern bool cfCellVisible(CfCell *cell, uint8 *flagsptr, Buffer buf, Snapshot snapshot);

/* ---------------------------------------------------------------------
 * Reading (cfslice.c, on top of cfwalk.c, cfreconcile.c and cfsearch.c)
 * ---------------------------------------------------------------------
 */

/* A live column (or counter) as a read returns it: all bytes are copies. */
typedef struct CfOutCell
{
	bytea	   *key;
	bytea	   *sc;				/* NULL in Standard CFs */
	bytea	   *name;
	bytea	   *value;			/* counters: 8-byte total */
	int64		writetime;
	int32		ttl;			/* 0 = does not expire */
	uint32		expires_at;
	bool		is_counter;
	/* the version's inserting transaction (FrozenTransactionId if frozen; counters: invalid) */
	TransactionId xmin;
} CfOutCell;

/* What a slice asks for. */
typedef struct CfSliceSpec
{
	bytea	   *key;
	bytea	   *sc;				/* slice subcolumns of this super column */
	bytea	   *start;			/* NULL = unbounded */
	bytea	   *finish;
	bool		reversed;
	int64		count;			/* items */
	bool		whole_super;	/* Super CF, no sc: items are super columns */
} CfSliceSpec;

typedef struct CfSliceState CfSliceState;

extern CfSliceState *cfSliceBegin(Relation rel, const CfSliceSpec *spec, Snapshot snapshot);
extern bool cfSliceNext(CfSliceState *state, CfOutCell *out);
extern void cfSliceEnd(CfSliceState *state);

/*
 * A slice whose cells come from elsewhere (src/shard): what cfSliceNext
 * and cfSliceEnd call instead of walking pages.
 */
typedef struct CfRemoteSlice
{
	bool		(*next) (struct CfRemoteSlice *remote, CfOutCell *out);
	void		(*end) (struct CfRemoteSlice *remote);
} CfRemoteSlice;

extern CfSliceState *cfSliceRemote(Relation rel, CfRemoteSlice *remote);

struct CfWrite;

/*
 * Where the cells of a column family whose keyspace lives on shard
 * servers are read and written: src/shard/cfshard.c fills this when the
 * library loads, and the storage layer calls it instead of reading or
 * writing its own pages (the relation here stays empty).  Keeps this
 * layer from calling the one above it.
 */
typedef struct CfRemoteStorage
{
	CfSliceState *(*slice_begin) (Relation rel, const CfColumnFamily *cf, const CfSliceSpec *spec);
	CfSliceState *(*scan_begin) (Relation rel, const CfColumnFamily *cf);
	int			(*next_row_keys) (Relation rel, const CfColumnFamily *cf, const bytea *from, bool inclusive,
								  bytea **keys, int max);
	void		(*write_cell) (Relation rel, const struct CfWrite *w);
} CfRemoteStorage;

extern PGDLLIMPORT const CfRemoteStorage *cf_remote_storage;
extern const CfRemoteStorage *cfRemoteStorage(Relation rel);

/* The next row keys at or after (or after) a key (multi-row reads). */
/* Checking and measuring a storage relation (cfverify.c) */
typedef struct CfStorageStats
{
	int64		pages;			/* blocks of the relation */
	int			height;
	int64		tree_pages;		/* the metapage and the pages of the tree */
	int64		leaf_pages;
	double		leaf_used;		/* bytes the leaves' cells take, line pointers included */
	double		leaf_room;		/* bytes the leaves have for cells (leaf_fill = used / room) */
	int64		versions;		/* cell versions in the tree */
	int64		live_cells;
	int64		tombstones;
} CfStorageStats;

extern void cfVerifyTree(Relation rel, Relation base);
extern void cfStorageStats(Relation rel, CfStorageStats *out);

extern int	cfNextRowKeys(Relation rel, const bytea *from, bool inclusive, bytea **keys, int max);
extern void cfForEachRowKey(Relation rel, const bytea *start_key, bool (*fn) (bytea *key, void *arg),
							void *arg);

/* A whole-relation scan (SQL SELECT on the storage relation). */
typedef struct CfRelScanState CfRelScanState;

extern CfRelScanState *cfRelScanBegin(Relation rel, Snapshot snapshot);
extern bool cfRelScanNext(CfRelScanState *state, CfOutCell *out);
extern void cfRelScanEnd(CfRelScanState *state);

/* The number of columns of a storage relation (cftableam.c). */
#define CF_NATTS 7

extern bool cfIsStorageRelation(Relation rel);
extern void cfHooksInit(void);
extern CfOutCell *cfSamplePage(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy, int *n);

/*
 * A set of block numbers, one bit a block, for the passes over a whole
 * relation: the tree pages VACUUM met, the first blocks of the overflow
 * chains it found referenced, the blocks reclaiming must keep.  The set
 * holds the blocks below its size: a block past it is never a member, and
 * adding one is ignored unless the set is grown first.
 */
typedef struct CfBlockSet
{
	uint8	   *bits;
	BlockNumber nblocks;		/* its size: blocks 0 to nblocks - 1 */
} CfBlockSet;

/* Make an empty set of the blocks below nblocks (in the current memory context). */
static inline void
cfBlockSetInit(CfBlockSet *set, BlockNumber nblocks)
{
	set->bits = palloc0(nblocks / 8 + 1);
	set->nblocks = nblocks;
}

/* Whether blkno is in the set. */
static inline bool
cfBlockSetHas(const CfBlockSet *set, BlockNumber blkno)
{
	return blkno < set->nblocks && (set->bits[blkno / 8] & (1 << (blkno % 8))) != 0;
}

/* Add blkno to the set (ignored past its size). */
static inline void
cfBlockSetAdd(CfBlockSet *set, BlockNumber blkno)
{
	if (blkno < set->nblocks)
		set->bits[blkno / 8] |= 1 << (blkno % 8);
}

/* Take blkno out of the set. */
static inline void
cfBlockSetRemove(CfBlockSet *set, BlockNumber blkno)
{
	if (blkno < set->nblocks)
		set->bits[blkno / 8] &= ~(1 << (blkno % 8));
}

/* Let the set hold the blocks below nblocks at least (its size doubles), keeping its members. */
static inline void
cfBlockSetGrow(CfBlockSet *set, BlockNumber nblocks)
{
	BlockNumber n;

	if (nblocks <= set->nblocks)
		return;
	n = Max(nblocks, set->nblocks * 2);
	set->bits = repalloc(set->bits, n / 8 + 1);
	memset(set->bits + set->nblocks / 8 + 1, 0, n / 8 - set->nblocks / 8);
	set->nblocks = n;
}

/* Free the set's memory. */
static inline void
cfBlockSetFree(CfBlockSet *set)
{
	if (set->bits != NULL)
		pfree(set->bits);
	set->bits = NULL;
	set->nblocks = 0;
}

/* cffree.c: freeing empty leaves and pages nothing refers to */
typedef struct CfReclaimStats
{
	BlockNumber overflow_freed; /* overflow pages freed */
	BlockNumber leaves_freed;	/* dead leaves freed */
	BlockNumber dead_left;		/* dead leaves some snapshot may still reach */
	CfBlockSet	free;			/* the free, new and dead pages the scan found */
	BlockNumber nfree;			/* how many */
} CfReclaimStats;

extern bool cfUnlinkLeaf(Relation rel, CfRelInfo *info, BlockNumber blkno, BufferAccessStrategy strategy);
extern bool cfLeafWithout(Page page, uint16 excluded);
extern OffsetNumber cfAdjacentDownlinks(Relation rel, Page ppage, BlockNumber blkno, BlockNumber right);
extern Buffer cfTryLockPage(Relation rel, BlockNumber blkno, BufferAccessStrategy strategy, bool cleanup);
extern Buffer cfLockSibling(Relation rel, BlockNumber sib, BlockNumber blkno, bool left_sibling,
							BufferAccessStrategy strategy);
extern void cfReclaimPages(Relation rel, const CfBlockSet *tree, const CfBlockSet *heads, bool overflow,
						   TransactionId oldest_xmin, BufferAccessStrategy strategy,
						   CfReclaimStats *st);
extern uint32 cfMetaDeadPages(Relation rel);
extern void cfMetaSetDeadPages(Relation rel, uint32 n);

/* cfmerge.c: VACUUM's compaction of underfull leaves */
typedef struct CfCompactStats
{
	BlockNumber moved;			/* moves of runs that left the giving leaf */
	BlockNumber unlinked;		/* leaves that gave all their runs and were unlinked */
	bool		raised_dead;	/* the metapage's count of dead leaves was raised */
} CfCompactStats;

/* A leaf less full than this (percent of what a rebuilt page holds) takes runs. */
#define CF_MERGE_TARGET 90

extern bool cf_vacuum_compact_leaves;
extern bool cfLeafUnderfull(Relation rel, Page page);
extern bool cfLeafUnderfullWithout(Relation rel, Page page, Size less);
extern void cfMergeInit(void);
extern void cfCompactLeaves(Relation rel, CfRelInfo *info, const BlockNumber *leaves, int n,
							CfBlockSet *tree, BufferAccessStrategy strategy, CfCompactStats *st);

/* cfshrink.c: moving tree pages off the end of the file and cutting it */
struct VacuumParams;
typedef struct CfShrinkStats
{
	BlockNumber moved;			/* tree pages moved nearer the start */
	BlockNumber truncated;		/* pages cut off the end */
	bool		lock_missed;	/* the lock could not be had */
	bool		lock_waiters;	/* stopped because a backend waited for the lock */
} CfShrinkStats;

extern void cfShrink(Relation rel, CfRelInfo *info, const CfBlockSet *free, BlockNumber nfree,
					 struct VacuumParams *params, CfShrinkStats *st);

/* cfvacuum.c */
extern void cfVacuum(Relation rel, struct VacuumParams *params, BufferAccessStrategy strategy);

/* varints (cfpage.c) */
extern int	cfVarintPut(uint8 *dst, uint64 v);
extern int	cfVarintGet(Relation rel, const uint8 *src, uint64 *v);

#endif							/* CFSTORAGE_H */
