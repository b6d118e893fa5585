#!/usr/bin/env bash
# bench/bignum.sh: IntegerType and DecimalType text conversion of very long
# values, and DecimalType comparison of long values, timed server-side.
#
#   PGHOST=... PGPORT=... PGUSER=... bench/bignum.sh
#
# (a) to_bytes and to_string of a DIGITS-digit IntegerType (1,000,000
#     digits) and of a DecimalType of as many digits (the point after 40%
#     of them); both round trips are checked (md5 of the text);
# (b) compare('DecimalType') of values whose unscaled integers are
#     CMP_BYTES bytes long (64 KB, 157,826 digits), in four cases: equal
#     scales; the same value with scales one apart (1.0 against 1.00);
#     scales 78,913 apart with magnitudes so close that the power of ten
#     has to be multiplied in (the other value's unscaled integer half as
#     long); scales 1,000,000 apart, decided by bit length;
# (c) PostgreSQL's numeric doing the text round trip of the longest integer
#     it takes (131,072 digits: numeric_in, then numeric_out), against
#     IntegerType's to_bytes and to_string of the same digits: the ratio is
#     what the binary two's-complement form costs over numeric's decimal one.
#
# Every figure is the median of REPS timed statements (bench_time, after
# one warm-up).  It prints each figure, the targets of (a) and (b) with a
# verdict, and the ratios of (c).  bench/README.md explains.
#
# Settings (environment):
#   PGHOST PGPORT PGUSER PGDATABASE  the connection; PGDATABASE (default
#                    postgres) is only used to drop and create cfstore_bench_bignum
#   DIGITS=1000000   digits of the values of (a)
#   CMP_BYTES=65536  bytes of the unscaled integers of (b)
#   CMP_CALLS=20     comparisons per timed statement in (b)
#   REPS=5           timed statements per figure (median)
#   STEP_TIMEOUT=600 seconds any one step may take
#
# It drops and recreates the database cfstore_bench_bignum and leaves it in
# place at the end for inspection.
set -eEuo pipefail
shopt -s inherit_errexit

DIGITS=${DIGITS:-1000000}
CMP_BYTES=${CMP_BYTES:-65536}
CMP_CALLS=${CMP_CALLS:-20}
REPS=${REPS:-5}
STEP_TIMEOUT=${STEP_TIMEOUT:-600}
DB=cfstore_bench_bignum
NUM_DIGITS=131072       # numeric's limit before the decimal point

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_positive DIGITS CMP_BYTES CMP_CALLS REPS STEP_TIMEOUT
(( DIGITS >= 10 )) || { echo "bench: DIGITS must be at least 10" >&2; exit 2; }
(( CMP_BYTES >= 16 )) || { echo "bench: CMP_BYTES must be at least 16" >&2; exit 2; }
command -v psql >/dev/null || { echo "bench: psql is needed" >&2; exit 2; }

STEP="start"
trap '[ "$BASH_SUBSHELL" != 0 ] || echo "bench: FAILED during step: $STEP" >&2' ERR

export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=${STEP_TIMEOUT}s -c client_min_messages=warning"
ADMIN_DB=${PGDATABASE:-postgres}
unset PGDATABASE

POINT=$((DIGITS * 2 / 5))                                   # DecimalType: digits before the point
CMP_DIGITS=$(awk -v b="$CMP_BYTES" 'BEGIN { printf "%d", (b * 8 - 1) * log(2) / log(10) }')
HALF=$((CMP_DIGITS / 2))                                    # (b): the shorter unscaled integer

T_START=$(date +%s)
echo "== cfstore IntegerType / DecimalType benchmark: DIGITS=$DIGITS, CMP_BYTES=$CMP_BYTES ($CMP_DIGITS digits),"
echo "   CMP_CALLS=$CMP_CALLS, REPS=$REPS"

# ---------------------------------------------------------------------------
create_bench_db
print_machine

# ---------------------------------------------------------------------------
STEP="create extension, helper functions and the values"
q <<SQL
CREATE EXTENSION cfstore;

-- n pseudo-random digits, the first one not zero, a function of seed alone
CREATE FUNCTION bench_digits(seed text, n int) RETURNS text LANGUAGE sql IMMUTABLE AS \$\$
  SELECT '7' || substr(string_agg(translate(md5(seed || ':' || i), 'abcdef', '012345'), '' ORDER BY i), 1, n - 1)
    FROM generate_series(0, n / 32) i
\$\$;
-- a DecimalType value from its unscaled integer (text) and scale
CREATE FUNCTION bench_dec(unscaled text, scale int) RETURNS bytea LANGUAGE sql IMMUTABLE AS \$\$
  SELECT int4send(scale) || cfstore.to_bytes('IntegerType', unscaled)
\$\$;

-- (a) the long values, as text and as bytes
CREATE TABLE bench_long AS
  SELECT s, substr(s, 1, $POINT) || '.' || substr(s, $POINT + 1) AS ds
    FROM (SELECT bench_digits('bignum', $DIGITS) AS s) x;
ALTER TABLE bench_long ADD ib bytea, ADD db bytea;
UPDATE bench_long SET ib = cfstore.to_bytes('IntegerType', s), db = cfstore.to_bytes('DecimalType', ds);

-- (b) the comparison cases
CREATE TABLE bench_cmp (ord int, name text, a bytea, b bytea);
INSERT INTO bench_cmp
SELECT 1, 'equal scales', bench_dec(u, 10), bench_dec(left(u, -1) || '0', 10) FROM (SELECT bench_digits('cmp', $CMP_DIGITS) u) x
UNION ALL
SELECT 2, 'same value, scales 1 apart (1.0 vs 1.00)', bench_dec(u, 10), bench_dec(u || '0', 11) FROM (SELECT bench_digits('cmp', $CMP_DIGITS) u) x
UNION ALL
SELECT 3, 'scales $((CMP_DIGITS - HALF)) apart, close magnitudes', bench_dec(u, 0), bench_dec(left(u, $HALF), -($CMP_DIGITS - $HALF)) FROM (SELECT bench_digits('cmp', $CMP_DIGITS) u) x
UNION ALL
SELECT 4, 'scales 1,000,000 apart', bench_dec(u, 0), bench_dec(u, 1000000) FROM (SELECT bench_digits('cmp', $CMP_DIGITS) u) x;

-- (c) numeric's longest integer, as text, numeric and IntegerType bytes
CREATE TABLE bench_num AS SELECT bench_digits('numeric', $NUM_DIGITS) AS s;
ALTER TABLE bench_num ADD n numeric, ADD ib bytea;
UPDATE bench_num SET n = s::numeric, ib = cfstore.to_bytes('IntegerType', s);
SQL
load_sql_helpers

log "values: $(q -c "SELECT format('%s digits -> IntegerType %s bytes, DecimalType %s bytes', length(s), length(ib), length(db)) FROM bench_long")"
log "comparison values: $(q -c "SELECT string_agg(format('%s: %s and %s bytes', ord, length(a), length(b)), '; ' ORDER BY ord) FROM bench_cmp")"

STEP="round trips"
rt=$(q -c "SELECT md5(cfstore.to_string('IntegerType', ib)) = md5(s) AND md5(cfstore.to_string('DecimalType', db)) = md5(ds) FROM bench_long")
[ "$rt" = t ] || { echo "bench: a $DIGITS-digit round trip did not give the text back" >&2; exit 1; }
rt=$(q -c "SELECT cfstore.to_string('IntegerType', ib) = s AND n::text = s FROM bench_num")
[ "$rt" = t ] || { echo "bench: a $NUM_DIGITS-digit round trip did not give the text back" >&2; exit 1; }
log "round trips give the text back (md5)"

# Median seconds of REPS timed runs of a statement returning (bigint,
# bigint), after a warm-up, all in one session (so no run pays for loading
# the library); every run must return the same pair.
median_time() { # what sql
    local what=$1 s=$2 i secs n sum first="" times=() args=()
    for i in $(seq 0 "$REPS"); do
        args+=(-c "SELECT * FROM bench_time(\$s\$$s\$s\$)")
    done
    i=0
    while IFS='|' read -r secs n sum; do
        if [ -z "$first" ]; then first="$n/$sum"
        elif [ "$first" != "$n/$sum" ]; then echo "bench: $what returned $n/$sum, earlier $first" >&2; exit 1; fi
        (( i++ == 0 )) || times+=("$secs")
    done < <(q "${args[@]}")
    (( ${#times[@]} == REPS )) || { echo "bench: $what: $((${#times[@]} + 1)) results, expected $((REPS + 1))" >&2; exit 1; }
    printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "%.6f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---------------------------------------------------------------------------
STEP="(a) long values"
declare -A T
T[int_in]=$(median_time "IntegerType to_bytes" "SELECT length(cfstore.to_bytes('IntegerType', s))::bigint, 0::bigint FROM bench_long")
T[int_out]=$(median_time "IntegerType to_string" "SELECT length(cfstore.to_string('IntegerType', ib))::bigint, 0::bigint FROM bench_long")
T[dec_in]=$(median_time "DecimalType to_bytes" "SELECT length(cfstore.to_bytes('DecimalType', ds))::bigint, 0::bigint FROM bench_long")
T[dec_out]=$(median_time "DecimalType to_string" "SELECT length(cfstore.to_string('DecimalType', db))::bigint, 0::bigint FROM bench_long")
log "(a) done"

STEP="(b) comparisons"
for c in 1 2 3 4; do
    T[cmp$c]=$(median_time "comparison $c" "SELECT count(*), sum(cfstore.compare('DecimalType', a, b)) FROM bench_cmp, generate_series(1, $CMP_CALLS) WHERE ord = $c")
done
log "(b) done"

STEP="(c) numeric"
T[num_in]=$(median_time "numeric_in" "SELECT scale(s::numeric)::bigint, 0::bigint FROM bench_num")
T[num_out]=$(median_time "numeric_out" "SELECT length(n::text)::bigint, 0::bigint FROM bench_num")
T[cf_in]=$(median_time "IntegerType to_bytes, $NUM_DIGITS digits" "SELECT length(cfstore.to_bytes('IntegerType', s))::bigint, 0::bigint FROM bench_num")
T[cf_out]=$(median_time "IntegerType to_string, $NUM_DIGITS digits" "SELECT length(cfstore.to_string('IntegerType', ib))::bigint, 0::bigint FROM bench_num")
log "(c) done"

# ---------------------------------------------------------------------------
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v < t) ? "PASS" : "FAIL" }'; }
row() { printf '  %-58s %12s  %s\n' "$@"; }
ms() { awk -v s="$1" -v n="${2:-1}" 'BEGIN { printf "%.3f ms", s * 1000 / n }'; }
sec() { awk -v s="$1" 'BEGIN { printf "%.3f s", s }'; }

echo
echo "== (a) $DIGITS digits, median of $REPS (target: < 0.3 s per direction)"
row "IntegerType to_bytes"  "$(sec "${T[int_in]}")"  "$(verdict "${T[int_in]}" 0.3)"
row "IntegerType to_string" "$(sec "${T[int_out]}")" "$(verdict "${T[int_out]}" 0.3)"
row "DecimalType to_bytes"  "$(sec "${T[dec_in]}")"  "$(verdict "${T[dec_in]}" 0.3)"
row "DecimalType to_string" "$(sec "${T[dec_out]}")" "$(verdict "${T[dec_out]}" 0.3)"

echo
echo "== (b) compare('DecimalType'), unscaled integers of $CMP_BYTES bytes: time per comparison,"
echo "   median of $REPS statements of $CMP_CALLS (target: milliseconds, < 10 ms)"
for c in 1 2 3 4; do
    name=$(q -c "SELECT name FROM bench_cmp WHERE ord = $c")
    per=$(awk -v s="${T[cmp$c]}" -v n="$CMP_CALLS" 'BEGIN { printf "%.6f", s / n }')
    row "$name" "$(ms "${T[cmp$c]}" "$CMP_CALLS")" "$(verdict "$per" 0.01)"
done

echo
echo "== (c) text round trip of a $NUM_DIGITS-digit integer: numeric against IntegerType, median of $REPS"
row "numeric_in (text -> numeric)"            "$(ms "${T[num_in]}")"
row "numeric_out (numeric -> text)"           "$(ms "${T[num_out]}")"
row "IntegerType to_bytes (text -> bytes)"    "$(ms "${T[cf_in]}")"
row "IntegerType to_string (bytes -> text)"   "$(ms "${T[cf_out]}")"
row "ratio IntegerType / numeric, text -> value"  "$(awk -v a="${T[cf_in]}" -v b="${T[num_in]}" 'BEGIN { printf "%.1fx", a / b }')"
row "ratio IntegerType / numeric, value -> text"  "$(awk -v a="${T[cf_out]}" -v b="${T[num_out]}" 'BEGIN { printf "%.1fx", a / b }')"
row "ratio IntegerType / numeric, round trip"     "$(awk -v a="${T[cf_in]}" -v b="${T[cf_out]}" -v c="${T[num_in]}" -v d="${T[num_out]}" 'BEGIN { printf "%.1fx", (a + b) / (c + d) }')"
echo
echo "elapsed: $(( $(date +%s) - T_START )) s"
