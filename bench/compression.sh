#!/usr/bin/env bash
# bench/compression.sh: compression_options on JSON documents of about 600
# bytes: the space a column family takes compressed with lz4 (and its
# dictionary) and with pglz against the same column family uncompressed,
# and what that costs "latest 10" slices and loads; a heap table with a
# btree primary key holds the same rows for reference.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/compression.sh
#
# Dataset: ROWS row keys 'user<n>' (UTF8Type) x COLS documents each
# (TimeUUIDType names rising with arrival, UTF8Type values), arriving
# interleaved across rows.  A document is a tweet as Twitter's API gave it,
# cut down: created_at, id, id_str, a text of 12 to 22 words (common words
# and made-up ones, about 110 characters), one of three source links, the
# user (id, screen name, language, followers), counts, empty entities and
# flags; 560 to 640 bytes.  What documents share is their keys and constant
# strings, as in tweets and most stored JSON; one document alone repeats
# little.  Four tables get the same cells: column families plain, lz4
# ('LZ4Compressor') and pglz ('DeflateCompressor'), loaded through their
# storage relations (whose inserts place and compress cells as
# cfstore.insert does), and a heap table (key text, name timeuuid, value
# text, PRIMARY KEY (key, name)), whose values are too short for TOAST to
# compress.  Then, per run:
#   - the load time of each (one INSERT ... SELECT);
#   - bytes per document after VACUUM: the whole file, and cfstore's tree
#     pages only (cfstore.stats().tree_pages);
#   - server-side "latest 10" slices per second: SLICES reversed slices of
#     10 columns of random rows in one statement, reading every value, REPS
#     timed repetitions alternating the column families (median);
#   - the ratios against plain; targets: lz4's file at most 1/2 of plain's,
#     its latest-10 slices at least 0.9 of plain's rate.  pglz has no
#     target: it compresses each value alone, without a dictionary, and
#     keeps a value as it is unless that saves a quarter (pglz's default
#     strategy), which a document of this kind rarely does.
# It prints each run, then the medians of RUNS runs.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench
#   ROWS=1000 COLS=100 RUNS=3 SLICES=20000 REPS=5
#   STEP_TIMEOUT=1800  seconds any one step may take
#
# It drops and recreates the database cfstore_bench (left in place at the
# end).  It needs the cfstore extension installed on the server and psql.
set -eEuo pipefail

ROWS=${ROWS:-1000}
COLS=${COLS:-100}
RUNS=${RUNS:-3}
SLICES=${SLICES:-20000}
REPS=${REPS:-5}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive ROWS COLS RUNS SLICES REPS STEP_TIMEOUT
trap 'echo "bench: failed at step: ${STEP:-?}" >&2' ERR

export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE
N=$(( ROWS * COLS ))
P=$(coprime "$ROWS")

echo "== cfstore compression benchmark: ROWS=$ROWS COLS=$COLS ($N documents) RUNS=$RUNS SLICES=$SLICES REPS=$REPS"
create_bench_db
print_machine

STEP="documents"
q <<SQL
CREATE EXTENSION cfstore;
CREATE TABLE result (run int, cf text, metric text, value float8);
-- common words (two in five words of a text) and made-up ones
CREATE TABLE common (i int, w text);
INSERT INTO common SELECT ordinality - 1, w FROM unnest(string_to_array(
  'the a to and of in is for on that with this it at my you be are from just new today now love '
  'great day time good people what so we all not', ' ')) WITH ORDINALITY w;
CREATE TABLE docs AS
SELECT i, 'user' || (((i % $ROWS) * $P + (i / $ROWS) * 104729) % $ROWS) AS key,
       cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '1 millisecond') AS name,
       format('{"created_at": "%s", "id": %s, "id_str": "%s", "text": "%s", "source": "%s", '
              '"truncated": false, "in_reply_to_status_id": null, "in_reply_to_user_id": null, '
              '"user": {"id": %s, "screen_name": "user%s", "lang": "en", "followers_count": %s, "verified": false}, '
              '"retweet_count": %s, "favorite_count": %s, "entities": {"hashtags": [], "urls": [], "user_mentions": []}, '
              '"favorited": false, "retweeted": false, "lang": "en"}',
              to_char(timestamptz '2013-11-01 UTC' + i * interval '7 seconds', 'Dy Mon DD HH24:MI:SS +0000 YYYY'),
              400000000000000000 + i * 7919, 400000000000000000 + i * 7919,
              (SELECT left(string_agg(CASE WHEN h % 5 < 2 THEN (SELECT w FROM common WHERE common.i = h % 30)
                                           ELSE substr(md5(h::text), 1, 3 + h % 7) END, ' '), 140)
                 FROM (SELECT abs(hashint8(i * 64 + k)) AS h FROM generate_series(1, 12 + i % 11) k) t),
              (ARRAY['<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>',
                     '<a href=\"http://twitter.com\" rel=\"nofollow\">Twitter Web Client</a>',
                     '<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>'])[1 + i % 3],
              i % 500, i % 500, (i * 13) % 997, i % 51, i % 81) AS value
  FROM generate_series(0::bigint, $N - 1) i;
SELECT count(*), min(length(value)), round(avg(length(value))), max(length(value)) FROM docs;
SQL
log "documents: $(q -c 'SELECT format($$%s, %s to %s bytes, %s on average$$, count(*), min(length(value)), max(length(value)), round(avg(length(value)))) FROM docs')"

CFS="plain lz4 pglz"
for run in $(seq 1 "$RUNS"); do
    STEP="run $run: load"
    q >/dev/null <<'SQL'
SELECT cfstore.drop_keyspace(name) FROM cfstore.keyspace WHERE name = 'zip';
DROP TABLE IF EXISTS heap;
SELECT cfstore.create_keyspace('zip');
SELECT cfstore.create_column_family('zip', cf, comparator => 'TimeUUIDType', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type', compression_options => opts::jsonb)
  FROM (VALUES ('plain', NULL), ('lz4', '{"sstable_compression": "LZ4Compressor"}'),
               ('pglz', '{"sstable_compression": "DeflateCompressor"}')) v(cf, opts);
CREATE TABLE heap (key text, name cfstore.timeuuid, value text, PRIMARY KEY (key, name));
SQL
    checkpoint
    for cf in $CFS heap; do
        if [ "$cf" = heap ]; then
            secs=$(timed "INSERT INTO heap SELECT key, name, value FROM docs ORDER BY i")
        else
            rel=$(q -c "SELECT cfstore._storage_relation('zip', '$cf')")
            secs=$(timed "INSERT INTO $rel (key, column_name, value, writetime)
                          SELECT convert_to(key, 'UTF8'), uuid_send(name::uuid), convert_to(value, 'UTF8'),
                                 1577836800000000 + i * 1000 FROM docs ORDER BY i")
        fi
        q -c "INSERT INTO result VALUES ($run, '$cf', 'load_docs_per_s', $N / $secs)"
        checkpoint
    done
    STEP="run $run: vacuum and sizes"
    q -c "VACUUM heap"
    for cf in $CFS; do
        q -c "VACUUM $(q -c "SELECT cfstore._storage_relation('zip', '$cf')")"
        q -c "INSERT INTO result
              SELECT $run, '$cf', 'file_bytes_per_doc', pg_relation_size(cfstore._storage_relation('zip', '$cf')::regclass)::float8 / $N
              UNION ALL
              SELECT $run, '$cf', 'tree_bytes_per_doc', s.tree_pages * 8192.0 / $N FROM cfstore.stats('zip', '$cf') s"
    done
    q -c "INSERT INTO result VALUES ($run, 'heap', 'file_bytes_per_doc', pg_total_relation_size('heap')::float8 / $N)"

    STEP="run $run: latest-10 slices"
    # the statement reads every value it returns; rep 0 warms up
    for rep in $(seq 0 "$REPS"); do
        for cf in $CFS; do
            secs=$(timed "SELECT count(*), sum(length(s.value)) FROM generate_series(1, $SLICES) g,
                            LATERAL cfstore.get_slice('zip', '$cf', 'user' || (g * $P) % $ROWS, reversed => true, count => 10) s")
            (( rep == 0 )) || q -c "INSERT INTO result VALUES ($run, '$cf', 'latest10_rep', $SLICES / $secs)"
        done
    done
    q -c "INSERT INTO result SELECT $run, cf, 'latest10_per_s', percentile_cont(0.5) WITHIN GROUP (ORDER BY value)
            FROM result WHERE run = $run AND metric = 'latest10_rep' GROUP BY cf"
    log "run $run: $(q -c "SELECT string_agg(format('%s %s=%s', cf, metric, round(value::numeric, 1)), ', ' ORDER BY metric, cf)
                            FROM result WHERE run = $run AND metric <> 'latest10_rep'")"
done

echo
echo "== medians of $RUNS runs; ratios against plain (uncompressed cfstore)"
qt <<'SQL'
WITH m AS (
  SELECT cf, metric, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS v
    FROM result WHERE metric <> 'latest10_rep' GROUP BY cf, metric)
SELECT m.metric, m.cf,
       round(m.v::numeric, 1) AS value,
       round((m.v / p.v)::numeric, 3) AS "ratio to plain",
       CASE WHEN m.cf = 'lz4' AND m.metric = 'file_bytes_per_doc' THEN
              CASE WHEN m.v / p.v <= 0.5 THEN 'PASS (<= 0.5)' ELSE 'FAIL (<= 0.5)' END
            WHEN m.cf = 'lz4' AND m.metric = 'latest10_per_s' THEN
              CASE WHEN m.v / p.v >= 0.9 THEN 'PASS (>= 0.9)' ELSE 'FAIL (>= 0.9)' END
            ELSE '' END AS target
  FROM m LEFT JOIN m p ON p.metric = m.metric AND p.cf = 'plain'
 ORDER BY m.metric, array_position(ARRAY['plain', 'lz4', 'pglz', 'heap'], m.cf);
SQL
