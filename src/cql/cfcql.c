/*-------------------------------------------------------------------------
 *
 * cfcql.c
 *	  cfstore.cql(statement, keyspace): one CQL3 statement (cfcql.h).
 *
 * The statement is parsed, then run over SPI with search_path pinned, in
 * the caller's transaction and as the caller: a statement that fails
 * changes nothing.  SELECT returns a jsonb object per CQL row; the other
 * statements return no rows.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "cql/cfcql.h"
#include "storage/cfwrite.h"

PG_FUNCTION_INFO_V1(cfstore_cql);

/* cql(statement text, keyspace text DEFAULT NULL) RETURNS SETOF jsonb */
Datum
cfstore_cql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *sql;
	char	   *keyspace = PG_ARGISNULL(1) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(1));
	CfCqlStmt  *stmt;
	int			pin;
	int64		now = cfNowMicros();

	if (PG_ARGISNULL(0))
		cfInvalidRequest("a CQL statement is required");
	sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	stmt = cfCqlParse(sql);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pin = cfSearchPathPin();
	switch (stmt->kind)
	{
		case CQL_USE:
			cfInvalidRequest("USE is not supported by cfstore.cql(): give the keyspace as its second argument");
			break;
		case CQL_SELECT:
			cfCqlRunSelect(stmt, keyspace, rsinfo->setResult, rsinfo->setDesc);
			break;
		case CQL_INSERT:
		case CQL_UPDATE:
		case CQL_DELETE:
		case CQL_BATCH:
			cfCqlRunWrite(stmt, keyspace, now);
			break;
		default:
			cfCqlRunSchema(stmt, keyspace);
			break;
	}
	cfSearchPathRestore(pin);
	SPI_finish();
	return (Datum) 0;
}
