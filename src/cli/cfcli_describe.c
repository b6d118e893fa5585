/*-------------------------------------------------------------------------
 *
 * cfcli_describe.c
 *	  `describe` and `show keyspaces` as cassandra-cli 1.2 prints them.
 *
 * The settings cfstore has no use for (read repair, compaction, caching,
 * bloom filters) are printed with the values a Cassandra 1.2 server
 * reports for a column family that does not set them, so that scripts
 * that read the output find every line where they expect it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

#include "catalog/cfcatalog.h"
#include "cli/cfcli.h"

/* A column_metadata name as the cli shows it: BytesType also as UTF-8 when it is. */
static char *
metadata_name(const CfType *names, const bytea *name)
{
	const uint8 *d = (const uint8 *) VARDATA_ANY(name);
	int			len = VARSIZE_ANY_EXHDR(name);
	char	   *s = cfCliToString(names, d, len);

	if (names->kind == CF_BYTES && pg_verify_mbstr(PG_UTF8, (const char *) d, len, true) &&
		memchr(d, '\0', len) == NULL)
		s = psprintf("%s (%s)", pnstrdup((const char *) d, len), s);
	return s;
}

/* Print one column family (describeColumnFamily). */
static void
describe_cf(CliSession *s, const CfColumnFamily *cf, const char *comment, const char *compression)
{
	cfCliPrint(s, "    ColumnFamily: %s%s", cf->name, cf->is_super ? " (Super)" : "");
	if (comment && comment[0])
		cfCliPrint(s, "    \"%s\"", comment);
	cfCliPrint(s, "      Key Validation Class: %s", cfTypeName(cf->key_validator));
	cfCliPrint(s, "      Default column value validator: %s", cfTypeName(cf->default_validator));
	if (cf->is_super)
		cfCliPrint(s, "      Columns sorted by: %s/%s", cfTypeName(cf->comparator), cfTypeName(cf->subcomparator));
	else
		cfCliPrint(s, "      Columns sorted by: %s", cfTypeName(cf->comparator));
	cfCliPrint(s, "      GC grace seconds: %d", cf->gc_grace_seconds);
	cfCliPrint(s, "      Compaction min/max thresholds: 4/32");
	cfCliPrint(s, "      Read repair chance: 0.1");
	cfCliPrint(s, "      DC Local Read repair chance: 0.0");
	cfCliPrint(s, "      Populate IO Cache on flush: false");
	cfCliPrint(s, "      Replicate on write: true");
	cfCliPrint(s, "      Caching: KEYS_ONLY");
	cfCliPrint(s, "      Bloom Filter FP chance: default");
	if (cf->nwhole > 0)
	{
		const CfType *names = cf->is_super ? cf->subcomparator : cf->comparator;

		cfCliPrint(s, "      Column Metadata:");
		for (int i = 0; i < cf->nwhole; i++)
		{
			const CfColumnDef *d = &cf->columns[i];

			cfCliPrint(s, "        Column Name: %s", metadata_name(names, d->name));
			cfCliPrint(s, "          Validation Class: %s", cfTypeName(d->validator));
			if (d->index_name)
			{
				cfCliPrint(s, "          Index Name: %s", d->index_name);
				cfCliPrint(s, "          Index Type: KEYS");
			}
		}
	}
	cfCliPrint(s, "      Compaction Strategy: org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy");
	if (compression != NULL)
	{
		cfCliPrint(s, "      Compression Options:");
		cfCliPrint(s, "%s", compression);
	}
}

/* Print a keyspace and its column families (describeKeySpace). */
void
cfCliDescribeKeyspace(CliSession *s, const char *keyspace)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	List	   *cfs = NIL;
	List	   *comments = NIL;
	List	   *compressions = NIL;
	ListCell   *lc,
			   *cc,
			   *zc;
	char	   *strategy;
	char	   *options;

	values[0] = CStringGetTextDatum(keyspace);
	if (SPI_execute_with_args("SELECT k.strategy_class, "
							  "'[' || coalesce((SELECT string_agg(o.key || ':' || o.value, ', ') "
							  "FROM jsonb_each_text(k.strategy_options) o), '') || ']' "
							  "FROM cfstore.keyspace k WHERE k.name = $1", 1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read keyspace %s", keyspace);
	if (SPI_processed == 0)
	{
		cfCliPrint(s, "Keyspace %s could not be found.", keyspace);
		return;
	}
	strategy = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	options = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	/* compression options as Cassandra's CfDef gives them back: the class fully qualified */
	if (SPI_execute_with_args("SELECT name, comment, "
							  "CASE WHEN compression IS NOT NULL THEN "
							  "(SELECT string_agg('        ' || o.key || ': ' || "
							  "CASE WHEN o.key = 'sstable_compression' AND strpos(o.value, '.') = 0 "
							  "THEN 'org.apache.cassandra.io.compress.' || o.value ELSE o.value END, "
							  "E'\\n' ORDER BY o.key) FROM jsonb_each_text(compression_options) o) END "
							  "FROM cfstore.column_family WHERE keyspace = $1 "
							  "ORDER BY name COLLATE \"C\"", 1, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the column families of %s", keyspace);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		cfs = lappend(cfs, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		comments = lappend(comments, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));
		compressions = lappend(compressions, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 3));
	}
	cfCliPrint(s, "Keyspace: %s:", keyspace);
	cfCliPrint(s, "  Replication Strategy: %s", strategy);
	cfCliPrint(s, "  Durable Writes: true");
	cfCliPrint(s, "    Options: %s", options);
	cfCliPrint(s, "  Column Families:");
	forthree(lc, cfs, cc, comments, zc, compressions)
	{
		const CfColumnFamily *cf = cfCatalogLookup(keyspace, lfirst(lc));

		/* CQL3 tables are left out of describe, as the cli leaves them out */
		if (cf == NULL || cf->key_aliases != NULL)
			continue;
		describe_cf(s, cf, lfirst(cc), lfirst(zc));
	}
}
