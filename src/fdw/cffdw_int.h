/*-------------------------------------------------------------------------
 *
 * cffdw_int.h
 *	  What the planning and execution files of cfstore_fdw share: the
 *	  conditions pushed into the storage engine and the plan's private
 *	  fields.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFFDW_INT_H
#define CFFDW_INT_H

#include "postgres.h"

#include "nodes/pathnodes.h"

#include "fdw/cffdw.h"

/* How the row keys to read are given. */
#define CF_FDW_KEY_NONE		0	/* every row */
#define CF_FDW_KEY_EQ		1	/* key = v */
#define CF_FDW_KEY_ANY		2	/* key = ANY(array) */
#define CF_FDW_KEY_PARTS	3	/* part = v for every part of a CompositeType key */

/* What a pushed clause fixes (for EXPLAIN). */
#define CF_FDW_PUSH_KEY		1
#define CF_FDW_PUSH_SC		2
#define CF_FDW_PUSH_NAME	3

/* The conditions the storage engine takes over, and the rest. */
typedef struct CfFdwPush
{
	Expr	   *key;			/* the key's value (or array), or NULL; of a
								 * CompositeType key (CQL rows), its first part */
	bool		key_any;
	int			nkey_parts;		/* CompositeType key: its parts, all fixed */
	Expr	   *key_parts[CF_FDW_MAX_COMPONENTS];
	Expr	   *sc;				/* super_column = sc */
	int			neq;			/* leading name components fixed by equality */
	Expr	   *eq[CF_FDW_MAX_COMPONENTS];
	Expr	   *lo;				/* bounds of the next component (or of column_name) */
	bool		lo_incl;
	RestrictInfo *lo_rinfo;
	Expr	   *hi;
	bool		hi_incl;
	RestrictInfo *hi_rinfo;
	List	   *pushed;			/* RestrictInfos taken over */
	List	   *pushed_kind;	/* CF_FDW_PUSH_* of each */
	List	   *local;			/* RestrictInfos left to the executor */
} CfFdwPush;

extern void cfFdwClassify(const CfFdwTable *t, Index relid, List *clauses, CfFdwPush *p);

/*
 * A scan plan's fdw_private: a list of
 *	 0 the foreign table's oid (Integer)
 *	 1 (key mode, key expr, sc expr, direction 1 forward / 2 backward)
 *	 2 the exprs of the name components fixed by equality
 *	 3 (lo expr, lo inclusive, hi expr, hi inclusive, limit expr)
 *	 4 the attnums the scan tuple's columns come from (scan tuple = the
 *	   relation's row when scanrelid > 0: then the attnums to fill)
 *	 5 CF_FDW_PUSH_* of each fdw_recheck_quals clause
 *	 6 the exprs of the parts of a CompositeType key (key mode
 *	   CF_FDW_KEY_PARTS), in the key's order
 * Expression positions index fdw_exprs; -1 is none.
 */
#define CF_FDW_PRIV_RELID	0
#define CF_FDW_PRIV_KEY		1
#define CF_FDW_PRIV_EQS		2
#define CF_FDW_PRIV_RANGE	3
#define CF_FDW_PRIV_ATTNUMS	4
#define CF_FDW_PRIV_KINDS	5
#define CF_FDW_PRIV_PARTS	6

#endif							/* CFFDW_INT_H */
