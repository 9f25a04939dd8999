#!/usr/bin/env bash
# test_bench_grasp.sh — smoke run of bin/bench_grasp (the lock piece grasp study, Chakraborty et al.
# Sec. 6.4): with medium friction the sweet spot (0.5, -11.5) mm succeeds (there the contact normal is
# 33.6 degrees under horizontal, so a gripper friction under tan 33.6 = 0.665 lets the part slide up onto
# the outer teeth) and the diameter (0.5, -0.5) mm does not; one row per
# trial with its outcome; the same rows (timing columns aside) on 2 ranks as on 1 rank in-process; a bad
# friction range exits 2; bench_grasp_map writes the per-cell intervals and the sweet spot.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args="-x 0.5 -y -11.5,-0.5 -friction medium,high -seeds 3 -quiet -no_plots"
"$CB_BIN/bench_grasp" $args -out "$tmp/a" -task_fork 0 >"$tmp/out" 2>&1
rc=$?
csv="$tmp/a/tasks.csv"
rows=$(awk 'NR > 1' "$csv" 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && [ "$rows" = 12 ]; then echo "ok - bench_grasp: 12 trials, one row each"; else
  echo "not ok - bench_grasp: exit $rc, $rows rows"; sed 's/^/# /' "$tmp/out"; fi
col() { head -1 "$csv" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
cy=$(col y) cs=$(col status) co=$(col outcome) cf=$(col friction)
if awk -F, -v y="$cy" -v s="$cs" -v f="$cf" 'NR > 1 && $y == -11.5 && $f == "medium" && $s != "ok" { bad = 1 }
   END { exit bad }' "$csv"; then
  echo "ok - bench_grasp: the sweet spot holds by the outer teeth in every medium-friction trial"; else
  echo "not ok - bench_grasp: sweet spot rows"; cut -d, -f1-12 "$csv" | sed 's/^/# /'; fi
if awk -F, -v y="$cy" -v o="$co" 'NR > 1 && $y == -0.5 && $o != "diametric" { bad = 1 } END { exit bad }' "$csv"; then
  echo "ok - bench_grasp: squeezed across the diameter at y = -0.5 mm"; else
  echo "not ok - bench_grasp: diameter rows"; fi
mpirun -n 2 "$CB_BIN/bench_grasp" $args -out "$tmp/b" >"$tmp/out2" 2>&1
strip() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = $i !~ /_seconds$|^rank$|^host$/ }
  { line = ""; for (i = 1; i <= NF; i++) if (keep[i]) line = line $i ","; print line }' "$1"; }
if cmp -s <(strip "$csv") <(strip "$tmp/b/tasks.csv"); then
  echo "ok - bench_grasp: 2 ranks forked give the rows of 1 rank in-process"; else
  echo "not ok - bench_grasp: rows differ between 1 and 2 ranks"; sed 's/^/# /' "$tmp/out2"; fi
"$CB_BIN/bench_grasp" -friction low -out "$tmp/bad" -quiet >/dev/null 2>&1
rc=$?
if [ "$rc" = 2 ]; then echo "ok - bench_grasp: unknown friction range exits 2"; else
  echo "not ok - bench_grasp: unknown friction range exits $rc (want 2)"; fi
