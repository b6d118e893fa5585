#!/usr/bin/env bash
# bench/object.sh: nested objects (put_object, get_object, and one nested
# field read as one cell) against a heap table holding the same documents
# as jsonb with a btree key, in one go.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/object.sh
#
# The documents: OBJECTS objects of 20 top-level fields, two of them arrays
# (5 tags; 3 line items of 3 fields each), one a nested customer object,
# and a description of DESC_BYTES bytes, so that the heap's jsonb is stored
# compressed (TOAST) as documents of that size are.  cfstore: a column
# family with comparator CompositeType(UTF8Type), keyed by the id field
# (primary key {id}), the customer's email a CQL3 text column.  Heap:
# peer (id text PRIMARY KEY, doc jsonb).
#
# pgbench, CLIENTS clients, prepared statements, a random document each:
#   write  put_object(whole document)  against  INSERT ... ON CONFLICT (id)
#          DO UPDATE SET doc = peer.doc || excluded.doc (both replace the
#          fields given and keep the others)
#   read   get_object(key)  against  SELECT doc FROM peer WHERE id = $1
#   field  one nested field: get_slice(key, 'customer.email',
#          'customer.email', false, 1), a slice of one cell, against
#          SELECT doc #>> '{customer,email}' FROM peer WHERE id = $1, which
#          detoasts the whole document.  Goal: at least 1 x the heap's rate.
#   field_get  the same cell through cfstore.get(key, 'customer.email')
#   field_fdw  the same field through the foreign table's CQL3 row
#          (SELECT "customer.email" FROM objects WHERE id = $1).
# and, server-side (no client round trip: the engines' own cost), the same
# field for PROBES keys in one statement, a slice of one cell per key
# (LATERAL get_slice) against an index lookup and a detoast per key
# (LATERAL subquery), REPS timed repetitions (bench/lib.sh time_pair).
# and bytes per document after VACUUM.  RUNS runs; the median is printed.
#
# Settings: OBJECTS=20000 DESC_BYTES=2000 RUNS=3 CLIENTS=2 SECONDS_PER=10
# PROBES=20000 REPS=3 STEP_TIMEOUT=1800.  It drops and recreates the database
# cfstore_bench_object and leaves it in place.
set -eEuo pipefail
shopt -s inherit_errexit

OBJECTS=${OBJECTS:-20000}
DESC_BYTES=${DESC_BYTES:-2000}
RUNS=${RUNS:-3}
CLIENTS=${CLIENTS:-2}
SECONDS_PER=${SECONDS_PER:-10}
PROBES=${PROBES:-20000}
REPS=${REPS:-3}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench_object
KS=bench

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive OBJECTS DESC_BYTES RUNS CLIENTS SECONDS_PER PROBES REPS STEP_TIMEOUT
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }
command -v pgbench >/dev/null || { echo "bench: pgbench is needed" >&2; exit 2; }

STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR
export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

T_START=$(date +%s)
echo "== cfstore objects benchmark: OBJECTS=$OBJECTS documents of 20 fields (2 arrays), description $DESC_BYTES bytes; RUNS=$RUNS"
echo "   pgbench, CLIENTS=$CLIENTS, ${SECONDS_PER} s each"

create_bench_db
print_machine

STEP="create extension, metrics and the documents"
q <<SQL
CREATE EXTENSION cfstore;
SELECT cfstore.cql(\$\$CREATE KEYSPACE $KS WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}\$\$);
CREATE TABLE bench_rep (run int, metric text, engine text, rep int, value float8);
CREATE TABLE bench_metric (ord int, metric text PRIMARY KEY, label text, digits int,
                           target_kind text, target float8, target_label text);
INSERT INTO bench_metric VALUES
 (1, 'write', 'write a whole document, per second (pgbench)', 0, NULL, NULL, ''),
 (2, 'read', 'read a whole document by key, per second (pgbench)', 0, NULL, NULL, ''),
 (3, 'field', 'read one nested field by key (get_slice of one cell), per second (pgbench)', 0, 'ratio>=', 1, 'ratio >= 1'),
 (4, 'field_get', '  the same with cfstore.get (heap: the same query)', 0, NULL, NULL, ''),
 (5, 'field_fdw', '  the same through the foreign table (heap: the same query)', 0, NULL, NULL, ''),
 (6, 'field_nestloop', 'server-side: one nested field of PROBES documents per second', 0, 'ratio>=', 1, 'ratio >= 1'),
 (7, 'field_nestloop_cross', '  the same, each run right after the other engine''s', 0, NULL, NULL, ''),
 (8, 'bytes', 'bytes per document (relations and indexes, after VACUUM)', 1, NULL, NULL, '');
CREATE TABLE docs AS
SELECT i, jsonb_build_object(
  'id', 'd' || i, 'kind', 'order', 'status', (ARRAY['new', 'picked', 'shipped'])[1 + i % 3],
  'amount', round((i % 1000) * 1.37, 2), 'currency', 'USD', 'priority', i % 5, 'gift', i % 7 = 0,
  'created', '2013-06-10T12:00:00Z', 'updated', '2013-06-11T08:30:00Z', 'channel', 'web',
  'warehouse', 'w' || (i % 12), 'carrier', 'ups', 'tracking', md5('t' || i), 'coupon', NULL,
  'weight', (i % 50) / 10.0, 'notes', 'leave at the door',
  'description', substr(repeat(md5('d' || i) || ' ' || md5('e' || i) || ' ', 100), 1, $DESC_BYTES),
  'tags', jsonb_build_array('t' || (i % 10), 't' || (i % 11), 'sale', 'summer', 'new'),
  'items', jsonb_build_array(
     jsonb_build_object('sku', 87482734 + i, 'quantity', 1 + i % 4, 'price', 9.99),
     jsonb_build_object('sku', 32851042 + i, 'quantity', 2, 'price', 19.5),
     jsonb_build_object('sku', 11111111 + i, 'quantity', 1, 'price', 4.25)),
  'customer', jsonb_build_object('name', 'Customer ' || i, 'tel', '231 456 ' || (1000 + i % 9000),
                                 'email', 'c' || i || '@example.com')) AS doc
  FROM generate_series(1, $OBJECTS) i;
ALTER TABLE docs ADD PRIMARY KEY (i);
CREATE TABLE bench_probes AS
  SELECT n, 'd' || (1 + (n::bigint * $(coprime "$OBJECTS") + 3) % $OBJECTS) AS id FROM generate_series(0, $PROBES - 1) n;
ANALYZE bench_probes;
SQL
load_sql_helpers
log "document: $(q -c "SELECT (SELECT count(*) FROM jsonb_object_keys(doc)) || ' fields, ' || octet_length(doc::text) || ' bytes of JSON text' FROM docs WHERE i = 1")"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cfstore_bench_object.XXXXXX")
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/cf_write.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT cfstore.put_object('$KS', 'objects', doc, '{id}') FROM docs WHERE i = :k;
EOF
cat > "$WORK/heap_write.pgbench" <<EOF
\\set k random(1, $OBJECTS)
INSERT INTO peer SELECT doc ->> 'id', doc FROM docs WHERE i = :k ON CONFLICT (id) DO UPDATE SET doc = peer.doc || excluded.doc;
EOF
cat > "$WORK/cf_read.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT cfstore.get_object('$KS', 'objects', jsonb_build_object('id', 'd' || :k));
EOF
cat > "$WORK/heap_read.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT doc FROM peer WHERE id = 'd' || :k;
EOF
cat > "$WORK/cf_field.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT value FROM cfstore.get_slice('$KS', 'objects', 'd' || :k, 'customer.email'::text, 'customer.email'::text, false, 1);
EOF
cat > "$WORK/cf_field_get.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT value FROM cfstore.get('$KS', 'objects', 'd' || :k, 'customer.email'::text);
EOF
cat > "$WORK/heap_field.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT doc #>> '{customer,email}' FROM peer WHERE id = 'd' || :k;
EOF
cat > "$WORK/cf_field_fdw.pgbench" <<EOF
\\set k random(1, $OBJECTS)
SELECT "customer.email" FROM $KS.objects WHERE id = 'd' || :k;
EOF
cp "$WORK/heap_field.pgbench" "$WORK/heap_field_fdw.pgbench"
cp "$WORK/heap_field.pgbench" "$WORK/heap_field_get.pgbench"
chmod 644 "$WORK"/*

CF_NL="SELECT count(*), sum(length(s.value)) FROM bench_probes k
         CROSS JOIN LATERAL cfstore.get_slice('$KS', 'objects', k.id, 'customer.email'::text, 'customer.email'::text, false, 1) s"
HEAP_NL="SELECT count(*), sum(length(p.v)) FROM bench_probes k
         CROSS JOIN LATERAL (SELECT doc #>> '{customer,email}' AS v FROM peer WHERE id = k.id OFFSET 0) p"

pgb() { # engine metric
    local tps
    tps=$(timeout $((SECONDS_PER + 120)) pgbench -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$SECONDS_PER" \
            -f "$WORK/$1_$2.pgbench" "$DB" 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -n1)
    [ -n "$tps" ] || { echo "bench: pgbench printed no tps for $1 $2" >&2; exit 1; }
    echo "$tps"
}

CONTENT_OK=yes
for run in $(seq 1 "$RUNS"); do
    echo
    echo "== run $run of $RUNS"
    STEP="run $run: create and load both"
    q <<SQL
DROP TABLE IF EXISTS peer;
CREATE TABLE peer (id text PRIMARY KEY, doc jsonb);
SELECT cfstore.cql('DROP TABLE objects', '$KS') FROM cfstore.column_family WHERE keyspace = '$KS' AND name = 'objects';
SELECT cfstore.cql(\$\$CREATE TABLE objects (id text PRIMARY KEY, "customer.email" text)\$\$, '$KS');
SQL
    OREL=$(q -c "SELECT cfstore._storage_relation('$KS', 'objects')")
    t_heap=$(timed "INSERT INTO peer SELECT doc ->> 'id', doc FROM docs ORDER BY i")
    t_cf=$(timed "SELECT count(cfstore.put_object('$KS', 'objects', doc, '{id}')) FROM docs")
    log "load: heap $t_heap s, cfstore $t_cf s"
    q -c "VACUUM ANALYZE $OREL" -c "VACUUM ANALYZE peer"
    rec "$run" bytes cfstore 1 "$(q -c "SELECT pg_total_relation_size('$OREL')::float8 / $OBJECTS")"
    rec "$run" bytes heap 1 "$(q -c "SELECT pg_total_relation_size('peer')::float8 / $OBJECTS")"
    log "heap: $(q -c "SELECT round(avg(pg_column_size(doc))) || ' bytes stored per jsonb of ' || round(avg(octet_length(doc::text))) || ' bytes of text; ' || count(*) FILTER (WHERE pg_column_size(doc) < octet_length(doc::text) / 2) || ' of ' || count(*) || ' compressed to under half' FROM peer")"

    STEP="run $run: content check"
    bad=$(q -c "SELECT count(*) FROM docs d WHERE d.i % 97 = 0 AND (
                  cfstore.get_object('$KS', 'objects', jsonb_build_object('id', 'd' || d.i)) IS DISTINCT FROM d.doc
               OR (SELECT value FROM cfstore.get('$KS', 'objects', 'd' || d.i, 'customer.email'::text))
                  IS DISTINCT FROM (SELECT doc #>> '{customer,email}' FROM peer WHERE id = 'd' || d.i))")
    if [ "$bad" = 0 ]; then log "content check: the same documents and fields for $((OBJECTS / 97)) keys"
    else log "WARNING: content check: $bad documents differ"; CONTENT_OK=no; fi

    STEP="run $run: pgbench"
    for metric in read field field_get field_fdw write; do
        if (( run % 2 == 1 )); then order="cfstore heap"; else order="heap cfstore"; fi
        for engine in $order; do
            if [ $engine = cfstore ]; then f=cf; else f=heap; fi
            tps=$(pgb $f $metric)
            rec "$run" $metric $engine 1 "$tps"
            log "$engine $metric: $tps tps"
        done
    done
    STEP="run $run: nested loop"
    time_pair "$run" field_nestloop "$PROBES" "$CF_NL" "$HEAP_NL"
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
  FROM ($PER_RUN_PAIRS) p GROUP BY metric" "object: OBJECTS=$OBJECTS DESC_BYTES=$DESC_BYTES CLIENTS=$CLIENTS, median of $RUNS run(s)"
echo "content check: $([ $CONTENT_OK = yes ] && echo 'cfstore and heap returned the same documents' || echo 'FAILED (see WARNING lines)')"
echo "elapsed: $(( $(date +%s) - T_START )) s"
if [ $CONTENT_OK = no ]; then exit 1; fi
