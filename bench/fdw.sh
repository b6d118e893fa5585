#!/usr/bin/env bash
# bench/fdw.sh: reading the "timeline" dataset through the foreign table
# (cfstore_fdw) against a heap table with a btree primary key, in one go.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/fdw.sh
#
# (a) pgbench, CLIENTS clients, prepared statements: one latest-10 query per
#     transaction for a random row key,
#       SELECT column_name, value FROM bench.timeline WHERE key = $1
#        ORDER BY column_name DESC LIMIT 10
#     against the same query on the peer (key, name, value, writetime,
#     PRIMARY KEY (key, name)).
# (b) server-side nested loop: the latest 10 of each of PROBES row keys in
#     one statement (a LATERAL subquery per key of a list), both engines.
#
# The dataset is bench/timeline.sh's (ROWS row keys x COLS TimeUUID
# columns, cells interleaved across rows), loaded by COPY into the peer and
# into the column family's storage relation.  Every run reloads both,
# VACUUM ANALYZEs them, checks that both return the same cells, then
# measures.  It prints metric | cfstore | heap | ratio | target | verdict
# per run and for the median of RUNS runs.  bench/README.md explains.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench_fdw
#   ROWS=10000 COLS=200   the timeline dataset
#   RUNS=3           full runs (load + measure); the result is the median
#   CLIENTS=2        pgbench clients
#   SECONDS_PER=10   length of each pgbench test
#   PROBES=100000    row keys probed by the nested-loop statement
#   REPS=3           timed repetitions of the nested-loop statement per run (median)
#   STEP_TIMEOUT=1800  seconds any one step may take
#
# It drops and recreates the database cfstore_bench_fdw and leaves it in
# place at the end for inspection.
set -eEuo pipefail
shopt -s inherit_errexit

ROWS=${ROWS:-10000}
COLS=${COLS:-200}
RUNS=${RUNS:-3}
CLIENTS=${CLIENTS:-2}
SECONDS_PER=${SECONDS_PER:-10}
PROBES=${PROBES:-100000}
REPS=${REPS:-3}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_fdw
KS=bench
BASE_TS='2020-01-01 00:00:00+00'
BASE_US=1577836800000000

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive ROWS COLS RUNS CLIENTS SECONDS_PER PROBES REPS STEP_TIMEOUT
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }
command -v pgbench >/dev/null || { echo "bench: pgbench is needed" >&2; exit 2; }

CELLS=$((ROWS * COLS))
STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR

export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

P_ROW=$(coprime "$ROWS")      # arrival order of rows within a round (as timeline.sh)
P_KEY=$(coprime "$ROWS")      # order of the probed keys

T_START=$(date +%s)
echo "== cfstore foreign table benchmark: timeline ROWS=$ROWS COLS=$COLS ($CELLS cells); RUNS=$RUNS"
echo "   (a) pgbench latest-10, CLIENTS=$CLIENTS, ${SECONDS_PER} s each; (b) nested loop over PROBES=$PROBES keys, REPS=$REPS"

# ---------------------------------------------------------------------------
create_bench_db
print_machine

# ---------------------------------------------------------------------------
STEP="create extension, helper functions and the dataset"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('$KS');

CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'pgbench',  'latest-10 queries per second (pgbench, $CLIENTS clients, prepared)', 0, 'ratio>=', 1, 'ratio >= 1'),
 (2, 'nestloop', 'nested loop: latest-10 probes per second (server-side)', 0, 'ratio>=', 2, 'ratio >= 2'),
 (3, 'nestloop_cross', '  the same, each run right after the other engine''s', 0, NULL, NULL, ''),
 (4, 'buf',      'shared buffers per latest-10 query (mean of 100 keys)',   2, NULL, NULL, ''),
 (5, 'load',     'load (COPY) cells per second',                            0, NULL, NULL, '');

-- the timeline dataset, as bench/timeline.sh generates it
CREATE TABLE bench_cells AS
SELECT i, 'user' || (((i % $ROWS) * $P_ROW + (i / $ROWS) * 104729) % $ROWS) AS key,
       cfstore.min_timeuuid(timestamptz '$BASE_TS' + i * interval '1 millisecond') AS name,
       substr(md5('value' || i), 1, 20) AS value,
       $BASE_US + i * 1000 AS writetime
  FROM generate_series(0::bigint, $CELLS - 1) i;
-- the probed keys, scattered (keys repeat when PROBES > ROWS)
CREATE TABLE bench_probes AS
  SELECT n, 'user' || ((n::bigint * $P_KEY + 3) % $ROWS) AS key FROM generate_series(0, $PROBES - 1) n;
ANALYZE bench_cells; ANALYZE bench_probes;

SQL

load_sql_helpers
STEP="write the COPY files"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench_fdw.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
q -c "\\copy (SELECT key, name, value, writetime FROM bench_cells ORDER BY i) TO '$WORK/heap.copy'"
q -c "\\copy (SELECT convert_to(key, 'UTF8'), uuid_send(name::uuid), convert_to(value, 'UTF8'), writetime FROM bench_cells ORDER BY i) TO '$WORK/cf.copy'"
# the pgbench scripts: one latest-10 query for a random key
cat > "$WORK/cf.pgbench" <<EOF
\\set k random(0, $((ROWS - 1)))
SELECT column_name, value FROM $KS.timeline WHERE key = 'user' || :k ORDER BY column_name DESC LIMIT 10;
EOF
cat > "$WORK/heap.pgbench" <<EOF
\\set k random(0, $((ROWS - 1)))
SELECT name, value FROM peer WHERE key = 'user' || :k ORDER BY name DESC LIMIT 10;
EOF
chmod 644 "$WORK"/*


# the nested-loop statements: (cells, checksum of the text returned)
CF_NL="SELECT count(*), sum(length(l.column_name::text) + length(l.value)) FROM bench_probes p
         CROSS JOIN LATERAL (SELECT column_name, value FROM $KS.timeline t WHERE t.key = p.key
                              ORDER BY column_name DESC LIMIT 10) l"
HEAP_NL="SELECT count(*), sum(length(l.name::text) + length(l.value)) FROM bench_probes p
         CROSS JOIN LATERAL (SELECT name, value FROM peer t WHERE t.key = p.key
                              ORDER BY name DESC LIMIT 10) l"
CF_ONE="SELECT count(*) FROM (SELECT column_name, value FROM $KS.timeline WHERE key = 'userKEY' ORDER BY column_name DESC LIMIT 10) s"
HEAP_ONE="SELECT count(*) FROM (SELECT name, value FROM peer WHERE key = 'userKEY' ORDER BY name DESC LIMIT 10) s"

CONTENT_OK=yes
for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"

    STEP="run $run: create the peer and the column family"
    q <<SQL
DROP TABLE IF EXISTS peer;
CREATE TABLE peer (key text, name cfstore.timeuuid, value text, writetime bigint, PRIMARY KEY (key, name));
SELECT cfstore.drop_column_family('$KS', name) FROM cfstore.column_family WHERE keyspace = '$KS';
-- this also creates the foreign table $KS.timeline
SELECT cfstore.create_column_family('$KS', 'timeline', comparator => 'TimeUUIDType',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SQL
    TLREL=$(q -c "SELECT cfstore._storage_relation('$KS', 'timeline')")

    if (( run % 2 == 1 )); then order="heap cfstore"; else order="cfstore heap"; fi
    for engine in $order; do
        STEP="run $run: load $engine"
        checkpoint
        if [ $engine = heap ]; then
            t1=$(copy_in peer "(key, name, value, writetime)" "$WORK/heap.copy")
        else
            t1=$(copy_in "$TLREL" "(key, column_name, value, writetime)" "$WORK/cf.copy")
        fi
        rec "$run" load $engine 1 "$(awk -v n=$CELLS -v s="$t1" 'BEGIN { printf "%.3f", n / s }')"
        log "$engine: $CELLS cells in $t1 s"
    done
    STEP="run $run: VACUUM ANALYZE"
    q -c "VACUUM ANALYZE $TLREL" -c "VACUUM ANALYZE peer"
    checkpoint

    STEP="run $run: content check"
    bad=$(q <<SQL
SELECT count(*) FROM bench_probes p
 WHERE p.n < 200
   AND (SELECT string_agg(column_name::text || '=' || value, ',' ORDER BY column_name DESC)
          FROM (SELECT column_name, value FROM $KS.timeline WHERE key = p.key ORDER BY column_name DESC LIMIT 10) s)
       IS DISTINCT FROM
       (SELECT string_agg(name::text || '=' || value, ',' ORDER BY name DESC)
          FROM (SELECT name, value FROM peer WHERE key = p.key ORDER BY name DESC LIMIT 10) s)
SQL
)
    if [ "$bad" = 0 ]; then
        log "content check: same latest 10 (name, value) for 200 keys"
    else
        log "WARNING: content check: cfstore and heap differ for $bad of 200 keys"
        CONTENT_OK=no
    fi
    log "plans: cfstore: $(q -c "SELECT bench_plan_shape(\$s\$$CF_NL\$s\$)")"
    log "plans: heap: $(q -c "SELECT bench_plan_shape(\$s\$$HEAP_NL\$s\$)")"

    STEP="run $run: shared buffers per query"
    for engine in cfstore heap; do
        if [ $engine = cfstore ]; then rels="ARRAY['$TLREL']::regclass[]"; s=$CF_ONE
        else rels="ARRAY['peer']::regclass[]"; s=$HEAP_ONE; fi
        b=$(q -c "SELECT avg(b) FROM unnest(bench_buffers($rels, \$s\$${s//KEY/1}\$s\$,
                    ARRAY(SELECT replace(\$s\$$s\$s\$, 'KEY', ((n * 97 + 5) % $ROWS)::text) FROM generate_series(1, 100) n))) b")
        rec "$run" buf $engine 1 "$b"
        log "$engine: $(printf '%.2f' "$b") shared buffers per latest-10 query (mean of 100 keys)"
    done

    STEP="run $run: pgbench"
    for engine in cfstore heap; do
        if [ $engine = cfstore ]; then f=cf; else f=heap; fi
        tps=$(timeout $((SECONDS_PER + 120)) pgbench -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$SECONDS_PER" \
                -f "$WORK/$f.pgbench" "$DB" 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -n1)
        [ -n "$tps" ] || { echo "bench: pgbench printed no tps for $engine" >&2; exit 1; }
        rec "$run" pgbench $engine 1 "$tps"
        log "$engine: pgbench $tps tps"
    done

    STEP="run $run: nested loop"
    time_pair "$run" nestloop "$PROBES" "$CF_NL" "$HEAP_NL"

    STEP="run $run: print"
    echo
    print_table "SELECT metric, cf, heap, ratio FROM ($PER_RUN_PAIRS) p WHERE run = $run" "run $run"
done

STEP="medians"
echo
echo "== result: median of $RUNS run(s); ratio = median of the per-run ratios cfstore/heap"
print_table "SELECT metric,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY cf) AS cf,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY heap) AS heap,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "fdw: ROWS=$ROWS COLS=$COLS PROBES=$PROBES CLIENTS=$CLIENTS, median of $RUNS run(s)"
echo "content check: $([ $CONTENT_OK = yes ] && echo 'cfstore and heap returned the same cells' || echo 'FAILED (see WARNING lines)')"
echo "elapsed: $(( $(date +%s) - T_START )) s"
if [ $CONTENT_OK = no ]; then exit 1; fi
