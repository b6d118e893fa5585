/*-------------------------------------------------------------------------
 *
 * cfinspect.c
 *	  cfstore.verify and cfstore.stats: the SQL entry points of checking
 *	  and measuring a column family's storage (src/storage/cfverify.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "api/cfapi.h"
#include "shard/cfshard.h"

PG_FUNCTION_INFO_V1(cfstore_verify);
PG_FUNCTION_INFO_V1(cfstore_stats);

/*
 * cfstore.verify(keyspace, column_family): raise if the storage is
 * inconsistent: the column family's tree, its indexes' trees, and an entry
 * in its indexes for every live indexed value.
 */
Datum
cfstore_verify(PG_FUNCTION_ARGS)
{
	CfTarget	t;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	cfVerifyTree(t.rel, t.rel);
	if (t.cf->nindexes > 0)
		cfIndexVerify(t.rel, t.cf, cfVerifyTree);
	cfTargetClose(&t);
	PG_RETURN_VOID();
}

/*
 * cfstore.stats(keyspace, column_family): pages, height, leaf pages, cell
 * versions, live cells, tombstones, bytes per live cell, and how full the
 * leaves are on average (percent of what a rebuilt leaf holds), and the
 * pages in the tree (the others are free, unlinked or overflow pages).
 */
Datum
cfstore_stats(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfStorageStats st;
	TupleDesc	desc;
	Datum		values[9];
	bool		nulls[9] = {false, false, false, false, false, false, false, false, false};
	uint64		bytes;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	if (t.cf->sharded)
		cfShardStats(t.cf, &st);	/* its storage is on the shard servers */
	else
		cfStorageStats(t.rel, &st);
	cfTargetClose(&t);
	bytes = (uint64) st.pages * BLCKSZ;

	values[0] = Int64GetDatum(st.pages);
	values[1] = Int32GetDatum(st.height);
	values[2] = Int64GetDatum(st.leaf_pages);
	values[3] = Int64GetDatum(st.versions);
	values[4] = Int64GetDatum(st.live_cells);
	values[5] = Int64GetDatum(st.tombstones);
	if (st.live_cells > 0)
		values[6] = DirectFunctionCall1(float8_numeric,
										Float8GetDatum(round((double) bytes / st.live_cells * 10) / 10));
	else
		nulls[6] = true;
	if (st.leaf_room > 0)
		values[7] = DirectFunctionCall1(float8_numeric,
										Float8GetDatum(round(st.leaf_used / st.leaf_room * 1000) / 10));
	else
		nulls[7] = true;
	values[8] = Int64GetDatum(st.tree_pages);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
