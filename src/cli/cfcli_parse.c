/*-------------------------------------------------------------------------
 *
 * cfcli_parse.c
 *	  Splitting a cassandra-cli script into statements, and parsing one
 *	  (Cassandra 1.2's Cli.g).
 *
 * A script is read as cassandra-cli reads a file: line by line, trimmed;
 * empty lines, lines starting with `--` or `#`, and block comments
 * (a line starting with slash-star up to one ending with star-slash) are
 * skipped; a statement ends at a `;` outside quotes (the cli ends one at a
 * line's last `;`, so it runs one statement a line; a script written for
 * it runs the same here).  In a statement, keywords are
 * in any case and reserved, names are written as they are (unquoted:
 * letters, digits, `_` and `-`; else in 'quotes', with Java's backslash
 * escapes), and a syntax error names its position in the statement as the
 * cli does: "Syntax error at position 4: mismatched input ';' expecting '['".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"

#include "cli/cfcli.h"

typedef enum CliTokKind
{
	CLIT_EOF,
	CLIT_IDENT,
	CLIT_STRING,
	CLIT_INT,
	CLIT_NEGINT,
	CLIT_DOUBLE,
	CLIT_PUNCT
} CliTokKind;

typedef struct CliTok
{
	CliTokKind	kind;
	char	   *text;			/* strings: unescaped */
	char	   *raw;
	int			pos;
} CliTok;

typedef struct CliParser
{
	const char *stmt;
	CliTok	   *toks;
	int			ntoks;
	int			pos;
} CliParser;

/* The cli's reserved words. */
static const char *const keywords[] = {
	"config", "connect", "count", "del", "describe", "use", "trace", "probability", "next", "query",
	"get", "help", "exit", "file", "quit", "set", "incr", "decr", "show", "keyspace", "keyspaces",
	"create", "drop", "column", "family", "with", "by", "and", "update", "list", "limit", "truncate",
	"assume", "ttl", "consistencylevel", "index", "on", "schema", "as", "where", "columns",
	"reversed", "cluster", NULL
};

/* A syntax error at a position of the statement. */
static void pg_attribute_noreturn()
syntax_error(int pos, const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("Syntax error at position %d: %s", pos, msg)));
}

/*
 * The statements of a script, as cassandra-cli reads a file (trimmed
 * lines; `--` and `#` lines and block comments skipped), each ending at a
 * `;` outside quotes (the cli itself runs one statement per line).
 */
List *
cfCliSplit(const char *script)
{
	List	   *stmts = NIL;
	StringInfoData cur;
	bool		comment = false;
	const char *p = script;

	initStringInfo(&cur);
	while (*p)
	{
		const char *eol = strchr(p, '\n');
		int			len = eol ? eol - p : (int) strlen(p);
		char	   *line = pnstrdup(p, len);
		char	   *s = line;
		int			n;
		bool		quoted = false;

		p = eol ? eol + 1 : p + len;
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		n = strlen(s);
		while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
			s[--n] = '\0';
		if (n == 0 || strncmp(s, "--", 2) == 0 || s[0] == '#')
			continue;
		if (strncmp(s, "/*", 2) == 0)
			comment = true;
		if (strncmp(s, "*/", 2) == 0 || (n >= 2 && strcmp(s + n - 2, "*/") == 0))
		{
			comment = false;
			continue;
		}
		if (comment)
			continue;
		for (int i = 0; i < n; i++)
		{
			appendStringInfoChar(&cur, s[i]);
			if (s[i] == '\\' && quoted && i + 1 < n)
				appendStringInfoChar(&cur, s[++i]);
			else if (s[i] == '\'')
				quoted = !quoted;
			else if (s[i] == ';' && !quoted)
			{
				stmts = lappend(stmts, pstrdup(cur.data));
				resetStringInfo(&cur);
				while (i + 1 < n && s[i + 1] == ' ')
					i++;
			}
		}
		if (cur.len > 0)
			appendStringInfoChar(&cur, ' ');
	}
	/* a statement without its ';' at the end: run it anyway */
	if (cur.len > 0 && strspn(cur.data, " ") != (size_t) cur.len)
		stmts = lappend(stmts, pstrdup(cur.data));
	return stmts;
}

/* Undo a string's Java escapes (commons-lang unescapeJava). */
static char *
unescape(const char *s, int len)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < len; i++)
	{
		char		c = s[i];

		if (c != '\\' || i + 1 >= len)
		{
			appendStringInfoChar(&buf, c);
			continue;
		}
		c = s[++i];
		switch (c)
		{
			case 'n':
				appendStringInfoChar(&buf, '\n');
				break;
			case 't':
				appendStringInfoChar(&buf, '\t');
				break;
			case 'r':
				appendStringInfoChar(&buf, '\r');
				break;
			case 'f':
				appendStringInfoChar(&buf, '\f');
				break;
			case 'b':
				appendStringInfoChar(&buf, '\b');
				break;
			case 'u':
				{
					unsigned int cp = 0;

					for (int k = 1; k <= 4; k++)
					{
						if (i + k >= len || !isxdigit((unsigned char) s[i + k]))
							cfCliError("Unable to parse unicode value: %.4s", s + i + 1);
						cp = cp * 16 + (isdigit((unsigned char) s[i + k]) ? s[i + k] - '0'
										: (pg_ascii_tolower((unsigned char) s[i + k]) - 'a' + 10));
					}
					i += 4;
					{
						unsigned char u[8];

						unicode_to_utf8(cp, u);
						appendBinaryStringInfo(&buf, (char *) u, pg_utf_mblen(u));
					}
				}
				break;
			default:
				appendStringInfoChar(&buf, c);	/* \\ \' \" and any other: the character */
		}
	}
	return buf.data;
}

/* Tokenize a statement. */
static void
lex(CliParser *p)
{
	const char *s = p->stmt;
	int			i = 0;
	int			cap = 16;

	p->toks = palloc(sizeof(CliTok) * cap);
	p->ntoks = 0;
	for (;;)
	{
		CliTok		t;
		int			start;

		while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
			i++;
		if (s[i] == '-' && s[i + 1] == '-')
		{
			while (s[i] && s[i] != '\n')
				i++;
			continue;
		}
		if (s[i] == '/' && s[i + 1] == '*')
		{
			const char *end = strstr(s + i + 2, "*/");

			i = end ? end - s + 2 : (int) strlen(s);
			continue;
		}
		memset(&t, 0, sizeof(t));
		start = t.pos = i;
		if (s[i] == '\0')
			t.kind = CLIT_EOF;
		else if (s[i] == '\'')
		{
			i++;
			while (s[i] && s[i] != '\'')
				i += (s[i] == '\\' && s[i + 1]) ? 2 : 1;
			if (s[i] != '\'')
				syntax_error(i, "mismatched character '<EOF>' expecting '''");
			i++;
			t.kind = CLIT_STRING;
			t.text = unescape(s + start + 1, i - start - 2);
		}
		else if (isdigit((unsigned char) s[i]) || (s[i] == '-' && isdigit((unsigned char) s[i + 1])))
		{
			bool		ident = false;

			i += s[i] == '-' ? 1 : 0;
			while (isdigit((unsigned char) s[i]))
				i++;
			if (s[i] == '.' && isdigit((unsigned char) s[i + 1]) && s[start] != '-')
			{
				i++;
				while (isdigit((unsigned char) s[i]))
					i++;
				t.kind = CLIT_DOUBLE;
			}
			else
			{
				/* digits followed by name characters: an Identifier (12abc, a uuid) */
				while (s[start] != '-' && (isalnum((unsigned char) s[i]) || s[i] == '_' || s[i] == '-'))
				{
					i++;
					ident = true;
				}
				t.kind = ident ? CLIT_IDENT : s[start] == '-' ? CLIT_NEGINT : CLIT_INT;
			}
		}
		else if (isalpha((unsigned char) s[i]))
		{
			while (isalnum((unsigned char) s[i]) || s[i] == '_' || s[i] == '-')
				i++;
			t.kind = CLIT_IDENT;
		}
		else if ((s[i] == '>' || s[i] == '<') && s[i + 1] == '=')
		{
			i += 2;
			t.kind = CLIT_PUNCT;
		}
		else if (strchr("?/=><[]{},:().;", s[i]) != NULL)
		{
			i++;
			t.kind = CLIT_PUNCT;
		}
		else
		{
			char	   *msg = psprintf("unexpected \"%c\" for `%s`.", s[i], s);

			syntax_error(i, msg);
		}
		t.raw = pnstrdup(s + start, i - start);
		if (t.text == NULL)
			t.text = t.raw;
		if (p->ntoks == cap)
		{
			cap *= 2;
			p->toks = repalloc(p->toks, sizeof(CliTok) * cap);
		}
		p->toks[p->ntoks++] = t;
		if (t.kind == CLIT_EOF)
			return;
	}
}

static CliTok *
peek(CliParser *p)
{
	return &p->toks[p->pos];
}

static CliTok *
peek2(CliParser *p)
{
	return &p->toks[Min(p->pos + 1, p->ntoks - 1)];
}

static bool
is_kw(CliTok *t, const char *kw)
{
	return t->kind == CLIT_IDENT && pg_strcasecmp(t->text, kw) == 0;
}

static bool
accept_kw(CliParser *p, const char *kw)
{
	if (!is_kw(peek(p), kw))
		return false;
	p->pos++;
	return true;
}

static bool
accept_punct(CliParser *p, const char *s)
{
	if (peek(p)->kind != CLIT_PUNCT || strcmp(peek(p)->text, s) != 0)
		return false;
	p->pos++;
	return true;
}

/* The input text of a token, for messages. */
static const char *
tok_text(CliTok *t)
{
	return t->kind == CLIT_EOF ? "<EOF>" : t->raw;
}

static void pg_attribute_noreturn()
no_viable(CliParser *p)
{
	CliTok	   *t = peek(p);

	syntax_error(t->kind == CLIT_EOF ? -1 : t->pos, psprintf("no viable alternative at input '%s'", tok_text(t)));
}

static void pg_attribute_noreturn()
mismatched(CliParser *p, const char *what)
{
	CliTok	   *t = peek(p);

	syntax_error(t->kind == CLIT_EOF ? -1 : t->pos,
				 psprintf("mismatched input '%s' expecting %s", tok_text(t), what));
}

static void
expect_punct(CliParser *p, const char *s)
{
	if (!accept_punct(p, s))
		mismatched(p, psprintf("'%s'", s));
}

static void
expect_kw(CliParser *p, const char *kw)
{
	if (!accept_kw(p, kw))
	{
		char	   *upper = pstrdup(kw);

		for (char *c = upper; *c; c++)
			*c = pg_ascii_toupper((unsigned char) *c);
		mismatched(p, psprintf("'%s'", upper));
	}
}

static bool
is_keyword(const char *word)
{
	for (int i = 0; keywords[i]; i++)
		if (pg_strcasecmp(keywords[i], word) == 0)
			return true;
	return false;
}

/* An entity name: an identifier, a string or an integer. */
static char *
entity_name(CliParser *p, char **raw)
{
	CliTok	   *t = peek(p);

	if ((t->kind == CLIT_IDENT && !is_keyword(t->text)) || t->kind == CLIT_STRING || t->kind == CLIT_INT ||
		t->kind == CLIT_NEGINT)
	{
		p->pos++;
		if (raw)
			*raw = t->raw;
		return t->text;
	}
	mismatched(p, "set null");
}

/* A key, column name or value: a literal or fn(arg). */
static CliTerm *
term(CliParser *p)
{
	CliTok	   *t = peek(p);
	CliTerm    *r = palloc0(sizeof(CliTerm));

	if (t->kind == CLIT_IDENT && !is_keyword(t->text) && peek2(p)->kind == CLIT_PUNCT &&
		strcmp(peek2(p)->text, "(") == 0)
	{
		r->fn = t->text;
		p->pos += 2;
		t = peek(p);
		if (t->kind == CLIT_IDENT || t->kind == CLIT_STRING || t->kind == CLIT_INT || t->kind == CLIT_NEGINT)
		{
			r->text = t->text;
			r->has_arg = true;
			p->pos++;
		}
		else
			r->text = "";
		expect_punct(p, ")");
		return r;
	}
	if ((t->kind == CLIT_IDENT && !is_keyword(t->text)) || t->kind == CLIT_STRING || t->kind == CLIT_INT ||
		t->kind == CLIT_NEGINT)
	{
		r->text = t->text;
		p->pos++;
		return r;
	}
	no_viable(p);
}

/* CF[key][col][sub] */
static void
column_access(CliParser *p, CliStmt *st, bool key_required)
{
	st->name = entity_name(p, &st->raw_name);
	if (!accept_punct(p, "["))
	{
		if (key_required)
			mismatched(p, "'['");
		return;
	}
	st->key = term(p);
	expect_punct(p, "]");
	while (accept_punct(p, "["))
	{
		if (st->nspecs == 2)
			syntax_error(p->toks[p->pos - 1].pos, "missing EOF at '['");
		st->specs[st->nspecs++] = term(p);
		expect_punct(p, "]");
	}
}

/* An attribute value: scalar, {hash} or [array of hashes]. */
static CliAttr *attr_value(CliParser *p);

static CliAttr *
hash(CliParser *p)
{
	CliAttr    *a = palloc0(sizeof(CliAttr));

	check_stack_depth();		/* hashes nest */
	a->is_hash = true;
	expect_punct(p, "{");
	if (accept_punct(p, "}"))
		return a;
	do
	{
		CliTerm    *k = term(p);
		CliAttr    *v;

		expect_punct(p, ":");
		if (peek(p)->kind == CLIT_PUNCT && strcmp(peek(p)->text, "{") == 0)
			v = hash(p);
		else
		{
			CliTerm    *vt = term(p);

			v = palloc0(sizeof(CliAttr));
			v->text = vt->text;
			v->raw = vt->text;
		}
		a->hash = lappend(a->hash, list_make2(k->text, v));
	}
	while (accept_punct(p, ","));
	expect_punct(p, "}");
	return a;
}

static CliAttr *
attr_value(CliParser *p)
{
	CliTok	   *t = peek(p);
	CliAttr    *a;

	if (t->kind == CLIT_PUNCT && strcmp(t->text, "[") == 0)
	{
		a = palloc0(sizeof(CliAttr));
		a->is_array = true;
		p->pos++;
		while (!accept_punct(p, "]"))
		{
			a->array = lappend(a->array, hash(p));
			accept_punct(p, ",");
		}
		return a;
	}
	if (t->kind == CLIT_PUNCT && strcmp(t->text, "{") == 0)
		return hash(p);
	if (t->kind == CLIT_IDENT || t->kind == CLIT_STRING || t->kind == CLIT_INT || t->kind == CLIT_NEGINT ||
		t->kind == CLIT_DOUBLE)
	{
		a = palloc0(sizeof(CliAttr));
		a->text = t->text;
		a->raw = t->raw;
		p->pos++;
		return a;
	}
	no_viable(p);
}

/* name (with|and attr = value)* */
static void
kv_expr(CliParser *p, CliStmt *st)
{
	st->name = entity_name(p, &st->raw_name);
	while (accept_kw(p, "with") || accept_kw(p, "and"))
	{
		CliTok	   *t = peek(p);
		CliAttr    *a;

		if (t->kind != CLIT_IDENT)
			mismatched(p, "Identifier");
		p->pos++;
		expect_punct(p, "=");
		a = attr_value(p);
		a->name = t->text;
		st->attrs = lappend(st->attrs, a);
	}
}

/* A positive integer literal. */
static int64
positive_int(CliParser *p)
{
	CliTok	   *t = peek(p);

	if (t->kind != CLIT_INT)
		mismatched(p, "IntegerPositiveLiteral");
	p->pos++;
	return strtoi64(t->text, NULL, 10);
}

/* Parse one statement. */
CliStmt *
cfCliParse(const char *statement)
{
	CliParser	parser = {statement, NULL, 0, 0};
	CliParser  *p = &parser;
	CliStmt    *st = palloc0(sizeof(CliStmt));

	st->text = pstrdup(statement);
	lex(p);
	if (peek(p)->kind == CLIT_EOF || (peek(p)->kind == CLIT_PUNCT && strcmp(peek(p)->text, ";") == 0))
		st->kind = CLI_NOOP;
	else if (accept_kw(p, "use"))
	{
		st->kind = CLI_USE;
		st->name = entity_name(p, &st->raw_name);
	}
	else if (accept_kw(p, "create") || is_kw(peek(p), "update"))
	{
		bool		update = accept_kw(p, "update");

		if (accept_kw(p, "keyspace"))
			st->kind = update ? CLI_UPDATE_KEYSPACE : CLI_CREATE_KEYSPACE;
		else if (accept_kw(p, "column"))
		{
			expect_kw(p, "family");
			st->kind = update ? CLI_UPDATE_CF : CLI_CREATE_CF;
		}
		else
			no_viable(p);
		kv_expr(p, st);
	}
	else if (accept_kw(p, "drop"))
	{
		if (accept_kw(p, "keyspace"))
		{
			st->kind = CLI_DROP_KEYSPACE;
			st->name = entity_name(p, &st->raw_name);
		}
		else if (accept_kw(p, "column"))
		{
			expect_kw(p, "family");
			st->kind = CLI_DROP_CF;
			st->name = entity_name(p, &st->raw_name);
		}
		else if (accept_kw(p, "index"))
		{
			expect_kw(p, "on");
			st->kind = CLI_DROP_INDEX;
			st->name = entity_name(p, &st->raw_name);
			expect_punct(p, ".");
			st->specs[st->nspecs++] = term(p);
		}
		else
			no_viable(p);
	}
	else if (accept_kw(p, "set"))
	{
		st->kind = CLI_SET;
		column_access(p, st, true);
		expect_punct(p, "=");
		if (peek(p)->kind == CLIT_DOUBLE)
			no_viable(p);
		st->value = term(p);
		if (accept_kw(p, "with"))
		{
			expect_kw(p, "ttl");
			expect_punct(p, "=");
			if (peek(p)->kind != CLIT_INT)
				mismatched(p, "IntegerPositiveLiteral");
			st->ttl = peek(p)->text;
			p->pos++;
		}
	}
	else if (accept_kw(p, "get"))
	{
		if (is_kw(peek2(p), "where"))
		{
			st->kind = CLI_GET_WHERE;
			st->name = entity_name(p, &st->raw_name);
			p->pos++;
			do
			{
				CliCond    *c = palloc0(sizeof(CliCond));
				CliTok	   *op;

				c->column = term(p);
				op = peek(p);
				if (op->kind != CLIT_PUNCT)
					no_viable(p);
				c->op = strcmp(op->text, "=") == 0 ? "EQ" : strcmp(op->text, ">") == 0 ? "GT"
					: strcmp(op->text, ">=") == 0 ? "GTE" : strcmp(op->text, "<") == 0 ? "LT"
					: strcmp(op->text, "<=") == 0 ? "LTE" : NULL;
				if (c->op == NULL)
					no_viable(p);
				p->pos++;
				c->value = term(p);
				st->conds = lappend(st->conds, c);
			}
			while (accept_kw(p, "and"));
		}
		else
		{
			st->kind = CLI_GET;
			if (peek2(p)->kind != CLIT_PUNCT || strcmp(peek2(p)->text, "[") != 0)
				syntax_error(p->toks[p->pos - 1].pos, "no viable alternative at input 'get'");
			column_access(p, st, true);
			if (accept_kw(p, "as"))
				st->as_type = entity_name(p, NULL);
		}
		if (accept_kw(p, "limit"))
		{
			st->has_limit = true;
			st->limit = positive_int(p);
		}
	}
	else if (accept_kw(p, "list"))
	{
		st->kind = CLI_LIST;
		st->name = entity_name(p, &st->raw_name);
		if (accept_punct(p, "["))
		{
			st->has_range = true;
			if (!accept_punct(p, ":"))
			{
				st->range_start = entity_name(p, NULL);
				expect_punct(p, ":");
			}
			if (!accept_punct(p, "]"))
			{
				st->range_end = entity_name(p, NULL);
				expect_punct(p, "]");
			}
		}
		if (accept_kw(p, "limit"))
		{
			st->has_limit = true;
			st->limit = positive_int(p);
		}
		if (accept_kw(p, "columns"))
		{
			st->has_columns = true;
			st->columns = positive_int(p);
			st->reversed = accept_kw(p, "reversed");
		}
	}
	else if (accept_kw(p, "count"))
	{
		st->kind = CLI_COUNT;
		column_access(p, st, true);
	}
	else if (accept_kw(p, "del"))
	{
		st->kind = CLI_DEL;
		column_access(p, st, true);
	}
	else if (is_kw(peek(p), "incr") || is_kw(peek(p), "decr"))
	{
		st->kind = is_kw(peek(p), "incr") ? CLI_INCR : CLI_DECR;
		p->pos++;
		column_access(p, st, true);
		if (accept_kw(p, "by"))
		{
			if (peek(p)->kind != CLIT_INT && peek(p)->kind != CLIT_NEGINT)
				mismatched(p, "set null");
			st->by = peek(p)->text;
			p->pos++;
		}
	}
	else if (accept_kw(p, "truncate"))
	{
		st->kind = CLI_TRUNCATE;
		st->name = entity_name(p, &st->raw_name);
	}
	else if (accept_kw(p, "assume"))
	{
		st->kind = CLI_ASSUME;
		st->name = entity_name(p, &st->raw_name);
		if (peek(p)->kind != CLIT_IDENT)
			mismatched(p, "Identifier");
		st->element = peek(p)->text;
		p->pos++;
		if (!accept_kw(p, "as"))
			syntax_error(peek(p)->pos, psprintf("missing 'AS' at '%s'", tok_text(peek(p))));
		st->as_type = entity_name(p, NULL);
	}
	else if (accept_kw(p, "show"))
	{
		if (!accept_kw(p, "keyspaces"))
		{
			p->pos--;
			no_viable(p);
		}
		st->kind = CLI_SHOW_KEYSPACES;
	}
	else if (accept_kw(p, "describe"))
	{
		st->kind = CLI_DESCRIBE;
		if (peek(p)->kind != CLIT_EOF && !(peek(p)->kind == CLIT_PUNCT && strcmp(peek(p)->text, ";") == 0))
			st->name = entity_name(p, &st->raw_name);
	}
	else if (accept_kw(p, "consistencylevel"))
	{
		st->kind = CLI_CONSISTENCYLEVEL;
		expect_kw(p, "as");
		if (peek(p)->kind != CLIT_IDENT)
			mismatched(p, "Identifier");
		st->element = peek(p)->text;
		p->pos++;
	}
	else if (is_kw(peek(p), "connect") || is_kw(peek(p), "help") || is_kw(peek(p), "quit") ||
			 is_kw(peek(p), "exit") || (peek(p)->kind == CLIT_PUNCT && strcmp(peek(p)->text, "?") == 0))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s is not supported by cfstore.cli()", peek(p)->text),
				 errhint("cli() runs in the caller's session: there is nothing to connect to or quit.")));
	else
		no_viable(p);

	accept_punct(p, ";");
	if (peek(p)->kind != CLIT_EOF)
		syntax_error(peek(p)->pos, psprintf("missing EOF at '%s'", tok_text(peek(p))));
	return st;
}
