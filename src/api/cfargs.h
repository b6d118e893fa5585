/*-------------------------------------------------------------------------
 *
 * cfargs.h
 *	  The "any" argument slots of the SQL API (README.md, "Reading and
 *	  writing"): convert a
 *	  row key, column name, super column name or value of any supported SQL
 *	  type into the Cassandra byte encoding of the type governing the slot.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CFARGS_H
#define CFARGS_H

#include "postgres.h"

#include "marshal/cftype.h"

/*
 * Encode one "any" argument (not NULL) of SQL type argtype for the
 * Cassandra type `type`.  `slot` names the argument in error messages
 * ("key", "column_name", "value", ...).  bytea arguments are returned as
 * their raw bytes WITHOUT validation (the caller validates with the
 * context-specific message; the result may share memory with the
 * argument); every other conversion yields bytes valid for `type`.
 */
extern bytea *cfArgToBytes(const CfType *type, Datum value, Oid argtype,
						   const char *slot);

/*
 * Encode every element of an array argument (NULL elements are an error
 * naming the slot); returns a palloc'd array of bytea pointers and sets
 * *n.  A non-array argtype is an error.  Elements follow cfArgToBytes's
 * rules (bytea elements are not validated).
 */
extern bytea **cfArgArrayToBytes(const CfType *type, Datum value, Oid argtype,
								 const char *slot, int *n);

/* The oid of cfstore.timeuuid (InvalidOid if it does not exist). */
extern Oid	cfTimeuuidOid(void);

#endif							/* CFARGS_H */
