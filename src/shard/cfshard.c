/*-------------------------------------------------------------------------
 *
 * cfshard.c
 *	  The coordinator of a sharded keyspace: its column families' cells are
 *	  read and written on the shard servers (extension cfstore_shard).
 *
 * Design (README.md, "Scale-out").  A sharded keyspace is defined on the
 * coordinator as on any server, and its storage relations here stay
 * empty: the storage layer hands every slice, scan, key listing and write
 * of such a column family to the functions below (cfstorage.h,
 * CfRemoteStorage), so the function API, the foreign tables and
 * batch_mutate keep their code, their checks and their errors, and only
 * where the cells are changes.
 *
 * A row key belongs to partition hash % partitions, hash being what
 * PostgreSQL's hash partitioning computes for the key as a value of its
 * foreign table column's SQL type (text under the C collation for UTF8Type
 * keys, bigint for LongType, ...), so a table of the coordinator
 * partitioned by hash of the key would place each row on the same
 * partition.  A slice goes to the one shard of its row, on the
 * coordinator's own connection there (cfshard_xact.c) as a statement
 * prepared once per session, which serves 2.5 times as many slices a
 * second as a PL/Proxy call did (that planned an SPI query here and had
 * the shard parse a statement, each time); the slice of
 * an index, a whole scan and a key listing go to every shard at once
 * (PL/Proxy, RUN ON ALL) and are merged here: by row key for scans and
 * listings, by row key within the index's row for index slices.  Writes
 * are not sent from here: they join the pending writes of the transaction
 * (cfshard_xact.c), which commit with it; while the transaction has
 * anything on the shards, every read goes through its own connections
 * there instead of PL/Proxy's, so that it sees its writes.
 *
 * The PL/Proxy functions (schema cfstore_shard) are the extension's owner's
 * alone; the calls run as that owner, the caller's privileges having been
 * checked on this server's storage relation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/hash.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "partitioning/partbounds.h"
#include "port/pg_bswap.h"
#include "utils/memutils.h"

#include "api/cfremote.h"
#include "fdw/cffdw.h"
#include "shard/cfpq.h"
#include "shard/cfshard.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_shard_partition_of);

/* The partitions of the cluster and their servers, once read (they do not move). */
static int	cf_partitions = 0;
static char **cf_partition_server = NULL;

/* The distinct servers of the partitions, and their libpq connection strings. */
static int	cf_nservers = 0;
static char **cf_servers = NULL;
static char **cf_server_conninfo = NULL;

/* Cells received from shards, handed out in order. */
typedef struct CfShardCells
{
	CfRemoteSlice base;
	MemoryContext cxt;
	CfOutCell  *cells;
	int			n;
	int			next;
} CfShardCells;

/* Read the partitions of the cluster and their servers; raise if there are none. */
static void
read_partitions(void)
{
	int			pin;
	int			n;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute("SELECT p.server, cfstore_shard._conninfo(s) FROM cfstore_shard.partition p"
					" JOIN cfstore_shard.server s ON s.name = p.server ORDER BY p.partition", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the partitions of the cluster");
	n = (int) SPI_processed;
	if (n > 0)
	{
		char	  **servers = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * n);

		for (int i = 0; i < n; i++)
			servers[i] = MemoryContextStrdup(TopMemoryContext,
											 SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		cf_servers = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * n);
		cf_server_conninfo = MemoryContextAllocZero(TopMemoryContext, sizeof(char *) * n);
		for (int i = 0; i < n; i++)
		{
			bool		seen = false;

			for (int j = 0; j < cf_nservers; j++)
				seen |= strcmp(cf_servers[j], servers[i]) == 0;
			if (!seen)
			{
				cf_server_conninfo[cf_nservers] =
					MemoryContextStrdup(TopMemoryContext,
										SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));
				cf_servers[cf_nservers++] = servers[i];
			}
		}
		cf_partition_server = servers;
		cf_partitions = n;
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	if (cf_partitions == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("a sharded keyspace needs the cluster's partitions"),
				 errhint("Create them with cfstore_shard.create_cluster().")));
}

/* The number of partitions of the cluster. */
static int
shard_partitions(void)
{
	if (cf_partitions == 0)
		read_partitions();
	return cf_partitions;
}

/* The number of partitions of the cluster, and the server of each. */
int
cfShardPartitions(const char *const **servers)
{
	(void) shard_partitions();
	*servers = (const char *const *) cf_partition_server;
	return cf_partitions;
}

/* A row key as a value of the SQL type typid of its foreign table column. */
static Datum
key_datum(const CfType *type, Oid typid, const uint8 *key, int len)
{
	Oid			input;
	Oid			ioparam;

	if (typid == BYTEAOID)
		return PointerGetDatum(cfMakeBytea(key, len));
	if (typid == TEXTOID)
		return PointerGetDatum(cstring_to_text(cfTypeToString(type, key, len)));
	getTypeInputInfo(typid, &input, &ioparam);
	return OidInputFunctionCall(input, cfTypeToString(type, key, len), ioparam, -1);
}

/*
 * The partition of a row key: PostgreSQL's hash partitioning of the key
 * as a value of its SQL type, modulo the number of partitions.
 */
int32
cfShardPartition(const CfColumnFamily *cf, const uint8 *key, int len)
{
	/* the extended hash function of the last key type, looked up once */
	static Oid	hash_type = InvalidOid;
	static FmgrInfo hash_fn;
	Oid			typid = cfFdwSqlType(cf->key_validator);
	Oid			collation = typid == TEXTOID ? C_COLLATION_OID : InvalidOid;
	Datum		value;
	bool		isnull = false;

	if (typid != hash_type)
	{
		Oid			opclass = GetDefaultOpClass(typid, HASH_AM_OID);
		Oid			proc;

		if (!OidIsValid(opclass))
			elog(ERROR, "type %s has no hash operator class", format_type_be(typid));
		proc = get_opfamily_proc(get_opclass_family(opclass), get_opclass_input_type(opclass),
								 get_opclass_input_type(opclass), HASHEXTENDED_PROC);
		if (!OidIsValid(proc))
			elog(ERROR, "type %s has no extended hash function", format_type_be(typid));
		hash_type = InvalidOid;
		fmgr_info_cxt(proc, &hash_fn, TopMemoryContext);
		hash_type = typid;
	}
	value = key_datum(cf->key_validator, typid, key, len);
	/* PostgreSQL's own computation, as its hash partitioning routes the key */
	return (int32) (compute_partition_hash_value(1, &hash_fn, &collation, &value, &isnull) %
					(uint64) shard_partitions());
}

/*
 * partition_of(keyspace, column_family, key): the partition a row key of
 * a column family belongs to (the key as its bytes).
 */
Datum
cfstore_shard_partition_of(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = cfCatalogLookup(text_to_cstring(PG_GETARG_TEXT_PP(0)),
											   text_to_cstring(PG_GETARG_TEXT_PP(1)));
	bytea	   *key = PG_GETARG_BYTEA_PP(2);

	PG_RETURN_INT32(cfShardPartition(cf, (const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)));
}

/* The owner of extension cfstore_shard, once read: the remote calls run as that role. */
static Oid	cf_shard_owner = InvalidOid;

/* The owner of extension cfstore_shard; raise if it is not installed. */
Oid
cfShardOwner(void)
{
	int			pin;
	if (!OidIsValid(cf_shard_owner))
	{
		bool		isnull = true;
		Datum		owner = (Datum) 0;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		pin = cfSearchPathPin();
		if (SPI_execute("SELECT extowner FROM pg_catalog.pg_extension WHERE extname = 'cfstore_shard'",
						true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not read the owner of extension cfstore_shard");
		if (SPI_processed == 1)
			owner = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		cfSearchPathRestore(pin);
		SPI_finish();
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("keyspaces are sharded here but extension cfstore_shard is not installed")));
		cf_shard_owner = DatumGetObjectId(owner);
	}
	return cf_shard_owner;
}

/* Name the shard servers that do not answer, when a call on every shard failed. */
static void
shard_error_context(void *arg pg_attribute_unused())
{
	StringInfoData down;

	/* cfShardQuery loaded libpq before the call (not here: this runs inside error reporting) */
	if (!cfPqLoaded())
		return;
	initStringInfo(&down);
	for (int i = 0; i < cf_nservers; i++)
		if (PQping(psprintf("%s connect_timeout=5", cf_server_conninfo[i])) != PQPING_OK)
			appendStringInfo(&down, "%s%s", down.len > 0 ? ", " : "", cf_servers[i]);
	if (down.len > 0)
		errcontext("on the shard servers (not answering: %s)", down.data);
	else
		errcontext("on the shard servers");
}

/*
 * Run query (a call of a cfstore_shard PL/Proxy function on every shard)
 * with its arguments, as the extension's owner, in SPI (connected by the
 * caller).
 */
void
cfShardQuery(const char *query, int nargs, Oid *types, Datum *values, const bool *nulls)
{
	Oid			save_userid;
	int			save_sec;
	char		n[FUNC_MAX_ARGS];
	Oid			owner = cfShardOwner();
	volatile int ret = 0;
	ErrorContextCallback context;

	for (int i = 0; i < nargs; i++)
		n[i] = nulls[i] ? 'n' : ' ';
	cfPqLoad();					/* for shard_error_context's pings */
	context.callback = shard_error_context;
	context.arg = NULL;
	context.previous = error_context_stack;
	error_context_stack = &context;
	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(owner, save_sec | SECURITY_LOCAL_USERID_CHANGE);
	PG_TRY();
	{
		ret = SPI_execute_with_args(query, nargs, types, values, n, false, 0);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec);
	}
	PG_END_TRY();
	error_context_stack = context.previous;
	if (ret < 0)
		elog(ERROR, "could not run %s", query);
}

/* A bytea argument from a byte string that may be NULL. */
static Datum
bytes_datum(const bytea *b, bool *isnull)
{
	*isnull = (b == NULL);
	return b == NULL ? (Datum) 0 : PointerGetDatum(b);
}

/* Copy a bytea column of a result row into the current context (NULL stays NULL). */
static bytea *
copy_bytes(HeapTuple tup, TupleDesc desc, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);

	return isnull ? NULL : DatumGetByteaPCopy(d);
}

/* The cells of an SPI result of rows of encoded cells (cfremote.h), copied into cxt. */
static CfShardCells *
cells_from_result(MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	CfShardCells *r = palloc0(sizeof(CfShardCells));
	int			cap = 0;

	r->cxt = cxt;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		bytea	   *b = DatumGetByteaPP(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));

		if (isnull)
			elog(ERROR, "a shard server returned a null row of cells");
		cfRemoteDecodeCells(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), &r->cells, &r->n, &cap);
	}
	if (r->cells == NULL)
		r->cells = palloc0(sizeof(CfOutCell));
	MemoryContextSwitchTo(old);
	return r;
}

/* A binary result column as bytea in the current context (NULL stays NULL). */
static bytea *
pg_bytes(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return NULL;
	return cfMakeBytea((const uint8 *) PQgetvalue(res, row, col), PQgetlength(res, row, col));
}

/* A binary result column of an integer type of len bytes (network order). */
static int64
pg_int(const PGresult *res, int row, int col, int len)
{
	const char *v = PQgetvalue(res, row, col);

	if (PQgetisnull(res, row, col) || PQgetlength(res, row, col) != len)
		elog(ERROR, "unexpected column %d in a shard server's cells", col + 1);
	if (len == 8)
	{
		uint64		x;

		memcpy(&x, v, 8);
		return (int64) pg_ntoh64(x);
	}
	if (len == 4)
	{
		uint32		x;

		memcpy(&x, v, 4);
		return (int32) pg_ntoh32(x);
	}
	return (int64) (uint8) v[0];
}

/*
 * The storage statistics of a sharded column family: its storage on
 * every shard, added up (the tree's height is the tallest).
 */
void
cfShardStats(const CfColumnFamily *cf, CfStorageStats *st)
{
	PGresult  **res;
	const char *values[2] = {cf->keyspace, cf->name};
	int			lengths[2] = {0, 0};
	int			formats[2] = {0, 0};

	(void) shard_partitions();
	res = palloc(sizeof(PGresult *) * cf_nservers);
	memset(st, 0, sizeof(*st));
	cfShardReadAll(cf_servers, cf_nservers, NULL,
				   "SELECT pages, height::bigint, leaf_pages, cell_versions, live_cells, tombstones,"
				   " coalesce(round(leaf_fill * 10), 0)::bigint, tree_pages"
				   " FROM cfstore.stats($1, $2)", 2, values, lengths, formats, res);
	for (int i = 0; i < cf_nservers; i++)
	{
		st->pages += pg_int(res[i], 0, 0, 8);
		st->height = Max(st->height, (int) pg_int(res[i], 0, 1, 8));
		st->leaf_pages += pg_int(res[i], 0, 2, 8);
		st->versions += pg_int(res[i], 0, 3, 8);
		st->live_cells += pg_int(res[i], 0, 4, 8);
		st->tombstones += pg_int(res[i], 0, 5, 8);
		/* each shard's fill (in tenths of a percent), weighed by its leaves */
		st->leaf_used += pg_int(res[i], 0, 6, 8) * (double) pg_int(res[i], 0, 2, 8);
		st->leaf_room += 1000.0 * pg_int(res[i], 0, 2, 8);
		st->tree_pages += pg_int(res[i], 0, 7, 8);
		PQclear(res[i]);
	}
}

/* The cells of the shards' binary results of rows of encoded cells, copied into cxt; the results are freed. */
static CfShardCells *
cells_from_pg(MemoryContext cxt, PGresult **res, int nres)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	CfShardCells *r = palloc0(sizeof(CfShardCells));
	int			cap = 0;

	r->cxt = cxt;
	PG_TRY();
	{
		for (int i = 0; i < nres; i++)
		{
			if (PQnfields(res[i]) != 1)
				elog(ERROR, "a shard server returned %d columns of cells", PQnfields(res[i]));
			for (int row = 0; row < PQntuples(res[i]); row++)
			{
				if (PQgetisnull(res[i], row, 0))
					elog(ERROR, "a shard server returned a null row of cells");
				cfRemoteDecodeCells(PQgetvalue(res[i], row, 0), PQgetlength(res[i], row, 0),
									&r->cells, &r->n, &cap);
			}
		}
	}
	PG_FINALLY();
	{
		for (int i = 0; i < nres; i++)
			PQclear(res[i]);
	}
	PG_END_TRY();
	if (r->cells == NULL)
		r->cells = palloc0(sizeof(CfOutCell));
	MemoryContextSwitchTo(old);
	return r;
}

/* The row keys of the shards' binary results, in the current context; the results are freed. */
static bytea **
keys_from_pg(PGresult **res, int nres, int *n)
{
	int			total = 0;
	bytea	  **keys;

	for (int i = 0; i < nres; i++)
		total += PQntuples(res[i]);
	keys = palloc(sizeof(bytea *) * Max(total, 1));
	*n = 0;
	PG_TRY();
	{
		for (int i = 0; i < nres; i++)
			for (int row = 0; row < PQntuples(res[i]); row++)
				keys[(*n)++] = pg_bytes(res[i], row, 0);
	}
	PG_FINALLY();
	{
		for (int i = 0; i < nres; i++)
			PQclear(res[i]);
	}
	PG_END_TRY();
	return keys;
}

/* A parameter of a read on the coordinator's connections: bytes in binary, NULL stays NULL. */
static void
param_bytes(const bytea *b, const char **value, int *length, int *format)
{
	*value = b == NULL ? NULL : VARDATA_ANY(b);
	*length = b == NULL ? 0 : VARSIZE_ANY_EXHDR(b);
	*format = 1;
}

/* The next received cell. */
static bool
cells_next(CfRemoteSlice *remote, CfOutCell *out)
{
	CfShardCells *r = (CfShardCells *) remote;

	if (r->next >= r->n)
		return false;
	*out = r->cells[r->next++];
	return true;
}

/* Free the received cells. */
static void
cells_end(CfRemoteSlice *remote)
{
	MemoryContextDelete(((CfShardCells *) remote)->cxt);
}

/* Compare two byte strings as unsigned bytes (row keys, an index's names). */
static int
bytes_cmp(const bytea *a, const bytea *b)
{
	return cfBytesCompare((const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a),
						  (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
}

/* qsort_arg order of positions in merged cells: by row key, then by position (a shard's order). */
static int
position_key_cmp(const void *a, const void *b, void *arg)
{
	const CfOutCell *cells = (const CfOutCell *) arg;
	int			x = *(const int *) a;
	int			y = *(const int *) b;
	int			c = bytes_cmp(cells[x].key, cells[y].key);

	return c != 0 ? c : (x > y) - (x < y);
}

/* qsort order of an index's merged entries: by name (the row key they point to). */
static int
cell_name_cmp(const void *a, const void *b)
{
	return bytes_cmp(((const CfOutCell *) a)->name, ((const CfOutCell *) b)->name);
}

/* The remote slice a CfShardCells stands for. */
static CfSliceState *
cells_slice(Relation rel, CfShardCells *r)
{
	r->base.next = cells_next;
	r->base.end = cells_end;
	return cfSliceRemote(rel, &r->base);
}

/* The merged index slice of every shard: by name (the row key), in the slice's order, cut to its count. */
static void
merge_index_slice(CfShardCells *r, const CfSliceSpec *spec)
{
	qsort(r->cells, r->n, sizeof(CfOutCell), cell_name_cmp);
	if (spec->reversed)
		for (int i = 0; i < r->n / 2; i++)
		{
			CfOutCell	t = r->cells[i];

			r->cells[i] = r->cells[r->n - 1 - i];
			r->cells[r->n - 1 - i] = t;
		}
	if (spec->count < r->n)
		r->n = (int) spec->count;
}

/*
 * A slice on the transaction's own connections (cfshard_xact.c): of one
 * row on its partition's server, of an index on every server.
 */
static CfShardCells *
conn_slice(MemoryContext cxt, const CfColumnFamily *base, const CfColumnFamily *cf, const CfSliceSpec *spec)
{
	const char *values[10];
	int			lengths[10] = {0};
	int			formats[10] = {0};
	char		count[32];
	PGresult  **res = palloc(sizeof(PGresult *) * Max(cf_nservers, 1));
	char	   *server;

	values[0] = base->keyspace;
	values[1] = base->name;
	values[2] = cf->index_of != 0 ? cf->index_column->index_name : NULL;
	param_bytes(spec->key, &values[3], &lengths[3], &formats[3]);
	param_bytes(spec->sc, &values[4], &lengths[4], &formats[4]);
	param_bytes(spec->start, &values[5], &lengths[5], &formats[5]);
	param_bytes(spec->finish, &values[6], &lengths[6], &formats[6]);
	values[7] = spec->reversed ? "t" : "f";
	snprintf(count, sizeof(count), INT64_FORMAT, spec->count);
	values[8] = count;
	values[9] = spec->whole_super ? "t" : "f";
#define SLICE_SQL "SELECT * FROM cfstore._remote_slice($1::text, $2::text, $3::text, $4::bytea, $5::bytea, " \
	"$6::bytea, $7::bytea, $8::boolean, $9::bigint, $10::boolean)"
	if (cf->index_of == 0)
	{
		server = cf_partition_server[cfShardPartition(cf, (const uint8 *) VARDATA_ANY(spec->key),
													  VARSIZE_ANY_EXHDR(spec->key))];
		cfShardReadAll(&server, 1, "cfstore_shard_slice", SLICE_SQL, 10, values, lengths, formats, res);
		return cells_from_pg(cxt, res, 1);
	}
	cfShardReadAll(cf_servers, cf_nservers, "cfstore_shard_slice", SLICE_SQL, 10, values, lengths, formats, res);
	return cells_from_pg(cxt, res, cf_nservers);
}

/*
 * A slice of a sharded column family: on the shard of its row; the slice
 * of an index on every shard (each indexes its own rows), its entries
 * merged by the row key they point to and cut to the count.
 */
static CfSliceState *
shard_slice_begin(Relation rel, const CfColumnFamily *cf, const CfSliceSpec *spec)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore remote slice",
											  ALLOCSET_DEFAULT_SIZES);
	const CfColumnFamily *base = cf->index_of != 0 ? cfCatalogLookupById(cf->index_of) : cf;
	Oid			types[11] = {INT4OID, TEXTOID, TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID,
	BOOLOID, INT8OID, BOOLOID};
	Datum		values[11];
	bool		nulls[11] = {false};
	CfShardCells *r;

	cfShardCheckApiRead(base);
	(void) shard_partitions();
	/*
	 * The slice of one row, and any slice in a transaction that has written
	 * to the shards, on the coordinator's own connection to the server
	 * (prepared once there); an index slice, on every shard, through
	 * PL/Proxy.
	 */
	if (cf->index_of == 0 || cfShardInTransaction())
	{
		r = conn_slice(cxt, base, cf, spec);
		if (cf->index_of != 0)
			merge_index_slice(r, spec);
		return cells_slice(rel, r);
	}
	values[1] = CStringGetTextDatum(base->keyspace);
	values[2] = CStringGetTextDatum(base->name);
	if (cf->index_of != 0)
		values[3] = CStringGetTextDatum(cf->index_column->index_name);
	else
		nulls[3] = true;
	values[4] = bytes_datum(spec->key, &nulls[4]);
	values[5] = bytes_datum(spec->sc, &nulls[5]);
	values[6] = bytes_datum(spec->start, &nulls[6]);
	values[7] = bytes_datum(spec->finish, &nulls[7]);
	values[8] = BoolGetDatum(spec->reversed);
	values[9] = Int64GetDatum(spec->count);
	values[10] = BoolGetDatum(spec->whole_super);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	values[0] = Int32GetDatum(-1);
	cfShardQuery("SELECT * FROM cfstore_shard._slice_all($2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
				 11, types, values, nulls);
	r = cells_from_result(cxt);
	merge_index_slice(r, spec);
	SPI_finish();
	return cells_slice(rel, r);
}

/*
 * Every cell of a sharded column family, from every shard, merged by row
 * key (a row lives on one shard, whose order within it is kept).
 */
static CfSliceState *
shard_scan_begin(Relation rel, const CfColumnFamily *cf)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "cfstore remote scan",
											  ALLOCSET_DEFAULT_SIZES);
	CfShardCells *r;
	int		   *order;
	CfOutCell  *sorted;

	cfShardCheckApiRead(cf);
	(void) shard_partitions();
	if (cfShardInTransaction())
	{
		const char *values[2] = {cf->keyspace, cf->name};
		PGresult  **res = palloc(sizeof(PGresult *) * Max(cf_nservers, 1));

		cfShardReadAll(cf_servers, cf_nservers, NULL, "SELECT * FROM cfstore._remote_scan($1::text, $2::text)",
					   2, values, NULL, NULL, res);
		r = cells_from_pg(cxt, res, cf_nservers);
	}
	else
	{
		Oid			types[2] = {TEXTOID, TEXTOID};
		Datum		values[2];
		bool		nulls[2] = {false, false};

		values[0] = CStringGetTextDatum(cf->keyspace);
		values[1] = CStringGetTextDatum(cf->name);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		cfShardQuery("SELECT * FROM cfstore_shard._scan_all($1, $2)", 2, types, values, nulls);
		r = cells_from_result(cxt);
		SPI_finish();
	}
	/* a row lives on one shard: order by row key, keeping each shard's order within a row */
	order = palloc(sizeof(int) * Max(r->n, 1));
	sorted = MemoryContextAlloc(cxt, sizeof(CfOutCell) * Max(r->n, 1));
	for (int i = 0; i < r->n; i++)
		order[i] = i;
	qsort_arg(order, r->n, sizeof(int), position_key_cmp, r->cells);
	for (int i = 0; i < r->n; i++)
		sorted[i] = r->cells[order[i]];
	r->cells = sorted;
	pfree(order);
	return cells_slice(rel, r);
}

/* qsort order of row keys. */
static int
key_cmp(const void *a, const void *b)
{
	return bytes_cmp(*(bytea *const *) a, *(bytea *const *) b);
}

/*
 * Up to max row keys from from on (after it unless inclusive), from every
 * shard, merged in storage order.
 */
static int
shard_next_row_keys(Relation rel pg_attribute_unused(), const CfColumnFamily *cf, const bytea *from,
					bool inclusive, bytea **keys, int max)
{
	MemoryContext caller = CurrentMemoryContext;
	bytea	  **all;
	int			n = 0;

	cfShardCheckApiRead(cf);
	(void) shard_partitions();
	if (cfShardInTransaction())
	{
		const char *values[5];
		int			lengths[5] = {0};
		int			formats[5] = {0};
		char		maxtext[16];
		PGresult  **res = palloc(sizeof(PGresult *) * Max(cf_nservers, 1));

		values[0] = cf->keyspace;
		values[1] = cf->name;
		param_bytes(from, &values[2], &lengths[2], &formats[2]);
		values[3] = inclusive ? "t" : "f";
		snprintf(maxtext, sizeof(maxtext), "%d", max);
		values[4] = maxtext;
		cfShardReadAll(cf_servers, cf_nservers, NULL,
					   "SELECT * FROM cfstore._remote_row_keys($1::text, $2::text, $3::bytea, $4::boolean, $5::integer)",
					   5, values, lengths, formats, res);
		all = keys_from_pg(res, cf_nservers, &n);
	}
	else
	{
		Oid			types[5] = {TEXTOID, TEXTOID, BYTEAOID, BOOLOID, INT4OID};
		Datum		values[5];
		bool		nulls[5] = {false};

		values[0] = CStringGetTextDatum(cf->keyspace);
		values[1] = CStringGetTextDatum(cf->name);
		values[2] = bytes_datum(from, &nulls[2]);
		values[3] = BoolGetDatum(inclusive);
		values[4] = Int32GetDatum(max);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		cfShardQuery("SELECT * FROM cfstore_shard._row_keys_all($1, $2, $3, $4, $5)", 5, types, values, nulls);
		n = (int) SPI_processed;
		all = MemoryContextAlloc(caller, sizeof(bytea *) * Max(n, 1));
		for (int i = 0; i < n; i++)
		{
			MemoryContext old = MemoryContextSwitchTo(caller);

			all[i] = copy_bytes(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
			MemoryContextSwitchTo(old);
		}
		SPI_finish();
	}
	qsort(all, n, sizeof(bytea *), key_cmp);
	if (n > max)
		n = max;
	memcpy(keys, all, sizeof(bytea *) * n);
	pfree(all);
	return n;
}

/* Write one cell version: it joins the transaction's pending writes for the shard of its row. */
static void
shard_write_cell(Relation rel pg_attribute_unused(), const CfWrite *w)
{
	int			part = cfShardPartition(w->cf, w->key, w->keylen);

	cfShardQueueWrite(cf_partition_server[part], w);
}

/* cfstore_shard.shard_new_keyspaces (read by create_keyspace's body through current_setting) */
static bool cf_shard_new_keyspaces = false;

static const CfRemoteStorage shard_storage = {
	.slice_begin = shard_slice_begin,
	.scan_begin = shard_scan_begin,
	.next_row_keys = shard_next_row_keys,
	.write_cell = shard_write_cell,
};

/*
 * Make the storage layer hand sharded column families to the shards, and
 * the planner key lookups of the coordinator's tables (from _PG_init).
 */
void
cfShardInit(void)
{
	/*
	 * create_keyspace's body runs as the extension's owner and shards the
	 * new keyspace when this is on, which only a superuser may decide: a
	 * value a plain role gave the placeholder before the library loaded is
	 * refused here (with a warning).
	 */
	DefineCustomBoolVariable("cfstore_shard.shard_new_keyspaces",
							 "On a coordinator, create_keyspace shards each new keyspace over the cluster.",
							 NULL, &cf_shard_new_keyspaces, false, PGC_SUSET, 0, NULL, NULL, NULL);
	cf_remote_storage = &shard_storage;
	cfShardPlanInit();
	cfShardSqlInit();
}
