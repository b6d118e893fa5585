/*-------------------------------------------------------------------------
 *
 * cfpage.c
 *	  cfstore page layout: page and metapage initialisation, key order, the
 *	  encoding of cell runs (leaf items) and of index tuples (internal
 *	  items and high keys).
 *
 * A run item is a CfRunHeader, the row key, the super column, then its
 * cells in key order.  Each cell is:
 *
 *	flags		1 byte (CF_CELL_*)
 *	name		varints: bytes shared with the start of the previous cell's
 *				name, bytes shared with its end, length of the middle;
 *				then the middle (the first cell's name is stored whole;
 *				TimeUUID names are compared for sharing in time-major byte
 *				order, see timeuuid_permute)
 *	writetime	zig-zag varint of the difference with the previous cell's
 *				(the first cell's is the header's basewt)
 *	expiring	varint ttl, 4-byte expiry (only with CF_CELL_EXPIRING)
 *	xmin, cmin	zig-zag varint of the xid difference with the previous
 *				unfrozen cell's (0 before the first), varint cmin (only
 *				without CF_CELL_FROZEN)
 *	value		varint length, bytes; CF_VALUE_COMPRESSED added to the
 *				length if the bytes are a compressed form (cfcompress.c)
 *
 * An item may be longer than its run: the rest is room to grow, so that a
 * cell appended to the last run of a row is written in place.
 *
 * Multi-byte fixed fields are stored unaligned in native byte order (they
 * never leave the machine except through physical replication).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"


#include "storage/cfstorage.h"

/* Initialise an empty cfstore page. */
void
cfPageInit(Page page, uint16 level, uint16 flags)
{
	CfPageOpaque op;

	PageInit(page, BLCKSZ, sizeof(CfPageOpaqueData));
	op = CfPageGetOpaque(page);
	op->left = InvalidBlockNumber;
	op->right = InvalidBlockNumber;
	op->level = level;
	op->flags = flags;
	op->garbage = 0;
	op->page_id = CF_PAGE_ID;
}

/* Initialise the metapage of a new tree whose root leaf is `root`. */
void
cfMetaPageInit(Page page, int32 cf_id, BlockNumber root)
{
	CfMetaPageData *meta;

	cfPageInit(page, 0, CF_PAGE_META);
	meta = CfPageGetMeta(page);
	memset(meta, 0, sizeof(CfMetaPageData));
	meta->magic = CF_META_MAGIC;
	meta->version = CF_FORMAT_VERSION;
	meta->root = root;
	meta->root_level = 0;
	meta->cf_id = cf_id;
	/* keep pd_lower exact so that Generic WAL and full-page images skip the hole */
	((PageHeader) page)->pd_lower = ((char *) meta + sizeof(CfMetaPageData)) - (char *) page;
}

/* The block a page in the shared buffer pool holds; InvalidBlockNumber for a copy. */
static BlockNumber
page_block(Page page)
{
	const char *p = (const char *) page;

	if (p >= BufferBlocks && p < BufferBlocks + (Size) NBuffers * BLCKSZ)
		return BufferGetBlockNumber((Buffer) ((p - BufferBlocks) / BLCKSZ) + 1);
	return InvalidBlockNumber;
}

/*
 * Raise for item off of a page that cfPageItemOk refused: the page is
 * damaged, and reading the item would mean reading outside it.  blkno is
 * the page's block, or InvalidBlockNumber to find it from the buffer that
 * holds the page.
 */
void
cfBadItem(Relation rel, Page page, BlockNumber blkno, OffsetNumber off)
{
	PageHeader	ph = (PageHeader) page;
	ItemId		iid;

	if (blkno == InvalidBlockNumber)
		blkno = page_block(page);
	if (off < FirstOffsetNumber || off > PageGetMaxOffsetNumber(page))
		cfCorrupt(rel, blkno, "Item %u is read from a page of %u items.",
				  off, (unsigned) PageGetMaxOffsetNumber(page));
	iid = PageGetItemId(page, off);
	if (!ItemIdIsNormal(iid) || ItemIdGetOffset(iid) < ph->pd_upper ||
		ItemIdGetOffset(iid) + ItemIdGetLength(iid) > ph->pd_special)
		cfCorrupt(rel, blkno,
				  "The line pointer of item %u points outside the page's items: it says offset %u, length %u, state %u; items lie between bytes %u and %u.",
				  off, ItemIdGetOffset(iid), ItemIdGetLength(iid), ItemIdGetFlags(iid),
				  ph->pd_upper, ph->pd_special);
	cfCorrupt(rel, blkno, "Item %u is shorter than the parts its header declares: it is %u bytes long.",
			  off, ItemIdGetLength(iid));
}

/* Raise ERRCODE_DATA_CORRUPTED about rel and blkno (see cfCorrupt), with a hint if not NULL. */
static pg_attribute_noreturn() void
corrupt_report(Relation rel, BlockNumber blkno, const char *hint, const char *detail)
{
	const char *relname = rel != NULL ? RelationGetRelationName(rel) : "?";

	if (blkno != InvalidBlockNumber)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("cfstore table \"%s\" contains a corrupted page at block %u", relname, blkno),
				 errdetail_internal("%s", detail),
				 hint ? errhint("%s", hint) : 0));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("cfstore table \"%s\" contains corrupted data", relname),
			 errdetail_internal("%s", detail),
			 hint ? errhint("%s", hint) : 0));
	pg_unreachable();
}

/* Format a detail message (printf-style, any length). */
#define FORMAT_DETAIL(buf, fmt) \
	do { \
		initStringInfo(&(buf)); \
		for (;;) \
		{ \
			va_list		ap; \
			int			needed; \
			va_start(ap, fmt); \
			needed = appendStringInfoVA(&(buf), fmt, ap); \
			va_end(ap); \
			if (needed == 0) \
				break; \
			enlargeStringInfo(&(buf), needed); \
		} \
	} while (0)

/*
 * Raise the error for damage found in a storage relation: one errcode
 * (ERRCODE_DATA_CORRUPTED), the relation and the block in the message (rel
 * may be NULL and blkno InvalidBlockNumber where they are not known), what
 * is wrong in the detail, a complete sentence.
 */
void
cfCorrupt(Relation rel, BlockNumber blkno, const char *detail,...)
{
	StringInfoData buf;

	FORMAT_DETAIL(buf, detail);
	corrupt_report(rel, blkno, NULL, buf.data);
}

/* cfCorrupt, with a hint on what to do about the damage. */
void
cfCorruptHint(Relation rel, BlockNumber blkno, const char *hint, const char *detail,...)
{
	StringInfoData buf;

	FORMAT_DETAIL(buf, detail);
	corrupt_report(rel, blkno, hint, buf.data);
}

/* Store v as a varint (7 bits a byte, low bits first); returns its length. */
int
cfVarintPut(uint8 *dst, uint64 v)
{
	int			n = 0;

	while (v >= 0x80)
	{
		dst[n++] = (uint8) (v | 0x80);
		v >>= 7;
	}
	dst[n++] = (uint8) v;
	return n;
}

/* Read a varint of an item of rel; returns the number of bytes it used. */
int
cfVarintGet(Relation rel, const uint8 *src, uint64 *v)
{
	uint64		r = 0;
	int			shift = 0;
	int			n = 0;

	for (;;)
	{
		uint8		b = src[n++];

		r |= (uint64) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			break;
		shift += 7;
		if (shift > 63)
			cfCorrupt(rel, InvalidBlockNumber, "A number in an item runs past ten bytes.");
	}
	*v = r;
	return n;
}

/* Read a varint as cfVarintGet does, inline (the decoder reads several per cell). */
static inline int
varint_get(Relation rel, const uint8 *src, uint64 *v)
{
	uint64		r;
	int			n;

	if (src[0] < 0x80)
	{
		*v = src[0];
		return 1;
	}
	r = src[0] & 0x7f;
	for (n = 1; n < 10; n++)
	{
		r |= (uint64) (src[n] & 0x7f) << (7 * n);
		if (src[n] < 0x80)
		{
			*v = r;
			return n + 1;
		}
	}
	cfCorrupt(rel, InvalidBlockNumber, "A number in an item runs past ten bytes.");
}

/* The length of a varint. */
static inline int
varint_len(uint64 v)
{
	int			n = 1;

	while (v >= 0x80)
	{
		v >>= 7;
		n++;
	}
	return n;
}

/* Zig-zag: small signed numbers to small unsigned ones. */
static inline uint64
zigzag(int64 v)
{
	return ((uint64) v << 1) ^ (uint64) (v >> 63);
}

/* Inverse of zigzag. */
static inline int64
unzigzag(uint64 v)
{
	return (int64) (v >> 1) ^ -(int64) (v & 1);
}

/* Compare two byte strings under a type, NULL type meaning "all equal". */
static inline int
compare_part(const CfType *type, const uint8 *a, int alen, const uint8 *b, int blen)
{
	if (type == NULL)
		return 0;
	return cfTypeCompare(type, a, alen, b, blen);
}

/* Minus infinity, as a position. */
const CfKey cfMinusInfinity = {NULL, 0, NULL, 0, NULL, 0, 0, 0, -1, NULL, NULL, NULL};

/*
 * Compare two positions in key order (see CfKey).  Parts given by both are
 * compared in turn; when one position is a prefix of the other, its bound
 * decides.
 */
int
cfKeyCompare(const CfOrder *order, const CfKey *a, const CfKey *b)
{
	int			n = Min(a->nparts, b->nparts);
	int			c;

	if (n >= 1)
	{
		c = cfBytesCompare(a->key, a->keylen, b->key, b->keylen);
		if (c != 0)
			return c;
	}
	if (n >= 2)
	{
		c = compare_part(order->sccmp, a->sc, a->sclen, b->sc, b->sclen);
		if (c != 0)
			return c;
	}
	if (n >= 3)
	{
		c = cfTypeCompare(order->namecmp, a->name, a->namelen, b->name, b->namelen);
		if (c != 0)
			return c;
	}
	if (n >= 4)
	{
		/* versions: newer writetime first */
		if (a->writetime != b->writetime)
			return a->writetime > b->writetime ? -1 : 1;
	}
	if (a->nparts == b->nparts)
		return (a->bound > b->bound) - (a->bound < b->bound);
	if (a->nparts < b->nparts)
		return a->bound != 0 ? a->bound : -1;
	return b->bound != 0 ? -b->bound : 1;
}

/* The key of a cell of a run. */
void
cfCellKey(const CfRun *run, const CfCell *cell, CfKey *key)
{
	key->key = run->key;
	key->keylen = run->keylen;
	key->sc = run->sc;
	key->sclen = run->sclen;
	key->name = cell->name;
	key->namelen = cell->namelen;
	key->writetime = cell->writetime;
	key->nparts = 4;
	key->bound = 0;
	key->keyref = run->keyref;
	key->scref = run->scref;
	key->nameref = cell->nameref;
}

/*
 * TimeUUID names are stored with their time fields most significant first
 * (time_hi, time_mid, time_low, then clock sequence and node), so that
 * names of one row, which are close in time, share a long prefix; the
 * clock sequence and node of one writer are shared as a suffix.
 */
static inline void
timeuuid_permute(const uint8 *in, uint8 *out)
{
	memcpy(out, in + 6, 2);		/* time_hi_and_version */
	memcpy(out + 2, in + 4, 2); /* time_mid */
	memcpy(out + 4, in, 4);		/* time_low */
	memcpy(out + 8, in + 8, 8); /* clock sequence and node */
}

/* Inverse of timeuuid_permute. */
static void
timeuuid_unpermute(const uint8 *in, uint8 *out)
{
	out[6] = in[0];
	out[7] = in[1];
	out[4] = in[2];
	out[5] = in[3];
	memcpy(out, in + 4, 4);
	memcpy(out + 8, in + 8, 8);
}

/*
 * The stored form of a name: its reference if it is long, permuted if the
 * run's names are TimeUUIDs, else the name.  *len receives its length.
 */
static const uint8 *
stored_name(const CfRun *run, const CfCell *cell, uint8 *buf, int *len)
{
	if (cell->nameref)
	{
		*len = CF_LONGREF_SIZE;
		return cell->nameref;
	}
	*len = cell->namelen;
	if (run->timeuuid_names && cell->namelen == 16)
	{
		timeuuid_permute(cell->name, buf);
		return buf;
	}
	return cell->name;
}

/* How a name is stored after the previous one: shared prefix, shared suffix. */
static void
name_sharing(const uint8 *prev, int prevlen, const uint8 *cur, int curlen, int *prefix, int *suffix)
{
	int			n = Min(prevlen, curlen);
	int			p = 0,
				q = 0;

	while (p < n && prev[p] == cur[p])
		p++;
	while (q < n - p && prev[prevlen - 1 - q] == cur[curlen - 1 - q])
		q++;
	*prefix = p;
	*suffix = q;
}

/* Walks a run's cells computing each cell's name sharing with its predecessor. */
typedef struct CfNameCursor
{
	uint8		prevbuf[16];
	uint8		curbuf[16];
	const uint8 *prev;
	int			prevlen;
} CfNameCursor;

/*
 * The stored name of cell i (length in *len) and its sharing with cell
 * i-1's.  The first cell's name, and a reference, are stored whole, so
 * that cfRunFirstKey and the decoder can point at them in the item.
 */
static const uint8 *
name_next(CfNameCursor *nc, const CfRun *run, int i, int *len, int *prefix, int *suffix)
{
	const CfCell *c = &run->cells[i];
	const uint8 *cur = stored_name(run, c, nc->curbuf, len);

	if (i == 0 || c->nameref)
		*prefix = *suffix = 0;
	else
		name_sharing(nc->prev, nc->prevlen, cur, *len, prefix, suffix);
	if (cur == nc->curbuf)
	{
		memcpy(nc->prevbuf, nc->curbuf, 16);
		nc->prev = nc->prevbuf;
	}
	else
		nc->prev = cur;
	nc->prevlen = *len;
	/* the first name is stored unpermuted: cfRunFirstKey reads it as it is */
	if (i == 0 && !c->nameref)
		return c->name;
	return cur;
}

/* The base writetime of a run: its first cell's. */
static int64
run_basewt(const CfRun *run)
{
	return run->ncells > 0 ? run->cells[0].writetime : 0;
}

/* The encoded size of cell i of run (after cell i-1). */
static Size
cell_size(const CfRun *run, int i, CfNameCursor *nc, TransactionId *prevxid)
{
	const CfCell *c = &run->cells[i];
	int			prefix,
				suffix,
				len;
	int			mid;
	Size		sz = 1;
	int64		prevwt = i > 0 ? run->cells[i - 1].writetime : run_basewt(run);

	name_next(nc, run, i, &len, &prefix, &suffix);
	mid = len - prefix - suffix;
	sz += varint_len(prefix) + varint_len(suffix) + varint_len(mid) + mid;
	sz += varint_len(zigzag(c->writetime - prevwt));
	if (c->flags & CF_CELL_EXPIRING)
		sz += varint_len((uint64) c->ttl) + 4;
	if (!(c->flags & CF_CELL_FROZEN))
	{
		sz += varint_len(zigzag((int32) (c->xmin - *prevxid))) + varint_len(c->cmin);
		*prevxid = c->xmin;
	}
	sz += varint_len(c->valuelen + (c->compressed ? CF_VALUE_COMPRESSED : 0)) + c->valuelen;
	return sz;
}

/* The size of a run's item. */
Size
cfRunEncodedSize(const CfRun *run)
{
	Size		sz = sizeof(CfRunHeader);
	CfNameCursor nc;
	TransactionId prevxid = InvalidTransactionId;

	sz += run->keyref ? CF_LONGREF_SIZE : run->keylen;
	sz += run->scref ? CF_LONGREF_SIZE : run->sclen;
	memset(&nc, 0, sizeof(nc));
	for (int i = 0; i < run->ncells; i++)
		sz += cell_size(run, i, &nc, &prevxid);
	return sz;
}

/* Encode cell i of run at p, after cell i-1 (see cell_size); returns the bytes written. */
static Size
encode_cell(uint8 *p, const CfRun *run, int i, CfNameCursor *nc, TransactionId *prevxid)
{
	uint8	   *start = p;
	const CfCell *c = &run->cells[i];
	int			prefix,
				suffix,
				len,
				mid;
	const uint8 *name = name_next(nc, run, i, &len, &prefix, &suffix);
	int64		prevwt = i > 0 ? run->cells[i - 1].writetime : run_basewt(run);

	Assert(!CfPartIsLong(c->namelen) == !c->nameref);
	mid = len - prefix - suffix;
	*p++ = (c->flags & ~CF_CELL_LONG_NAME) | (c->nameref ? CF_CELL_LONG_NAME : 0);
	p += cfVarintPut(p, prefix);
	p += cfVarintPut(p, suffix);
	p += cfVarintPut(p, mid);
	memcpy(p, name + prefix, mid);
	p += mid;
	p += cfVarintPut(p, zigzag(c->writetime - prevwt));
	if (c->flags & CF_CELL_EXPIRING)
	{
		p += cfVarintPut(p, (uint64) c->ttl);
		memcpy(p, &c->expires_at, 4);
		p += 4;
	}
	if (!(c->flags & CF_CELL_FROZEN))
	{
		p += cfVarintPut(p, zigzag((int32) (c->xmin - *prevxid)));
		p += cfVarintPut(p, c->cmin);
		*prevxid = c->xmin;
	}
	Assert(c->valuelen < CF_VALUE_COMPRESSED);
	p += cfVarintPut(p, c->valuelen + (c->compressed ? CF_VALUE_COMPRESSED : 0));
	memcpy(p, c->value, c->valuelen);
	p += c->valuelen;
	return p - start;
}

/* Encode a run into dst (cfRunEncodedSize bytes). */
void
cfRunEncode(const CfRun *run, char *dst)
{
	CfRunHeader hdr;
	uint8	   *p;
	CfNameCursor nc;
	TransactionId prevxid = InvalidTransactionId;

	const uint8 *skey = run->keyref ? run->keyref : run->key;
	const uint8 *ssc = run->scref ? run->scref : run->sc;

	Assert(!CfPartIsLong(run->keylen) == !run->keyref);
	Assert(!CfPartIsLong(run->sclen) == !run->scref);
	memset(&hdr, 0, sizeof(hdr));
	hdr.keylen = (uint16) (run->keyref ? CF_LONGREF_SIZE : run->keylen);
	hdr.sclen = (uint16) (run->scref ? CF_LONGREF_SIZE : run->sclen);
	hdr.ncells = (uint16) run->ncells;
	hdr.flags = (run->timeuuid_names ? CF_RUN_TIMEUUID_NAMES : 0) |
		(run->keyref ? CF_RUN_LONG_KEY : 0) | (run->scref ? CF_RUN_LONG_SC : 0);
	hdr.basewt = run_basewt(run);
	memcpy(dst, &hdr, sizeof(hdr));
	p = (uint8 *) dst + sizeof(hdr);
	memcpy(p, skey, hdr.keylen);
	p += hdr.keylen;
	if (hdr.sclen > 0)
		memcpy(p, ssc, hdr.sclen);
	p += hdr.sclen;

	memset(&nc, 0, sizeof(nc));
	for (int i = 0; i < run->ncells; i++)
		p += encode_cell(p, run, i, &nc, &prevxid);
}

/*
 * The encoder's state before cell i of run: the name cursor holding cell
 * i-1's stored name, and the xmin of the last cell before i that has one.
 */
static void
encoder_before(const CfRun *run, int i, CfNameCursor *nc, TransactionId *prevxid)
{
	memset(nc, 0, sizeof(*nc));
	*prevxid = InvalidTransactionId;
	for (int k = i - 1; k >= 0; k--)
	{
		if (!(run->cells[k].flags & CF_CELL_FROZEN))
		{
			*prevxid = run->cells[k].xmin;
			break;
		}
	}
	if (i > 0)
	{
		int			len,
					prefix,
					suffix;

		(void) name_next(nc, run, i - 1, &len, &prefix, &suffix);
	}
}

/*
 * A run whose last cell was just appended, when the item at src holds the
 * run without it in its first used bytes (a decoded item's run->used, with
 * the same header flags): the item's size, and its encoding into dst.  A
 * cell's encoding depends only on the cell before it and the last xmin, so
 * the item is the old bytes, the new cell count and the new cell: what
 * cfRunEncode writes, without encoding the other cells again.
 */
Size
cfRunAppendedSize(const CfRun *run, Size used)
{
	CfNameCursor nc;
	TransactionId prevxid;

	Assert(run->ncells >= 2);
	encoder_before(run, run->ncells - 1, &nc, &prevxid);
	return used + cell_size(run, run->ncells - 1, &nc, &prevxid);
}

/* Encode such a run (see cfRunAppendedSize) into dst. */
void
cfRunEncodeAppended(const CfRun *run, const char *src, Size used, char *dst)
{
	CfRunHeader hdr;
	CfNameCursor nc;
	TransactionId prevxid;

	Assert(run->ncells >= 2);
	memcpy(dst, src, used);
	memcpy(&hdr, dst, sizeof(hdr));
	hdr.ncells = (uint16) run->ncells;
	memcpy(dst, &hdr, sizeof(hdr));
	encoder_before(run, run->ncells - 1, &nc, &prevxid);
	encode_cell((uint8 *) dst + used, run, run->ncells - 1, &nc, &prevxid);
}

/*
 * A stored part as it reads: the bytes a reference stands for (read into
 * cxt), else the stored bytes themselves.  Without a relation (rel NULL) a
 * long part is left unread, as its reference: for callers that only
 * collect the references of a page (VACUUM), not for comparing keys.
 */
static const uint8 *
resolve_part(Relation rel, const uint8 *stored, int storedlen, bool islong, int *len,
			 const uint8 **ref, MemoryContext cxt)
{
	MemoryContext old;
	const uint8 *out;

	if (!islong || rel == NULL)
	{
		if (islong && storedlen != CF_LONGREF_SIZE)
			cfCorrupt(rel, InvalidBlockNumber, "A reference to a part stored out of line is %d bytes long.", storedlen);
		*len = storedlen;
		if (ref)
			*ref = islong ? stored : NULL;
		return stored;
	}
	if (storedlen != CF_LONGREF_SIZE)
		cfCorrupt(rel, InvalidBlockNumber, "A reference to a part stored out of line is %d bytes long.", storedlen);
	old = MemoryContextSwitchTo(cxt);
	out = cfOverflowRead(rel, stored);
	MemoryContextSwitchTo(old);
	*len = (int) cfOverflowLength(stored);
	if (ref)
		*ref = stored;
	return out;
}

/*
 * The header of the run item at src into *hdr, and its row key and super
 * column as they read (resolve_part: long ones are read into cxt); returns
 * where the run's first cell starts.
 */
static pg_attribute_always_inline const uint8 *
run_container(Relation rel, const char *src, CfRunHeader *hdr, MemoryContext cxt,
			  const uint8 **key, int *keylen, const uint8 **keyref,
			  const uint8 **sc, int *sclen, const uint8 **scref)
{
	const uint8 *p;

	memcpy(hdr, src, sizeof(*hdr));
	p = (const uint8 *) src + sizeof(*hdr);
	*key = resolve_part(rel, p, hdr->keylen, (hdr->flags & CF_RUN_LONG_KEY) != 0, keylen, keyref, cxt);
	p += hdr->keylen;
	*sc = resolve_part(rel, p, hdr->sclen, (hdr->flags & CF_RUN_LONG_SC) != 0, sclen, scref, cxt);
	return p + hdr->sclen;
}

/*
 * Start decoding the run item at src (len bytes) into run, cell by cell
 * (cfRunDecodeNext).  Names are rebuilt into memory allocated in cxt, and
 * long parts read there; the rest (short keys, values) points into src, so
 * the caller keeps src alive (and stable) while it uses them.  Values stay
 * as stored (see cfCellValue).  run->cells has room for every cell; the
 * cells not decoded yet are undefined.
 */
void
cfRunDecodeBegin(CfRunDecoder *d, Relation rel, const char *src, Size len, CfRun *run, MemoryContext cxt)
{
	CfRunHeader hdr;

	d->rel = rel;
	d->run = run;
	d->cxt = cxt;
	d->src = src;
	d->end = (const uint8 *) src + len;
	d->p = run_container(rel, src, &hdr, cxt, &run->key, &run->keylen, &run->keyref,
						 &run->sc, &run->sclen, &run->scref);
	d->permuted = (hdr.flags & CF_RUN_TIMEUUID_NAMES) != 0;
	d->next = 0;
	d->prevlen = 0;
	d->prevwt = hdr.basewt;
	d->prevxid = InvalidTransactionId;
	d->names = NULL;
	d->names_left = 0;
	run->ncells = hdr.ncells;
	run->timeuuid_names = d->permuted;
	run->cells = MemoryContextAlloc(cxt, sizeof(CfCell) * Max(hdr.ncells, 1));
	run->used = 0;
}

/* Decode the next cell of d's run (there is one). */
static pg_attribute_always_inline void
decode_cell(CfRunDecoder *d)
{
	Relation	rel = d->rel;
	CfRun	   *run = d->run;
	int			i = d->next;
	CfCell	   *c = &run->cells[i];
	const uint8 *p = d->p;
	const uint8 *end = d->end;
	uint8	   *prevstored = d->prevstored;
	int			prevlen = d->prevlen;
	bool		permuted = d->permuted;
	uint64		prefix,
				suffix,
				mid,
				v;
	int			namelen;

	if (p >= end)
		cfCorrupt(rel, InvalidBlockNumber, "Cell %d of a run of %d lies past the run's end.", i, run->ncells);
	c->flagsp = (uint8 *) p;
	c->flags = *p++;
	p += varint_get(rel, p, &prefix);
	p += varint_get(rel, p, &suffix);
	p += varint_get(rel, p, &mid);
	if (prefix + suffix > (uint64) prevlen || p + mid > end || prefix + suffix + mid > CF_KEY_MAX)
		cfCorrupt(rel, InvalidBlockNumber, "Cell %d of a run has a name of impossible length.", i);
	namelen = (int) (prefix + suffix + mid);
	c->nameref = NULL;
	if (c->flags & CF_CELL_LONG_NAME)
	{
		/* a reference, stored whole */
		if (prefix != 0 || suffix != 0)
			cfCorrupt(rel, InvalidBlockNumber, "Cell %d of a run shares part of a reference to a long name.", i);
		c->name = resolve_part(rel, p, namelen, true, &c->namelen, &c->nameref, d->cxt);
		memcpy(prevstored, p, namelen);
	}
	else if (i == 0)
	{
		/* stored as it is */
		c->name = p;
		if (permuted && namelen == 16)
			timeuuid_permute(p, prevstored);
		else
			memcpy(prevstored, p, namelen);
	}
	else
	{
		uint8	   *out;

		if (namelen == prevlen)
		{
			/*
			 * A name as long as the one before (TimeUUIDs, LongType, names
			 * of one width): the shared prefix and suffix are already in
			 * place, around the bytes that differ.  Building it elsewhere
			 * and copying it back made the copy wait for the overlapping
			 * writes that built it (perf put a quarter of the decoder's
			 * samples on that copy).
			 */
			memcpy(prevstored + prefix, p, mid);
		}
		else
		{
			/* in place too: the shared suffix moves to its new end first */
			memmove(prevstored + prefix + mid, prevstored + prevlen - suffix, suffix);
			memcpy(prevstored + prefix, p, mid);
		}
		if (prefix == 0 && suffix == 0 && !(permuted && namelen == 16))
			c->name = p;
		else
		{
			if (d->names_left < (Size) namelen)
			{
				d->names_left = Max((Size) namelen, Min((Size) namelen * (run->ncells - i), 8192));
				d->names = MemoryContextAlloc(d->cxt, d->names_left);
			}
			out = d->names;
			d->names += namelen;
			d->names_left -= namelen;
			if (permuted && namelen == 16)
				timeuuid_unpermute(prevstored, out);
			else
				memcpy(out, prevstored, namelen);
			c->name = out;
		}
	}
	d->prevlen = namelen;
	if (!(c->flags & CF_CELL_LONG_NAME))
		c->namelen = namelen;
	p += mid;
	p += varint_get(rel, p, &v);
	c->writetime = d->prevwt + unzigzag(v);
	d->prevwt = c->writetime;
	if (c->flags & CF_CELL_EXPIRING)
	{
		p += varint_get(rel, p, &v);
		c->ttl = (int32) v;
		memcpy(&c->expires_at, p, 4);
		p += 4;
	}
	else
	{
		c->ttl = 0;
		c->expires_at = 0;
	}
	if (!(c->flags & CF_CELL_FROZEN))
	{
		p += varint_get(rel, p, &v);
		c->xmin = d->prevxid + (TransactionId) (int32) unzigzag(v);
		d->prevxid = c->xmin;
		p += varint_get(rel, p, &v);
		c->cmin = (CommandId) v;
	}
	else
	{
		c->xmin = FrozenTransactionId;
		c->cmin = 0;
	}
	p += varint_get(rel, p, &v);
	c->compressed = v >= CF_VALUE_COMPRESSED;
	if (c->compressed)
		v -= CF_VALUE_COMPRESSED;
	if (p + v > end)
		cfCorrupt(rel, InvalidBlockNumber, "Cell %d of a run has a value that runs past the run's end.", i);
	c->value = p;
	c->valuelen = (int) v;
	p += v;
	d->p = p;
	d->next = i + 1;
	/* the rest of the item, if any, is room for the run to grow */
	if (d->next == run->ncells)
		run->used = (Size) (p - (const uint8 *) d->src);
}

/* Decode the next cell of the run cfRunDecodeBegin started; false once every cell is. */
bool
cfRunDecodeNext(CfRunDecoder *d)
{
	if (d->next >= d->run->ncells)
		return false;
	decode_cell(d);
	return true;
}

/* Decode a run item whole (see cfRunDecodeBegin). */
void
cfRunDecode(Relation rel, const char *src, Size len, CfRun *run, MemoryContext cxt)
{
	CfRunDecoder d;

	cfRunDecodeBegin(&d, rel, src, len, run, cxt);
	while (d.next < run->ncells)
		decode_cell(&d);
	if (run->ncells == 0)
		run->used = (Size) (d.p - (const uint8 *) src);
}

/*
 * The key of a run's first cell, read without decoding the run (long
 * parts are read into the current memory context).
 */
void
cfRunFirstKey(Relation rel, const char *src, CfKey *key)
{
	CfRunHeader hdr;
	const uint8 *p;
	uint64		prefix,
				suffix,
				mid;
	uint8		flags;

	p = run_container(rel, src, &hdr, CurrentMemoryContext, &key->key, &key->keylen, &key->keyref,
					  &key->sc, &key->sclen, &key->scref);
	flags = *p++;
	p += cfVarintGet(rel, p, &prefix);
	p += cfVarintGet(rel, p, &suffix);
	p += cfVarintGet(rel, p, &mid);
	key->name = resolve_part(rel, p, (int) mid, (flags & CF_CELL_LONG_NAME) != 0,
							 &key->namelen, &key->nameref, CurrentMemoryContext);
	/* the first cell's writetime is the run's base */
	key->writetime = hdr.basewt;
	key->nparts = 4;
	key->bound = 0;
}

/*
 * Compare the first key of the run item at src with position pos, as
 * cfKeyCompare(first key, pos) does.  Runs of other rows are told apart by
 * their row key alone, without reading the first cell (long parts are
 * read into the current memory context).
 */
int
cfRunCompare(Relation rel, const CfOrder *order, const char *src, const CfKey *pos)
{
	CfRunHeader hdr;
	CfKey		fk;

	if (pos->nparts == 0)
		return pos->bound != 0 ? -pos->bound : 1;
	memcpy(&hdr, src, sizeof(hdr));
	if (!(hdr.flags & CF_RUN_LONG_KEY))
	{
		int			c = cfBytesCompare((const uint8 *) src + sizeof(hdr), hdr.keylen,
									   pos->key, pos->keylen);

		if (c != 0)
			return c;
		if (pos->nparts == 1)
			return pos->bound != 0 ? -pos->bound : 1;
	}
	cfRunFirstKey(rel, src, &fk);
	return cfKeyCompare(order, &fk, pos);
}

/* The stored length of a key part: a reference's if the part is long. */
static inline int
stored_part_len(int len)
{
	return CfPartIsLong(len) ? CF_LONGREF_SIZE : len;
}

/* The size of an index tuple carrying key. */
Size
cfIndexTupleSize(const CfKey *key)
{
	Size		sz = sizeof(CfIndexTupleData);

	if (key->nparts >= 1)
		sz += stored_part_len(key->keylen);
	if (key->nparts >= 2)
		sz += stored_part_len(key->sclen);
	if (key->nparts >= 3)
		sz += stored_part_len(key->namelen);
	return sz;
}

/* Copy one part into an index tuple being formed: its reference if long. */
static char *
put_part(char *p, const uint8 *bytes, int len, const uint8 *ref, uint16 *flags, uint16 flag)
{
	if (CfPartIsLong(len))
	{
		if (ref == NULL)
			elog(ERROR, "a long key part has no stored reference");
		memcpy(p, ref, CF_LONGREF_SIZE);
		*flags |= flag;
		return p + CF_LONGREF_SIZE;
	}
	if (len > 0)
		memcpy(p, bytes, len);
	return p + len;
}

/* Form an index tuple (downlink to child, or a high key) from key. */
void
cfIndexTupleForm(const CfKey *key, BlockNumber child, char *dst)
{
	CfIndexTupleData t;
	char	   *p = dst + sizeof(CfIndexTupleData);

	memset(&t, 0, sizeof(t));
	t.child = child;
	t.nparts = key->nparts;
	t.bound = key->bound;
	t.keylen = key->nparts >= 1 ? stored_part_len(key->keylen) : 0;
	t.sclen = key->nparts >= 2 ? stored_part_len(key->sclen) : 0;
	t.namelen = key->nparts >= 3 ? stored_part_len(key->namelen) : 0;
	t.writetime = key->nparts >= 4 ? key->writetime : 0;
	if (key->nparts >= 1)
		p = put_part(p, key->key, key->keylen, key->keyref, &t.flags, CF_ITUP_LONG_KEY);
	if (key->nparts >= 2)
		p = put_part(p, key->sc, key->sclen, key->scref, &t.flags, CF_ITUP_LONG_SC);
	if (key->nparts >= 3)
		p = put_part(p, key->name, key->namelen, key->nameref, &t.flags, CF_ITUP_LONG_NAME);
	memcpy(dst, &t, sizeof(t));
}

/*
 * The key an index tuple carries, pointing into the tuple (long parts are
 * read into the current memory context).
 */
void
cfIndexTupleKey(Relation rel, CfIndexTuple itup, CfKey *key)
{
	const uint8 *p = (const uint8 *) itup + sizeof(CfIndexTupleData);
	CfIndexTupleData t;

	memcpy(&t, itup, sizeof(t));
	key->key = resolve_part(rel, p, t.keylen, (t.flags & CF_ITUP_LONG_KEY) != 0,
							&key->keylen, &key->keyref, CurrentMemoryContext);
	p += t.keylen;
	key->sc = resolve_part(rel, p, t.sclen, (t.flags & CF_ITUP_LONG_SC) != 0,
						   &key->sclen, &key->scref, CurrentMemoryContext);
	p += t.sclen;
	key->name = resolve_part(rel, p, t.namelen, (t.flags & CF_ITUP_LONG_NAME) != 0,
							 &key->namelen, &key->nameref, CurrentMemoryContext);
	key->writetime = t.writetime;
	key->nparts = t.nparts;
	key->bound = t.bound;
}

/*
 * Compare the key index tuple itup carries with position pos, as
 * cfKeyCompare(its key, pos) does.  A descent compares mostly with
 * separators of other rows: those are told apart by their row key bytes
 * alone, without taking the tuple apart (long parts are read into the
 * current memory context).
 */
int
cfIndexTupleCompare(Relation rel, const CfOrder *order, CfIndexTuple itup, const CfKey *pos)
{
	CfIndexTupleData t;
	CfKey		k;

	memcpy(&t, itup, sizeof(t));
	if (t.nparts >= 1 && pos->nparts >= 1 && !(t.flags & CF_ITUP_LONG_KEY))
	{
		int			c = cfBytesCompare((const uint8 *) itup + sizeof(CfIndexTupleData), t.keylen,
									   pos->key, pos->keylen);

		if (c != 0)
			return c;
	}
	cfIndexTupleKey(rel, itup, &k);
	return cfKeyCompare(order, &k, pos);
}

/* Copy len bytes to *p (advancing it); returns where they went. */
static const uint8 *
copy_bytes(uint8 **p, const uint8 *src, int len)
{
	uint8	   *at = *p;

	if (len > 0)
		memcpy(at, src, len);
	*p += len;
	return at;
}

/* Copy a key, its bytes and references, into one chunk of cxt. */
void
cfKeyCopy(const CfKey *src, CfKey *dst, MemoryContext cxt)
{
	int			keylen = src->nparts >= 1 ? src->keylen : 0;
	int			sclen = src->nparts >= 2 ? src->sclen : 0;
	int			namelen = src->nparts >= 3 ? src->namelen : 0;
	uint8	   *p = MemoryContextAlloc(cxt, keylen + sclen + namelen + 3 * CF_LONGREF_SIZE);

	*dst = *src;
	dst->keylen = keylen;
	dst->sclen = sclen;
	dst->namelen = namelen;
	dst->key = copy_bytes(&p, src->key, keylen);
	dst->sc = copy_bytes(&p, src->sc, sclen);
	dst->name = copy_bytes(&p, src->name, namelen);
	dst->keyref = (CfPartIsLong(keylen) && src->keyref) ? copy_bytes(&p, src->keyref, CF_LONGREF_SIZE) : NULL;
	dst->scref = (CfPartIsLong(sclen) && src->scref) ? copy_bytes(&p, src->scref, CF_LONGREF_SIZE) : NULL;
	dst->nameref = (CfPartIsLong(namelen) && src->nameref) ? copy_bytes(&p, src->nameref, CF_LONGREF_SIZE) : NULL;
}
