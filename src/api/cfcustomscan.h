/*-------------------------------------------------------------------------
 *
 * cfcustomscan.h
 *	  The custom scan nodes of get_slice calls in FROM: the slice scan, and
 *	  the slice join of rows with their slices (cfcustomscan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFCUSTOMSCAN_H
#define CFCUSTOMSCAN_H

#include "postgres.h"

#include "fmgr.h"

extern void cfSliceScanInit(void);

/* the SQL function the scan stands in for (cfget.c) */
extern Datum cfstore_get_slice(PG_FUNCTION_ARGS);

#endif							/* CFCUSTOMSCAN_H */
