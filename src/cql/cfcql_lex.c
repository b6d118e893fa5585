/*-------------------------------------------------------------------------
 *
 * cfcql_lex.c
 *	  Splitting a CQL3 statement into tokens (Cassandra 1.2's lexical
 *	  rules): identifiers (unquoted ones lower-cased), "quoted" names,
 *	  'strings' with '' for a quote, integers, floats, UUIDs, 0x blobs,
 *	  punctuation; whitespace, -- and // line comments and block comments
 *	  are skipped.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "cql/cfcql.h"

/* Lexer state: the statement and where we are in it. */
typedef struct CqlLexer
{
	const char *s;
	int			pos;
	int			line;
	int			linestart;
} CqlLexer;

/* Raise a lexical error at the lexer's position. */
static void
lex_error(CqlLexer *lx, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_SYNTAX_ERROR),
			 errmsg("line %d:%d %s", lx->line, lx->pos - lx->linestart, what)));
}

/* Whether s starts with a UUID (8-4-4-4-12 hex digits) not followed by a name character. */
static bool
at_uuid(const char *s)
{
	static const int groups[] = {8, 4, 4, 4, 12};
	int			p = 0;

	for (int g = 0; g < 5; g++)
	{
		for (int i = 0; i < groups[g]; i++, p++)
			if (!isxdigit((unsigned char) s[p]))
				return false;
		if (g < 4 && s[p++] != '-')
			return false;
	}
	return !(isalnum((unsigned char) s[p]) || s[p] == '_');
}

/* Advance over whitespace and comments. */
static void
skip_space(CqlLexer *lx)
{
	const char *s = lx->s;

	for (;;)
	{
		char		c = s[lx->pos];

		if (c == '\n')
		{
			lx->pos++;
			lx->line++;
			lx->linestart = lx->pos;
		}
		else if (c == ' ' || c == '\t' || c == '\r' || c == '\f')
			lx->pos++;
		else if ((c == '-' && s[lx->pos + 1] == '-') || (c == '/' && s[lx->pos + 1] == '/'))
		{
			while (s[lx->pos] != '\0' && s[lx->pos] != '\n')
				lx->pos++;
		}
		else if (c == '/' && s[lx->pos + 1] == '*')
		{
			lx->pos += 2;
			while (s[lx->pos] != '\0' && !(s[lx->pos] == '*' && s[lx->pos + 1] == '/'))
			{
				if (s[lx->pos] == '\n')
				{
					lx->line++;
					lx->linestart = lx->pos + 1;
				}
				lx->pos++;
			}
			if (s[lx->pos] == '\0')
				lex_error(lx, "unterminated comment");
			lx->pos += 2;
		}
		else
			return;
	}
}

/* Read a quoted string or name (q is the quote); doubled quotes stand for one. */
static char *
read_quoted(CqlLexer *lx, char q)
{
	StringInfoData buf;

	initStringInfo(&buf);
	lx->pos++;
	for (;;)
	{
		char		c = lx->s[lx->pos];

		if (c == '\0')
			lex_error(lx, q == '\'' ? "unterminated string literal" : "unterminated quoted name");
		if (c == q)
		{
			if (lx->s[lx->pos + 1] == q)
			{
				appendStringInfoChar(&buf, q);
				lx->pos += 2;
				continue;
			}
			lx->pos++;
			return buf.data;
		}
		if (c == '\n')
		{
			lx->line++;
			lx->linestart = lx->pos + 1;
		}
		appendStringInfoChar(&buf, c);
		lx->pos++;
	}
}

/* Read a number: INTEGER ('-'? digits) or FLOAT (with a fraction or an exponent). */
static CfCqlTokKind
read_number(CqlLexer *lx)
{
	const char *s = lx->s;
	CfCqlTokKind kind = CQLT_INTEGER;

	if (s[lx->pos] == '-')
		lx->pos++;
	while (isdigit((unsigned char) s[lx->pos]))
		lx->pos++;
	if (s[lx->pos] == '.' && s[lx->pos + 1] != '.')
	{
		kind = CQLT_FLOAT;
		lx->pos++;
		while (isdigit((unsigned char) s[lx->pos]))
			lx->pos++;
	}
	if ((s[lx->pos] == 'e' || s[lx->pos] == 'E') &&
		(isdigit((unsigned char) s[lx->pos + 1]) ||
		 ((s[lx->pos + 1] == '+' || s[lx->pos + 1] == '-') && isdigit((unsigned char) s[lx->pos + 2]))))
	{
		kind = CQLT_FLOAT;
		lx->pos += 2;
		while (isdigit((unsigned char) s[lx->pos]))
			lx->pos++;
	}
	return kind;
}

/* The tokens of a statement, ending with a CQLT_EOF token. */
List *
cfCqlLex(const char *statement)
{
	CqlLexer	lx = {statement, 0, 1, 0};
	List	   *tokens = NIL;

	for (;;)
	{
		CfCqlToken *t = palloc0(sizeof(CfCqlToken));
		const char *s = statement;
		int			start;
		char		c;

		skip_space(&lx);
		start = lx.pos;
		t->line = lx.line;
		t->col = lx.pos - lx.linestart;
		c = s[lx.pos];
		if (c == '\0')
		{
			t->kind = CQLT_EOF;
			t->text = t->raw = "<EOF>";
			tokens = lappend(tokens, t);
			return tokens;
		}
		if (at_uuid(s + lx.pos))
		{
			t->kind = CQLT_UUID;
			lx.pos += 36;
		}
		else if (c == '0' && (s[lx.pos + 1] == 'x' || s[lx.pos + 1] == 'X'))
		{
			t->kind = CQLT_HEX;
			lx.pos += 2;
			while (isxdigit((unsigned char) s[lx.pos]))
				lx.pos++;
			t->text = pnstrdup(s + start + 2, lx.pos - start - 2);
		}
		else if (isdigit((unsigned char) c) || (c == '-' && isdigit((unsigned char) s[lx.pos + 1])))
			t->kind = read_number(&lx);
		else if (isalpha((unsigned char) c))
		{
			t->kind = CQLT_IDENT;
			while (isalnum((unsigned char) s[lx.pos]) || s[lx.pos] == '_')
				lx.pos++;
			t->text = pnstrdup(s + start, lx.pos - start);
			for (char *p = t->text; *p; p++)
				*p = pg_ascii_tolower((unsigned char) *p);
		}
		else if (c == '\'')
		{
			t->kind = CQLT_STRING;
			t->text = read_quoted(&lx, '\'');
		}
		else if (c == '"')
		{
			t->kind = CQLT_QIDENT;
			t->text = read_quoted(&lx, '"');
			if (t->text[0] == '\0')
			{
				lx.pos = start;
				lex_error(&lx, "empty quoted name");
			}
		}
		else if ((c == '<' || c == '>' || c == '!') && s[lx.pos + 1] == '=')
		{
			t->kind = CQLT_PUNCT;
			lx.pos += 2;
		}
		else if (strchr("(),;=<>*.+-[]{}:?", c) != NULL)
		{
			t->kind = CQLT_PUNCT;
			lx.pos++;
		}
		else
		{
			char		msg[64];

			if ((unsigned char) c >= 0x20 && (unsigned char) c < 0x7f)
				snprintf(msg, sizeof(msg), "no viable alternative at character '%c'", c);
			else
				snprintf(msg, sizeof(msg), "no viable alternative at character '\\x%02x'", (unsigned char) c);
			lex_error(&lx, msg);
		}
		t->raw = pnstrdup(s + start, lx.pos - start);
		if (t->text == NULL)
			t->text = t->raw;
		tokens = lappend(tokens, t);
	}
}
