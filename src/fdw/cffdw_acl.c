/*-------------------------------------------------------------------------
 *
 * cffdw_acl.c
 *	  One set of privileges per column family: GRANT and REVOKE on its
 *	  canonical foreign table apply to its storage relation too, and back.
 *
 * SQL on the foreign table "<keyspace>"."<column_family>" is checked
 * against the foreign table's ACL; the function API and the wrapper check
 * the storage relation cfstore_data.cf_<id>.  Users grant on the foreign
 * table, the object they see (older scripts grant on the storage
 * relation), and either must give the same access everywhere.
 *
 * An event trigger at the end of every GRANT and REVOKE (_acl_mirror)
 * finds, for each relation the statement changed, its partner: the
 * storage relation of a canonical foreign table, or the canonical foreign
 * table of a storage relation.  It runs the same statement on the partner
 * as the same user, so the grantor's own rights decide there as they did
 * on the original.  Only the canonical foreign table has a partner: whoever
 * owns another foreign table of the column family (an imported copy, or a
 * table in a schema that is not the keyspace's) changes that table alone,
 * and reading through it still needs the storage relation's privileges.
 * The statement the trigger runs fires the trigger again; a flag makes
 * that inner call return at once.
 *
 * An event trigger rather than a ProcessUtility hook: it fires in every
 * backend, whether the library is loaded there yet or not.
 *
 * Column privileges are not mirrored (the storage relation's columns are
 * not the foreign table's, and the API checks whole tables), nor are
 * owners.  At creation the canonical foreign table, made by the keyspace
 * owner, takes that owner's default privileges, and the storage relation
 * takes the foreign table's ACL (cfFdwCopyAcl).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/event_trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "tcop/deparse_utility.h"
#include "utils/acl.h"
#include "utils/aclchk_internal.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "fdw/cffdw.h"

PG_FUNCTION_INFO_V1(cfstore_acl_mirror);

/* True while _acl_mirror runs the statement it derived. */
static bool mirroring = false;

/* A statement to run on the partner of a relation a GRANT or REVOKE changed. */
typedef struct CfAclMirror
{
	char	   *relname;		/* the relation the user's statement changed */
	char	   *partner;		/* the relation the same statement is run on */
	char	   *sql;
} CfAclMirror;

/*
 * Give relation `to` the ACL of relation `from` (both owned by the same
 * role), with the role dependencies that go with it.
 */
void
cfFdwCopyAcl(Oid from, Oid to)
{
	Relation	rel = table_open(RelationRelationId, RowExclusiveLock);
	HeapTuple	src = SearchSysCache1(RELOID, ObjectIdGetDatum(from));
	HeapTuple	dst = SearchSysCache1(RELOID, ObjectIdGetDatum(to));
	Datum		acl;
	Datum		oldacl;
	bool		isnull;
	bool		oldnull;
	Oid			owner;

	if (!HeapTupleIsValid(src) || !HeapTupleIsValid(dst))
		elog(ERROR, "cache lookup failed for relation %u or %u", from, to);
	owner = ((Form_pg_class) GETSTRUCT(dst))->relowner;
	acl = SysCacheGetAttr(RELOID, src, Anum_pg_class_relacl, &isnull);
	oldacl = SysCacheGetAttr(RELOID, dst, Anum_pg_class_relacl, &oldnull);
	if (((Form_pg_class) GETSTRUCT(src))->relowner == owner &&
		!(isnull && oldnull) &&
		(isnull || oldnull || !aclequal(DatumGetAclP(acl), DatumGetAclP(oldacl))))
	{
		Datum		values[Natts_pg_class] = {0};
		bool		nulls[Natts_pg_class] = {0};
		bool		replaces[Natts_pg_class] = {0};
		HeapTuple	tup;
		Oid		   *newmembers = NULL;
		Oid		   *oldmembers = NULL;
		int			nnew = isnull ? 0 : aclmembers(DatumGetAclP(acl), &newmembers);
		int			nold = oldnull ? 0 : aclmembers(DatumGetAclP(oldacl), &oldmembers);

		values[Anum_pg_class_relacl - 1] = isnull ? (Datum) 0 : PointerGetDatum(DatumGetAclPCopy(acl));
		nulls[Anum_pg_class_relacl - 1] = isnull;
		replaces[Anum_pg_class_relacl - 1] = true;
		tup = heap_modify_tuple(dst, RelationGetDescr(rel), values, nulls, replaces);
		CatalogTupleUpdate(rel, &tup->t_self, tup);
		updateAclDependencies(RelationRelationId, to, 0, owner, nold, oldmembers, nnew, newmembers);
		heap_freetuple(tup);
	}
	ReleaseSysCache(src);
	ReleaseSysCache(dst);
	table_close(rel, RowExclusiveLock);
	CommandCounterIncrement();
}

/* The keyspace and name of column family id (not an index); false if there is none. */
static bool
column_family_names(int32 id, char **keyspace, char **name)
{
	int			pin;
	MemoryContext cxt = CurrentMemoryContext;
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(id)};
	bool		found;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute_with_args("SELECT keyspace, name FROM cfstore.column_family WHERE id = $1",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the column families");
	found = SPI_processed == 1;
	if (found)
	{
		MemoryContext old = MemoryContextSwitchTo(cxt);

		*keyspace = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		*name = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
		MemoryContextSwitchTo(old);
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	return found;
}

/* The id of column family keyspace.name, or 0 if there is none. */
static int32
column_family_id(const char *keyspace, const char *name)
{
	int			pin;
	Oid			argtypes[2] = {TEXTOID, TEXTOID};
	Datum		args[2] = {CStringGetTextDatum(keyspace), CStringGetTextDatum(name)};
	int32		id = 0;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute_with_args("SELECT id FROM cfstore.column_family WHERE keyspace = $1 AND name = $2",
							  2, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the column families");
	if (SPI_processed == 1)
	{
		bool		isnull;

		id = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	return id;
}

/*
 * The relation whose ACL follows relid's: the storage relation of a
 * canonical foreign table, the canonical foreign table of a storage
 * relation; InvalidOid for every other relation.
 */
static Oid
acl_partner(Oid relid)
{
	char	   *keyspace;
	char	   *name;
	int32		id;
	char	   *relname;

	if (get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE)
	{
		/* the coordinator's table of a column family of a sharded keyspace */
		keyspace = get_namespace_name(get_rel_namespace(relid));
		name = get_rel_name(relid);
		if (keyspace == NULL || name == NULL || cfFdwCanonicalTable(keyspace, name) != relid)
			return InvalidOid;
		id = column_family_id(keyspace, name);
		return id == 0 ? InvalidOid : cfStorageRelid(id, true);
	}
	if (cfFdwTableNames(relid, &keyspace, &name))
	{
		if (cfFdwCanonicalTable(keyspace, name) != relid)
			return InvalidOid;
		id = column_family_id(keyspace, name);
		return id == 0 ? InvalidOid : cfStorageRelid(id, true);
	}
	if (get_rel_namespace(relid) != get_namespace_oid(CF_STORAGE_SCHEMA, true) ||
		(relname = get_rel_name(relid)) == NULL ||
		sscanf(relname, "cf_%d", &id) != 1 || strcmp(relname, psprintf("cf_%d", id)) != 0 ||
		!column_family_names(id, &keyspace, &name))
		return InvalidOid;
	return cfFdwCanonicalTable(keyspace, name);
}

/* relid's name, schema-qualified and quoted. */
static char *
qualified_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid));
}

/*
 * The GRANT or REVOKE istmt describes, on relation relname (qualified and
 * quoted) instead; NULL if
 * it changes only column privileges.
 */
static char *
mirror_statement(const InternalGrant *istmt, const char *relname)
{
	static const struct
	{
		AclMode		mode;
		const char *name;
	}			privs[] =
	{
		{ACL_SELECT, "SELECT"}, {ACL_INSERT, "INSERT"}, {ACL_UPDATE, "UPDATE"},
		{ACL_DELETE, "DELETE"}, {ACL_TRUNCATE, "TRUNCATE"}, {ACL_REFERENCES, "REFERENCES"},
		{ACL_TRIGGER, "TRIGGER"}
	};
	StringInfoData buf;
	int			n = 0;
	ListCell   *lc;

	if (!istmt->all_privs && (istmt->privileges & ACL_ALL_RIGHTS_RELATION) == 0)
		return NULL;
	initStringInfo(&buf);
	appendStringInfoString(&buf, istmt->is_grant ? "GRANT " : "REVOKE ");
	if (!istmt->is_grant && istmt->grant_option)
		appendStringInfoString(&buf, "GRANT OPTION FOR ");
	if (istmt->all_privs)
		appendStringInfoString(&buf, "ALL");
	else
		for (size_t i = 0; i < lengthof(privs); i++)
			if (istmt->privileges & privs[i].mode)
				appendStringInfo(&buf, "%s%s", n++ > 0 ? ", " : "", privs[i].name);
	appendStringInfo(&buf, " ON TABLE %s %s ", relname, istmt->is_grant ? "TO" : "FROM");
	n = 0;
	foreach(lc, istmt->grantees)
	{
		Oid			role = lfirst_oid(lc);

		appendStringInfo(&buf, "%s%s", n++ > 0 ? ", " : "",
						 role == ACL_ID_PUBLIC ? "PUBLIC" : quote_identifier(GetUserNameFromId(role, false)));
	}
	if (istmt->is_grant && istmt->grant_option)
		appendStringInfoString(&buf, " WITH GRANT OPTION");
	if (!istmt->is_grant && istmt->behavior == DROP_CASCADE)
		appendStringInfoString(&buf, " CASCADE");
	return buf.data;
}

/* Error context: which statement _acl_mirror was running, and why. */
static void
mirror_context(void *arg)
{
	CfAclMirror *m = (CfAclMirror *) arg;

	errcontext("applying the GRANT or REVOKE on %s to %s as well (their privileges are kept equal)",
			   m->relname, m->partner);
}

/* Run one derived statement, as the current user, with the trigger switched off. */
static void
run_mirror(CfAclMirror *m)
{
	ErrorContextCallback callback;

	callback.callback = mirror_context;
	callback.arg = m;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	mirroring = true;
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (SPI_execute(m->sql, false, 0) != SPI_OK_UTILITY)
			elog(ERROR, "could not run: %s", m->sql);
		SPI_finish();
	}
	PG_FINALLY();
	{
		mirroring = false;
	}
	PG_END_TRY();
	error_context_stack = callback.previous;
}

/*
 * _acl_mirror(): event trigger at ddl_command_end of GRANT and REVOKE.
 * Runs each GRANT or REVOKE on a canonical foreign table on its storage
 * relation as well, and the other way round.
 */
Datum
cfstore_acl_mirror(PG_FUNCTION_ARGS)
{
	int			pin;
	MemoryContext cxt = CurrentMemoryContext;
	List	   *grants = NIL;
	List	   *mirrors = NIL;
	ListCell   *lc;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		elog(ERROR, "cfstore._acl_mirror() must be called as an event trigger");
	if (mirroring)
		PG_RETURN_VOID();

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	if (SPI_execute("SELECT command FROM pg_catalog.pg_event_trigger_ddl_commands() "
					"WHERE command_tag IN ('GRANT', 'REVOKE')", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the commands of the event trigger");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		CollectedCommand *cmd = (CollectedCommand *)
			DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));

		if (!isnull && cmd->type == SCT_Grant && cmd->d.grant.istmt->objtype == OBJECT_TABLE)
		{
			MemoryContext old = MemoryContextSwitchTo(cxt);

			grants = lappend(grants, cmd->d.grant.istmt);
			MemoryContextSwitchTo(old);
		}
	}
	cfSearchPathRestore(pin);
	SPI_finish();

	foreach(lc, grants)
	{
		InternalGrant *istmt = (InternalGrant *) lfirst(lc);
		ListCell   *lo;

		foreach(lo, istmt->objects)
		{
			Oid			relid = lfirst_oid(lo);
			Oid			partner = acl_partner(relid);
			CfAclMirror *m;

			if (!OidIsValid(partner))
				continue;
			m = palloc(sizeof(CfAclMirror));
			m->relname = qualified_name(relid);
			m->partner = qualified_name(partner);
			m->sql = mirror_statement(istmt, m->partner);
			if (m->sql != NULL)
				mirrors = lappend(mirrors, m);
		}
	}
	foreach(lc, mirrors)
		run_mirror((CfAclMirror *) lfirst(lc));
	PG_RETURN_VOID();
}
