/*-------------------------------------------------------------------------
 *
 * cfshard.h
 *	  The coordinator of a sharded keyspace: the storage of its column
 *	  families on the shard servers of extension cfstore_shard (cfshard.c),
 *	  the shards' part of the coordinator's transactions (cfshard_xact.c),
 *	  the coordinator's partitioned tables (cfshard_table.c), and SQL on them
 *	  beside the function API in one transaction (cfshard_sql.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFSHARD_H
#define CFSHARD_H

#include "postgres.h"

#include "libpq-fe.h"

#include "catalog/cfcatalog.h"
#include "storage/cfstorage.h"
#include "storage/cfwrite.h"

/* cfshard.c */
extern void cfShardInit(void);
extern int32 cfShardPartition(const CfColumnFamily *cf, const uint8 *key, int len);
extern int	cfShardPartitions(const char *const **servers);
extern void cfShardStats(const CfColumnFamily *cf, CfStorageStats *st);
extern Oid	cfShardOwner(void);
extern void cfShardQuery(const char *query, int nargs, Oid *types, Datum *values, const bool *nulls);

/* cfshard_plan.c */
extern void cfShardPlanInit(void);

/* cfshard_sql.c */
extern void cfShardSqlInit(void);
extern void cfShardCheckApiRead(const CfColumnFamily *cf);
extern bool cfShardIsShardTable(Oid relid, char relkind);

/* cfshard_table.c */
extern Oid	cfShardTableCreate(const CfColumnFamily *cf);

/* cfshard_xact.c */
extern void cfShardQueueWrite(const char *server, const CfWrite *w);
extern bool cfShardInTransaction(void);
extern void cfShardFlush(void);
extern void cfShardReadAll(char **servers, int n, const char *name, const char *sql, int nparams, const char *const *values,
						   const int *lengths, const int *formats, PGresult **results);

#endif							/* CFSHARD_H */
