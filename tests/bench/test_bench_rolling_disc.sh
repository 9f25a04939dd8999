#!/usr/bin/env bash
# test_bench_rolling_disc.sh — smoke run of bin/bench_rolling_disc (Chakraborty et al. Sec. 6.1): the
# implicit disc (geometric_implicit, semismooth Newton) keeps its kinetic energy (status ok: relative loss
# <= 1e-6) and does not slip; the 10-gon (stewart_trinkle, Lemke) loses more than the 100-gon; the NCP with
# Lemke is not_applicable; the implicit N-gons run without penetrating; the columns are there.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_rolling_disc" -N 0,10,100 -h 0.01 -formulation geometric_implicit,stewart_trinkle \
  -cp_solver fb_newton,lemke -t_end 1 -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,shape,N,h,formulation,solver,status,ke_loss,ke_loss_rel,slip_max,step_seconds,solve_seconds"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_rolling_disc: runs, tasks.csv columns"; else
  echo "not ok - bench_rolling_disc: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
if awk -F, 'NR > 1 && $3 == 0 && $5 == "geometric_implicit" && $6 == "fb_newton" { n++;
   if ($7 != "ok" || $9 > 1e-6 || $9 < -1e-6 || $10 > 1e-8) bad = 1 } END { exit !(n == 1 && !bad) }' "$csv"; then
  echo "ok - bench_rolling_disc: implicit disc keeps its energy and rolls without slip"; else
  echo "not ok - bench_rolling_disc: implicit disc row"; sed 's/^/# /' "$csv"; fi
if awk -F, 'NR > 1 && $5 == "stewart_trinkle" && $6 == "lemke" && $3 > 0 { l[$3] = $8 }
   END { exit !(l[10] > l[100] && l[100] > 0) }' "$csv"; then
  echo "ok - bench_rolling_disc: the 10-gon loses more energy than the 100-gon (Fig. 1a)"; else
  echo "not ok - bench_rolling_disc: N-gon losses"; fi
n_na=$(awk -F, 'NR > 1 && $7 == "not_applicable"' "$csv" | wc -l)
if [ "$n_na" = 3 ]; then echo "ok - bench_rolling_disc: 3 not_applicable combinations (the NCP with Lemke)"; else
  echo "not ok - bench_rolling_disc: $n_na not_applicable (want 3)"; fi
# the implicit N-gons (Sec. 4.3: polygons as intersections of half-planes) run; the 100-gon solves every step
# without penetrating (the 10-gon fails one step at 0.61 s: a known limit, so only its presence is checked)
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "phys_penetration_max") c = i; next }
   $3 > 0 && $5 == "geometric_implicit" && $6 == "fb_newton" { n++; if ($7 == "not_applicable") bad = 1
     if ($3 == 100 && ($7 != "ok" || $c == "" || $c > 1e-6)) bad = 1 }
   END { exit !(n == 2 && !bad) }' "$csv"; then
  echo "ok - bench_rolling_disc: implicit N-gons (Sec. 4.3) run, the 100-gon without penetrating"; else
  echo "not ok - bench_rolling_disc: implicit N-gon rows"; sed 's/^/# /' "$csv"; fi
# -shape ellipse: the implicit ellipse (Sec. 4.1's single convex function) rolls without slip and loses at
# most 5 h t_end of KE(0) (status ok; backward Euler damping); its 10-gon loses far more (Stewart-Trinkle)
"$CB_BIN/bench_rolling_disc" -shape ellipse -N 0,10 -h 0.01 -formulation geometric_implicit,stewart_trinkle \
  -cp_solver fb_newton,lemke -t_end 1 -out "$tmp/ell" -quiet -no_plots >"$tmp/out2" 2>&1
csv="$tmp/ell/tasks.csv"
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "energy_loss_rel") c = i; next }
   $2 == "ellipse" && $3 == 0 && $5 == "geometric_implicit" && $6 == "fb_newton" { n++; e = $c
     if ($7 != "ok" || $10 > 1e-5 || $c > 0.05 || $c < 0) bad = 1 }
   $2 == "ellipse" && $3 == 10 && $5 == "stewart_trinkle" && $6 == "lemke" { g = $c }
   END { exit !(n == 1 && !bad && g > 5 * e) }' "$csv"; then
  echo "ok - bench_rolling_disc -shape ellipse: implicit ellipse ok (no slip, O(h) energy loss), 10-gon loses more"; else
  echo "not ok - bench_rolling_disc -shape ellipse rows"; sed 's/^/# /' "$csv" "$tmp/out2"; fi
