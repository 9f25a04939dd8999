#!/usr/bin/env bash
# test_bench_peg_box2d.sh — smoke run of bin/bench_peg_box2d on the sweep engine: 1 s of
# pouring from our generator (4 polygons at h = 0.016) with peg and corrective; the issue's columns are
# there; peg's overlap stays below corrective's; a missing body-set file exits 2 with -source paper; with
# ../shared/data the stored set a runs (skipped without it); -cp_dump_failed writes a replayable failed LCP
# (DIR/peg_box2d_task<ID>_step<K>.txt); -trace starts with the standard run-loop columns.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_peg_box2d" -source generator -seeds 1 -h 0.016 -t_end 1 -formulation peg,corrective -cp_solver lemke \
  -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,source,seed,h,formulation,solver,stewart_trinkle_detection,status"
cols="overlap_mean overlap_median max_overlap_depth failed_at trap_fraction i_constraint_fraction i_constraints_mean rows_mean solve_seconds step_seconds"
missing=""
for c in $cols; do head -1 "$csv" | tr ',' '\n' | grep -qx "$c" || missing="$missing $c"; done
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want," && [ -z "$missing" ]; then
  echo "ok - bench_peg_box2d: runs, tasks.csv columns"; else
  echo "not ok - bench_peg_box2d: exit $rc, missing$missing, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
st=$(csv_col "$csv" status) bo=$(csv_col "$csv" bodies) om=$(csv_col "$csv" overlap_mean) bs=$(csv_col "$csv" bodyset)
if awk -F, -v s="$st" -v b="$bo" -v o="$om" -v l="$bs" 'NR > 1 { n++; if ($s != "ok" || $b != 4 || $l !~ /^gen:[0-9]+$/) bad = 1;
   v[$5] = $o; lab[$l] = 1 } END { for (k in lab) nl++; exit !(n == 2 && !bad && nl == 1 && v["peg"] < v["corrective"]) }' "$csv"; then
  echo "ok - bench_peg_box2d: 4 polygons poured (one generated set for both formulations), both ok, peg's overlap below corrective's"; else
  echo "not ok - bench_peg_box2d: rows"; sed 's/^/# /' "$csv"; fi
"$CB_BIN/bench_peg_box2d" -source paper -bodyset_file "$tmp/none.txt" -out "$tmp/bad" >"$tmp/err" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "none.txt: no such file" "$tmp/err"; then echo "ok - bench_peg_box2d: missing body-set file exits 2"; else
  echo "not ok - bench_peg_box2d: missing body-set file exits $rc"; sed 's/^/# /' "$tmp/err"; fi
# -cp_dump_failed: Lemke stops on a ray on nonconvex_max's degenerate LCP at the first corner group; the
# failed problem is written as a plain file that cpsolve replays, and milp solves it
mkdir -p "$tmp/dump"
"$CB_BIN/bench_peg_box2d" -source generator -seeds 1 -h 0.016 -t_end 1.5 -formulation nonconvex_max -cp_solver lemke \
  -out "$tmp/nc" -quiet -no_plots -cp_dump_failed "$tmp/dump" -trace "$tmp/dump" >"$tmp/out" 2>&1
f=$(ls "$tmp"/dump/peg_box2d_task0_step*.txt 2>/dev/null | head -1)
if [ -n "$f" ] && grep -q "the failed problem at t = .* is in $f" "$tmp/out" &&
  "$CB_BIN/cpsolve" -f "$f" -cp_solver milp -format csv 2>/dev/null | grep -q "^milp,converged,"; then
  echo "ok - bench_peg_box2d: -cp_dump_failed writes the failed LCP; cpsolve -cp_solver milp solves it"; else
  echo "not ok - bench_peg_box2d: -cp_dump_failed"; sed 's/^/# /' "$tmp/out"; fi
tr="$tmp/dump/peg_box2d_task0.csv"
if [ -f "$tr" ] && head -1 "$tr" | grep -q "^step,t,status,contacts,.*,max_penetration,bodies,traps,i_constraints,overlap," &&
  tail -1 "$tr" | grep -q ",ray_termination," &&
  [ "$(awk -F, 'NR > 1 && $3 == "converged"' "$tr" | wc -l)" -ge 1 ]; then
  echo "ok - bench_peg_box2d: -trace writes a row per step, the failed step last"; else
  echo "not ok - bench_peg_box2d: -trace"; tail -3 "$tr" 2>/dev/null | sed 's/^/# /'; fi
data=${CB_SHARED_DATA:-../shared/data}
if [ -f "$data/peg/box2d_bodysets.txt" ]; then
  "$CB_BIN/bench_peg_box2d" -source paper -seeds 1 -h 0.016 -t_end 0.5 -formulation peg -cp_solver lemke \
    -out "$tmp/paper" -quiet -no_plots >/dev/null 2>&1
  if awk -F, 'NR == 2 { exit !($8 == "ok" && $9 == "a") }' "$tmp/paper/tasks.csv" 2>/dev/null; then
    echo "ok - bench_peg_box2d: the stored set a runs"; else echo "not ok - bench_peg_box2d: stored set a"; fi
else
  echo "skip - bench_peg_box2d stored set a: no $data/peg/box2d_bodysets.txt"
fi
