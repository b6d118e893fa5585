# Shared by the bench scripts (sourced, not run): psql helpers, timing,
# COPY loads, the key permutations and the results table.  The sourcing
# script sets DB (the bench database) and STEP_TIMEOUT (seconds any step
# may take) first, and creates bench_metric (ord, metric, label, digits,
# target_kind, target, target_label) in DB before it prints a table.

# psql on the bench database; SQL from -c or standard input.
q() { timeout $((STEP_TIMEOUT + 60)) psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
# psql, printing results in aligned form (tables).
qt() { timeout $((STEP_TIMEOUT + 60)) psql -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
log() { printf '%s  %s\n' "$(date +%H:%M:%S)" "$*"; }

# Every named variable must hold a positive integer.
require_positive() {
    local v
    for v in "$@"; do
        [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "bench: $v must be a positive integer (got '${!v}')" >&2; exit 2; }
    done
}

# A prime that does not divide n (so k -> k*p mod n is a permutation).
coprime() {
    local n=$1 p
    for p in 7919 7927 7933 7937 7949 7951 7963; do
        if (( n % p != 0 )); then echo "$p"; return; fi
    done
    echo 1
}

# Run psql commands (-c ... arguments) with \timing on; print the last
# statement's time in seconds.  what names the work in error messages.
timed_psql() { # what psql-arguments...
    local what=$1 out ms
    shift
    out=$(q -c "\\timing on" "$@") || { echo "bench: failed: $what" >&2; return 1; }
    ms=$(printf '%s\n' "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n1)
    [ -n "$ms" ] || { echo "bench: no timing from: $what: $out" >&2; return 1; }
    awk -v ms="$ms" 'BEGIN { printf "%.6f", ms / 1000 }'
}

# Run one statement; print its time in seconds.
timed() { timed_psql "$1" -c "$1"; }

# \copy a file into a relation (client to server, as psql does it); print
# the time in seconds.
copy_in() { # relation columns file
    timed_psql "COPY into $1" -c "\\copy $1 $2 FROM '$3'"
}

checkpoint() {
    q -c "CHECKPOINT" 2>/dev/null || log "(CHECKPOINT refused: loads are not isolated from earlier dirty buffers)"
}

# Print a results table: $1 is SQL yielding (metric, cf, heap, ratio), $2
# the title, $3 and $4 the names of the two measured columns (default
# cfstore and heap); labels, digits and targets come from bench_metric.
print_table() {
    local a=${3:-cfstore} b=${4:-heap}
    qt -c "\\pset footer off" -c "\\pset title '$2'" -c "
WITH f AS ($1)
SELECT m.label AS metric,
       round(f.cf::numeric, m.digits) AS $a,
       round(f.heap::numeric, m.digits) AS $b,
       round(f.ratio::numeric, 3) AS \"ratio $a/$b\",
       m.target_label AS target,
       CASE m.target_kind
         WHEN 'ratio<=' THEN CASE WHEN f.ratio <= m.target + 1e-9 THEN 'PASS' ELSE 'FAIL' END
         WHEN 'ratio>=' THEN CASE WHEN f.ratio >= m.target - 1e-9 THEN 'PASS' ELSE 'FAIL' END
         WHEN 'cfstore<=' THEN CASE WHEN f.cf <= m.target + 1e-9 THEN 'PASS' ELSE 'FAIL' END
         ELSE '' END AS verdict
  FROM f JOIN bench_metric m USING (metric)
 ORDER BY m.ord"
}

# Create the SQL helpers of bench/lib.sql (bench_rel_blocks, bench_buffers,
# bench_plan_shape, bench_time) in DB.
load_sql_helpers() {
    q -f "$(dirname "${BASH_SOURCE[0]}")/lib.sql"
}

# Record one measurement: run metric engine rep value (bench_rep).
rec() { q -c "INSERT INTO bench_rep VALUES ($1, '$2', '$3', $4, $5)"; }

# Run statement sql until shared buffers hold what its own work keeps in
# them: until a run reads nothing from outside them, or reads at least
# nine tenths of what the run before read (the engine's working set does
# not fit), at most 5 runs.  Prints the reads of each run.
settle() { # sql
    local s=$1 prev=-1 r i reads=""
    for i in 1 2 3 4 5; do
        r=$(q -c "SELECT bench_reads(\$s\$$s\$s\$)")
        reads+=" $r"
        if (( r == 0 )) || (( prev >= 0 && r * 10 >= prev * 9 )); then break; fi
        prev=$r
    done
    echo "${reads# }"
}

# Time a metric's two statements, cfstore's and the heap's (each returns
# a count and a checksum of the text it read), and record units / seconds.
# One warm-up of each, then REPS repetitions alternating the engines.  In a
# repetition each engine's statement is timed twice:
#  - first right after the other engine's statement, whose pages may have
#    pushed this engine's out of shared buffers (at 128 MB the heap's
#    timeline dataset does not fit, cfstore's does): "<metric>_cross";
#  - then after its own runs have settled (settle), so it finds the shared
#    buffers as this engine's own work leaves them, as a server running
#    only this engine would: recorded as "<metric>", the figure the
#    targets judge.  (One run of its own is not always enough: the other
#    engine's pages, used more often, outlast some of this one's.)
# Every run's count and checksum must be the same, and equal between the
# engines; else a WARNING, and CONTENT_OK=no.
time_pair() { # run metric units_per_statement cfstore_sql heap_sql
    local run=$1 metric=$2 units=$3 cfs=$4 hs=$5 rep engine s res secs n sum pass fig
    declare -A cells=()
    log "$metric plans: cfstore: $(q -c "SELECT bench_plan_shape(\$s\$$cfs\$s\$)")"
    log "$metric plans: heap: $(q -c "SELECT bench_plan_shape(\$s\$$hs\$s\$)")"
    for rep in $(seq 0 "$REPS"); do
        for engine in cfstore heap; do
            if [ $engine = cfstore ]; then s=$cfs; else s=$hs; fi
            for pass in cross own; do
                (( rep == 0 )) && [ $pass = own ] && continue
                [ $pass = own ] && log "  $metric $engine rep $rep: shared blocks read by its own runs before: $(settle "$s")"
                res=$(q -c "SELECT * FROM bench_time(\$s\$$s\$s\$)")
                IFS='|' read -r secs n sum <<< "$res"
                if [ -n "${cells[$engine]:-}" ] && [ "${cells[$engine]}" != "$n/$sum" ]; then
                    log "WARNING: $metric $engine returned $n/$sum cells/bytes, earlier ${cells[$engine]}"
                    CONTENT_OK=no
                fi
                cells[$engine]="$n/$sum"
                if (( rep > 0 )); then
                    fig=$metric
                    [ $pass = cross ] && fig=${metric}_cross
                    rec "$run" "$fig" $engine "$rep" "$(awk -v n="$units" -v s="$secs" 'BEGIN { printf "%.3f", n / s }')"
                fi
                log "  $metric $engine rep $rep ($([ $pass = cross ] && echo "after the other engine" || echo "after its own, settled")): $secs s, $n cells"
            done
        done
    done
    if [ "${cells[cfstore]}" != "${cells[heap]}" ]; then
        log "WARNING: $metric: cfstore returned ${cells[cfstore]} cells/bytes of text, heap ${cells[heap]}"
        CONTENT_OK=no
    fi
    log "$metric: $units per statement, $REPS timed repetitions of two runs each (after a warm-up); cells/text bytes returned: cfstore ${cells[cfstore]}, heap ${cells[heap]}"
    PAIR_CELLS=${cells[cfstore]}
}

# Time the work of a metric's statement above the engine: the statement
# with the slices' cells read from a plain table (floor_sql), which must
# return what the last time_pair's statements returned (PAIR_CELLS).  Its
# figure is recorded as cfstore's of floor_metric, and the heap's figures of
# pair_metric as the heap's, so the ratio printed is the highest any engine
# could reach if it handed out its cells as fast as a sequential scan of a
# table holding them, already rendered as text.  One warm-up, then REPS
# runs in a row (each after itself, as pair_metric's judged figure).
time_floor() { # run floor_metric pair_metric units_per_statement floor_sql
    local run=$1 metric=$2 pair=$3 units=$4 s=$5 rep res secs n sum
    for rep in $(seq 0 "$REPS"); do
        res=$(q -c "SELECT * FROM bench_time(\$s\$$s\$s\$)")
        IFS='|' read -r secs n sum <<< "$res"
        if [ "$n/$sum" != "$PAIR_CELLS" ]; then
            log "WARNING: $metric returned $n/$sum cells/bytes, the engines $PAIR_CELLS"
            CONTENT_OK=no
        fi
        if (( rep > 0 )); then
            rec "$run" "$metric" cfstore "$rep" "$(awk -v n="$units" -v s="$secs" 'BEGIN { printf "%.3f", n / s }')"
        fi
        log "  $metric rep $rep: $secs s, $n cells"
    done
    q -c "INSERT INTO bench_rep SELECT run, '$metric', engine, rep, value FROM bench_rep
           WHERE run = $run AND metric = '$pair' AND engine = 'heap'"
}

# Per-run medians of bench_rep, and the per-run pairs cfstore / heap.
PER_RUN="
  SELECT run, metric, engine, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS value
    FROM bench_rep GROUP BY run, metric, engine"
PER_RUN_PAIRS="
  SELECT r.run, r.metric, c.value AS cf, h.value AS heap, c.value / nullif(h.value, 0) AS ratio
    FROM (SELECT DISTINCT run, metric FROM bench_rep) r
    LEFT JOIN ($PER_RUN) c ON c.run = r.run AND c.metric = r.metric AND c.engine = 'cfstore'
    LEFT JOIN ($PER_RUN) h ON h.run = r.run AND h.metric = r.metric AND h.engine = 'heap'"

# Drop and create the bench database DB (UTF-8, C collation, so the heap
# compares keys bytewise as cfstore does), connecting to ADMIN_DB.
create_bench_db() {
    STEP="create database $DB"
    timeout 600 psql -X -q -v ON_ERROR_STOP=1 -d "$ADMIN_DB" <<SQL
DROP DATABASE IF EXISTS $DB;
CREATE DATABASE $DB TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';
ALTER DATABASE $DB SET search_path = public, cfstore;
-- The timed statements loop over lists that repeat keys: a Memoize node
-- would serve repeats from its cache instead of reading again.
ALTER DATABASE $DB SET enable_memoize = off;
-- One backend per statement for both engines: cfstore.get_slice is parallel
-- unsafe, the heap's nested loop is not, and 2 cores are all there is.
ALTER DATABASE $DB SET max_parallel_workers_per_gather = 0;
-- No JIT compilation: the heap's timed statements cost more than
-- jit_above_cost, so every run of them compiled its expressions first (60 to
-- 100 ms of a 0.5 s statement, more than it saved), while cfstore's are
-- costed below the threshold: a per-statement charge to one side only.
ALTER DATABASE $DB SET jit = off;
SQL
}

# Print the machine and the server settings; refuse to run without track_counts.
print_machine() {
    STEP="machine and server settings"
    echo
    echo "== machine"
    echo "   (cpu and memory of the machine running this script: the server's when it is local)"
    echo "   cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') x $(nproc) (nproc)"
    echo "   memory: $(free -h 2>/dev/null | awk '/^Mem:/ {print $2 " total, " $7 " available"}')"
    q <<'SQL' | sed 's/^/   /'
SELECT 'server: ' || version();
SELECT format('shared_buffers=%s fsync=%s synchronous_commit=%s wal_level=%s full_page_writes=%s max_wal_size=%s track_counts=%s jit=%s',
  current_setting('shared_buffers'), current_setting('fsync'), current_setting('synchronous_commit'),
  current_setting('wal_level'), current_setting('full_page_writes'), current_setting('max_wal_size'),
  current_setting('track_counts'), current_setting('jit'));
SQL
    if [ "$(q -c "SHOW track_counts")" != on ]; then
        echo "bench: track_counts is off: the shared-buffer counts would read 0" >&2; exit 2
    fi
}
