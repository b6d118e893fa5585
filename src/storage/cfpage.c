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
 *	name		varint bytes shared with the previous cell's name, varint
 *				length of the rest, the rest
 *	writetime	zig-zag varint of (writetime - header basewt)
 *	expiring	varint ttl, 4-byte expiry (only with CF_CELL_EXPIRING)
 *	xmin, cmin	4 bytes, varint (only without CF_CELL_FROZEN)
 *	value		varint length, bytes
 *
 * Multi-byte fixed fields are stored unaligned in native byte order (they
 * never leave the machine except through physical replication).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"


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

/* Read a varint; returns the number of bytes it used. */
int
cfVarintGet(const uint8 *src, uint64 *v)
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
			elog(ERROR, "cfstore: corrupt varint");
	}
	*v = r;
	return n;
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
}

/* Bytes two names share at their start. */
static int
shared_prefix(const uint8 *a, int alen, const uint8 *b, int blen)
{
	int			n = Min(alen, blen);
	int			i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* The base writetime of a run: its first cell's. */
static int64
run_basewt(const CfRun *run)
{
	return run->ncells > 0 ? run->cells[0].writetime : 0;
}

/* The encoded size of one cell after `prev` (NULL for the first). */
static Size
cell_size(const CfCell *cell, const CfCell *prev, int64 basewt)
{
	int			shared = prev ? shared_prefix(prev->name, prev->namelen, cell->name, cell->namelen) : 0;
	Size		sz = 1;

	sz += varint_len(shared) + varint_len(cell->namelen - shared) + (cell->namelen - shared);
	sz += varint_len(zigzag(cell->writetime - basewt));
	if (cell->flags & CF_CELL_EXPIRING)
		sz += varint_len((uint64) cell->ttl) + 4;
	if (!(cell->flags & CF_CELL_FROZEN))
		sz += 4 + varint_len(cell->cmin);
	sz += varint_len(cell->valuelen) + cell->valuelen;
	return sz;
}

/* The size of a run's item. */
Size
cfRunEncodedSize(const CfRun *run)
{
	Size		sz = sizeof(CfRunHeader) + run->keylen + run->sclen;
	int64		basewt = run_basewt(run);

	for (int i = 0; i < run->ncells; i++)
		sz += cell_size(&run->cells[i], i > 0 ? &run->cells[i - 1] : NULL, basewt);
	return sz;
}

/* Encode a run into dst (cfRunEncodedSize bytes). */
void
cfRunEncode(const CfRun *run, char *dst)
{
	CfRunHeader hdr;
	uint8	   *p;
	int64		basewt = run_basewt(run);

	memset(&hdr, 0, sizeof(hdr));
	hdr.keylen = (uint16) run->keylen;
	hdr.sclen = (uint16) run->sclen;
	hdr.ncells = (uint16) run->ncells;
	hdr.basewt = basewt;
	memcpy(dst, &hdr, sizeof(hdr));
	p = (uint8 *) dst + sizeof(hdr);
	memcpy(p, run->key, run->keylen);
	p += run->keylen;
	if (run->sclen > 0)
		memcpy(p, run->sc, run->sclen);
	p += run->sclen;

	for (int i = 0; i < run->ncells; i++)
	{
		const CfCell *c = &run->cells[i];
		const CfCell *prev = i > 0 ? &run->cells[i - 1] : NULL;
		int			shared = prev ? shared_prefix(prev->name, prev->namelen, c->name, c->namelen) : 0;

		*p++ = c->flags;
		p += cfVarintPut(p, shared);
		p += cfVarintPut(p, c->namelen - shared);
		memcpy(p, c->name + shared, c->namelen - shared);
		p += c->namelen - shared;
		p += cfVarintPut(p, zigzag(c->writetime - basewt));
		if (c->flags & CF_CELL_EXPIRING)
		{
			p += cfVarintPut(p, (uint64) c->ttl);
			memcpy(p, &c->expires_at, 4);
			p += 4;
		}
		if (!(c->flags & CF_CELL_FROZEN))
		{
			memcpy(p, &c->xmin, 4);
			p += 4;
			p += cfVarintPut(p, c->cmin);
		}
		p += cfVarintPut(p, c->valuelen);
		memcpy(p, c->value, c->valuelen);
		p += c->valuelen;
	}
}

/*
 * Decode a run item.  Names are rebuilt into memory allocated in cxt; the
 * key, super column and values point into src, so the caller keeps src
 * alive (and stable) while it uses them.
 */
void
cfRunDecode(const char *src, Size len, CfRun *run, MemoryContext cxt)
{
	CfRunHeader hdr;
	const uint8 *p;
	const uint8 *end = (const uint8 *) src + len;
	uint8	   *names;
	Size		names_size;
	const uint8 *prevname = NULL;
	int			prevlen = 0;

	memcpy(&hdr, src, sizeof(hdr));
	p = (const uint8 *) src + sizeof(hdr);
	run->key = p;
	run->keylen = hdr.keylen;
	p += hdr.keylen;
	run->sc = p;
	run->sclen = hdr.sclen;
	p += hdr.sclen;
	run->ncells = hdr.ncells;
	run->cells = MemoryContextAlloc(cxt, sizeof(CfCell) * Max(hdr.ncells, 1));
	/* shared prefixes are at most the item's size per cell: bound the name space */
	names_size = (Size) len * 2 + 64;
	names = MemoryContextAlloc(cxt, names_size);

	for (int i = 0; i < hdr.ncells; i++)
	{
		CfCell	   *c = &run->cells[i];
		uint64		shared,
					rest,
					v;

		if (p >= end)
			elog(ERROR, "cfstore: corrupt run item (cell %d of %d past its end)", i, hdr.ncells);
		c->flagsp = (uint8 *) p;
		c->flags = *p++;
		p += cfVarintGet(p, &shared);
		p += cfVarintGet(p, &rest);
		if (shared > (uint64) prevlen || p + rest > end)
			elog(ERROR, "cfstore: corrupt run item (bad name length)");
		if (shared == 0)
		{
			/* no copy needed: the name is stored whole */
			c->name = p;
		}
		else
		{
			if (shared + rest > names_size)
			{
				names_size = Max(names_size * 2, shared + rest + 64);
				names = MemoryContextAlloc(cxt, names_size);
			}
			memcpy(names, prevname, shared);
			memcpy(names + shared, p, rest);
			c->name = names;
			names += shared + rest;
			names_size -= shared + rest;
		}
		c->namelen = (int) (shared + rest);
		p += rest;
		p += cfVarintGet(p, &v);
		c->writetime = hdr.basewt + unzigzag(v);
		if (c->flags & CF_CELL_EXPIRING)
		{
			p += cfVarintGet(p, &v);
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
			memcpy(&c->xmin, p, 4);
			p += 4;
			p += cfVarintGet(p, &v);
			c->cmin = (CommandId) v;
		}
		else
		{
			c->xmin = FrozenTransactionId;
			c->cmin = 0;
		}
		p += cfVarintGet(p, &v);
		if (p + v > end)
			elog(ERROR, "cfstore: corrupt run item (bad value length)");
		c->value = p;
		c->valuelen = (int) v;
		p += v;
		prevname = c->name;
		prevlen = c->namelen;
	}
	if (p != end)
		elog(ERROR, "cfstore: corrupt run item (%d bytes left over)", (int) (end - p));
}

/* The key of a run's first cell, read without decoding the run. */
void
cfRunFirstKey(const char *src, CfKey *key)
{
	CfRunHeader hdr;
	const uint8 *p;
	uint64		shared,
				rest,
				v;

	memcpy(&hdr, src, sizeof(hdr));
	p = (const uint8 *) src + sizeof(hdr);
	key->key = p;
	key->keylen = hdr.keylen;
	p += hdr.keylen;
	key->sc = p;
	key->sclen = hdr.sclen;
	p += hdr.sclen;
	p++;						/* flags */
	p += cfVarintGet(p, &shared);
	p += cfVarintGet(p, &rest);
	key->name = p;
	key->namelen = (int) rest;
	p += rest;
	cfVarintGet(p, &v);
	key->writetime = hdr.basewt + unzigzag(v);
	key->nparts = 4;
	key->bound = 0;
}

/* The size of an index tuple carrying key. */
Size
cfIndexTupleSize(const CfKey *key)
{
	Size		sz = sizeof(CfIndexTupleData);

	if (key->nparts >= 1)
		sz += key->keylen;
	if (key->nparts >= 2)
		sz += key->sclen;
	if (key->nparts >= 3)
		sz += key->namelen;
	return sz;
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
	t.keylen = key->nparts >= 1 ? key->keylen : 0;
	t.sclen = key->nparts >= 2 ? key->sclen : 0;
	t.namelen = key->nparts >= 3 ? key->namelen : 0;
	t.writetime = key->nparts >= 4 ? key->writetime : 0;
	memcpy(dst, &t, sizeof(t));
	if (t.keylen)
		memcpy(p, key->key, t.keylen);
	p += t.keylen;
	if (t.sclen)
		memcpy(p, key->sc, t.sclen);
	p += t.sclen;
	if (t.namelen)
		memcpy(p, key->name, t.namelen);
}

/* The key an index tuple carries (pointing into the tuple). */
void
cfIndexTupleKey(CfIndexTuple itup, CfKey *key)
{
	const uint8 *p = (const uint8 *) itup + sizeof(CfIndexTupleData);

	key->key = p;
	key->keylen = itup->keylen;
	p += itup->keylen;
	key->sc = p;
	key->sclen = itup->sclen;
	p += itup->sclen;
	key->name = p;
	key->namelen = itup->namelen;
	key->writetime = itup->writetime;
	key->nparts = itup->nparts;
	key->bound = itup->bound;
}
