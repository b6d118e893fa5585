#!/usr/bin/env bash
# bench/api.sh: two read calls of the API, cfstore against a heap table with
# btree indexes, on the same data, in one go.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/api.sh
#
# (a) multiget_slice of 100 keys, the latest 10 columns of each (reversed,
#     count 10), on the "timeline" dataset of bench/timeline.sh (ROWS row
#     keys x COLS TimeUUID columns, interleaved), against a heap peer
#     (key, name, value, writetime, PRIMARY KEY (key, name)) doing the same
#     100 latest-10 slices with a LATERAL ... ORDER BY name DESC LIMIT 10.
# (b) get_indexed_slices with one EQ on a KEYS-indexed LongType column that
#     matches 1 row in GRP_VALUES, on a column family of USERS rows of 4 columns,
#     against a heap peer (key, name, value, writetime, PRIMARY KEY (key,
#     name)) with a partial btree index on the indexed column's value.
#
# Every run loads both datasets into both engines, VACUUM ANALYZEs them,
# checks that both engines return the same cells, then measures server-side
# calls per second (medians of REPS timed statements after a warm-up) and
# shared buffers per call.  It prints metric | cfstore | heap | ratio |
# target | verdict per run, then the median of RUNS runs.  bench/README.md
# says what each figure is and how it is taken.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench_api
#   ROWS=10000 COLS=200   the timeline dataset of (a)
#   USERS=1000000 GRP_VALUES=1000  the users dataset of (b): USERS rows, the
#                    indexed column grp = i % GRP_VALUES
#   RUNS=3           full runs (load + measure); the result is the median
#   MULTIGETS=500    multiget_slice calls (of 100 keys) per timed statement
#   QUERIES=50       get_indexed_slices calls (different values) per timed statement
#   REPS=3           timed repetitions of each statement per run (median)
#   STEP_TIMEOUT=1800  seconds any one step may take
#
# It drops and recreates the database cfstore_bench_api and leaves it in
# place at the end for inspection.
set -eEuo pipefail
shopt -s inherit_errexit

ROWS=${ROWS:-10000}
COLS=${COLS:-200}
USERS=${USERS:-1000000}
GRP_VALUES=${GRP_VALUES:-1000}
RUNS=${RUNS:-3}
MULTIGETS=${MULTIGETS:-500}
QUERIES=${QUERIES:-50}
REPS=${REPS:-3}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_api
KS=bench
BASE_TS='2020-01-01 00:00:00+00'
BASE_US=1577836800000000
MKEYS=100        # keys per multiget_slice call
KEY_COUNT=1000   # key_count of get_indexed_slices

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive ROWS COLS USERS GRP_VALUES RUNS MULTIGETS QUERIES REPS STEP_TIMEOUT
(( ROWS >= MKEYS )) || { echo "bench: ROWS must be at least $MKEYS" >&2; exit 2; }
(( GRP_VALUES <= USERS )) || { echo "bench: GRP_VALUES must not exceed USERS" >&2; exit 2; }
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }

CELLS=$((ROWS * COLS))
UCELLS=$((USERS * 4))
STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR

export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

P_ROW=$(coprime "$ROWS")      # arrival order of rows within a round (as timeline.sh)
P_KEY=$(coprime "$ROWS")      # order of keys in the multiget calls
P_VAL=$(coprime "$GRP_VALUES")    # order of the values searched

T_START=$(date +%s)
echo "== cfstore API benchmark: (a) timeline ROWS=$ROWS COLS=$COLS ($CELLS cells), multiget of $MKEYS keys;"
echo "   (b) users USERS=$USERS x 4 columns ($UCELLS cells), GRP_VALUES=$GRP_VALUES; RUNS=$RUNS"
echo "   MULTIGETS=$MULTIGETS QUERIES=$QUERIES REPS=$REPS"

# ---------------------------------------------------------------------------
create_bench_db
print_machine

# ---------------------------------------------------------------------------
STEP="create extension, helper functions and datasets"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('$KS');

CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'multiget',     'multiget_slice calls of 100 keys (latest 10) per second', 1, 'ratio>=', 1, 'ratio >= 1'),
 (2, 'multiget_cross', '  the same, each run right after the other engine''s', 1, NULL, NULL, ''),
 (3, 'multiget_buf', 'shared buffers per multiget_slice call of 100 keys',      1, NULL, NULL, ''),
 (4, 'indexed',      'get_indexed_slices EQ (1,000 rows x 4 columns) per second', 1, 'ratio>=', 1, 'ratio >= 1'),
 (5, 'indexed_cross', '  the same, each run right after the other engine''s', 1, NULL, NULL, ''),
 (6, 'indexed_buf',  'shared buffers per get_indexed_slices query',             0, NULL, NULL, ''),
 (7, 'indexed_buf_mean', 'shared buffers per get_indexed_slices query, mean of 10 values', 1, NULL, NULL, ''),
 (8, 'tl_load',      'timeline load (COPY), cells per second',      0, NULL, NULL, ''),
 (9, 'u_load',       'users load (COPY) without the value index, cells per second',    0, NULL, NULL, ''),
 (10, 'u_index',     'users: adding the value index, seconds',                  1, NULL, NULL, ''),
 (11, 'u_total',     'users: load + index, seconds',                            1, NULL, NULL, ''),
 (12, 'u_bytes',     'users: bytes per cell after VACUUM (all relations + indexes)', 1, NULL, NULL, '');

-- (a) the timeline dataset, as bench/timeline.sh generates it.
CREATE TABLE bench_cells AS
SELECT i, 'user' || (((i % $ROWS) * $P_ROW + (i / $ROWS) * 104729) % $ROWS) AS key,
       cfstore.min_timeuuid(timestamptz '$BASE_TS' + i * interval '1 millisecond') AS name,
       substr(md5('value' || i), 1, 20) AS value,
       $BASE_US + i * 1000 AS writetime
  FROM generate_series(0::bigint, $CELLS - 1) i;

-- (b) the users dataset: row i has key u<i, 7 digits>, columns email, grp
-- (LongType, i % GRP_VALUES), name, state.
CREATE TABLE bench_users AS
SELECT i, 'u' || lpad(i::text, 7, '0') AS key, c.name,
       CASE c.name WHEN 'email' THEN 'u' || i || '@example.com'
                   WHEN 'grp'   THEN (i % $GRP_VALUES)::text
                   WHEN 'name'  THEN 'User ' || substr(md5('name' || i), 1, 12)
                   ELSE (ARRAY['CA','TX','NY','UT','WA','OR','FL'])[1 + i % 7] END AS value,
       $BASE_US + i AS writetime
  FROM generate_series(0::bigint, $USERS - 1) i,
       (VALUES ('email'), ('grp'), ('name'), ('state')) c(name);

-- (a) MULTIGETS arrays of 100 distinct keys in a scattered order.
CREATE TABLE bench_mkeys AS
  SELECT n, ARRAY(SELECT 'user' || (((n::bigint * $MKEYS + j) * $P_KEY) % $ROWS)
                    FROM generate_series(0, $MKEYS - 1) j) AS keys
    FROM generate_series(0, $MULTIGETS - 1) n;
-- (b) QUERIES values of grp in a scattered order, with the expression.
CREATE TABLE bench_vals AS
  SELECT n, v, jsonb_build_array(jsonb_build_object('column_name', 'grp', 'op', 'EQ', 'value', v::text)) AS expr
    FROM (SELECT n, (n::bigint * $P_VAL + 11) % $GRP_VALUES AS v FROM generate_series(0, $QUERIES - 1) n) s;
ANALYZE bench_mkeys; ANALYZE bench_vals; ANALYZE bench_cells; ANALYZE bench_users;
SQL
load_sql_helpers
STEP="write the COPY files"
# The same cells in the same order for both engines, as bench/timeline.sh
# writes them; cfstore's files hold the storage relation's bytea columns.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench_api.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
q -c "\\copy (SELECT key, name, value, writetime FROM bench_cells ORDER BY i) TO '$WORK/tl_heap.copy'"
q -c "\\copy (SELECT convert_to(key, 'UTF8'), uuid_send(name::uuid), convert_to(value, 'UTF8'), writetime FROM bench_cells ORDER BY i) TO '$WORK/tl_cf.copy'"
q -c "\\copy (SELECT key, name, value, writetime FROM bench_users ORDER BY i, name) TO '$WORK/u_heap.copy'"
q -c "\\copy (SELECT convert_to(key, 'UTF8'), convert_to(name, 'UTF8'), CASE WHEN name = 'grp' THEN int8send(value::bigint) ELSE convert_to(value, 'UTF8') END, writetime FROM bench_users ORDER BY i, name) TO '$WORK/u_cf.copy'"
log "datasets: $(q -c "SELECT (SELECT count(*) FROM bench_cells) || ' timeline cells, ' || (SELECT count(*) FROM bench_users) || ' users cells'")"



# The timed statements: (count, checksum of the text returned).
CF_MG="SELECT count(*), sum(length(s.key) + length(s.column_name) + length(s.value)) FROM bench_mkeys k,
         LATERAL cfstore.multiget_slice('$KS', 'timeline', k.keys, reversed => true, count => 10) s"
HEAP_MG="SELECT count(*), sum(length(s.key) + length(s.column_name) + length(s.value)) FROM bench_mkeys k,
         LATERAL unnest(k.keys) u(key),
         LATERAL (SELECT p.key, NULL::text AS super_column, p.name::text AS column_name, p.value,
                         p.writetime, NULL::integer AS ttl
                    FROM peer p WHERE p.key = u.key ORDER BY p.name DESC LIMIT 10) s"
CF_IX="SELECT count(*), sum(length(s.key) + length(s.column_name) + length(s.value)) FROM bench_vals v,
         LATERAL cfstore.get_indexed_slices('$KS', 'users', v.expr, key_count => $KEY_COUNT) s"
HEAP_IX="SELECT count(*), sum(length(s.key) + length(s.column_name) + length(s.value)) FROM bench_vals v,
         LATERAL (SELECT u.key, NULL::text AS super_column, u.name AS column_name, u.value,
                         u.writetime, NULL::integer AS ttl
                    FROM (SELECT g.key FROM users_peer g
                           WHERE g.name = 'grp' AND g.value = v.v::text
                           ORDER BY g.key LIMIT $KEY_COUNT) m
                    JOIN users_peer u ON u.key = m.key) s"
# One call of each, for the buffer counts (VAL / KEYS substituted).
CF_IX1="SELECT count(*) FROM cfstore.get_indexed_slices('$KS', 'users', '[{\"column_name\": \"grp\", \"op\": \"EQ\", \"value\": \"VAL\"}]', key_count => $KEY_COUNT)"
HEAP_IX1="SELECT count(*) FROM (SELECT u.key, NULL::text AS super_column, u.name AS column_name, u.value, u.writetime
            FROM (SELECT g.key FROM users_peer g WHERE g.name = 'grp' AND g.value = 'VAL'
                   ORDER BY g.key LIMIT $KEY_COUNT) m JOIN users_peer u ON u.key = m.key) s"
CF_MG1="SELECT count(*) FROM cfstore.multiget_slice('$KS', 'timeline', (SELECT keys FROM bench_mkeys WHERE n = NUM), reversed => true, count => 10)"
HEAP_MG1="SELECT count(*) FROM (SELECT keys FROM bench_mkeys WHERE n = NUM) k, unnest(k.keys) u(key),
            LATERAL (SELECT p.key, p.name::text AS column_name, p.value FROM peer p
                      WHERE p.key = u.key ORDER BY p.name DESC LIMIT 10) s"

CONTENT_OK=yes
for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"

    STEP="run $run: create the peers and the column families"
    q <<SQL
DROP TABLE IF EXISTS peer, users_peer;
CREATE TABLE peer (key text, name cfstore.timeuuid, value text, writetime bigint, PRIMARY KEY (key, name));
CREATE TABLE users_peer (key text, name text, value text, writetime bigint, PRIMARY KEY (key, name));
SELECT cfstore.drop_column_family('$KS', name) FROM cfstore.column_family WHERE keyspace = '$KS';
SELECT cfstore.create_column_family('$KS', 'timeline', comparator => 'TimeUUIDType',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
-- grp is declared LongType from the start (its values are 8-byte longs); its
-- KEYS index is added after the load, by update_column_family.
SELECT cfstore.create_column_family('$KS', 'users', comparator => 'UTF8Type',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
       column_metadata => '[{"column_name": "grp", "validation_class": "LongType"}]');
SQL
    TLREL=$(q -c "SELECT cfstore._storage_relation('$KS', 'timeline')")
    UREL=$(q -c "SELECT cfstore._storage_relation('$KS', 'users')")

    if (( run % 2 == 1 )); then order="heap cfstore"; else order="cfstore heap"; fi
    for engine in $order; do
        STEP="run $run: load $engine"
        checkpoint
        if [ $engine = heap ]; then
            t1=$(copy_in peer "(key, name, value, writetime)" "$WORK/tl_heap.copy")
            checkpoint
            t2=$(copy_in users_peer "(key, name, value, writetime)" "$WORK/u_heap.copy")
            t3=$(timed "CREATE INDEX users_peer_grp ON users_peer (value, key) WHERE name = 'grp'")
        else
            t1=$(copy_in "$TLREL" "(key, column_name, value, writetime)" "$WORK/tl_cf.copy")
            checkpoint
            t2=$(copy_in "$UREL" "(key, column_name, value, writetime)" "$WORK/u_cf.copy")
            t3=$(timed "SELECT cfstore.update_column_family('$KS', 'users', column_metadata =>
                        '[{\"column_name\": \"grp\", \"validation_class\": \"LongType\", \"index_type\": \"KEYS\"}]')")
        fi
        rec "$run" tl_load $engine 1 "$(awk -v n=$CELLS -v s="$t1" 'BEGIN { printf "%.3f", n / s }')"
        rec "$run" u_load $engine 1 "$(awk -v n=$UCELLS -v s="$t2" 'BEGIN { printf "%.3f", n / s }')"
        rec "$run" u_index $engine 1 "$t3"
        rec "$run" u_total $engine 1 "$(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.3f", a + b }')"
        log "$engine: timeline $CELLS cells in $t1 s; users $UCELLS cells in $t2 s, value index added in $t3 s"
    done
    IXREL=$(q -c "SELECT format('cfstore_data.%I', 'cf_' || d.index_id) FROM cfstore.column_definition d
                   JOIN cfstore.column_family f ON f.id = d.column_family_id
                  WHERE f.keyspace = '$KS' AND f.name = 'users' AND d.index_id IS NOT NULL")

    STEP="run $run: VACUUM ANALYZE"
    t=$(timed "VACUUM ANALYZE $TLREL, $UREL, $IXREL")
    t2=$(timed "VACUUM ANALYZE peer, users_peer")
    log "VACUUM ANALYZE done (cfstore $t s, heap $t2 s); every figure below is after it"
    q -c "INSERT INTO bench_rep VALUES
            ($run, 'u_bytes', 'cfstore', 1, (pg_total_relation_size('$UREL') + pg_total_relation_size('$IXREL')) / $UCELLS::float8),
            ($run, 'u_bytes', 'heap', 1, pg_total_relation_size('users_peer') / $UCELLS::float8)"
    q -c "SELECT format('users sizes: heap table %s + indexes %s (primary key %s, value index %s); cfstore %s + index %s',
            pg_size_pretty(pg_table_size('users_peer')), pg_size_pretty(pg_indexes_size('users_peer')),
            pg_size_pretty(pg_relation_size('users_peer_pkey')), pg_size_pretty(pg_relation_size('users_peer_grp')),
            pg_size_pretty(pg_total_relation_size('$UREL')), pg_size_pretty(pg_total_relation_size('$IXREL')))" \
        | sed "s/^/$(date +%H:%M:%S)  /"

    q -c "SELECT format('cfstore trees: %s', string_agg(format('%s height %s, %s leaf pages, %s B per live cell', f, s.height, s.leaf_pages, s.bytes_per_live_cell), '; '))
            FROM unnest(ARRAY['timeline', 'users']) f, LATERAL cfstore.stats('$KS', f) s" | sed "s/^/$(date +%H:%M:%S)  /"

    STEP="run $run: cell counts"
    counts=$(q -c "SELECT (SELECT count(*) FROM peer) || ' ' || (SELECT count(*) FROM $TLREL) || ' ' ||
                          (SELECT count(*) FROM users_peer) || ' ' || (SELECT count(*) FROM $UREL)")
    if [ "$counts" = "$CELLS $CELLS $UCELLS $UCELLS" ]; then
        log "cells: timeline $CELLS in each engine, users $UCELLS in each engine"
    else
        log "WARNING: cells (timeline heap, cfstore, users heap, cfstore): $counts; expected $CELLS and $UCELLS"
        CONTENT_OK=no
    fi

    STEP="run $run: content check"
    bad=$(q <<SQL
SELECT count(*) FROM bench_mkeys k
 WHERE k.n < 20
   AND (SELECT string_agg(key || '/' || column_name || '=' || value || '@' || writetime, ',' ORDER BY key, column_name)
          FROM cfstore.multiget_slice('$KS', 'timeline', k.keys, reversed => true, count => 10))
       IS DISTINCT FROM
       (SELECT string_agg(s.key || '/' || s.n || '=' || s.v || '@' || s.w, ',' ORDER BY s.key, s.n)
          FROM unnest(k.keys) u(key),
               LATERAL (SELECT p.key, p.name::text AS n, p.value AS v, p.writetime AS w FROM peer p
                         WHERE p.key = u.key ORDER BY p.name DESC LIMIT 10) s)
SQL
)
    bad2=$(q <<SQL
SELECT count(*) FROM bench_vals v
 WHERE v.n < 5
   AND (SELECT string_agg(key || '/' || column_name || '=' || value || '@' || writetime, ',' ORDER BY key, column_name)
          FROM cfstore.get_indexed_slices('$KS', 'users', v.expr, key_count => $KEY_COUNT))
       IS DISTINCT FROM
       (SELECT string_agg(u.key || '/' || u.name || '=' || u.value || '@' || u.writetime, ',' ORDER BY u.key, u.name)
          FROM (SELECT g.key FROM users_peer g WHERE g.name = 'grp' AND g.value = v.v::text
                 ORDER BY g.key LIMIT $KEY_COUNT) m JOIN users_peer u ON u.key = m.key)
SQL
)
    nrows=$(q -c "SELECT count(DISTINCT key) || ' rows, ' || count(*) || ' cells' FROM cfstore.get_indexed_slices('$KS', 'users',
                    (SELECT expr FROM bench_vals WHERE n = 0), key_count => $KEY_COUNT)")
    if [ "$bad" = 0 ] && [ "$bad2" = 0 ]; then
        log "content check: same cells (key, name, value, writetime) for 20 multiget calls of $MKEYS keys and 5 indexed searches ($nrows each)"
    else
        log "WARNING: content check: cfstore and heap differ for $bad of 20 multiget calls and $bad2 of 5 indexed searches"
        CONTENT_OK=no
    fi

    STEP="run $run: shared buffers per call"
    VAL=$(q -c "SELECT v FROM bench_vals WHERE n = 0")
    WVAL=$(( (VAL + 1) % GRP_VALUES ))
    for engine in cfstore heap; do
        if [ $engine = cfstore ]; then rels="ARRAY['$UREL', '$IXREL']::regclass[]"; s=$CF_IX1
        else rels="ARRAY['users_peer']::regclass[]"; s=$HEAP_IX1; fi
        b1=$(q -c "SELECT (bench_buffers($rels, \$s\$${s//VAL/$WVAL}\$s\$, ARRAY[\$s\$${s//VAL/$VAL}\$s\$]))[1]")
        bm=$(q -c "SELECT avg(b) FROM unnest(bench_buffers($rels, \$s\$${s//VAL/$WVAL}\$s\$,
                      ARRAY(SELECT replace(\$s\$$s\$s\$, 'VAL', ((n * 97 + 5) % $GRP_VALUES)::text) FROM generate_series(1, 10) n))) b")
        rec "$run" indexed_buf $engine 1 "$b1"
        rec "$run" indexed_buf_mean $engine 1 "$bm"
        if [ $engine = cfstore ]; then rels="ARRAY['$TLREL']::regclass[]"; s=$CF_MG1
        else rels="ARRAY['peer']::regclass[]"; s=$HEAP_MG1; fi
        bg=$(q -c "SELECT (bench_buffers($rels, \$s\$${s//NUM/1}\$s\$, ARRAY[\$s\$${s//NUM/0}\$s\$]))[1]")
        rec "$run" multiget_buf $engine 1 "$bg"
        log "$engine: get_indexed_slices grp = $VAL touches $b1 shared buffers (mean of 10 other values $(printf '%.1f' "$bm")); multiget_slice of $MKEYS keys $bg"
    done

    STEP="run $run: server-side multiget_slice calls per second"
    time_pair "$run" multiget "$MULTIGETS" "$CF_MG" "$HEAP_MG"
    STEP="run $run: server-side get_indexed_slices per second"
    time_pair "$run" indexed "$QUERIES" "$CF_IX" "$HEAP_IX"

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
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "api: ROWS=$ROWS COLS=$COLS USERS=$USERS GRP_VALUES=$GRP_VALUES, median of $RUNS run(s)"
echo "content check: $([ $CONTENT_OK = yes ] && echo 'cfstore and heap returned the same cells' || echo 'FAILED (see WARNING lines)')"
echo "elapsed: $(( $(date +%s) - T_START )) s"
if [ $CONTENT_OK = no ]; then exit 1; fi
