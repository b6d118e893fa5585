/*-------------------------------------------------------------------------
 *
 * cfremote.c
 *	  What a shard server does for the coordinator of a sharded keyspace:
 *	  the storage layer's operations as SQL functions over the encodings.
 *
 * A coordinator (extension cfstore_shard) reads and writes the cells of a
 * sharded column family on the shard that holds their row, through these
 * functions, called as the cluster's role (by PL/Proxy, or on the
 * coordinator's own connection inside its transaction): a slice (or every
 * cell of the column family), the row keys from a key on, a batch of cell
 * versions written (cfremote.h).  Their arguments are the byte encodings the
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
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"

#include "api/cfapi.h"
#include "api/cfremote.h"

PG_FUNCTION_INFO_V1(cfstore_remote_slice);
PG_FUNCTION_INFO_V1(cfstore_remote_scan);
PG_FUNCTION_INFO_V1(cfstore_remote_row_keys);
PG_FUNCTION_INFO_V1(cfstore_read_slice);
PG_FUNCTION_INFO_V1(cfstore_read_row_keys);
PG_FUNCTION_INFO_V1(cfstore_remote_write_batch);

/* The columns of cfstore.raw_cell. */
#define CF_RAW_NATTS 8

/* The key listing's first allocation (it doubles as keys come, up to the max asked for). */
#define CF_KEYS_CHUNK 1024

/*
 * Open the storage relation of keyspace.column_family (of its index
 * index_name, if not NULL) for mode; *cfp receives the column family.  On
 * a coordinator (_read_slice, _read_row_keys), the storage layer reads a
 * sharded column family's relations from the shards: an index's slice
 * from every shard, merged, as get_indexed_slices reads it.
 */
static Relation
remote_open(FunctionCallInfo fcinfo, AclMode mode, const char *index_name, const CfColumnFamily **cfp,
			bool local_only)
{
	const CfColumnFamily *cf;
	int32		id;
	Oid			relid;

	/* as the function API answers a NULL keyspace or column family */
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_SCHEMA_NAME),
				 errmsg("Keyspace null does not exist")));
	if (PG_ARGISNULL(1) || VARSIZE_ANY_EXHDR(PG_GETARG_TEXT_PP(1)) == 0)
		cfInvalidRequest("non-empty columnfamily is required");
	cf = cfCatalogLookup(text_to_cstring(PG_GETARG_TEXT_PP(0)), text_to_cstring(PG_GETARG_TEXT_PP(1)));
	if (cf->sharded && local_only)
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

/* Add one cell to the call's result as a raw cell. */
static void
emit_raw(ReturnSetInfo *rsinfo, const CfOutCell *c)
{
	Datum		values[CF_RAW_NATTS];
	bool		nulls[CF_RAW_NATTS] = {false};

	values[0] = PointerGetDatum(c->key);
	if (c->sc != NULL)
		values[1] = PointerGetDatum(c->sc);
	else
		nulls[1] = true;
	values[2] = PointerGetDatum(c->name);
	values[3] = PointerGetDatum(c->value);
	values[4] = Int64GetDatum(c->writetime);
	values[5] = Int32GetDatum(c->ttl);
	values[6] = Int64GetDatum((int64) c->expires_at);
	values[7] = BoolGetDatum(c->is_counter);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/* The encoded cells of a call's result (cfremote.h), cut into rows of about CF_CELLS_CHUNK bytes. */
typedef struct CellRows
{
	ReturnSetInfo *rsinfo;
	StringInfoData buf;			/* the row being filled: a bytea */
	bytea	   *prev_key;		/* a copy of the key of its last cell, NULL at its start */
} CellRows;

/* Start the rows of encoded cells of the call. */
static void
cell_rows_begin(FunctionCallInfo fcinfo, CellRows *rows)
{
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	rows->rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	initStringInfo(&rows->buf);
	appendStringInfoSpaces(&rows->buf, VARHDRSZ);
	rows->prev_key = NULL;
}

/* Add the row being filled, if it holds a cell, to the result. */
static void
cell_rows_flush(CellRows *rows)
{
	Datum		value;
	bool		isnull = false;

	if (rows->buf.len == VARHDRSZ)
		return;
	SET_VARSIZE(rows->buf.data, rows->buf.len);
	value = PointerGetDatum(rows->buf.data);
	tuplestore_putvalues(rows->rsinfo->setResult, rows->rsinfo->setDesc, &value, &isnull);
	resetStringInfo(&rows->buf);
	appendStringInfoSpaces(&rows->buf, VARHDRSZ);
	if (rows->prev_key != NULL)
		pfree(rows->prev_key);
	rows->prev_key = NULL;
}

/* Add one cell to the rows of encoded cells. */
static void
cell_rows_add(CellRows *rows, const CfOutCell *c)
{
	if (rows->buf.len >= CF_CELLS_CHUNK)
		cell_rows_flush(rows);
	if (cfRemoteEncodeCell(&rows->buf, c, rows->prev_key))
	{
		/* the slice may reuse the memory of a cell's key for the next one's: keep a copy */
		if (rows->prev_key != NULL)
			pfree(rows->prev_key);
		rows->prev_key = cfMakeBytea(VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key));
	}
}

/*
 * _remote_slice(keyspace, column_family, index_name, key, super_column,
 *				 start, finish, reversed, count, whole_super): the cells of one
 * slice (of the index index_name, if given), as cfSliceBegin reads them,
 * encoded for the coordinator (remote: rows of cells, cfremote.h).
 * _read_slice, for cql(), cli() and find_objects: the same as rows of
 * raw_cell, on a coordinator too (whose slices cfSliceBegin reads from its
 * shard servers).
 */
static Datum
slice_cells(FunctionCallInfo fcinfo, bool remote)
{
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, ACL_SELECT,
								  PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2)), &cf,
								  remote);
	CfSliceSpec spec;
	CfSliceState *slice;
	CfOutCell	c;
	CellRows	rows;

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
	if (remote)
		cell_rows_begin(fcinfo, &rows);
	else
		InitMaterializedSRF(fcinfo, 0);
	slice = cfSliceBegin(rel, &spec, GetActiveSnapshot());
	while (cfSliceNext(slice, &c))
	{
		if (remote)
			cell_rows_add(&rows, &c);
		else
			emit_raw((ReturnSetInfo *) fcinfo->resultinfo, &c);
		CHECK_FOR_INTERRUPTS();
	}
	if (remote)
		cell_rows_flush(&rows);
	cfSliceEnd(slice);
	table_close(rel, NoLock);
	return (Datum) 0;
}

Datum
cfstore_remote_slice(PG_FUNCTION_ARGS)
{
	return slice_cells(fcinfo, true);
}

Datum
cfstore_read_slice(PG_FUNCTION_ARGS)
{
	return slice_cells(fcinfo, false);
}

/* _remote_scan(keyspace, column_family): every live cell, in storage order, encoded. */
Datum
cfstore_remote_scan(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, ACL_SELECT, NULL, &cf, true);
	CfRelScanState *scan;
	CfOutCell	c;
	CellRows	rows;

	cell_rows_begin(fcinfo, &rows);
	scan = cfRelScanBegin(rel, GetActiveSnapshot());
	while (cfRelScanNext(scan, &c))
	{
		cell_rows_add(&rows, &c);
		CHECK_FOR_INTERRUPTS();
	}
	cell_rows_flush(&rows);
	cfRelScanEnd(scan);
	table_close(rel, NoLock);
	return (Datum) 0;
}

/*
 * _remote_row_keys(keyspace, column_family, from, inclusive, max): the
 * first max stored row keys from from on (NULL: the first), in storage
 * order (fewer at the end of the relation).  _read_row_keys: the same, on
 * a coordinator too.
 */
static Datum
row_keys(FunctionCallInfo fcinfo, bool local_only)
{
	const CfColumnFamily *cf;
	Relation	rel = remote_open(fcinfo, ACL_SELECT, NULL, &cf, local_only);
	int32		max = PG_ARGISNULL(4) ? 64 : PG_GETARG_INT32(4);
	bytea	   *from = bytes_arg(fcinfo, 2);
	bool		inclusive = PG_ARGISNULL(3) || PG_GETARG_BOOL(3);
	ReturnSetInfo *rsinfo;
	bytea	  **keys;
	int			n;
	int			room;

	if (max <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a key listing needs a positive maximum (got %d)", max)));
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	/* room for what the relation may hold, not for any max a caller names */
	keys = palloc(sizeof(bytea *) * Min(max, CF_KEYS_CHUNK));
	/*
	 * The first max keys, not just those of one leaf page as cfNextRowKeys
	 * gives them: the coordinator merges the shards' lists and takes the
	 * first max of the union, which are among each shard's first max.
	 */
	n = 0;
	room = Min(max, CF_KEYS_CHUNK);
	for (;;)
	{
		int			got;

		if (n == room)
		{
			room = (int) Min((int64) room * 2, (int64) max);
			keys = repalloc(keys, sizeof(bytea *) * room);
		}
		got = cfNextRowKeys(rel, n == 0 ? from : keys[n - 1], n == 0 ? inclusive : false,
							keys + n, room - n);

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

Datum
cfstore_remote_row_keys(PG_FUNCTION_ARGS)
{
	return row_keys(fcinfo, true);
}

Datum
cfstore_read_row_keys(PG_FUNCTION_ARGS)
{
	return row_keys(fcinfo, false);
}

/* Append one cell write to a batch for a shard (the format is in cfremote.h). */
void
cfRemoteEncodeWrite(StringInfo buf, const CfWrite *w)
{
	int			kslen = strlen(w->cf->keyspace);
	int			cflen = strlen(w->cf->name);
	uint8		flags = 0;

	if (w->has_sc)
		flags |= CF_REMOTE_SC;
	if (w->name != NULL)
		flags |= CF_REMOTE_NAME;
	if (w->value != NULL)
		flags |= CF_REMOTE_VALUE;
	if (w->has_writetime)
		flags |= CF_REMOTE_WRITETIME;
	if (w->has_ttl)
		flags |= CF_REMOTE_TTL;
	if (w->exact_ttl)
		flags |= CF_REMOTE_EXACT_TTL;
	pq_sendint8(buf, (uint8) w->kind);
	pq_sendint8(buf, flags);
	pq_sendint16(buf, (uint16) kslen);
	pq_sendbytes(buf, w->cf->keyspace, kslen);
	pq_sendint16(buf, (uint16) cflen);
	pq_sendbytes(buf, w->cf->name, cflen);
	pq_sendint32(buf, (uint32) w->keylen);
	pq_sendbytes(buf, (const char *) w->key, w->keylen);
	if (flags & CF_REMOTE_SC)
	{
		pq_sendint32(buf, (uint32) w->sclen);
		pq_sendbytes(buf, (const char *) w->sc, w->sclen);
	}
	if (flags & CF_REMOTE_NAME)
	{
		pq_sendint32(buf, (uint32) w->namelen);
		pq_sendbytes(buf, (const char *) w->name, w->namelen);
	}
	if (flags & CF_REMOTE_VALUE)
	{
		pq_sendint32(buf, (uint32) w->valuelen);
		pq_sendbytes(buf, (const char *) w->value, w->valuelen);
	}
	pq_sendint64(buf, w->writetime);
	pq_sendint32(buf, (uint32) w->ttl);
	pq_sendint32(buf, w->expires_at);
}

/*
 * Append one cell to a row of encoded cells (cfremote.h); prev_key: the
 * key of the row's last cell, or NULL.  True if the cell's key was written
 * (it differs from prev_key).
 */
bool
cfRemoteEncodeCell(StringInfo buf, const CfOutCell *c, const bytea *prev_key)
{
	uint8		flags = 0;

	if (prev_key == NULL || VARSIZE_ANY(prev_key) != VARSIZE_ANY(c->key) ||
		memcmp(VARDATA_ANY(prev_key), VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key)) != 0)
		flags |= CF_CELL_KEY;
	if (c->sc != NULL)
		flags |= CF_CELL_SC;
	if (c->is_counter)
		flags |= CF_CELL_COUNTER;
	pq_sendint8(buf, flags);
	if (flags & CF_CELL_KEY)
	{
		pq_sendint32(buf, (uint32) VARSIZE_ANY_EXHDR(c->key));
		pq_sendbytes(buf, VARDATA_ANY(c->key), VARSIZE_ANY_EXHDR(c->key));
	}
	if (flags & CF_CELL_SC)
	{
		pq_sendint32(buf, (uint32) VARSIZE_ANY_EXHDR(c->sc));
		pq_sendbytes(buf, VARDATA_ANY(c->sc), VARSIZE_ANY_EXHDR(c->sc));
	}
	pq_sendint32(buf, (uint32) VARSIZE_ANY_EXHDR(c->name));
	pq_sendbytes(buf, VARDATA_ANY(c->name), VARSIZE_ANY_EXHDR(c->name));
	pq_sendint32(buf, (uint32) VARSIZE_ANY_EXHDR(c->value));
	pq_sendbytes(buf, VARDATA_ANY(c->value), VARSIZE_ANY_EXHDR(c->value));
	pq_sendint64(buf, c->writetime);
	pq_sendint32(buf, (uint32) c->ttl);
	pq_sendint32(buf, c->expires_at);
	return (flags & CF_CELL_KEY) != 0;
}

/* The next length-prefixed byte string of a row of encoded cells, as a bytea. */
static bytea *
cell_bytes(StringInfo msg)
{
	int			len = (int) pq_getmsgint(msg, 4);

	if (len < 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROTOCOL_VIOLATION),
				 errmsg("invalid length in the cells a shard server returned")));
	return cfMakeBytea((const uint8 *) pq_getmsgbytes(msg, len), len);
}

/*
 * Append the cells of one row of encoded cells (data, len bytes) to
 * *cells (*n of them, room for *cap; the array is grown in the current
 * memory context), their byte strings copied into it.
 */
void
cfRemoteDecodeCells(const char *data, int len, CfOutCell **cells, int *n, int *cap)
{
	StringInfoData msg;
	bytea	   *key = NULL;

	msg.data = (char *) data;
	msg.len = len;
	msg.maxlen = len;
	msg.cursor = 0;
	while (msg.cursor < msg.len)
	{
		int			flags = pq_getmsgbyte(&msg);
		CfOutCell  *c;

		if (*n == *cap)
		{
			*cap = Max(*cap * 2, 16);
			*cells = *cells == NULL ? palloc(sizeof(CfOutCell) * *cap)
				: repalloc(*cells, sizeof(CfOutCell) * *cap);
		}
		c = &(*cells)[*n];
		memset(c, 0, sizeof(CfOutCell));
		if (flags & CF_CELL_KEY)
			key = cell_bytes(&msg);
		else if (key == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_PROTOCOL_VIOLATION),
					 errmsg("a row of cells a shard server returned starts without a key")));
		c->key = key;
		c->sc = (flags & CF_CELL_SC) ? cell_bytes(&msg) : NULL;
		c->name = cell_bytes(&msg);
		c->value = cell_bytes(&msg);
		c->writetime = (int64) pq_getmsgint64(&msg);
		c->ttl = (int32) pq_getmsgint(&msg, 4);
		c->expires_at = (uint32) pq_getmsgint(&msg, 4);
		c->is_counter = (flags & CF_CELL_COUNTER) != 0;
		(*n)++;
	}
}

/* The next length-prefixed byte string of a batch (length of len_bytes bytes). */
static const uint8 *
batch_bytes(StringInfo msg, int len_bytes, int *len)
{
	*len = (int) pq_getmsgint(msg, len_bytes);
	if (*len < 0)
		elog(ERROR, "invalid length in a remote write batch");
	return (const uint8 *) pq_getmsgbytes(msg, *len);
}

/* A column family of a batch, opened once for the batch. */
typedef struct BatchTarget
{
	char	   *keyspace;
	char	   *name;
	const CfColumnFamily *cf;
	Relation	rel;
	bool		insert_checked;
	bool		delete_checked;
} BatchTarget;

/* The open column family keyspace.name of a batch (opened on first use). */
static BatchTarget *
batch_target(List **targets, const char *ks, int kslen, const char *name, int namelen)
{
	ListCell   *lc;
	BatchTarget *t;

	foreach(lc, *targets)
	{
		t = lfirst(lc);
		if (strlen(t->keyspace) == (size_t) kslen && memcmp(t->keyspace, ks, kslen) == 0 &&
			strlen(t->name) == (size_t) namelen && memcmp(t->name, name, namelen) == 0)
			return t;
	}
	t = palloc0(sizeof(BatchTarget));
	t->keyspace = pnstrdup(ks, kslen);
	t->name = pnstrdup(name, namelen);
	t->cf = cfCatalogLookup(t->keyspace, t->name);
	if (t->cf->sharded)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("keyspace %s is sharded here too", t->cf->keyspace),
				 errhint("A shard server holds the keyspaces of its coordinator as plain keyspaces.")));
	t->rel = cfStorageOpen(cfStorageRelid(t->cf->id, false), RowExclusiveLock);
	*targets = lappend(*targets, t);
	return t;
}

/*
 * _remote_write_batch(batch): write the cell versions of a batch
 * (cfremote.h) in order, as cfWriteCell does; the cluster's role needs
 * INSERT on the column families it writes, DELETE on those it deletes from.
 */
Datum
cfstore_remote_write_batch(PG_FUNCTION_ARGS)
{
	bytea	   *batch = PG_GETARG_BYTEA_PP(0);
	StringInfoData msg;
	List	   *targets = NIL;
	ListCell   *lc;
	CommandId	cid = GetCurrentCommandId(true);
	int64		n = 0;

	msg.data = VARDATA_ANY(batch);
	msg.len = VARSIZE_ANY_EXHDR(batch);
	msg.maxlen = msg.len;
	msg.cursor = 0;
	while (msg.cursor < msg.len)
	{
		CfWrite		w;
		int			kind = pq_getmsgbyte(&msg);
		int			flags = pq_getmsgbyte(&msg);
		int			kslen;
		int			cflen;
		const uint8 *ks = batch_bytes(&msg, 2, &kslen);
		const uint8 *cfname = batch_bytes(&msg, 2, &cflen);
		BatchTarget *t = batch_target(&targets, (const char *) ks, kslen, (const char *) cfname, cflen);

		bool		deletion = kind == CF_WRITE_TOMBSTONE || kind == CF_WRITE_RANGE_TOMBSTONE;

		if (kind < CF_WRITE_COLUMN || kind > CF_WRITE_RANGE_TOMBSTONE)
			elog(ERROR, "invalid kind %d in a remote write batch", kind);
		if (deletion ? !t->delete_checked : !t->insert_checked)
		{
			AclMode		mode = deletion ? ACL_DELETE : ACL_INSERT;

			if (pg_class_aclcheck(RelationGetRelid(t->rel), GetUserId(), mode) != ACLCHECK_OK)
				cfPermissionDenied(t->cf, mode);
			if (deletion)
				t->delete_checked = true;
			else
				t->insert_checked = true;
		}
		memset(&w, 0, sizeof(w));
		w.cf = t->cf;
		w.kind = (CfWriteKind) kind;
		w.key = batch_bytes(&msg, 4, &w.keylen);
		w.has_sc = (flags & CF_REMOTE_SC) != 0;
		if (w.has_sc)
			w.sc = batch_bytes(&msg, 4, &w.sclen);
		if (flags & CF_REMOTE_NAME)
			w.name = batch_bytes(&msg, 4, &w.namelen);
		if (flags & CF_REMOTE_VALUE)
			w.value = batch_bytes(&msg, 4, &w.valuelen);
		w.writetime = (int64) pq_getmsgint64(&msg);
		w.has_writetime = (flags & CF_REMOTE_WRITETIME) != 0;
		w.ttl = (int32) pq_getmsgint(&msg, 4);
		w.has_ttl = (flags & CF_REMOTE_TTL) != 0;
		w.exact_ttl = (flags & CF_REMOTE_EXACT_TTL) != 0;
		w.expires_at = pq_getmsgint(&msg, 4);
		w.cid = cid;
		cfWriteCell(t->rel, &w);
		n++;
		CHECK_FOR_INTERRUPTS();
	}
	foreach(lc, targets)
		table_close(((BatchTarget *) lfirst(lc))->rel, NoLock);
	PG_RETURN_INT64(n);
}
