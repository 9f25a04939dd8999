#!/usr/bin/env bash
# test_bench_nonconvex_corner.sh — smoke run of bin/bench_nonconvex_corner on the sweep
# engine: both Fig. 3 cases with the two nonconvex forms assemble exactly the printed LCPs
# (matches_paper = 1); milp solves all four and returns a printed solution (z_a, or one of z_b1..z_b3 of the
# max form), ending in the free space; the columns are there. Fig. 9: enum's every solution's end (the max
# form's three dots; the summation form's vertex solutions at its segments' far ends).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_nonconvex_corner" -case a,b -formulation nonconvex_max,nonconvex_sum -cp_solver milp,lemke \
  -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,case,formulation,solver,status,matches_paper,end_valid,residual,lcp_n,solution,p1n,p2n,nu_x,nu_y,q_x,q_y"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_nonconvex_corner: runs, tasks.csv columns"; else
  echo "not ok - bench_nonconvex_corner: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
n=$(awk -F, 'NR > 1 && $6 == 1' "$csv" 2>/dev/null | wc -l)
if [ "$n" = 8 ]; then echo "ok - bench_nonconvex_corner: all 8 assembled LCPs are the printed ones"; else
  echo "not ok - bench_nonconvex_corner: $n of 8 match the paper"; fi
n=$(awk -F, 'NR > 1 && $4 == "milp" && $5 == "converged" && $7 == 1 && ($10 == "z_a" || ($3 == "nonconvex_max" && $10 ~ /^z_b[123]$/) || ($3 == "nonconvex_sum" && $2 == "b"))' "$csv" 2>/dev/null | wc -l)
if [ "$n" = 4 ]; then echo "ok - bench_nonconvex_corner: milp solves the four, printed solutions, valid ends"; else
  echo "not ok - bench_nonconvex_corner: milp rows"; sed 's/^/# /' "$csv"; fi
# Fig. 9: enum's every solution, recovered to its end: the max form's three dots, the summation form's
# segment ends, each one of the figure's possible ends
"$CB_BIN/bench_nonconvex_corner" -case b -formulation nonconvex_max,nonconvex_sum -cp_solver enum \
  -out "$tmp/enum" -quiet -no_plots >"$tmp/out" 2>&1
csv="$tmp/enum/tasks.csv"
max=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $3 == "nonconvex_max" { print $c["end_points"] "|" $c["ends_on_fig9"] }' "$csv")
sum=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $3 == "nonconvex_sum" { print $c["end_points"] "|" $c["ends_on_fig9"] }' "$csv")
if [ "$max" = "(0 -1) (-3 0) (0 0)|1" ]; then echo "ok - bench_nonconvex_corner: Fig. 9(a), max: enum's ends are the three dots"; else
  echo "not ok - bench_nonconvex_corner: Fig. 9(a) max ends: $max"; fi
if [ "$sum" = "(0 -1) (-3 0)|1" ]; then echo "ok - bench_nonconvex_corner: Fig. 9(b), sum: enum's vertex solutions end at the segments' far ends"; else
  echo "not ok - bench_nonconvex_corner: Fig. 9(b) sum ends: $sum"; fi
