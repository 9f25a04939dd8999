#!/usr/bin/env bash
# test_compare.sh — bin/bench_compare on hand-made run directories: identical runs pass (exit 0); an accuracy
# median beyond tolerance is a regression (1) and a fall is "improved" (the other way round for a metric
# listed under higher_better); -metric_tol and -tol_abs widen the tolerance; two values under a noise floor
# are never a verdict; metrics use the tasks both runs solved; a success-rate drop is a regression, one made
# of time_limit tasks is verdict time_limit (exit 0, 1 with -fail_time_limit) and the status change is
# shown; counts (iterations) are judged by ratio as cost, also when the baseline had them as a metric;
# timings of separate runs are evidence only (slower?), of interleaved runs (-interleaved) verdicts beyond
# the A-vs-A spread; a baseline group missing from the new run is a coverage regression; -map judges a
# variant against what it replaces; exit 2 for duplicate rows and non-numeric cells (either run), a missing
# directory, different experiments, mismatched columns, no common group, bad -map items, an unknown option
# and a -metric_tol naming no metric. Trajectory outcomes against the baseline's spread.csv: a move within
# spread_factor x the spread is "within spread" (exit 0), beyond it or with every instance worse at
# -shift_alpha a regression naming the spread, the pairs beyond it and the signed-rank p-value; per-step
# metrics against the baseline's floor, not the new run's; groups outside the new run's sweep (values_<axis>)
# not missing. A 40,000-task comparison with its sorts spilled to disk and its groups judged from the sorted
# stream (-sort_mb 1), and a group with a spread.csv streamed, report exactly what the in-memory ones do; a
# spread.csv beside descending task ids is refused; a repeated row is found through the spilled sort. Then
# bench/ab on a toy command: two identical commands pass, a slowed one is flagged with its ratio and p-value.
set -u
bin=${CB_BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../lib.sh"
expect() { # expect RC DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then pass "$what (exit $rc)"; else fail "$what: exit $rc, wanted $want: $(head -c 600 "$tmp/out" "$tmp/err")"; fi
}
has() { if grep -q -E -- "$2" "$tmp/out"; then pass "$1"; else fail "$1: no /$2/ in: $(cat "$tmp/out")"; fi; }

# mkrun DIR [var=value ...]: experiment "toy", groups (method a|b) x (h 0.1), `seeds` repeats each;
# err = 0.001 (seed + 1) (times errb in group b), cost_seconds = 0.01 (1 + 0.1 seed) (times costb in b,
# or the list costs_b), iters = 10 + seed (times itb in b), the first failb tasks of b end in
# max_iterations, the first tlb in time_limit; method names aname, bname; floors, counts, costs as given.
mkrun() {
  local dir=$1; shift
  local exp=toy seeds=6 errb=1 costb=1 failb=0 tlb=0 metrics=err hs=0.1 costs_b="" hb="" itb=1 aname=a bname=b
  local floors="" counts="" costs=cost_seconds,task_seconds mlist=""
  local kv; for kv in "$@"; do local "$kv"; done
  mkdir -p "$dir"
  cat >"$dir/experiment.txt" <<EOF
experiment $exp
title toy runs for test_compare
axes method,h,seed
group method,h
metrics ${mlist:-$metrics}
higher_better $hb
costs $costs
info
plot_x h
series method
log_x 1
options -seeds $seeds
units cost_seconds=s,task_seconds=s
floors $floors
counts $counts
EOF
  awk -v seeds="$seeds" -v errb="$errb" -v costb="$costb" -v failb="$failb" -v metrics="$metrics" \
      -v hs="$hs" -v costs_b="$costs_b" -v tlb="$tlb" -v itb="$itb" -v an="$aname" -v bn="$bname" 'BEGIN {
    printf "task_id,method,h,seed,status,%s,cost_seconds,task_seconds,iters,rank,host\n", metrics
    nb = split(costs_b, cb, ":"); nh = split(hs, hv, ","); id = 0
    for (m = 1; m <= 2; m++) for (k = 1; k <= nh; k++) for (s = 0; s < seeds; s++) {
      b = (m == 2); err = 0.001 * (s + 1) * (b ? errb : 1); cost = 0.01 * (1 + 0.1 * s) * (b ? costb : 1)
      if (b && nb) cost = cb[s + 1]
      st = (b && s < failb) ? "max_iterations" : (b && s < tlb) ? "time_limit" : "ok"
      it = (10 + s) * (b ? itb : 1)
      printf "%d,%s,%s,%d,%s,%.17g,%.17g,%.17g,%d,0,vm\n", id++, b ? bn : an, hv[k], s, st, err, cost, cost, it
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
has "the regression row names group, metric, values and change" '^b 0.1 +err +0.0035 +0.00525 +\+50% \[signed-rank p=0.016, n=6\] +REGRESSION$'
has "group a unchanged is not listed" '^[^#]*b 0.1' && ! grep -q '^a 0.1 *err' "$tmp/out" && pass "only what moved is listed" || fail "unchanged rows listed"
expect 0 "-metric_tol err=0.6 accepts +50%" -- "$c" "$tmp/base" "$tmp/worse" -metric_tol err=0.6
expect 0 "-tol_abs 0.01 accepts +0.00175" -- "$c" "$tmp/base" "$tmp/worse" -tol_abs 0.01
expect 0 "-all lists every comparison" -- "$c" "$tmp/base" "$tmp/same" -all
has "-all: unchanged rows with verdict same" '^a 0.1 +err .* same$'
mkrun "$tmp/better" errb=0.5
expect 0 "err -50% is an improvement, not a regression" -- "$c" "$tmp/base" "$tmp/better"
has "improved row" '^b 0.1 +err .*-50% .*improved$'

mkrun "$tmp/hb_base" hb=err
mkrun "$tmp/hb_lower" hb=err errb=0.5
expect 1 "a higher-is-better metric falling 50% is a regression" -- "$c" "$tmp/hb_base" "$tmp/hb_lower"
has "... its row" '^b 0.1 +err .*-50% .*REGRESSION$'
has "... and the header says which metrics are higher-is-better" 'lower is better except for err,'
mkrun "$tmp/hb_higher" hb=err errb=1.5
expect 0 "... rising 50% is an improvement" -- "$c" "$tmp/hb_base" "$tmp/hb_higher"
expect 1 "the new run's higher_better list counts (baseline without one)" -- "$c" "$tmp/base" "$tmp/hb_lower"
has "... with a note" 'baseline.s higher_better list differs'

mkrun "$tmp/fails" failb=1
expect 1 "one task of six failing is a success-rate regression" -- "$c" "$tmp/base" "$tmp/fails"
has "success_rate row: 100% -> 83.3% and the status change" '^b 0.1 +success_rate +100.0% \(6\) +83.3% \(6\) +-16.7 pts, status ok -> max_iterations \(1\) +REGRESSION$'
grep -q '^b 0.1 *err' "$tmp/out" && fail "err compared over a task only one run solved" || pass "metrics use the tasks both runs solved (err not moved)"
mkrun "$tmp/tl" tlb=1
expect 0 "a success-rate drop made of time_limit tasks does not fail by default" -- "$c" "$tmp/base" "$tmp/tl"
has "... its own verdict and the status change" '^b 0.1 +success_rate .* status ok -> time_limit \(1\) +time_limit$'
has "... counted in the summary" ' 1 time_limit;'
expect 1 "... but does with -fail_time_limit" -- "$c" "$tmp/base" "$tmp/tl" -fail_time_limit
mkrun "$tmp/tlfail" tlb=1 failb=2
expect 1 "time_limit plus a new max_iterations is a regression" -- "$c" "$tmp/base" "$tmp/tlfail"

mkrun "$tmp/fl_base" floors=err=0.01
mkrun "$tmp/fl_new" floors=err=0.01 errb=2
expect 0 "err x2 with both medians under the floor 0.01 is not a verdict" -- "$c" "$tmp/fl_base" "$tmp/fl_new"
grep -q 'under floor$' "$tmp/out" && fail "under-floor rows listed without -all" || pass "... and not listed"
expect 0 "... -all lists it" -- "$c" "$tmp/fl_base" "$tmp/fl_new" -all
has "... as under floor" '^b 0.1 +err .* under floor$'
mkrun "$tmp/fl_new2" floors=err=0.01 errb=5
expect 1 "err rising over the floor is a regression" -- "$c" "$tmp/fl_base" "$tmp/fl_new2"
expect 0 "... the new run's floors count (baseline without)" -- "$c" "$tmp/base" "$tmp/fl_new"

mkrun "$tmp/it_base" costs=iters,cost_seconds,task_seconds counts=iters
mkrun "$tmp/it_more" costs=iters,cost_seconds,task_seconds counts=iters itb=2
expect 1 "iterations x2 (a count) is a regression" -- "$c" "$tmp/it_base" "$tmp/it_more"
has "... reported as a count with its ratio" '^b 0.1 +iters +12.5 +25 +x2 .*REGRESSION$'
mkrun "$tmp/it_same" costs=iters,cost_seconds,task_seconds counts=iters itb=1.05
expect 0 "iterations +5% is within -count_ratio 1.2" -- "$c" "$tmp/it_base" "$tmp/it_same"
mkrun "$tmp/it_metric" mlist=err,iters
expect 1 "a baseline with iterations as a metric compares against the new run's roles" -- \
  "$c" "$tmp/it_metric" "$tmp/it_more"
has "... with a note" 'column roles differ'

mkrun "$tmp/slow" costb=2
expect 0 "timings x2 of separate runs are evidence, not a failure" -- "$c" "$tmp/base" "$tmp/slow"
has "... shown as slower? with ratio and p-value" '^b 0.1 +cost_seconds .* x2 \(p=0\.00[0-9]+\) +slower\?$'
has "... and counted" ' 2 timing moves unconfirmed'
expect 1 "timings x2 of interleaved runs are a regression" -- "$c" "$tmp/base" "$tmp/slow" -interleaved
has "... with ratio, p-value and the A-vs-A spread" '^b 0.1 +cost_seconds .* x2 \(p=0\.00[0-9]+, A/A x1\.[0-9]+\) +REGRESSION$'
mkrun "$tmp/base4" seeds=4
mkrun "$tmp/slow4" seeds=4 costb=2
expect 0 "cost x2 with 4 repeats is not tested" -- "$c" "$tmp/base4" "$tmp/slow4" -interleaved
has "untested costs are counted" ' 4 timing comparisons untested \(fewer than 5 task pairs'
expect 1 "... unless -min_repeats 4" -- "$c" "$tmp/base4" "$tmp/slow4" -min_repeats 4 -interleaved
mkrun "$tmp/tight0" costs_b=1:1.01:1.02:1.03:1.04:1.05
mkrun "$tmp/tight1" costs_b=1.1:1.111:1.122:1.133:1.144:1.155
expect 0 "cost x1.1 (significant) is under -time_ratio 1.2" -- "$c" "$tmp/tight0" "$tmp/tight1" -interleaved
expect 1 "... but not under -time_ratio 1.05" -- "$c" "$tmp/tight0" "$tmp/tight1" -time_ratio 1.05 -interleaved
mkrun "$tmp/aa0" costs_b=1:1.5:1.01:1.51:1.02:1.52
mkrun "$tmp/aa1" costs_b=1.3:1.95:1.313:1.963:1.326:1.976
expect 0 "cost x1.3 inside an A-vs-A spread of x1.5 is not a regression" -- \
  "$c" "$tmp/aa0" "$tmp/aa1" -interleaved -time_ratio 1.05
mkrun "$tmp/spread0" costs_b=1:10:1:10:1:10
mkrun "$tmp/spread1" costs_b=1:12:1:12:2:12
expect 0 "median ratio 1.27 that the rank-sum test does not support is not a regression" -- \
  "$c" "$tmp/spread0" "$tmp/spread1" -interleaved
has "... reported ok with its p-value" '^b 0.1 +cost_seconds .* x1.27 \(p=0\.[1-9][0-9]*, A/A x[0-9.]+\) +ok$'
mkrun "$tmp/faster" costb=0.5
expect 0 "cost x0.5 is an improvement" -- "$c" "$tmp/base" "$tmp/faster" -interleaved
has "improved cost row" '^b 0.1 +cost_seconds .* improved$'

mkrun "$tmp/more" hs=0.1,0.2
expect 0 "groups only in the new run are counted, not compared" -- "$c" "$tmp/base" "$tmp/more"
has "counts of unmatched groups" '^2 groups compared \(0 missing from the new run, 2 only in the new run, 0 of the baseline outside'
expect 1 "groups missing from the new run are a coverage regression" -- "$c" "$tmp/more" "$tmp/base"
has "... listed in the table" '^b 0.2 +coverage +6 tasks +missing +group missing +REGRESSION$'
has "... and counted" '^2 groups compared \(2 missing from the new run, 0 only in the new run, 0 of the baseline outside the new run.s sweep\): 2 regressions'
mkrun "$tmp/numeric" hs=1e-1
expect 0 "h = 1e-1 matches h = 0.1" -- "$c" "$tmp/base" "$tmp/numeric"

mkrun "$tmp/variant" bname=b_relax
expect 1 "a renamed variant without -map: its baseline group is missing" -- "$c" "$tmp/base" "$tmp/variant"
expect 0 "-map b_relax=b judges the variant against b" -- "$c" "$tmp/base" "$tmp/variant" -map b_relax=b
has "... and says so" "^# map: the new run's b_relax judged as b"
mkrun "$tmp/variant_worse" bname=b_relax errb=1.5
expect 1 "... and flags it when it is worse" -- "$c" "$tmp/base" "$tmp/variant_worse" -map b_relax=b
mkrun "$tmp/renamed" aname=a2 bname=b2
expect 2 "no group in common names -map" -- "$c" "$tmp/base" "$tmp/renamed"
grep -q -- "-map" "$tmp/err" && pass "... in its message" || fail "message: $(cat "$tmp/err")"
expect 0 "-map with two items" -- "$c" "$tmp/base" "$tmp/renamed" -map a2=a,b2=b
expect 2 "-map of a value the new run does not have" -- "$c" "$tmp/base" "$tmp/variant" -map zz=b
expect 0 "-map onto a value the new run also has: one value judged against the other, nothing merged" -- \
  "$c" "$tmp/base" "$tmp/same" -map a=b
grep -q "left out of the new side" "$tmp/err" && grep -q "left out of the baseline side" "$tmp/err" &&
  pass "... the other value's rows left out of each side, said on stderr" || fail "message: $(cat "$tmp/err")"
expect 2 "a malformed -tol_rel (0.5x) is refused" -- "$c" "$tmp/base" "$tmp/same" -tol_rel 0.5x
grep -q -- "tol_rel: .0.5x. is not a number" "$tmp/err" && pass "... naming it" || fail "message: $(cat "$tmp/err")"
expect 2 "-map item without =" -- "$c" "$tmp/base" "$tmp/variant" -map b_relax

mkrun "$tmp/dup"
tail -n 1 "$tmp/dup/tasks.csv" >>"$tmp/dup/tasks.csv"
expect 2 "a duplicate task row in the new run is a corrupt table" -- "$c" "$tmp/base" "$tmp/dup"
grep -q "corrupt table $tmp/dup/tasks.csv: data rows 12 and 13 have the same task_id" "$tmp/err" \
  && pass "... the message names file and rows" || fail "message: $(cat "$tmp/err")"
expect 2 "... and in the baseline" -- "$c" "$tmp/dup" "$tmp/base"
mkrun "$tmp/dupaxes"
awk -F, -v OFS=, 'NR == 3 { $1 = 99; print }' "$tmp/dupaxes/tasks.csv" >"$tmp/x" && cat "$tmp/x" >>"$tmp/dupaxes/tasks.csv"
expect 2 "two rows with the same axis values are a corrupt table" -- "$c" "$tmp/base" "$tmp/dupaxes"
grep -q "have the same axis values" "$tmp/err" && pass "... named so" || fail "message: $(cat "$tmp/err")"
mkrun "$tmp/text"
sed -i 's/^3,a,0.1,3,ok,[^,]*,/3,a,0.1,3,ok,abc,/' "$tmp/text/tasks.csv"
expect 2 "a non-numeric metric cell in the new run is a corrupt table" -- "$c" "$tmp/base" "$tmp/text"
grep -q "corrupt table $tmp/text/tasks.csv: data row 4 (task_id 3): column 'err' holds 'abc'" "$tmp/err" \
  && pass "... the message names file, row and column" || fail "message: $(cat "$tmp/err")"
expect 2 "... and in the baseline" -- "$c" "$tmp/text" "$tmp/base"

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
grep -q -- "-tol_rell is not an option of this run (did you mean -tol_rel?)" "$tmp/err" && pass "message names the option and the nearest" || fail "message: $(cat "$tmp/err")"
expect 2 "a stray word after a value" -- "$c" "$tmp/base" "$tmp/same" -tol_rel 0.1 0.2
grep -q "stray word '0.2' after -tol_rel 0.1" "$tmp/err" && pass "... is named, not dropped" || fail "message: $(cat "$tmp/err")"
expect 0 "flags take no value: a directory after -all is positional" -- "$c" -all "$tmp/base" "$tmp/same"
# (PETSc's array reader kept 64 items; one argv word holds at most 128 KiB, so the 200 KB list is in a file)
expect 0 "-metric_tol with more than 64 items is read whole" -- "$c" "$tmp/base" "$tmp/worse" \
  -metric_tol "$(yes err=0.01 | head -69 | paste -sd, -),err=0.6"
echo "-metric_tol $(yes err=0.01 | head -23000 | paste -sd, -),err=0.6" >"$tmp/long.opts"
expect 0 "... and a 200 KB -metric_tol in an options file, to its last item" -- "$c" "$tmp/base" "$tmp/worse" \
  -options_file "$tmp/long.opts"
expect 0 "-help prints bench_compare's options only" -- "$c" -help
head -1 "$tmp/out" | grep -q '^bench_compare BASELINE_DIR NEW_DIR' && ! grep -q 'Petsc Release' "$tmp/out" &&
  pass "... not PETSc's block" || fail "help: $(head -3 "$tmp/out")"
expect 2 "-metric_tol naming no metric" -- "$c" "$tmp/base" "$tmp/same" -metric_tol bogus=0.1
expect 2 "one directory only" -- "$c" "$tmp/base"
expect 0 "-help" -- "$c" -help

# trajectory outcomes against the spread the baseline measured (spread.csv beside it): every task of err moved
# by up to 0.001 under the perturbation, so with the factor 3 a median may move by 0.003
mkrun "$tmp/sp_base"
{ echo "# hand-made spread"; echo "task_id,runs,status_flips,err"
  for id in $(seq 0 11); do echo "$id,3,0,0.001"; done; } >"$tmp/sp_base/spread.csv"
mkrun "$tmp/sp_chaos" errb=1.5
expect 0 "err of b +50% (median +0.00175), within 3 x the measured spread 0.001: pass" -- "$c" "$tmp/sp_base" "$tmp/sp_chaos"
has "... verdict 'within spread', with what the spread allows and the pairs beyond it" \
  '^b 0.1 +err .*\+50% \[spread allows 0.003; [01]/6 beyond\] \[signed-rank p=0.016, n=6\] +within spread$'
has "... counted on the summary line" 'regressions, 0 improved, 1 within the measured spread'
expect 1 "... with -spread_factor 1 (allows 0.001): a regression" -- "$c" "$tmp/sp_base" "$tmp/sp_chaos" -spread_factor 1
has "... naming the pairs beyond their own spread" '^b 0.1 +err .*\[spread allows 0.001; 4/6 beyond\].* +REGRESSION$'
mkrun "$tmp/sp_far" errb=4
expect 1 "err of b x4 (median 0.014, +0.0105), beyond 3 x the spread: a regression" -- "$c" "$tmp/sp_base" "$tmp/sp_far"
expect 1 "every instance worse (p = 1/64) at -shift_alpha 0.05: a shift, whatever the spread" -- \
  "$c" "$tmp/sp_base" "$tmp/sp_chaos" -shift_alpha 0.05
has "... the row says so with its p-value" '^b 0.1 +err .*\[signed-rank p=0.016, n=6: shift\] +REGRESSION$'
# a group judged from the sorted stream (-sort_mb 0.0001: every group larger than the budget) reads the
# spread joined onto its rows and reports exactly what the group held in memory does
"$c" "$tmp/sp_base" "$tmp/sp_chaos" -all >"$tmp/sp_mem" 2>&1
expect 0 "a group streamed (-sort_mb 0.0001) with the baseline's spread.csv" -- \
  "$c" "$tmp/sp_base" "$tmp/sp_chaos" -all -sort_mb 0.0001
if cmp -s "$tmp/out" "$tmp/sp_mem"; then pass "... the same report as held in memory"; else
  fail "... the report differs: $(diff "$tmp/sp_mem" "$tmp/out" | head -5)"; fi
mkrun "$tmp/sp_desc" && cp "$tmp/sp_base/spread.csv" "$tmp/sp_desc/" &&
  awk -F, -v OFS=, 'NR == 2 { $1 = 50 } { print }' "$tmp/sp_base/tasks.csv" >"$tmp/sp_desc/tasks.csv"
expect 2 "spread.csv beside a baseline whose task ids descend: refused (the join reads both by ascending id)" -- \
  "$c" "$tmp/sp_desc" "$tmp/sp_chaos"
grep -q "spread.csv joins the baseline's tasks by ascending task_id, but its tasks.csv holds task 1 after 50" \
  "$tmp/err" && pass "... named so" || fail "message: $(cat "$tmp/err")"
expect 2 "-spread_factor under 1: refused" -- "$c" "$tmp/sp_base" "$tmp/sp_chaos" -spread_factor 0.5
# per-step quantities: the baseline's floor, whatever the new run declares
mkrun "$tmp/ps_base" floors=err=0.01 && sed -i 's/^counts $/counts\nper_step err/' "$tmp/ps_base/experiment.txt"
mkrun "$tmp/ps_new" errb=2 floors=err=1 && sed -i 's/^counts $/counts\nper_step err/' "$tmp/ps_new/experiment.txt"
expect 0 "per-step err of b x2 (median 0.007) and the baseline's 0.0035, both under its floor 0.01: no verdict" -- \
  "$c" "$tmp/ps_base" "$tmp/ps_new"
has "... under floor, not the new run's looser floor 1 that would hide anything" '^b 0.1 +err .* under floor$|nothing moved'
mkrun "$tmp/ps_new2" errb=12 floors=err=1 && sed -i 's/^counts $/counts\nper_step err/' "$tmp/ps_new2/experiment.txt"
expect 1 "per-step err of b x12 (median 0.042) above the baseline's floor 0.01: a regression despite the new floor 1" -- \
  "$c" "$tmp/ps_base" "$tmp/ps_new2"
# a run of some values of a group axis (a replay of a few solvers): the others were not asked for
mkrun "$tmp/sel" && grep -v ',b,' "$tmp/sel/tasks.csv" >"$tmp/sel/t" && mv "$tmp/sel/t" "$tmp/sel/tasks.csv" &&
  printf 'values_method a\nvalues_h 0.1\n' >>"$tmp/sel/experiment.txt"
expect 0 "a run of method a only (values_method a): group b is outside its sweep, not missing" -- "$c" "$tmp/base" "$tmp/sel"
has "... counted as such" '^1 groups compared \(0 missing from the new run, 0 only in the new run, 1 of the baseline outside'

# the tables are streamed through external sorts (extsort.c): with -sort_mb 1 a 40,000-task run goes to disk
# in chunks and every verdict, and the duplicate check, come out as they do in memory
mkrun "$tmp/big_base" seeds=20000
mkrun "$tmp/big_new" seeds=20000 errb=1.5 failb=3 costb=2
"$c" "$tmp/big_base" "$tmp/big_new" -all >"$tmp/big_mem" 2>&1
expect 1 "40,000 tasks, sorts spilled to disk (-sort_mb 1): err of b x1.5 and 3 failures are regressions" -- \
  "$c" "$tmp/big_base" "$tmp/big_new" -all -sort_mb 1
if cmp -s "$tmp/out" "$tmp/big_mem"; then pass "... the same report as with the sorts in memory"; else
  fail "... the report differs from the in-memory one: $(diff "$tmp/big_mem" "$tmp/out" | head -5)"; fi
has "... over 19,997 pairs in group b" '^b 0.1 +err .* \+50% \[signed-rank p=0, n=19997: shift\] +REGRESSION$'
sed -n '30000p' "$tmp/big_new/tasks.csv" | sed 's/^[0-9]*,/40000,/' >>"$tmp/big_new/tasks.csv"
expect 2 "... a row repeated at the end of 40,000 (its axis values twice) is found through the spilled sort" -- \
  "$c" "$tmp/big_base" "$tmp/big_new" -sort_mb 1
if grep -q "data rows 29999 and 40001 have the same axis values (method=b,h=0.1,seed=9998)" "$tmp/err"; then
  pass "... naming both rows and their values"; else fail "... message: $(cat "$tmp/err")"; fi
expect 2 "-sort_mb 0: refused" -- "$c" "$tmp/base" "$tmp/same" -sort_mb 0

# bench/ab: A and B interleaved (bench_synthetic computes for -work seconds per task)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ab="$(dirname "$0")/../../../bench/ab"
syn="$bin/bench_synthetic -seeds 2 -out {out} -quiet -no_plots"
# (the command computes for about 0.2 s: a 20 ms one is within the CPU clock's steps and a loaded
# machine's jitter of the 1.2 ratio, and then "the same command" is flagged by chance)
spin="awk 'BEGIN { for (i = 0; i < 1e7; i++) s += i }'"
expect 0 "bench/ab: the same command twice passes" -- env CB_BIN="$bin" "$ab" -n 5 -warmup 0 -out "$tmp/ab_same" \
  -a "$spin" -b "$spin" -- -all
# (-all lists rows that did not move: bash's CPU times are in 10 ms steps, so A and B often tie exactly)
has "... process wall and CPU time compared" '^\(all\) +cpu_seconds '
expect 1 "bench/ab: a command that takes longer is flagged" -- env CB_BIN="$bin" "$ab" -n 5 -warmup 0 \
  -out "$tmp/ab_sleep" -a "sleep 0.1" -b "sleep 0.4"
has "... by its wall time, ratio, p-value and A-vs-A spread" '^\(all\) +wall_seconds .* x[2-9][0-9.]* \(p=[0-9.e-]+, A/A x[0-9.]+\) +REGRESSION$'
expect 0 "bench/ab: ... but not under -time_ratio 10 given after --" -- env CB_BIN="$bin" "$ab" -n 5 -warmup 0 \
  -out "$tmp/ab_sleep10" -a "sleep 0.1" -b "sleep 0.4" -- -time_ratio 10
expect 1 "bench/ab: a slower command is flagged" -- env CB_BIN="$bin" "$ab" -n 5 -warmup 0 -out "$tmp/ab_slow" \
  -a "$syn -work 0.01" -b "$syn -work 0.05" -- -map 0.05=0.01 -metric_tol draw_mean=1
has "... over the pooled tasks" '^# bench_compare .*/A/pooled'
has "... with its ratio, p-value and A-vs-A spread" '^ok 0.01 +busy_seconds .* x[2-9][0-9.]* \(p=[0-9.e-]+, A/A x[0-9.]+\) +REGRESSION$'
expect 2 "bench/ab: -n under 5 is refused" -- "$ab" -n 3 -a true -b true
expect 2 "bench/ab: a failing command stops it" -- "$ab" -n 5 -out "$tmp/ab_fail" -a true -b false
