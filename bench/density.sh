#!/usr/bin/env bash
# bench/density.sh: bytes per cell at every row width, before and after
# VACUUM, cfstore against a heap table with a btree primary key holding
# the same rows.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/density.sh
#
# For each row width W in WIDTHS and value size V in VALUES: CELLS cells
# (CELLS / W row keys 'user<n>', UTF8Type; W TimeUUIDType names per row,
# rising with arrival; V-byte UTF8Type values), arriving interleaved across
# rows (each round visits every row once, in its own order), inserted one
# statement per engine through cfstore's storage relation, whose inserts
# place cells as cfstore.insert does, and into the heap table
# (key text, name timeuuid, value text, writetime bigint,
# PRIMARY KEY (key, name)).  It prints, per shape:
#   - bytes per cell right after the load, and after VACUUM, for the whole
#     relation (all blocks of the file, with its indexes for the heap);
#   - cfstore's bytes per cell counting only the pages of the tree after
#     VACUUM (cfstore.stats().tree_pages: the leaves the compaction
#     unlinked stay in the file, and are freed for new pages once no
#     snapshot can reach them; VACUUM does not shrink the file, as heap's
#     VACUUM shrinks it only from its end);
#   - cfstore's average leaf fill (cfstore.stats().leaf_fill) before and
#     after VACUUM;
#   - bytes per cell after VACUUM FULL of both (a new file: cfstore copies
#     the cells in key order, and its rightmost leaf splits 90/10);
#   - the ratios against the heap.
# The figures are sizes, not times: one run is enough, they do not vary.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench
#   CELLS=200000     cells per shape
#   WIDTHS="10 50 100 200 1000"   cells per row
#   VALUES="20 24"   value bytes
#   VACUUM_OPTIONS=""  options of both VACUUMs, e.g. "(FREEZE)": a plain
#                    VACUUM keeps the transaction ids of cells younger than
#                    vacuum_freeze_min_age (6 bytes a cell), as heap keeps
#                    its tuples' xmin
#   STEP_TIMEOUT=1800  seconds any one step may take
#
# It drops and recreates the database cfstore_bench (left in place at the
# end).  It needs the cfstore extension installed on the server and psql.
set -eEuo pipefail

CELLS=${CELLS:-200000}
WIDTHS=${WIDTHS:-10 50 100 200 1000}
VALUES=${VALUES:-20 24}
VACUUM_OPTIONS=${VACUUM_OPTIONS:-}
STEP_TIMEOUT=${STEP_TIMEOUT:-1800}
DB=cfstore_bench

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive CELLS STEP_TIMEOUT
trap 'echo "bench: failed at step: ${STEP:-?}" >&2' ERR

export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

echo "== cfstore density benchmark: CELLS=$CELLS WIDTHS=\"$WIDTHS\" VALUES=\"$VALUES\" VACUUM_OPTIONS=\"$VACUUM_OPTIONS\""
create_bench_db
print_machine

STEP="create extension"
q <<'SQL'
CREATE EXTENSION cfstore;
SELECT cfstore.create_keyspace('density');
CREATE TABLE density (width int, vbytes int, engine text, phase text,
                      bytes bigint, tree_bytes bigint, cells bigint, leaf_fill numeric);
SQL

for V in $VALUES; do
    for W in $WIDTHS; do
        require_positive V W
        ROWS=$(( CELLS / W ))
        (( ROWS > 0 )) || { echo "bench: width $W is above CELLS" >&2; exit 2; }
        N=$(( ROWS * W ))
        P=$(coprime "$ROWS")
        CF="w${W}_v${V}"
        log "width $W, $V-byte values: $ROWS rows, $N cells"
        STEP="load $CF"
        q <<SQL
SELECT cfstore.create_column_family('density', '$CF', comparator => 'TimeUUIDType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
CREATE TABLE heap_$CF (key text, name cfstore.timeuuid, value text, writetime bigint,
                       PRIMARY KEY (key, name));
CREATE TEMP TABLE cells AS
SELECT i, 'user' || (((i % $ROWS) * $P + (i / $ROWS) * 104729) % $ROWS) AS key,
       cfstore.min_timeuuid(timestamptz '2020-01-01 UTC' + i * interval '1 millisecond') AS name,
       substr(repeat(md5(i::text), 2), 1, $V) AS value, 1577836800000000 + i * 1000 AS writetime
  FROM generate_series(0::bigint, $N - 1) i;
SELECT cfstore._storage_relation('density', '$CF') AS rel \\gset
INSERT INTO :rel (key, column_name, value, writetime)
SELECT convert_to(key, 'UTF8'), uuid_send(name::uuid), convert_to(value, 'UTF8'), writetime FROM cells ORDER BY i;
INSERT INTO heap_$CF SELECT key, name, value, writetime FROM cells ORDER BY i;
INSERT INTO density
SELECT $W, $V, 'cfstore', 'load', pg_relation_size(:'rel'), NULL, s.live_cells, s.leaf_fill
  FROM cfstore.stats('density', '$CF') s;
INSERT INTO density SELECT $W, $V, 'heap', 'load', pg_total_relation_size('heap_$CF'), NULL, $N, NULL;
VACUUM $VACUUM_OPTIONS :rel;
VACUUM $VACUUM_OPTIONS heap_$CF;
INSERT INTO density
SELECT $W, $V, 'cfstore', 'vacuum', pg_relation_size(:'rel'), s.tree_pages * 8192, s.live_cells, s.leaf_fill
  FROM cfstore.stats('density', '$CF') s;
INSERT INTO density SELECT $W, $V, 'heap', 'vacuum', pg_total_relation_size('heap_$CF'), NULL, $N, NULL;
VACUUM FULL :rel;
VACUUM FULL heap_$CF;
INSERT INTO density
SELECT $W, $V, 'cfstore', 'full', pg_relation_size(:'rel'), s.tree_pages * 8192, s.live_cells, s.leaf_fill
  FROM cfstore.stats('density', '$CF') s;
INSERT INTO density SELECT $W, $V, 'heap', 'full', pg_total_relation_size('heap_$CF'), NULL, $N, NULL;
SQL
    done
done

echo
echo "== bytes per cell (cfstore / heap); after VACUUM: whole file, and the tree's pages only; after VACUUM FULL"
qt <<'SQL'
SELECT c.width AS "cells/row", c.vbytes AS "value B",
       round(c.bytes::numeric / c.cells, 1) AS "cf load",
       round(h.bytes::numeric / h.cells, 1) AS "heap load",
       round(c.bytes::numeric / c.cells / (h.bytes::numeric / h.cells), 2) AS "ratio load",
       cl.leaf_fill AS "fill load %",
       round(cv.bytes::numeric / cv.cells, 1) AS "cf vac file",
       round(cv.tree_bytes::numeric / cv.cells, 1) AS "cf vac tree",
       round(hv.bytes::numeric / hv.cells, 1) AS "heap vac",
       round(cv.bytes::numeric / cv.cells / (hv.bytes::numeric / hv.cells), 2) AS "ratio file",
       round(cv.tree_bytes::numeric / cv.cells / (hv.bytes::numeric / hv.cells), 2) AS "ratio tree",
       cv.leaf_fill AS "fill vac %",
       round(cf.bytes::numeric / cf.cells, 1) AS "cf full",
       round(hf.bytes::numeric / hf.cells, 1) AS "heap full",
       round(cf.bytes::numeric / cf.cells / (hf.bytes::numeric / hf.cells), 2) AS "ratio full",
       CASE WHEN cv.tree_bytes::numeric / cv.cells <= 45
             AND cv.tree_bytes::numeric / cv.cells <= hv.bytes::numeric / hv.cells / 3
            THEN 'PASS' ELSE 'FAIL' END AS "tree <= 45 B and <= 1/3",
       CASE WHEN cv.bytes::numeric / cv.cells <= 45
             AND cv.bytes::numeric / cv.cells <= hv.bytes::numeric / hv.cells / 3
            THEN 'PASS' ELSE 'FAIL' END AS "file <= 45 B and <= 1/3"
  FROM density c
  JOIN density cl ON cl.width = c.width AND cl.vbytes = c.vbytes AND cl.engine = 'cfstore' AND cl.phase = 'load'
  JOIN density h ON h.width = c.width AND h.vbytes = c.vbytes AND h.engine = 'heap' AND h.phase = 'load'
  JOIN density cv ON cv.width = c.width AND cv.vbytes = c.vbytes AND cv.engine = 'cfstore' AND cv.phase = 'vacuum'
  JOIN density hv ON hv.width = c.width AND hv.vbytes = c.vbytes AND hv.engine = 'heap' AND hv.phase = 'vacuum'
  JOIN density cf ON cf.width = c.width AND cf.vbytes = c.vbytes AND cf.engine = 'cfstore' AND cf.phase = 'full'
  JOIN density hf ON hf.width = c.width AND hf.vbytes = c.vbytes AND hf.engine = 'heap' AND hf.phase = 'full'
 WHERE c.engine = 'cfstore' AND c.phase = 'load'
 ORDER BY c.vbytes, c.width;
SQL
