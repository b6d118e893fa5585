/*-------------------------------------------------------------------------
 *
 * cffdw_import.c
 *	  The definition of a column family's foreign table, the canonical
 *	  foreign table "<keyspace>"."<column_family>" that the catalog keeps,
 *	  and IMPORT FOREIGN SCHEMA.
 *
 * One function, cfFdwTableDefinition, writes the CREATE FOREIGN TABLE
 * statement of a column family (README.md, "Foreign tables") into a
 * given schema on a
 * given server.  It serves both ways a foreign table comes to be:
 *
 * - create_column_family creates the canonical one, in the keyspace's
 *	 schema on server cfstore (_foreign_table_create).  It is created as
 *	 the keyspace's owner, who owns the storage relation too, so that
 *	 owner's default privileges apply; the storage relation then takes the
 *	 foreign table's ACL, and cffdw_acl.c keeps the two ACLs equal after
 *	 that.  update_column_family changes the key and value columns' types
 *	 when the validators give them new ones (_foreign_table_alter: ALTER
 *	 COLUMN ... TYPE keeps the table, its grants and what depends on it),
 *	 and drop_column_family drops it, if it is still there.  A table made
 *	 by cql() shows CQL3 rows (cfFdwCqlRows); when cql() changes its
 *	 columns, _foreign_table_reshape drops the table and creates it again
 *	 with the storage relation's ACL, so the grants made on it stay.
 *
 * - IMPORT FOREIGN SCHEMA "<keyspace>" FROM SERVER s INTO schema creates a
 *	 copy of every column family of the keyspace (index column families
 *	 are not column families of the catalog, so they never get one).  A
 *	 copy is owned by whoever imports it, but it gives no access of its
 *	 own: the wrapper checks the storage relation's privileges as well as
 *	 the executor checks the foreign table's.
 *
 * Every text column is COLLATE "C", the order of the stored bytes.  The
 * key, super_column and column_name columns are NOT NULL: Cassandra keys
 * and names are never empty.  The columns of a CompositeType name are not:
 * a stored name may have fewer components than the comparator (the
 * wrapper gives NULL for the missing ones).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "executor/spi.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "cql/cfcql.h"
#include "fdw/cffdw.h"
#include "shard/cfshard.h"

PG_FUNCTION_INFO_V1(cfstore_foreign_table_ddl);
PG_FUNCTION_INFO_V1(cfstore_foreign_table_create);
PG_FUNCTION_INFO_V1(cfstore_foreign_table_reshape);
PG_FUNCTION_INFO_V1(cfstore_foreign_table_alter);
PG_FUNCTION_INFO_V1(cfstore_foreign_table);

/* The SQL type of the value column: text when the validators disagree. */
static Oid
value_type(const CfColumnFamily *cf)
{
	if (cfFdwMixedValidators(cf))
		return TEXTOID;
	return cfFdwSqlType(cf->default_validator);
}

/* A column's SQL type as DDL (its collation too). */
static const char *
type_ddl(Oid typid)
{
	if (typid == TEXTOID)
		return "text COLLATE \"C\"";
	if (typid < FirstNormalObjectId)
		return format_type_be(typid);	/* built in: in pg_catalog */
	return format_type_be_qualified(typid);
}

/* Append a column to a column list. */
static void
append_column(StringInfo cols, const char *name, Oid typid, bool not_null)
{
	appendStringInfo(cols, "%s\n  %s %s%s", cols->len > 0 ? "," : "",
					 quote_identifier(name), type_ddl(typid), not_null ? " NOT NULL" : "");
}

/*
 * The column list of a table of column family cf: the columns README.md
 * ("Foreign tables") lists, in the order cfFdwTableGet maps them.
 */
char *
cfFdwTableColumns(const CfColumnFamily *cf, bool cql_rows)
{
	const CfType *names = cf->is_super ? cf->subcomparator : cf->comparator;
	StringInfoData cols;

	initStringInfo(&cols);
	if (cql_rows)
	{
		/* a CQL3 table's rows: its columns, in CQL3's order (src/cql/cfcql_schema.c) */
		CfCqlTable *t = cfCqlTable(cf->keyspace, cf->name);

		for (int i = 0; i < t->ncolumns; i++)
			append_column(&cols, t->columns[i].name, cfFdwSqlType(t->columns[i].type),
						  t->columns[i].kind == CQL_COL_PARTITION);
		return cols.data;
	}
	append_column(&cols, "key", cfFdwSqlType(cf->key_validator), true);
	if (cf->is_super)
		append_column(&cols, "super_column", cfFdwSqlType(cf->comparator), true);
	if (names->kind == CF_COMPOSITE)
	{
		for (int i = 0; i < names->nsub; i++)
			append_column(&cols, psprintf("column%d", i + 1), cfFdwSqlType(names->sub[i]), false);
	}
	else
		append_column(&cols, "column_name", cfFdwSqlType(names), true);
	append_column(&cols, "value", value_type(cf), false);
	if (!cf->is_counter)
	{
		append_column(&cols, "writetime", INT8OID, false);
		append_column(&cols, "ttl", INT4OID, false);
	}
	return cols.data;
}

/*
 * Whether the canonical table of column family cf shows its CQL3 rows
 * (rows 'cql') rather than its cells: it does for a table made by CQL3
 * (it has key aliases), the coordinator's table of a sharded keyspace and
 * the shards' tables it reads included.
 */
bool
cfFdwCqlRows(const CfColumnFamily *cf)
{
	return cf->key_aliases != NULL;
}

/*
 * The CREATE FOREIGN TABLE statement of column family cf as table
 * schema.<cf name> on server `server`.
 */
char *
cfFdwTableDefinition(const CfColumnFamily *cf, const char *schema, const char *server)
{
	bool		cql_rows = cfFdwCqlRows(cf);

	return psprintf("CREATE FOREIGN TABLE %s.%s (%s\n) SERVER %s OPTIONS (keyspace %s, column_family %s%s)",
					quote_identifier(schema), quote_identifier(cf->name), cfFdwTableColumns(cf, cql_rows),
					quote_identifier(server), quote_literal_cstr(cf->keyspace),
					quote_literal_cstr(cf->name), cql_rows ? ", rows 'cql'" : "");
}

/* The column family with this id; an error if there is none, or it is an index. */
static const CfColumnFamily *
column_family_by_id(int32 id)
{
	const CfColumnFamily *cf = cfCatalogLookupById(id);

	if (cf == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("no column family has id %d", id)));
	if (cf->index_of != 0)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("%d is the id of index %s of column family %s.%s, which has no foreign table",
						id, cf->index_column->index_name, cf->keyspace, cf->name)));
	return cf;
}

/*
 * The keyspace and column family a foreign table of cfstore_fdw names in
 * its options; false if it is no such table.
 */
bool
cfFdwTableNames(Oid relid, char **keyspace, char **column_family)
{
	Oid			fdw = get_foreign_data_wrapper_oid(CF_FDW_WRAPPER, true);
	ForeignTable *ft;
	ListCell   *lc;

	*keyspace = *column_family = NULL;
	if (!OidIsValid(fdw) || get_rel_relkind(relid) != RELKIND_FOREIGN_TABLE)
		return false;
	ft = GetForeignTable(relid);
	if (GetForeignServer(ft->serverid)->fdwid != fdw)
		return false;
	foreach(lc, ft->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		if (strcmp(def->defname, "keyspace") == 0)
			*keyspace = defGetString(def);
		else if (strcmp(def->defname, "column_family") == 0)
			*column_family = defGetString(def);
	}
	return *keyspace != NULL && *column_family != NULL;
}

/*
 * The canonical table of a column family: "<keyspace>"."<column
 * family>", a foreign table of cfstore_fdw naming that column family, or
 * for a column family of a sharded keyspace the partitioned table over
 * the shards that stands in its place (src/shard/cfshard_table.c).
 * InvalidOid if there is none (the user dropped it, say).
 */
Oid
cfFdwCanonicalTable(const char *keyspace, const char *column_family)
{
	Oid			nsp = get_namespace_oid(keyspace, true);
	Oid			relid;
	char	   *ks;
	char	   *cfname;

	if (!OidIsValid(nsp))
		return InvalidOid;
	relid = get_relname_relid(column_family, nsp);
	if (OidIsValid(relid) && get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE)
		return cfColumnFamilySharded(keyspace, column_family) ? relid : InvalidOid;
	if (!OidIsValid(relid) || !cfFdwTableNames(relid, &ks, &cfname) ||
		strcmp(ks, keyspace) != 0 || strcmp(cfname, column_family) != 0)
		return InvalidOid;
	return relid;
}

/* _foreign_table_ddl(cf_id, schema): the CREATE FOREIGN TABLE statement of a column family. */
Datum
cfstore_foreign_table_ddl(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = column_family_by_id(PG_GETARG_INT32(0));

	PG_RETURN_TEXT_P(cstring_to_text(cfFdwTableDefinition(cf, text_to_cstring(PG_GETARG_TEXT_PP(1)),
														  CF_FDW_SERVER)));
}

/* Run one SQL command through SPI as role, under cfstore's search_path. */
void
cfFdwRunAs(Oid role, const char *sql)
{
	int			pin;
	Oid			save_userid;
	int			save_sec;

	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(role, save_sec | SECURITY_LOCAL_USERID_CHANGE);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		pin = cfSearchPathPin();
		if (SPI_execute(sql, false, 0) != SPI_OK_UTILITY)
			elog(ERROR, "could not run: %s", sql);
		cfSearchPathRestore(pin);
		SPI_finish();
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec);
	}
	PG_END_TRY();
}

/*
 * Create the canonical table of column family cf, as the keyspace's owner
 * (the coordinator's partitioned table in a sharded keyspace); returns it.
 */
static Oid
create_canonical(const CfColumnFamily *cf)
{
	if (cf->sharded)
		return cfShardTableCreate(cf);
	cfFdwRunAs(cfKeyspaceOwner(cf->keyspace), cfFdwTableDefinition(cf, cf->keyspace, CF_FDW_SERVER));
	CommandCounterIncrement();
	return get_relname_relid(cf->name, get_namespace_oid(cf->keyspace, false));
}

/*
 * _foreign_table_create(cf_id): create the canonical foreign table of a
 * new column family, as the keyspace's owner, and give the storage
 * relation its ACL (the owner's default privileges, if any).  The caller
 * of the running DDL function must be able to act as that owner.
 */
Datum
cfstore_foreign_table_create(PG_FUNCTION_ARGS)
{
	int32		id = PG_GETARG_INT32(0);
	const CfColumnFamily *cf = column_family_by_id(id);
	Oid			relid;

	cfCheckKeyspaceOwner(cf->keyspace);
	if (OidIsValid(get_relname_relid(cf->name, get_namespace_oid(cf->keyspace, false))))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("relation \"%s.%s\" already exists", cf->keyspace, cf->name),
				 errhint("A column family's foreign table takes its name in the keyspace's schema: "
						 "drop or rename that relation, or choose another column family name.")));
	relid = create_canonical(cf);
	cfFdwCopyAcl(relid, cfStorageRelid(id, false));
	PG_RETURN_OID(relid);
}

/*
 * Put a new canonical table of column family cf in place of relation old
 * (its canonical table, dropped as role dropper; none if InvalidOid), with
 * the column family's privileges: the storage relation's ACL, which
 * cffdw_acl.c keeps equal to the table's.  Returns the new table.
 */
Oid
cfFdwReplaceTable(const CfColumnFamily *cf, Oid old, Oid dropper)
{
	Oid			relid;

	if (OidIsValid(old))
	{
		cfFdwRunAs(dropper, psprintf("DROP %s %s",
									 get_rel_relkind(old) == RELKIND_FOREIGN_TABLE ? "FOREIGN TABLE" : "TABLE",
									 quote_qualified_identifier(get_namespace_name(get_rel_namespace(old)),
																get_rel_name(old))));
		CommandCounterIncrement();
	}
	relid = create_canonical(cf);
	cfFdwCopyAcl(cfStorageRelid(cf->id, false), relid);
	return relid;
}

/*
 * _foreign_table_reshape(cf_id): after cql() changed a table's CQL3
 * definition, give its canonical table the columns (and the shape) it now
 * has, keeping the grants made on it (as the caller of the running DDL
 * function, who owns the keyspace).  A canonical table the user dropped
 * is made again.
 */
Datum
cfstore_foreign_table_reshape(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = column_family_by_id(PG_GETARG_INT32(0));

	cfCheckKeyspaceOwner(cf->keyspace);
	(void) cfFdwReplaceTable(cf, cfFdwCanonicalTable(cf->keyspace, cf->name), cfDdlCaller());
	PG_RETURN_VOID();
}

/* The owner of relation relid. */
static Oid
relation_owner(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return owner;
}

/*
 * _foreign_table_alter(cf_id): after update_column_family, give the key
 * and value columns of the canonical foreign table the types the column
 * family's validators now map to.  The ALTER runs as the table's owner (the
 * keyspace's), on the table alone (ONLY): a table the keyspace owner made
 * inherit from it, with a CHECK constraint calling their function, would
 * otherwise be rewritten and checked by whoever runs the DDL (on a shard
 * server, the cluster's user).  A sharded table is made again instead
 * (cfFdwReplaceTable): its partitions are the extension owner's, and an
 * ALTER through them would run as that owner on whatever the keyspace owner
 * put in the table's place or attached to it.
 */
Datum
cfstore_foreign_table_alter(PG_FUNCTION_ARGS)
{
	const CfColumnFamily *cf = column_family_by_id(PG_GETARG_INT32(0));
	Oid			relid = cfFdwCanonicalTable(cf->keyspace, cf->name);
	const char *cols[2] = {"key", "value"};
	Oid			types[2];
	StringInfoData buf;

	if (!OidIsValid(relid))
		PG_RETURN_VOID();
	types[0] = cfFdwSqlType(cf->key_validator);
	types[1] = value_type(cf);
	initStringInfo(&buf);
	for (int i = 0; i < 2; i++)
	{
		AttrNumber	attnum = get_attnum(relid, cols[i]);
		Oid			typid;
		int32		typmod;
		Oid			collid;

		if (attnum == InvalidAttrNumber)
			continue;
		get_atttypetypmodcoll(relid, attnum, &typid, &typmod, &collid);
		if (typid == types[i] && typmod == -1 &&
			collid == (types[i] == TEXTOID ? C_COLLATION_OID : InvalidOid))
			continue;
		appendStringInfo(&buf, "%s ALTER COLUMN %s TYPE %s", buf.len == 0 ? "" : ",",
						 quote_identifier(cols[i]), type_ddl(types[i]));
	}
	if (buf.len == 0)
		PG_RETURN_VOID();
	if (get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE)
		(void) cfFdwReplaceTable(cf, relid, cfDdlCaller());
	else
		cfFdwRunAs(relation_owner(relid), psprintf("ALTER FOREIGN TABLE ONLY %s.%s%s",
												   quote_identifier(cf->keyspace),
												   quote_identifier(cf->name), buf.data));
	PG_RETURN_VOID();
}

/* _foreign_table(keyspace, column_family): the canonical foreign table, or NULL. */
Datum
cfstore_foreign_table(PG_FUNCTION_ARGS)
{
	Oid			relid = cfFdwCanonicalTable(text_to_cstring(PG_GETARG_TEXT_PP(0)),
											text_to_cstring(PG_GETARG_TEXT_PP(1)));

	if (!OidIsValid(relid))
		PG_RETURN_NULL();
	PG_RETURN_OID(relid);
}

/*
 * IMPORT FOREIGN SCHEMA "<keyspace>" FROM SERVER s INTO schema: one
 * CREATE FOREIGN TABLE per column family of the keyspace, by name (core
 * applies LIMIT TO / EXCEPT again, and puts the tables into the local
 * schema).
 */
List *
cfFdwImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	int			pin;
	ForeignServer *server = GetForeignServer(serverOid);
	MemoryContext cxt = CurrentMemoryContext;
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	List	   *names = NIL;
	List	   *result = NIL;
	bool		exists;
	bool		isnull;
	ListCell   *lc;

	foreach(lc, stmt->options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);

		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
				 errmsg("invalid option \"%s\"", def->defname),
				 errhint("IMPORT FOREIGN SCHEMA of cfstore_fdw takes no options.")));
	}

	args[0] = CStringGetTextDatum(stmt->remote_schema);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute_with_args("SELECT EXISTS (SELECT FROM cfstore.keyspace WHERE name = $1)",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the keyspaces");
	exists = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (exists)
	{
		if (SPI_execute_with_args("SELECT name FROM cfstore.column_family WHERE keyspace = $1 ORDER BY name",
								  1, argtypes, args, NULL, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not read the column families");
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			char	   *name = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
			MemoryContext old = MemoryContextSwitchTo(cxt);

			/* filter here too: a column family left out is not even looked up */
			if (IsImportableForeignTable(name, stmt))
				names = lappend(names, pstrdup(name));
			MemoryContextSwitchTo(old);
		}
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	if (!exists)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_SCHEMA_NOT_FOUND),
				 errmsg("keyspace \"%s\" is not present on foreign server \"%s\"",
						stmt->remote_schema, server->servername)));

	foreach(lc, names)
	{
		const CfColumnFamily *cf = cfCatalogLookup(stmt->remote_schema, (const char *) lfirst(lc));

		result = lappend(result, cfFdwTableDefinition(cf, stmt->local_schema, server->servername));
	}
	return result;
}
