#!/usr/bin/env bash
# bench/shard.sh: a keyspace sharded over two shard servers (cfstore_shard),
# measured through its coordinator, against the same work on one node.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/shard.sh
#
# (1) The seed's map-reduce job: POSTS posts (row key = id, columns content
#     and tags, a JSON array of 3 to 5 of 43 tags) in the sharded keyspace,
#     loaded through the coordinator; the tags are counted with
#       SELECT cfstore_shard.map_reduce('bench', 'posts',
#         $$SELECT tag, 1 FROM jsonb_array_elements_text((doc ->> 'tags')::jsonb) tag$$, 'sum(value)')
#     (wall time, psql's \timing), against the same count on one node: SQL
#     over the foreign table of a plain (unsharded) keyspace holding the
#     same posts, and over a heap table posts (id, content, tags jsonb); and
#     against MongoDB's published 9.2 s for the job on two machines.  The
#     three must give the same 43 counts.
# (2) Routed latest-10 slices: pgbench, CLIENTS clients, prepared, one
#       cfstore.get_slice('bench', 'timeline', key, reversed => true, count => 10)
#     per transaction, through the coordinator and directly on shard server
#     1, both for keys that live on shard server 1.
#
# Every run times (1) and (2) once more on the same data (loaded once); it
# prints metric | sharded | reference | ratio | target | verdict per run,
# then the median of RUNS runs.  bench/README.md explains.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the coordinator; PGDATABASE (default
#                    postgres) is only used to drop and create databases
#   SHARD1_HOST SHARD1_PORT SHARD2_HOST SHARD2_PORT  the shard servers;
#                    default: the ones `scripts/dev.sh demo` starts,
#                    ${PGHOST%/sock}/sock-shard<n> on port PGPORT + <n>
#   POSTS=200000     posts of the map-reduce job
#   ROWS=2000 COLS=200  the timeline column family: row keys user0 ...
#                    user<ROWS-1>, COLS TimeUUID columns each
#   RUNS=5           timed runs; the result is the median
#   CLIENTS=2        pgbench clients (and threads)
#   PGBENCH_SECONDS=10  length of each pgbench test
#   PARTITIONS=8     partitions of the cluster's key space (a power of two)
#   STEP_TIMEOUT=1800  seconds any one step may take (statement_timeout, and
#                    a kill of the client a minute later)
#
# It drops and recreates the database cfstore_bench_shard on all three
# servers and cfstore_bench_one on the coordinator's, and leaves them in
# place at the end for inspection.  It needs cfstore on the three servers,
# cfstore_shard (with plproxy, postgres_fdw and dblink) on the coordinator,
# max_prepared_transactions > 0 on the shard servers, psql and pgbench on
# the PATH, and a role that may create databases on all three (the same
# PGUSER on each; the coordinator reaches the shards as that role).
set -eEuo pipefail
shopt -s inherit_errexit

POSTS=${POSTS:-200000}
ROWS=${ROWS:-2000}
COLS=${COLS:-200}
RUNS=${RUNS:-5}
CLIENTS=${CLIENTS:-2}
PGBENCH_SECONDS=${PGBENCH_SECONDS:-10}
PARTITIONS=${PARTITIONS:-8}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_shard
DB_ONE=cfstore_bench_one
KS=bench
TAGS=43                            # tag1 ... tag43
MONGODB_SECONDS=9.2                # MongoDB's published time for the job on two machines
BASE_TS='2020-01-01 00:00:00+00'   # the timeline's first cell; cell i is BASE_TS + i ms
BASE_US=1577836800000000           # BASE_TS in microseconds since the epoch

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive POSTS ROWS COLS RUNS CLIENTS PGBENCH_SECONDS PARTITIONS STEP_TIMEOUT
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }
command -v pgbench >/dev/null || { echo "bench: pgbench is needed" >&2; exit 2; }

# The shard servers: by default those of `scripts/dev.sh demo`, whose
# socket directories sit beside the coordinator's (.scratch/sock,
# .scratch/sock-shard1, .scratch/sock-shard2) on the next two ports.
if [ -z "${SHARD1_HOST:-}" ] || [ -z "${SHARD1_PORT:-}" ] || [ -z "${SHARD2_HOST:-}" ] || [ -z "${SHARD2_PORT:-}" ]; then
    [ -n "${PGHOST:-}" ] && [ -n "${PGPORT:-}" ] || {
        echo "bench: set PGHOST and PGPORT (the shard servers' defaults derive from them), or SHARD1_HOST, SHARD1_PORT, SHARD2_HOST and SHARD2_PORT" >&2
        exit 2
    }
fi
SHARD1_HOST=${SHARD1_HOST:-${PGHOST%/sock}/sock-shard1}
SHARD1_PORT=${SHARD1_PORT:-$((PGPORT + 1))}
SHARD2_HOST=${SHARD2_HOST:-${PGHOST%/sock}/sock-shard2}
SHARD2_PORT=${SHARD2_PORT:-$((PGPORT + 2))}
require_positive SHARD1_PORT SHARD2_PORT
# The same database name on all three: they must be three servers.
if [ "$SHARD1_HOST:$SHARD1_PORT" = "$SHARD2_HOST:$SHARD2_PORT" ] ||
   [ "$SHARD1_HOST:$SHARD1_PORT" = "${PGHOST:-}:${PGPORT:-}" ] ||
   [ "$SHARD2_HOST:$SHARD2_PORT" = "${PGHOST:-}:${PGPORT:-}" ]; then
    echo "bench: the coordinator and the two shard servers must be three different servers" >&2
    exit 2
fi

CELLS=$((ROWS * COLS))
STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR

# Every server statement is bounded; NOTICEs are not wanted in the output.
export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

# Run a command (a lib.sh helper, pgbench) against shard server 1 or 2
# instead of the coordinator.
on_shard() { # 1|2 command...
    local host port
    if [ "$1" = 1 ]; then host=$SHARD1_HOST port=$SHARD1_PORT; else host=$SHARD2_HOST port=$SHARD2_PORT; fi
    shift
    PGHOST=$host PGPORT=$port "$@"
}

# pgbench of the latest-10 script against DB on the server of the
# environment; prints tps without connection time.
pgbench_tps() {
    local out tps failed
    out=$(timeout $((PGBENCH_SECONDS + 120)) pgbench -n -M prepared -c "$CLIENTS" -j "$CLIENTS" \
              -T "$PGBENCH_SECONDS" -f "$WORK/latest10.pgbench" "$DB" 2>&1) || { printf '%s\n' "$out" >&2; return 1; }
    tps=$(printf '%s\n' "$out" | sed -n 's/^tps = \([0-9.]*\) (without initial connection time).*/\1/p')
    failed=$(printf '%s\n' "$out" | sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p')
    [ -n "$tps" ] || { printf '%s\n' "$out" >&2; return 1; }
    if [ -n "$failed" ] && [ "$failed" != 0 ]; then log "WARNING: $failed failed pgbench transactions" >&2; fi
    echo "$tps"
}

T_START=$(date +%s)
echo "== cfstore sharded keyspace benchmark: POSTS=$POSTS; timeline ROWS=$ROWS COLS=$COLS ($CELLS cells); RUNS=$RUNS"
echo "   coordinator ${PGHOST:-(default host)} port ${PGPORT:-(default)}; shard1 $SHARD1_HOST port $SHARD1_PORT;" \
     "shard2 $SHARD2_HOST port $SHARD2_PORT; PARTITIONS=$PARTITIONS"
echo "   (1) map-reduce job vs one node and MongoDB's ${MONGODB_SECONDS} s; (2) pgbench latest-10, CLIENTS=$CLIENTS, ${PGBENCH_SECONDS} s each"

# ---------------------------------------------------------------------------
# The databases: the coordinator's first (its sessions hold connections to
# the shards' databases), then the shards', then the one-node database.
create_bench_db
on_shard 1 create_bench_db
on_shard 2 create_bench_db
DB=$DB_ONE create_bench_db

print_machine
echo "   debug_assertions=$(q -c "SHOW debug_assertions") (the coordinator's server)"
for s in 1 2; do
    echo "   shard server $s:"
    on_shard $s print_machine | tail -n 2
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench_shard.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT

# ---------------------------------------------------------------------------
STEP="create the cluster and the sharded keyspace"
for s in 1 2; do
    on_shard $s q -c "CREATE EXTENSION cfstore"
done
# (the output is the void results of the calls)
q >/dev/null <<SQL
CREATE EXTENSION cfstore_shard CASCADE;
SELECT cfstore_shard.add_server('shard1', '$DB', host => '$SHARD1_HOST', port => $SHARD1_PORT);
SELECT cfstore_shard.add_server('shard2', '$DB', host => '$SHARD2_HOST', port => $SHARD2_PORT);
SELECT cfstore_shard.create_cluster($PARTITIONS);
SELECT cfstore.create_keyspace('$KS');
SELECT cfstore.create_column_family('$KS', 'posts', comparator => 'UTF8Type',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('$KS', 'timeline', comparator => 'TimeUUIDType',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
-- the keyspace and its column families are created on both shards; its
-- reads and writes go there from now on
SELECT cfstore_shard.shard_keyspace('$KS');

-- Per-run figures: engine 'cfstore' is the figure through the coordinator,
-- 'heap' the reference it is compared with (lib.sh's PER_RUN_PAIRS).
CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'job',        'map-reduce job through the coordinator (wall time), s', 3, 'cfstore<=', 1, 'under 1 s'),
 (2, 'vs_one',     '  reference: the same count on one node, SQL on a cfstore keyspace, s', 3, NULL, NULL, ''),
 (3, 'vs_heap',    '  reference: the same count on one node, SQL on a heap table, s', 3, NULL, NULL, ''),
 (4, 'vs_mongodb', '  reference: MongoDB''s published time for the job (2 machines), s', 3, NULL, NULL, ''),
 (5, 'speedup',    'speed-up of the job over MongoDB''s ${MONGODB_SECONDS} s, x', 1, NULL, NULL, ''),
 (6, 'cold',       'the job in a new session (first call), s; reference: the same for SQL on a cfstore keyspace', 3, NULL, NULL, ''),
 (7, 'shards_ms',  'job report: timing.shards (map and reduce on the shards), ms', 1, NULL, NULL, ''),
 (8, 'final_ms',   'job report: timing.final (reduce on the coordinator), ms', 1, NULL, NULL, ''),
 (9, 'received',   'job report: counts.received (rows that reached the coordinator)', 0, 'cfstore<=', 2 * $TAGS, '<= 2 x $TAGS'),
 (10, 'tps',       'latest-10 slices per second (pgbench, $CLIENTS clients, prepared), through the coordinator; reference: directly on shard 1', 0, 'ratio>=', 0.5, 'ratio >= 0.5'),
 (11, 'load_posts', 'load of the posts through the coordinator (cfstore.insert), posts per second; reference: on one node', 0, NULL, NULL, ''),
 (12, 'load_cells', 'load of the timeline through the coordinator (cfstore.insert), cells per second', 0, NULL, NULL, '');
-- the map-reduce reports of the timed jobs
CREATE TABLE bench_report (run int, report jsonb);
-- the posts, as generated in $DB_ONE, to load through the coordinator
CREATE TABLE bench_posts (id text PRIMARY KEY, content text, tags jsonb);
SQL

# ---------------------------------------------------------------------------
STEP="generate the posts"
# The seed's posts: id, 'data for content <id>', and 3 to 5 distinct tags
# of tag1 ... tag43 (post i has 3 + i mod 3, chosen by a hash of i and the
# tag, so the data are the same on every server and every invocation).  The
# heap peer is this table; the one-node keyspace and the coordinator's
# staging table get the same rows.
DB=$DB_ONE q >/dev/null <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('$KS');
SELECT cfstore.create_column_family('$KS', 'posts', comparator => 'UTF8Type',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE TABLE posts (id text PRIMARY KEY, content text, tags jsonb);
INSERT INTO posts
SELECT i::text, 'data for content ' || i,
       (SELECT jsonb_agg('tag' || t) FROM (SELECT t FROM generate_series(1, $TAGS) t
                                            ORDER BY md5(i || '/' || t) LIMIT 3 + i % 3) x)
  FROM generate_series(0, $POSTS - 1) i;
SQL
DB=$DB_ONE q -c "\\copy posts TO '$WORK/posts.copy'"
q -c "\\copy bench_posts FROM '$WORK/posts.copy'"
EMIT_EXPECTED=$(DB=$DB_ONE q -c "SELECT sum(jsonb_array_length(tags)) FROM posts")
log "posts: $POSTS, $EMIT_EXPECTED tags in all ($(DB=$DB_ONE q -c "SELECT count(DISTINCT t) FROM posts, jsonb_array_elements_text(tags) t") distinct)"

# ---------------------------------------------------------------------------
# The loads: two cfstore.insert calls per post, in one statement; through
# the coordinator each write is batched per shard server and committed on
# both in one two-phase commit.
LOAD_POSTS="SELECT count(*) FROM SRC p,
  LATERAL (SELECT cfstore.insert('$KS', 'posts', p.id, 'content', p.content),
                  cfstore.insert('$KS', 'posts', p.id, 'tags', p.tags::text)) w"
STEP="load the posts through the coordinator"
checkpoint
on_shard 1 checkpoint
on_shard 2 checkpoint
t_co=$(timed "${LOAD_POSTS/SRC/bench_posts}")
log "posts through the coordinator: $POSTS in $t_co s"
STEP="load the posts on one node ($DB_ONE)"
DB=$DB_ONE checkpoint
t_one=$(DB=$DB_ONE timed "${LOAD_POSTS/SRC/posts}")
log "posts on one node: $POSTS in $t_one s"
rec 1 load_posts cfstore 1 "$(awk -v n="$POSTS" -v s="$t_co" 'BEGIN { printf "%.3f", n / s }')"
rec 1 load_posts heap 1 "$(awk -v n="$POSTS" -v s="$t_one" 'BEGIN { printf "%.3f", n / s }')"

# The timeline dataset, as bench/timeline.sh generates it (cells arriving
# interleaved across rows, TimeUUID names rising with i), written through
# the coordinator.
STEP="generate and load the timeline through the coordinator"
P_ROW=$(coprime "$ROWS")
q <<SQL
CREATE TABLE bench_cells AS
SELECT i, 'user' || (((i % $ROWS) * $P_ROW + (i / $ROWS) * 104729) % $ROWS) AS key,
       cfstore.min_timeuuid(timestamptz '$BASE_TS' + i * interval '1 millisecond') AS name,
       substr(md5('value' || i), 1, 20) AS value,
       $BASE_US + i * 1000 AS writetime
  FROM generate_series(0::bigint, $CELLS - 1) i;
SQL
t_cells=$(timed "SELECT count(*) FROM bench_cells c,
  LATERAL (SELECT cfstore.insert('$KS', 'timeline', c.key, c.name, c.value, c.writetime)) w")
log "timeline through the coordinator: $CELLS cells in $t_cells s"
rec 1 load_cells cfstore 1 "$(awk -v n="$CELLS" -v s="$t_cells" 'BEGIN { printf "%.3f", n / s }')"

STEP="VACUUM ANALYZE"
for s in 1 2; do on_shard $s q -c "VACUUM ANALYZE"; on_shard $s checkpoint; done
DB=$DB_ONE q -c "VACUUM ANALYZE"
DB=$DB_ONE checkpoint
q -c "VACUUM ANALYZE"
for s in 1 2; do
    log "shard server $s: $(on_shard $s q -c "SELECT format('%s posts, %s timeline rows', (SELECT count(DISTINCT key) FROM $KS.posts), (SELECT count(DISTINCT key) FROM $KS.timeline))")"
done

# ---------------------------------------------------------------------------
# The keys of the pgbench test: those of the timeline that live on shard
# server 1, numbered from 1, in a table of the same name and content in the
# coordinator's database and in shard server 1's.
STEP="the keys on shard server 1"
q <<SQL
CREATE TABLE bench_keys (i int PRIMARY KEY, key text NOT NULL);
INSERT INTO bench_keys
SELECT row_number() OVER (ORDER BY n), 'user' || n FROM generate_series(0, $ROWS - 1) n
 WHERE (cfstore_shard.locate('$KS', 'timeline', 'user' || n)).server = 'shard1';
ANALYZE bench_keys;
SQL
q -c "\\copy bench_keys TO '$WORK/keys.copy'"
on_shard 1 q -c "CREATE TABLE bench_keys (i int PRIMARY KEY, key text NOT NULL)" \
             -c "\\copy bench_keys FROM '$WORK/keys.copy'" -c "ANALYZE bench_keys"
NKEYS=$(q -c "SELECT count(*) FROM bench_keys")
(( NKEYS > 0 )) || { echo "bench: no key of the timeline lives on shard server 1" >&2; exit 1; }
log "$NKEYS of $ROWS timeline keys live on shard server 1"
# One latest-10 slice of a random key of them per transaction, the same
# script through the coordinator and directly on shard server 1.
cat > "$WORK/latest10.pgbench" <<EOF
\\set i random(1, $NKEYS)
SELECT column_name, value FROM cfstore.get_slice('$KS', 'timeline', (SELECT key FROM bench_keys WHERE i = :i), reversed => true, count => 10);
EOF
chmod 644 "$WORK"/*

# Content check: the latest 10 of every key of the list, through the
# coordinator and directly, as one checksum each.
STEP="content check of the latest-10 slices"
SLICES_SUM="SELECT count(*) || ' cells, md5 ' || md5(string_agg(k.key || '/' || s.column_name || '=' || s.value, ',' ORDER BY k.i))
  FROM bench_keys k, LATERAL cfstore.get_slice('$KS', 'timeline', k.key, reversed => true, count => 10) s"
CONTENT_OK=yes
sum_co=$(q -c "$SLICES_SUM")
sum_direct=$(on_shard 1 q -c "$SLICES_SUM")
if [ "$sum_co" = "$sum_direct" ] && [ "${sum_co%% *}" = $((NKEYS * (COLS < 10 ? COLS : 10))) ]; then
    log "content check: the same latest 10 of the $NKEYS keys through the coordinator and directly ($sum_co)"
else
    log "WARNING: latest-10 slices: through the coordinator $sum_co, directly on shard 1 $sum_direct"
    CONTENT_OK=no
fi

# ---------------------------------------------------------------------------
# The timed statements.  Each is timed by psql's \timing (wall time at the
# client) in a session where it ran once before (connections to the shards
# open, caches warm); its rows go to a file for the check.
MAP="\$\$SELECT tag, 1 FROM jsonb_array_elements_text((doc ->> 'tags')::jsonb) tag\$\$"
JOB="SELECT cfstore_shard.map_reduce('$KS', 'posts', $MAP, 'sum(value)')"
ONE="SELECT tag, count(*) FROM \"$KS\".posts, jsonb_array_elements_text(value::jsonb) tag WHERE column_name = 'tags' GROUP BY tag"
HEAP="SELECT tag, count(*) FROM posts, jsonb_array_elements_text(tags) tag GROUP BY tag"
log "plan of the one-node cfstore statement: $(DB=$DB_ONE q -c "EXPLAIN (COSTS OFF) $ONE" | sed 's/^ *//' | paste -sd' ')"
log "plan of the heap statement: $(DB=$DB_ONE q -c "EXPLAIN (COSTS OFF) $HEAP" | sed 's/^ *//' | paste -sd' ')"

# Time statement sql (the second of two runs in one session), its rows
# written to file out; print the seconds.
timed_warm() { # what sql out
    timed_psql "$1" -f - <<SQL
$2;
$2 \\g '$3'
SQL
}

# "tag|count" lines, in tag order, space separated.
tag_counts() { LC_ALL=C sort -t'|' -k1,1 "$1" | paste -sd' '; }

for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"

    # (1) the map-reduce job and the two one-node statements; which goes
    # first alternates from run to run
    if (( run % 2 == 1 )); then order="job one heap"; else order="one heap job"; fi
    for what in $order; do
        case $what in
            job)  STEP="run $run: map-reduce job through the coordinator"
                  t_job=$(timed_warm "map-reduce job" "$JOB" "$WORK/job.out")
                  log "map-reduce job: $t_job s" ;;
            one)  STEP="run $run: the count on one node, cfstore SQL"
                  t_one=$(DB=$DB_ONE timed_warm "one-node cfstore count" "$ONE" "$WORK/one.out")
                  log "one node, cfstore SQL: $t_one s" ;;
            heap) STEP="run $run: the count on one node, heap table"
                  t_heap=$(DB=$DB_ONE timed_warm "heap count" "$HEAP" "$WORK/heap.out")
                  log "one node, heap table: $t_heap s" ;;
        esac
    done
    STEP="run $run: first calls of new sessions"
    t_job_cold=$(timed "$JOB")
    t_one_cold=$(DB=$DB_ONE timed "$ONE")
    log "first call of a new session: map-reduce job $t_job_cold s, one-node cfstore SQL $t_one_cold s"

    STEP="run $run: the job's report and the check of the counts"
    q -v "r=$(cat "$WORK/job.out")" <<SQL
INSERT INTO bench_report VALUES ($run, :'r');
INSERT INTO bench_rep VALUES
  ($run, 'job', 'cfstore', 1, $t_job),
  ($run, 'vs_one', 'cfstore', 1, $t_job), ($run, 'vs_one', 'heap', 1, $t_one),
  ($run, 'vs_heap', 'cfstore', 1, $t_job), ($run, 'vs_heap', 'heap', 1, $t_heap),
  ($run, 'vs_mongodb', 'cfstore', 1, $t_job), ($run, 'vs_mongodb', 'heap', 1, $MONGODB_SECONDS),
  ($run, 'speedup', 'cfstore', 1, $MONGODB_SECONDS / $t_job),
  ($run, 'cold', 'cfstore', 1, $t_job_cold), ($run, 'cold', 'heap', 1, $t_one_cold);
INSERT INTO bench_rep
SELECT $run, m, 'cfstore', 1, (report #>> p)::float8
  FROM bench_report, (VALUES ('shards_ms', '{timing,shards}'::text[]), ('final_ms', '{timing,final}'),
                             ('received', '{counts,received}')) v(m, p)
 WHERE run = $run;
SQL
    log "job report: $(q -c "SELECT jsonb_build_object('shardCounts', report -> 'shardCounts', 'counts', report -> 'counts',
                                                       'timeMillis', report -> 'timeMillis', 'timing', report -> 'timing')
                               FROM bench_report WHERE run = $run")"
    # every post read once, every tag emitted, 43 counts, the same as on one node
    bad=$(q -c "SELECT concat_ws('; ',
                  CASE WHEN (report #>> '{counts,input}')::bigint <> $POSTS THEN 'counts.input ' || (report #>> '{counts,input}') || ', not $POSTS' END,
                  CASE WHEN (report #>> '{counts,emit}')::bigint <> $EMIT_EXPECTED THEN 'counts.emit ' || (report #>> '{counts,emit}') || ', not $EMIT_EXPECTED' END,
                  CASE WHEN (report #>> '{counts,output}')::int <> $TAGS THEN 'counts.output ' || (report #>> '{counts,output}') || ', not $TAGS' END)
                FROM bench_report WHERE run = $run")
    c_job=$(q -c "SELECT string_agg((e ->> '_id') || '|' || (e ->> 'value'), ' ' ORDER BY e ->> '_id' COLLATE \"C\")
                    FROM bench_report, jsonb_array_elements(report -> 'result') e WHERE run = $run")
    c_one=$(tag_counts "$WORK/one.out")
    c_heap=$(tag_counts "$WORK/heap.out")
    if [ -z "$bad" ] && [ "$c_job" = "$c_one" ] && [ "$c_job" = "$c_heap" ] && [ "$(wc -w <<< "$c_job")" = $TAGS ]; then
        log "check: the job, the cfstore SQL and the heap give the same $TAGS tag counts"
    else
        log "WARNING: the tag counts differ or the job's report is wrong: $bad"
        log "  job:  $c_job"
        log "  one:  $c_one"
        log "  heap: $c_heap"
        CONTENT_OK=no
    fi

    # (2) routed latest-10 slices; which side goes first alternates
    if (( run % 2 == 1 )); then order="coordinator direct"; else order="direct coordinator"; fi
    for side in $order; do
        STEP="run $run: pgbench latest-10 slices, $side"
        if [ $side = coordinator ]; then
            tps_co=$(pgbench_tps)
            log "through the coordinator: $tps_co tps"
        else
            tps_direct=$(on_shard 1 pgbench_tps)
            log "directly on shard server 1: $tps_direct tps"
        fi
    done
    rec "$run" tps cfstore 1 "$tps_co"
    rec "$run" tps heap 1 "$tps_direct"

    STEP="run $run: print"
    echo
    print_table "SELECT metric, cf, heap, ratio FROM ($PER_RUN_PAIRS) p WHERE run = $run" "run $run" sharded reference
done

# ---------------------------------------------------------------------------
STEP="medians"
echo
echo "== result: median of $RUNS run(s); ratio = median of the per-run ratios sharded/reference"
print_table "SELECT metric,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY cf) AS cf,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY heap) AS heap,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "shard: POSTS=$POSTS ROWS=$ROWS COLS=$COLS CLIENTS=$CLIENTS, median of $RUNS run(s)" \
    sharded reference
echo "loads: once, before run 1; wall times: psql's \\timing at the client, each statement's second run in its session"
echo "content check: $([ $CONTENT_OK = yes ] && echo "the job, one-node cfstore and heap gave the same $TAGS tag counts; the same latest-10 slices through the coordinator and directly" || echo 'FAILED (see WARNING lines)')"
echo "elapsed: $(( $(date +%s) - T_START )) s"
if [ $CONTENT_OK = no ]; then exit 1; fi
