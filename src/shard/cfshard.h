/*-------------------------------------------------------------------------
 *
 * cfshard.h
 *	  The coordinator of a sharded keyspace (cfshard.c): the storage of its
 *	  column families on the shard servers of extension cfstore_shard.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFSHARD_H
#define CFSHARD_H

#include "postgres.h"

#include "catalog/cfcatalog.h"

extern void cfShardInit(void);
extern int32 cfShardPartition(const CfColumnFamily *cf, const uint8 *key, int len);

#endif							/* CFSHARD_H */
