/*-------------------------------------------------------------------------
 *
 * cfvacuum.c
 *	  VACUUM of a storage relation.
 *
 * This first version counts live cells for the planner and autovacuum and
 * reports them; it removes nothing and freezes nothing, so it never lets
 * relfrozenxid advance past a cell's xmin.  Compaction (shadowed and aborted
 * versions, tombstones past gc_grace_seconds, counter merging, freezing) is
 * described in src/storage/README and is the next step.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/multixact.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/snapmgr.h"

#include "storage/cfstorage.h"

/* VACUUM: report pages and live cells. */
void
cfVacuum(Relation rel, struct VacuumParams *params, BufferAccessStrategy strategy)
{
	BlockNumber npages = RelationGetNumberOfBlocks(rel);
	double		live = 0;
	bool		frozenxid_updated,
				minmulti_updated;

	(void) params;
	(void) strategy;
	if (npages > 0)
	{
		Snapshot	snapshot = RegisterSnapshot(GetLatestSnapshot());
		CfScanState *scan = cfScanBegin(rel, snapshot);
		CfOutCell	c;

		while (cfScanNext(scan, &c))
		{
			live += 1;
			if (((uint64) live & 0xfff) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		cfScanEnd(scan);
		UnregisterSnapshot(snapshot);
	}
	vac_update_relstats(rel, npages, live, 0, false, InvalidTransactionId, InvalidMultiXactId,
						&frozenxid_updated, &minmulti_updated, false);
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared, live, 0);
}
