/*-------------------------------------------------------------------------
 *
 * cftype_parse.c
 *	  Parse Cassandra type strings into CfType values, and name them back.
 *
 * The grammar is Cassandra's TypeParser (1.2):
 *
 *	  type   := blank* name blank* [ '(' params ')' ]
 *	  name   := identifier chars [0-9A-Za-z._&+-]; no dot means the
 *				prefix org.apache.cassandra.db.marshal.
 *	  params := type parameters for CompositeType / ReversedType, and
 *				key[=value] pairs for every other type, of which only
 *				"reversed" (empty or "true") means anything.
 *
 * A NULL, empty or blank string is BytesType.  We are stricter than
 * Cassandra in one place: text after a complete type is a syntax error
 * rather than silently ignored.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"

#include "marshal/cftype.h"

typedef struct CfTypeName
{
	const char *name;
	CfTypeKind	kind;
} CfTypeName;

static const CfTypeName cf_type_names[] = {
	{"BytesType", CF_BYTES},
	{"AsciiType", CF_ASCII},
	{"UTF8Type", CF_UTF8},
	{"LongType", CF_LONG},
	{"Int32Type", CF_INT32},
	{"IntegerType", CF_INTEGER},
	{"DecimalType", CF_DECIMAL},
	{"FloatType", CF_FLOAT},
	{"DoubleType", CF_DOUBLE},
	{"BooleanType", CF_BOOLEAN},
	{"DateType", CF_DATE},
	{"UUIDType", CF_UUID},
	{"LexicalUUIDType", CF_LEXICALUUID},
	{"TimeUUIDType", CF_TIMEUUID},
	{"CounterColumnType", CF_COUNTER},
	{"CompositeType", CF_COMPOSITE},
	{"ReversedType", CF_REVERSED},
};

/* Cassandra types that exist but that cfstore does not implement. */
static const char *const cf_unsupported_types[] = {
	"DynamicCompositeType", "InetAddressType", "ListType", "SetType",
	"MapType", "ColumnToCollectionType", "LocalByPartionerType", "EmptyType",
	"TimestampType",
};

/*
 * Types nest (CompositeType of ReversedType of ...); every walk over a
 * parsed type recurses, so the parser bounds the depth.
 */
#define CF_TYPE_MAX_DEPTH 32

typedef struct CfTypeParser
{
	const char *str;
	int			pos;
	int			depth;
} CfTypeParser;

static CfType *parse_type(CfTypeParser *p);

/* Raise a syntax error in Cassandra's wording, pointing at the position. */
static void
parse_error(CfTypeParser *p, const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("Syntax error parsing '%s' at char %d: %s",
					p->str, p->pos, msg)));
}

/* Is c allowed in a type name (TypeParser.isIdentifierChar)? */
static bool
is_identifier_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		(c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.' ||
		c == '_' || c == '&';
}

/* Skip blanks; return false at the end of the string. */
static bool
skip_blank(CfTypeParser *p)
{
	while (p->str[p->pos] == ' ' || p->str[p->pos] == '\t' ||
		   p->str[p->pos] == '\n' || p->str[p->pos] == '\r')
		p->pos++;
	return p->str[p->pos] != '\0';
}

/* Skip blanks and at most one comma; return false at the end of the string. */
static bool
skip_blank_and_comma(CfTypeParser *p)
{
	bool		comma = false;

	for (;;)
	{
		char		c = p->str[p->pos];

		if (c == ',' && !comma)
			comma = true;
		else if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r'))
			break;
		p->pos++;
	}
	return p->str[p->pos] != '\0';
}

/* Read an identifier; may be empty. */
static char *
read_identifier(CfTypeParser *p)
{
	int			start = p->pos;

	while (is_identifier_char(p->str[p->pos]))
		p->pos++;
	return pnstrdup(p->str + start, p->pos - start);
}

/* Resolve a (short or qualified) class name to a kind, or raise. */
static CfTypeKind
lookup_kind(const char *name)
{
	const char *cls;
	const char *shortname = NULL;
	size_t		pkglen = strlen(CF_MARSHAL_PACKAGE);

	if (strchr(name, '.') == NULL)
		cls = psprintf("%s%s", CF_MARSHAL_PACKAGE, name);
	else
		cls = name;

	if (strncmp(cls, CF_MARSHAL_PACKAGE, pkglen) == 0)
		shortname = cls + pkglen;

	if (shortname != NULL)
	{
		for (size_t i = 0; i < lengthof(cf_type_names); i++)
			if (strcmp(shortname, cf_type_names[i].name) == 0)
				return cf_type_names[i].kind;
		for (size_t i = 0; i < lengthof(cf_unsupported_types); i++)
			if (strcmp(shortname, cf_unsupported_types[i]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("%s is not supported by cfstore", shortname)));
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("Unable to find abstract-type class '%s'", cls)));
	pg_unreachable();
}

/* Make a CfType node. */
static CfType *
make_type(CfTypeKind kind, int nsub)
{
	CfType	   *t = palloc0(sizeof(CfType));

	t->kind = kind;
	t->nsub = nsub;
	if (nsub > 0)
		t->sub = palloc0(sizeof(CfType *) * nsub);
	return t;
}

/* Parse "(T1, T2, ...)" for CompositeType / ReversedType; p is at '(' or EOS. */
static List *
parse_type_parameters(CfTypeParser *p)
{
	List	   *types = NIL;

	if (p->str[p->pos] == '\0')
		return NIL;
	Assert(p->str[p->pos] == '(');
	p->pos++;
	while (skip_blank_and_comma(p))
	{
		if (p->str[p->pos] == ')')
		{
			p->pos++;
			return types;
		}
		types = lappend(types, parse_type(p));
	}
	parse_error(p, "unexpected end of string");
	return NIL;
}

/* Parse "(k[=v], ...)" after a simple type; return whether reversed=true. */
static bool
parse_reversed_parameter(CfTypeParser *p)
{
	bool		reversed = false;

	Assert(p->str[p->pos] == '(');
	p->pos++;
	while (skip_blank_and_comma(p))
	{
		char	   *key;
		char	   *value = "";

		if (p->str[p->pos] == ')')
		{
			p->pos++;
			return reversed;
		}
		key = read_identifier(p);
		skip_blank(p);
		if (p->str[p->pos] == '=')
		{
			p->pos++;
			skip_blank(p);
			value = read_identifier(p);
		}
		else if (p->str[p->pos] != ',' && p->str[p->pos] != ')')
		{
			if (p->str[p->pos] == '\0')
				break;
			parse_error(p, psprintf("unexpected character '%c'", p->str[p->pos]));
		}
		if (strcmp(key, "reversed") == 0)
			reversed = (value[0] == '\0' || strcmp(value, "true") == 0);
	}
	parse_error(p, "unexpected end of string");
	return false;
}

static CfType *parse_type_at(CfTypeParser *p);

/* Parse one type at the current position, tracking the nesting depth. */
static CfType *
parse_type(CfTypeParser *p)
{
	CfType	   *t = parse_type_at(p);

	p->depth--;
	return t;
}

/* Parse one type at the current position (see parse_type). */
static CfType *
parse_type_at(CfTypeParser *p)
{
	char	   *name;
	CfTypeKind	kind;
	bool		has_params;

	check_stack_depth();
	if (++p->depth > CF_TYPE_MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("type '%s' nests more than %d levels deep", p->str, CF_TYPE_MAX_DEPTH)));
	skip_blank(p);
	name = read_identifier(p);
	if (name[0] == '\0')
	{
		if (p->str[p->pos] == '\0')
			parse_error(p, "unexpected end of string");
		parse_error(p, psprintf("unexpected character '%c'", p->str[p->pos]));
	}
	kind = lookup_kind(name);
	skip_blank(p);
	has_params = (p->str[p->pos] == '(');

	if (kind == CF_COMPOSITE || kind == CF_REVERSED)
	{
		List	   *params = has_params ? parse_type_parameters(p) : NIL;
		CfType	   *t;
		int			i = 0;
		ListCell   *lc;

		if (kind == CF_COMPOSITE && list_length(params) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Nonsensical empty parameter list for CompositeType")));
		if (kind == CF_REVERSED && list_length(params) != 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("ReversedType takes exactly one argument, %d given",
							list_length(params))));
		t = make_type(kind, list_length(params));
		foreach(lc, params)
			t->sub[i++] = (CfType *) lfirst(lc);
		return t;
	}

	if (has_params && parse_reversed_parameter(p))
	{
		CfType	   *t = make_type(CF_REVERSED, 1);

		t->sub[0] = make_type(kind, 0);
		return t;
	}
	return make_type(kind, 0);
}

/*
 * Parse a Cassandra type string.  The result lives in CurrentMemoryContext.
 */
CfType *
cfTypeParse(const char *str)
{
	CfTypeParser p;
	CfType	   *t;

	p.str = str ? str : "";
	p.pos = 0;
	p.depth = 0;
	if (!skip_blank(&p))
		return make_type(CF_BYTES, 0);
	t = parse_type(&p);
	if (skip_blank(&p))
		parse_error(&p, "unexpected trailing characters");
	return t;
}

/* The short class name of a kind, e.g. "LongType". */
const char *
cfTypeShortName(CfTypeKind kind)
{
	for (size_t i = 0; i < lengthof(cf_type_names); i++)
		if (cf_type_names[i].kind == kind)
			return cf_type_names[i].name;
	elog(ERROR, "unrecognized cfstore type kind %d", (int) kind);
	return NULL;
}

/* Append the fully qualified name of type to buf. */
static void
append_type_name(StringInfo buf, const CfType *type)
{
	appendStringInfo(buf, "%s%s", CF_MARSHAL_PACKAGE, cfTypeShortName(type->kind));
	if (type->nsub > 0)
	{
		appendStringInfoChar(buf, '(');
		for (int i = 0; i < type->nsub; i++)
		{
			if (i > 0)
				appendStringInfoChar(buf, ',');
			append_type_name(buf, type->sub[i]);
		}
		appendStringInfoChar(buf, ')');
	}
}

/*
 * The fully qualified name Cassandra prints for a type (AbstractType.toString):
 * "org.apache.cassandra.db.marshal.CompositeType(org.apache...UTF8Type,...)".
 */
char *
cfTypeName(const CfType *type)
{
	StringInfoData buf;

	initStringInfo(&buf);
	append_type_name(&buf, type);
	return buf.data;
}

/* Deep-copy a type into CurrentMemoryContext (for caches). */
CfType *
cfTypeCopy(const CfType *type)
{
	CfType	   *t = make_type(type->kind, type->nsub);

	for (int i = 0; i < type->nsub; i++)
		t->sub[i] = cfTypeCopy(type->sub[i]);
	return t;
}
