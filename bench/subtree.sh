#!/usr/bin/env bash
# bench/subtree.sh: replacing a subtree of nested objects two ways, in one
# go: put_object as built (it reads the object and writes one range
# tombstone over a subtree that has stale leaves, one microsecond older
# than its new leaves, "ranged") against a tombstone for each stale leaf,
# as put_object wrote before range tombstones (written first with
# cfstore.remove at the write's timestamp, so that put_object then finds
# none, "leafwise"), and what each leaves to later reads.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/subtree.sh
#
# The objects: OBJECTS objects of 10 scalar fields and an array "items" of
# ITEMS objects of 3 fields, keyed by id (comparator CompositeType(UTF8Type),
# names are the leaves' paths).  The same objects go into two column
# families; then each object's items is replaced by an array of one item,
# in one statement per column family ("replace", objects per second), and
# both are read, server-side, REPS timed repetitions (bench/lib.sh
# time_pair): one scalar field of PROBES objects (a slice of one cell,
# "field"), and PROBES whole objects (get_object, "object").  Last, bytes
# and tombstones per object, after VACUUM (tombstones stay for
# gc_grace_seconds: ten days).  Ratios are ranged / leafwise.
#
# Settings: OBJECTS=5000 ITEMS=50 RUNS=3 PROBES=5000 REPS=3
# STEP_TIMEOUT=1800.  It drops and recreates the database
# cfstore_bench_subtree and leaves it in place.
set -eEuo pipefail
shopt -s inherit_errexit

OBJECTS=${OBJECTS:-5000}
ITEMS=${ITEMS:-50}
RUNS=${RUNS:-3}
PROBES=${PROBES:-5000}
REPS=${REPS:-3}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_subtree
KS=bench

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive OBJECTS ITEMS RUNS PROBES REPS STEP_TIMEOUT
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }

STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR
export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

T_START=$(date +%s)
echo "== cfstore subtree replacement benchmark: OBJECTS=$OBJECTS objects, items of $ITEMS objects replaced by one; RUNS=$RUNS"

create_bench_db
print_machine

STEP="create extension, metrics and the objects"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.cql(\$\$CREATE KEYSPACE $KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}\$\$);
CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'replace', 'replace items of every object, objects per second', 0, NULL, NULL, ''),
 (2, 'field', 'then one scalar field of PROBES objects per second (slice of one cell)', 0, NULL, NULL, ''),
 (3, 'field_cross', '  the same, each run right after the other''s', 0, NULL, NULL, ''),
 (4, 'object', 'then whole objects per second (get_object)', 0, NULL, NULL, ''),
 (5, 'object_cross', '  the same, each run right after the other''s', 0, NULL, NULL, ''),
 (6, 'bytes', 'bytes per object after VACUUM', 1, NULL, NULL, ''),
 (7, 'tombstones', 'tombstones per object after VACUUM', 2, NULL, NULL, '');
CREATE TABLE objs AS
SELECT i, jsonb_build_object(
  'id', 'd' || i, 'kind', 'order', 'status', (ARRAY['new', 'picked', 'shipped'])[1 + i % 3],
  'amount', round((i % 1000) * 1.37, 2), 'currency', 'USD', 'priority', i % 5, 'gift', i % 7 = 0,
  'created', '2013-06-10T12:00:00Z', 'channel', 'web', 'warehouse', 'w' || (i % 12),
  'items', (SELECT jsonb_agg(jsonb_build_object('sku', 87482734 + i * 100 + n, 'quantity', 1 + n % 4,
                                                'price', 9.99 + n)) FROM generate_series(1, $ITEMS) n)) AS doc
  FROM generate_series(1, $OBJECTS) i;
ALTER TABLE objs ADD PRIMARY KEY (i);
CREATE TABLE bench_probes AS
  SELECT n, 'd' || (1 + (n::bigint * $(coprime "$OBJECTS") + 3) % $OBJECTS) AS id FROM generate_series(0, $PROBES - 1) n;
ANALYZE bench_probes;
SQL
load_sql_helpers

# the subtree of field items, as put_object's range tombstone bounds it:
# names whose one component starts with "items." (a composite component:
# 2-byte length, the bytes, the end-of-component byte; "items/" with
# end-of-component -1 sorts before every name from "items/" on and after
# every name under "items.")
LO="'\\x0006'::bytea || convert_to('items.', 'UTF8') || '\\x00'::bytea"
HI="'\\x0006'::bytea || convert_to('items/', 'UTF8') || '\\xff'::bytea"
NEW_ITEMS="jsonb_build_array(jsonb_build_object('sku', 1, 'quantity', 1, 'price', 1.5))"
FIELD() { echo "SELECT count(*), sum(length(s.value)) FROM bench_probes k
            CROSS JOIN LATERAL cfstore.get_slice('$KS', '$1', k.id, 'status'::text, 'status'::text, false, 1) s"; }
OBJECT() { echo "SELECT count(*), sum(length(o::text)) FROM bench_probes k
             CROSS JOIN LATERAL cfstore.get_object('$KS', '$1', jsonb_build_object('id', k.id)) o"; }

CONTENT_OK=yes
for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"
    STEP="run $run: create and load both"
    for cf in leafwise ranged; do
        q -c "SELECT cfstore.drop_column_family('$KS', '$cf') FROM cfstore.column_family WHERE keyspace = '$KS' AND name = '$cf'" \
          -c "SELECT cfstore.create_column_family('$KS', '$cf', comparator => 'CompositeType(UTF8Type)', key_validation_class => 'UTF8Type')" \
          -c "SELECT count(cfstore.put_object('$KS', '$cf', doc, '{id}', writetime => 1000)) FROM objs" >/dev/null
        q -c "VACUUM $(q -c "SELECT cfstore._storage_relation('$KS', '$cf')")"
    done

    STEP="run $run: replace"
    if (( run % 2 == 1 )); then order="ranged leafwise"; else order="leafwise ranged"; fi
    for cf in $order; do
        if [ $cf = ranged ]; then
            sql="SELECT count(cfstore.put_object('$KS', 'ranged', jsonb_build_object('id', 'd' || i, 'items', $NEW_ITEMS),
                                                 '{id}', writetime => 2000)) FROM objs"
            engine=cfstore
        else
            # the stale leaves: every leaf of items but the three the new item writes again
            sql="SELECT (SELECT count(cfstore.remove('$KS', 'leafwise', 'd' || o.i, s.column_name, writetime => 2000))
                           FROM cfstore.get_slice('$KS', 'leafwise', 'd' || o.i, $LO, $HI, false, 100000) s
                          WHERE s.column_name NOT IN ('items.[0].sku', 'items.[0].quantity', 'items.[0].price')),
                        cfstore.put_object('$KS', 'leafwise', jsonb_build_object('id', 'd' || o.i, 'items', $NEW_ITEMS),
                                           '{id}', writetime => 2000) FROM objs o"
            sql="SELECT count(*) FROM ($sql) x"
            engine=heap
        fi
        secs=$(timed "$sql")
        rec "$run" replace $engine 1 "$(awk -v n="$OBJECTS" -v s="$secs" 'BEGIN { printf "%.3f", n / s }')"
        log "replace $cf: $secs s"
    done

    STEP="run $run: content check"
    bad=$(q -c "SELECT count(*) FROM objs d WHERE
                  cfstore.get_object('$KS', 'ranged', jsonb_build_object('id', 'd' || d.i))
                  IS DISTINCT FROM cfstore.get_object('$KS', 'leafwise', jsonb_build_object('id', 'd' || d.i))
               OR cfstore.get_object('$KS', 'ranged', jsonb_build_object('id', 'd' || d.i))
                  IS DISTINCT FROM d.doc || jsonb_build_object('items', $NEW_ITEMS)")
    if [ "$bad" = 0 ]; then log "content check: the same $OBJECTS objects, with the new items, both ways"
    else log "WARNING: content check: $bad objects differ"; CONTENT_OK=no; fi

    STEP="run $run: reads"
    time_pair "$run" field "$PROBES" "$(FIELD ranged)" "$(FIELD leafwise)"
    time_pair "$run" object "$PROBES" "$(OBJECT ranged)" "$(OBJECT leafwise)"

    STEP="run $run: bytes"
    for cf in ranged leafwise; do
        if [ $cf = ranged ]; then engine=cfstore; else engine=heap; fi
        rel=$(q -c "SELECT cfstore._storage_relation('$KS', '$cf')")
        q -c "VACUUM $rel"
        rec "$run" bytes $engine 1 "$(q -c "SELECT pg_total_relation_size('$rel')::float8 / $OBJECTS")"
        rec "$run" tombstones $engine 1 "$(q -c "SELECT tombstones::float8 / $OBJECTS FROM cfstore.stats('$KS', '$cf')")"
    done
    echo
    print_table "SELECT metric, cf, heap, ratio FROM ($PER_RUN_PAIRS) p WHERE run = $run" "run $run" ranged leafwise
done

STEP="medians"
echo
echo "== result: median of $RUNS run(s); ratio = median of the per-run ratios ranged/leafwise"
print_table "SELECT metric,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY cf) AS cf,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY heap) AS heap,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "subtree: OBJECTS=$OBJECTS ITEMS=$ITEMS, median of $RUNS run(s)" ranged leafwise
echo "content check: $([ $CONTENT_OK = yes ] && echo 'both ways gave the same objects' || echo 'FAILED (see WARNING lines)')"
echo "elapsed: $(( $(date +%s) - T_START )) s"
if [ $CONTENT_OK = no ]; then exit 1; fi
