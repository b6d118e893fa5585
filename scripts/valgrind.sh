#!/usr/bin/env bash
# Run the pg_regress and pgTAP suites against a server under valgrind
# memcheck and fail if any report has a cfstore frame.  PostgreSQL's own
# known reports (WAL and init-file padding, regex cache) are not ours and
# are listed but ignored.  Takes a few minutes; run it after scripts/dev.sh
# test (which installs the build).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PGBIN=$(pg_config --bindir)
DIR=${VALGRIND_DIR:-/tmp/cfstore-valgrind}
PORT=${VALGRIND_PORT:-55499}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }

if [ "$(id -u)" = 0 ]; then RUN=(runuser -u postgres --); else RUN=(); fi
rm -rf "$DIR" && mkdir -p "$DIR"
[ "$(id -u)" = 0 ] && chown postgres: "$DIR"
"${RUN[@]}" "$PGBIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
"${RUN[@]}" valgrind --quiet --trace-children=yes --track-origins=yes --num-callers=20 \
    --log-file="$DIR/vg.%p.log" "$PGBIN/postgres" -D "$DIR/data" -p "$PORT" -k "$DIR" \
    -c listen_addresses='' -c fsync=off >"$DIR/server.log" 2>&1 &
trap '"${RUN[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true' EXIT
# under valgrind the server takes a while to accept connections once its socket is there
for _ in $(seq 300); do "$PGBIN/pg_isready" -q -h "$DIR" -p "$PORT" && break; sleep 1; done
"$PGBIN/pg_isready" -q -h "$DIR" -p "$PORT" || { echo "the server under valgrind did not start: $DIR/server.log" >&2; exit 1; }

export PGHOST=$DIR PGPORT=$PORT PGUSER=postgres
# The model tests (tens of thousands of writes, and the model worked out in
# SQL) take over an hour under valgrind; VALGRIND_SKIP="" runs them too.
skip=" ${VALGRIND_SKIP-storage_model storage_model_index storage_model_orders fdw_model object_model} "
tests=()
for f in "$ROOT"/test/sql/*.sql; do
    t=$(basename "$f" .sql)
    [[ "$skip" == *" $t "* ]] || tests+=("$t")
done
echo "regression tests under valgrind: ${#tests[@]} (skipped:${skip% })"
make -C "$ROOT" -s installcheck-regress REGRESS="${tests[*]}"
psql -X -q -d postgres -c "CREATE DATABASE cfstore_valgrind"
psql -X -q -d cfstore_valgrind -c "CREATE EXTENSION pgtap" -c "CREATE EXTENSION cfstore"
pg_prove -d cfstore_valgrind "$ROOT"/test/pgtap/*.sql

echo "valgrind reports (all processes):"
grep -h '^==[0-9]*== [A-Z]' "$DIR"/vg.*.log | sed 's/^==[0-9]*== //' | sort | uniq -c | sort -rn || true
ours=$(grep -l 'cfstore\.so' "$DIR"/vg.*.log || true)
if [ -n "$ours" ]; then
    echo "reports with cfstore frames:"; grep -B3 -A25 'cfstore\.so' $ours
    exit 1
fi
echo "valgrind: no report has a cfstore frame"
