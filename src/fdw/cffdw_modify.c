/*-------------------------------------------------------------------------
 *
 * cffdw_modify.c
 *	  INSERT, UPDATE, DELETE and TRUNCATE on a cfstore foreign table.
 *
 * A row of a foreign table is one cell: (key, [super_column], column_name
 * or column1..N) address it, value, writetime and ttl are its version.
 * Every change is written through cfWriteCell, the write path of the
 * function API (validation with Cassandra's texts, TTL defaults, secondary
 * indexes), in the caller's transaction and stamped with the statement's
 * command id, so the statement's own scan does not see what it writes.
 * Nothing is ever changed in place: storage is append-only and readers
 * reconcile (doc/semantics.md §4-§7).
 *
 *	 INSERT	one cell version, as cfstore.insert: writetime NULL is now (in
 *			microseconds), ttl NULL is the column family's
 *			default_time_to_live.  Last write wins.  In a counter column
 *			family the value is an increment, as cfstore.add (an INSERT
 *			that created nothing is no use to a counter, and UPDATE cannot
 *			create one).  RETURNING shows the writetime and ttl used.
 *	 UPDATE	a new version of the cell at now, or at the writetime the SET
 *			list gives; the ttl is the SET list's or the default, as for an
 *			INSERT (an unchanged writetime or ttl is not carried over).  A
 *			changed key, super column or name also writes a tombstone of
 *			the old cell at the same timestamp (a move).  In a counter
 *			column family the change of the value is added (new - old,
 *			where old is what the statement read), so increments made
 *			meanwhile by others are kept; a counter cannot move.
 *	 DELETE	a tombstone of the cell at now (a counter: as remove_counter).
 *	 TRUNCATE  cfstore.truncate of the column family (indexes included).
 *
 * ON CONFLICT is refused: a write never conflicts with the versions there.
 * COPY FROM, and rows routed to a foreign partition, come through
 * BeginForeignInsert.
 *
 * The old cell of UPDATE and DELETE is known by its address, which the
 * scan returns as row identity columns (not ctid, which a cell does not
 * have); a counter UPDATE also gets the old value, and DELETE ... RETURNING
 * the whole old row.  A statement that joins the table to others may bring
 * one old row several times; as PostgreSQL does, only the first changes it
 * (first_time), and the statement counts it once.
 *
 * NULLs.  A NULL key, super column or name is refused with Cassandra's
 * texts.  Reading shows the empty value as NULL for every SQL type but
 * text and bytea, so a NULL value of those types writes the empty value;
 * of text and bytea (and of a counter) it is refused.  Of a composite
 * name's components, trailing NULLs are left out (a prefix name, which
 * reads back that way); a NULL before a given component is the empty
 * component where the type reads that as NULL, else refused.  So the old
 * row of an UPDATE or DELETE whose trailing components are NULL may stand
 * for more than one cell: see old_address.
 *
 * Privileges: the executor checks the foreign table's; the storage
 * relation's are checked here as the function API checks them: INSERT to
 * write (INSERT, UPDATE, counter increments), DELETE to write tombstones
 * (DELETE, and UPDATEs that may move a cell), TRUNCATE to truncate.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/sysattr.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "common/hashfn.h"
#include "common/int.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/appendinfo.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "api/cfapi.h"
#include "api/cfargs.h"
#include "cql/cfcql.h"
#include "fdw/cffdw.h"
#include "storage/cfwrite.h"

/* Rows an INSERT hands over at a time (INSERT ... SELECT). */
#define CF_FDW_BATCH_SIZE 100

/* The largest ttl (doc/semantics.md §6). */
#define CF_FDW_MAX_TTL 630720000

/* The name of the junk column that carries old row column attno. */
#define CF_FDW_ROWID_FORMAT "cfstore_rowid_%d"

/* Where a cell is: the encodings of its key, super column and name. */
typedef struct CfFdwAddress
{
	bytea	   *key;
	bytea	   *sc;				/* NULL in a Standard column family */
	bytea	   *name;
} CfFdwAddress;

/* The executor state of a modification of one foreign table. */
typedef struct CfFdwModifyState
{
	CfFdwTable *t;				/* a copy of the table map, for the statement */
	Relation	rel;			/* the storage relation */
	CommandId	cid;
	bool		from_insert;	/* made by BeginForeignInsert */
	/* UPDATE, DELETE: junk columns of the subplan's output (0: none) */
	AttrNumber *old_att;		/* by attnum - 1: the old row's column */
	AttrNumber	wholerow_att;	/* DELETE ... RETURNING */
	/* UPDATE: what the SET list changes */
	bool		set_writetime;
	bool		set_ttl;
	bool	   *set_cols;		/* CQL rows: the columns SET, by attnum - 1 */
	MemoryContext rowcxt;		/* reset for every row */
	/* UPDATE, DELETE of a statement that joins: the old rows met (first_time) */
	HTAB	   *done;
	MemoryContext donecxt;
} CfFdwModifyState;

/* An old row's identity in CfFdwModifyState.done: its address, serialised. */
typedef struct CfRowId
{
	bytea	   *id;
} CfRowId;

/* ---------------------------------------------------------------------
 * Planning
 * ---------------------------------------------------------------------
 */

/* Add a column of the target relation as a row identity column. */
static void
add_identity(PlannerInfo *root, Index rtindex, Relation rel, AttrNumber attno)
{
	Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel), attno - 1);
	Var		   *var = makeVar(rtindex, attno, att->atttypid, att->atttypmod, att->attcollation, 0);

	add_row_identity_var(root, var, rtindex, psprintf(CF_FDW_ROWID_FORMAT, attno));
}

/*
 * AddForeignUpdateTargets: the old cell's address (key, super column,
 * name components) as row identity; a counter UPDATE also needs the old
 * value, DELETE ... RETURNING the whole old row.
 */
static void
cfFdwAddForeignUpdateTargets(PlannerInfo *root, Index rtindex, RangeTblEntry *target_rte, Relation target_relation)
{
	CfFdwTable *t = cfFdwTableGet(RelationGetRelid(target_relation));
	CmdType		op = root->parse->commandType;

	(void) target_rte;
	if (t->rows != CF_FDW_ROWS_CELLS)
	{
		/* a CQL row: its primary key; a counter UPDATE also needs the old counters */
		for (int i = 0; i < t->natts; i++)
			if (t->cols[i].role == CF_FDW_KEY || t->cols[i].role == CF_FDW_KEY_PART ||
				t->cols[i].role == CF_FDW_NAME ||
				(op == CMD_UPDATE && t->cf->is_counter &&
				 (t->cols[i].role == CF_FDW_CELL || t->cols[i].role == CF_FDW_VALUE)))
				add_identity(root, rtindex, target_relation, i + 1);
		if (op == CMD_DELETE && root->parse->returningList != NIL)
			add_row_identity_var(root, makeVar(rtindex, InvalidAttrNumber, RECORDOID, -1, InvalidOid, 0),
								 rtindex, "wholerow");
		return;
	}
	add_identity(root, rtindex, target_relation, t->key_att);
	if (t->sc_att != 0)
		add_identity(root, rtindex, target_relation, t->sc_att);
	for (int i = 0; i < t->nname; i++)
		add_identity(root, rtindex, target_relation, t->name_att[i]);
	if (op == CMD_UPDATE && t->cf->is_counter && t->value_att != 0)
		add_identity(root, rtindex, target_relation, t->value_att);
	if (op == CMD_DELETE && root->parse->returningList != NIL)
		add_row_identity_var(root, makeVar(rtindex, InvalidAttrNumber, RECORDOID, -1, InvalidOid, 0),
							 rtindex, "wholerow");
}

/* Refuse ON CONFLICT, which a cell write cannot honour (plan may be NULL: COPY). */
static void
check_no_conflict_clause(const ModifyTable *plan)
{
	if (plan != NULL && plan->onConflictAction != ONCONFLICT_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ON CONFLICT is not supported on cfstore foreign tables"),
				 errhint("An INSERT is an upsert already: of the versions of a cell, the latest writetime wins.")));
}

/*
 * PlanForeignModify: nothing to plan, but ON CONFLICT cannot be honoured
 * (a write never conflicts: it is a new version).
 */
static List *
cfFdwPlanForeignModify(PlannerInfo *root, ModifyTable *plan, Index resultRelation, int subplan_index)
{
	(void) root;
	(void) resultRelation;
	(void) subplan_index;
	check_no_conflict_clause(plan);
	return NIL;
}

/* IsForeignRelUpdatable: INSERT, UPDATE and DELETE. */
static int
cfFdwIsForeignRelUpdatable(Relation rel)
{
	(void) rel;
	return (1 << CMD_INSERT) | (1 << CMD_UPDATE) | (1 << CMD_DELETE);
}

/* ---------------------------------------------------------------------
 * Execution state
 * ---------------------------------------------------------------------
 */

/*
 * A copy of a table map that lives as long as the statement (the cached
 * map is rebuilt when the catalog changes; the column family it points at
 * stays valid until the end of the transaction).
 */
static CfFdwTable *
copy_table(const CfFdwTable *src)
{
	CfFdwTable *t = palloc(sizeof(CfFdwTable));

	*t = *src;
	t->cols = palloc(sizeof(CfFdwColumn) * Max(src->natts, 1));
	memcpy(t->cols, src->cols, sizeof(CfFdwColumn) * src->natts);
	for (int i = 0; i < src->natts; i++)
		if (src->cols[i].attname != NULL)
			t->cols[i].attname = pstrdup(src->cols[i].attname);
	return t;
}

/* Raise the permission error unless the user has privilege mode on the storage relation. */
static void
check_privilege(const CfFdwTable *t, AclMode mode)
{
	if (pg_class_aclcheck(t->storage_relid, GetUserId(), mode) != ACLCHECK_OK)
		cfPermissionDenied(t->cf, mode);
}

/* Set up the modification of a foreign table (its storage relation opened). */
static CfFdwModifyState *
begin_modify(EState *estate, ResultRelInfo *rinfo, CommandId cid)
{
	MemoryContext old = MemoryContextSwitchTo(estate->es_query_cxt);
	CfFdwModifyState *st = palloc0(sizeof(CfFdwModifyState));

	st->t = copy_table(cfFdwTableGet(RelationGetRelid(rinfo->ri_RelationDesc)));
	st->cid = cid;
	st->rowcxt = AllocSetContextCreate(estate->es_query_cxt, "cfstore foreign modify", ALLOCSET_SMALL_SIZES);
	MemoryContextSwitchTo(old);
	return st;
}

/* Open the storage relation of a modification once its privileges are checked. */
static void
open_storage(CfFdwModifyState *st)
{
	st->rel = cfStorageOpen(st->t->storage_relid, RowExclusiveLock);
}

/* Whether two byte strings (or NULLs) are equal. */
static bool
bytes_equal(const bytea *a, const bytea *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return VARSIZE_ANY_EXHDR(a) == VARSIZE_ANY_EXHDR(b) &&
		memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) == 0;
}

/* dynahash's hash of a CfRowId: of the identity's bytes. */
static uint32
rowid_hash(const void *key, Size keysize)
{
	const bytea *id = ((const CfRowId *) key)->id;

	(void) keysize;
	return hash_bytes((const unsigned char *) VARDATA_ANY(id), VARSIZE_ANY_EXHDR(id));
}

/* dynahash's match of two CfRowIds: 0 when their bytes are equal. */
static int
rowid_match(const void *a, const void *b, Size keysize)
{
	(void) keysize;
	return bytes_equal(((const CfRowId *) a)->id, ((const CfRowId *) b)->id) ? 0 : 1;
}

/* The attnum of a junk column of the subplan's output, or an error. */
static AttrNumber
junk_att(Plan *subplan, const char *name)
{
	AttrNumber	att = ExecFindJunkAttributeInTlist(subplan->targetlist, name);

	if (!AttributeNumberIsValid(att))
		elog(ERROR, "could not find junk column \"%s\"", name);
	return att;
}

/* BeginForeignModify: check privileges, open the storage relation, find the old row's columns. */
static void
cfFdwBeginForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo, List *fdw_private, int subplan_index,
				int eflags)
{
	EState	   *estate = mtstate->ps.state;
	CmdType		op = mtstate->operation;
	CfFdwModifyState *st;
	const CfFdwTable *t;

	(void) fdw_private;
	(void) subplan_index;
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	st = begin_modify(estate, rinfo, estate->es_output_cid);
	t = st->t;
	if (op == CMD_UPDATE && t->rows != CF_FDW_ROWS_CELLS)
	{
		Bitmapset  *cols = ExecGetUpdatedCols(rinfo, estate);
		MemoryContext old = MemoryContextSwitchTo(estate->es_query_cxt);

		st->set_cols = palloc0(sizeof(bool) * Max(t->natts, 1));
		for (int i = 0; i < t->natts; i++)
		{
			if (!bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, cols))
				continue;
			if (t->cols[i].role == CF_FDW_OBJECT)
				cfInvalidRequest("column %s is the object of the row's cells; write objects with cfstore.put_object",
								 t->cols[i].attname);
			if (t->cols[i].role != CF_FDW_CELL && t->cols[i].role != CF_FDW_VALUE)
				cfInvalidRequest("PRIMARY KEY part %s found in SET part", t->cols[i].attname);
			st->set_cols[i] = true;
		}
		MemoryContextSwitchTo(old);
		check_privilege(t, ACL_INSERT);
		check_privilege(t, ACL_DELETE);		/* a NULL is a tombstone */
	}
	else if (op == CMD_UPDATE)
	{
		Bitmapset  *cols = ExecGetUpdatedCols(rinfo, estate);
		bool		moves = false;

#define CF_SET(att) ((att) != 0 && bms_is_member((att) - FirstLowInvalidHeapAttributeNumber, cols))
		st->set_writetime = CF_SET(t->writetime_att);
		st->set_ttl = CF_SET(t->ttl_att);
		moves = CF_SET(t->key_att) || CF_SET(t->sc_att);
		for (int i = 0; i < t->nname; i++)
			moves |= CF_SET(t->name_att[i]);
#undef CF_SET
		check_privilege(t, ACL_INSERT);
		if (moves && !t->cf->is_counter)
			check_privilege(t, ACL_DELETE);
	}
	else
		check_privilege(t, op == CMD_DELETE ? ACL_DELETE : ACL_INSERT);
	if (op == CMD_UPDATE || op == CMD_DELETE)
	{
		Plan	   *subplan = outerPlanState(mtstate)->plan;
		MemoryContext old = MemoryContextSwitchTo(estate->es_query_cxt);

		st->old_att = palloc0(sizeof(AttrNumber) * Max(t->natts, 1));
		for (int i = 0; i < t->natts; i++)
		{
			const CfFdwColumn *col = &t->cols[i];

			if (col->role == CF_FDW_KEY || col->role == CF_FDW_SUPER || col->role == CF_FDW_NAME ||
				col->role == CF_FDW_KEY_PART ||
				((col->role == CF_FDW_VALUE || (col->role == CF_FDW_CELL && t->rows != CF_FDW_ROWS_CELLS)) &&
				 op == CMD_UPDATE && t->cf->is_counter))
				st->old_att[i] = junk_att(subplan, psprintf(CF_FDW_ROWID_FORMAT, i + 1));
		}
		/* RETURNING is set up after this: the whole row is there if it needs it */
		if (op == CMD_DELETE)
			st->wholerow_att = ExecFindJunkAttributeInTlist(subplan->targetlist, "wholerow");
		/* only a statement with other relations can meet a row twice */
		if (list_length(estate->es_range_table) > 1)
		{
			HASHCTL		ctl;

			st->donecxt = AllocSetContextCreate(estate->es_query_cxt, "cfstore rows changed",
												ALLOCSET_DEFAULT_SIZES);
			memset(&ctl, 0, sizeof(ctl));
			ctl.keysize = sizeof(CfRowId);
			ctl.entrysize = sizeof(CfRowId);
			ctl.hash = rowid_hash;
			ctl.match = rowid_match;
			ctl.hcxt = st->donecxt;
			st->done = hash_create("cfstore rows changed", 256, &ctl,
								   HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
		}
		MemoryContextSwitchTo(old);
	}
	open_storage(st);
	rinfo->ri_FdwState = st;
}

/*
 * BeginForeignInsert: the same for COPY FROM and for rows routed to a
 * partition.  A result relation of the statement already has its state.
 */
static void
cfFdwBeginForeignInsert(ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	EState	   *estate = mtstate->ps.state;
	CfFdwModifyState *st;

	if (rinfo->ri_FdwState != NULL)
		return;
	/* a row routed to this partition by INSERT ... ON CONFLICT */
	check_no_conflict_clause((ModifyTable *) mtstate->ps.plan);
	/* COPY has no plan, and no es_output_cid: it writes with the current command id */
	st = begin_modify(estate, rinfo,
					  mtstate->ps.plan != NULL ? estate->es_output_cid : GetCurrentCommandId(true));
	st->from_insert = true;
	check_privilege(st->t, ACL_INSERT);
	open_storage(st);
	rinfo->ri_FdwState = st;
}

/* Close what a modification opened. */
static void
end_modify(CfFdwModifyState *st)
{
	if (st == NULL || st->rel == NULL)
		return;
	table_close(st->rel, NoLock);
	st->rel = NULL;
	MemoryContextDelete(st->rowcxt);
}

/* EndForeignModify. */
static void
cfFdwEndForeignModify(EState *estate, ResultRelInfo *rinfo)
{
	(void) estate;
	end_modify((CfFdwModifyState *) rinfo->ri_FdwState);
}

/* EndForeignInsert: only what BeginForeignInsert made. */
static void
cfFdwEndForeignInsert(EState *estate, ResultRelInfo *rinfo)
{
	CfFdwModifyState *st = (CfFdwModifyState *) rinfo->ri_FdwState;

	(void) estate;
	if (st != NULL && st->from_insert)
		end_modify(st);
}

/* GetForeignModifyBatchSize: rows are batched unless each must come back at once. */
static int
cfFdwGetForeignModifyBatchSize(ResultRelInfo *rinfo)
{
	TriggerDesc *trig = rinfo->ri_TrigDesc;

	if (rinfo->ri_projectReturning != NULL || rinfo->ri_WithCheckOptions != NIL ||
		(trig != NULL && (trig->trig_insert_before_row || trig->trig_insert_after_row)))
		return 1;
	return CF_FDW_BATCH_SIZE;
}

/* ExplainForeignModify: the batch size of an INSERT (VERBOSE). */
static void
cfFdwExplainForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo, List *fdw_private, int subplan_index,
				  ExplainState *es)
{
	(void) fdw_private;
	(void) subplan_index;
	if (es->verbose && mtstate->operation == CMD_INSERT && rinfo->ri_BatchSize > 0)
		ExplainPropertyInteger("Batch Size", NULL, rinfo->ri_BatchSize, es);
}

/* ---------------------------------------------------------------------
 * Rows to cells
 * ---------------------------------------------------------------------
 */

/* Append one composite name component with end-of-component byte 0. */
static void
append_component(StringInfo buf, const bytea *v)
{
	int			len = VARSIZE_ANY_EXHDR(v);

	if (len > 0xFFFF)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("CompositeType component is %d bytes long; the limit is 65535", len)));
	appendStringInfoChar(buf, (char) ((len >> 8) & 0xff));
	appendStringInfoChar(buf, (char) (len & 0xff));
	appendBinaryStringInfo(buf, VARDATA_ANY(v), len);
	appendStringInfoChar(buf, 0);
}

/*
 * The address of the cell a row (values and nulls by attnum - 1) names,
 * checked in Cassandra's order: key, super column, name.
 */
static void
row_address(const CfFdwTable *t, const Datum *values, const bool *nulls, CfFdwAddress *a)
{
	const CfColumnFamily *cf = t->cf;
	int			ki = t->key_att - 1;

	memset(a, 0, sizeof(*a));
	if (nulls[ki])
		cfInvalidRequest("Key may not be empty");
	a->key = cfFdwFromDatum(t, &t->cols[ki], values[ki], NULL, 0);
	if (cf->is_super)
	{
		int			si = t->sc_att - 1;

		if (t->sc_att == 0 || nulls[si])
			cfInvalidRequest("missing mandatory super column name for super CF %s", cf->name);
		a->sc = cfFdwFromDatum(t, &t->cols[si], values[si], NULL, 0);
	}
	if (t->nname == 1)
	{
		int			ni = t->name_att[0] - 1;

		if (nulls[ni])
			cfInvalidRequest("column name must not be empty");
		a->name = cfFdwFromDatum(t, &t->cols[ni], values[ni], NULL, 0);
	}
	else
	{
		StringInfoData buf;
		int			last = -1;

		/* trailing NULL components: a prefix name */
		for (int k = 0; k < t->nname; k++)
			if (!nulls[t->name_att[k] - 1])
				last = k;
		if (last < 0)
			cfInvalidRequest("column name must not be empty");
		initStringInfo(&buf);
		for (int k = 0; k <= last; k++)
		{
			int			ni = t->name_att[k] - 1;

			if (nulls[ni] && cfFdwEmptyIsNull(&t->cols[ni]))
			{
				/* before a given component, a NULL can only be an empty one */
				append_component(&buf, cfMakeBytea("", 0));
				continue;
			}
			if (nulls[ni])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("column \"%s\" of a column name must not be NULL when \"%s\" is given",
								t->cols[ni].attname, t->cols[t->name_att[last] - 1].attname),
						 errhint("Only the last components of a composite name may be left out.")));
			append_component(&buf, cfFdwFromDatum(t, &t->cols[ni], values[ni], NULL, 0));
		}
		a->name = cfMakeBytea(buf.data, buf.len);
	}
}

/* Whether the cell at a is live for snapshot (a one-column slice). */
static bool
cell_is_live(CfFdwModifyState *st, const CfFdwAddress *a, Snapshot snapshot)
{
	CfSliceSpec spec;
	CfSliceState *s;
	CfOutCell	c;
	bool		live;

	memset(&spec, 0, sizeof(spec));
	spec.key = a->key;
	spec.sc = a->sc;
	spec.start = spec.finish = a->name;
	spec.count = 1;
	s = cfSliceBegin(st->rel, &spec, snapshot);
	live = cfSliceNext(s, &c);
	cfSliceEnd(s);
	return live;
}

/*
 * The address of the old row of an UPDATE or DELETE.  A composite name's
 * trailing NULL components are a prefix name, but in every type but text
 * and bytea the empty component reads as NULL too: ('b', NULL) of
 * CompositeType(UTF8Type, LongType) is the cell ('b') or the cell ('b',
 * <empty>).  Then the candidates are looked up with the statement's
 * snapshot, which its scan read with: the one that is live is the row; if
 * several are, the row does not tell which, and the change is refused
 * rather than made to a cell the row may not be.
 */
static void
old_address(CfFdwModifyState *st, EState *estate, const Datum *values, const bool *nulls, CfFdwAddress *a)
{
	const CfFdwTable *t = st->t;
	int			last = -1,
				nempty = 0,
				nlive = 0;
	CfFdwAddress cand;
	StringInfoData buf;

	row_address(t, values, nulls, a);
	if (t->nname < 2)
		return;
	for (int k = 0; k < t->nname; k++)
		if (!nulls[t->name_att[k] - 1])
			last = k;
	/* the trailing NULLs that may be empty components */
	while (last + 1 + nempty < t->nname && cfFdwEmptyIsNull(&t->cols[t->name_att[last + 1 + nempty] - 1]))
		nempty++;
	if (nempty == 0)
		return;
	cand = *a;
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, VARDATA_ANY(a->name), VARSIZE_ANY_EXHDR(a->name));
	for (int n = 0; n <= nempty; n++)
	{
		if (n > 0)
		{
			append_component(&buf, cfMakeBytea("", 0));
			cand.name = cfMakeBytea(buf.data, buf.len);
		}
		if (cell_is_live(st, &cand, estate->es_snapshot))
		{
			if (nlive++ > 0)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("cannot tell which cell of column family %s.%s this row is",
								t->cf->keyspace, t->cf->name),
						 errdetail("Column \"%s\" is NULL, which is how both a name that ends before it and an empty %s component read, and the row's key has a live cell of each kind.",
								   t->cols[t->name_att[last + 1] - 1].attname,
								   format_type_be(t->cols[t->name_att[last + 1] - 1].typid)),
						 errhint("Change or remove the cell with the function API (cfstore.insert, cfstore.remove), which takes the name's bytes.")));
			*a = cand;
		}
	}
}

/* Whether two addresses are the same cell. */
static bool
same_cell(const CfFdwAddress *a, const CfFdwAddress *b)
{
	return bytes_equal(a->key, b->key) && bytes_equal(a->sc, b->sc) && bytes_equal(a->name, b->name);
}

/*
 * The encoding of a row's value for the cell named name.  A NULL is the
 * empty value where reading shows the empty value as NULL (every type but
 * text and bytea); otherwise Cassandra's "Column value is required".
 * Validation is left to cfWriteCell, for Cassandra's message.
 */
static bytea *
row_value(const CfFdwTable *t, const Datum *values, const bool *nulls, const bytea *name)
{
	const CfFdwColumn *col;
	const CfType *validator;

	if (t->value_att == 0)
		cfInvalidRequest("Column value is required");
	col = &t->cols[t->value_att - 1];
	if (nulls[t->value_att - 1])
	{
		if (t->cf->is_counter || col->typid == TEXTOID || col->typid == VARCHAROID || col->typid == BYTEAOID)
			cfInvalidRequest("Column value is required");
		return cfMakeBytea("", 0);
	}
	validator = t->cf->is_counter || t->cf->ncolumns == 0 ? t->cf->default_validator
		: cfCatalogValueValidator(t->cf, (const uint8 *) VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
	return cfArgToBytes(validator, values[t->value_att - 1], col->typid, col->attname);
}

/* A counter value (an 8-byte CounterColumnType encoding) as an integer. */
static int64
counter_of(const bytea *v)
{
	if (VARSIZE_ANY_EXHDR(v) != 8)
		cfInvalidRequest("Expected 8 or 0 byte long (%d)", (int) VARSIZE_ANY_EXHDR(v));
	return (int64) cfReadBe64((const uint8 *) VARDATA_ANY(v));
}

/* A row's ttl (validated as Cassandra does), or false if it is NULL. */
static bool
row_ttl(const CfFdwTable *t, const Datum *values, const bool *nulls, int32 *ttl)
{
	int			ti = t->ttl_att - 1;
	int64		v;

	if (t->ttl_att == 0 || nulls[ti])
		return false;
	v = t->cols[ti].typid == INT8OID ? DatumGetInt64(values[ti]) : DatumGetInt32(values[ti]);
	if (v <= 0)
		cfInvalidRequest("ttl must be positive");
	if (v > CF_FDW_MAX_TTL)
		cfInvalidRequest("ttl is too large. requested (" INT64_FORMAT ") maximum (%d)", v, CF_FDW_MAX_TTL);
	*ttl = (int32) v;
	return true;
}

/* Write one cell version of kind to the cell at a. */
static void
write_cell(CfFdwModifyState *st, const CfFdwAddress *a, CfWriteKind kind, const bytea *value,
		   int64 writetime, bool has_writetime, int32 ttl, bool has_ttl)
{
	CfWrite		w;

	memset(&w, 0, sizeof(w));
	w.cf = st->t->cf;
	w.kind = kind;
	w.key = (const uint8 *) VARDATA_ANY(a->key);
	w.keylen = VARSIZE_ANY_EXHDR(a->key);
	if (a->sc != NULL)
	{
		w.sc = (const uint8 *) VARDATA_ANY(a->sc);
		w.sclen = VARSIZE_ANY_EXHDR(a->sc);
		w.has_sc = true;
	}
	w.name = (const uint8 *) VARDATA_ANY(a->name);
	w.namelen = VARSIZE_ANY_EXHDR(a->name);
	if (value != NULL)
	{
		w.value = (const uint8 *) VARDATA_ANY(value);
		w.valuelen = VARSIZE_ANY_EXHDR(value);
	}
	w.writetime = writetime;
	w.has_writetime = has_writetime;
	w.ttl = ttl;
	w.has_ttl = has_ttl;
	w.cid = st->cid;
	cfWriteCell(st->rel, &w);
}

/*
 * Store in slot the row written, with the writetime and ttl the cell got
 * (for RETURNING and triggers); called in the row's memory context.
 */
static void
return_version(const CfFdwTable *t, TupleTableSlot *slot, int64 writetime, bool has_ttl, int32 ttl)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	Datum	   *values = palloc(sizeof(Datum) * desc->natts);
	bool	   *nulls = palloc(sizeof(bool) * desc->natts);
	MemoryContext old;
	HeapTuple	tuple;

	memcpy(values, slot->tts_values, sizeof(Datum) * desc->natts);
	memcpy(nulls, slot->tts_isnull, sizeof(bool) * desc->natts);
	if (!has_ttl && t->cf->default_time_to_live > 0)
	{
		ttl = t->cf->default_time_to_live;
		has_ttl = true;
	}
	if (t->writetime_att != 0)
	{
		values[t->writetime_att - 1] = Int64GetDatum(writetime);
		nulls[t->writetime_att - 1] = false;
	}
	if (t->ttl_att != 0)
	{
		values[t->ttl_att - 1] = t->cols[t->ttl_att - 1].typid == INT8OID ? Int64GetDatum(ttl)
			: Int32GetDatum(ttl);
		nulls[t->ttl_att - 1] = !has_ttl;
	}
	old = MemoryContextSwitchTo(slot->tts_mcxt);
	tuple = heap_form_tuple(desc, values, nulls);
	MemoryContextSwitchTo(old);
	ExecForceStoreHeapTuple(tuple, slot, true);
}

/* ---------------------------------------------------------------------
 * CQL3 rows (rows 'cql'): a row is the cells cfstore.cql() writes for it
 * (src/cql/cfcql_write.c): in a sparse table its marker (clustering
 * values, '') and a cell (clustering values, column name) per column, in
 * a static column family a cell per column, in a compact table one cell.
 * INSERT writes the marker and the columns that are not NULL; UPDATE the
 * marker and the columns SET, a NULL as a tombstone; DELETE a tombstone
 * for the marker, every column and any other cell of the row (a static
 * row: a row tombstone).  Counters are
 * incremented by new - old, as in the cells' shape.
 * ---------------------------------------------------------------------
 */

/* The row key and, in a table with clustering columns, the name prefix of a CQL row. */
static void
cql_row_address(const CfFdwTable *t, const Datum *values, const bool *nulls, CfFdwAddress *a,
				StringInfo prefix)
{
	StringInfoData key;
	bool		composite_key = t->nkey_parts > 0;

	memset(a, 0, sizeof(*a));
	initStringInfo(&key);
	initStringInfo(prefix);
	for (int i = 0; i < t->natts; i++)
	{
		const CfFdwColumn *col = &t->cols[i];

		if (col->role == CF_FDW_KEY || col->role == CF_FDW_KEY_PART)
		{
			bytea	   *b;

			if (nulls[i])
				cfInvalidRequest("Invalid null value for partition key part %s", col->attname);
			b = cfFdwFromDatum(t, col, values[i], NULL, 0);
			if (composite_key)
				continue;		/* put together in key order below */
			a->key = b;
		}
	}
	if (composite_key)
		for (int part = 0; part < t->nkey_parts; part++)
			for (int i = 0; i < t->natts; i++)
				if (t->cols[i].role == CF_FDW_KEY_PART && t->cols[i].component == part)
					append_component(&key, cfFdwFromDatum(t, &t->cols[i], values[i], NULL, 0));
	if (composite_key)
		a->key = cfMakeBytea(key.data, key.len);
	if (VARSIZE_ANY_EXHDR(a->key) == 0)
		cfInvalidRequest("Key may not be empty");
	for (int k = 0; k < t->nname; k++)
	{
		int			ni = t->name_att[k] - 1;
		bytea	   *b;

		if (nulls[ni])
			cfInvalidRequest("Invalid null value for clustering key part %s", t->cols[ni].attname);
		b = cfFdwFromDatum(t, &t->cols[ni], values[ni], NULL, 0);
		if (t->rows == CF_FDW_ROWS_DENSE && t->nametype->kind != CF_COMPOSITE)
			appendBinaryStringInfo(prefix, VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
		else
			append_component(prefix, b);
	}
}

/* The name of a CQL row's cell for column col (NULL: the marker, or a compact row's cell). */
static bytea *
cql_cell_name(const CfFdwTable *t, const StringInfo prefix, const CfFdwColumn *col)
{
	StringInfoData buf;

	if (t->rows == CF_FDW_ROWS_STATIC)
		return col->cell_name;
	if (t->rows == CF_FDW_ROWS_DENSE)
		return cfMakeBytea(prefix->data, prefix->len);
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, prefix->data, prefix->len);
	append_component(&buf, col ? col->cell_name : cfMakeBytea("", 0));
	return cfMakeBytea(buf.data, buf.len);
}

/* Write the columns of a CQL row: given (by attnum - 1) says which; old: a counter's old values. */
static void
cql_write_row(CfFdwModifyState *st, const Datum *values, const bool *nulls, const bool *given,
			  const Datum *ovalues, const bool *onulls, bool insert)
{
	const CfFdwTable *t = st->t;
	CfFdwAddress a;
	StringInfoData prefix;
	int64		now = cfNowMicros();

	cql_row_address(t, values, nulls, &a, &prefix);
	if (t->rows == CF_FDW_ROWS_SPARSE && !t->cf->is_counter)
	{
		a.name = cql_cell_name(t, &prefix, NULL);
		write_cell(st, &a, CF_WRITE_COLUMN, cfMakeBytea("", 0), now, true, 0, false);
	}
	if (t->rows == CF_FDW_ROWS_DENSE && t->value_att == 0)
	{
		a.name = cql_cell_name(t, &prefix, NULL);
		write_cell(st, &a, CF_WRITE_COLUMN, cfMakeBytea("", 0), now, true, 0, false);
	}
	if (t->rows == CF_FDW_ROWS_DENSE && t->value_att != 0 && insert && nulls[t->value_att - 1])
		cfInvalidRequest("Missing mandatory column %s", t->cols[t->value_att - 1].attname);
	for (int i = 0; i < t->natts; i++)
	{
		const CfFdwColumn *col = &t->cols[i];

		if (col->role == CF_FDW_OBJECT && given[i] && !nulls[i])
			cfInvalidRequest("column %s is the object of the row's cells; write objects with cfstore.put_object",
							 col->attname);
		if ((col->role != CF_FDW_CELL && col->role != CF_FDW_VALUE) || !given[i] || (insert && nulls[i]))
			continue;
		a.name = cql_cell_name(t, &prefix, col->role == CF_FDW_CELL ? col : NULL);
		if (t->cf->is_counter)
		{
			int64		delta;
			uint64		be;

			if (nulls[i])
				cfInvalidRequest("Invalid null value for counter increment/decrement");
			delta = (int64) ((uint64) counter_of(cfFdwFromDatum(t, col, values[i], NULL, 0)) -
							 (uint64) (ovalues == NULL || onulls[i] ? 0
									   : counter_of(cfFdwFromDatum(t, col, ovalues[i], NULL, 0))));
			if (delta != 0)
			{
				be = pg_hton64((uint64) delta);
				write_cell(st, &a, CF_WRITE_COUNTER, cfMakeBytea(&be, 8), 0, false, 0, false);
			}
		}
		else if (nulls[i])
			write_cell(st, &a, CF_WRITE_TOMBSTONE, NULL, now, true, 0, false);
		else
			write_cell(st, &a, CF_WRITE_COLUMN,
					   cfFdwFromDatum(t, col, values[i], (const uint8 *) VARDATA_ANY(a.name),
									  VARSIZE_ANY_EXHDR(a.name)), now, true, 0, false);
	}
}

/*
 * Delete a CQL row as cql() does: a sparse row, one range tombstone over
 * its clustering prefix (a counter table's, a tombstone for each of its
 * live counters); a static row, a row tombstone; a compact row, a
 * tombstone for its cell.
 */
static void
cql_delete_row(CfFdwModifyState *st, EState *estate, const Datum *values, const bool *nulls)
{
	const CfFdwTable *t = st->t;
	CfFdwAddress a;
	StringInfoData prefix;
	int64		now = cfNowMicros();

	cql_row_address(t, values, nulls, &a, &prefix);
	if (t->rows == CF_FDW_ROWS_STATIC)
	{
		a.name = cfMakeBytea("", 0);
		write_cell(st, &a, CF_WRITE_TOMBSTONE, NULL, now, true, 0, false);
		return;
	}
	if (t->rows == CF_FDW_ROWS_DENSE)
	{
		a.name = cql_cell_name(t, &prefix, NULL);
		write_cell(st, &a, CF_WRITE_TOMBSTONE, NULL, now, true, 0, false);
		return;
	}
	if (!t->cf->is_counter)
	{
		/* one range tombstone over the row's prefix, as cql() writes (cfcql_write.c) */
		StringInfoData hi;

		initStringInfo(&hi);
		appendBinaryStringInfo(&hi, prefix.data, prefix.len);
		if (hi.len > 0)
			hi.data[hi.len - 1] = 1;	/* after every name under the prefix */
		a.name = cfMakeBytea(prefix.data, prefix.len);
		write_cell(st, &a, prefix.len > 0 ? CF_WRITE_RANGE_TOMBSTONE : CF_WRITE_TOMBSTONE,
				   cfMakeBytea(hi.data, hi.len), now, true, 0, false);
		return;
	}
	{
		CfSliceSpec spec;
		CfSliceState *slice;
		CfOutCell	c;
		List	   *names = NIL;
		ListCell   *lc;
		StringInfoData hi;

		initStringInfo(&hi);
		appendBinaryStringInfo(&hi, prefix.data, prefix.len);
		if (hi.len > 0)
			hi.data[hi.len - 1] = 1;	/* after every name under the prefix */
		memset(&spec, 0, sizeof(spec));
		spec.key = a.key;
		spec.start = prefix.len > 0 ? cfMakeBytea(prefix.data, prefix.len) : NULL;
		spec.finish = hi.len > 0 ? cfMakeBytea(hi.data, hi.len) : NULL;
		spec.count = PG_INT64_MAX;
		slice = cfSliceBegin(st->rel, &spec, estate->es_snapshot);
		while (cfSliceNext(slice, &c))		/* (a name is valid until the next call) */
			names = lappend(names, cfMakeBytea(VARDATA_ANY(c.name), VARSIZE_ANY_EXHDR(c.name)));
		cfSliceEnd(slice);
		foreach(lc, names)
		{
			a.name = lfirst(lc);
			write_cell(st, &a, CF_WRITE_TOMBSTONE, NULL, now, true, 0, false);
		}
	}
}

/* Write the cell a row of INSERT gives. */
static void
insert_row(CfFdwModifyState *st, ResultRelInfo *rinfo, TupleTableSlot *slot)
{
	const CfFdwTable *t = st->t;
	MemoryContext old;
	CfFdwAddress a;
	bytea	   *value;
	int64		writetime;
	bool		given_writetime;
	int32		ttl = 0;
	bool		has_ttl;

	MemoryContextReset(st->rowcxt);
	old = MemoryContextSwitchTo(st->rowcxt);
	slot_getallattrs(slot);
	if (t->rows != CF_FDW_ROWS_CELLS)
	{
		bool	   *given = palloc(sizeof(bool) * Max(t->natts, 1));

		if (t->cf->is_counter)
			cfInvalidRequest("INSERT statement are not allowed on counter tables, use UPDATE instead");
		memset(given, true, sizeof(bool) * Max(t->natts, 1));
		cql_write_row(st, slot->tts_values, slot->tts_isnull, given, NULL, NULL, true);
		MemoryContextSwitchTo(old);
		return;
	}
	row_address(t, slot->tts_values, slot->tts_isnull, &a);
	if (t->cf->is_counter)
	{
		value = row_value(t, slot->tts_values, slot->tts_isnull, a.name);
		write_cell(st, &a, CF_WRITE_COUNTER, value, 0, false, 0, false);
		MemoryContextSwitchTo(old);
		return;
	}
	has_ttl = row_ttl(t, slot->tts_values, slot->tts_isnull, &ttl);
	value = row_value(t, slot->tts_values, slot->tts_isnull, a.name);
	given_writetime = t->writetime_att != 0 && !slot->tts_isnull[t->writetime_att - 1];
	writetime = given_writetime ? DatumGetInt64(slot->tts_values[t->writetime_att - 1]) : cfNowMicros();
	write_cell(st, &a, CF_WRITE_COLUMN, value, writetime, true, ttl, has_ttl);
	if (rinfo->ri_projectReturning != NULL || rinfo->ri_TrigDesc != NULL)
		return_version(t, slot, writetime, has_ttl, ttl);
	MemoryContextSwitchTo(old);
}

/* ExecForeignInsert. */
static TupleTableSlot *
cfFdwExecForeignInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot, TupleTableSlot *planSlot)
{
	(void) estate;
	(void) planSlot;
	insert_row((CfFdwModifyState *) rinfo->ri_FdwState, rinfo, slot);
	return slot;
}

/* ExecForeignBatchInsert: the rows of a batch, in order. */
static TupleTableSlot **
cfFdwExecForeignBatchInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot **slots, TupleTableSlot **planSlots,
					 int *numSlots)
{
	CfFdwModifyState *st = (CfFdwModifyState *) rinfo->ri_FdwState;

	(void) estate;
	(void) planSlots;
	for (int i = 0; i < *numSlots; i++)
	{
		insert_row(st, rinfo, slots[i]);
		CHECK_FOR_INTERRUPTS();
	}
	return slots;
}

/* Append a part of a row's identity: its length (-1: NULL), then its bytes. */
static void
append_id_part(StringInfo buf, const bytea *b)
{
	int32		len = b == NULL ? -1 : (int32) VARSIZE_ANY_EXHDR(b);

	appendBinaryStringInfo(buf, (const char *) &len, sizeof(len));
	if (b != NULL)
		appendBinaryStringInfo(buf, VARDATA_ANY(b), len);
}

/*
 * Whether UPDATE or DELETE meets this old row (its identity columns in
 * values) for the first time in the statement.  A join can bring the same
 * target row more than once (UPDATE ... FROM with several matches):
 * PostgreSQL changes such a row once, as its first match says, and counts
 * it once; the later matches are skipped.  The identity is the row's
 * address: key, super column and name, or a CQL row's key and clustering
 * prefix.  A statement of the one table meets each row once (st->done is
 * NULL).
 */
static bool
first_time(CfFdwModifyState *st, const Datum *values, const bool *nulls)
{
	CfFdwAddress a;
	StringInfoData id;
	CfRowId		key;
	CfRowId    *entry;
	bool		found;

	if (st->done == NULL)
		return true;
	initStringInfo(&id);
	if (st->t->rows == CF_FDW_ROWS_CELLS)
	{
		row_address(st->t, values, nulls, &a);
		append_id_part(&id, a.key);
		append_id_part(&id, a.sc);
		append_id_part(&id, a.name);
	}
	else
	{
		StringInfoData prefix;

		cql_row_address(st->t, values, nulls, &a, &prefix);
		append_id_part(&id, a.key);
		append_id_part(&id, cfMakeBytea(prefix.data, prefix.len));
	}
	key.id = cfMakeBytea(id.data, id.len);
	entry = hash_search(st->done, &key, HASH_ENTER, &found);
	if (!found)
	{
		MemoryContext old = MemoryContextSwitchTo(st->donecxt);

		entry->id = cfMakeBytea(id.data, id.len);
		MemoryContextSwitchTo(old);
	}
	return !found;
}

/*
 * The old row of UPDATE or DELETE, as much of it as the junk columns
 * carry (the address; the value of a counter), by attnum - 1.
 */
static void
old_row(CfFdwModifyState *st, TupleTableSlot *planSlot, Datum *values, bool *nulls)
{
	for (int i = 0; i < st->t->natts; i++)
	{
		values[i] = (Datum) 0;
		nulls[i] = true;
		if (st->old_att[i] != 0)
			values[i] = ExecGetJunkAttribute(planSlot, st->old_att[i], &nulls[i]);
	}
}

/* ExecForeignUpdate: a new version of the cell, moved if its address changed. */
static TupleTableSlot *
cfFdwExecForeignUpdate(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot, TupleTableSlot *planSlot)
{
	CfFdwModifyState *st = (CfFdwModifyState *) rinfo->ri_FdwState;
	const CfFdwTable *t = st->t;
	MemoryContext old;
	Datum	   *ovalues;
	bool	   *onulls;
	CfFdwAddress oa,
				a;
	bytea	   *value;
	int64		writetime;
	int32		ttl = 0;
	bool		has_ttl = false;

	(void) estate;
	MemoryContextReset(st->rowcxt);
	old = MemoryContextSwitchTo(st->rowcxt);
	ovalues = palloc(sizeof(Datum) * Max(t->natts, 1));
	onulls = palloc(sizeof(bool) * Max(t->natts, 1));
	old_row(st, planSlot, ovalues, onulls);
	if (!first_time(st, ovalues, onulls))
	{
		MemoryContextSwitchTo(old);
		return NULL;
	}
	slot_getallattrs(slot);
	if (t->rows != CF_FDW_ROWS_CELLS)
	{
		cql_write_row(st, slot->tts_values, slot->tts_isnull, st->set_cols, ovalues, onulls, false);
		MemoryContextSwitchTo(old);
		return slot;
	}
	old_address(st, estate, ovalues, onulls, &oa);
	row_address(t, slot->tts_values, slot->tts_isnull, &a);
	if (t->cf->is_counter)
	{
		int64		delta;
		uint64		be;

		if (!same_cell(&oa, &a))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot change the key or name of a counter"),
					 errhint("Delete the counter and insert the new one.")));
		value = row_value(t, slot->tts_values, slot->tts_isnull, a.name);
		if (onulls[t->value_att - 1])
			elog(ERROR, "counter UPDATE without the old value");
		/* counters add modulo 2^64: the new total is exact even when this wraps */
		delta = (int64) ((uint64) counter_of(value) -
						 (uint64) counter_of(row_value(t, ovalues, onulls, oa.name)));
		if (delta != 0)
		{
			be = pg_hton64((uint64) delta);
			write_cell(st, &a, CF_WRITE_COUNTER, cfMakeBytea(&be, 8), 0, false, 0, false);
		}
		MemoryContextSwitchTo(old);
		return slot;
	}
	if (st->set_ttl)
		has_ttl = row_ttl(t, slot->tts_values, slot->tts_isnull, &ttl);
	value = row_value(t, slot->tts_values, slot->tts_isnull, a.name);
	if (st->set_writetime && !slot->tts_isnull[t->writetime_att - 1])
		writetime = DatumGetInt64(slot->tts_values[t->writetime_att - 1]);
	else
		writetime = cfNowMicros();
	if (!same_cell(&oa, &a))
		write_cell(st, &oa, CF_WRITE_TOMBSTONE, NULL, writetime, true, 0, false);
	write_cell(st, &a, CF_WRITE_COLUMN, value, writetime, true, ttl, has_ttl);
	if (rinfo->ri_projectReturning != NULL || rinfo->ri_TrigDesc != NULL)
		return_version(t, slot, writetime, has_ttl, ttl);
	MemoryContextSwitchTo(old);
	return slot;
}

/* ExecForeignDelete: a tombstone of the cell (the old row comes back for RETURNING). */
static TupleTableSlot *
cfFdwExecForeignDelete(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot, TupleTableSlot *planSlot)
{
	CfFdwModifyState *st = (CfFdwModifyState *) rinfo->ri_FdwState;
	const CfFdwTable *t = st->t;
	MemoryContext old;
	Datum	   *ovalues;
	bool	   *onulls;
	CfFdwAddress oa;

	(void) estate;
	MemoryContextReset(st->rowcxt);
	old = MemoryContextSwitchTo(st->rowcxt);
	ovalues = palloc(sizeof(Datum) * Max(t->natts, 1));
	onulls = palloc(sizeof(bool) * Max(t->natts, 1));
	old_row(st, planSlot, ovalues, onulls);
	if (!first_time(st, ovalues, onulls))
	{
		MemoryContextSwitchTo(old);
		return NULL;
	}
	if (t->rows != CF_FDW_ROWS_CELLS)
		cql_delete_row(st, estate, ovalues, onulls);
	else
	{
		old_address(st, estate, ovalues, onulls, &oa);
		write_cell(st, &oa, CF_WRITE_TOMBSTONE, NULL, 0, false, 0, false);
	}
	MemoryContextSwitchTo(old);
	if (st->wholerow_att != 0)
	{
		bool		isnull;
		Datum		d = ExecGetJunkAttribute(planSlot, st->wholerow_att, &isnull);
		HeapTupleHeader td;
		HeapTupleData tuple;
		HeapTuple	copy;

		if (isnull)
			elog(ERROR, "wholerow is NULL");
		td = DatumGetHeapTupleHeader(d);
		tuple.t_len = HeapTupleHeaderGetDatumLength(td);
		ItemPointerSetInvalid(&tuple.t_self);
		tuple.t_tableOid = RelationGetRelid(rinfo->ri_RelationDesc);
		tuple.t_data = td;
		old = MemoryContextSwitchTo(slot->tts_mcxt);
		copy = heap_copytuple(&tuple);
		MemoryContextSwitchTo(old);
		ExecForceStoreHeapTuple(copy, slot, true);
	}
	return slot;
}

/* ---------------------------------------------------------------------
 * TRUNCATE
 * ---------------------------------------------------------------------
 */

/* ExecForeignTruncate: cfstore.truncate of each table's column family. */
static void
cfFdwExecForeignTruncate(List *rels, DropBehavior behavior, bool restart_seqs)
{
	Oid			argtypes[2] = {TEXTOID, TEXTOID};
	Oid			fn = LookupFuncName(list_make2(makeString("cfstore"), makeString("truncate")), 2, argtypes,
									false);
	ListCell   *lc;

	(void) behavior;
	(void) restart_seqs;
	foreach(lc, rels)
	{
		CfFdwTable *t = cfFdwTableGet(RelationGetRelid((Relation) lfirst(lc)));
		char		keyspace[CF_NAME_BUFSIZE];
		char		name[CF_NAME_BUFSIZE];

		check_privilege(t, ACL_TRUNCATE);
		/* the map may be rebuilt meanwhile: keep the names */
		strlcpy(keyspace, t->cf->keyspace, sizeof(keyspace));
		strlcpy(name, t->cf->name, sizeof(name));
		OidFunctionCall2(fn, CStringGetTextDatum(keyspace), CStringGetTextDatum(name));
	}
}

/* Install the modification callbacks. */
void
cfFdwModifyRoutines(FdwRoutine *routine)
{
	routine->AddForeignUpdateTargets = cfFdwAddForeignUpdateTargets;
	routine->IsForeignRelUpdatable = cfFdwIsForeignRelUpdatable;
	routine->PlanForeignModify = cfFdwPlanForeignModify;
	routine->BeginForeignModify = cfFdwBeginForeignModify;
	routine->ExecForeignInsert = cfFdwExecForeignInsert;
	routine->ExecForeignBatchInsert = cfFdwExecForeignBatchInsert;
	routine->GetForeignModifyBatchSize = cfFdwGetForeignModifyBatchSize;
	routine->ExecForeignUpdate = cfFdwExecForeignUpdate;
	routine->ExecForeignDelete = cfFdwExecForeignDelete;
	routine->EndForeignModify = cfFdwEndForeignModify;
	routine->ExplainForeignModify = cfFdwExplainForeignModify;
	routine->BeginForeignInsert = cfFdwBeginForeignInsert;
	routine->EndForeignInsert = cfFdwEndForeignInsert;
	routine->ExecForeignTruncate = cfFdwExecForeignTruncate;
}
