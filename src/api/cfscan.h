/*-------------------------------------------------------------------------
 *
 * cfscan.h
 *	  The scan node that stands in for a get_slice call in FROM (cfscan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFSCAN_H
#define CFSCAN_H

#include "postgres.h"

#include "fmgr.h"

extern void cfSliceScanInit(void);

/* the SQL function the scan stands in for (cfget.c) */
extern Datum cfstore_get_slice(PG_FUNCTION_ARGS);

#endif							/* CFSCAN_H */
