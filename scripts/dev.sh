#!/usr/bin/env bash
# cfstore development driver.
#
#   scripts/dev.sh demo   install what is missing, build, install, start the
#                         scratch cluster, run the demo (examples/demo.sql:
#                         the seed applications, the blog and Twissandra),
#                         then start two shard servers and run its scale-out
#                         part (examples/shard/demo.sql: a sharded keyspace
#                         and the seed's map-reduce)
#   scripts/dev.sh test   the same set-up, then every test suite; exits
#                         non-zero if any test fails
#   scripts/dev.sh psql   a psql session on the scratch cluster
#   scripts/dev.sh stop   stop the scratch cluster and the shard servers
#
# demo and test are idempotent: a second run reuses the packages, the build
# and the running cluster.  The scratch cluster lives in .scratch/ under the project
# (own port, own socket directory, TCP off), so it never touches another
# cluster.  PostgreSQL refuses to run as root: started as root, the script
# runs the server and the TAP clusters as the unprivileged user "postgres".
#
# Settings (environment): CFSTORE_PORT (default 55432; the shard servers
# take the next two ports), PG_CONFIG.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PGVERSION=15
PACKAGES=(make gcc libc6-dev postgresql-$PGVERSION postgresql-server-dev-$PGVERSION
          postgresql-$PGVERSION-pgtap libtap-parser-sourcehandler-pgtap-perl
          postgresql-$PGVERSION-plproxy libpq-dev uuid-dev liblz4-dev libipc-run-perl)
PORT=${CFSTORE_PORT:-55432}
SCRATCH=$ROOT/.scratch

log() { printf '\n== %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly, through sudo, or not at all.
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        die "this step needs root ($*): run as root or install sudo"
    fi
}

# Install the Debian packages that are missing.
install_packages() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        log "installing ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/$PGVERSION/bin/pg_config}
setup_paths() {
    [ -x "$PG_CONFIG" ] || PG_CONFIG=$(command -v pg_config) || die "pg_config not found"
    PGBIN=$("$PG_CONFIG" --bindir)
    PGXS_DIR=$(dirname "$("$PG_CONFIG" --pgxs)")/..
    PGXS_DIR=$(cd "$PGXS_DIR" && pwd)
    export PATH="$PGBIN:$PATH"
}

# Build with warnings as errors (tests also with assertions), and install.
# make does not notice changed flags, so a change of flags cleans first.
build() {
    local flags="-Wall -Wextra -Werror $*" stamp="$ROOT/.build-flags"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$flags" ]; then
        make -C "$ROOT" -s clean PG_CONFIG="$PG_CONFIG"
        printf '%s' "$flags" >"$stamp"
    fi
    log "building ($flags)"
    make -C "$ROOT" -s -j2 PG_CONFIG="$PG_CONFIG" PG_CFLAGS="$flags"
    log "installing"
    if [ -w "$("$PG_CONFIG" --pkglibdir)" ] && [ -w "$("$PG_CONFIG" --sharedir)/extension" ]; then
        make -C "$ROOT" -s install PG_CONFIG="$PG_CONFIG"
    else
        as_root make -C "$ROOT" -s install PG_CONFIG="$PG_CONFIG"
    fi
}

# Run a command as the cluster's owner (postgres when we are root).
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- env PATH="$PATH" "$@"
    else
        "$@"
    fi
}

# Create the scratch folders, owned by the cluster's owner.  When that
# user cannot reach the project folder (a clone under /root, say), the
# scratch folder moves to /var/tmp, one per project path.
prepare_scratch() {
    if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$ROOT"; then
        SCRATCH=/var/tmp/cfstore-scratch-$(printf '%s' "$ROOT" | md5sum | cut -c1-12)
        echo "note: user postgres cannot reach $ROOT; the scratch cluster lives in $SCRATCH"
    fi
    mkdir -p "$SCRATCH/sock" "$SCRATCH/log" "$SCRATCH/tap"
    if [ "$(id -u)" = 0 ]; then
        chown -R postgres: "$SCRATCH"
        runuser -u postgres -- test -w "$SCRATCH" || die "$SCRATCH is not writable by user postgres"
    fi
}

# Start (or reuse) the scratch cluster.
start_cluster() {
    prepare_scratch
    local data=$SCRATCH/data
    if [ ! -f "$data/PG_VERSION" ]; then
        log "creating the scratch cluster in $data"
        as_owner initdb -D "$data" -U postgres --auth=trust --no-instructions -E UTF8 --locale=C >"$SCRATCH/log/initdb.log"
        cat >>"$data/postgresql.conf" <<EOF
# cfstore scratch cluster
port = $PORT
listen_addresses = ''
unix_socket_directories = '$SCRATCH/sock'
fsync = off
max_prepared_transactions = 10
EOF
    fi
    if ! as_owner pg_ctl -D "$data" status >/dev/null 2>&1; then
        log "starting the scratch cluster (port $PORT, socket $SCRATCH/sock)"
        as_owner pg_ctl -D "$data" -l "$SCRATCH/log/postgresql.log" -w start >/dev/null
    fi
    export PGHOST=$SCRATCH/sock PGPORT=$PORT PGUSER=postgres
}

# The demo's two shard servers: clusters of their own under $SCRATCH
# (shard1, shard2), on the next two ports, each with its socket folder.
start_shards() {
    local i data sock
    for i in 1 2; do
        data=$SCRATCH/shard$i sock=$SCRATCH/sock-shard$i
        as_owner mkdir -p "$sock"
        if [ ! -f "$data/PG_VERSION" ]; then
            log "creating shard server $i in $data"
            as_owner initdb -D "$data" -U postgres --auth=trust --no-instructions -E UTF8 --locale=C >"$SCRATCH/log/initdb-shard$i.log"
            printf '%s\n' "# cfstore demo shard server $i" "port = $((PORT + i))" "listen_addresses = ''" \
                "unix_socket_directories = '$sock'" "fsync = off" "max_prepared_transactions = 10" |
                as_owner tee -a "$data/postgresql.conf" >/dev/null
        fi
        if ! as_owner pg_ctl -D "$data" status >/dev/null 2>&1; then
            log "starting shard server $i (port $((PORT + i)), socket $sock)"
            as_owner pg_ctl -D "$data" -l "$SCRATCH/log/shard$i.log" -w start >/dev/null
        fi
    done
}

stop_cluster() {
    setup_paths
    local data
    for data in "$SCRATCH/data" "$SCRATCH/shard1" "$SCRATCH/shard2"; do
        if [ -f "$data/PG_VERSION" ] && as_owner pg_ctl -D "$data" status >/dev/null 2>&1; then
            as_owner pg_ctl -D "$data" -m fast stop || true
        fi
    done
}

setup() {
    install_packages
    setup_paths
    build "$@"
    start_cluster
}

# The seed applications, in a fresh database (the scripts read files
# relative to the project folder).
demo() {
    log "running the demo: the blog and Twissandra (examples/demo.sql)"
    psql -X -q -d postgres -c "SET client_min_messages = warning" \
        -c "DROP DATABASE IF EXISTS cfstore_demo" -c "CREATE DATABASE cfstore_demo"
    (cd "$ROOT" && psql -X -v ON_ERROR_STOP=1 -d cfstore_demo -f examples/demo.sql)
    log "running the demo's scale-out part: a keyspace sharded over two servers (examples/shard/demo.sql)"
    start_shards
    local i
    for i in 1 2; do
        psql -X -q -h "$SCRATCH/sock-shard$i" -p $((PORT + i)) -d postgres -c "SET client_min_messages = warning" \
            -c "DROP DATABASE IF EXISTS cfstore_demo" -c "CREATE DATABASE cfstore_demo"
        psql -X -q -h "$SCRATCH/sock-shard$i" -p $((PORT + i)) -d cfstore_demo -c "CREATE EXTENSION cfstore"
    done
    psql -X -q -d postgres -c "SET client_min_messages = warning" \
        -c "DROP DATABASE IF EXISTS cfstore_shard_demo" -c "CREATE DATABASE cfstore_shard_demo"
    (cd "$ROOT" && psql -X -v ON_ERROR_STOP=1 -d cfstore_shard_demo \
        -v host1="$SCRATCH/sock-shard1" -v port1=$((PORT + 1)) -v host2="$SCRATCH/sock-shard2" -v port2=$((PORT + 2)) \
        -f examples/shard/demo.sql)
    log "the demo's data stays in databases cfstore_demo and cfstore_shard_demo: scripts/dev.sh psql -d cfstore_demo"
}

# Suite results: "name passed failed" lines.
RESULTS=()
record() { RESULTS+=("$1 $2 $3"); }

# pg_regress and isolation, through PGXS's installcheck.
run_make_suite() {
    local name=$1 target=$2 out
    log "$name"
    out=$SCRATCH/log/$name.out
    set +e
    make -C "$ROOT" -s PG_CONFIG="$PG_CONFIG" "$target" 2>&1 | tee "$out"
    set -e
    local total failed
    total=$( (grep -Eo 'All [0-9]+ tests passed' "$out" || true) | awk '{t+=$2} END {print t+0}')
    failed=$( (grep -Eo '[0-9]+ of [0-9]+ tests failed' "$out" || true) | awk '{f+=$1; t+=$3} END {print f+0, t+0}')
    local f=${failed% *} t=${failed#* }
    total=${total:-0}
    if [ "$t" -gt 0 ]; then total=$((total + t)); fi
    if [ "$total" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # the runner itself failed
    record "$name" $((total - f)) "$f"
    [ -f "$ROOT/test/output/regression.diffs" ] && [ "$f" -gt 0 ] && cat "$ROOT/test/output/regression.diffs"
    [ -f "$ROOT/test/isolation/output/regression.diffs" ] && [ "$f" -gt 0 ] && cat "$ROOT/test/isolation/output/regression.diffs"
    return 0
}

# Count what a TAP runner (prove, pg_prove) printed.
record_tap() {
    local name=$1 out=$2 rc=$3 tests failed
    tests=$( (grep -Eo 'Tests=[0-9]+' "$out" || true) | tail -1 | grep -Eo '[0-9]+' || echo 0)
    failed=$( (grep -Eo 'Failed [0-9]+/[0-9]+ subtests' "$out" || true) | awk '{split($2,a,"/"); f+=a[1]} END {print f+0}')
    if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
    record "$name" $((tests - failed)) "$failed"
}

run_pgtap() {
    log "pgtap"
    local out=$SCRATCH/log/pgtap.out rc=0
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS cfstore_pgtap" -c "CREATE DATABASE cfstore_pgtap"
    psql -X -q -d cfstore_pgtap -c "CREATE EXTENSION pgtap" -c "CREATE EXTENSION cfstore"
    set +e
    pg_prove -d cfstore_pgtap "$ROOT"/test/pgtap/*.sql 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    set -e
    record_tap pgtap "$out" "$rc"
}

run_tap() {
    log "tap"
    local out=$SCRATCH/log/tap.out rc=0
    # The TAP clusters run as the cluster owner, in a folder it can write.
    rm -rf "$SCRATCH/tap"
    mkdir -p "$SCRATCH/tap/test"
    # the SQL suite too: 018 runs the model tests against a sharded keyspace
    cp -r "$ROOT/test/t" "$ROOT/test/sql" "$ROOT/test/expected" "$SCRATCH/tap/test/"
    [ "$(id -u)" = 0 ] && chown -R postgres: "$SCRATCH/tap"
    set +e
    (cd "$SCRATCH/tap" && as_owner env TESTDIR="$SCRATCH/tap" PG_REGRESS="$PGXS_DIR/test/regress/pg_regress" \
        PGHOST= PGPORT= PGUSER= prove -I "$PGXS_DIR/test/perl" -I test/t test/t/*.pl) 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    set -e
    record_tap tap "$out" "$rc"
}

tests() {
    run_make_suite regress installcheck-regress
    run_make_suite isolation installcheck-isolation
    run_pgtap
    run_tap
    local passed=0 failed=0
    log "summary"
    for r in "${RESULTS[@]}"; do
        set -- $r
        printf '%-10s %5d passed, %d failed\n' "$1" "$2" "$3"
        passed=$((passed + $2)); failed=$((failed + $3))
    done
    echo "cfstore: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

case "${1:-}" in
    demo) setup; demo ;;
    test) setup -DUSE_ASSERT_CHECKING; tests ;;
    psql) setup_paths; prepare_scratch; export PGHOST=$SCRATCH/sock PGPORT=$PORT PGUSER=postgres; shift; exec psql -X "$@" ;;
    stop) prepare_scratch; stop_cluster ;;
    *) echo "usage: $0 demo|test|psql|stop" >&2; exit 2 ;;
esac
