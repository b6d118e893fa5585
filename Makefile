# cfstore: PGXS build.  `make`, `make install`, `make installcheck`.
EXTENSION = cfstore cfstore_shard
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" cfstore.control)

MODULE_big = cfstore
OBJS = \
	cfstore.o \
	src/marshal/cftype_parse.o \
	src/marshal/cftype_validate.o \
	src/marshal/cftype_compare.o \
	src/marshal/cftype_text.o \
	src/marshal/cfvarint.o \
	src/marshal/cfbignum.o \
	src/marshal/cfuuid.o \
	src/marshal/cfcomposite.o \
	src/types/cftype_sql.o \
	src/types/timeuuid.o \
	src/catalog/cfcatalog.o \
	src/catalog/cfddl.o \
	src/api/cfargs.o \
	src/storage/cfpage.o \
	src/storage/cfrel.o \
	src/storage/cfsearch.o \
	src/storage/cfsplit.o \
	src/storage/cfwal.o \
	src/storage/cfinsert.o \
	src/storage/cfvisibility.o \
	src/storage/cfwalk.o \
	src/storage/cfreconcile.o \
	src/storage/cfrangedel.o \
	src/storage/cfslice.o \
	src/storage/cfwrite.o \
	src/storage/cfvacuum.o \
	src/storage/cftableam.o \
	src/storage/cfhooks.o \
	src/storage/cfverify.o src/storage/cfoverflow.o src/storage/cffree.o \
	src/storage/cfcompress.o \
	src/storage/cfmerge.o \
	src/storage/cfshrink.o \
	src/storage/cfindex.o \
	src/api/cfapi.o \
	src/api/cfmutate.o \
	src/api/cfget.o \
	src/api/cfmultiget.o \
	src/api/cfrange.o \
	src/api/cfindexed.o \
	src/api/cfcustomscan.o \
	src/api/cfinspect.o \
	src/api/cfremote.o \
	src/api/cfmapreduce.o \
	src/fdw/cffdw.o \
	src/fdw/cffdw_plan.o \
	src/fdw/cffdw_scan.o \
	src/fdw/cffdw_modify.o \
	src/fdw/cffdw_import.o \
	src/fdw/cffdw_acl.o \
	src/cql/cfcql.o \
	src/cql/cfcql_lex.o \
	src/cql/cfcql_parse.o \
	src/cql/cfcql_table.o \
	src/cql/cfcql_schema.o \
	src/cql/cfcql_term.o \
	src/cql/cfcql_write.o \
	src/cql/cfcql_select.o \
	src/cli/cfcli_parse.o \
	src/cli/cfcli_type.o \
	src/cli/cfcli_exec.o \
	src/cli/cfcli_describe.o \
	src/object/cfobject.o \
	src/object/cfobject_path.o \
	src/object/cfobject_value.o \
	src/shard/cfshard.o \
	src/shard/cfshard_xact.o \
	src/shard/cfpq.o \
	src/shard/cfshard_table.o \
	src/shard/cfshard_mapreduce.o \
	src/shard/cfshard_plan.o \
	src/shard/cfshard_sql.o

# The install script is assembled from one file per subsystem, in order.
SQL_PARTS = \
	src/sql/00_schema.sql \
	src/sql/10_marshal.sql \
	src/sql/20_timeuuid.sql \
	src/sql/30_catalog.sql \
	src/sql/40_storage_conf.sql \
	src/sql/45_args.sql \
	src/sql/50_storage.sql \
	src/sql/60_api.sql \
	src/sql/65_batch.sql \
	src/sql/70_fdw.sql \
	src/sql/75_cql.sql \
	src/sql/80_object.sql \
	src/sql/90_privileges.sql
DATA_built = cfstore--$(EXTVERSION).sql cfstore_shard--$(EXTVERSION).sql

# cfstore_shard: sharded keyspaces (src/shard), its own install script
SHARD_SQL_PARTS = \
	src/sql/shard/10_cluster.sql \
	src/sql/shard/20_ddl.sql \
	src/sql/shard/25_xact.sql \
	src/sql/shard/30_remote.sql \
	src/sql/shard/40_mapreduce.sql \
	src/sql/shard/90_privileges.sql

# The server headers are system headers: -Wextra then applies to cfstore's
# own code without tripping over PostgreSQL's inline functions.
PG_CONFIG ?= pg_config
PG_CPPFLAGS = -I$(srcdir)/src -isystem $(shell $(PG_CONFIG) --includedir-server) -isystem $(shell $(PG_CONFIG) --includedir) -std=c11 -D_GNU_SOURCE
SHLIB_LINK = -luuid -llz4
# libpq (the coordinator's connections to its shard servers) is opened at
# the first connection, not linked: src/shard/cfpq.h

REGRESS = $(patsubst test/sql/%.sql,%,$(sort $(wildcard test/sql/*.sql)))
REGRESS_OPTS = --inputdir=test --outputdir=test/output --load-extension=cfstore

ISOLATION = $(patsubst test/isolation/specs/%.spec,%,$(sort $(wildcard test/isolation/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test/isolation --outputdir=test/isolation/output --load-extension=cfstore

# TAP (PostgreSQL::Test::Cluster), run by make installcheck too
TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl
PROVE_FLAGS = -I test/t

EXTRA_CLEAN = test/output test/isolation/output

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

cfstore--$(EXTVERSION).sql: $(SQL_PARTS) cfstore.control
	cat $(SQL_PARTS) > $@

cfstore_shard--$(EXTVERSION).sql: $(SHARD_SQL_PARTS) cfstore_shard.control
	cat $(SHARD_SQL_PARTS) > $@

# One target per suite, for scripts/dev.sh (plain `installcheck` runs both).
.PHONY: installcheck-regress installcheck-isolation
installcheck-regress:
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(REGRESS)
installcheck-isolation:
	$(pg_isolation_regress_installcheck) $(ISOLATION_OPTS) $(ISOLATION)
