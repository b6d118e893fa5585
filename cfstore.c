/*-------------------------------------------------------------------------
 *
 * cfstore.c
 *	  Module entry point of cfstore: Cassandra's classic wide-row model
 *	  (column families, comparators, super columns, TTL, counters) inside
 *	  PostgreSQL.
 *
 * The layers live under src/, each calling only those below it (see
 * doc/architecture.md): marshal (Cassandra types and comparators), types
 * (SQL types and functions over the marshal layer), catalog (keyspaces,
 * column families and the DDL functions' entry point), storage (the
 * cfstore table access method), api (the Thrift-style SQL functions) and
 * fdw (the cfstore_fdw foreign data wrapper).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

#include "api/cfcustomscan.h"
#include "catalog/cfcatalog.h"
#include "shard/cfshard.h"
#include "storage/cfstorage.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* Called when the library is loaded into a backend. */
void
_PG_init(void)
{
	cfCatalogInit();
	cfHooksInit();
	cfMergeInit();
	cfShardInit();
	cfSliceScanInit();
}
