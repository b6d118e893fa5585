/*-------------------------------------------------------------------------
 *
 * cfapi.h
 *	  Shared plumbing of the Thrift-style SQL functions (README.md,
 *	  "Reading and writing"):
 *	  finding the column family and its storage relation, checking the
 *	  caller's privileges, converting "any" arguments, rendering results.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFAPI_H
#define CFAPI_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/rel.h"

#include "catalog/cfcatalog.h"
#include "storage/cfstorage.h"
#include "storage/cfwrite.h"

/* A column family opened for an API call. */
typedef struct CfTarget
{
	const CfColumnFamily *cf;
	Relation	rel;
	LOCKMODE	lockmode;
	uint64		generation;		/* the catalog's when cf was looked up */
} CfTarget;

extern void cfTargetOpen(CfTarget *t, FunctionCallInfo fcinfo, AclMode mode);
extern void cfTargetReuse(CfTarget *t, FunctionCallInfo fcinfo, AclMode mode);
extern void cfTargetClose(CfTarget *t);
extern bool cfArgIsNull(FunctionCallInfo fcinfo, int argno);
extern bytea *cfArgBytes(FunctionCallInfo fcinfo, int argno, const CfType *type, const char *slot);
extern bytea *cfArgBound(FunctionCallInfo fcinfo, int argno, const CfType *type, const char *slot);
extern void cfPermissionDenied(const CfColumnFamily *cf, AclMode mode) pg_attribute_noreturn();
extern void cfEmitCells(FunctionCallInfo fcinfo, const CfColumnFamily *cf, CfSliceState *slice);
extern void cfEmitCell(FunctionCallInfo fcinfo, const CfColumnFamily *cf, const CfOutCell *c);

/* Slice arguments (cfget.c) */
extern const CfType *cfSliceParent(FunctionCallInfo fcinfo, const CfColumnFamily *cf, int scarg,
								   CfSliceSpec *spec);
extern void cfCheckRange(const CfType *type, const bytea *start, const bytea *finish, bool reversed,
						 int64 count);
extern void cfSlicePredicate(FunctionCallInfo fcinfo, const CfColumnFamily *cf, int scarg, int startarg,
							 int finisharg, int reversedarg, int countarg, CfSliceSpec *spec);
extern bytea *cfKeyArg(FunctionCallInfo fcinfo, int argno, const CfColumnFamily *cf);

/* Multi-row reads (cfmultiget.c) */
extern bytea **cfKeysArg(FunctionCallInfo fcinfo, int argno, const CfColumnFamily *cf, int *n);
extern void cfBeginResult(FunctionCallInfo fcinfo);
extern int64 cfEmitSlice(FunctionCallInfo fcinfo, CfTarget *t, const CfSliceSpec *spec);

/* The rows a key_count-limited multi-row read has returned so far. */
typedef struct CfRowsOut
{
	FunctionCallInfo fcinfo;
	CfTarget   *t;
	CfSliceSpec *spec;			/* the predicate, applied to each row */
	int32		key_count;
	int32		found;			/* rows that returned something */
} CfRowsOut;

extern bool cfRowEmitted(CfRowsOut *out, int64 n);
extern bool cfEmitRow(CfRowsOut *out, bytea *key);
extern int64 cfCountSlice(CfTarget *t, const CfSliceSpec *spec);

/* The columns of cfstore.cell: key, super_column, column_name, value, writetime, ttl. */
#define CF_CELL_NATTS 6
#define CF_CELL_KEY				0x01
#define CF_CELL_SUPER_COLUMN	0x02
#define CF_CELL_COLUMN_NAME		0x04
#define CF_CELL_VALUE			0x08
#define CF_CELL_WRITETIME		0x10
#define CF_CELL_TTL				0x20
#define CF_CELL_ALL_COLUMNS		0x3F

extern void cfRenderCell(FunctionCallInfo fcinfo, const CfColumnFamily *cf, const CfOutCell *c,
						 uint32 columns, Datum *values, bool *nulls);
extern CfSliceState *cfGetSliceBegin(FunctionCallInfo fcinfo, CfTarget *t, Snapshot snapshot);

/* cfmapreduce.c */
extern void cfMapReduceCheck(const char *what, const char *sql);

#endif							/* CFAPI_H */
