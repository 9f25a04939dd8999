#!/usr/bin/env bash
# test_bench_cannonball.sh — smoke run of bin/bench_cannonball on the sweep engine: the 21-disc
# pile, mu = 0.05, 3 steps, LCP0/LCP1/LCP2 with Lemke all end ok; LCP1 takes several fixed-point rounds and
# its normal velocity error is below mu TOL, LCP2's is visible (mu lambda), LCP0's is at rounding level;
# the issue's columns are there; a non-triangular disk count and an unknown formulation exit 2.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_cannonball" -disks 21 -mu 0.05 -h 0.05 -cp_solver lemke -steps 3 -trace "$tmp/tr/ace" \
  -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
paste -d, <(csv_values "$csv" formulation) <(csv_values "$csv" status) <(csv_values "$csv" fp_iterations) <(csv_values "$csv" nv_error_max) >"$tmp/sel" 2>/dev/null
if [ "$rc" = 0 ] && [ "$(csv_values "$csv" status | grep -c '^ok$')" = 3 ]; then echo "ok - bench_cannonball: 3 methods ok"; else
  echo "not ok - bench_cannonball: exit $rc"; sed 's/^/# /' "$tmp/out" "$csv"; fi
if awk -F, '$1 == "anitescu_potra" && $3 == 1 && $4 < 1e-10 { a++ }
  $1 == "anitescu_hart_lcp1" && $3 >= 2 && $3 <= 12 && $4 < 5e-7 { b++ }
  $1 == "anitescu_hart_lcp2" && $3 == 1 && $4 > 1e-3 { c++ } END { exit !(a == 1 && b == 1 && c == 1) }' "$tmp/sel"
then echo "ok - bench_cannonball: LCP0 exact, LCP1 a few rounds below mu TOL, LCP2 error mu lambda visible"; else
  echo "not ok - bench_cannonball: method rows"; sed 's/^/# /' "$tmp/sel"; fi
want="disks,mu,h,formulation,solver,status"
if head -1 "$csv" | grep -q "^task_id,$want," &&
  for c in steps cpu_seconds nv_error_mean nv_error_max fp_iterations; do head -1 "$csv" | grep -q ",$c,"; done
then echo "ok - bench_cannonball: tasks.csv columns"; else echo "not ok - bench_cannonball: header $(head -1 "$csv")"; fi
if [ "$(ls "$tmp"/tr/ace/cannonball_task*.csv 2>/dev/null | wc -l)" = 3 ] &&
  [ "$(wc -l <"$tmp/tr/ace/cannonball_task1.csv")" = 4 ]; then
  echo "ok - bench_cannonball: -trace creates its directory and writes one step table per task"
else echo "not ok - bench_cannonball: trace files"; ls -R "$tmp"; fi
"$CB_BIN/bench_cannonball" -disks 21 -steps 1 -trace /proc/no/such -out "$tmp/badtrace" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "error: -trace: cannot create the directory /proc/no/such" "$tmp/out" &&
  [ ! -e "$tmp/badtrace/tasks.csv" ]; then echo "ok - bench_cannonball: a -trace directory that cannot be made stops the run"
else echo "not ok - bench_cannonball: unwritable -trace: exit $rc"; sed 's/^/# /' "$tmp/out"; fi
"$CB_BIN/bench_cannonball" -disks 20 -out "$tmp/bad1" >/dev/null 2>&1
rc1=$?
"$CB_BIN/bench_cannonball" -formulation no_such_thing -out "$tmp/bad2" >/dev/null 2>&1
rc2=$?
if [ "$rc1" = 2 ] && [ "$rc2" = 2 ]; then echo "ok - bench_cannonball: bad disks / formulation exit 2"; else
  echo "not ok - bench_cannonball: bad input exits $rc1, $rc2 (want 2, 2)"; fi
