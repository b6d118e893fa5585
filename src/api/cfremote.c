/*-------------------------------------------------------------------------
 *
 * cfremote.c
 *	  What a shard server does for the coordinator of a sharded keyspace:
 *	  the storage layer's operations as SQL functions over the encodings.
 *
 * A coordinator (extension cfstore_shard) reads and writes the cells of a
 * sharded column family on the shard that holds their row, through these
 * functions, called by PL/Proxy as the cluster's role: a slice (or every
 * cell of the column family), the row keys from a key on, one cell
 * version written.  Their arguments are the byte encodings the
 * coordinator has already converted and validated; each is validated here
 * again by the same code (cfWriteCell, the slice bounds), and the cells
 * come back as bytes, for the coordinator to render.  The coordinator has
 * checked its caller's privileges; here the cluster's role must have them
 * on the storage relation, as any caller must.  Internal: not executable
 * by PUBLIC.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"

#include "api/cfapi.h"

PG_FUNCTION_INFO_V1(cfstore_remote_slice);
PG_FUNCTION_INFO_V1(cfstore_remote_scan);
PG_FUNCTION_INFO_V1(cfstore_remote_row_keys);
PG_FUNCTION_INFO_V1(cfstore_remote_write);

/* The columns of cfstore.raw_cell. */
#define CF_RAW_NATTS 8

/*
 * Open the storage relation of keyspace.column_family (of its index
 * index_name, if not NULL) for mode; *cfp receives the column family.
 */
static Relation
remote_open(FunctionCallInfo fcinfo, AclMode mode, const char *index_name, const CfColumnFamily **cfp)
{
	const CfColumnFamily *cf;
	int32		id;
	Oid			relid;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		elog(ERROR, "a remote call names its keyspace and column family");
	cf = cfCatalogLookup(text_to_cstring(PG_GETARG_TEXT_PP(0)), text_to_cstring(PG_GETARG_TEXT_PP(1)));
	if (cf->sharded)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("keyspace %s is sharded here too", cf->keyspace),
				 errhint("A shard server holds the keyspaces of its coordinator as plain keyspaces.")));
	relid = cfStorageRelid(cf->id, false);
	if (pg_class_aclcheck(relid, GetUserId(), mode) != ACLCHECK_OK)
		cfPermissionDenied(cf, mode);
	*cfp = cf;
	if (index_name == NULL)
		return cfStorageOpen(relid, mode == ACL_SELECT ? AccessShareLock : RowExclusiveLock);
	id = 0;
	for (int i = 0; i < cf->ncolumns; i++)
		if (cf->columns[i].index_name != NULL && strcmp(cf->columns[i].index_name, index_name) == 0)
		{
			id = cf->columns[i].index_id;
			*cfp = cf->columns[i].index_cf;
		}
	if (id == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("column family %s.%s has no index %s", cf->keyspace, cf->name, index_name)));
	return cfStorageOpen(cfStorageRelid(id, false), AccessShareLock);
}

/* An argument as bytea, or NULL. */
static bytea *
bytes_arg(FunctionCallInfo fcinfo, int argno)
{
	return PG_ARGISNULL(argno) ? NULL : PG_GETARG_BYTEA_PP(argno);
}

/* Add every cell of a slice to the call's result as raw cells. */
static void
emit_raw(FunctionCallInfo fcinfo, CfSliceState *slice)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CfOutCell	c;

	while (cfSliceNext(slice, &c))
	{
		Datum		values[CF_RAW_NATTS];
		bool		nulls[CF_RAW_NATTS] = {false};

		values[0] = PointerGetDatum(c.key);
		if (c.sc != NULL)
			values[1] = PointerGetDatum(c.sc);
		else
			nulls[1] = true;
		values[2] = PointerGetDatum(c.name);
		values[3] = PointerGetDatum(c.value);
		values[4] = Int64GetDatum(c.writetime);
		values[5] = Int32GetDatum(c.ttl);
		values[6] = Int64GetDatum((int64) c.expires_at);
		values[7] = BoolGetDatum(c.is_counter);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * _remote_slice(keyspace, column_family, index_name, key, super_column,
 *				 start, finish, reversed, count, whole_super): the cells of one
 * slice (of the index index_name, if given), as cfSliceBegin reads them.
 */
Datum
cfstore_remote_slice(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, ACL_SELECT,
								  PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2)), &cf);
	CfSliceSpec spec;
	CfSliceState *slice;

	memset(&spec, 0, sizeof(spec));
	spec.key = bytes_arg(fcinfo, 3);
	if (spec.key == NULL)
		cfInvalidRequest("Key may not be empty");
	spec.sc = bytes_arg(fcinfo, 4);
	spec.start = bytes_arg(fcinfo, 5);
	spec.finish = bytes_arg(fcinfo, 6);
	spec.reversed = !PG_ARGISNULL(7) && PG_GETARG_BOOL(7);
	spec.count = PG_ARGISNULL(8) ? PG_INT64_MAX : PG_GETARG_INT64(8);
	spec.whole_super = !PG_ARGISNULL(9) && PG_GETARG_BOOL(9);
	if (cf->index_of == 0)
		cfCheckRange(cf->is_super && spec.sc != NULL ? cf->subcomparator : cf->comparator,
					 spec.start, spec.finish, spec.reversed, spec.count);
	InitMaterializedSRF(fcinfo, 0);
	slice = cfSliceBegin(rel, &spec, GetActiveSnapshot());
	emit_raw(fcinfo, slice);
	cfSliceEnd(slice);
	table_close(rel, NoLock);
	return (Datum) 0;
}

/* _remote_scan(keyspace, column_family): every live cell, in storage order. */
Datum
cfstore_remote_scan(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, ACL_SELECT, NULL, &cf);
	CfRelScanState *scan;
	CfOutCell	c;
	ReturnSetInfo *rsinfo;

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	scan = cfRelScanBegin(rel, GetActiveSnapshot());
	while (cfRelScanNext(scan, &c))
	{
		Datum		values[CF_RAW_NATTS];
		bool		nulls[CF_RAW_NATTS] = {false};

		values[0] = PointerGetDatum(c.key);
		if (c.sc != NULL)
			values[1] = PointerGetDatum(c.sc);
		else
			nulls[1] = true;
		values[2] = PointerGetDatum(c.name);
		values[3] = PointerGetDatum(c.value);
		values[4] = Int64GetDatum(c.writetime);
		values[5] = Int32GetDatum(c.ttl);
		values[6] = Int64GetDatum((int64) c.expires_at);
		values[7] = BoolGetDatum(c.is_counter);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		CHECK_FOR_INTERRUPTS();
	}
	cfRelScanEnd(scan);
	table_close(rel, NoLock);
	return (Datum) 0;
}

/*
 * _remote_row_keys(keyspace, column_family, from, inclusive, max): the
 * first max stored row keys from from on (NULL: the first), in storage
 * order (fewer at the end of the relation).
 */
Datum
cfstore_remote_row_keys(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, ACL_SELECT, NULL, &cf);
	int32		max = PG_ARGISNULL(4) ? 64 : PG_GETARG_INT32(4);
	bytea	   *from = bytes_arg(fcinfo, 2);
	bool		inclusive = PG_ARGISNULL(3) || PG_GETARG_BOOL(3);
	ReturnSetInfo *rsinfo;
	bytea	  **keys;
	int			n;

	if (max <= 0)
		elog(ERROR, "a remote key listing needs a positive max");
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	keys = palloc(sizeof(bytea *) * max);
	/*
	 * The first max keys, not just those of one leaf page as cfNextRowKeys
	 * gives them: the coordinator merges the shards' lists and takes the
	 * first max of the union, which are among each shard's first max.
	 */
	n = 0;
	for (;;)
	{
		int			got = cfNextRowKeys(rel, n == 0 ? from : keys[n - 1], n == 0 ? inclusive : false,
										keys + n, max - n);

		if (got == 0)
			break;
		n += got;
		if (n >= max)
			break;
		CHECK_FOR_INTERRUPTS();
	}
	for (int i = 0; i < n; i++)
	{
		Datum		value = PointerGetDatum(keys[i]);
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
	}
	table_close(rel, NoLock);
	return (Datum) 0;
}

/*
 * _remote_write(keyspace, column_family, kind, key, super_column,
 *				 column_name, value, writetime, ttl, exact_ttl, expires_at): write one cell
 * version (kind: 0 column, 1 counter increment, 2 tombstone) as cfWriteCell
 * does; NULL writetime and ttl as in a CfWrite without them.
 */
Datum
cfstore_remote_write(PG_FUNCTION_ARGS)
{
	int32		kind = PG_ARGISNULL(2) ? -1 : PG_GETARG_INT32(2);
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, kind == CF_WRITE_TOMBSTONE ? ACL_DELETE : ACL_INSERT, NULL, &cf);
	CfWrite		w;
	bytea	   *key = bytes_arg(fcinfo, 3);
	bytea	   *sc = bytes_arg(fcinfo, 4);
	bytea	   *name = bytes_arg(fcinfo, 5);
	bytea	   *value = bytes_arg(fcinfo, 6);

	if (kind < CF_WRITE_COLUMN || kind > CF_WRITE_TOMBSTONE || key == NULL)
		elog(ERROR, "a remote write needs a kind and a key");
	memset(&w, 0, sizeof(w));
	w.cf = cf;
	w.kind = (CfWriteKind) kind;
	w.key = (const uint8 *) VARDATA_ANY(key);
	w.keylen = VARSIZE_ANY_EXHDR(key);
	if (sc != NULL)
	{
		w.sc = (const uint8 *) VARDATA_ANY(sc);
		w.sclen = VARSIZE_ANY_EXHDR(sc);
		w.has_sc = true;
	}
	if (name != NULL)
	{
		w.name = (const uint8 *) VARDATA_ANY(name);
		w.namelen = VARSIZE_ANY_EXHDR(name);
	}
	if (value != NULL)
	{
		w.value = (const uint8 *) VARDATA_ANY(value);
		w.valuelen = VARSIZE_ANY_EXHDR(value);
	}
	w.has_writetime = !PG_ARGISNULL(7);
	w.writetime = w.has_writetime ? PG_GETARG_INT64(7) : 0;
	w.has_ttl = !PG_ARGISNULL(8);
	w.ttl = w.has_ttl ? PG_GETARG_INT32(8) : 0;
	w.exact_ttl = !PG_ARGISNULL(9) && PG_GETARG_BOOL(9);
	w.expires_at = PG_ARGISNULL(10) ? 0 : (uint32) PG_GETARG_INT64(10);
	w.cid = GetCurrentCommandId(true);
	cfWriteCell(rel, &w);
	table_close(rel, NoLock);
	PG_RETURN_VOID();
}
