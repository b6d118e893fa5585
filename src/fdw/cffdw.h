/*-------------------------------------------------------------------------
 *
 * cffdw.h
 *	  cfstore_fdw: every column family as a typed foreign table (README.md
 *	  "Foreign tables") whose key equality, column ranges, ORDER BY and
 *	  LIMIT run inside the storage engine.
 *
 * A foreign table of the wrapper names its column family with the options
 * keyspace and column_family; its columns are found by name:
 *
 *	 key			the row key, typed by key_validation_class
 *	 super_column	Super column families: the super column (comparator)
 *	 column_name	the column name (comparator, or subcomparator), or
 *	 column1..N		one column per component of a CompositeType name
 *	 value			default_validation_class; text when the column_metadata
 *					validators do not all map to one SQL type; bigint in a
 *					counter column family
 *	 writetime, ttl	bigint, integer (not in counter column families)
 *
 * The storage relation is read and written through the storage C API in
 * the caller's transaction; the privileges checked are the foreign
 * table's, by the executor, and the storage relation's, by the wrapper.
 * The canonical foreign table "<keyspace>"."<column_family>", which the
 * catalog functions create, alter and drop, has the same ACL as the
 * storage relation (cffdw_acl.c keeps them equal).
 *
 * Files: cffdw.c (handler, options, the table map, value conversions),
 * cffdw_plan.c (paths, pushdown, plans), cffdw_scan.c (execution,
 * EXPLAIN), cffdw_modify.c (INSERT / UPDATE / DELETE / TRUNCATE),
 * cffdw_import.c (the foreign table's definition, the canonical foreign
 * table, IMPORT FOREIGN SCHEMA), cffdw_acl.c (GRANT and REVOKE on the
 * canonical foreign table apply to the storage relation, and back).
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFFDW_H
#define CFFDW_H

#include "postgres.h"

#include "foreign/fdwapi.h"
#include "utils/rel.h"

#include "catalog/cfcatalog.h"
#include "storage/cfstorage.h"

/* The wrapper, and the server of the canonical foreign tables. */
#define CF_FDW_WRAPPER "cfstore_fdw"
#define CF_FDW_SERVER "cfstore"

/* What a foreign table column holds. */
typedef enum CfFdwRole
{
	CF_FDW_NONE,				/* a dropped column */
	CF_FDW_KEY,
	CF_FDW_SUPER,
	CF_FDW_NAME,				/* column_name, or one component (columnN) */
	CF_FDW_VALUE,
	CF_FDW_WRITETIME,
	CF_FDW_TTL,
	CF_FDW_KEY_PART,			/* CQL rows: one part of a CompositeType row key */
	CF_FDW_CELL,				/* CQL rows: the value of the cell named cell_name */
	CF_FDW_OBJECT				/* CQL rows: the object of the row's cells (jsonb) */
} CfFdwRole;

/*
 * The shapes of a foreign table (option rows): 'cells', a row per cell
 * (the columns above), or 'cql', a row per CQL3 row (src/cql/cfcql.h):
 * the CQL3 table's columns, named as CQL3 names them.
 */
#define CF_FDW_ROWS_CELLS	0
#define CF_FDW_ROWS_SPARSE	1	/* CQL rows, several cells each (grouped by prefix) */
#define CF_FDW_ROWS_STATIC	2	/* CQL rows, one per row key */
#define CF_FDW_ROWS_DENSE	3	/* CQL rows, one cell each (COMPACT STORAGE) */

/* One column of a foreign table. */
typedef struct CfFdwColumn
{
	CfFdwRole	role;
	int			component;		/* CF_FDW_NAME of a composite: 0-based; else -1 */
	Oid			typid;			/* its SQL type (a domain's base type) */
	const CfType *type;			/* its Cassandra type (NULL: writetime, ttl;
								 * the value's default validator) */
	char	   *attname;
	bytea	   *cell_name;		/* CF_FDW_CELL: the last name component (sparse) or
								 * the whole name (static) of its cells */
} CfFdwColumn;

/* The most components a composite column name may have in a foreign table. */
#define CF_FDW_MAX_COMPONENTS 32

/* A foreign table mapped onto its column family. */
typedef struct CfFdwTable
{
	Oid			relid;			/* the foreign table */
	const CfColumnFamily *cf;
	Oid			storage_relid;	/* cfstore_data.cf_<id> */
	int			natts;
	CfFdwColumn *cols;			/* by attnum - 1 */
	AttrNumber	key_att;		/* attnums, 0 if absent */
	AttrNumber	sc_att;
	AttrNumber	value_att;
	AttrNumber	writetime_att;
	AttrNumber	ttl_att;
	int			nname;			/* 1, or the components of a composite name */
	AttrNumber	name_att[CF_FDW_MAX_COMPONENTS];
	const CfType *nametype;		/* comparator, or subcomparator in a Super CF */
	bool		value_as_text;	/* values rendered in their validators' text forms */
	int			rows;			/* CF_FDW_ROWS_* */
	int			nkey_parts;		/* CQL rows with a CompositeType key: its parts */
	int			ncells;			/* CQL rows: columns of role CF_FDW_CELL */
	AttrNumber	object_att;		/* CQL rows: the CF_FDW_OBJECT column, or 0 */
} CfFdwTable;

/* cffdw.c */
extern CfFdwTable *cfFdwTableGet(Oid relid);
extern bool cfFdwEmptyIsNull(const CfFdwColumn *col);
extern Datum cfFdwToDatum(const CfFdwTable *t, const CfFdwColumn *col, const uint8 *data, int len,
						  const uint8 *name, int namelen, bool *isnull);
extern bytea *cfFdwFromDatum(const CfFdwTable *t, const CfFdwColumn *col, Datum value,
							 const uint8 *name, int namelen);
extern bool cfFdwEncodeExact(const CfType *type, Datum value, Oid valtype, bytea **out);
extern void cfFdwFillSlot(const CfFdwTable *t, const CfOutCell *c, const bool *needed,
						  Datum *values, bool *nulls);
extern Oid	cfFdwSqlType(const CfType *type);
extern bool cfFdwMixedValidators(const CfColumnFamily *cf);

/* cffdw_plan.c */
extern void cfFdwGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid);
extern void cfFdwGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid);
extern ForeignScan *cfFdwGetForeignPlan(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
										ForeignPath *best_path, List *tlist, List *scan_clauses,
										Plan *outer_plan);
extern void cfFdwGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
									  RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra);

/* cffdw_scan.c */
extern void cfFdwBeginForeignScan(ForeignScanState *node, int eflags);
extern TupleTableSlot *cfFdwIterateForeignScan(ForeignScanState *node);
extern void cfFdwReScanForeignScan(ForeignScanState *node);
extern void cfFdwEndForeignScan(ForeignScanState *node);
extern void cfFdwExplainForeignScan(ForeignScanState *node, struct ExplainState *es);

/* cffdw_modify.c */
extern void cfFdwModifyRoutines(FdwRoutine *routine);

/* cffdw_import.c */
extern char *cfFdwTableColumns(const CfColumnFamily *cf, bool cql_rows);
extern void cfFdwRunAs(Oid role, const char *sql);
extern bool cfFdwCqlRows(const CfColumnFamily *cf);
extern char *cfFdwTableDefinition(const CfColumnFamily *cf, const char *schema, const char *server);
extern Oid	cfFdwReplaceTable(const CfColumnFamily *cf, Oid old, Oid dropper);
extern bool cfFdwTableNames(Oid relid, char **keyspace, char **column_family);
extern Oid	cfFdwCanonicalTable(const char *keyspace, const char *column_family);
extern List *cfFdwImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid);

/* cffdw_acl.c */
extern void cfFdwCopyAcl(Oid from, Oid to);

#endif							/* CFFDW_H */
