#!/usr/bin/env bash
# bench/connect.sh: the cost of cfstore's first call in a new backend, for
# applications that connect per request: pgbench -C (a new connection for
# every transaction), one short read each, cfstore against a heap table
# holding the same cells, in one go.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/connect.sh
#
# Data: ROWS row keys of 10 cells (UTF8Type names and values) in a column
# family, and the same cells in peer (key text, name text, value text,
# PRIMARY KEY (key, name)).  Each transaction, on a connection of its own:
#   cfstore  SELECT value FROM cfstore.get_slice('bench', 'cf', 'k' || :k, count => 10)
#   heap     SELECT value FROM peer WHERE key = 'k' || :k ORDER BY name LIMIT 10
#   floor    SELECT 1 (the connection alone), printed for reference
# The first cfstore call of a backend loads the library (unless
# shared_preload_libraries has it; the script prints the setting) and reads
# the column family's definition, its storage relation and its root page;
# the heap's first query reads its relation's and index's definitions.
# Connections per second, and the milliseconds each transaction costs above
# the floor, for each engine; RUNS runs, the median printed.
#
# Settings: ROWS=1000 RUNS=3 CLIENTS=1 SECONDS_PER=10 STEP_TIMEOUT=1800.  It
# drops and recreates the database cfstore_bench_connect and leaves it.
set -eEuo pipefail
shopt -s inherit_errexit

ROWS=${ROWS:-1000}
RUNS=${RUNS:-3}
CLIENTS=${CLIENTS:-1}
SECONDS_PER=${SECONDS_PER:-10}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_connect
KS=bench

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive ROWS RUNS CLIENTS SECONDS_PER STEP_TIMEOUT
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }
command -v pgbench >/dev/null || { echo "bench: pgbench is needed" >&2; exit 2; }

STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR
export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

T_START=$(date +%s)
echo "== cfstore connection benchmark: a new connection per transaction, ROWS=$ROWS; RUNS=$RUNS, CLIENTS=$CLIENTS, ${SECONDS_PER} s each"
create_bench_db
print_machine
echo "   shared_preload_libraries='$(q -c "SHOW shared_preload_libraries")'"

STEP="create extension, metrics and data"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('$KS');
SELECT cfstore.create_column_family('$KS', 'cf', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('$KS', 'cf', 'k' || r, 'c' || c, 'value ' || r || '.' || c))
  FROM generate_series(1, $ROWS) r, generate_series(0, 9) c;
CREATE TABLE peer (key text, name text, value text, PRIMARY KEY (key, name));
INSERT INTO peer SELECT 'k' || r, 'c' || c, 'value ' || r || '.' || c FROM generate_series(1, $ROWS) r, generate_series(0, 9) c;
VACUUM ANALYZE peer;
CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'connect', 'connections (one short read each) per second (pgbench -C)', 0, NULL, NULL, ''),
 (2, 'above_floor', 'milliseconds per connection above SELECT 1''s', 3, NULL, NULL, '');
SQL
log "content check: $(q -c "SELECT CASE WHEN (SELECT string_agg(value, ',') FROM cfstore.get_slice('$KS', 'cf', 'k7', count => 10))
                             = (SELECT string_agg(value, ',' ORDER BY name) FROM peer WHERE key = 'k7') THEN 'the same cells' ELSE 'DIFFERENT' END")"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench_connect.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
printf '%s\n' "\\set k random(1, $ROWS)" "SELECT value FROM cfstore.get_slice('$KS', 'cf', 'k' || :k, count => 10);" > "$WORK/cfstore.pgbench"
printf '%s\n' "\\set k random(1, $ROWS)" "SELECT value FROM peer WHERE key = 'k' || :k ORDER BY name LIMIT 10;" > "$WORK/heap.pgbench"
printf '%s\n' "SELECT 1;" > "$WORK/floor.pgbench"
chmod 644 "$WORK"/*

pgb() { # script
    local tps
    tps=$(timeout $((SECONDS_PER + 120)) pgbench -n -C -c "$CLIENTS" -j "$CLIENTS" -T "$SECONDS_PER" \
            -f "$WORK/$1.pgbench" "$DB" 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -n1)
    [ -n "$tps" ] || { echo "bench: pgbench printed no tps for $1" >&2; exit 1; }
    echo "$tps"
}

for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"
    STEP="run $run: pgbench -C"
    if (( run % 2 == 1 )); then order="floor cfstore heap"; else order="heap cfstore floor"; fi
    declare -A tps=()
    for s in $order; do
        tps[$s]=$(pgb $s)
        log "$s: ${tps[$s]} connections per second"
    done
    rec "$run" connect cfstore 1 "${tps[cfstore]}"
    rec "$run" connect heap 1 "${tps[heap]}"
    rec "$run" above_floor cfstore 1 "$(awk -v a="${tps[cfstore]}" -v f="${tps[floor]}" -v c="$CLIENTS" 'BEGIN { printf "%.4f", c * 1000 * (1 / a - 1 / f) }')"
    rec "$run" above_floor heap 1 "$(awk -v a="${tps[heap]}" -v f="${tps[floor]}" -v c="$CLIENTS" 'BEGIN { printf "%.4f", c * 1000 * (1 / a - 1 / f) }')"
    print_table "SELECT metric, cf, heap, ratio FROM ($PER_RUN_PAIRS) p WHERE run = $run" "run $run"
done

STEP="medians"
echo
echo "== result: median of $RUNS run(s); ratio = median of the per-run ratios cfstore/heap"
print_table "SELECT metric,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY cf) AS cf,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY heap) AS heap,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "connect: ROWS=$ROWS CLIENTS=$CLIENTS, median of $RUNS run(s)"
echo "elapsed: $(( $(date +%s) - T_START )) s"
