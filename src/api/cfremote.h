/*-------------------------------------------------------------------------
 *
 * cfremote.h
 *	  The exchange between a coordinator and its shard servers (cfremote.c):
 *	  the encodings of a batch of cell writes and of the cells a read returns.
 *
 * A coordinator sends the writes of a transaction to a shard as one bytea,
 * the records below one after the other, each in network byte order:
 *
 *	 uint8	kind (CfWriteKind)		 uint8	flags (CF_REMOTE_*)
 *	 uint16 length, keyspace name	 uint16 length, column family name
 *	 uint32 length, key bytes
 *	 [uint32 length, super column]	 (CF_REMOTE_SC)
 *	 [uint32 length, column name]	 (CF_REMOTE_NAME)
 *	 [uint32 length, value]			 (CF_REMOTE_VALUE)
 *	 int64 writetime, int32 ttl, uint32 expires_at
 *
 * and the shard applies them in order with cfWriteCell
 * (cfstore._remote_write_batch).
 *
 * A shard returns the cells of a slice or a scan (cfstore._remote_slice,
 * _remote_scan) as rows of one bytea each, the cells one after the other,
 * each in network byte order:
 *
 *	 uint8	flags (CF_CELL_*)
 *	 [uint32 length, key bytes]		 (CF_CELL_KEY; else the previous cell's key)
 *	 [uint32 length, super column]	 (CF_CELL_SC)
 *	 uint32 length, column name		 uint32 length, value
 *	 int64 writetime, int32 ttl, uint32 expires_at
 *
 * A row holds whole cells and starts with a key; it is cut once it holds
 * CF_CELLS_CHUNK bytes.  One value per slice,
 * not eight per cell: the shard and the coordinator convert and copy
 * a tenth of the fields they did as rows of cfstore.raw_cell.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFREMOTE_H
#define CFREMOTE_H

#include "postgres.h"

#include "lib/stringinfo.h"

#include "storage/cfwrite.h"

#define CF_REMOTE_SC			0x01
#define CF_REMOTE_NAME			0x02
#define CF_REMOTE_VALUE			0x04
#define CF_REMOTE_WRITETIME		0x08
#define CF_REMOTE_TTL			0x10
#define CF_REMOTE_EXACT_TTL		0x20

/* Flags of an encoded cell. */
#define CF_CELL_KEY				0x01
#define CF_CELL_SC				0x02
#define CF_CELL_COUNTER			0x04

/* A row of encoded cells is cut once it holds this many bytes. */
#define CF_CELLS_CHUNK (1024 * 1024)

extern void cfRemoteEncodeWrite(StringInfo buf, const CfWrite *w);
extern bool cfRemoteEncodeCell(StringInfo buf, const CfOutCell *c, const bytea *prev_key);
extern void cfRemoteDecodeCells(const char *data, int len, CfOutCell **cells, int *n, int *cap);

#endif							/* CFREMOTE_H */
