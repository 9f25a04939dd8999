#!/usr/bin/env bash
# test_bench_peg_box3d.sh — smoke run of bin/bench_peg_box3d (the PEG paper's box of icosahedra) on the
# sweep engine: 1.2 s at h = 0.016 (three icosahedra) with peg, corrective and the standard model with both
# detections; the columns are there (with the per-step cost split: detection, assembly, solver); every run
# completes; peg's mean overlap volume is at least a hundred times below corrective's; "paper" is
# not_applicable to peg; a bad -stewart_trinkle_detection value is an error row.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_peg_box3d" -h 0.016 -t_end 1.2 -formulation peg,corrective,stewart_trinkle -stewart_trinkle_detection closest,paper \
  -cp_solver lemke -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,h,formulation,solver,stewart_trinkle_detection,status"
cols="overlap_mean overlap_median overlap_q1 overlap_q3 overlap_max failed_at trap_fraction traps_mean i_constraint_fraction i_constraints_mean contacts_mean bodies rows_mean step_seconds detect_seconds assemble_seconds solve_seconds"
missing=""
for c in $cols; do head -1 "$csv" 2>/dev/null | tr ',' '\n' | grep -qx "$c" || missing="$missing $c"; done
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want," && [ -z "$missing" ]; then
  echo "ok - bench_peg_box3d: runs, tasks.csv columns"; else
  echo "not ok - bench_peg_box3d: exit $rc, missing$missing, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
st=$(csv_col "$csv" status) om=$(csv_col "$csv" overlap_mean) bo=$(csv_col "$csv" bodies)
if awk -F, -v s="$st" -v o="$om" -v b="$bo" 'NR > 1 { k = $3 "/" $5; st[k] = $s; ov[k] = $o; bd[k] = $b }
   END { bad = !(st["peg/closest"] == "ok" && st["corrective/closest"] == "ok" && st["stewart_trinkle/closest"] == "ok");
         bad = bad || st["peg/paper"] != "not_applicable" || st["stewart_trinkle/paper"] == "";
         bad = bad || bd["peg/closest"] != 3 || !(ov["peg/closest"] * 100 < ov["corrective/closest"]);
         exit bad }' "$csv"; then
  echo "ok - bench_peg_box3d: three icosahedra, every run ok, peg's overlap far below corrective's"; else
  echo "not ok - bench_peg_box3d: statuses or overlaps"; sed 's/^/# /' "$csv"; fi
# the cost split: detection, assembly and the solver's own time are each positive and within the step's
sp=$(csv_col "$csv" step_seconds) dt=$(csv_col "$csv" detect_seconds) as=$(csv_col "$csv" assemble_seconds) sv=$(csv_col "$csv" solve_seconds)
n=$(awk -F, -v s="$st" -v a="$sp" -v b="$dt" -v c="$as" -v d="$sv" 'NR > 1 && $s == "ok" && $b > 0 && $c > 0 && $d > 0 && $b + $c + $d <= $a * (1 + 1e-9)' "$csv" | wc -l)
if [ "$n" = 4 ]; then echo "ok - bench_peg_box3d: detection + assembly + solve within the step, each positive (4 runs)"; else
  echo "not ok - bench_peg_box3d: the cost split holds in $n of 4 runs"; fi
# a value the option's table does not allow is bad input, found before any task: exit 2, the option, the
# value and its choices named, no run directory made
"$CB_BIN/bench_peg_box3d" -h 0.016 -t_end 0.1 -formulation peg,stewart_trinkle -stewart_trinkle_detection nearest \
  -out "$tmp/bad" -quiet -no_plots >"$tmp/bad.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "stewart_trinkle_detection: 'nearest' is not one of closest|paper" "$tmp/bad.out" &&
  [ ! -e "$tmp/bad/tasks.csv" ]; then echo "ok - bench_peg_box3d: a bad -stewart_trinkle_detection is refused (exit 2)"; else
  echo "not ok - bench_peg_box3d: -stewart_trinkle_detection nearest: exit $rc"; sed 's/^/# /' "$tmp/bad.out"; fi
