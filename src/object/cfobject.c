/*-------------------------------------------------------------------------
 *
 * cfobject.c
 *	  put_object, get_object, remove_object and find_objects.
 *
 * Design.  The column family says how its objects are keyed: its CQL3
 * definition's key_aliases are the row key fields and its column_aliases
 * the clustering fields, in order (the keyspace owner's first put_object
 * records them; cql() CREATE TABLE can too).  An object is then the cells
 * of one row under its clustering prefix, each named (clustering values...,
 * path), plus, for an object with no other field, the empty-named cell a
 * CQL3 INSERT writes as its row marker.
 *
 * Writes go through cfstore.insert, cfstore.remove and cfstore._remove_range
 * over SPI, as the caller and in the caller's transaction: privileges,
 * validation, secondary indexes, TTL and sharded keyspaces are theirs, and
 * one timestamp covers every cell a call writes.  A field that put_object
 * writes replaces that subtree: the object's cells are read first, and if
 * the field had leaves under it that the new value does not write, one
 * range tombstone covers the field's subtree (every path starting with
 * "<field>."), one microsecond older than the new leaves so that they
 * survive it; it also hides a leaf another writer adds there later with an
 * older timestamp.  A stale leaf as new as the write, and a scalar field
 * replaced, get a tombstone of their own at the write's timestamp.  One
 * range tombstone per subtree measured cheaper than a tombstone per stale
 * leaf (bench/subtree.sh: 9 times the replacements per second, an eighth
 * of the bytes after VACUUM, the same read rates).
 * remove_object of paths rebuilds the object, removes the paths as jsonb's
 * #- does (an array closes up), and writes the difference.
 *
 * find_objects reads, in order of preference: the index entries of an
 * indexed leaf the prototype names (a CQL3 column named by the path, with
 * a KEYS index); the slice of the row the prototype's row key fields name,
 * bounded by the clustering fields it gives in order; or every row.  Each
 * object read is compared with every leaf of the prototype.  Which way was
 * taken is reported at DEBUG1.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"

#include "catalog/cfcatalog.h"
#include "cfobject.h"
#include "cql/cfcql.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_put_object);
PG_FUNCTION_INFO_V1(cfstore_get_object);
PG_FUNCTION_INFO_V1(cfstore_remove_object);
PG_FUNCTION_INFO_V1(cfstore_find_objects);

/* The longest column name (Cassandra's limit). */
#define OBJ_MAX_NAME 65535

/* How a column family keys its objects. */
struct CfObjShape
{
	const char *keyspace;
	const CfColumnFamily *cf;
	CfCqlTable *t;
	int			nfields;		/* primary key fields */
	int			nkey;			/* of them, the row key's */
	int			nclust;
	char	  **fields;
	const CfType **types;		/* each field's type */
};
typedef CfObjShape ObjShape;
typedef CfObjCell ObjCell;

/* Where an object is: its row key and clustering values. */
typedef struct ObjKey
{
	bytea	   *key;
	bytea	  **clust;
} ObjKey;

/* The text of a text argument, or an error naming it if it is null. */
static char *
text_arg(FunctionCallInfo fcinfo, int argno, const char *what)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", what)));
	return text_to_cstring(PG_GETARG_TEXT_PP(argno));
}

/* A jsonb argument that must be an object. */
static Jsonb *
object_arg(FunctionCallInfo fcinfo, int argno, const char *what)
{
	Jsonb	   *jb;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", what)));
	jb = PG_GETARG_JSONB_P(argno);
	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a JSON object, not %s", what,
						JB_ROOT_IS_SCALAR(jb) ? "a scalar" : "an array")));
	return jb;
}

/* The primary key as "(a, b | c)" for messages: row key fields, then the rest. */
static char *
key_text(char **fields, int n, int nkey)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '(');
	for (int i = 0; i < n; i++)
		appendStringInfo(&buf, "%s%s", i == 0 ? "" : i == nkey ? " | " : ", ", fields[i]);
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/*
 * The shape of a column family's objects.  fields/nfields/nkey: the
 * primary key a put_object gives (NULL: the one the column family has).
 */
static ObjShape *
shape_of(const char *keyspace, const char *name, char **fields, int nfields, int nkey)
{
	ObjShape   *s = palloc0(sizeof(ObjShape));
	const CfColumnFamily *cf = cfCatalogLookup(keyspace, name);
	const CfType *cmp;

	if (cf == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("unconfigured columnfamily %s", name)));
	cmp = cf->comparator;
	s->keyspace = keyspace;
	s->cf = cf;
	if (cf->is_super || cf->is_counter || cmp->kind != CF_COMPOSITE ||
		cmp->sub[cmp->nsub - 1]->kind != CF_UTF8)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("column family %s cannot hold objects", name),
				 errdetail("Objects need a standard, non-counter column family whose comparator is "
						   "CompositeType(<clustering types>, UTF8Type); %s is %s.", name, cfTypeName(cmp))));
	if (cf->default_validator->kind != CF_BYTES && cf->default_validator->kind != CF_UTF8)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("column family %s cannot hold objects", name),
				 errdetail("Leaves without column_metadata are stored as JSON text, which needs a "
						   "default_validation_class of UTF8Type or BytesType; %s has %s.",
						   name, cfTypeName(cf->default_validator))));
	s->nclust = cmp->nsub - 1;
	if (cf->nkey_aliases > 0)
	{
		/* declared: the column family's key, which a put_object must repeat */
		char	  **have = palloc(sizeof(char *) * (cf->nkey_aliases + cf->ncolumn_aliases));

		for (int i = 0; i < cf->nkey_aliases; i++)
			have[i] = cf->key_aliases[i];
		for (int i = 0; i < cf->ncolumn_aliases; i++)
			have[cf->nkey_aliases + i] = cf->column_aliases[i];
		if (fields != NULL)
		{
			bool		same = nfields == cf->nkey_aliases + cf->ncolumn_aliases && nkey == cf->nkey_aliases;

			for (int i = 0; same && i < nfields; i++)
				same = strcmp(fields[i], have[i]) == 0;
			if (!same)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("column family %s holds objects with primary key %s, not %s", name,
								key_text(have, cf->nkey_aliases + cf->ncolumn_aliases, cf->nkey_aliases),
								key_text(fields, nfields, nkey)),
						 errhint("The first row_key_fields names make the row key.")));
		}
		s->fields = have;
		s->nfields = cf->nkey_aliases + cf->ncolumn_aliases;
		s->nkey = cf->nkey_aliases;
		if (s->nfields - s->nkey != s->nclust)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("column family %s cannot hold objects", name),
					 errdetail("Its CQL3 definition has %d clustering columns; its comparator %s has %d.",
							   s->nfields - s->nkey, cfTypeName(cmp), s->nclust)));
	}
	else if (fields == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("column family %s holds no objects: it has no primary key", name),
				 errhint("The keyspace owner's first put_object names the primary key.")));
	else
	{
		s->fields = fields;
		s->nfields = nfields;
		s->nkey = nkey;
		if (nfields - nkey != s->nclust)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("column family %s cannot hold objects with primary key %s", name,
							key_text(fields, nfields, nkey)),
					 errdetail("Its comparator %s has %d clustering components before the path; "
							   "the primary key has %d fields after the row key.",
							   cfTypeName(cmp), s->nclust, nfields - nkey)));
	}
	if (s->nkey > 1 && (cf->key_validator->kind != CF_COMPOSITE || cf->key_validator->nsub != s->nkey))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("column family %s cannot hold objects with %d row key fields", name, s->nkey),
				 errdetail("Several row key fields need a CompositeType key_validation_class with as many "
						   "components; %s has %s.", name, cfTypeName(cf->key_validator))));
	if (s->nkey == 1 && cf->key_validator->kind == CF_COMPOSITE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("column family %s cannot hold objects with 1 row key field", name),
				 errdetail("Its key_validation_class %s has %d components.",
						   cfTypeName(cf->key_validator), cf->key_validator->nsub)));
	s->types = palloc(sizeof(CfType *) * s->nfields);
	for (int i = 0; i < s->nfields; i++)
		s->types[i] = i >= s->nkey ? cmp->sub[i - s->nkey]
			: s->nkey == 1 ? cf->key_validator : cf->key_validator->sub[i];
	if (cf->nkey_aliases > 0)
		s->t = cfCqlTable(keyspace, name);
	return s;
}

/*
 * Record the primary key of put_object's first object as the column
 * family's CQL3 key (the keyspace owner only; _cql_define checks).
 */
static void
declare_key(ObjShape *s)
{
	Oid			types[4] = {TEXTOID, TEXTOID, TEXTARRAYOID, TEXTARRAYOID};
	Datum		values[4];
	Datum	   *k = palloc(sizeof(Datum) * s->nfields);
	bool		isnull;

	for (int i = 0; i < s->nfields; i++)
		k[i] = CStringGetTextDatum(s->fields[i]);
	values[0] = CStringGetTextDatum(s->keyspace);
	values[1] = CStringGetTextDatum(s->cf->name);
	values[2] = PointerGetDatum(construct_array(k, s->nkey, TEXTOID, -1, false, TYPALIGN_INT));
	values[3] = PointerGetDatum(construct_array(k + s->nkey, s->nclust, TEXTOID, -1, false, TYPALIGN_INT));
	if (SPI_execute_with_args("SELECT pg_catalog.pg_has_role(n.nspowner, 'USAGE') FROM pg_catalog.pg_namespace n "
							  "WHERE n.nspname = $1", 1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the owner of keyspace %s", s->keyspace);
	if (SPI_processed == 1 && !DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("column family %s has no primary key for objects", s->cf->name),
				 errhint("Its first put_object must be run by the owner of keyspace %s, which records the "
						 "primary key.", s->keyspace)));
	cfCqlCallVoid("SELECT cfstore._cql_define($1, $2, $3, $4, NULL, '[]')", 4, types, values, NULL);
	s->cf = cfCatalogLookup(s->keyspace, s->cf->name);
	s->t = cfCqlTable(s->keyspace, s->cf->name);
}

/*
 * The column type of the leaf at path: its CQL3 column's, else NULL (JSON
 * text).  A leaf below a typed path is refused (write): the column holds a
 * scalar.
 */
static const CfType *
leaf_type(ObjShape *s, const char *path, int len, bool write)
{
	if (s->t == NULL)
		return NULL;
	for (int i = 0; i < s->t->ncolumns; i++)
	{
		CfCqlColumn *c = &s->t->columns[i];
		int			clen;

		if (c->kind != CQL_COL_REGULAR || c->cell_name == NULL)
			continue;
		clen = VARSIZE_ANY_EXHDR(c->cell_name);
		if (clen == len && memcmp(VARDATA_ANY(c->cell_name), path, len) == 0)
			return c->type;
		if (write && clen < len && path[clen] == '.' && memcmp(VARDATA_ANY(c->cell_name), path, clen) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("field %s is typed %s by column_metadata and cannot hold an object or an array",
							c->name, cfTypeShortName(c->type->kind))));
	}
	return NULL;
}

/* The index (its name) on the leaf at path, or NULL. */
static const char *
leaf_index(ObjShape *s, const char *path, int len)
{
	for (int i = 0; i < s->cf->ncolumns; i++)
	{
		const CfColumnDef *d = &s->cf->columns[i];

		if (d->component == s->nclust && d->index_id != 0 &&
			(int) VARSIZE_ANY_EXHDR(d->name) == len && memcmp(VARDATA_ANY(d->name), path, len) == 0)
			return d->index_name;
	}
	return NULL;
}

/* The encoding of primary key field i's value in object (an error if it has none). */
static bytea *
field_bytes(ObjShape *s, JsonbContainer *object, int i, const char *what)
{
	JsonbValue *v = getKeyJsonValueFromContainer(object, s->fields[i], strlen(s->fields[i]), NULL);
	bytea	   *b;

	if (v == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s has no primary key field %s", what, s->fields[i]),
				 errdetail("The primary key is %s.", key_text(s->fields, s->nfields, s->nkey))));
	if (v->type != jbvString && v->type != jbvNumeric && v->type != jbvBool)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("primary key field %s must be a string, a number or a boolean", s->fields[i])));
	b = cfObjEncode(v, s->types[i], s->fields[i]);
	if (i < s->nkey && VARSIZE_ANY_EXHDR(b) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("row key field %s must not be empty", s->fields[i])));
	if (VARSIZE_ANY_EXHDR(b) > OBJ_MAX_NAME)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("primary key field %s is %d bytes long; the limit is %d", s->fields[i],
						(int) VARSIZE_ANY_EXHDR(b), OBJ_MAX_NAME)));
	return b;
}

/* Where the object keyed by the fields of object is (all of them required). */
static ObjKey *
object_key(ObjShape *s, JsonbContainer *object, const char *what)
{
	ObjKey	   *k = palloc0(sizeof(ObjKey));
	bytea	  **parts = palloc(sizeof(bytea *) * s->nfields);

	for (int i = 0; i < s->nfields; i++)
		parts[i] = field_bytes(s, object, i, what);
	if (s->nkey == 1)
		k->key = parts[0];
	else
	{
		StringInfoData buf;

		initStringInfo(&buf);
		for (int i = 0; i < s->nkey; i++)
			cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(parts[i]), VARSIZE_ANY_EXHDR(parts[i]), 0);
		k->key = cfMakeBytea(buf.data, buf.len);
	}
	k->clust = parts + s->nkey;
	return k;
}

/* Where the object of a key argument is: every primary key field, and no other. */
static ObjKey *
key_arg(ObjShape *s, Jsonb *key)
{
	ObjKey	   *k = object_key(s, &key->root, "key");

	if (JsonContainerSize(&key->root) != (uint32) s->nfields)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key must have the primary key fields %s and no others",
						key_text(s->fields, s->nfields, s->nkey))));
	return k;
}

/*
 * The cell name (clustering values..., path), or a bound: with path, eoc
 * ends the path's component (a slice bound); path NULL, the clustering
 * prefix with eoc.
 */
static bytea *
cell_name(bytea **clust, int nclust, const char *path, int pathlen, int8 eoc)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < nclust; i++)
		cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(clust[i]), VARSIZE_ANY_EXHDR(clust[i]),
						  path == NULL && i == nclust - 1 ? eoc : 0);
	if (path != NULL)
	{
		if (buf.len + pathlen + 3 > OBJ_MAX_NAME)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the path \"%.60s...\" is too long for a column name", path),
					 errdetail("The column name would be %d bytes long; the limit is %d.",
							   buf.len + pathlen + 3, OBJ_MAX_NAME)));
		cfCompositeAppend(&buf, (const uint8 *) path, pathlen, eoc);
	}
	return cfMakeBytea(buf.data, buf.len);
}

/* The statements run often, prepared once per backend (run_plan). */
typedef enum ObjStmt
{
	OBJ_READ_SLICE,
	OBJ_INSERT,
	OBJ_REMOVE,
	OBJ_REMOVE_RANGE,
	OBJ_NSTMTS
} ObjStmt;

/*
 * Run statement which (sql, with nargs arguments of types) with values and
 * nulls; its plan is made on first use and kept for the backend (the plan
 * cache re-plans it after DDL on what it uses).  read_only: a SELECT that
 * writes nothing.  Returns SPI's result code, checked.
 */
static int
run_plan(ObjStmt which, const char *sql, int nargs, Oid *types, Datum *values, const char *nulls,
		 bool read_only)
{
	static SPIPlanPtr plans[OBJ_NSTMTS];
	int			ret;

	if (plans[which] == NULL)
	{
		SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

		if (plan == NULL)
			elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql, SPI_result_code_string(SPI_result));
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_keepplan failed");
		plans[which] = plan;
	}
	ret = SPI_execute_plan(plans[which], values, nulls, read_only, 0);
	if (ret < 0)
		elog(ERROR, "SPI_execute_plan failed for \"%s\": %s", sql, SPI_result_code_string(ret));
	return ret;
}

/* The live cells of a row under a clustering prefix of nclust values, in name order. */
static List *
read_cells(ObjShape *s, bytea *key, bytea **clust, int nclust)
{
	Oid			types[10] = {TEXTOID, TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID, BOOLOID, INT8OID, BOOLOID};
	Datum		values[10];
	char		nulls[11] = "  n nnn   ";
	List	   *cells = NIL;

	values[0] = CStringGetTextDatum(s->keyspace);
	values[1] = CStringGetTextDatum(s->cf->name);
	values[3] = PointerGetDatum(key);
	if (nclust > 0)
	{
		values[5] = PointerGetDatum(cell_name(clust, nclust, NULL, 0, 0));
		values[6] = PointerGetDatum(cell_name(clust, nclust, NULL, 0, 1));
		nulls[5] = nulls[6] = ' ';
	}
	values[7] = BoolGetDatum(false);
	values[8] = Int64GetDatum(PG_INT64_MAX);
	values[9] = BoolGetDatum(false);
	/* not read-only: a fresh snapshot sees what earlier calls of the same statement wrote */
	if (run_plan(OBJ_READ_SLICE, "SELECT column_name, value, writetime FROM cfstore._read_slice($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
				 10, types, values, nulls, false) != SPI_OK_SELECT)
		elog(ERROR, "could not read a slice of %s", s->cf->name);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		ObjCell    *c = palloc(sizeof(ObjCell));
		bool		isnull;

		c->name = DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
		c->value = DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull));
		c->writetime = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 3, &isnull));
		cells = lappend(cells, c);
	}
	return cells;
}

/* The path (last component) of a cell's name, or false if the name is not (clustering..., path). */
static bool
cell_path(ObjShape *s, const bytea *name, const uint8 **path, int *len)
{
	return cfCompositeComponent((const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), s->nclust, path, len);
}

/* Add primary key field i, encoded as data, to a tree. */
static void
add_field(ObjShape *s, CfObjNode *root, int i, const uint8 *data, int len)
{
	CfObjStep	step = {s->fields[i], strlen(s->fields[i]), 0};
	JsonbValue	v;

	cfObjDecode(&v, s->types[i], data, len);
	cfObjTreeAdd(root, list_make1(&step), &v);
}

/*
 * The object held by cells (all of one object, in name order) in row key:
 * its primary key fields from the key and the first cell's name, its other
 * fields from the cells' paths and values.
 */
static Jsonb *
build_object(ObjShape *s, bytea *key, List *cells)
{
	CfObjNode  *root = cfObjNodeNew();
	ListCell   *lc;
	const uint8 *parts[64];
	int			lens[64];

	if (s->nkey == 1)
		add_field(s, root, 0, (const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));
	else if (cfCompositeSplit((const uint8 *) VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key), 64, parts, lens, NULL) == s->nkey)
		for (int i = 0; i < s->nkey; i++)
			add_field(s, root, i, parts[i], lens[i]);
	if (s->nclust > 0 && cells != NIL &&
		cfCompositeSplit((const uint8 *) VARDATA_ANY(((ObjCell *) linitial(cells))->name),
						 VARSIZE_ANY_EXHDR(((ObjCell *) linitial(cells))->name), 64, parts, lens, NULL) > s->nclust)
		for (int i = 0; i < s->nclust; i++)
			add_field(s, root, s->nkey + i, parts[i], lens[i]);
	foreach(lc, cells)
	{
		ObjCell    *c = lfirst(lc);
		const uint8 *path;
		int			len;
		List	   *steps;
		JsonbValue	v;

		if (!cell_path(s, c->name, &path, &len) || len == 0)
			continue;			/* the row marker */
		steps = cfObjParsePath((const char *) path, len, false);
		cfObjDecode(&v, leaf_type(s, (const char *) path, len, false),
					(const uint8 *) VARDATA_ANY(c->value), VARSIZE_ANY_EXHDR(c->value));
		cfObjTreeAdd(root, steps, &v);
	}
	return cfObjTreeJsonb(root);
}

/* The shape of a column family's objects (an error if it holds none). */
CfObjShape *
cfObjShapeOf(const char *keyspace, const char *column_family)
{
	return shape_of(keyspace, column_family, NULL, 0, 0);
}

/* The object of cells (CfObjCell, one object's, in name order) in row key. */
Jsonb *
cfObjBuild(CfObjShape *shape, bytea *key, List *cells)
{
	return build_object(shape, key, cells);
}

/* A bytea[] of a list of bytea. */
static Datum
bytea_array(List *items)
{
	Datum	   *d = palloc(sizeof(Datum) * Max(list_length(items), 1));
	int			n = 0;
	ListCell   *lc;

	foreach(lc, items)
		d[n++] = PointerGetDatum(lfirst(lc));
	return PointerGetDatum(construct_array(d, n, BYTEAOID, -1, false, TYPALIGN_INT));
}

/* Write cells (names, values) in row key at timestamp, with ttl (0: the column family's). */
static void
write_cells(ObjShape *s, bytea *key, List *names, List *values, int64 timestamp, int32 ttl)
{
	Oid			types[7] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAARRAYOID, BYTEAARRAYOID, INT8OID, INT4OID};
	Datum		args[7];
	char		nulls[7] = "       ";

	if (names == NIL)
		return;
	args[0] = CStringGetTextDatum(s->keyspace);
	args[1] = CStringGetTextDatum(s->cf->name);
	args[2] = PointerGetDatum(key);
	args[3] = bytea_array(names);
	args[4] = bytea_array(values);
	args[5] = Int64GetDatum(timestamp);
	args[6] = Int32GetDatum(ttl);
	if (ttl == 0)
		nulls[6] = 'n';
	run_plan(OBJ_INSERT, "SELECT cfstore.insert($1, $2, $3, u.n, u.v, $6, $7) FROM unnest($4, $5) AS u(n, v)",
			 7, types, args, nulls, false);
}

/* Tombstones at timestamp for cells (names) of row key. */
static void
delete_cells(ObjShape *s, bytea *key, List *names, int64 timestamp)
{
	Oid			types[5] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAARRAYOID, INT8OID};
	Datum		args[5];

	if (names == NIL)
		return;
	args[0] = CStringGetTextDatum(s->keyspace);
	args[1] = CStringGetTextDatum(s->cf->name);
	args[2] = PointerGetDatum(key);
	args[3] = bytea_array(names);
	args[4] = Int64GetDatum(timestamp);
	run_plan(OBJ_REMOVE, "SELECT cfstore.remove($1, $2, $3, u.n, writetime => $5) FROM unnest($4) AS u(n)",
			 5, types, args, NULL, false);
}

/*
 * Range tombstones at timestamp over the subtrees of the top fields tops
 * (ntops) of the object at k: every name whose path starts with "<field>."
 * (src/storage/cfrangedel.c): from that string (end-of-component 0) to
 * "<field>/" with end-of-component -1, which sorts after every path under
 * the field and before any other ('/' follows '.'; field names escape
 * their dots).
 */
static void
delete_subtrees(ObjShape *s, ObjKey *k, char **tops, int ntops, int64 timestamp)
{
	Oid			types[6] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAARRAYOID, BYTEAARRAYOID, INT8OID};
	Datum		args[6];
	List	   *starts = NIL;
	List	   *finishes = NIL;

	if (ntops == 0)
		return;
	for (int i = 0; i < ntops; i++)
	{
		int			len = strlen(tops[i]);
		char	   *bound = psprintf("%s.", tops[i]);

		starts = lappend(starts, cell_name(k->clust, s->nclust, bound, len + 1, 0));
		bound[len] = '/';
		finishes = lappend(finishes, cell_name(k->clust, s->nclust, bound, len + 1, -1));
	}
	args[0] = CStringGetTextDatum(s->keyspace);
	args[1] = CStringGetTextDatum(s->cf->name);
	args[2] = PointerGetDatum(k->key);
	args[3] = bytea_array(starts);
	args[4] = bytea_array(finishes);
	args[5] = Int64GetDatum(timestamp);
	run_plan(OBJ_REMOVE_RANGE, "SELECT cfstore._remove_range($1, $2, $3, u.s, u.f, $6) FROM unnest($4, $5) AS u(s, f)",
			 6, types, args, NULL, false);
}

/* qsort/bsearch: C strings. */
static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The first step of an escaped path (up to its first unescaped '.'). */
static int
first_step_len(const char *path, int len)
{
	for (int i = 0; i < len; i++)
	{
		if (path[i] == '\\')
			i++;
		else if (path[i] == '.')
			return i;
	}
	return len;
}

/*
 * Write the leaves of an object at k: a cell each, and tombstones for the
 * old cells (old: ObjCell) under the fields written that the leaves do not
 * write again; all at timestamp.  replace_all: every old cell is under a
 * field written (remove_object's rewrite).  An object left with no leaf
 * gets its row marker.
 */
static void
write_leaves(ObjShape *s, ObjKey *k, List *leaves, List *old, bool replace_all, int64 timestamp, int32 ttl)
{
	List	   *names = NIL;
	List	   *values = NIL;
	List	   *stale = NIL;
	int			n = list_length(leaves);
	char	  **paths = palloc(sizeof(char *) * Max(n, 1));
	char	  **tops = palloc(sizeof(char *) * Max(n, 1));
	int			ntops = 0;
	char	  **subs = palloc(sizeof(char *) * Max(list_length(old), 1));
	int			nsubs = 0;
	ListCell   *lc;
	int			i = 0;

	foreach(lc, leaves)
	{
		CfObjLeaf  *l = lfirst(lc);
		int			tl = first_step_len(l->path, l->pathlen);

		names = lappend(names, cell_name(k->clust, s->nclust, l->path, l->pathlen, 0));
		values = lappend(values, cfObjEncode(&l->value, leaf_type(s, l->path, l->pathlen, true), l->path));
		paths[i++] = l->path;
		if (ntops == 0 || strlen(tops[ntops - 1]) != (size_t) tl || strncmp(tops[ntops - 1], l->path, tl) != 0)
			tops[ntops++] = pnstrdup(l->path, tl);
	}
	qsort(paths, n, sizeof(char *), compare_strings);
	qsort(tops, ntops, sizeof(char *), compare_strings);
	foreach(lc, old)
	{
		ObjCell    *c = lfirst(lc);
		const uint8 *p;
		int			len;
		char	   *path;
		char	   *top;
		int			toplen;

		if (!cell_path(s, c->name, &p, &len) || len == 0)
			continue;
		path = pnstrdup((const char *) p, len);
		toplen = first_step_len(path, len);
		top = pnstrdup(path, toplen);
		if ((replace_all || bsearch(&top, tops, ntops, sizeof(char *), compare_strings) != NULL) &&
			bsearch(&path, paths, n, sizeof(char *), compare_strings) == NULL)
		{
			/*
			 * put_object: a stale leaf under the field goes with its
			 * subtree's range tombstone, written one microsecond older than
			 * the new leaves; one as new as them gets its own tombstone
			 */
			if (!replace_all && toplen < len && c->writetime < timestamp)
			{
				if (nsubs == 0 || strcmp(subs[nsubs - 1], top) != 0)
					subs[nsubs++] = top;
			}
			else
				stale = lappend(stale, c->name);
		}
	}
	if (leaves == NIL && (old != NIL || !replace_all))
	{
		names = list_make1(cell_name(k->clust, s->nclust, "", 0, 0));
		values = list_make1(cfMakeBytea("", 0));
	}
	delete_cells(s, k->key, stale, timestamp);
	delete_subtrees(s, k, subs, nsubs, timestamp - 1);
	write_cells(s, k->key, names, values, timestamp, ttl);
}

/* The primary key fields of put_object's text[] argument. */
static char **
key_fields(ArrayType *a, int *n)
{
	Datum	   *d;
	bool	   *nulls;
	char	  **fields;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("primary_key must be a one-dimensional array of field names")));
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &d, &nulls, n);
	if (*n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("primary_key must name at least one field")));
	fields = palloc(sizeof(char *) * *n);
	for (int i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("primary_key must not contain nulls")));
		fields[i] = TextDatumGetCString(d[i]);
		if (fields[i][0] == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("primary_key must not contain empty names")));
		for (int j = 0; j < i; j++)
			if (strcmp(fields[j], fields[i]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("primary_key names %s twice", fields[i])));
	}
	return fields;
}

/* The primary key field names as a list (to skip them when flattening). */
static List *
field_list(ObjShape *s)
{
	List	   *l = NIL;

	for (int i = 0; i < s->nfields; i++)
		l = lappend(l, s->fields[i]);
	return l;
}

/* Connect to SPI with the search path pinned; returns the pin. */
static int
begin_spi(void)
{
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	return cfSearchPathPin();
}

/* Undo begin_spi. */
static void
end_spi(int pin)
{
	cfSearchPathRestore(pin);
	SPI_finish();
}

/*
 * put_object(keyspace, column_family, object, primary_key, row_key_fields,
 * writetime, ttl): write an object's leaves; a field present replaces its
 * subtree, fields absent are kept.
 */
Datum
cfstore_put_object(PG_FUNCTION_ARGS)
{
	char	   *keyspace = text_arg(fcinfo, 0, "keyspace");
	char	   *name = text_arg(fcinfo, 1, "column_family");
	Jsonb	   *object = object_arg(fcinfo, 2, "object");
	int			nfields;
	char	  **fields;
	int			nkey = PG_ARGISNULL(4) ? 1 : PG_GETARG_INT32(4);
	int64		timestamp = PG_ARGISNULL(5) ? cfNowMicros() : PG_GETARG_INT64(5);
	int32		ttl = PG_ARGISNULL(6) ? 0 : PG_GETARG_INT32(6);
	ObjShape   *s;
	ObjKey	   *k;
	List	   *leaves;
	int			pin;

	if (PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("primary_key must not be null")));
	fields = key_fields(PG_GETARG_ARRAYTYPE_P(3), &nfields);
	if (nkey < 1 || nkey > nfields)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("row_key_fields must be between 1 and %d (the primary key's fields), not %d",
						nfields, nkey)));
	if (!PG_ARGISNULL(6) && ttl <= 0)
		cfInvalidRequest("ttl must be positive");
	pin = begin_spi();
	s = shape_of(keyspace, name, fields, nfields, nkey);
	k = object_key(s, &object->root, "the object");
	leaves = cfObjFlatten(&object->root, field_list(s));
	if (s->t == NULL)
		declare_key(s);
	write_leaves(s, k, leaves, read_cells(s, k->key, k->clust, s->nclust), false, timestamp, ttl);
	end_spi(pin);
	PG_RETURN_VOID();
}

/* get_object(keyspace, column_family, key): the object, or NULL. */
Datum
cfstore_get_object(PG_FUNCTION_ARGS)
{
	char	   *keyspace = text_arg(fcinfo, 0, "keyspace");
	char	   *name = text_arg(fcinfo, 1, "column_family");
	Jsonb	   *key = object_arg(fcinfo, 2, "key");
	ObjShape   *s;
	ObjKey	   *k;
	List	   *cells;
	Jsonb	   *result = NULL;
	int			pin = begin_spi();

	s = shape_of(keyspace, name, NULL, 0, 0);
	k = key_arg(s, key);
	cells = read_cells(s, k->key, k->clust, s->nclust);
	if (cells != NIL)
	{
		Jsonb	   *obj = build_object(s, k->key, cells);

		/* out of SPI's memory, which end_spi frees */
		result = SPI_palloc(VARSIZE(obj));
		memcpy(result, obj, VARSIZE(obj));
	}
	end_spi(pin);
	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_JSONB_P(result);
}

/* The text[] path of steps, for jsonb's #- (jsonb_delete_path). */
static Datum
steps_array(List *steps)
{
	Datum	   *d = palloc(sizeof(Datum) * list_length(steps));
	int			n = 0;
	ListCell   *lc;

	foreach(lc, steps)
	{
		CfObjStep  *st = lfirst(lc);

		d[n++] = st->name ? PointerGetDatum(cstring_to_text_with_len(st->name, st->namelen))
			: CStringGetTextDatum(psprintf("%d", st->index));
	}
	return PointerGetDatum(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/* remove_object(keyspace, column_family, key, paths): the object, or some of its fields. */
Datum
cfstore_remove_object(PG_FUNCTION_ARGS)
{
	char	   *keyspace = text_arg(fcinfo, 0, "keyspace");
	char	   *name = text_arg(fcinfo, 1, "column_family");
	Jsonb	   *key = object_arg(fcinfo, 2, "key");
	int64		timestamp = cfNowMicros();
	ObjShape   *s;
	ObjKey	   *k;
	List	   *old;
	int			pin = begin_spi();

	s = shape_of(keyspace, name, NULL, 0, 0);
	k = key_arg(s, key);
	if (PG_ARGISNULL(3))
	{
		if (s->nclust == 0)
		{
			Oid			types[4] = {TEXTOID, TEXTOID, BYTEAOID, INT8OID};
			Datum		args[4] = {CStringGetTextDatum(keyspace), CStringGetTextDatum(name),
			PointerGetDatum(k->key), Int64GetDatum(timestamp)};

			cfCqlCallVoid("SELECT cfstore.remove($1, $2, $3, writetime => $4)", 4, types, args, NULL);
		}
		else
		{
			List	   *names = NIL;
			ListCell   *lc;

			foreach(lc, read_cells(s, k->key, k->clust, s->nclust))
				names = lappend(names, ((ObjCell *) lfirst(lc))->name);
			delete_cells(s, k->key, names, timestamp);
		}
	}
	else
	{
		Datum	   *d;
		bool	   *nulls;
		int			n;
		Jsonb	   *obj;
		bool		changed = false;

		deconstruct_array(PG_GETARG_ARRAYTYPE_P(3), TEXTOID, -1, false, TYPALIGN_INT, &d, &nulls, &n);
		old = read_cells(s, k->key, k->clust, s->nclust);
		obj = old != NIL ? build_object(s, k->key, old) : NULL;
		for (int i = 0; i < n; i++)
		{
			char	   *p;
			List	   *steps;
			CfObjStep  *first;

			if (nulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("paths must not contain nulls")));
			p = TextDatumGetCString(d[i]);
			steps = cfObjParsePath(p, strlen(p), true);
			first = linitial(steps);
			for (int f = 0; f < s->nfields; f++)
				if (list_length(steps) == 1 && first->name != NULL && (int) strlen(s->fields[f]) == first->namelen &&
					memcmp(s->fields[f], first->name, first->namelen) == 0)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("cannot remove primary key field %s", s->fields[f]),
							 errhint("remove_object without paths removes the whole object.")));
			if (obj != NULL && cfObjLookup(obj, steps) != NULL)
			{
				obj = DatumGetJsonbP(DirectFunctionCall2(jsonb_delete_path, JsonbPGetDatum(obj), steps_array(steps)));
				changed = true;
			}
		}
		if (changed)
			write_leaves(s, k, cfObjFlatten(&obj->root, field_list(s)), old, true, timestamp, 0);
	}
	end_spi(pin);
	PG_RETURN_VOID();
}

/* A leaf of a prototype: its steps and value. */
typedef struct ObjTest
{
	List	   *steps;
	JsonbValue	value;
} ObjTest;

/* What find_objects runs with. */
typedef struct ObjFind
{
	ObjShape   *s;
	List	   *tests;			/* ObjTest */
	int64		count;
	int64		found;
	Tuplestorestate *out;
	TupleDesc	desc;
} ObjFind;

/* Whether an object has every leaf of the prototype. */
static bool
matches(ObjFind *f, Jsonb *obj)
{
	ListCell   *lc;

	foreach(lc, f->tests)
	{
		ObjTest    *t = lfirst(lc);
		JsonbValue *v = cfObjLookup(obj, t->steps);

		if (v == NULL || !cfObjValueEqual(v, &t->value))
			return false;
	}
	return true;
}

/* Emit the object of cells if it matches; false once count objects are found. */
static bool
consider(ObjFind *f, bytea *key, List *cells)
{
	Jsonb	   *obj;
	Datum		value;
	bool		isnull = false;

	if (cells == NIL)
		return f->found < f->count;
	obj = build_object(f->s, key, cells);
	if (matches(f, obj))
	{
		value = JsonbPGetDatum(obj);
		tuplestore_putvalues(f->out, f->desc, &value, &isnull);
		f->found++;
	}
	return f->found < f->count;
}

/* Whether two cell names have the same first n components. */
static bool
same_prefix(const bytea *a, const bytea *b, int n)
{
	const uint8 *pa,
			   *pb;
	int			la,
				lb;

	if (n == 0)
		return true;
	if (!cfCompositeComponent((const uint8 *) VARDATA_ANY(a), VARSIZE_ANY_EXHDR(a), n - 1, &pa, &la) ||
		!cfCompositeComponent((const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), n - 1, &pb, &lb))
		return false;
	/* the prefixes end at the same offset and hold the same bytes */
	return pa + la - (const uint8 *) VARDATA_ANY(a) == pb + lb - (const uint8 *) VARDATA_ANY(b) &&
		memcmp(VARDATA_ANY(a), VARDATA_ANY(b), pa + la - (const uint8 *) VARDATA_ANY(a)) == 0;
}

/* Consider each object of a row's cells under a prefix; false once count are found. */
static bool
consider_row(ObjFind *f, bytea *key, bytea **clust, int nclust)
{
	List	   *cells = read_cells(f->s, key, clust, nclust);
	List	   *group = NIL;
	ListCell   *lc;

	foreach(lc, cells)
	{
		ObjCell    *c = lfirst(lc);

		if (group != NIL && !same_prefix(((ObjCell *) linitial(group))->name, c->name, f->s->nclust))
		{
			if (!consider(f, key, group))
				return false;
			group = NIL;
		}
		group = lappend(group, c);
	}
	return consider(f, key, group);
}

/*
 * find_objects(keyspace, column_family, prototype, count): the objects
 * whose leaves include every leaf of the prototype.
 */
Datum
cfstore_find_objects(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *keyspace = text_arg(fcinfo, 0, "keyspace");
	char	   *name = text_arg(fcinfo, 1, "column_family");
	Jsonb	   *proto = object_arg(fcinfo, 2, "prototype");
	ObjFind		f;
	bytea	  **parts;
	int			nprefix = 0;
	bool		have_key = true;
	bytea	   *key = NULL;
	const char *index = NULL;
	bytea	   *index_value = NULL;
	ListCell   *lc;
	int			pin;

	memset(&f, 0, sizeof(f));
	f.count = PG_ARGISNULL(3) ? 100 : PG_GETARG_INT32(3);
	if (f.count < 0)
		cfInvalidRequest("count cannot be negative");
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	f.out = rsinfo->setResult;
	f.desc = rsinfo->setDesc;
	pin = begin_spi();
	f.s = shape_of(keyspace, name, NULL, 0, 0);

	/* the primary key fields given: the row key (all of its fields) and a clustering prefix */
	parts = palloc0(sizeof(bytea *) * f.s->nfields);
	for (int i = 0; i < f.s->nfields; i++)
		if (getKeyJsonValueFromContainer(&proto->root, f.s->fields[i], strlen(f.s->fields[i]), NULL) != NULL)
			parts[i] = field_bytes(f.s, &proto->root, i, "prototype");
	for (int i = 0; i < f.s->nkey; i++)
		have_key &= parts[i] != NULL;
	if (have_key)
	{
		if (f.s->nkey == 1)
			key = parts[0];
		else
		{
			StringInfoData buf;

			initStringInfo(&buf);
			for (int i = 0; i < f.s->nkey; i++)
				cfCompositeAppend(&buf, (const uint8 *) VARDATA_ANY(parts[i]), VARSIZE_ANY_EXHDR(parts[i]), 0);
			key = cfMakeBytea(buf.data, buf.len);
		}
		while (nprefix < f.s->nclust && parts[f.s->nkey + nprefix] != NULL)
			nprefix++;
	}

	/* every leaf is a test; an indexed one can choose the objects */
	foreach(lc, cfObjFlatten(&proto->root, NIL))
	{
		CfObjLeaf  *l = lfirst(lc);
		ObjTest    *t = palloc(sizeof(ObjTest));

		t->steps = cfObjParsePath(l->path, l->pathlen, false);
		t->value = l->value;
		f.tests = lappend(f.tests, t);
		if (index == NULL && (index = leaf_index(f.s, l->path, l->pathlen)) != NULL)
			index_value = cfObjEncode(&l->value, leaf_type(f.s, l->path, l->pathlen, false), l->path);
	}

	if (f.count == 0)
		;
	else if (index != NULL && !(have_key && nprefix == f.s->nclust))
	{
		/* the index's entries: (row key, cell name), an object's together */
		Oid			types[10] = {TEXTOID, TEXTOID, TEXTOID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID, BOOLOID, INT8OID, BOOLOID};
		Datum		values[10];
		char		nulls[11] = "    nnn   ";
		List	   *entries = NIL;
		bytea	   *last_key = NULL;
		bytea	   *last_name = NULL;

		elog(DEBUG1, "find_objects: objects of %s from index %s", name, index);
		values[0] = CStringGetTextDatum(keyspace);
		values[1] = CStringGetTextDatum(name);
		values[2] = CStringGetTextDatum(index);
		values[3] = PointerGetDatum(index_value);
		values[7] = BoolGetDatum(false);
		values[8] = Int64GetDatum(PG_INT64_MAX);
		values[9] = BoolGetDatum(false);
		if (VARSIZE_ANY_EXHDR(index_value) > 0)
		{
			if (SPI_execute_with_args("SELECT column_name FROM cfstore._read_slice($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
									  10, types, values, nulls, true, 0) != SPI_OK_SELECT)
				elog(ERROR, "could not read index %s", index);
			for (uint64 i = 0; i < SPI_processed; i++)
			{
				bool		isnull;

				entries = lappend(entries, DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i],
																			SPI_tuptable->tupdesc, 1, &isnull)));
			}
		}
		foreach(lc, entries)
		{
			bytea	   *e = lfirst(lc);
			const uint8 *p;
			int			len;
			bytea	   *ekey;
			bytea	   *ename;
			bytea	  **clust = palloc(sizeof(bytea *) * Max(f.s->nclust, 1));
			const uint8 *cp[64];
			int			cl[64];

			if (!cfCompositeComponent((const uint8 *) VARDATA_ANY(e), VARSIZE_ANY_EXHDR(e), 0, &p, &len))
				continue;
			ekey = cfMakeBytea(p, len);
			if (!cfCompositeComponent((const uint8 *) VARDATA_ANY(e), VARSIZE_ANY_EXHDR(e), 1, &p, &len))
				continue;
			ename = cfMakeBytea(p, len);
			if (key != NULL && (VARSIZE_ANY_EXHDR(key) != VARSIZE_ANY_EXHDR(ekey) ||
								memcmp(VARDATA_ANY(key), VARDATA_ANY(ekey), VARSIZE_ANY_EXHDR(key)) != 0))
				continue;
			if (last_key != NULL && VARSIZE_ANY_EXHDR(last_key) == VARSIZE_ANY_EXHDR(ekey) &&
				memcmp(VARDATA_ANY(last_key), VARDATA_ANY(ekey), VARSIZE_ANY_EXHDR(ekey)) == 0 &&
				same_prefix(last_name, ename, f.s->nclust))
				continue;
			last_key = ekey;
			last_name = ename;
			if (cfCompositeSplit((const uint8 *) VARDATA_ANY(ename), VARSIZE_ANY_EXHDR(ename), 64, cp, cl, NULL) <= f.s->nclust)
				continue;
			for (int i = 0; i < f.s->nclust; i++)
				clust[i] = cfMakeBytea(cp[i], cl[i]);
			if (!consider(&f, ekey, read_cells(f.s, ekey, clust, f.s->nclust)))
				break;
		}
	}
	else if (have_key)
	{
		elog(DEBUG1, "find_objects: objects of %s from a slice of one row (%d of %d clustering fields)",
			 name, nprefix, f.s->nclust);
		consider_row(&f, key, parts + f.s->nkey, nprefix);
	}
	else
	{
		/* every row, a batch of keys at a time */
		Oid			types[5] = {TEXTOID, TEXTOID, BYTEAOID, BOOLOID, INT4OID};
		Datum		values[5];
		char		nulls[5] = "  n  ";
		bool		more = true;

		elog(DEBUG1, "find_objects: objects of %s from a scan of every row", name);
		values[0] = CStringGetTextDatum(keyspace);
		values[1] = CStringGetTextDatum(name);
		values[3] = BoolGetDatum(true);
		values[4] = Int32GetDatum(100);
		while (more)
		{
			List	   *keys = NIL;

			if (SPI_execute_with_args("SELECT k FROM cfstore._read_row_keys($1, $2, $3, $4, $5) AS k",
									  5, types, values, nulls, true, 0) != SPI_OK_SELECT)
				elog(ERROR, "could not read the row keys of %s", name);
			for (uint64 i = 0; i < SPI_processed; i++)
			{
				bool		isnull;

				keys = lappend(keys, DatumGetByteaPCopy(SPI_getbinval(SPI_tuptable->vals[i],
																	  SPI_tuptable->tupdesc, 1, &isnull)));
			}
			if (list_length(keys) < 100)
				more = false;
			foreach(lc, keys)
				if (!consider_row(&f, lfirst(lc), NULL, 0))
				{
					more = false;
					break;
				}
			if (keys != NIL)
			{
				values[2] = PointerGetDatum(llast(keys));
				nulls[2] = ' ';
				values[3] = BoolGetDatum(false);
			}
			CHECK_FOR_INTERRUPTS();
		}
	}
	end_spi(pin);
	return (Datum) 0;
}
