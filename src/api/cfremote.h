/*-------------------------------------------------------------------------
 *
 * cfremote.h
 *	  The exchange between a coordinator and its shard servers (cfremote.c):
 *	  the encoding of a batch of cell writes.
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

extern void cfRemoteEncodeWrite(StringInfo buf, const CfWrite *w);

#endif							/* CFREMOTE_H */
