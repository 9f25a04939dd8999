#!/usr/bin/env bash
# test_compare.sh — bin/bench_compare on hand-made run directories: identical runs pass (exit 0); an accuracy
# median beyond tolerance is a regression (1) and a fall is "improved" (the other way round for a metric
# listed under higher_better); -metric_tol and -tol_abs widen
# the tolerance; any success-rate drop is a regression; a cost doubling with 6 repeats per group is a
# regression, with 4 repeats it is untested, a 10% rise or a rise the rank-sum test does not support is
# not; exit 2 for a missing directory, different experiments, mismatched columns, no common group, an
# unknown option and a -metric_tol naming no metric.
set -u
bin=${CB_BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
expect() { # expect RC DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then pass "$what (exit $rc)"; else fail "$what: exit $rc, wanted $want: $(head -c 600 "$tmp/out" "$tmp/err")"; fi
}
has() { if grep -q -E -- "$2" "$tmp/out"; then pass "$1"; else fail "$1: no /$2/ in: $(cat "$tmp/out")"; fi; }

# mkrun DIR [var=value ...]: experiment "toy", groups (method a|b) x (h 0.1), `seeds` repeats each;
# err = 0.001 (seed + 1) (times errb in group b), cost_seconds = 0.01 (1 + 0.1 seed) (times costb in b,
# or the list costs_b), the first failb tasks of b end in max_iterations.
mkrun() {
  local dir=$1; shift
  local exp=toy seeds=6 errb=1 costb=1 failb=0 metrics=err hs=0.1 costs_b="" hb=""
  local kv; for kv in "$@"; do local "$kv"; done
  mkdir -p "$dir"
  cat >"$dir/experiment.txt" <<EOF
experiment $exp
title toy runs for test_compare
axes method,h,seed
group method,h
metrics $metrics
higher_better $hb
costs cost_seconds,task_seconds
info
plot_x h
series method
log_x 1
options -seeds $seeds
units cost_seconds=s,task_seconds=s
EOF
  awk -v seeds="$seeds" -v errb="$errb" -v costb="$costb" -v failb="$failb" -v metrics="$metrics" \
      -v hs="$hs" -v costs_b="$costs_b" 'BEGIN {
    printf "task_id,method,h,seed,status,%s,cost_seconds,task_seconds,rank,host\n", metrics
    nb = split(costs_b, cb, ":"); nh = split(hs, hv, ","); id = 0
    for (m = 1; m <= 2; m++) for (k = 1; k <= nh; k++) for (s = 0; s < seeds; s++) {
      b = (m == 2); err = 0.001 * (s + 1) * (b ? errb : 1); cost = 0.01 * (1 + 0.1 * s) * (b ? costb : 1)
      if (b && nb) cost = cb[s + 1]
      st = (b && s < failb) ? "max_iterations" : "ok"
      printf "%d,%s,%s,%d,%s,%.17g,%.17g,%.17g,0,vm\n", id++, b ? "b" : "a", hv[k], s, st, err, cost, cost
    }
  }' >"$dir/tasks.csv"
}
c="$bin/bench_compare"
mkrun "$tmp/base"

mkrun "$tmp/same"
expect 0 "identical runs pass" -- "$c" "$tmp/base" "$tmp/same"
has "verdict line says pass" '^verdict: pass$'
has "header names the rank-sum test" 'Wilcoxon rank-sum'
mkrun "$tmp/noise" errb=1.005
expect 0 "err +0.5% is within the default 1%" -- "$c" "$tmp/base" "$tmp/noise"
has "within tolerance: verdict ok" '^b 0.1 +err .* ok$'

mkrun "$tmp/worse" errb=1.5
expect 1 "err median +50% in group b is a regression" -- "$c" "$tmp/base" "$tmp/worse"
has "the regression row names group, metric, values and change" '^b 0.1 +err +0.0035 +0.00525 +\+50% +REGRESSION$'
has "group a unchanged is not listed" '^[^#]*b 0.1' && ! grep -q '^a 0.1 *err' "$tmp/out" && pass "only what moved is listed" || fail "unchanged rows listed"
expect 0 "-metric_tol err=0.6 accepts +50%" -- "$c" "$tmp/base" "$tmp/worse" -metric_tol err=0.6
expect 0 "-tol_abs 0.01 accepts +0.00175" -- "$c" "$tmp/base" "$tmp/worse" -tol_abs 0.01
expect 0 "-all lists every comparison" -- "$c" "$tmp/base" "$tmp/same" -all
has "-all: unchanged rows with verdict same" '^a 0.1 +err .* same$'
mkrun "$tmp/better" errb=0.5
expect 0 "err -50% is an improvement, not a regression" -- "$c" "$tmp/base" "$tmp/better"
has "improved row" '^b 0.1 +err .*-50% +improved$'

mkrun "$tmp/hb_base" hb=err
mkrun "$tmp/hb_lower" hb=err errb=0.5
expect 1 "a higher-is-better metric falling 50% is a regression" -- "$c" "$tmp/hb_base" "$tmp/hb_lower"
has "... its row" '^b 0.1 +err .*-50% +REGRESSION$'
has "... and the header says which metrics are higher-is-better" 'lower is better except for err,'
mkrun "$tmp/hb_higher" hb=err errb=1.5
expect 0 "... rising 50% is an improvement" -- "$c" "$tmp/hb_base" "$tmp/hb_higher"
expect 1 "the new run's higher_better list counts (baseline without one)" -- "$c" "$tmp/base" "$tmp/hb_lower"
has "... with a note" 'baseline.s higher_better list differs'

mkrun "$tmp/fails" failb=1
expect 1 "one task of six failing is a success-rate regression" -- "$c" "$tmp/base" "$tmp/fails"
has "success_rate row: 100% -> 83.3%" '^b 0.1 +success_rate +100.0% \(6\) +83.3% \(6\) +-16.7 pts +REGRESSION$'

mkrun "$tmp/slow" costb=2
expect 1 "cost x2 with 6 repeats is a regression" -- "$c" "$tmp/base" "$tmp/slow"
has "cost row with ratio and p-value" '^b 0.1 +cost_seconds .* x2 \(p=0\.00[0-9]+\) +REGRESSION$'
mkrun "$tmp/base4" seeds=4
mkrun "$tmp/slow4" seeds=4 costb=2
expect 0 "cost x2 with 4 repeats is not tested" -- "$c" "$tmp/base4" "$tmp/slow4"
has "untested costs are counted" ' 4 cost comparisons untested \(fewer than 5 successful repeats'
expect 1 "... unless -min_repeats 4" -- "$c" "$tmp/base4" "$tmp/slow4" -min_repeats 4
mkrun "$tmp/tight0" costs_b=1:1.01:1.02:1.03:1.04:1.05
mkrun "$tmp/tight1" costs_b=1.1:1.111:1.122:1.133:1.144:1.155
expect 0 "cost x1.1 (significant) is under -time_ratio 1.2" -- "$c" "$tmp/tight0" "$tmp/tight1"
expect 1 "... but not under -time_ratio 1.05" -- "$c" "$tmp/tight0" "$tmp/tight1" -time_ratio 1.05
mkrun "$tmp/spread0" costs_b=1:10:1:10:1:10
mkrun "$tmp/spread1" costs_b=1:12:1:12:2:12
expect 0 "median ratio 1.27 that the rank-sum test does not support is not a regression" -- \
  "$c" "$tmp/spread0" "$tmp/spread1"
has "... reported ok with its p-value" '^b 0.1 +cost_seconds .* x1.27 \(p=0\.[1-9][0-9]*\) +ok$'
mkrun "$tmp/faster" costb=0.5
expect 0 "cost x0.5 is an improvement" -- "$c" "$tmp/base" "$tmp/faster"
has "improved cost row" '^b 0.1 +cost_seconds .* improved$'

mkrun "$tmp/more" hs=0.1,0.2
expect 0 "groups only in the new run are counted, not compared" -- "$c" "$tmp/base" "$tmp/more"
has "counts of unmatched groups" '^2 groups compared \(0 only in the baseline, 2 only in the new run\)'
mkrun "$tmp/numeric" hs=1e-1
expect 0 "h = 1e-1 matches h = 0.1" -- "$c" "$tmp/base" "$tmp/numeric"

expect 2 "missing new directory" -- "$c" "$tmp/base" "$tmp/nope"
grep -q "$tmp/nope/experiment.txt" "$tmp/err" && pass "message names the missing file" || fail "message: $(cat "$tmp/err")"
mkdir -p "$tmp/notasks" && cp "$tmp/base/experiment.txt" "$tmp/notasks/"
expect 2 "run directory without tasks.csv" -- "$c" "$tmp/base" "$tmp/notasks"
mkrun "$tmp/other" exp=other
expect 2 "different experiments" -- "$c" "$tmp/base" "$tmp/other"
grep -q "different experiments.*'toy'.*'other'" "$tmp/err" && pass "message names both experiments" || fail "message: $(cat "$tmp/err")"
mkrun "$tmp/metrics2" metrics=residual
expect 2 "different metric columns" -- "$c" "$tmp/base" "$tmp/metrics2"
grep -q "mismatched columns: 'metrics'" "$tmp/err" && pass "message says which columns" || fail "message: $(cat "$tmp/err")"
mkrun "$tmp/disjoint" hs=0.5
expect 2 "no common group" -- "$c" "$tmp/base" "$tmp/disjoint"
grep -q "no group in common" "$tmp/err" && pass "message says no group in common" || fail "message: $(cat "$tmp/err")"
expect 2 "unknown option" -- "$c" "$tmp/base" "$tmp/same" -tol_rell 0.1
grep -q "unknown option -tol_rell" "$tmp/err" && pass "message names the option" || fail "message: $(cat "$tmp/err")"
expect 2 "-metric_tol naming no metric" -- "$c" "$tmp/base" "$tmp/same" -metric_tol bogus=0.1
expect 2 "one directory only" -- "$c" "$tmp/base"
expect 0 "-help" -- "$c" -help
