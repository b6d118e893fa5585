/*-------------------------------------------------------------------------
 *
 * cfcompress.c
 *	  Value compression: a column family's compression_options choose pglz
 *	  or lz4 for the values written to it.
 *
 * Cassandra compresses SSTables in chunks; cfstore compresses each value
 * on its own, so that a slice decompresses exactly the values it returns
 * and a cell is still rewritten alone when its run changes.  cfWriteCell
 * compresses a column value of at least CF_COMPRESS_MIN bytes when that
 * saves space, before deciding whether it goes out of line; the value is
 * then stored in its compressed form:
 *
 *	method		1 byte (CfCompression)
 *	raw length	varint
 *	data		pglz's or lz4's output
 *
 * and the cell's length varint carries CF_VALUE_COMPRESSED (cfpage.c), so
 * a run can mix compressed and plain values: a change of the setting
 * applies to the values written after it, and VACUUM FULL, which writes
 * every cell again, applies it to the rest.  Indexes, reconciliation and
 * every reader see the plain value through cfCellValue.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <lz4.h>

#include "common/pg_lzcompress.h"
#include "utils/memutils.h"

#include "storage/cfstorage.h"

/* The longest value a compressed form may stand for (a value's bytea). */
#define CF_COMPRESS_RAW_MAX	(MaxAllocSize - VARHDRSZ)

/*
 * Compress len bytes of src with method into dst (CF_COMPRESS_BOUND(len)
 * bytes): the length of the compressed form, or 0 if it would not be
 * shorter than the value by more than its own overhead.
 */
int
cfValueCompress(CfCompression method, const uint8 *src, int len, uint8 *dst)
{
	int			hdr;
	int			clen;

	if (method == CF_COMPRESSION_NONE || len < CF_COMPRESS_MIN)
		return 0;
	dst[0] = (uint8) method;
	hdr = 1 + cfVarintPut(dst + 1, (uint64) len);
	if (method == CF_COMPRESSION_PGLZ)
		clen = pglz_compress((const char *) src, len, (char *) dst + hdr, PGLZ_strategy_default);
	else
		clen = LZ4_compress_default((const char *) src, (char *) dst + hdr, len,
									CF_COMPRESS_BOUND(len) - hdr);
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

	if (len < 2 || (src[0] != CF_COMPRESSION_PGLZ && src[0] != CF_COMPRESSION_LZ4))
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
	else
		got = LZ4_decompress_safe((const char *) src + hdr, out, len - hdr, (int) raw);
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
