/*-------------------------------------------------------------------------
 *
 * cfcql_parse.c
 *	  A recursive-descent parser for the CQL3 statements cfstore runs
 *	  (Cassandra 1.2's grammar, Cql.g, for the statements of doc/cql.md).
 *
 * A syntax error is reported as Cassandra's parser reports it, with the
 * line and the column of the offending token: "line 1:9 mismatched input
 * 'FORM' expecting K_FROM" or "line 1:0 no viable alternative at input
 * 'SELEKT'".  Names are lower-cased unless quoted; keywords are the
 * reserved words below and are not names unless quoted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "cql/cfcql.h"
#include "storage/cfwrite.h"

typedef struct CqlParser
{
	List	   *tokens;
	int			pos;
} CqlParser;

/* Cassandra 1.2's reserved keywords (the rest of its keywords may be names). */
static const char *const reserved[] = {
	"add", "allow", "alter", "and", "apply", "asc", "authorize", "batch", "begin", "by",
	"columnfamily", "create", "delete", "desc", "drop", "false", "from", "grant", "in", "index",
	"insert", "into", "keyspace", "limit", "modify", "norecursive", "null", "of", "on",
	"order", "primary", "rename", "revoke", "schema", "select", "set", "table", "to", "token",
	"true", "truncate", "unlogged", "update", "use", "using", "where", "with", NULL
};

static CfCqlToken *
peek(CqlParser *p)
{
	return (CfCqlToken *) list_nth(p->tokens, p->pos);
}

static CfCqlToken *
peek_at(CqlParser *p, int ahead)
{
	int			i = Min(p->pos + ahead, list_length(p->tokens) - 1);

	return (CfCqlToken *) list_nth(p->tokens, i);
}

static CfCqlToken *
next(CqlParser *p)
{
	CfCqlToken *t = peek(p);

	if (t->kind != CQLT_EOF)
		p->pos++;
	return t;
}

/* Raise "no viable alternative" at the current token. */
static void pg_attribute_noreturn()
no_viable(CqlParser *p)
{
	CfCqlToken *t = peek(p);

	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("line %d:%d no viable alternative at input '%s'", t->line, t->col, t->raw)));
}

/* Raise "mismatched input ... expecting what" at the current token. */
static void pg_attribute_noreturn()
mismatched(CqlParser *p, const char *what)
{
	CfCqlToken *t = peek(p);

	if (t->kind == CQLT_EOF)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("line %d:%d mismatched input '<EOF>' expecting %s", t->line, t->col, what)));
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("line %d:%d mismatched input '%s' expecting %s", t->line, t->col, t->raw, what)));
}

/* Whether the current token is of kind with text s. */
static bool
is_token(CqlParser *p, CfCqlTokKind kind, const char *s)
{
	CfCqlToken *t = peek(p);

	return t->kind == kind && strcmp(t->text, s) == 0;
}

/* Step over the current token if it is of kind with text s; whether it was. */
static bool
accept_token(CqlParser *p, CfCqlTokKind kind, const char *s)
{
	if (!is_token(p, kind, s))
		return false;
	p->pos++;
	return true;
}

/* Keywords (unquoted identifiers, lower case) and punctuation. */
#define is_kw(p, kw) is_token(p, CQLT_IDENT, kw)
#define accept_kw(p, kw) accept_token(p, CQLT_IDENT, kw)
#define is_punct(p, s) is_token(p, CQLT_PUNCT, s)
#define accept_punct(p, s) accept_token(p, CQLT_PUNCT, s)

/* Step over keyword kw, or fail as Cassandra's parser does (K_<KW>). */
static void
expect_kw(CqlParser *p, const char *kw)
{
	if (!accept_kw(p, kw))
	{
		char		upper[32];
		int			i;

		for (i = 0; kw[i] && i < 30; i++)
			upper[i] = pg_ascii_toupper((unsigned char) kw[i]);
		upper[i] = '\0';
		mismatched(p, psprintf("K_%s", upper));
	}
}

/* Step over punctuation s, or fail as Cassandra's parser does ('s'). */
static void
expect_punct(CqlParser *p, const char *s)
{
	if (!accept_punct(p, s))
		mismatched(p, psprintf("'%s'", s));
}

static bool
is_reserved(const char *word)
{
	for (int i = 0; reserved[i]; i++)
		if (strcmp(reserved[i], word) == 0)
			return true;
	return false;
}

/* A name: an unreserved identifier (lower-cased) or a quoted name. */
static char *
parse_name(CqlParser *p)
{
	CfCqlToken *t = peek(p);

	if (t->kind == CQLT_QIDENT || (t->kind == CQLT_IDENT && !is_reserved(t->text)))
	{
		p->pos++;
		return t->text;
	}
	if (t->kind == CQLT_EOF)
		mismatched(p, "IDENT");
	no_viable(p);
}

/* [keyspace .] table */
static void
parse_table_name(CqlParser *p, CfCqlStmt *stmt)
{
	char	   *first = parse_name(p);

	if (accept_punct(p, "."))
	{
		stmt->keyspace = first;
		stmt->table = parse_name(p);
	}
	else
		stmt->table = first;
}

/* A term: a constant, or a function call such as now(). */
static CfCqlTerm *
parse_term(CqlParser *p)
{
	CfCqlToken *t = peek(p);
	CfCqlTerm  *term = palloc0(sizeof(CfCqlTerm));

	check_stack_depth();		/* function calls nest */
	switch (t->kind)
	{
		case CQLT_STRING:
			term->kind = CQL_TERM_STRING;
			break;
		case CQLT_INTEGER:
			term->kind = CQL_TERM_INTEGER;
			break;
		case CQLT_FLOAT:
			term->kind = CQL_TERM_FLOAT;
			break;
		case CQLT_UUID:
			term->kind = CQL_TERM_UUID;
			break;
		case CQLT_HEX:
			term->kind = CQL_TERM_HEX;
			break;
		case CQLT_IDENT:
			if (strcmp(t->text, "true") == 0 || strcmp(t->text, "false") == 0)
			{
				term->kind = CQL_TERM_BOOLEAN;
				break;
			}
			if (strcmp(t->text, "null") == 0)
			{
				term->kind = CQL_TERM_NULL;
				break;
			}
			if (peek_at(p, 1)->kind == CQLT_PUNCT && strcmp(peek_at(p, 1)->text, "(") == 0 &&
				!is_reserved(t->text))
			{
				term->kind = CQL_TERM_FUNCTION;
				term->text = t->text;
				p->pos += 2;
				if (!accept_punct(p, ")"))
				{
					do
						term->args = lappend(term->args, parse_term(p));
					while (accept_punct(p, ","));
					expect_punct(p, ")");
				}
				return term;
			}
			/* fall through */
		default:
			if (t->kind == CQLT_EOF)
				mismatched(p, "constant");
			no_viable(p);
	}
	term->text = t->text;
	p->pos++;
	return term;
}

/* A relation of a WHERE clause. */
static CfCqlRelation *
parse_relation(CqlParser *p)
{
	CfCqlRelation *r = palloc0(sizeof(CfCqlRelation));
	CfCqlToken *t;

	if (accept_kw(p, "token"))
	{
		r->token = true;
		expect_punct(p, "(");
		r->column = parse_name(p);
		expect_punct(p, ")");
	}
	else
		r->column = parse_name(p);
	if (accept_kw(p, "in"))
	{
		r->op = CQL_IN;
		expect_punct(p, "(");
		/* at least one value, as Cassandra 1.2's grammar has it */
		do
			r->values = lappend(r->values, parse_term(p));
		while (accept_punct(p, ","));
		expect_punct(p, ")");
		return r;
	}
	t = peek(p);
	if (t->kind != CQLT_PUNCT)
		no_viable(p);
	if (strcmp(t->text, "=") == 0)
		r->op = CQL_EQ;
	else if (strcmp(t->text, "<") == 0)
		r->op = CQL_LT;
	else if (strcmp(t->text, "<=") == 0)
		r->op = CQL_LTE;
	else if (strcmp(t->text, ">") == 0)
		r->op = CQL_GT;
	else if (strcmp(t->text, ">=") == 0)
		r->op = CQL_GTE;
	else
		no_viable(p);
	p->pos++;
	if (r->token)
	{
		/* token(key) op token(term) or a constant */
		if (accept_kw(p, "token"))
		{
			expect_punct(p, "(");
			r->value = parse_term(p);
			expect_punct(p, ")");
			return r;
		}
	}
	r->value = parse_term(p);
	return r;
}

/* WHERE relation (AND relation)* */
static List *
parse_where(CqlParser *p)
{
	List	   *rels = NIL;

	do
		rels = lappend(rels, parse_relation(p));
	while (accept_kw(p, "and"));
	return rels;
}

/* An integer constant of a USING or LIMIT clause. */
static int64
parse_integer(CqlParser *p)
{
	CfCqlToken *t = peek(p);
	int64		v;
	char	   *end;

	if (t->kind != CQLT_INTEGER)
		mismatched(p, "INTEGER");
	errno = 0;
	v = strtoi64(t->text, &end, 10);
	if (errno != 0 || *end != '\0')
		cfInvalidRequest("Invalid integer %s", t->text);
	p->pos++;
	return v;
}

/* USING TTL n | TIMESTAMP n (AND ...)* */
static void
parse_using(CqlParser *p, CfCqlStmt *stmt, bool ttl_allowed)
{
	if (!accept_kw(p, "using"))
		return;
	do
	{
		if (is_kw(p, "ttl") && !ttl_allowed)
			mismatched(p, "K_TIMESTAMP");
		if (accept_kw(p, "ttl"))
		{
			stmt->has_ttl = true;
			stmt->ttl = parse_integer(p);
		}
		else if (accept_kw(p, "timestamp"))
		{
			stmt->has_timestamp = true;
			stmt->timestamp = parse_integer(p);
		}
		else if (accept_kw(p, "consistency"))
			cfInvalidRequest("USING CONSISTENCY is not supported by CQL3 (set the consistency level with the protocol)");
		else
			no_viable(p);
	}
	while (accept_kw(p, "and") || is_kw(p, "ttl") || is_kw(p, "timestamp"));
}

/* A property value: a constant or a {'k': v, ...} map. */
static CfCqlProperty *
parse_property(CqlParser *p)
{
	CfCqlProperty *prop = palloc0(sizeof(CfCqlProperty));
	CfCqlToken *t;
	StringInfoData name;

	/* 1.2 also takes the older dotted form: strategy_options:replication_factor */
	initStringInfo(&name);
	appendStringInfoString(&name, parse_name(p));
	while (accept_punct(p, ":"))
	{
		appendStringInfo(&name, ":%s", next(p)->text);
		CHECK_FOR_INTERRUPTS();
	}
	prop->name = name.data;
	expect_punct(p, "=");
	if (accept_punct(p, "{"))
	{
		if (!accept_punct(p, "}"))
		{
			do
			{
				CfCqlToken *k = next(p);
				CfCqlToken *v;

				if (k->kind == CQLT_EOF || k->kind == CQLT_PUNCT)
				{
					p->pos--;
					no_viable(p);
				}
				expect_punct(p, ":");
				v = next(p);
				if (v->kind == CQLT_EOF || v->kind == CQLT_PUNCT)
				{
					p->pos--;
					no_viable(p);
				}
				prop->map = lappend(prop->map, list_make2(k->text, v->text));
			}
			while (accept_punct(p, ","));
			expect_punct(p, "}");
		}
		return prop;
	}
	t = next(p);
	if (t->kind == CQLT_EOF || t->kind == CQLT_PUNCT)
	{
		p->pos--;
		no_viable(p);
	}
	prop->value = t->text;
	return prop;
}

/* A CQL type: a name such as int or varchar, or a quoted class name. */
static char *
parse_type(CqlParser *p)
{
	CfCqlToken *t = peek(p);

	if (t->kind == CQLT_STRING)
	{
		p->pos++;
		return t->text;
	}
	if (t->kind == CQLT_IDENT)
	{
		static const char *const native[] = {"ascii", "bigint", "blob", "boolean", "counter", "decimal",
			"double", "float", "inet", "int", "text", "timestamp", "uuid", "varchar", "varint", "timeuuid", NULL};

		if (strcmp(t->text, "map") == 0 || strcmp(t->text, "list") == 0 || strcmp(t->text, "set") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("collection types (%s<...>) are not supported by cfstore", t->text)));
		for (int i = 0; native[i]; i++)
			if (strcmp(native[i], t->text) == 0)
			{
				p->pos++;
				return t->text;
			}
	}
	no_viable(p);
}

/* CREATE TABLE name ( defs ) [WITH ...] */
static void
parse_create_table(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_CREATE_TABLE;
	parse_table_name(p, stmt);
	expect_punct(p, "(");
	do
	{
		if (accept_kw(p, "primary"))
		{
			expect_kw(p, "key");
			if (stmt->partition_key != NIL)
				cfInvalidRequest("You must specify one and only one PRIMARY KEY");
			expect_punct(p, "(");
			if (accept_punct(p, "("))
			{
				do
					stmt->partition_key = lappend(stmt->partition_key, parse_name(p));
				while (accept_punct(p, ","));
				expect_punct(p, ")");
			}
			else
				stmt->partition_key = list_make1(parse_name(p));
			while (accept_punct(p, ","))
				stmt->clustering = lappend(stmt->clustering, parse_name(p));
			expect_punct(p, ")");
		}
		else
		{
			CfCqlColumnDef *def = palloc0(sizeof(CfCqlColumnDef));

			def->name = parse_name(p);
			def->type = parse_type(p);
			stmt->columns = lappend(stmt->columns, def);
			if (accept_kw(p, "primary"))
			{
				expect_kw(p, "key");
				if (stmt->partition_key != NIL)
					cfInvalidRequest("You must specify one and only one PRIMARY KEY");
				stmt->partition_key = list_make1(def->name);
			}
		}
	}
	while (accept_punct(p, ","));
	expect_punct(p, ")");
	if (accept_kw(p, "with"))
	{
		do
		{
			if (accept_kw(p, "compact"))
			{
				expect_kw(p, "storage");
				stmt->compact = true;
			}
			else if (accept_kw(p, "clustering"))
			{
				expect_kw(p, "order");
				expect_kw(p, "by");
				expect_punct(p, "(");
				do
				{
					CfCqlOrder *o = palloc0(sizeof(CfCqlOrder));

					o->column = parse_name(p);
					if (accept_kw(p, "desc"))
						o->desc = true;
					else
						accept_kw(p, "asc");
					stmt->clustering_order = lappend(stmt->clustering_order, o);
				}
				while (accept_punct(p, ","));
				expect_punct(p, ")");
			}
			else
				stmt->properties = lappend(stmt->properties, parse_property(p));
		}
		while (accept_kw(p, "and"));
	}
}

/* INSERT INTO t (cols) VALUES (terms) [USING ...] */
static void
parse_insert(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_INSERT;
	expect_kw(p, "into");
	parse_table_name(p, stmt);
	expect_punct(p, "(");
	do
		stmt->insert_columns = lappend(stmt->insert_columns, parse_name(p));
	while (accept_punct(p, ","));
	expect_punct(p, ")");
	expect_kw(p, "values");
	expect_punct(p, "(");
	do
		stmt->insert_values = lappend(stmt->insert_values, parse_term(p));
	while (accept_punct(p, ","));
	expect_punct(p, ")");
	if (accept_kw(p, "if"))
		cfInvalidRequest("conditional updates (IF ...) are not part of CQL3 in Cassandra 1.2");
	parse_using(p, stmt, true);
}

/* UPDATE t [USING ...] SET assignments WHERE relations */
static void
parse_update(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_UPDATE;
	parse_table_name(p, stmt);
	parse_using(p, stmt, true);
	expect_kw(p, "set");
	do
	{
		CfCqlSet   *s = palloc0(sizeof(CfCqlSet));

		s->column = parse_name(p);
		expect_punct(p, "=");
		s->op = '=';
		if ((peek(p)->kind == CQLT_IDENT || peek(p)->kind == CQLT_QIDENT) &&
			peek_at(p, 1)->kind == CQLT_PUNCT &&
			(strcmp(peek_at(p, 1)->text, "+") == 0 || strcmp(peek_at(p, 1)->text, "-") == 0))
		{
			char	   *same = parse_name(p);

			s->op = next(p)->text[0];
			if (strcmp(same, s->column) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("Only expressions of the form X = X %c<value> are supported.", s->op)));
			s->value = parse_term(p);
		}
		else if ((peek(p)->kind == CQLT_IDENT || peek(p)->kind == CQLT_QIDENT) &&
				 peek_at(p, 1)->kind == CQLT_INTEGER && peek_at(p, 1)->text[0] == '-')
		{
			/* c = c-1: the lexer read "-1" as one integer */
			char	   *same = parse_name(p);

			if (strcmp(same, s->column) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("Only expressions of the form X = X - <value> are supported.")));
			s->op = '+';
			s->value = parse_term(p);
		}
		else
			s->value = parse_term(p);
		stmt->sets = lappend(stmt->sets, s);
	}
	while (accept_punct(p, ","));
	expect_kw(p, "where");
	stmt->where = parse_where(p);
}

/* DELETE [cols] FROM t [USING TIMESTAMP n] WHERE relations */
static void
parse_delete(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_DELETE;
	if (!is_kw(p, "from"))
	{
		do
			stmt->delete_columns = lappend(stmt->delete_columns, parse_name(p));
		while (accept_punct(p, ","));
	}
	expect_kw(p, "from");
	parse_table_name(p, stmt);
	parse_using(p, stmt, false);
	expect_kw(p, "where");
	stmt->where = parse_where(p);
}

/* SELECT selectors FROM t [WHERE ...] [ORDER BY ...] [LIMIT n] [ALLOW FILTERING] */
static void
parse_select(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_SELECT;
	if (is_kw(p, "count") && peek_at(p, 1)->kind == CQLT_PUNCT && strcmp(peek_at(p, 1)->text, "(") == 0)
	{
		p->pos += 2;
		if (!accept_punct(p, "*"))
		{
			CfCqlToken *t = peek(p);

			if (t->kind != CQLT_INTEGER)
				mismatched(p, "'*'");
			if (strcmp(t->text, "1") != 0)
				ereport(ERROR,
						(errcode(ERRCODE_SYNTAX_ERROR),
						 errmsg("Only COUNT(1) is supported, got COUNT(%s)", t->text)));
			p->pos++;
		}
		expect_punct(p, ")");
		stmt->count = true;
	}
	else if (accept_punct(p, "*"))
		stmt->star = true;
	else
	{
		do
		{
			CfCqlSelector *sel = palloc0(sizeof(CfCqlSelector));

			if ((is_kw(p, "writetime") || is_kw(p, "ttl")) &&
				peek_at(p, 1)->kind == CQLT_PUNCT && strcmp(peek_at(p, 1)->text, "(") == 0)
			{
				sel->fn = is_kw(p, "ttl") ? 't' : 'w';
				p->pos += 2;
				sel->column = parse_name(p);
				expect_punct(p, ")");
				sel->alias = psprintf("%s(%s)", sel->fn == 't' ? "ttl" : "writetime", sel->column);
			}
			else
			{
				sel->column = parse_name(p);
				if (is_punct(p, "("))
					cfInvalidRequest("Unknown function '%s'", sel->column);
				sel->alias = sel->column;
			}
			if (accept_kw(p, "as"))
				sel->alias = parse_name(p);
			stmt->selectors = lappend(stmt->selectors, sel);
		}
		while (accept_punct(p, ","));
	}
	expect_kw(p, "from");
	parse_table_name(p, stmt);
	if (accept_kw(p, "where"))
		stmt->where = parse_where(p);
	if (accept_kw(p, "order"))
	{
		expect_kw(p, "by");
		do
		{
			CfCqlOrder *o = palloc0(sizeof(CfCqlOrder));

			o->column = parse_name(p);
			if (accept_kw(p, "desc"))
				o->desc = true;
			else
				accept_kw(p, "asc");
			stmt->order_by = lappend(stmt->order_by, o);
		}
		while (accept_punct(p, ","));
	}
	if (accept_kw(p, "limit"))
	{
		stmt->has_limit = true;
		stmt->limit = parse_integer(p);
	}
	if (accept_kw(p, "allow"))
	{
		expect_kw(p, "filtering");
		stmt->allow_filtering = true;
	}
}

/* ALTER TABLE t ADD c type | ALTER c TYPE type | DROP c | RENAME a TO b [AND ...] | WITH props */
static void
parse_alter_table(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_ALTER_TABLE;
	parse_table_name(p, stmt);
	if (accept_kw(p, "add"))
	{
		stmt->alter = 'a';
		stmt->name = parse_name(p);
		stmt->alter_type = parse_type(p);
	}
	else if (accept_kw(p, "alter"))
	{
		stmt->alter = 't';
		stmt->name = parse_name(p);
		expect_kw(p, "type");
		stmt->alter_type = parse_type(p);
	}
	else if (accept_kw(p, "drop"))
	{
		stmt->alter = 'd';
		stmt->name = parse_name(p);
	}
	else if (accept_kw(p, "rename"))
	{
		stmt->alter = 'r';
		do
		{
			char	   *from = parse_name(p);

			expect_kw(p, "to");
			stmt->sets = lappend(stmt->sets, list_make2(from, parse_name(p)));
		}
		while (accept_kw(p, "and"));
	}
	else if (accept_kw(p, "with"))
	{
		stmt->alter = 'w';
		do
			stmt->properties = lappend(stmt->properties, parse_property(p));
		while (accept_kw(p, "and"));
	}
	else
		no_viable(p);
}

/* BEGIN [UNLOGGED | COUNTER] BATCH [USING TIMESTAMP n] stmt; ... APPLY BATCH */
static void
parse_batch(CqlParser *p, CfCqlStmt *stmt)
{
	stmt->kind = CQL_BATCH;
	if (accept_kw(p, "counter"))
		stmt->counter_batch = true;
	else
		accept_kw(p, "unlogged");
	expect_kw(p, "batch");
	parse_using(p, stmt, false);
	while (!is_kw(p, "apply"))
	{
		CfCqlStmt  *sub = palloc0(sizeof(CfCqlStmt));

		if (accept_kw(p, "insert"))
			parse_insert(p, sub);
		else if (accept_kw(p, "update"))
			parse_update(p, sub);
		else if (accept_kw(p, "delete"))
			parse_delete(p, sub);
		else
			no_viable(p);
		stmt->batch = lappend(stmt->batch, sub);
		accept_punct(p, ";");
	}
	expect_kw(p, "apply");
	expect_kw(p, "batch");
}

/* Parse one statement (an optional ';' may end it). */
CfCqlStmt *
cfCqlParse(const char *statement)
{
	CqlParser	parser = {cfCqlLex(statement), 0};
	CqlParser  *p = &parser;
	CfCqlStmt  *stmt = palloc0(sizeof(CfCqlStmt));

	if (accept_kw(p, "select"))
		parse_select(p, stmt);
	else if (accept_kw(p, "insert"))
		parse_insert(p, stmt);
	else if (accept_kw(p, "update"))
		parse_update(p, stmt);
	else if (accept_kw(p, "delete"))
		parse_delete(p, stmt);
	else if (accept_kw(p, "begin"))
		parse_batch(p, stmt);
	else if (accept_kw(p, "use"))
	{
		stmt->kind = CQL_USE;
		stmt->keyspace = parse_name(p);
	}
	else if (accept_kw(p, "truncate"))
	{
		stmt->kind = CQL_TRUNCATE;
		parse_table_name(p, stmt);
	}
	else if (accept_kw(p, "create"))
	{
		if (accept_kw(p, "keyspace") || accept_kw(p, "schema"))
		{
			stmt->kind = CQL_CREATE_KEYSPACE;
			stmt->keyspace = parse_name(p);
			expect_kw(p, "with");
			do
				stmt->properties = lappend(stmt->properties, parse_property(p));
			while (accept_kw(p, "and"));
		}
		else if (accept_kw(p, "table") || accept_kw(p, "columnfamily"))
			parse_create_table(p, stmt);
		else if (accept_kw(p, "index"))
		{
			stmt->kind = CQL_CREATE_INDEX;
			if (!is_kw(p, "on"))
				stmt->name = parse_name(p);
			expect_kw(p, "on");
			parse_table_name(p, stmt);
			expect_punct(p, "(");
			stmt->delete_columns = list_make1(parse_name(p));
			expect_punct(p, ")");
		}
		else
			no_viable(p);
	}
	else if (accept_kw(p, "drop"))
	{
		if (accept_kw(p, "keyspace") || accept_kw(p, "schema"))
		{
			stmt->kind = CQL_DROP_KEYSPACE;
			stmt->keyspace = parse_name(p);
		}
		else if (accept_kw(p, "table") || accept_kw(p, "columnfamily"))
		{
			stmt->kind = CQL_DROP_TABLE;
			parse_table_name(p, stmt);
		}
		else if (accept_kw(p, "index"))
		{
			stmt->kind = CQL_DROP_INDEX;
			stmt->name = parse_name(p);
		}
		else
			no_viable(p);
	}
	else if (accept_kw(p, "alter"))
	{
		if (accept_kw(p, "table") || accept_kw(p, "columnfamily"))
			parse_alter_table(p, stmt);
		else
			no_viable(p);
	}
	else
		no_viable(p);

	accept_punct(p, ";");
	if (peek(p)->kind != CQLT_EOF)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("line %d:%d missing EOF at '%s'", peek(p)->line, peek(p)->col, peek(p)->raw),
				 errhint("cfstore.cql() runs one statement per call.")));
	return stmt;
}
