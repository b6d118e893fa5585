/*-------------------------------------------------------------------------
 *
 * cfwrite.c
 *	  Writing one cell version (see cfwrite.h).
 *
 * Validation uses Cassandra's InvalidRequestException texts
 * (doc/semantics.md §1, §3, §6, §11) with SQLSTATE 22023, plus
 * cfstore's own page-size limits (54000).  A write is append-only: a new
 * version of a column, a counter increment, or a tombstone, stamped with
 * the current transaction and command; readers reconcile.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "datatype/timestamp.h"
#include "pgstat.h"
#include "tcop/utility.h"
#include "utils/timestamp.h"

#include "storage/cfstorage.h"
#include "storage/cfwrite.h"

#define CF_MAX_TTL 630720000
#define CF_MAX_NAME 65535

/* Now, in microseconds since 1970 (Cassandra's timestamp convention). */
int64
cfNowMicros(void)
{
	return (int64) GetCurrentTimestamp() +
		(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC;
}

/*
 * A strictly increasing timestamp for counter writes of this backend, so
 * that an increment after a counter deletion always wins (§7).
 */
static int64
counter_timestamp(void)
{
	static int64 last = 0;
	int64		now = cfNowMicros();

	last = now > last ? now : last + 1;
	return last;
}

/*
 * Raise an invalid-request error: Cassandra's InvalidRequestException,
 * SQLSTATE 22023, with the message formatted in full however long.
 */
void
cfInvalidRequest(const char *fmt,...)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (;;)
	{
		va_list		ap;
		int			needed;

		va_start(ap, fmt);
		needed = appendStringInfoVA(&buf, fmt, ap);
		va_end(ap);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", buf.data)));
	pg_unreachable();
}

/* Validate a row key (§1, §11). */
void
cfValidateKey(const CfColumnFamily *cf, const uint8 *key, int len)
{
	char	   *msg;

	if (len == 0)
		cfInvalidRequest("Key may not be empty");
	if (len > CF_MAX_NAME)
		cfInvalidRequest("Key length of %d is longer than maximum of 65535", len);
	msg = cfTypeValidateMessage(cf->key_validator, key, len);
	if (msg)
		cfInvalidRequest("%s", msg);
}

/* Validate a column or super column name under its comparator (§1, §3). */
void
cfValidateName(const CfType *type, const uint8 *name, int len, bool super)
{
	char	   *msg;

	if (len == 0)
		cfInvalidRequest("%s", super ? "supercolumn name must not be empty" : "column name must not be empty");
	if (len > CF_MAX_NAME)
		cfInvalidRequest("%s", super ? "supercolumn name length must not be greater than 65535"
						: "column name length must not be greater than 65535");
	msg = cfTypeValidateMessage(type, name, len);
	if (msg)
		cfInvalidRequest("%s", msg);
}

/* A name as Cassandra's comparator.getString renders it in messages. */
static char *
name_for_message(const CfType *type, const uint8 *name, int len)
{
	if (type->kind == CF_BYTES)
	{
		char	   *hex = palloc(len * 2 + 1);

		for (int i = 0; i < len; i++)
			sprintf(hex + i * 2, "%02x", name[i]);
		hex[len * 2] = '\0';
		return hex;
	}
	return cfTypeToString(type, name, len);
}

/*
 * Check a range tombstone's shape: a standard column family of values, and
 * bounds that are valid names (or slice bounds) in order; an empty start
 * is the row's beginning, an empty finish its end.
 */
static void
range_check(const CfColumnFamily *cf, const CfWrite *w)
{
	if (cf->is_super)
		cfInvalidRequest("range deletions are not supported in super column family %s", cf->name);
	if (cf->is_counter)
		cfInvalidRequest("invalid operation for commutative columnfamily %s", cf->name);
	if (w->namelen > PG_UINT16_MAX || w->valuelen > PG_UINT16_MAX)
		cfInvalidRequest("range start or finish length must not be greater than 65535");
	if (w->namelen > 0)
		cfValidateName(cf->comparator, w->name, w->namelen, false);
	if (w->valuelen > 0)
		cfValidateName(cf->comparator, w->value, w->valuelen, false);
	if (w->namelen > 0 && w->valuelen > 0 &&
		cfTypeCompare(cf->comparator, w->name, w->namelen, w->value, w->valuelen) > 0)
		cfInvalidRequest("range finish must come after start in the order of traversal");
}

/* Write one cell version into the column family's storage relation. */
void
cfWriteCell(Relation rel, const CfWrite *w)
{
	const CfColumnFamily *cf = w->cf;
	const CfType *namecmp = cf->is_super ? cf->subcomparator : cf->comparator;
	CfRun		run;
	CfCell		cell;
	uint8		deltime[4];
	uint8		nameref[CF_LONGREF_SIZE];
	uint8		valueref[CF_LONGREF_SIZE];
	uint32		now_sec;
	int64		now_us = cfNowMicros();

	now_sec = (uint32) (now_us / USECS_PER_SEC);

	/* as heap's DML: a read-only transaction writes nothing (a map's SELECT calling insert()) */
	if (XactReadOnly)
		PreventCommandIfReadOnly(psprintf("a write to column family %s.%s", cf->keyspace, cf->name));

	/* shape and names */
	cfValidateKey(cf, w->key, w->keylen);
	if (w->kind == CF_WRITE_RANGE_TOMBSTONE)
		range_check(cf, w);
	else if (cf->is_super && !w->has_sc && !(w->kind == CF_WRITE_TOMBSTONE && w->namelen == 0))
		cfInvalidRequest("missing mandatory super column name for super CF %s", cf->name);
	if (!cf->is_super && w->has_sc)
		cfInvalidRequest("supercolumn may not be specified for standard CF %s", cf->name);
	if (w->has_sc)
		cfValidateName(cf->comparator, w->sc, w->sclen, true);
	if (w->kind != CF_WRITE_TOMBSTONE ? w->kind != CF_WRITE_RANGE_TOMBSTONE : w->namelen > 0)
		cfValidateName(namecmp, w->name, w->namelen, false);
	if (w->kind == CF_WRITE_COLUMN && cf->is_counter)
		cfInvalidRequest("invalid operation for commutative columnfamily %s", cf->name);
	if (w->kind == CF_WRITE_COUNTER && !cf->is_counter)
		cfInvalidRequest("invalid operation for non commutative columnfamily %s", cf->name);

	memset(&cell, 0, sizeof(cell));
	cell.name = w->name;
	cell.namelen = w->kind == CF_WRITE_RANGE_TOMBSTONE ? 0 : w->namelen;
	if (!TransactionIdIsValid(w->xmin))
	{
		cell.xmin = GetCurrentTransactionId();
		cell.cmin = w->cid;
	}
	else if (w->xmin == FrozenTransactionId)
	{
		cell.xmin = FrozenTransactionId;
		cell.flags |= CF_CELL_FROZEN;
	}
	else
	{
		cell.xmin = w->xmin;
		cell.flags |= CF_CELL_XMIN_COMMITTED;
	}

	switch (w->kind)
	{
		case CF_WRITE_COLUMN:
			{
				const CfType *validator = cfCatalogValueValidator(cf, w->name, w->namelen);
				char	   *msg = cfTypeValidateMessage(validator, w->value, w->valuelen);
				int32		ttl = w->has_ttl ? w->ttl
					: w->exact_ttl ? 0 : cf->default_time_to_live;

				if (msg)
					cfInvalidRequest("(%s) [%s][%s][%s] failed validation", msg,
									 cf->keyspace, cf->name,
									 name_for_message(namecmp, w->name, w->namelen));
				if (w->has_ttl && w->ttl <= 0)
					cfInvalidRequest("ttl must be positive");
				if (ttl > CF_MAX_TTL)
					cfInvalidRequest("ttl is too large. requested (%d) maximum (%d)", ttl, CF_MAX_TTL);
				cell.value = w->value;
				cell.valuelen = w->valuelen;
				cell.writetime = w->has_writetime ? w->writetime : now_us;
				if (ttl > 0)
				{
					cell.flags |= CF_CELL_EXPIRING;
					cell.ttl = ttl;
					cell.expires_at = w->expires_at != 0 ? w->expires_at : now_sec + (uint32) ttl;
				}
				break;
			}
		case CF_WRITE_COUNTER:
			if (w->valuelen != 8)
				cfInvalidRequest("Expected 8 or 0 byte long (%d)", w->valuelen);
			/* a row written into the storage relation may name one: counters never expire */
			if ((w->has_ttl && w->ttl != 0) || w->expires_at != 0)
				cfInvalidRequest("Cannot provide custom TTL for counter updates");
			cell.flags |= CF_CELL_COUNTER;
			cell.value = w->value;
			cell.valuelen = 8;
			cell.writetime = counter_timestamp();
			break;
		case CF_WRITE_TOMBSTONE:
			cell.flags |= CF_CELL_TOMBSTONE;
			deltime[0] = (uint8) (now_sec >> 24);
			deltime[1] = (uint8) (now_sec >> 16);
			deltime[2] = (uint8) (now_sec >> 8);
			deltime[3] = (uint8) now_sec;
			cell.value = deltime;
			cell.valuelen = 4;
			/* counter deletions use the server's clock (§7) */
			cell.writetime = cf->is_counter ? counter_timestamp()
				: (w->has_writetime ? w->writetime : now_us);
			break;
		case CF_WRITE_RANGE_TOMBSTONE:
			{
				StringInfoData value;

				/* a version of the row's tombstone column whose value holds the range */
				initStringInfo(&value);
				cfRangeDelEncode(&value, now_sec, w->name, w->namelen, w->value, w->valuelen);
				cell.flags |= CF_CELL_TOMBSTONE;
				cell.name = (const uint8 *) "";
				cell.value = (const uint8 *) value.data;
				cell.valuelen = value.len;
				cell.writetime = w->has_writetime ? w->writetime : now_us;
				break;
			}
	}

	/* a sharded column family's cells are written on its shard */
	if (cfRelSharded(rel))
	{
		cfRemoteStorage(rel)->write_cell(rel, w);
		return;
	}

	/* the column family's indexes follow the write (cfindex.c) */
	if (cf->nindexes > 0)
		cfIndexWrite(rel, w, &cell);

	/*
	 * Values are compressed as the column family says (cfcompress.c), then
	 * long names and values go out of line (cfoverflow.c).
	 */
	if (CfPartIsLong(cell.namelen))
	{
		cfOverflowWrite(rel, cell.name, cell.namelen, nameref);
		cell.nameref = nameref;
	}
	if (w->kind == CF_WRITE_COLUMN && cf->compression != CF_COMPRESSION_NONE &&
		cell.valuelen >= CF_COMPRESS_MIN)
	{
		uint8	   *form = palloc(CF_COMPRESS_BOUND(cell.valuelen));
		int			len = cfValueCompress(rel, cf->compression, cell.value, cell.valuelen, form);

		if (len > 0)
		{
			cell.value = form;
			cell.valuelen = len;
			cell.compressed = true;
		}
	}
	if (cell.valuelen > CF_VALUE_INLINE)
	{
		cfOverflowWrite(rel, cell.value, cell.valuelen, valueref);
		cell.value = valueref;
		cell.valuelen = CF_LONGREF_SIZE;
		cell.flags |= CF_CELL_LONG_VALUE;
	}

	memset(&run, 0, sizeof(run));
	run.key = w->key;
	run.keylen = w->keylen;
	run.sc = w->has_sc ? w->sc : (const uint8 *) "";
	run.sclen = w->has_sc ? w->sclen : 0;
	run.ncells = 1;
	run.timeuuid_names = false;
	run.cells = &cell;
	cfInsertCell(rel, cfRelInfo(rel), &run);
	pgstat_count_heap_insert(rel, 1);
}
