/*-------------------------------------------------------------------------
 *
 * cfshard_mapreduce.c
 *	  The map phase of cfstore_shard.map_reduce: every shard server maps
 *	  and reduces its own rows at once (PL/Proxy, SPLIT over one partition
 *	  of each server), and the coordinator gets their per-key results.
 *
 * The job's map and reduce are SQL (src/api/cfmapreduce.c runs them on
 * the shards), so only a role with the privileges of the keyspace's owner
 * may run one, and on the shards it runs as that owner.  This function
 * checks that, then calls the PL/Proxy function as the extension's owner
 * (cfShardQuery), since the cluster's connections are that owner's.  The
 * final reduce and the output (src/sql/shard/40_mapreduce.sql) run as the
 * caller.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"

#include "api/cfapi.h"
#include "shard/cfshard.h"
#include "storage/cfstorage.h"

PG_FUNCTION_INFO_V1(cfstore_shard_map_shards);

/*
 * _map_shards(keyspace, column_family, map, reduce): run the map and the
 * shard-side reduce on every shard server at once; the rows of
 * cfstore._map_local with the server that sent each.
 */
Datum
cfstore_shard_map_shards(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = cfCatalogLookup(text_to_cstring(PG_GETARG_TEXT_PP(0)),
											   text_to_cstring(PG_GETARG_TEXT_PP(1)));
	const char *const *servers;
	int			n = cfShardPartitions(&servers);
	Oid			owner;
	Datum	   *parts;
	int			nparts = 0;
	Oid			types[6] = {INT4ARRAYOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, NAMEOID};
	Datum		values[6];
	bool		nulls[6] = {false};
	ReturnSetInfo *rsinfo;
	MemoryContext cxt = CurrentMemoryContext;

	if (!cf->sharded)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("keyspace %s is not sharded", cf->keyspace),
				 errhint("Run the same aggregate as SQL over its tables.")));
	owner = cfKeyspaceOwner(cf->keyspace);
	if (!has_privs_of_role(GetUserId(), owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to run map_reduce over keyspace %s", cf->keyspace),
				 errdetail("Its map and reduce run on the shard servers as the keyspace's owner, %s.",
						   GetUserNameFromId(owner, false))));
	cfMapReduceCheck("map", text_to_cstring(PG_GETARG_TEXT_PP(2)));
	cfMapReduceCheck("reduce", text_to_cstring(PG_GETARG_TEXT_PP(3)));
	if (cfShardInTransaction())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("map_reduce cannot see this transaction's writes on the shard servers"),
				 errhint("Run it in a transaction that has not written to a sharded keyspace.")));
	cfShardCheckApiRead(cf);

	/* the first partition of each server: SPLIT sends each element to its own server */
	parts = palloc(sizeof(Datum) * n);
	for (int p = 0; p < n; p++)
	{
		bool		seen = false;

		for (int q = 0; q < p; q++)
			seen |= strcmp(servers[q], servers[p]) == 0;
		if (!seen)
			parts[nparts++] = Int32GetDatum(p);
	}
	values[0] = PointerGetDatum(construct_array(parts, nparts, INT4OID, 4, true, TYPALIGN_INT));
	for (int i = 1; i < 5; i++)
		values[i] = PointerGetDatum(PG_GETARG_TEXT_PP(i - 1));
	values[5] = DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(owner, false)));

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	cfShardQuery("SELECT * FROM cfstore_shard._map_all($1, $2, $3, $4, $5, $6)", 6, types, values, nulls);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		Datum		out[9];
		bool		outnull[9];
		bool		isnull;
		int32		part = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
		MemoryContext old = MemoryContextSwitchTo(cxt);

		out[0] = CStringGetTextDatum(part >= 0 && part < n ? servers[part] : "?");
		outnull[0] = false;
		for (int c = 2; c <= 8; c++)
		{
			out[c - 1] = SPI_getbinval(tup, desc, c, &outnull[c - 1]);
			if (!outnull[c - 1])
				out[c - 1] = datumCopy(out[c - 1], TupleDescAttr(desc, c - 1)->attbyval,
									   TupleDescAttr(desc, c - 1)->attlen);
		}
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, out, outnull);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	return (Datum) 0;
}
