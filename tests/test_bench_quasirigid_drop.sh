#!/usr/bin/env bash
# test_bench_quasirigid_drop.sh — smoke run of bin/bench_quasirigid_drop (Chakraborty et al. Sec. 6.3) at
# h = 1e-3 with the semismooth Newton: both runs (core impact at delta_max = 0.05, none at 1) are ok against the
# analytic answer (first contact at 0.3193 s, core impact at 0.3355 s, within 2 h; deflection within 5 %); the
# columns are there; -dim 3 (a sphere on the compliant plane) gives the same rows as the disc.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_quasirigid_drop" -delta_max 0.05,1 -h 1e-3 -cp_solver fb_newton -t_end 0.6 -out "$tmp/run" \
  -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,dim,delta_max,h,formulation,solver,status,t_contact,t_contact_analytic,t_core,t_core_analytic"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_quasirigid_drop: runs, columns"; else
  echo "not ok - bench_quasirigid_drop: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
n_ok=$(awk -F, 'NR > 1 && $7 == "ok"' "$csv" | wc -l)
if [ "$n_ok" = 2 ]; then echo "ok - bench_quasirigid_drop: both runs match the analytic answer"; else
  echo "not ok - bench_quasirigid_drop: $n_ok of 2 ok"; sed 's/^/# /' "$csv"; fi
if awk -F, 'NR > 1 && $3 == 0.05 { d = $11 - 0.33554179; exit !(d < 2e-3 && d > -2e-3) }' "$csv"; then
  echo "ok - bench_quasirigid_drop: analytic core impact at 0.3355 s (the paper: ~0.34 s)"; else
  echo "not ok - bench_quasirigid_drop: analytic core-impact time"; fi
# the 3D form (quasi_rigid3d.c): a unit sphere on the compliant plane gives the disc's rows, value for value
"$CB_BIN/bench_quasirigid_drop" -dim 2,3 -delta_max 0.05 -h 1e-3 -cp_solver fb_newton -t_end 0.6 -out "$tmp/r3" \
  -quiet -no_plots >"$tmp/out" 2>&1
same=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) skip[i] = $i ~ /_seconds$|^(task_id|dim|rank|host)$/; next }
  { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s $i ","; row[NR] = s }
  END { print (row[2] == row[3] && row[2] != "") ? "yes" : "no" }' "$tmp/r3/tasks.csv")
if [ "$same" = yes ] && [ "$(awk -F, 'NR > 1 && $7 == "ok"' "$tmp/r3/tasks.csv" | wc -l)" = 2 ]; then
  echo "ok - bench_quasirigid_drop -dim 3: the sphere's row equals the disc's (timings aside), both ok"; else
  echo "not ok - bench_quasirigid_drop -dim 3"; sed 's/^/# /' "$tmp/r3/tasks.csv"; fi
