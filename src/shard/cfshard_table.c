/*-------------------------------------------------------------------------
 *
 * cfshard_table.c
 *	  The coordinator's table of a column family of a sharded keyspace: a
 *	  table partitioned by hash of the row key whose partitions are
 *	  postgres_fdw foreign tables of the shards' own tables.
 *
 * Design (README.md, "Scale-out").  On a server holding its data, the
 * canonical table "<keyspace>"."<column family>" is a foreign table of
 * cfstore_fdw (cffdw_import.c).  On the coordinator of a sharded keyspace
 * it is instead a table with the same columns, PARTITION BY HASH (key),
 * with one partition per shard server: a foreign table of postgres_fdw
 * server cfstore_shard_<server> (made by add_server, with extensions
 * 'cfstore' so that cfstore's operators ship) reading the shard's own
 * "<keyspace>"."<column family>".  The cluster's partitions are dealt to
 * its servers in turn and the number of servers is a power of two that
 * divides the number of partitions, so server s holds exactly the keys
 * whose hash modulo the number of servers is s: partition MODULUS
 * <servers> REMAINDER s, PostgreSQL's hash being the one cfShardPartition
 * computes.  A table made by cql() has the CQL3 rows' shape instead
 * (cfFdwCqlRows), here and on the shards, partitioned by hash of its
 * partition key column, which holds the row key as a value of the same
 * SQL type, so the hash is the same; of a partition key of several parts,
 * by hash of row_key(<parts>), the key's text form, the SQL value of a
 * CompositeType key.  A query with key equality is thus pruned to the one
 * shard
 * holding the row, and postgres_fdw (use_remote_estimate, set by
 * add_server, tells it the shard reads the row in either order at no
 * cost) ships its ORDER BY there, where cfstore_fdw reads the row's
 * clustered cells in that order.  PostgreSQL 15 applies a LIMIT above a
 * partitioned table on the coordinator: it stops fetching after the first
 * batch (fetch_size rows) that satisfies it.
 *
 * The table is owned by the keyspace's owner, like the foreign table it
 * replaces; its partitions, in schema cfstore_shard, named
 * cf_<id>_<server>, by the extension's owner: they reach the shards
 * through a user mapping for PUBLIC as the cluster's user, so their
 * options (the remote schema, table and columns) must stay out of other
 * hands, and the owner of a foreign table may change them.  PostgreSQL
 * checks the privileges of a query on the partitioned table alone.  Its privileges are the
 * column family's (cffdw_acl.c keeps them equal to the storage
 * relation's); a query through it reaches the shards as the cluster's
 * user.  create_column_family makes it (cfShardTableCreate, from
 * _foreign_table_create); shard_keyspace puts it in place of the foreign
 * tables of the keyspace's column families (_table_replace);
 * drop_column_family drops it, partitions and all.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "api/cfargs.h"
#include "cql/cfcql.h"
#include "fdw/cffdw.h"
#include "shard/cfshard.h"
#include "storage/cfstorage.h"

PG_FUNCTION_INFO_V1(cfstore_shard_table_replace);
PG_FUNCTION_INFO_V1(cfstore_shard_row_key);

/*
 * The partition key of the coordinator's table of cf, as DDL: what holds
 * the row key as the SQL value cfShardPartition hashes.  That is the key
 * column, or a CQL3 table's one partition key column; for a CompositeType
 * key (a partition key of several parts), row_key() of its parts, the
 * key's text form (the SQL value of a CompositeType key).
 */
static char *
partition_key(const CfColumnFamily *cf, bool cql_rows)
{
	CfCqlTable *t;
	StringInfoData buf;

	if (!cql_rows)
		return "key";
	t = cfCqlTable(cf->keyspace, cf->name);
	if (cf->key_validator->kind != CF_COMPOSITE)
		return (char *) quote_identifier(t->columns[0].name);
	initStringInfo(&buf);
	appendStringInfo(&buf, "(cfstore_shard.row_key(%s", quote_literal_cstr(cfTypeName(cf->key_validator)));
	for (int i = 0; i < t->npartition; i++)
		appendStringInfo(&buf, ", %s", quote_identifier(t->columns[i].name));
	appendStringInfoString(&buf, "))");
	return buf.data;
}

/*
 * Create the coordinator's partitioned table of column family cf (of a
 * sharded keyspace) and its partitions, owned by the keyspace's owner;
 * returns the table.
 */
Oid
cfShardTableCreate(const CfColumnFamily *cf)
{
	const char *const *servers;
	int			n = cfShardPartitions(&servers);
	int			nservers = 0;
	Oid			owner = cfShardOwner();
	const char *table = quote_qualified_identifier(cf->keyspace, cf->name);
	const char *owner_name = quote_identifier(GetUserNameFromId(cfKeyspaceOwner(cf->keyspace), false));

	bool		cql_rows = cfFdwCqlRows(cf);

	cfFdwRunAs(owner, psprintf("CREATE TABLE %s (%s\n) PARTITION BY HASH (%s)", table,
							   cfFdwTableColumns(cf, cql_rows), partition_key(cf, cql_rows)));
	cfFdwRunAs(owner, psprintf("ALTER TABLE %s OWNER TO %s", table, owner_name));
	cfFdwRunAs(owner, psprintf("COMMENT ON TABLE %s IS %s", table,
							   quote_literal_cstr(psprintf("column family %s.%s, partitioned over the shard servers",
														   cf->keyspace, cf->name))));
	/* server s holds the partitions p with p % nservers = s, i.e. the keys whose hash % nservers = s */
	for (int s = 0; s < n && (s == 0 || strcmp(servers[s], servers[0]) != 0); s++)
		nservers = s + 1;
	for (int s = 0; s < nservers; s++)
	{
		const char *part = psprintf("cfstore_shard.%s", quote_identifier(psprintf("cf_%d_%s", cf->id, servers[s])));

		cfFdwRunAs(owner, psprintf("CREATE FOREIGN TABLE %s PARTITION OF %s FOR VALUES WITH (MODULUS %d, REMAINDER %d) "
								   "SERVER %s OPTIONS (schema_name %s, table_name %s)",
								   part, table, nservers, s, quote_identifier(psprintf("cfstore_shard_%s", servers[s])),
								   quote_literal_cstr(cf->keyspace), quote_literal_cstr(cf->name)));
	}
	CommandCounterIncrement();
	return get_relname_relid(cf->name, get_namespace_oid(cf->keyspace, false));
}

/*
 * row_key(key_type, VARIADIC parts): the row key of CompositeType key_type
 * whose components are these values (each converted as the function API
 * converts a value for its component's type), in the key's text form.
 * The coordinator's table of a CQL3 table whose partition key has several
 * parts is partitioned by it (partition_key), so that PostgreSQL routes a
 * row as cfShardPartition routes its key.
 */
Datum
cfstore_shard_row_key(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	const CfType *type = cfTypeParse(name);
	int			nparts = PG_NARGS() - 1;
	StringInfoData key;

	if (type->kind != CF_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("row_key needs a CompositeType, not %s", cfTypeName(type))));
	if (get_fn_expr_variadic(fcinfo->flinfo))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("row_key takes the parts as arguments, not as a VARIADIC array")));
	if (nparts != type->nsub)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s has %d components; row_key got %d parts", cfTypeName(type), type->nsub, nparts)));
	initStringInfo(&key);
	for (int i = 0; i < nparts; i++)
	{
		bytea	   *b = cfArgToBytes(type->sub[i], PG_GETARG_DATUM(i + 1),
									 get_fn_expr_argtype(fcinfo->flinfo, i + 1), "row key part");

		cfTypeValidate(type->sub[i], (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
		cfCompositeAppend(&key, (const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), 0);
	}
	PG_RETURN_TEXT_P(cstring_to_text(cfTypeToString(type, (const uint8 *) key.data, key.len)));
}

/*
 * _table_replace(cf_id): when a keyspace becomes sharded, put the
 * partitioned table in place of the canonical foreign table of one of its
 * column families, with the column family's privileges (nothing if the
 * foreign table was dropped).
 */
Datum
cfstore_shard_table_replace(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = cfCatalogLookupById(PG_GETARG_INT32(0));
	Oid			old;

	if (cf == NULL || !cf->sharded)
		elog(ERROR, "column family %d is not in a sharded keyspace", PG_GETARG_INT32(0));
	old = cfFdwCanonicalTable(cf->keyspace, cf->name);
	if (OidIsValid(old) && get_rel_relkind(old) == RELKIND_FOREIGN_TABLE)
		(void) cfFdwReplaceTable(cf, old, cfShardOwner());
	PG_RETURN_VOID();
}
