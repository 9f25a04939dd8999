#!/usr/bin/env bash
# test_bench_quasirigid_drop.sh — smoke run of bin/bench_quasirigid_drop (Chakraborty et al. Sec. 6.3) at
# h = 1e-3 with the semismooth Newton: both runs (core impact at delta_max = 0.05, none at 1) are ok against the
# analytic answer (first contact at 0.3193 s, core impact at 0.3355 s, within 2 h; deflection within 5 %); the
# columns are there.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_quasirigid_drop" -delta_max 0.05,1 -h 1e-3 -cp_solver fb_newton -t_end 0.6 -out "$tmp/run" \
  -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,delta_max,h,formulation,solver,status,t_contact,t_contact_analytic,t_core,t_core_analytic"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_quasirigid_drop: runs, columns"; else
  echo "not ok - bench_quasirigid_drop: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
n_ok=$(awk -F, 'NR > 1 && $6 == "ok"' "$csv" | wc -l)
if [ "$n_ok" = 2 ]; then echo "ok - bench_quasirigid_drop: both runs match the analytic answer"; else
  echo "not ok - bench_quasirigid_drop: $n_ok of 2 ok"; sed 's/^/# /' "$csv"; fi
if awk -F, 'NR > 1 && $2 == 0.05 { d = $10 - 0.33554179; exit !(d < 2e-3 && d > -2e-3) }' "$csv"; then
  echo "ok - bench_quasirigid_drop: analytic core impact at 0.3355 s (the paper: ~0.34 s)"; else
  echo "not ok - bench_quasirigid_drop: analytic core-impact time"; fi
