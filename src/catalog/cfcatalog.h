/*-------------------------------------------------------------------------
 *
 * cfcatalog.h
 *	  The column-family catalog as the C layers see it: a per-backend cache
 *	  of each column family's definition with its types already parsed.
 *
 * The catalog itself is SQL (src/sql/30_catalog.sql).  cfCatalogLookup
 * reads a column family once per backend and keeps it, comparators parsed,
 * until the catalog changes: statement triggers on the catalog tables send
 * a relcache invalidation for cfstore.column_family, which every backend
 * receives (its own at the next command, others at commit, and its own
 * again at rollback) and which empties the cache.  Lookups process pending
 * invalidations first, so they see the latest committed definition, as
 * lookups in PostgreSQL's own catalogs do.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFCATALOG_H
#define CFCATALOG_H

#include "postgres.h"

#include "marshal/cftype.h"

/* The longest keyspace or column family name, plus its terminator. */
#define CF_NAME_BUFSIZE 49

struct CfColumnFamily;

/* One column_metadata entry. */
typedef struct CfColumnDef
{
	bytea	   *name;			/* encoded under the name comparator */
	CfType	   *validator;
	char	   *index_name;		/* NULL unless a KEYS index */
	int32		index_id;		/* its storage: cfstore_data.cf_<index_id>; 0 if none */
	struct CfColumnFamily *index_cf;	/* the index as a column family (cfindex.c) */
	int			component;		/* -1: name is the whole column name; else a CQL3
								 * column: name (UTF-8) is that component of a
								 * composite cell name */
} CfColumnDef;

/* How a column family compresses values (compression_options; the stored method byte). */
typedef enum CfCompression
{
	CF_COMPRESSION_NONE = 0,
	CF_COMPRESSION_PGLZ = 1,
	CF_COMPRESSION_LZ4 = 2
} CfCompression;

/* A column family, as cached. */
typedef struct CfColumnFamily
{
	char		keyspace[CF_NAME_BUFSIZE];
	char		name[CF_NAME_BUFSIZE];
	int32		id;
	bool		is_super;
	bool		is_counter;
	bool		sharded;		/* its keyspace lives on shard servers (src/shard) */
	CfType	   *comparator;
	CfType	   *subcomparator;	/* NULL in a Standard column family */
	CfType	   *key_validator;
	CfType	   *default_validator;
	int32		gc_grace_seconds;
	int32		default_time_to_live;
	CfCompression compression;	/* for values written from now on */
	int			ncolumns;
	CfColumnDef *columns;		/* whole-name entries first, sorted by name under
								 * the name comparator, then the CQL3 columns,
								 * sorted by their names' bytes */
	int			nwhole;			/* whole-name entries */
	int			cql_component;	/* the CQL3 columns' component, or -1 */
	/* the CQL3 names (src/cql/cfcql_schema.c); NULL: none given */
	int			nkey_aliases;
	char	  **key_aliases;
	int			ncolumn_aliases;
	char	  **column_aliases;
	char	   *value_alias;
	int			nindexes;		/* columns with a KEYS index */
	/* an index's own definition: the column family and column it indexes */
	int32		index_of;		/* 0: not an index */
	const CfColumnDef *index_column;
} CfColumnFamily;

extern void cfCatalogInit(void);
extern const CfColumnFamily *cfCatalogLookup(const char *keyspace,
											 const char *column_family);
extern const CfColumnFamily *cfCatalogLookupById(int32 id);
extern uint64 cfCatalogGeneration(void);
extern bool cfKeyspaceExists(const char *name);
extern bool cfColumnFamilySharded(const char *keyspace, const char *name);
extern char *cfKeyspaceOwnedBy(Oid role);
extern int	cfSearchPathPin(void);
extern void cfSearchPathRestore(int level);
extern const CfType *cfCatalogValueValidator(const CfColumnFamily *cf,
											 const uint8 *name, int len);
/* cfddl.c: the DDL functions' caller */
extern bool cfDdlInternal(void);
extern Oid	cfDdlCaller(void);

extern const CfColumnDef *cfCatalogColumn(const CfColumnFamily *cf, const uint8 *name, int len);

#endif							/* CFCATALOG_H */
