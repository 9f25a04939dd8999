#!/usr/bin/env bash
# test_bench_quasirigid_drop.sh — smoke run of bin/bench_quasirigid_drop (Chakraborty et al. Sec. 6.3) at
# h = 1e-3 with the semismooth Newton: both runs (core impact at delta_max = 0.05, none at 1) are ok against the
# analytic answer (first contact at 0.3193 s, core impact at 0.3355 s, within 2 h; deflection within 5 %); the
# columns are there; -dim 3 (a sphere on the compliant plane) gives the same rows as the disc; the per-step
# trace (-trace DIR) of the core-impact run at h = 1e-4 against backward Euler's closed-form free fall and the
# analytic answer, and its plots (Figs. 7-8).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_quasirigid_drop" -quasi_rigid_delta_max 0.05,1 -h 1e-3 -cp_solver fb_newton -t_end 0.6 -out "$tmp/run" \
  -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,dim,quasi_rigid_delta_max,h,formulation,solver,status,t_contact,t_contact_analytic,t_core,t_core_analytic"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_quasirigid_drop: runs, columns"; else
  echo "not ok - bench_quasirigid_drop: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
n_ok=$(awk -F, 'NR > 1 && $7 == "ok"' "$csv" | wc -l)
if [ "$n_ok" = 2 ]; then echo "ok - bench_quasirigid_drop: both runs match the analytic answer"; else
  echo "not ok - bench_quasirigid_drop: $n_ok of 2 ok"; sed 's/^/# /' "$csv"; fi
if awk -F, 'NR > 1 && $3 == 0.05 { d = $11 - 0.33554179; exit !(d < 2e-3 && d > -2e-3) }' "$csv"; then
  echo "ok - bench_quasirigid_drop: analytic core impact at 0.3355 s (the paper: ~0.34 s)"; else
  echo "not ok - bench_quasirigid_drop: analytic core-impact time"; fi
# the 3D form (quasi_rigid.c's qr_rows3): a unit sphere on the compliant plane gives the disc's rows,
# value for value
"$CB_BIN/bench_quasirigid_drop" -dim 2,3 -quasi_rigid_delta_max 0.05 -h 1e-3 -cp_solver fb_newton -t_end 0.6 -out "$tmp/r3" \
  -quiet -no_plots >"$tmp/out" 2>&1
same=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) skip[i] = $i ~ /_seconds$|^(task_id|dim|rank|host)$/; next }
  { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s $i ","; row[NR] = s }
  END { print (row[2] == row[3] && row[2] != "") ? "yes" : "no" }' "$tmp/r3/tasks.csv")
if [ "$same" = yes ] && [ "$(awk -F, 'NR > 1 && $7 == "ok"' "$tmp/r3/tasks.csv" | wc -l)" = 2 ]; then
  echo "ok - bench_quasirigid_drop -dim 3: the sphere's row equals the disc's (timings aside), both ok"; else
  echo "not ok - bench_quasirigid_drop -dim 3"; sed 's/^/# /' "$tmp/r3/tasks.csv"; fi
# The per-step trace (-trace DIR) of the core-impact run at the paper's h = 1e-4 to t = 0.4 s, and its plots
# (Figs. 7-8). Backward Euler on the positions (q^(l+1) = q^l + h nu^(l+1)) makes the free fall exact in
# closed form: y_n = 1.5 - g t (t + h) / 2 and E_n = E_0 - m g^2 h t / 2 (it loses energy at first order in
# h, so the paper's "within 1e-5 J at h = 1e-4" is not what this scheme does: 1.5e-3 J by first contact).
"$CB_BIN/bench_quasirigid_drop" -quasi_rigid_delta_max 0.05 -h 1e-4 -cp_solver fb_newton -t_end 0.4 -out "$tmp/rt" \
  -trace "$tmp/tr" -quiet >"$tmp/out" 2>&1
rc=$?
tr="$tmp/tr/quasirigid_drop_task0.csv"
want="step,t,status,contacts,rows,iterations,fp_iterations,residual,solve_seconds,step_seconds,energy,\
max_penetration,height,velocity,deflection,p_ns,p_nr,kinetic_energy,gravity_energy,spring_energy,\
total_energy,height_analytic,velocity_analytic,deflection_analytic,total_energy_analytic,phys_penetration,\
phys_signorini,phys_coulomb,phys_dissipation,phys_energy_gain"
if [ "$rc" = 0 ] && [ "$(head -1 "$tr" 2>/dev/null)" = "$want" ] && [ "$(wc -l <"$tr")" = 4001 ]; then
  echo "ok - bench_quasirigid_drop -trace: one row per step, the columns named"; else
  echo "not ok - bench_quasirigid_drop -trace: exit $rc, header $(head -1 "$tr" 2>/dev/null)"
  sed 's/^/# /' "$tmp/out"; fi
# columns by name, then one awk program per property: it prints what it found and exits 1 when it fails
# (check_trace NAME BODY END: BODY runs on every row with the columns as c[NAME], END prints and exits)
cols='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
g=9.81 h=1e-4
check_trace() {
  local out
  if out=$(awk -F, -v g=$g -v h=$h "$cols $2 END { $3 }" "$tr"); then echo "ok - $1 ($out)"; else
    echo "not ok - $1 ($out)"; fi
}
check_trace "trace: free fall exactly backward Euler's, |y - (1.5 - g t (t + h) / 2)| and |E - (E_0 - m g^2 h t / 2)| <= 1e-9" \
  '{ t = $c["t"]; if ($c["deflection"] > 0) contact = 1; if (contact) next
     dy = $c["height"] - (1.5 - g * t * (t + h) / 2); de = $c["total_energy"] - (1.5 * g - g * g * h * t / 2)
     if (dy < 0) dy = -dy; if (de < 0) de = -de; if (dy > my) my = dy; if (de > me) me = de; n++ }' \
  'printf "%d steps, %.2g m, %.2g J", n, my, me; exit !(n > 3000 && my <= 1e-9 && me <= 1e-9)'
check_trace "trace: first contact in the step after the analytic 0.319275 s, the core reached within 2 h of 0.335542 s" \
  '{ t = $c["t"]; if (!tc && $c["deflection"] > 0) tc = t; if (!tk && $c["deflection"] >= 0.05 - 1e-9) tk = t }' \
  'printf "%.6g s, %.6g s", tc, tk; exit !(tc >= 0.319275 && tc <= 0.319275 + h + 1e-9 && tk - 0.335542 <= 2 * h && 0.335542 - tk <= 2 * h)'
check_trace "trace: height within 3e-4 m of the analytic one at every step (backward Euler's lag: g t h / 2 in flight)" \
  '{ d = $c["height"] - $c["height_analytic"]; if (d < 0) d = -d; if (d > m) { m = d; at = $c["t"] } }
   $c["t"] > 0.0999 && $c["t"] < 0.1001 { d1 = $c["height"] - $c["height_analytic"] }' \
  'printf "largest %.3g m at %.4g s; at 0.1 s %.4g m, g t h / 2 = %.4g m", m, at, d1, g * 0.1 * h / 2
   exit !(m <= 3e-4 && d1 + g * 0.1 * h / 2 < 1e-9 && d1 + g * 0.1 * h / 2 > -1e-9)'
check_trace "trace: p_nr only at the core impact (<= 1e-9 elsewhere), its sum m v_i = 2.8794 N s within 1 %" \
  '{ p = $c["p_nr"]; if (p > 1e-9) { n++; s += p } else if (p < -1e-9) bad++ }' \
  'printf "%d steps, %.5g N s, %d negative", n, s, bad; d = s - 2.8794; exit !(n >= 1 && n <= 2 && !bad && d < 0.029 && d > -0.029)'
check_trace "trace: energy never rises; lost at the core impact m v_i^2 / 2 = 4.1455 J within 0.5 %; after it within 1e-2 J of E just after" \
  '{ e = $c["total_energy"]; if (NR > 2 && e - prev > 1e-9) up++
     if ($c["p_nr"] > 1e-9) { if (!before) before = prev; after = e; done = 0 } else if (after) { d = after - e; if (d > drift) drift = d }
     prev = e }' \
  'lost = before - after; printf "%d rises, lost %.5g J, drift after %.3g J", up, lost, drift
   exit !(!up && lost > 4.1455 * 0.995 && lost < 4.1455 * 1.005 && drift <= 1e-2)'
check_trace "trace: the analytic total energy drops by m v_i^2 / 2 = 4.1455 J at the analytic impact, nowhere else" \
  '{ e = $c["total_energy_analytic"]; if (NR > 2 && e != prev) { n++; d = prev - e; at = $c["t"] } prev = e }' \
  'printf "%d drops, %.6g J at %.5g s", n, d, at; exit !(n == 1 && d > 4.1454 && d < 4.1456 && at >= 0.335542 && at < 0.335542 + h + 1e-9)'
if command -v gnuplot >/dev/null 2>&1; then
  n_png=0
  for p in position velocity impulses energy; do
    f="$tmp/tr/quasirigid_drop_task0_$p.png"
    [ -s "$f" ] && [ "$(wc -c <"$f")" -gt 10000 ] && [ -s "$tmp/tr/quasirigid_drop_task0_$p.gp" ] && n_png=$((n_png + 1))
  done
  if [ "$n_png" = 4 ] && grep -q "Figs. 7e and 8a" "$tmp/tr/quasirigid_drop_task0_energy.gp"; then
    echo "ok - bench_quasirigid_drop -trace: the 4 plots of Figs. 7-8 (position, velocity, impulses, energy)"; else
    echo "not ok - bench_quasirigid_drop -trace: $n_png of 4 plots"; ls -l "$tmp/tr" | sed 's/^/# /'; fi
  # -no_plots: the trace but no plot
  "$CB_BIN/bench_quasirigid_drop" -quasi_rigid_delta_max 1 -h 1e-3 -cp_solver fb_newton -t_end 0.1 -out "$tmp/rn" \
    -trace "$tmp/tn" -quiet -no_plots >"$tmp/out" 2>&1
  if [ -s "$tmp/tn/quasirigid_drop_task0.csv" ] && ! ls "$tmp/tn"/*.png >/dev/null 2>&1; then
    echo "ok - bench_quasirigid_drop -trace -no_plots: the trace, no plots"; else
    echo "not ok - bench_quasirigid_drop -trace -no_plots"; ls -l "$tmp/tn" | sed 's/^/# /'; fi
else
  echo "skip - bench_quasirigid_drop -trace plots: gnuplot is not installed"
fi
