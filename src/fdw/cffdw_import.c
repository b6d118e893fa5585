/*-------------------------------------------------------------------------
 *
 * cffdw_import.c
 *	  The definition of a column family's foreign table, and IMPORT
 *	  FOREIGN SCHEMA.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/cffdw.h"

/* IMPORT FOREIGN SCHEMA "<keyspace>" FROM SERVER cfstore INTO schema (not yet). */
List *
cfFdwImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	(void) stmt;
	(void) serverOid;
	return NIL;
}
