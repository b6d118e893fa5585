#!/usr/bin/env bash
# bench/timeline.sh: the "timeline" benchmark, cfstore against a heap table
# with a btree primary key, on the same cells, in one go.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/timeline.sh
#
# Dataset: ROWS row keys (user0 ... user<ROWS-1>, UTF8Type) x COLS columns
# (TimeUUIDType names, UTF8Type values of 20 bytes), cells arriving
# interleaved across rows.  Every run loads the same cells into both
# engines, VACUUM ANALYZEs both, then measures bytes per cell, shared buffers
# per "latest 10" slice, server-side slices per second (latest 10, and 100
# columns from a start bound), bulk load cells per second and single-cell
# insert commits per second.  It prints metric | cfstore | heap | ratio per
# run, then the median of RUNS runs with the acceptance targets (PASS/FAIL).
# bench/README.md says what each figure is and how it is taken.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench
#   ROWS=10000 COLS=200 RUNS=3       dataset shape and number of runs
#   SLICES10=50000   latest-10 slices per timed statement
#   SLICES100=10000  100-column slices per timed statement
#   REPS=3           timed repetitions of each slice statement per run (median)
#   INSERT_SECONDS=10  pgbench duration of the single-cell insert test
#   STEP_TIMEOUT=1800  seconds any one step may take (statement_timeout, and
#                    a kill of the client a minute later)
#
# It drops and recreates the database cfstore_bench (left in place at the
# end for inspection) and writes its COPY files to a temporary directory
# that is removed on exit.  It needs the cfstore extension installed on the
# server, psql and pgbench on the PATH, and a role that may create
# databases and run CHECKPOINT (a failed CHECKPOINT is only reported).
set -eEuo pipefail

ROWS=${ROWS:-10000}
COLS=${COLS:-200}
RUNS=${RUNS:-3}
SLICES10=${SLICES10:-50000}
SLICES100=${SLICES100:-10000}
REPS=${REPS:-3}
INSERT_SECONDS=${INSERT_SECONDS:-10}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench
KS=bench
CF=timeline
BASE_TS='2020-01-01 00:00:00+00'   # the first cell's time; cell i is BASE_TS + i ms
BASE_US=1577836800000000           # BASE_TS in microseconds since the epoch

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive ROWS COLS RUNS SLICES10 SLICES100 REPS INSERT_SECONDS STEP_TIMEOUT
command -v psql >/dev/null && command -v pgbench >/dev/null || { echo "bench: psql and pgbench are needed" >&2; exit 2; }

CELLS=$((ROWS * COLS))
STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT

# Every server statement is bounded; NOTICEs are not wanted in the output.
export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

P_ROW=$(coprime "$ROWS")      # arrival order of rows within a round
P_KEY=$(coprime "$ROWS")      # order of keys in the timed slice statements

echo "== cfstore timeline benchmark: ROWS=$ROWS COLS=$COLS ($CELLS cells) RUNS=$RUNS"
echo "   SLICES10=$SLICES10 SLICES100=$SLICES100 REPS=$REPS INSERT_SECONDS=$INSERT_SECONDS"

# ---------------------------------------------------------------------------
create_bench_db
print_machine

# ---------------------------------------------------------------------------
STEP="create extension and helper functions"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('$KS');

-- Per-run figures: one row per (run, metric, engine, repetition).
CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);

-- The metrics, in display order, with their acceptance targets.
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'bytes',        'bytes per cell after VACUUM (all relations + indexes)', 1, 'ratio<=', 1.0/3, 'ratio <= 1/3'),
 (2, 'bytes_load',   'bytes per cell right after the load, before VACUUM',    1, NULL, NULL, ''),
 (3, 'buf10',        'shared buffers, one latest-10 slice',                    0, 'cfstore<=', 3, 'cfstore <= 3'),
 (4, 'buf10_mean',   'shared buffers per latest-10 slice, mean of 100 keys',   2, 'cfstore<=', 3, 'cfstore <= 3'),
 (5, 'buf10_explain','shared buffers, one latest-10 slice, EXPLAIN cross-check', 0, NULL, NULL, ''),
 (6, 'latest10',     'latest-10 slices per second (server-side)',              0, 'ratio>=', 2, 'ratio >= 2'),
 (7, 'latest10_cross', '  the same, each run right after the other engine''s', 0, NULL, NULL, ''),
 (8, 'slice100',     'slices of 100 columns per second (server-side)',        0, 'ratio>=', 3, 'ratio >= 3'),
 (9, 'slice100_cross', '  the same, each run right after the other engine''s', 0, NULL, NULL, ''),
 (10, 'slice100_floor', '  the same cells read from a plain table (the work above the engine)', 0, NULL, NULL, ''),
 (11, 'load',        'bulk load (COPY) cells per second',                      0, 'ratio>=', 1, 'ratio >= 1'),
 (12, 'commits',     'single-cell insert commits per second (pgbench, 1 client)', 0, NULL, NULL, '');

-- The dataset, generated once: cell i of round j = i / ROWS goes to row
-- (k * P_ROW + j * 104729) mod ROWS, k = i mod ROWS (a different
-- permutation of the rows in every round, each row gets COLS cells); its
-- name is the version-1 TimeUUID of BASE_TS + i ms (names rise with i, all
-- differ), its value 20 characters, its writetime BASE + i ms in microseconds.
CREATE TABLE bench_cells (i bigint, key text, name cfstore.timeuuid, value text, writetime bigint);

-- Blocks fetched (shared buffer hits + reads) so far in this transaction
-- from a relation, its TOAST table and the indexes of both.  The counters
-- are this backend's pending statistics, which are not flushed while a
-- transaction is open, so a difference inside one statement is exact.
CREATE FUNCTION bench_rel_blocks(rel regclass) RETURNS bigint LANGUAGE sql AS \$\$
  SELECT coalesce(sum(pg_stat_get_xact_blocks_fetched(r)), 0)::bigint FROM (
    SELECT rel::oid AS r
    UNION ALL SELECT c.reltoastrelid FROM pg_class c WHERE c.oid = rel AND c.reltoastrelid <> 0
    UNION ALL SELECT i.indexrelid FROM pg_index i WHERE i.indrelid = rel
    UNION ALL SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON i.indrelid = c.reltoastrelid
               WHERE c.oid = rel) s
\$\$;

-- One latest-10 slice (reversed, count 10) of the row key k, engine by engine,
-- returning the same text forms (cfstore.cell's columns).
CREATE FUNCTION bench_latest10(engine text, k text) RETURNS bigint LANGUAGE plpgsql AS \$\$
DECLARE n bigint;
BEGIN
  IF engine = 'cfstore' THEN
    SELECT count(*) INTO n FROM cfstore.get_slice('$KS', '$CF', k, reversed => true, count => 10) s
     WHERE s.column_name IS NOT NULL AND s.value IS NOT NULL;
  ELSE
    SELECT count(*) INTO n FROM (SELECT p.key, NULL::text AS super_column, p.name::text AS column_name,
                                        p.value, p.writetime, NULL::integer AS ttl
                                   FROM peer p WHERE p.key = k ORDER BY p.name DESC LIMIT 10) s
     WHERE s.column_name IS NOT NULL AND s.value IS NOT NULL;
  END IF;
  RETURN n;
END \$\$;

-- Shared buffers each latest-10 slice touches, in a warmed session: two
-- slices of another key first (catalog caches, cfstore's cached metapage,
-- plan), then the difference of bench_rel_blocks around each slice of keys.
CREATE FUNCTION bench_slice_buffers(engine text, rel regclass, warm text, keys text[]) RETURNS bigint[]
LANGUAGE plpgsql AS \$\$
DECLARE b0 bigint; b1 bigint; k text; r bigint[] := '{}';
BEGIN
  PERFORM bench_latest10(engine, warm);
  PERFORM bench_latest10(engine, warm);
  FOREACH k IN ARRAY keys LOOP
    b0 := bench_rel_blocks(rel);
    PERFORM bench_latest10(engine, k);
    b1 := bench_rel_blocks(rel);
    r := r || (b1 - b0);
  END LOOP;
  RETURN r;
END \$\$;

-- The same figure from EXPLAIN (ANALYZE, BUFFERS): shared hit + read of the
-- top plan node (a Function Scan for cfstore, a Limit for the heap), in a
-- warmed session; all buffers the statement's execution touched.
CREATE FUNCTION bench_explain_buffers(stmt text, warm_stmt text) RETURNS bigint LANGUAGE plpgsql AS \$\$
DECLARE j json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || warm_stmt INTO j;
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || warm_stmt INTO j;
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || stmt INTO j;
  RETURN (j->0->'Plan'->>'Shared Hit Blocks')::bigint + (j->0->'Plan'->>'Shared Read Blocks')::bigint;
END \$\$;

-- The keys the timed slice statements loop over, in a scattered order.
CREATE TABLE bench_keys10 AS
  SELECT n, 'user' || ((n::bigint * $P_KEY) % $ROWS) AS key FROM generate_series(0, $SLICES10 - 1) n;
CREATE TABLE bench_keys100 AS
  SELECT n, 'user' || ((n::bigint * $P_KEY + 1) % $ROWS) AS key FROM generate_series(0, $SLICES100 - 1) n;
ANALYZE bench_keys10; ANALYZE bench_keys100;
SQL

load_sql_helpers

# ---------------------------------------------------------------------------
STEP="generate the dataset"
log "generating $CELLS cells (interleaved: row of cell i = (k*$P_ROW + j*104729) mod $ROWS, k = i mod ROWS, j = i / ROWS)"
q <<SQL
INSERT INTO bench_cells
SELECT i, 'user' || (((i % $ROWS) * $P_ROW + (i / $ROWS) * 104729) % $ROWS),
       cfstore.min_timeuuid(timestamptz '$BASE_TS' + i * interval '1 millisecond'),
       substr(md5('value' || i), 1, 20),
       $BASE_US + i * 1000
  FROM generate_series(0::bigint, $CELLS - 1) i;
SQL
chk=$(q -c "SELECT (SELECT count(*) FROM bench_cells) || ' cells, ' ||
                   (SELECT count(DISTINCT name) FROM bench_cells) || ' distinct names, ' ||
                   (SELECT count(*) || ' rows of ' || min(c) || '..' || max(c) || ' cells'
                      FROM (SELECT count(*) AS c FROM bench_cells GROUP BY key) r)")
log "dataset: $chk"

STEP="write the COPY files"
# Heap peer: key, name (TimeUUID text form), value, writetime.
q -c "\\copy (SELECT key, name, value, writetime FROM bench_cells ORDER BY i) TO '$WORK/heap.copy'"
# cfstore storage relation: key bytes (UTF-8), name bytes (16 uuid bytes),
# value bytes (UTF-8), writetime; super_column, ttl and expires_at are NULL.
q -c "\\copy (SELECT convert_to(key, 'UTF8'), uuid_send(name::uuid), convert_to(value, 'UTF8'), writetime FROM bench_cells ORDER BY i) TO '$WORK/cfstore.copy'"
log "COPY files: heap $(du -h "$WORK/heap.copy" | cut -f1), cfstore $(du -h "$WORK/cfstore.copy" | cut -f1), same cells in the same order"

# pgbench scripts: one new cell (a fresh TimeUUID) into an existing row per
# transaction, autocommit.
cat > "$WORK/insert_cfstore.sql" <<SQL
\\set r random(0, $((ROWS - 1)))
SELECT cfstore.insert('$KS', '$CF', 'user' || :r, cfstore.timeuuid_now(), 'pgbench-insert-value', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);
SQL
cat > "$WORK/insert_heap.sql" <<SQL
\\set r random(0, $((ROWS - 1)))
INSERT INTO peer VALUES ('user' || :r, cfstore.timeuuid_now(), 'pgbench-insert-value', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);
SQL

# ---------------------------------------------------------------------------
# Helpers for one run.
CONTENT_OK=yes
START_TS="cfstore.min_timeuuid(timestamptz '$BASE_TS' + $(( (COLS / 4) * ROWS )) * interval '1 millisecond')"

for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"

    STEP="run $run: create the heap peer and the cfstore column family"
    q <<SQL
DROP TABLE IF EXISTS peer;
CREATE TABLE peer (key text, name cfstore.timeuuid, value text, writetime bigint, PRIMARY KEY (key, name));
SELECT cfstore.drop_column_family('$KS', '$CF') FROM cfstore.column_family WHERE keyspace = '$KS' AND name = '$CF';
SELECT cfstore.create_column_family('$KS', '$CF', comparator => 'TimeUUIDType',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SQL
    CFREL=$(q -c "SELECT cfstore._storage_relation('$KS', '$CF')")

    # The engine loaded first alternates from run to run.
    if (( run % 2 == 1 )); then order="heap cfstore"; else order="cfstore heap"; fi
    for engine in $order; do
        checkpoint
        if [ "$engine" = heap ]; then
            STEP="run $run: bulk load heap (COPY into peer, primary key in place)"
            secs=$(copy_in peer "(key, name, value, writetime)" "$WORK/heap.copy")
        else
            STEP="run $run: bulk load cfstore (COPY into $CFREL)"
            secs=$(copy_in "$CFREL" "(key, column_name, value, writetime)" "$WORK/cfstore.copy")
        fi
        rate=$(awk -v n="$CELLS" -v s="$secs" 'BEGIN { printf "%.3f", n / s }')
        rec "$run" load "$engine" 1 "$rate"
        log "$engine: COPY of $CELLS cells in ${secs} s = ${rate%.*} cells/s"
    done

    STEP="run $run: sizes after the load"
    q -c "INSERT INTO bench_rep VALUES
            ($run, 'bytes_load', 'cfstore', 1, pg_total_relation_size('$CFREL') / $CELLS::float8),
            ($run, 'bytes_load', 'heap', 1, pg_total_relation_size('peer') / $CELLS::float8)"

    STEP="run $run: VACUUM ANALYZE cfstore ($CFREL)"
    t=$(q -c "\\timing on" -c "VACUUM ANALYZE $CFREL" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    STEP="run $run: VACUUM ANALYZE heap (peer)"
    t2=$(q -c "\\timing on" -c "VACUUM ANALYZE peer" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    log "VACUUM ANALYZE of both done (cfstore ${t} ms, heap ${t2} ms); every figure below is after it"

    STEP="run $run: row counts and sizes"
    q <<SQL
INSERT INTO bench_rep VALUES
  ($run, 'bytes', 'cfstore', 1, pg_total_relation_size('$CFREL') / $CELLS::float8),
  ($run, 'bytes', 'heap', 1, pg_total_relation_size('peer') / $CELLS::float8);
SQL
    q -c "SELECT format('cells: heap %s, cfstore %s (expected %s)', (SELECT count(*) FROM peer), (SELECT count(*) FROM $CFREL), $CELLS)" | sed "s/^/$(date +%H:%M:%S)  /"
    q -c "SELECT format('sizes: heap table %s + primary key %s = %s; cfstore %s (relation %s); cfstore.stats: height %s, %s leaf pages of %s, %s B per live cell',
            pg_size_pretty(pg_table_size('peer')), pg_size_pretty(pg_indexes_size('peer')),
            pg_size_pretty(pg_total_relation_size('peer')), pg_size_pretty(pg_total_relation_size('$CFREL')),
            '$CFREL', s.height, s.leaf_pages, s.pages, s.bytes_per_live_cell)
          FROM cfstore.stats('$KS', '$CF') s" | sed "s/^/$(date +%H:%M:%S)  /"

    STEP="run $run: content check (latest 10 and slice of 100, 100 keys, both engines)"
    bad=$(q <<SQL
WITH k AS (SELECT 'user' || ((n::bigint * $P_KEY + 7) % $ROWS) AS key FROM generate_series(0, 99) n)
SELECT count(*) FROM k
 WHERE (SELECT string_agg(column_name || '=' || value, ',') FROM
          cfstore.get_slice('$KS', '$CF', k.key, reversed => true, count => 10))
       IS DISTINCT FROM
       (SELECT string_agg(n || '=' || v, ',') FROM
          (SELECT p.name::text AS n, p.value AS v FROM peer p WHERE p.key = k.key ORDER BY p.name DESC LIMIT 10) x)
    OR (SELECT string_agg(column_name || '=' || value, ',') FROM
          cfstore.get_slice('$KS', '$CF', k.key, start => $START_TS, count => 100))
       IS DISTINCT FROM
       (SELECT string_agg(n || '=' || v, ',') FROM
          (SELECT p.name::text AS n, p.value AS v FROM peer p
            WHERE p.key = k.key AND p.name >= $START_TS ORDER BY p.name LIMIT 100) x)
SQL
)
    if [ "$bad" = 0 ]; then
        log "content check: both engines return the same cells for 100 keys (latest 10 and slice of 100)"
    else
        log "WARNING: content check: cfstore and heap differ for $bad of 100 keys"
        CONTENT_OK=no
    fi

    STEP="run $run: shared buffers per latest-10 slice"
    MID="user$((ROWS / 2))"; WARM="user$((ROWS / 3))"
    KEYS100="ARRAY(SELECT 'user' || ((n::bigint * $P_KEY + 3) % $ROWS) FROM generate_series(0, 99) n)"
    for engine in cfstore heap; do
        if [ "$engine" = cfstore ]; then rel="$CFREL"; else rel=peer; fi
        b1=$(q -c "SELECT (bench_slice_buffers('$engine', '$rel', '$WARM', ARRAY['$MID']))[1]")
        IFS='|' read -r bmean bdist <<< "$(q -c "WITH b AS (
                SELECT k, b FROM unnest($KEYS100, bench_slice_buffers('$engine', '$rel', '$WARM', $KEYS100)) x(k, b))
              SELECT avg(b), format('min %s, median %s, max %s', min(b),
                   percentile_disc(0.5) WITHIN GROUP (ORDER BY b), max(b))
                || coalesce('; above the median: ' || (SELECT string_agg(k || ' ' || b, ', ' ORDER BY b DESC, k)
                     FROM (SELECT * FROM b WHERE b > (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY b) FROM b)
                           ORDER BY b DESC, k LIMIT 12) o), '')
              FROM b")"
        if [ "$engine" = cfstore ]; then
            stmt="SELECT * FROM cfstore.get_slice('$KS', '$CF', 'MIDKEY'::text, reversed => true, count => 10)"
        else
            stmt="SELECT * FROM peer WHERE key = 'MIDKEY' ORDER BY name DESC LIMIT 10"
        fi
        be=$(q -c "SELECT bench_explain_buffers(\$s\$${stmt//MIDKEY/$MID}\$s\$, \$s\$${stmt//MIDKEY/$WARM}\$s\$)")
        rec "$run" buf10 "$engine" 1 "$b1"
        rec "$run" buf10_mean "$engine" 1 "$bmean"
        rec "$run" buf10_explain "$engine" 1 "$be"
        log "$engine: latest-10 slice of $MID touches $b1 shared buffers (relation statistics), $be (EXPLAIN); 100 other keys: mean $(printf '%.2f' "$bmean"), $bdist"
    done

    STEP="run $run: server-side slices per second"
    CF10="SELECT count(*), sum(length(s.column_name) + length(s.value)) FROM bench_keys10 k,
            LATERAL cfstore.get_slice('$KS', '$CF', k.key, reversed => true, count => 10) s"
    HEAP10="SELECT count(*), sum(length(s.column_name) + length(s.value)) FROM bench_keys10 k,
            LATERAL (SELECT p.key, NULL::text AS super_column, p.name::text AS column_name, p.value,
                            p.writetime, NULL::integer AS ttl
                       FROM peer p WHERE p.key = k.key ORDER BY p.name DESC LIMIT 10) s"
    CF100="SELECT count(*), sum(length(s.column_name) + length(s.value)) FROM bench_keys100 k,
            LATERAL cfstore.get_slice('$KS', '$CF', k.key, start => $START_TS, count => 100) s"
    HEAP100="SELECT count(*), sum(length(s.column_name) + length(s.value)) FROM bench_keys100 k,
            LATERAL (SELECT p.key, NULL::text AS super_column, p.name::text AS column_name, p.value,
                            p.writetime, NULL::integer AS ttl
                       FROM peer p WHERE p.key = k.key AND p.name >= $START_TS ORDER BY p.name LIMIT 100) s"
    time_pair "$run" latest10 "$SLICES10" "$CF10" "$HEAP10"
    time_pair "$run" slice100 "$SLICES100" "$CF100" "$HEAP100"

    # The same statement's work above the engine: cfstore's cells of the
    # 100-column statement, in its order, put in a plain table and read back
    # by a sequential scan with the same count and sum of lengths.  Its
    # figure bounds the ratio any engine can show on this statement.
    STEP="run $run: the 100-column statement's work above the engine"
    q -c "DROP TABLE IF EXISTS bench_floor100" \
      -c "CREATE UNLOGGED TABLE bench_floor100 AS SELECT s.column_name, s.value FROM bench_keys100 k,
            LATERAL cfstore.get_slice('$KS', '$CF', k.key, start => $START_TS, count => 100) s" \
      -c "VACUUM (FREEZE, ANALYZE) bench_floor100"
    time_floor "$run" slice100_floor slice100 "$SLICES100" \
        "SELECT count(*), sum(length(s.column_name) + length(s.value)) FROM bench_floor100 s"
    q -c "DROP TABLE bench_floor100"

    STEP="run $run: single-cell insert commits (pgbench)"
    for engine in cfstore heap; do
        STEP="run $run: single-cell insert commits, $engine (pgbench)"
        out=$(timeout $((INSERT_SECONDS + 120)) pgbench -n -M prepared -c 1 -j 1 -T "$INSERT_SECONDS" \
                  -f "$WORK/insert_$engine.sql" "$DB" 2>&1) || { printf '%s\n' "$out" >&2; false; }
        tps=$(printf '%s\n' "$out" | sed -n 's/^tps = \([0-9.]*\) (without initial connection time).*/\1/p')
        failed=$(printf '%s\n' "$out" | sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p')
        [ -n "$tps" ] || { printf '%s\n' "$out" >&2; false; }
        if [ -n "$failed" ] && [ "$failed" != 0 ]; then log "WARNING: $engine: $failed failed insert transactions"; fi
        rec "$run" commits "$engine" 1 "$tps"
        log "$engine: $tps single-cell insert commits/s over ${INSERT_SECONDS} s (1 client, prepared, autocommit)"
    done

    STEP="run $run: print"
    echo
    print_table "SELECT metric, cf, heap, ratio FROM ($PER_RUN_PAIRS) p WHERE run = $run" "run $run"
done

# ---------------------------------------------------------------------------
STEP="medians"
echo
echo "== result: median of $RUNS run(s); ratio = median of the per-run ratios cfstore/heap"
print_table "SELECT metric,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY cf) AS cf,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY heap) AS heap,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "timeline: ROWS=$ROWS COLS=$COLS, median of $RUNS run(s)"
echo "content check: $([ $CONTENT_OK = yes ] && echo 'cfstore and heap returned the same cells' || echo 'FAILED (see WARNING lines)')"
echo "shared buffers: the difference of pg_stat_get_xact_blocks_fetched (hits + reads) summed over the"
echo "relation, its TOAST table and their indexes, around one slice in a warmed session and one statement;"
echo "EXPLAIN (ANALYZE, BUFFERS) of the same slice is printed as a cross-check."
if [ "$(q -c "SHOW fsync")" = off ] || [ "$(q -c "SHOW synchronous_commit")" = off ]; then
    echo "note: fsync or synchronous_commit is off on this server: commits per second are not durable-commit figures."
fi
if [ $CONTENT_OK = no ]; then exit 1; fi
