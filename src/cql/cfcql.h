/*-------------------------------------------------------------------------
 *
 * cfcql.h
 *	  CQL3 (Cassandra 1.2's dialect) over cfstore's column families:
 *	  cfstore.cql(statement, keyspace).
 *
 * Layers, one file each: cfcql_lex.c turns the statement into tokens;
 * cfcql_parse.c builds a CfCqlStmt from them (syntax errors carry the
 * line and column, as Cassandra's parser reports them); cfcql_table.c
 * gives a column family its CQL3 shape (CfCqlTable: Cassandra 1.2's
 * CFDefinition, also the foreign tables' CQL row shape); cfcql_schema.c
 * runs the DDL statements; cfcql_term.c converts literals to the
 * Cassandra encodings and cell values to JSON; cfcql_write.c runs INSERT,
 * UPDATE, DELETE and BATCH; cfcql_select.c runs SELECT; cfcql.c is the SQL
 * entry point.
 *
 * The statements run through the Thrift-style functions (cfstore.insert,
 * remove, add, the DDL functions) and the byte-level reads of
 * src/api/cfremote.c (_read_slice, _read_row_keys) over SPI, as the
 * caller: privileges, validation, secondary indexes, sharded keyspaces'
 * writes and transactions are theirs, and a CQL3 table's cells are exactly
 * what those functions and the foreign tables show.  The layout of the cells is Cassandra 1.2's
 * (doc/cql.md).
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFCQL_H
#define CFCQL_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"
#include "utils/tuplestore.h"

#include "catalog/cfcatalog.h"
#include "marshal/cftype.h"

/* ---------- tokens (cfcql_lex.c) ---------- */

typedef enum CfCqlTokKind
{
	CQLT_EOF,
	CQLT_IDENT,					/* unquoted, lower-cased; keywords too */
	CQLT_QIDENT,				/* "quoted", case kept */
	CQLT_STRING,				/* 'string', quotes undone */
	CQLT_INTEGER,
	CQLT_FLOAT,
	CQLT_UUID,
	CQLT_HEX,					/* 0x..., text is the hex digits */
	CQLT_PUNCT					/* text is the character(s) */
} CfCqlTokKind;

typedef struct CfCqlToken
{
	CfCqlTokKind kind;
	char	   *text;
	char	   *raw;			/* as written, for messages */
	int			line;
	int			col;			/* 0-based, as Cassandra's parser counts */
} CfCqlToken;

extern List *cfCqlLex(const char *statement);

/* ---------- statements (cfcql_parse.c) ---------- */

typedef enum CfCqlTermKind
{
	CQL_TERM_STRING,
	CQL_TERM_INTEGER,
	CQL_TERM_FLOAT,
	CQL_TERM_UUID,
	CQL_TERM_HEX,
	CQL_TERM_BOOLEAN,
	CQL_TERM_FUNCTION,			/* name(args): now(), minTimeuuid(...), ... */
	CQL_TERM_NULL
} CfCqlTermKind;

typedef struct CfCqlTerm
{
	CfCqlTermKind kind;
	char	   *text;			/* the literal (string: unquoted); function: name */
	List	   *args;			/* function arguments (CfCqlTerm) */
} CfCqlTerm;

typedef enum CfCqlOp
{
	CQL_EQ,
	CQL_LT,
	CQL_LTE,
	CQL_GT,
	CQL_GTE,
	CQL_IN
} CfCqlOp;

/* A WHERE relation: column op term, or column IN (terms). */
typedef struct CfCqlRelation
{
	char	   *column;
	bool		token;			/* token(column) op term */
	CfCqlOp		op;
	CfCqlTerm  *value;
	List	   *values;			/* IN */
} CfCqlRelation;

/* An UPDATE assignment: column = term, or column = column +/- term. */
typedef struct CfCqlSet
{
	char	   *column;
	char		op;				/* '=', '+' or '-' */
	CfCqlTerm  *value;
} CfCqlSet;

/* A column of CREATE TABLE or ALTER TABLE ADD. */
typedef struct CfCqlColumnDef
{
	char	   *name;
	char	   *type;			/* CQL type name, lower case, or a quoted class */
} CfCqlColumnDef;

/* A selector of SELECT: a column, WRITETIME(c) or TTL(c). */
typedef struct CfCqlSelector
{
	char	   *column;
	char		fn;				/* 0, 'w' (writetime) or 't' (ttl) */
	char	   *alias;			/* the result's name */
} CfCqlSelector;

typedef struct CfCqlOrder
{
	char	   *column;
	bool		desc;
} CfCqlOrder;

/* A WITH property: name = value; value is a string, a number or a map. */
typedef struct CfCqlProperty
{
	char	   *name;
	char	   *value;			/* NULL for a map */
	List	   *map;			/* list of pairs (char *key, char *value) */
} CfCqlProperty;

typedef enum CfCqlStmtKind
{
	CQL_CREATE_KEYSPACE,
	CQL_DROP_KEYSPACE,
	CQL_USE,
	CQL_CREATE_TABLE,
	CQL_DROP_TABLE,
	CQL_ALTER_TABLE,
	CQL_CREATE_INDEX,
	CQL_DROP_INDEX,
	CQL_TRUNCATE,
	CQL_INSERT,
	CQL_UPDATE,
	CQL_DELETE,
	CQL_SELECT,
	CQL_BATCH
} CfCqlStmtKind;

typedef struct CfCqlStmt
{
	CfCqlStmtKind kind;
	char	   *keyspace;		/* as written (NULL: the current one) */
	char	   *table;
	char	   *name;			/* index name; ALTER's column */
	/* CREATE KEYSPACE / TABLE, ALTER TABLE ... WITH */
	List	   *properties;		/* CfCqlProperty */
	/* CREATE TABLE */
	List	   *columns;		/* CfCqlColumnDef, as declared */
	List	   *partition_key;	/* char * */
	List	   *clustering;		/* char * */
	bool		compact;
	List	   *clustering_order;	/* CfCqlOrder */
	/* ALTER TABLE: 'a' ADD, 't' ALTER TYPE, 'd' DROP, 'r' RENAME (sets: pairs of names), 'w' WITH */
	char		alter;
	char	   *alter_type;
	/* INSERT */
	List	   *insert_columns; /* char * */
	List	   *insert_values;	/* CfCqlTerm */
	/* UPDATE */
	List	   *sets;			/* CfCqlSet */
	/* DELETE: columns (char *), empty for the whole row */
	List	   *delete_columns;
	/* USING */
	bool		has_ttl;
	int64		ttl;
	bool		has_timestamp;
	int64		timestamp;
	/* UPDATE, DELETE, SELECT */
	List	   *where;			/* CfCqlRelation */
	/* SELECT */
	bool		count;
	bool		star;
	List	   *selectors;		/* CfCqlSelector */
	List	   *order_by;		/* CfCqlOrder */
	bool		has_limit;
	int64		limit;
	bool		allow_filtering;
	/* BATCH */
	List	   *batch;			/* CfCqlStmt of INSERT, UPDATE, DELETE */
	bool		counter_batch;
} CfCqlStmt;

extern CfCqlStmt *cfCqlParse(const char *statement);

/* ---------- tables (cfcql_table.c; the DDL: cfcql_schema.c) ---------- */

typedef enum CfCqlColumnKind
{
	CQL_COL_PARTITION,			/* a part of the row key */
	CQL_COL_CLUSTERING,			/* a component of the cell names */
	CQL_COL_REGULAR,			/* a non-key column: a cell per CQL row */
	CQL_COL_VALUE				/* a compact table's value */
} CfCqlColumnKind;

typedef struct CfCqlColumn
{
	char	   *name;
	CfCqlColumnKind kind;
	int			position;		/* partition / clustering: its index */
	const CfType *type;			/* the value's type (ReversedType unwrapped) */
	bool		reversed;		/* clustering: stored in descending order */
	bytea	   *cell_name;		/* regular column: its component (sparse
								 * composite) or whole name (static) */
	bool		indexed;
} CfCqlColumn;

/* A column family as CQL3 sees it (Cassandra 1.2's CFDefinition). */
typedef struct CfCqlTable
{
	const CfColumnFamily *cf;
	bool		composite;		/* the comparator is a CompositeType */
	bool		compact;		/* dense: one cell per CQL row */
	int			npartition;
	int			nclustering;
	int			ncolumns;
	CfCqlColumn *columns;		/* partition key, clustering, then the rest by name */
	CfCqlColumn *value;			/* compact: the value column, or NULL */
} CfCqlTable;

extern CfCqlTable *cfCqlTable(const char *keyspace, const char *table);
extern CfCqlColumn *cfCqlColumn(CfCqlTable *t, const char *name);
extern const char *cfCqlKeyspace(const CfCqlStmt *stmt, const char *current);
extern void cfCqlRunSchema(CfCqlStmt *stmt, const char *keyspace);

/* ---------- values (cfcql_term.c) ---------- */

extern bytea *cfCqlTermBytes(const CfCqlTerm *term, const CfType *type, const char *column);
extern void cfCqlJsonScalar(JsonbValue *v, const CfType *type, const uint8 *data, int len);
extern void cfCqlJsonValue(JsonbParseState **state, const CfType *type, const uint8 *data, int len);

/* ---------- statements on data (cfcql_write.c, cfcql_select.c) ---------- */

/* SPI helpers shared by both (cfcql_write.c) */
extern void cfCqlCallVoid(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls);
extern void cfCqlRunText(const char *sql, int nargs, const char **args);

extern void cfCqlRunWrite(CfCqlStmt *stmt, const char *keyspace, int64 now);
extern void cfCqlRunSelect(CfCqlStmt *stmt, const char *keyspace, Tuplestorestate *out, TupleDesc desc);

#endif							/* CFCQL_H */
