#!/usr/bin/env bash
# bench/cql.sh: seed 003's timeline query on a CQL3 table, through its
# foreign table (rows 'cql'), against a heap table with
# PRIMARY KEY (user_id, tweet_id) holding the same rows, in one go.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/cql.sh
#
# The CQL3 table is seed 003's timeline, with tweet_id a timeuuid:
#   CREATE TABLE timeline (user_id varchar, tweet_id timeuuid, author varchar,
#                          body varchar, PRIMARY KEY (user_id, tweet_id))
# made by cfstore.cql(); its rows are cells as Cassandra 1.2 lays them out
# (a row marker, an author cell and a body cell per CQL row), loaded by COPY
# into the column family's storage relation in the order the tweets were
# posted (rows interleaved across users).  The heap peer gets the same rows
# in the same order.
#
# (a) pgbench, CLIENTS clients, prepared statements, one query per
#     transaction for a random user:
#       SELECT * FROM bench.timeline WHERE user_id = $1 ORDER BY tweet_id DESC LIMIT 50
#     against the same on the peer.  Goal: at least 1.5 x the heap's rate.
# (b) server-side nested loop: the same query for PROBES users in one
#     statement (a LATERAL subquery per user), both engines: the engines'
#     own cost without the client round trip.
# (c) shared buffers per query (mean of 100 users), and bytes per CQL row
#     of each side's relations after VACUUM.
#
# Each run reloads both sides, VACUUM ANALYZEs them, checks that both return
# the same rows, then measures; the engines alternate which goes first.  It
# prints metric | cfstore | heap | ratio | target | verdict per run and for
# the median of RUNS runs.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench_cql
#   USERS=2000 TWEETS=200   users and tweets per user's timeline
#   RUNS=3           full runs (load + measure); the result is the median
#   CLIENTS=2        pgbench clients
#   SECONDS_PER=10   length of each pgbench test
#   PROBES=20000     users probed by the nested-loop statement
#   REPS=3           timed repetitions of the nested-loop statement per run
#   STEP_TIMEOUT=1800  seconds any one step may take
#
# It drops and recreates the database cfstore_bench_cql and leaves it in
# place at the end for inspection.
set -eEuo pipefail
shopt -s inherit_errexit

USERS=${USERS:-2000}
TWEETS=${TWEETS:-200}
RUNS=${RUNS:-3}
CLIENTS=${CLIENTS:-2}
SECONDS_PER=${SECONDS_PER:-10}
PROBES=${PROBES:-20000}
REPS=${REPS:-3}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_cql
KS=bench
BASE_TS='2020-01-01 00:00:00+00'
BASE_US=1577836800000000

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive USERS TWEETS RUNS CLIENTS SECONDS_PER PROBES REPS STEP_TIMEOUT
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }
command -v pgbench >/dev/null || { echo "bench: pgbench is needed" >&2; exit 2; }

ROWS=$((USERS * TWEETS))
STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR

export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

P_USER=$(coprime "$USERS")    # which user posts each tweet
P_KEY=$(coprime "$USERS")     # order of the probed users

T_START=$(date +%s)
echo "== cfstore CQL3 table benchmark: seed 003's timeline, USERS=$USERS x TWEETS=$TWEETS ($ROWS CQL rows); RUNS=$RUNS"
echo "   (a) pgbench latest-50, CLIENTS=$CLIENTS, ${SECONDS_PER} s each; (b) nested loop over PROBES=$PROBES users, REPS=$REPS"

# ---------------------------------------------------------------------------
create_bench_db
print_machine

# ---------------------------------------------------------------------------
STEP="create extension, helper functions and the dataset"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.cql(\$\$CREATE KEYSPACE $KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}\$\$);

CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'pgbench',  'latest-50 queries per second (pgbench, $CLIENTS clients, prepared)', 0, 'ratio>=', 1.5, 'ratio >= 1.5'),
 (2, 'nestloop', 'nested loop: latest-50 queries per second (server-side)', 0, NULL, NULL, ''),
 (3, 'nestloop_cross', '  the same, each run right after the other engine''s', 0, NULL, NULL, ''),
 (4, 'buf',      'shared buffers per latest-50 query (mean of 100 users)', 2, NULL, NULL, ''),
 (5, 'bytes',    'bytes per CQL row (relation and indexes, after VACUUM)', 1, NULL, NULL, ''),
 (6, 'load',     'load (COPY) CQL rows per second', 0, NULL, NULL, '');

-- the tweets, in the order they were posted
CREATE TABLE bench_rows AS
SELECT i, 'user' || ((i * $P_USER + i / $USERS) % $USERS) AS user_id,
       cfstore.min_timeuuid(timestamptz '$BASE_TS' + i * interval '1 millisecond') AS tweet_id,
       'author' || (i % 97) AS author,
       substr(md5('b' || i), 1, 24) || ' ' || substr(md5('c' || i), 1, 24) AS body,
       $BASE_US + i * 1000 AS writetime
  FROM generate_series(0::bigint, $ROWS - 1) i;
CREATE TABLE bench_probes AS
  SELECT n, 'user' || ((n::bigint * $P_KEY + 3) % $USERS) AS user_id FROM generate_series(0, $PROBES - 1) n;
ANALYZE bench_rows; ANALYZE bench_probes;
SQL

load_sql_helpers
STEP="write the COPY files"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench_cql.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
q -c "\\copy (SELECT user_id, tweet_id, author, body FROM bench_rows ORDER BY i) TO '$WORK/heap.copy'"
# Cassandra 1.2's cells of each CQL row: (tweet_id, '') the marker, (tweet_id, 'author'), (tweet_id, 'body')
q -c "\\copy (SELECT convert_to(user_id, 'UTF8'),
                     '\\x0010'::bytea || uuid_send(tweet_id::uuid) || '\\x00'::bytea || c.name, c.value, writetime
                FROM bench_rows,
                     LATERAL (VALUES ('\\x000000'::bytea, ''::bytea),
                                     ('\\x0006'::bytea || convert_to('author', 'UTF8') || '\\x00'::bytea, convert_to(author, 'UTF8')),
                                     ('\\x0004'::bytea || convert_to('body', 'UTF8') || '\\x00'::bytea, convert_to(body, 'UTF8'))) c(name, value)
               ORDER BY i) TO '$WORK/cf.copy'"
cat > "$WORK/cf.pgbench" <<EOF
\\set k random(0, $((USERS - 1)))
SELECT * FROM $KS.timeline WHERE user_id = 'user' || :k ORDER BY tweet_id DESC LIMIT 50;
EOF
cat > "$WORK/heap.pgbench" <<EOF
\\set k random(0, $((USERS - 1)))
SELECT * FROM peer WHERE user_id = 'user' || :k ORDER BY tweet_id DESC LIMIT 50;
EOF
chmod 644 "$WORK"/*

CF_NL="SELECT count(*), sum(length(l.author) + length(l.body)) FROM bench_probes p
         CROSS JOIN LATERAL (SELECT * FROM $KS.timeline t WHERE t.user_id = p.user_id
                              ORDER BY tweet_id DESC LIMIT 50) l"
HEAP_NL="SELECT count(*), sum(length(l.author) + length(l.body)) FROM bench_probes p
         CROSS JOIN LATERAL (SELECT * FROM peer t WHERE t.user_id = p.user_id
                              ORDER BY tweet_id DESC LIMIT 50) l"
# (the sum needs the columns: a count alone lets the heap's plan be an index-only scan)
CF_ONE="SELECT sum(length(author) + length(body)) FROM (SELECT * FROM $KS.timeline WHERE user_id = 'userKEY' ORDER BY tweet_id DESC LIMIT 50) s"
HEAP_ONE="SELECT sum(length(author) + length(body)) FROM (SELECT * FROM peer WHERE user_id = 'userKEY' ORDER BY tweet_id DESC LIMIT 50) s"

CONTENT_OK=yes
for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"

    STEP="run $run: create the peer and the CQL3 table"
    q <<SQL
DROP TABLE IF EXISTS peer;
CREATE TABLE peer (user_id text, tweet_id cfstore.timeuuid, author text, body text, PRIMARY KEY (user_id, tweet_id));
SELECT cfstore.cql('DROP TABLE timeline', '$KS') FROM cfstore.column_family WHERE keyspace = '$KS' AND name = 'timeline';
-- this also creates the foreign table $KS.timeline, rows 'cql'
SELECT cfstore.cql(\$\$CREATE TABLE timeline (user_id varchar, tweet_id timeuuid, author varchar, body varchar,
                                            PRIMARY KEY (user_id, tweet_id))\$\$, '$KS');
SQL
    TLREL=$(q -c "SELECT cfstore._storage_relation('$KS', 'timeline')")

    if (( run % 2 == 1 )); then order="heap cfstore"; else order="cfstore heap"; fi
    for engine in $order; do
        STEP="run $run: load $engine"
        checkpoint
        if [ $engine = heap ]; then
            t1=$(copy_in peer "(user_id, tweet_id, author, body)" "$WORK/heap.copy")
        else
            t1=$(copy_in "$TLREL" "(key, column_name, value, writetime)" "$WORK/cf.copy")
        fi
        rec "$run" load $engine 1 "$(awk -v n=$ROWS -v s="$t1" 'BEGIN { printf "%.3f", n / s }')"
        log "$engine: $ROWS CQL rows in $t1 s"
    done
    STEP="run $run: VACUUM ANALYZE"
    q -c "VACUUM ANALYZE $TLREL" -c "VACUUM ANALYZE peer"
    checkpoint
    rec "$run" bytes cfstore 1 "$(q -c "SELECT pg_total_relation_size('$TLREL')::float8 / $ROWS")"
    rec "$run" bytes heap 1 "$(q -c "SELECT pg_total_relation_size('peer')::float8 / $ROWS")"

    STEP="run $run: content check"
    bad=$(q <<SQL
SELECT count(*) FROM bench_probes p
 WHERE p.n < 200
   AND (SELECT string_agg(tweet_id::text || '=' || author || '/' || body, ',' ORDER BY tweet_id DESC)
          FROM (SELECT * FROM $KS.timeline WHERE user_id = p.user_id ORDER BY tweet_id DESC LIMIT 50) s)
       IS DISTINCT FROM
       (SELECT string_agg(tweet_id::text || '=' || author || '/' || body, ',' ORDER BY tweet_id DESC)
          FROM (SELECT * FROM peer WHERE user_id = p.user_id ORDER BY tweet_id DESC LIMIT 50) s)
SQL
)
    cqlcheck=$(q -c "SELECT count(*) FROM cfstore.cql(\$\$SELECT * FROM timeline WHERE user_id = 'user7' ORDER BY tweet_id DESC LIMIT 50\$\$, '$KS')")
    if [ "$bad" = 0 ] && [ "$cqlcheck" = "$(q -c "SELECT count(*) FROM (SELECT 1 FROM peer WHERE user_id = 'user7' LIMIT 50) s")" ]; then
        log "content check: same latest 50 rows for 200 users; cql() agrees for one"
    else
        log "WARNING: content check: cfstore and heap differ for $bad of 200 users (cql(): $cqlcheck rows)"
        CONTENT_OK=no
    fi
    log "plans: cfstore: $(q -c "SELECT bench_plan_shape(\$s\$$CF_NL\$s\$)")"
    log "plans: heap: $(q -c "SELECT bench_plan_shape(\$s\$$HEAP_NL\$s\$)")"

    STEP="run $run: shared buffers per query"
    for engine in cfstore heap; do
        if [ $engine = cfstore ]; then rels="ARRAY['$TLREL']::regclass[]"; s=$CF_ONE
        else rels="ARRAY['peer']::regclass[]"; s=$HEAP_ONE; fi
        b=$(q -c "SELECT avg(b) FROM unnest(bench_buffers($rels, \$s\$${s//KEY/1}\$s\$,
                    ARRAY(SELECT replace(\$s\$$s\$s\$, 'KEY', ((n * 97 + 5) % $USERS)::text) FROM generate_series(1, 100) n))) b")
        rec "$run" buf $engine 1 "$b"
        log "$engine: $(printf '%.2f' "$b") shared buffers per latest-50 query (mean of 100 users)"
    done

    STEP="run $run: pgbench"
    if (( run % 2 == 1 )); then order="cfstore heap"; else order="heap cfstore"; fi
    for engine in $order; do
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
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "cql: USERS=$USERS TWEETS=$TWEETS PROBES=$PROBES CLIENTS=$CLIENTS, median of $RUNS run(s)"
echo "content check: $([ $CONTENT_OK = yes ] && echo 'cfstore and heap returned the same rows' || echo 'FAILED (see WARNING lines)')"
echo "elapsed: $(( $(date +%s) - T_START )) s"
if [ $CONTENT_OK = no ]; then exit 1; fi
