/*-------------------------------------------------------------------------
 *
 * cffdw_acl.c
 *	  The privileges of a column family's canonical foreign table and of its
 *	  storage relation.
 *
 * SQL on the foreign table "<keyspace>"."<column_family>" is checked
 * against the foreign table's ACL; the function API and the wrapper check
 * the storage relation cfstore_data.cf_<id>.  At creation the canonical
 * foreign table, made by the keyspace owner, takes that owner's default
 * privileges, and the storage relation takes the foreign table's ACL
 * (cfFdwCopyAcl).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "utils/acl.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "fdw/cffdw.h"

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
