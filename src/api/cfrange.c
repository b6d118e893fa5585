/*-------------------------------------------------------------------------
 *
 * cfrange.c
 *	  get_range_slices: the rows of a key range in key order (README.md
 *	  "Reading and writing", doc/semantics.md §8.5).
 *
 * Keys are in unsigned byte order of their encoding (the order of
 * Cassandra's ByteOrderedPartitioner, and the order rows are stored in),
 * both bounds inclusive.  The range is walked a leaf page of row keys at a
 * time: read the row keys stored on the next page, then slice each row
 * with the predicate; a row that returns nothing (only tombstones, expired
 * or shadowed cells, or nothing in the predicate's range) neither appears
 * nor counts towards key_count.  A call reads the rows it returns and
 * those it skips, one descent each, plus one descent per leaf page of keys.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"

#include "api/cfapi.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_get_range_slices);

/* get_range_slices's argument positions (sql/60_api.sql) */
#define ARG_START_KEY 2
#define ARG_END_KEY 3
#define ARG_KEY_COUNT 4
#define ARG_START 5
#define ARG_FINISH 6
#define ARG_REVERSED 7
#define ARG_COUNT 8
#define ARG_SUPER_COLUMN 9

/* Compare two encoded row keys in storage order. */
static int
key_compare(const bytea *a, const bytea *b)
{
	return cfBytesCompare((const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a),
						  (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
}

/*
 * Check a key range (doc/semantics.md §8.5, in Cassandra's order: bounds, then the
 * row count).
 */
static void
check_key_range(const bytea *start_key, const bytea *end_key, int32 key_count)
{
	if (start_key != NULL && end_key != NULL && key_compare(start_key, end_key) > 0)
		cfInvalidRequest("start key must sort before (or equal to) finish key in your partitioner!");
	if (key_count <= 0)
		cfInvalidRequest("maxRows must be positive");
}

/* A range being read: the rows returned, and where the range ends. */
typedef struct CfRange
{
	CfRowsOut	out;
	const bytea *end_key;
} CfRange;

/* Emit one row of a range; true when the range is done. */
static bool
range_row(bytea *key, void *arg)
{
	CfRange    *r = (CfRange *) arg;

	if (r->end_key != NULL && key_compare(key, r->end_key) > 0)
		return true;
	return cfEmitRow(&r->out, key);
}

/*
 * get_range_slices(keyspace, column_family, start_key, end_key, key_count,
 *					start, finish, reversed, count, super_column)
 */
Datum
cfstore_get_range_slices(PG_FUNCTION_ARGS)
{
	CfTarget	t;
	CfSliceSpec spec;
	bytea	   *start_key;
	bytea	   *end_key;
	int32		key_count;

	cfTargetOpen(&t, fcinfo, ACL_SELECT);
	memset(&spec, 0, sizeof(spec));
	cfSlicePredicate(fcinfo, t.cf, ARG_SUPER_COLUMN, ARG_START, ARG_FINISH, ARG_REVERSED, ARG_COUNT,
					 &spec);
	start_key = cfArgBound(fcinfo, ARG_START_KEY, t.cf->key_validator, "start_key");
	end_key = cfArgBound(fcinfo, ARG_END_KEY, t.cf->key_validator, "end_key");
	key_count = cfArgIsNull(fcinfo, ARG_KEY_COUNT) ? 100 : PG_GETARG_INT32(ARG_KEY_COUNT);
	check_key_range(start_key, end_key, key_count);

	cfBeginResult(fcinfo);
	/* a count of 0 returns nothing from any row: no need to look */
	if (spec.count > 0)
	{
		CfRange		r = {{fcinfo, &t, &spec, key_count, 0}, end_key};

		cfForEachRowKey(t.rel, start_key, range_row, &r);
	}
	cfTargetClose(&t);
	return (Datum) 0;
}
