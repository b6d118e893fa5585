/*-------------------------------------------------------------------------
 *
 * cfwrite.h
 *	  Writing one cell version: validation, timestamps and TTL, then the
 *	  tree insertion.  Shared by the API functions and the table AM's
 *	  INSERT / COPY path.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFWRITE_H
#define CFWRITE_H

#include "postgres.h"

#include "utils/rel.h"

#include "catalog/cfcatalog.h"
#include "storage/cfstorage.h"

typedef enum CfWriteKind
{
	CF_WRITE_COLUMN,			/* a column (or subcolumn) value */
	CF_WRITE_COUNTER,			/* a counter increment (value = 8-byte delta) */
	CF_WRITE_TOMBSTONE,			/* a column, super column or row deletion */
	CF_WRITE_RANGE_TOMBSTONE	/* the deletion of the row's columns in [name, value]
								 * (an empty value: to the row's end; cfrangedel.c) */
} CfWriteKind;

/* One cell version to write; byte strings are the Cassandra encodings. */
typedef struct CfWrite
{
	const CfColumnFamily *cf;
	CfWriteKind kind;
	const uint8 *key;
	int			keylen;
	const uint8 *sc;			/* super column (has_sc) */
	int			sclen;
	bool		has_sc;
	const uint8 *name;			/* empty for a row or super column tombstone */
	int			namelen;
	const uint8 *value;
	int			valuelen;
	int64		writetime;
	bool		has_writetime;	/* else now, in microseconds */
	int32		ttl;
	bool		has_ttl;		/* else the column family's default_time_to_live */
	bool		exact_ttl;		/* no ttl means none, not the default (rows of
								 * the storage relation: restores, VACUUM FULL) */
	uint32		expires_at;		/* with ttl: keep this expiry (restores), 0 = now + ttl */
	CommandId	cid;
	/*
	 * Invalid: the cell is the current transaction's (cid).  Else the
	 * committed transaction whose cell VACUUM FULL copies, or
	 * FrozenTransactionId for one every snapshot sees.
	 */
	TransactionId xmin;
} CfWrite;

extern void cfInvalidRequest(const char *fmt,...) pg_attribute_printf(1, 2) pg_attribute_noreturn();
extern void cfWriteCell(Relation rel, const CfWrite *w);
extern void cfValidateKey(const CfColumnFamily *cf, const uint8 *key, int len);
extern void cfValidateName(const CfType *type, const uint8 *name, int len, bool super);
extern int64 cfNowMicros(void);

/* Secondary indexes (cfindex.c) */
extern void cfIndexWrite(Relation rel, const CfWrite *w, const CfCell *cell);
extern void cfIndexVerify(Relation rel, const CfColumnFamily *cf, void (*check_tree) (Relation, Relation));

#endif							/* CFWRITE_H */
