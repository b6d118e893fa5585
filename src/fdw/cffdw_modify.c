/*-------------------------------------------------------------------------
 *
 * cffdw_modify.c
 *	  INSERT, UPDATE, DELETE and TRUNCATE on a cfstore foreign table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/cffdw.h"

/* Install the modification callbacks (none yet: the table is read-only). */
void
cfFdwModifyRoutines(FdwRoutine *routine)
{
	(void) routine;
}
