/*-------------------------------------------------------------------------
 *
 * cfcli.h
 *	  cassandra-cli (Cassandra 1.2) scripts: cfstore.cli(script).
 *
 * cfcli_parse.c splits a script into statements and parses each one
 * (Cli.g's grammar: keywords in any case, names as written, 'strings'
 * with Java escapes); cfcli_type.c converts keys, names and values as
 * cassandra-cli does (BytesType as hex, the value functions, `assume`)
 * and renders them; cfcli_exec.c runs the statements through the
 * Thrift-style functions and prints what cassandra-cli prints;
 * cfcli_describe.c prints `describe` and `show keyspaces`.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFCLI_H
#define CFCLI_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"

#include "marshal/cftype.h"
#include "storage/cfwrite.h"

/* ---------- statements (cfcli_parse.c) ---------- */

/* A key, column name or value: a literal, or a function call such as long(5). */
typedef struct CliTerm
{
	char	   *text;			/* unescaped */
	char	   *fn;				/* function name, or NULL */
	bool		has_arg;		/* fn(): false */
} CliTerm;

/* An attribute value of create/update: a scalar, a {k: v} hash or a [...] array of hashes. */
typedef struct CliAttr
{
	char	   *name;
	char	   *raw;			/* a scalar as written (quotes kept) */
	char	   *text;			/* a scalar, unescaped */
	List	   *hash;			/* pairs (char *k, CliAttr *v) */
	List	   *array;			/* CliAttr of hashes */
	bool		is_hash;
	bool		is_array;
} CliAttr;

typedef enum CliKind
{
	CLI_NOOP,
	CLI_USE,
	CLI_CREATE_KEYSPACE,
	CLI_UPDATE_KEYSPACE,
	CLI_DROP_KEYSPACE,
	CLI_CREATE_CF,
	CLI_UPDATE_CF,
	CLI_DROP_CF,
	CLI_DROP_INDEX,
	CLI_SET,
	CLI_GET,
	CLI_GET_WHERE,
	CLI_LIST,
	CLI_COUNT,
	CLI_DEL,
	CLI_INCR,
	CLI_DECR,
	CLI_TRUNCATE,
	CLI_ASSUME,
	CLI_SHOW_KEYSPACES,
	CLI_DESCRIBE,
	CLI_CONSISTENCYLEVEL
} CliKind;

typedef struct CliCond
{
	CliTerm    *column;
	char	   *op;				/* EQ, GT, GTE, LT, LTE */
	CliTerm    *value;
} CliCond;

typedef struct CliStmt
{
	CliKind		kind;
	char	   *name;			/* keyspace or column family, unescaped */
	char	   *raw_name;		/* as written (truncate, describe) */
	List	   *attrs;			/* CliAttr */
	/* CF[key][col][sub] */
	CliTerm    *key;
	int			nspecs;
	CliTerm    *specs[2];
	CliTerm    *value;			/* set */
	char	   *ttl;			/* set ... with ttl = */
	char	   *by;				/* incr/decr by */
	char	   *as_type;		/* get ... as T; assume ... as T */
	char	   *element;		/* assume: keys, comparator, ... */
	bool		has_limit;
	int64		limit;
	bool		has_columns;
	int64		columns;
	bool		reversed;
	bool		has_range;
	char	   *range_start;	/* list CF[a:b] */
	char	   *range_end;
	List	   *conds;			/* get ... where */
	char	   *text;			/* the statement, for messages */
} CliStmt;

extern List *cfCliSplit(const char *script);
extern CliStmt *cfCliParse(const char *statement);
/* An error with the cli's message: an invalid request (SQLSTATE 22023). */
#define cfCliError cfInvalidRequest

/* ---------- types (cfcli_type.c) ---------- */

extern const char *const cf_cli_functions;
extern CfType *cfCliFormatType(const char *name);
extern bytea *cfCliParseValue(const CfType *given, const char *s, char **err);
extern bytea *cfCliFromString(const CfType *type, const char *text);
extern char *cfCliToString(const CfType *type, const uint8 *data, int len);
extern bytea *cfCliFunction(const CliTerm *term, CfType **type);

/* ---------- output (cfcli_exec.c, cfcli_describe.c) ---------- */

/* The session of one cli() call: the keyspace in use, assumptions, output lines. */
typedef struct CliSession
{
	char	   *keyspace;		/* NULL: none */
	List	   *assumptions;	/* (cf, element, type name) triples, char * each */
	List	   *lines;			/* char * */
} CliSession;

extern void cfCliPrint(CliSession *s, const char *fmt,...) pg_attribute_printf(2, 3);
extern void cfCliRun(CliSession *s, CliStmt *stmt);
extern void cfCliDescribeKeyspace(CliSession *s, const char *keyspace);

#endif							/* CFCLI_H */
