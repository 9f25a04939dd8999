#!/usr/bin/env bash
# test_grasp_slices.sh — bench/grasp_slices, the full grasp grid a slice at a time: with 50,400 slices of 2
# trials, slice 7 runs trials 7 and 50,407 (the medium and the high friction range of one cell) and keeps
# them with the kept columns; a slice kept is not run twice; status counts the kept slices and fails while
# some are missing; finish refuses an incomplete grid; a slice count that does not divide 100,800 and a slice
# out of range exit 2 (11 slices do not divide it); GRASP_METHOD's options reach the run, and
# geometric_implicit's slices have TAO SSILS as the step's fallback solver; a ledger's interrupted row is not
# kept; mend runs a slice's failed trials again with the fallback and puts their rows in place, once; finish
# refuses slices of other columns.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gs="$(dirname "$0")/../../bench/grasp_slices"
export GRASP_SLICES=50400 GRASP_RUN="$tmp/run" GRASP_PARTIAL="$tmp/partial" GRASP_FORMULATION=stewart_trinkle \
  GRASP_SOLVER=lemke
"$gs" run 7 >"$tmp/out" 2>&1
rc=$?
kept="$tmp/partial/trials.7-of-50400.csv.xz"
if [ "$rc" = 0 ] && [ -f "$kept" ] && [ -f "$tmp/partial/meta.7-of-50400.json" ] &&
   xz -dc "$kept" | head -1 | grep -qx "task_id,friction_support,friction_gripper,close_force,friction,y,x,seed,formulation,solver,status,outcome,success,steps,cold_retries,halved,fallbacks,trial_cpu_seconds" &&
   [ "$(xz -dc "$kept" | awk -F, 'NR > 1 { print $1 }' | sort -n | tr '\n' ' ')" = "7 50407 " ] &&
   xz -dc "$kept" | awk -F, 'NR > 1 && ($11 != "ok" || $9 != "stewart_trinkle") { bad = 1 } END { exit bad }'; then
  echo "ok - grasp_slices run 7 of 50400: trials 7 and 50407 kept, the kept columns, status ok"; else
  echo "not ok - grasp_slices run (exit $rc)"; sed 's/^/# /' "$tmp/out" | tail -20; fi
"$gs" run 7 >"$tmp/out2" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "already kept" "$tmp/out2"; then
  echo "ok - grasp_slices: a kept slice is not run again (exit 2)"; else
  echo "not ok - grasp_slices: a kept slice run again exits $rc"; sed 's/^/# /' "$tmp/out2"; fi
"$gs" status >"$tmp/out3" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "^1 of 50400 slices kept" "$tmp/out3"; then
  echo "ok - grasp_slices status: 1 of 50400 kept, exit 1 while slices are missing"; else
  echo "not ok - grasp_slices status exits $rc"; tail -3 "$tmp/out3" | sed 's/^/# /'; fi
"$gs" finish "$tmp/fin" >"$tmp/out4" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "not every slice" "$tmp/out4" && [ ! -f "$tmp/fin/tasks.csv" ]; then
  echo "ok - grasp_slices finish refuses an incomplete grid (exit 2)"; else
  echo "not ok - grasp_slices finish on an incomplete grid exits $rc"; sed 's/^/# /' "$tmp/out4"; fi
# a resumed slice keeps each trial's last result: an "interrupted" row put before trial 7's row in the
# ledger (a run stopped during it, then resumed) is not kept, and the slice still holds its 2 trials
ledger="$tmp/run/ledger.7-of-50400.csv"
awk -F, -v OFS=, '$1 == 7 { s = $1; for (i = 2; i <= 10; i++) s = s OFS $i; s = s OFS "interrupted"
    for (i = 12; i <= NF; i++) s = s OFS; print s } { print }' "$ledger" >"$tmp/ledger" && mv "$tmp/ledger" "$ledger"
rm -f "$kept"
"$gs" run 7 >"$tmp/out_r" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c '^7,.*,interrupted,' "$ledger")" = 1 ] &&
   [ "$(xz -dc "$kept" | awk -F, 'NR > 1 { print $1 ":" $11 }' | sort | tr '\n' ' ')" = "50407:ok 7:ok " ]; then
  echo "ok - grasp_slices run on a ledger with an interrupted row: each trial's last result kept (2 rows)"; else
  echo "not ok - grasp_slices run on a ledger with an interrupted row (exit $rc)"; sed 's/^/# /' "$tmp/out_r" | tail -5
  xz -dc "$kept" 2>/dev/null | sed 's/^/# /'; fi
# mend: a slice kept without the fallback (no fallbacks column) whose trial 7 failed gets that trial run again
# with GRASP_FALLBACK (pgs: Lemke solves every step, so it is never used) and its row in place; the other
# trial keeps its row with fallbacks 0; the slice is not mended twice, nor with no fallback; finish refuses
# slices of different columns
xz -dc "$kept" | awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fallbacks") c = i }
    { s = ""; for (i = 1; i <= NF; i++) if (i != c) s = s (s == "" ? "" : OFS) ($1 == 7 && i == 11 ? "solve_failed" : $i)
      print s }' | xz >"$tmp/old.xz" && mv "$tmp/old.xz" "$kept"
before_50407=$(xz -dc "$kept" | awk -F, '$1 == 50407')
GRASP_FALLBACK=pgs "$gs" mend 7 >"$tmp/out_m" 2>&1
rc=$?
if [ "$rc" = 0 ] && xz -dc "$kept" | head -1 | grep -q ",halved,fallbacks,trial_cpu_seconds$" &&
   [ "$(xz -dc "$kept" | awk -F, 'NR > 1 { print $1 ":" $11 ":" $17 }' | sort | tr '\n' ' ')" = "50407:ok:0 7:ok:0 " ] &&
   [ "$(xz -dc "$kept" | awk -F, '$1 == 50407' | cut -d, -f1-16,18)" = "$before_50407" ] &&
   grep -q "^slice 7/50400 mended: its 1 failed trials run again with -step_fallback_solver pgs, 1 of them now finished; build [0-9a-f]" \
     "$tmp/partial/mend.7-of-50400.txt" && grep -q "^options .*-step_fallback_solver pgs" "$tmp/partial/experiment.txt"; then
  echo "ok - grasp_slices mend 7: the failed trial run again with the fallback and put in place, the other kept"; else
  echo "not ok - grasp_slices mend (exit $rc)"; sed 's/^/# /' "$tmp/out_m" | tail -5; xz -dc "$kept" | sed 's/^/# /'; fi
GRASP_FALLBACK=pgs "$gs" mend 7 >"$tmp/out_m2" 2>&1
rc=$?
"$gs" mend 7 >"$tmp/out_m3" 2>&1
rc3=$?
if [ "$rc" = 2 ] && grep -q "has the fallbacks column already" "$tmp/out_m2" && [ "$rc3" = 2 ] &&
   grep -q "GRASP_FALLBACK is none" "$tmp/out_m3"; then
  echo "ok - grasp_slices mend: not twice, not without a fallback (exit 2)"; else
  echo "not ok - grasp_slices mend again exits $rc, without a fallback $rc3"; sed 's/^/# /' "$tmp/out_m2" "$tmp/out_m3"; fi
# GRASP_METHOD's options reach the slice's run: its experiment.txt records them, and its two trials are kept
GRASP_FORMULATION=geometric_implicit GRASP_SOLVER=fb_newton GRASP_METHOD="-geometric_implicit_cone_row degree1" \
  GRASP_RUN="$tmp/run_gi" GRASP_PARTIAL="$tmp/partial_gi" "$gs" run 9 >"$tmp/out_gi" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "^options .*-geometric_implicit_cone_row degree1" "$tmp/partial_gi/experiment.txt" &&
   [ "$(xz -dc "$tmp/partial_gi/trials.9-of-50400.csv.xz" | awk -F, 'NR > 1 && $9 == "geometric_implicit" { n++ } END { print n }')" = 2 ]; then
  echo "ok - grasp_slices run, GRASP_METHOD=-geometric_implicit_cone_row degree1: recorded, 2 trials kept"; else
  echo "not ok - grasp_slices run, GRASP_METHOD (exit $rc)"; sed 's/^/# /' "$tmp/out_gi" | tail -20
  grep "^options" "$tmp/partial_gi/experiment.txt" | sed 's/^/# /'; fi
if xz -dc "$tmp/partial_gi/trials.9-of-50400.csv.xz" | head -1 | grep -q ",fallbacks," &&
   grep -q "^options .*-step_fallback_solver tao_ssils" "$tmp/partial_gi/experiment.txt"; then
  echo "ok - grasp_slices run: geometric_implicit's slices run with TAO SSILS as the step's fallback solver"; else
  echo "not ok - grasp_slices run: no fallback solver for geometric_implicit"; fi
GRASP_SLICES=11 "$gs" status >"$tmp/out5" 2>&1
rc5=$?
"$gs" run 50400 >"$tmp/out6" 2>&1
rc6=$?
if [ "$rc5" = 2 ] && grep -q "does not divide" "$tmp/out5" && [ "$rc6" = 2 ] && grep -q "not one of" "$tmp/out6"; then
  echo "ok - grasp_slices: 11 slices (not a divisor of 100800) and slice 50400 of 50400 exit 2, named"; else
  echo "not ok - grasp_slices bad slices exit $rc5, $rc6"; sed 's/^/# /' "$tmp/out5" "$tmp/out6"; fi
# finish on a whole grid (two slices of 50,400 made-up trials: 400 cells x 126 seeds per friction range,
# outer_teeth at even seeds above y = -10 mm): tasks.csv holds the 100,800 trials by id, the map counts 63 of
# 126 in such a cell, and compared with a copy of its own cells every cell is equal
mkdir -p "$tmp/p2" "$tmp/ref"
for k in 0 1; do
  awk -v k="$k" -v head="task_id,friction_support,friction_gripper,close_force,friction,y,x,seed,formulation,solver,status,outcome,success,steps,cold_retries,halved,fallbacks,trial_cpu_seconds" \
    'BEGIN { OFS = ","; print head
      for (id = 0; id < 100800; id++) { if (id % 2 != k) continue
        f = id < 50400 ? "medium" : "high"; c = int((id % 50400) / 126); s = id % 126
        x = -9.5 + c % 20; y = -19.5 + int(c / 20); o = (s % 2 == 0 && y > -10) ? "outer_teeth" : "lost"
        print id, "friction", "friction", 1, f, y, x, s, "stewart_trinkle", "lemke", "ok", o, o == "outer_teeth", 100, 0, 0, 0, 0.01 } }' |
    xz -1 >"$tmp/p2/trials.$k-of-2.csv.xz"
  echo '{}' >"$tmp/p2/meta.$k-of-2.json"
done
echo "made up" >"$tmp/p2/experiment.txt"
GRASP_SLICES=2 GRASP_PARTIAL="$tmp/p2" GRASP_COMPARE="$tmp/fin2" "$gs" finish "$tmp/fin2" >"$tmp/out7" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$(awk 'END { print NR - 1 }' "$tmp/fin2/tasks.csv")" = 100800 ] &&
   awk -F, 'NR > 1 && $1 != NR - 2 { bad = 1 } END { exit bad }' "$tmp/fin2/tasks.csv" &&
   awk -F, '$1 == "medium/stewart_trinkle/lemke" && $2 == 0.5 && $3 == -9.5 { f = 1; if ($4 != 126 || $5 != 63) bad = 1 }
     END { exit !(f && !bad) }' "$tmp/fin2/grasp_cells.csv" &&
   [ "$(grep -c ": 400 cells (0 without a match); equal success counts 400;" "$tmp/fin2/grasp_compare.txt")" = 2 ]; then
  echo "ok - grasp_slices finish: 100,800 trials in id order, 63/126 in a cell, every cell equal to itself"; else
  echo "not ok - grasp_slices finish (exit $rc)"; sed 's/^/# /' "$tmp/out7" | tail -5; head -3 "$tmp/fin2/grasp_compare.txt" 2>/dev/null | sed 's/^/# /'; fi
# a grid whose slice 1 lacks the fallbacks column (kept without the fallback, not mended) is not finished
mkdir -p "$tmp/p3"
cp "$tmp/p2/trials.0-of-2.csv.xz" "$tmp/p2"/meta.*.json "$tmp/p2/experiment.txt" "$tmp/p3/"
xz -dc "$tmp/p2/trials.1-of-2.csv.xz" | cut -d, -f1-16,18 | xz -1 >"$tmp/p3/trials.1-of-2.csv.xz"
GRASP_SLICES=2 GRASP_PARTIAL="$tmp/p3" GRASP_COMPARE="$tmp/fin2" "$gs" finish "$tmp/fin3" >"$tmp/out8" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "slice 1/2 has other columns than slice 0" "$tmp/out8" && [ ! -f "$tmp/fin3/tasks.csv" ]; then
  echo "ok - grasp_slices finish refuses slices of other columns (one kept without the fallback)"; else
  echo "not ok - grasp_slices finish on mixed columns exits $rc"; sed 's/^/# /' "$tmp/out8"; fi
