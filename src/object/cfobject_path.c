/*-------------------------------------------------------------------------
 *
 * cfobject_path.c
 *	  Objects to leaves and back: paths, their escapes, the rebuilt tree.
 *
 * Design.  A leaf's path is the field names from the root joined by '.',
 * an array element written [i] (customer.email, items.[0].sku).  A field
 * name is written with '\' before each '\', '.', '[' and ']' it has, and
 * the empty name is written \0, so every path splits back into the steps
 * it came from.  The leaves of a document are its scalars and its empty
 * objects and arrays, so an object rebuilt from its leaves is the object
 * written (doc/objects.md).  Rebuilding is a tree: each leaf adds the
 * nodes of its path; a node whose children are all array elements is an
 * array (its elements in index order, gaps closed), any other an object.
 * Cells that no put_object could have written together (a scalar and a
 * subtree at one path) read as the subtree.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "cfobject.h"

/* A child of a node: the step to it and the node. */
typedef struct ObjChild
{
	CfObjStep	step;
	CfObjNode  *node;
} ObjChild;

struct CfObjNode
{
	bool		has_leaf;		/* a value and no children */
	JsonbValue	leaf;
	int			nchildren;
	int			maxchildren;
	ObjChild   *children;
	bool		all_index;		/* every child is an array element */
};

/* Append a field name to a path, escaped. */
void
cfObjEscapeName(StringInfo buf, const char *name, int len)
{
	if (len == 0)
	{
		appendStringInfoString(buf, "\\0");
		return;
	}
	for (int i = 0; i < len; i++)
	{
		if (name[i] == '\\' || name[i] == '.' || name[i] == '[' || name[i] == ']')
			appendStringInfoChar(buf, '\\');
		appendStringInfoChar(buf, name[i]);
	}
}

/* Add the leaves of value, at path buf, to *out. */
static void
walk(JsonbValue *value, StringInfo buf, List **out)
{
	CfObjLeaf  *leaf;

	if (value->type == jbvBinary && JsonContainerSize(value->val.binary.data) > 0)
	{
		JsonbIterator *it = JsonbIteratorInit(value->val.binary.data);
		JsonbValue	tok;
		JsonbIteratorToken r;
		int			base = buf->len;
		int			i = 0;

		check_stack_depth();
		while ((r = JsonbIteratorNext(&it, &tok, true)) != WJB_DONE)
		{
			if (r == WJB_KEY)
			{
				JsonbValue	v;

				if (base > 0)
					appendStringInfoChar(buf, '.');
				cfObjEscapeName(buf, tok.val.string.val, tok.val.string.len);
				r = JsonbIteratorNext(&it, &v, true);
				Assert(r == WJB_VALUE);
				walk(&v, buf, out);
			}
			else if (r == WJB_ELEM)
			{
				appendStringInfo(buf, "%s[%d]", base > 0 ? "." : "", i++);
				walk(&tok, buf, out);
			}
			else
				continue;
			buf->len = base;
			buf->data[base] = '\0';
		}
		return;
	}
	leaf = palloc(sizeof(CfObjLeaf));
	leaf->path = pnstrdup(buf->data, buf->len);
	leaf->pathlen = buf->len;
	leaf->value = *value;
	*out = lappend(*out, leaf);
}

/* Whether a top-level field name is one of skip (char * names). */
static bool
skipped(List *skip, const char *name, int len)
{
	ListCell   *lc;

	foreach(lc, skip)
	{
		const char *s = lfirst(lc);

		if ((int) strlen(s) == len && memcmp(s, name, len) == 0)
			return true;
	}
	return false;
}

/*
 * The leaves (CfObjLeaf) of an object's fields, but for the top-level
 * fields named in skip, in the object's order.
 */
List *
cfObjFlatten(JsonbContainer *object, List *skip)
{
	JsonbIterator *it = JsonbIteratorInit(object);
	JsonbValue	tok;
	JsonbIteratorToken r;
	List	   *out = NIL;
	StringInfoData buf;

	initStringInfo(&buf);
	while ((r = JsonbIteratorNext(&it, &tok, true)) != WJB_DONE)
	{
		JsonbValue	v;

		if (r != WJB_KEY)
			continue;
		r = JsonbIteratorNext(&it, &v, true);
		if (skipped(skip, tok.val.string.val, tok.val.string.len))
			continue;
		resetStringInfo(&buf);
		cfObjEscapeName(&buf, tok.val.string.val, tok.val.string.len);
		walk(&v, &buf, &out);
	}
	return out;
}

/* The leaves of a value placed at path (escaped). */
List *
cfObjFlattenValue(const char *path, int pathlen, JsonbValue *value)
{
	StringInfoData buf;
	List	   *out = NIL;

	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, path, pathlen);
	walk(value, &buf, &out);
	return out;
}

/* Raise the error for a malformed path. */
static void
bad_path(const char *path, int len, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid object path \"%.*s\": %s", len, path, why),
			 errhint("Field names are joined by \".\", an array element is written [i], "
					 "and \"\\\" escapes \".\", \"[\", \"]\" and \"\\\" in a name (\\0 is the empty name).")));
}

/*
 * The steps (CfObjStep) of a path.  strict: a malformed path is an error
 * (a path the caller gave); else what cannot be read is taken literally
 * (a cell's name written by another interface).
 */
List *
cfObjParsePath(const char *path, int len, bool strict)
{
	List	   *steps = NIL;
	int			i = 0;

	if (len == 0)
	{
		if (strict)
			bad_path(path, len, "it is empty");
		return NIL;
	}
	while (i <= len)
	{
		CfObjStep  *s = palloc0(sizeof(CfObjStep));
		StringInfoData name;
		int			start = i;

		initStringInfo(&name);
		/* an array element: [digits] followed by '.' or the end */
		if (i < len && path[i] == '[')
		{
			int			j = i + 1;
			int64		index = 0;

			while (j < len && path[j] >= '0' && path[j] <= '9' && j - i <= 9)
				index = index * 10 + (path[j++] - '0');
			if (j > i + 1 && j < len && path[j] == ']' && (j + 1 == len || path[j + 1] == '.'))
			{
				s->index = (int) index;
				steps = lappend(steps, s);
				i = j + 2;
				continue;
			}
			if (strict)
				bad_path(path, len, "\"[\" must begin an array index [n] or be escaped");
		}
		while (i < len && path[i] != '.')
		{
			if (path[i] == '\\' && i + 1 < len)
			{
				char		c = path[i + 1];

				if (c == '0' && i == start && (i + 2 == len || path[i + 2] == '.'))
				{
					i += 2;		/* the empty name */
					continue;
				}
				if (c == '\\' || c == '.' || c == '[' || c == ']')
				{
					appendStringInfoChar(&name, c);
					i += 2;
					continue;
				}
			}
			if (strict && (path[i] == '\\' || path[i] == '[' || path[i] == ']'))
				bad_path(path, len, psprintf("\"%c\" at byte %d must be escaped", path[i], i + 1));
			appendStringInfoChar(&name, path[i++]);
		}
		if (strict && i == start)
			bad_path(path, len, "a field name is missing");
		s->name = name.data;
		s->namelen = name.len;
		steps = lappend(steps, s);
		i++;					/* past the '.' (or the end) */
	}
	return steps;
}

/* A new, empty node. */
CfObjNode *
cfObjNodeNew(void)
{
	CfObjNode  *n = palloc0(sizeof(CfObjNode));

	n->all_index = true;
	return n;
}

/* Whether two steps are the same step. */
static bool
same_step(const CfObjStep *a, const CfObjStep *b)
{
	if ((a->name == NULL) != (b->name == NULL))
		return false;
	if (a->name == NULL)
		return a->index == b->index;
	return a->namelen == b->namelen && memcmp(a->name, b->name, a->namelen) == 0;
}

/* The child of n at step, made if it is not there. */
static CfObjNode *
child(CfObjNode *n, const CfObjStep *step)
{
	/* leaves arrive in name order: a parent's children mostly together */
	for (int i = n->nchildren - 1; i >= 0; i--)
		if (same_step(&n->children[i].step, step))
			return n->children[i].node;
	if (n->nchildren == n->maxchildren)
	{
		n->maxchildren = Max(4, n->maxchildren * 2);
		n->children = n->children ? repalloc(n->children, sizeof(ObjChild) * n->maxchildren)
			: palloc(sizeof(ObjChild) * n->maxchildren);
	}
	n->children[n->nchildren].step = *step;
	n->children[n->nchildren].node = cfObjNodeNew();
	n->has_leaf = false;		/* a subtree beats a scalar at its path */
	if (step->name != NULL)
		n->all_index = false;
	return n->children[n->nchildren++].node;
}

/* Add a leaf at the path of steps (CfObjStep). */
void
cfObjTreeAdd(CfObjNode *root, List *steps, const JsonbValue *leaf)
{
	CfObjNode  *n = root;
	ListCell   *lc;

	foreach(lc, steps)
		n = child(n, lfirst(lc));
	if (n->nchildren == 0)
	{
		n->has_leaf = true;
		n->leaf = *leaf;
	}
}

/* Whether a tree has no fields. */
bool
cfObjTreeEmpty(const CfObjNode *root)
{
	return root->nchildren == 0;
}

/* qsort: array elements by index. */
static int
compare_index(const void *a, const void *b)
{
	int			x = ((const ObjChild *) a)->step.index;
	int			y = ((const ObjChild *) b)->step.index;

	return x < y ? -1 : x > y ? 1 : 0;
}

/* Push node n as the value (tok WJB_VALUE) or element (WJB_ELEM) it is. */
static void
push_node(JsonbParseState **state, CfObjNode *n, JsonbIteratorToken tok)
{
	bool		array = n->nchildren > 0 && n->all_index;

	check_stack_depth();
	if (n->nchildren == 0)
	{
		JsonbValue	v = n->leaf;

		if (!n->has_leaf)
			v.type = jbvNull;
		pushJsonbValue(state, tok, &v);
		return;
	}
	if (array)
	{
		qsort(n->children, n->nchildren, sizeof(ObjChild), compare_index);
		pushJsonbValue(state, WJB_BEGIN_ARRAY, NULL);
		for (int i = 0; i < n->nchildren; i++)
			push_node(state, n->children[i].node, WJB_ELEM);
		pushJsonbValue(state, WJB_END_ARRAY, NULL);
		return;
	}
	pushJsonbValue(state, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < n->nchildren; i++)
	{
		CfObjStep  *s = &n->children[i].step;
		JsonbValue	k;

		k.type = jbvString;
		if (s->name != NULL)
		{
			k.val.string.val = s->name;
			k.val.string.len = s->namelen;
		}
		else
		{
			k.val.string.val = psprintf("[%d]", s->index);
			k.val.string.len = strlen(k.val.string.val);
		}
		pushJsonbValue(state, WJB_KEY, &k);
		push_node(state, n->children[i].node, WJB_VALUE);
	}
	pushJsonbValue(state, WJB_END_OBJECT, NULL);
}

/* The object a tree holds (an object even if it has no fields). */
Jsonb *
cfObjTreeJsonb(const CfObjNode *root)
{
	JsonbParseState *state = NULL;
	JsonbValue *res;

	if (root->nchildren == 0)
	{
		pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
		res = pushJsonbValue(&state, WJB_END_OBJECT, NULL);
	}
	else
	{
		CfObjNode	top = *root;

		top.all_index = false;	/* the root is an object */
		pushJsonbValue(&state, WJB_BEGIN_ARRAY, NULL);
		push_node(&state, &top, WJB_ELEM);
		res = pushJsonbValue(&state, WJB_END_ARRAY, NULL);
		/* unwrap: the one element */
		return JsonbValueToJsonb(&res->val.array.elems[0]);
	}
	return JsonbValueToJsonb(res);
}

/*
 * The value at the path of steps in an object (jbvBinary for a container),
 * or NULL if there is none: a name steps into an object, an index into an
 * array.
 */
JsonbValue *
cfObjLookup(Jsonb *object, List *steps)
{
	JsonbContainer *c = &object->root;
	JsonbValue *v = NULL;
	ListCell   *lc;

	foreach(lc, steps)
	{
		CfObjStep  *s = lfirst(lc);

		if (v != NULL)
		{
			if (v->type != jbvBinary)
				return NULL;
			c = v->val.binary.data;
		}
		if (s->name != NULL)
		{
			if (!JsonContainerIsObject(c))
				return NULL;
			v = getKeyJsonValueFromContainer(c, s->name, s->namelen, NULL);
		}
		else
		{
			if (!JsonContainerIsArray(c) || JsonContainerIsScalar(c))
				return NULL;
			v = getIthJsonbValueFromContainer(c, s->index);
		}
		if (v == NULL)
			return NULL;
	}
	return v;
}
