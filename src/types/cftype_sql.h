/*-------------------------------------------------------------------------
 *
 * cftype_sql.h
 *	  Helpers of the SQL functions over the marshal layer.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFTYPE_SQL_H
#define CFTYPE_SQL_H

#include "postgres.h"

#include "fmgr.h"

#include "marshal/cftype.h"

extern CfType *cfTypeArg(FunctionCallInfo fcinfo);

#endif							/* CFTYPE_SQL_H */
