#!/usr/bin/env bash
# test_bench_triangle_drop.sh — smoke run of bin/bench_triangle_drop (the PEG authors' triangle drop, an
# experiment of their repository, not of the paper's text) on the sweep engine,
# with a coarse reference (PEG at h = 1e-3) to stay fast: peg and corrective complete at h = 0.008 and
# 0.016; peg stays within 0.2 m of the reference and its overlap is orders of magnitude below corrective's;
# the issue's columns are there; an h that is no multiple of -ref_h is not_applicable; an unknown
# formulation exits 2.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_triangle_drop" -h 0.008,0.016,0.0125 -formulation peg,corrective -cp_solver lemke -ref_h 1e-3 \
  -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,h,formulation,solver,stewart_trinkle_detection,status,final_x,final_y,final_rot,err_mean,err_final"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_triangle_drop: runs, tasks.csv columns"; else
  echo "not ok - bench_triangle_drop: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
st=$(csv_col "$csv" status) ef=$(csv_col "$csv" err_final) ov=$(csv_col "$csv" max_overlap)
n_ok=$(awk -F, -v s="$st" 'NR > 1 && $s == "ok"' "$csv" | wc -l)
n_na=$(awk -F, -v s="$st" 'NR > 1 && $2 == 0.0125 && $s == "not_applicable"' "$csv" | wc -l)
if [ "$n_ok" = 4 ] && [ "$n_na" = 2 ]; then echo "ok - bench_triangle_drop: 4 runs ok, h = 0.0125 not_applicable"; else
  echo "not ok - bench_triangle_drop: $n_ok ok (want 4), $n_na not_applicable (want 2)"; sed 's/^/# /' "$csv"; fi
if awk -F, -v e="$ef" -v o="$ov" 'NR > 1 && $2 != 0.0125 { if ($3 == "peg") { if ($e > 0.2 || $o > 1e-9) bad = 1; p[$2] = $o }
   else c[$2] = $o } END { for (h in p) if (!(p[h] * 1e5 < c[h])) bad = 1; exit bad }' "$csv"; then
  echo "ok - bench_triangle_drop: peg near the reference, overlap far below corrective's"; else
  echo "not ok - bench_triangle_drop: peg error or overlap"; sed 's/^/# /' "$csv"; fi
# The standard model as the authors' code detects it (-stewart_trinkle_detection paper) jams the falling triangle at
# the static one's corner (a trap of their repository's run, not described in the paper): its origin stays near
# (1.2247, 2.1213) to the end; closest-feature detection and PEG let it fall past.
"$CB_BIN/bench_triangle_drop" -h 0.008 -formulation stewart_trinkle,peg -stewart_trinkle_detection closest,paper -cp_solver lemke \
  -ref_h 1e-3 -out "$tmp/paper" -quiet -no_plots >"$tmp/out2" 2>&1
csv2="$tmp/paper/tasks.csv"
c2() { head -1 "$csv2" | tr ',' '\n' | grep -n "^$1\$" | cut -d: -f1; }
fy=$(c2 final_y) st2=$(c2 status)
if awk -F, -v y="$fy" -v s="$st2" 'NR > 1 { k = $3 "/" $5; st[k] = $s; fy[k] = $y }
   END { bad = !(st["stewart_trinkle/paper"] == "ok" && fy["stewart_trinkle/paper"] > 2.0);
         bad = bad || !(fy["stewart_trinkle/closest"] < 0 && fy["peg/closest"] < 0 && st["peg/paper"] == "not_applicable");
         exit bad }' "$csv2"; then
  echo "ok - bench_triangle_drop: the paper's standard model jams at the corner, closest and PEG fall past"; else
  echo "not ok - bench_triangle_drop: -stewart_trinkle_detection paper"; sed 's/^/# /' "$csv2" "$tmp/out2"; fi
"$CB_BIN/bench_triangle_drop" -formulation no_such_thing -out "$tmp/bad" >/dev/null 2>&1
rc=$?
if [ "$rc" = 2 ]; then echo "ok - bench_triangle_drop: unknown formulation exits 2"; else
  echo "not ok - bench_triangle_drop: unknown formulation exits $rc (want 2)"; fi
# Stewart-Trinkle at h = 0.003 with Lemke: step 408 is an LCP with two nearly parallel contact columns on which
# the blocked tableau drifted to a wrong basis (residual 1.3e-4); with the drift check the run completes.
"$CB_BIN/bench_triangle_drop" -h 0.003 -formulation stewart_trinkle -cp_solver lemke -ref_h 1e-3 \
  -out "$tmp/st" -quiet -no_plots >"$tmp/st.out" 2>&1
csv="$tmp/st/tasks.csv"
st=$(csv_col "$csv" status)
if [ "$(awk -F, -v s="$st" 'NR == 2 { print $s }' "$csv" 2>/dev/null)" = ok ]; then
  echo "ok - bench_triangle_drop: stewart_trinkle h = 0.003 with lemke runs to the end"; else
  echo "not ok - bench_triangle_drop: stewart_trinkle h = 0.003 with lemke"; sed 's/^/# /' "$csv" "$tmp/st.out"; fi
