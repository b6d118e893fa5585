/*-------------------------------------------------------------------------
 *
 * cfcompress.c
 *	  Value compression: a column family's compression_options choose pglz
 *	  or lz4 for the values written to it.
 *
 * Cassandra compresses SSTables in chunks of many cells, so that what
 * cells share (a document's keys, constant strings) is stored once a
 * chunk.  cfstore compresses each value on its own, so that a slice
 * decompresses exactly the values it returns and a cell is still rewritten
 * alone when its run changes; what values share comes from a dictionary
 * instead.  cfWriteCell compresses a column value of at least
 * CF_COMPRESS_MIN bytes when that saves space, before deciding whether it
 * goes out of line; the value is then stored in its compressed form:
 *
 *	method		1 byte: CF_COMPRESSION_PGLZ, CF_COMPRESSION_LZ4, or
 *				CF_FORM_LZ4_DICT (lz4 with the relation's dictionary)
 *	raw length	varint
 *	data		pglz's or lz4's output
 *
 * and the cell's length varint carries CF_VALUE_COMPRESSED (cfpage.c), so
 * a run can mix compressed and plain values: a change of the setting
 * applies to the values written after it, and VACUUM FULL, which writes
 * every cell again, applies it to the rest.  Indexes, reconciliation and
 * every reader see the plain value through cfCellValue.
 *
 * The dictionary.  lz4 finds matches in a dictionary given to both the
 * compressor and the decompressor: for JSON documents of about 600 bytes,
 * the first document as dictionary takes each of the others from 0.8 of
 * its size (alone) to 0.3 (bench/README.md).  So the first value a
 * relation compresses with lz4 becomes its dictionary (up to
 * CF_DICT_MAX bytes): an overflow chain (cfoverflow.c) whose reference
 * the metapage keeps (dict_ref), set once and never changed, so that a
 * value compressed with it can always be read.  Two first writers may
 * both write a chain; the first to set the metapage wins and the other
 * chain, referenced by nothing, goes with a later VACUUM (which keeps the
 * dictionary's chain).  VACUUM FULL and TRUNCATE start a new relation,
 * with a new dictionary.  A backend reads the reference once per relcache
 * entry (CfRelInfo) and keeps the bytes of the last few dictionaries it
 * used, by relation file and reference.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <lz4.h>

#include "common/pg_lzcompress.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

/* The method byte of a value compressed with lz4 and the relation's dictionary. */
#define CF_FORM_LZ4_DICT	3
/* The most bytes of a value its relation's dictionary keeps. */
#define CF_DICT_MAX			(16 * 1024)
/* How many dictionaries a backend keeps. */
#define CF_DICT_CACHE		8

/* A dictionary a backend read: whose it is, and its bytes (TopMemoryContext). */
typedef struct CfDict
{
	RelFileNode node;
	uint8		ref[CF_LONGREF_SIZE];
	int			len;
	char	   *bytes;
} CfDict;

static CfDict dict_cache[CF_DICT_CACHE];
static int	dict_next;

/* Whether a reference is all zeroes (no dictionary). */
static bool
ref_is_zero(const uint8 *ref)
{
	for (int i = 0; i < CF_LONGREF_SIZE; i++)
		if (ref[i] != 0)
			return false;
	return true;
}

/*
 * The metapage's dictionary reference into ref, as this backend knows it
 * (reread if it knew none, since another backend may have set it); false
 * if the relation has no dictionary.
 */
bool
cfDictRef(Relation rel, uint8 *ref)
{
	CfRelInfo  *info = cfRelInfo(rel);

	if (!info->dict_known || ref_is_zero(info->dict_ref))
	{
		Buffer		buf;
		Page		page;

		if (RelationGetNumberOfBlocks(rel) == 0)
			return false;
		buf = ReadBuffer(rel, CF_META_BLOCK);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (PageIsNew(page))
			memset(info->dict_ref, 0, CF_LONGREF_SIZE);
		else
			memcpy(info->dict_ref, CfPageGetMeta(page)->dict_ref, CF_LONGREF_SIZE);
		UnlockReleaseBuffer(buf);
		info->dict_known = true;
	}
	memcpy(ref, info->dict_ref, CF_LONGREF_SIZE);
	return !ref_is_zero(ref);
}

/* The relation's dictionary, read once per backend; NULL if it has none. */
static const CfDict *
dict_get(Relation rel)
{
	uint8		ref[CF_LONGREF_SIZE];
	CfDict	   *d;
	uint8	   *bytes;

	if (!cfDictRef(rel, ref))
		return NULL;
	for (int i = 0; i < CF_DICT_CACHE; i++)
	{
		d = &dict_cache[i];
		if (d->bytes != NULL && RelFileNodeEquals(d->node, rel->rd_node) &&
			memcmp(d->ref, ref, CF_LONGREF_SIZE) == 0)
			return d;
	}
	bytes = cfOverflowRead(rel, ref);
	d = &dict_cache[dict_next];
	dict_next = (dict_next + 1) % CF_DICT_CACHE;
	if (d->bytes != NULL)
		pfree(d->bytes);
	d->bytes = NULL;
	d->len = (int) cfOverflowLength(ref);
	d->bytes = MemoryContextAlloc(TopMemoryContext, d->len);
	memcpy(d->bytes, bytes, d->len);
	pfree(bytes);
	d->node = rel->rd_node;
	memcpy(d->ref, ref, CF_LONGREF_SIZE);
	return d;
}

/*
 * Make sample (the last CF_DICT_MAX bytes of it) the relation's dictionary
 * unless it has one by now (see "The dictionary" above); returns the one
 * it has.
 */
static const CfDict *
dict_create(Relation rel, const uint8 *sample, int len)
{
	CfRelInfo  *info;
	uint8		ref[CF_LONGREF_SIZE];
	Buffer		buf;
	Page		page;
	CfMetaPageData *meta;

	if (len > CF_DICT_MAX)
	{
		sample += len - CF_DICT_MAX;
		len = CF_DICT_MAX;
	}
	/* the chain first: it extends the relation, which the metapage lock must not wait for */
	cfOverflowWrite(rel, sample, len, ref);
	buf = ReadBuffer(rel, CF_META_BLOCK);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	page = BufferGetPage(buf);
	if (PageIsNew(page))
		cfCorrupt(rel, CF_META_BLOCK, "The metapage is not initialised.");
	meta = CfPageGetMeta(page);
	if (ref_is_zero(meta->dict_ref))
	{
		GenericXLogState *state = GenericXLogStart(rel);
		Page		wpage = GenericXLogRegisterBuffer(state, buf, 0);
		PageHeader	ph = (PageHeader) wpage;
		Size		end = ((char *) &CfPageGetMeta(wpage)->dict_ref - (char *) wpage) + CF_LONGREF_SIZE;

		memcpy(CfPageGetMeta(wpage)->dict_ref, ref, CF_LONGREF_SIZE);
		if (ph->pd_lower < end)
			ph->pd_lower = end;
		GenericXLogFinish(state);
	}
	info = cfRelInfo(rel);
	memcpy(info->dict_ref, meta->dict_ref, CF_LONGREF_SIZE);
	info->dict_known = true;
	UnlockReleaseBuffer(buf);
	return dict_get(rel);
}

/* The longest value a compressed form may stand for (a value's bytea). */
#define CF_COMPRESS_RAW_MAX	(MaxAllocSize - VARHDRSZ)

/*
 * Compress len bytes of src with method into dst (CF_COMPRESS_BOUND(len)
 * bytes): the length of the compressed form, or 0 if it would not be
 * shorter than the value by more than its own overhead.
 */
int
cfValueCompress(Relation rel, CfCompression method, const uint8 *src, int len, uint8 *dst)
{
	static LZ4_stream_t stream;
	int			hdr;
	int			clen;

	if (method == CF_COMPRESSION_NONE || len < CF_COMPRESS_MIN)
		return 0;
	hdr = 1 + cfVarintPut(dst + 1, (uint64) len);
	if (method == CF_COMPRESSION_PGLZ)
	{
		dst[0] = CF_COMPRESSION_PGLZ;
		clen = pglz_compress((const char *) src, len, (char *) dst + hdr, PGLZ_strategy_default);
	}
	else
	{
		const CfDict *dict = dict_get(rel);

		if (dict == NULL)
			dict = dict_create(rel, src, len);
		dst[0] = CF_FORM_LZ4_DICT;
		LZ4_initStream(&stream, sizeof(stream));
		LZ4_loadDict(&stream, dict->bytes, dict->len);
		clen = LZ4_compress_fast_continue(&stream, (const char *) src, (char *) dst + hdr, len,
										  CF_COMPRESS_BOUND(len) - hdr, 1);
	}
	/* the length varint grows by a byte or two as well */
	if (clen <= 0 || hdr + clen + 2 >= len)
		return 0;
	return hdr + clen;
}

/*
 * The value a compressed form of len bytes stands for, in the current
 * memory context; a form that does not decompress to its declared length
 * is reported as corruption.
 */
const uint8 *
cfValueDecompress(Relation rel, const uint8 *src, int len, int *rawlen)
{
	uint64		raw = 0;
	int			hdr = 1;
	char	   *out;
	int			got;

	if (len < 2 || (src[0] != CF_COMPRESSION_PGLZ && src[0] != CF_COMPRESSION_LZ4 && src[0] != CF_FORM_LZ4_DICT))
		cfCorrupt(rel, InvalidBlockNumber, "A compressed value of %d bytes has no known method.", len);
	/* the raw length's varint, read no further than the form */
	for (int shift = 0; hdr < len && shift < 35; shift += 7)
	{
		raw |= (uint64) (src[hdr] & 0x7f) << shift;
		if ((src[hdr++] & 0x80) == 0)
			break;
	}
	if (hdr >= len || (src[hdr - 1] & 0x80) || raw > CF_COMPRESS_RAW_MAX)
		cfCorrupt(rel, InvalidBlockNumber, "A compressed value of %d bytes declares a length of " UINT64_FORMAT ".",
				  len, raw);
	out = palloc(raw + 1);
	if (src[0] == CF_COMPRESSION_PGLZ)
		got = pglz_decompress((const char *) src + hdr, len - hdr, out, (int32) raw, true);
	else if (src[0] == CF_COMPRESSION_LZ4)
		got = LZ4_decompress_safe((const char *) src + hdr, out, len - hdr, (int) raw);
	else
	{
		const CfDict *dict = dict_get(rel);

		if (dict == NULL)
			cfCorrupt(rel, CF_META_BLOCK, "A value is compressed with a dictionary, and the metapage names none.");
		got = LZ4_decompress_safe_usingDict((const char *) src + hdr, out, len - hdr, (int) raw,
											dict->bytes, dict->len);
	}
	if (got != (int) raw)
		cfCorrupt(rel, InvalidBlockNumber, "A compressed value of %d bytes does not decompress to its " UINT64_FORMAT " bytes.",
				  len, raw);
	*rawlen = (int) raw;
	return (const uint8 *) out;
}

/*
 * cfCellValue of a value stored out of line or compressed (or both): read
 * into the current memory context.
 */
const uint8 *
cfCellValueStored(Relation rel, const CfCell *cell, int *len)
{
	const uint8 *v = cell->value;
	int			vlen = cell->valuelen;

	if (cell->flags & CF_CELL_LONG_VALUE)
		v = cfCellValueLong(rel, cell, &vlen);
	if (cell->compressed)
	{
		const uint8 *form = v;

		v = cfValueDecompress(rel, form, vlen, &vlen);
		if (form != cell->value)
			pfree((void *) form);
	}
	*len = vlen;
	return v;
}
