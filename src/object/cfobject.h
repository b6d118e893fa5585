/*-------------------------------------------------------------------------
 *
 * cfobject.h
 *	  Nested JSON objects stored as composite columns (after agiato):
 *	  put_object, get_object, remove_object, find_objects.
 *
 * An object is a jsonb object whose primary key is a list of its top-level
 * fields: the first row_key_fields of them make the row key, the rest the
 * clustering prefix of its cells' names.  Every other leaf is one cell
 * named (clustering values..., path), the path being the field names from
 * the root joined by '.', an array element written [i].  The column
 * family's comparator is CompositeType(<clustering types>, UTF8Type) and
 * its CQL3 definition (key_aliases, column_aliases) names the primary key,
 * so the same cells are a CQL3 table's rows and columns (doc/objects.md).
 *
 * Layers, one file each: cfobject_path.c turns objects into leaves and
 * leaves back into objects (paths, escapes, the tree); cfobject_value.c
 * encodes a leaf's value (typed by column_metadata, else JSON text);
 * cfobject.c is the SQL entry points, reading and writing through the
 * Thrift-style functions over SPI as cql() does.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFOBJECT_H
#define CFOBJECT_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"

#include "marshal/cftype.h"

/* A leaf of an object: its path (escaped, as in the cell name) and value. */
typedef struct CfObjLeaf
{
	char	   *path;
	int			pathlen;
	JsonbValue	value;			/* a scalar, or an empty jbvObject/jbvArray */
} CfObjLeaf;

/* A step of a path: a field name (unescaped) or an array index. */
typedef struct CfObjStep
{
	char	   *name;			/* NULL for an array element */
	int			namelen;
	int			index;
} CfObjStep;

/* A cell of an object: its name, value and timestamp. */
typedef struct CfObjCell
{
	bytea	   *name;
	bytea	   *value;
	int64		writetime;
} CfObjCell;

/* How a column family keys its objects (cfobject.c). */
typedef struct CfObjShape CfObjShape;

/* A node of an object being rebuilt (cfobject_path.c). */
typedef struct CfObjNode CfObjNode;

/* ---------- paths and trees (cfobject_path.c) ---------- */

extern void cfObjEscapeName(StringInfo buf, const char *name, int len);
extern List *cfObjFlatten(JsonbContainer *object, List *skip_top);
extern List *cfObjFlattenValue(const char *path, int pathlen, JsonbValue *value);
extern List *cfObjParsePath(const char *path, int len, bool strict);
extern CfObjNode *cfObjNodeNew(void);
extern void cfObjTreeAdd(CfObjNode *root, List *steps, const JsonbValue *leaf);
extern bool cfObjTreeEmpty(const CfObjNode *root);
extern Jsonb *cfObjTreeJsonb(const CfObjNode *root);
extern JsonbValue *cfObjLookup(Jsonb *object, List *steps);

/* ---------- objects (cfobject.c), for the foreign tables ---------- */

extern CfObjShape *cfObjShapeOf(const char *keyspace, const char *column_family);
extern Jsonb *cfObjBuild(CfObjShape *shape, bytea *key, List *cells);

/* ---------- leaf values (cfobject_value.c) ---------- */

extern bytea *cfObjEncode(const JsonbValue *v, const CfType *typed, const char *field);
extern void cfObjDecode(JsonbValue *out, const CfType *typed, const uint8 *data, int len);
extern bool cfObjValueEqual(const JsonbValue *a, const JsonbValue *b);

#endif							/* CFOBJECT_H */
