#!/usr/bin/env bash
# test_bench_sphere_two_spheres.sh — smoke run of bin/bench_sphere_two_spheres (Chakraborty et al. Sec. 6.2):
# the geometrically implicit sphere (semismooth Newton, h = 0.01) shows the paper's transitions — contact 2
# slides at about 3.0 s, contact 1 separates at about 3.2 s, contact 2 at about 3.6 s (within 0.15 s) — and
# Stewart-Trinkle with Lemke runs; the NCP with Lemke is not_applicable; the columns are there. The implicit
# run solves every one of its 400 steps (fb_newton with Marquardt-scaled Levenberg-Marquardt; with the
# identity scaling it stalled at |Phi| ~ 1e-5 on 7 steps at the transitions). Every row that ran carries the
# exact DAE's times (two_spheres_exact.h: contact 2's slip speed past -slip_tol 2.9768799758 s, its slip
# starting at 2.9448067577 s, the separations 3.2132058170 / 3.7016004172 s) and each time's error against
# them: the implicit sphere's at h = 0.01 are 0.0069 / 0.0132 / 0.0116 s.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/trace"
"$CB_BIN/bench_sphere_two_spheres" -h 0.01 -formulation geometric_implicit,stewart_trinkle \
  -cp_solver fb_newton,lemke -t_end 4 -out "$tmp/run" -trace "$tmp/trace" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
want="task_id,h,formulation,solver,status,c2_slide_time,c1_sep_time,c2_sep_time,c2_slide_error,c1_sep_error"
want="$want,c2_sep_error,c2_slide_exact,c2_slip_onset_exact,c1_sep_exact,c2_sep_exact,friction_residual"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_sphere_two_spheres: runs, tasks.csv columns"; else
  echo "not ok - bench_sphere_two_spheres: exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
if awk -F, 'NR > 1 && $3 == "geometric_implicit" && $4 == "fb_newton" { n++;
   d1 = $6 - 3.0; d2 = $7 - 3.2; d3 = $8 - 3.6;
   if (d1 > 0.15 || d1 < -0.15 || d2 > 0.15 || d2 < -0.15 || d3 > 0.15 || d3 < -0.15) bad = 1 }
   END { exit !(n == 1 && !bad) }' "$csv"; then
  echo "ok - bench_sphere_two_spheres: implicit sphere's transitions at ~3.0, 3.2, 3.6 s (Sec. 6.2)"; else
  echo "not ok - bench_sphere_two_spheres: implicit sphere's transitions"; sed 's/^/# /' "$csv"; fi
if awk -F, 'function abs(x) { return x < 0 ? -x : x }
   NR > 1 && $5 == "ok" { n++;
   if (abs($12 - 2.9768799758) > 1e-9 || abs($13 - 2.9448067577) > 1e-9 || abs($14 - 3.2132058170) > 1e-9 ||
       abs($15 - 3.7016004172) > 1e-9) bad = 1;
   if (abs($9 - abs($6 - $12)) > 1e-12 || abs($10 - abs($7 - $14)) > 1e-12 || abs($11 - abs($8 - $15)) > 1e-12) bad = 1 }
   NR > 1 && $3 == "geometric_implicit" && $4 == "fb_newton" {
   if (abs($9 - 0.0069) > 2e-4 || abs($10 - 0.0132) > 2e-4 || abs($11 - 0.0116) > 2e-4) bad = 1 }
   END { exit !(n == 3 && !bad) }' "$csv"; then
  echo "ok - bench_sphere_two_spheres: the exact times and the errors against them (implicit, h = 0.01: 0.0069, 0.013, 0.012 s)"; else
  echo "not ok - bench_sphere_two_spheres: exact times or errors"; sed 's/^/# /' "$csv"; fi
steps=$(awk -F, 'NR > 1 && $3 == "converged"' "$tmp"/trace/*task0.csv | wc -l)
if awk -F, 'NR > 1 && $3 == "geometric_implicit" && $4 == "fb_newton" && $5 == "ok" { n++ } END { exit !(n == 1) }' "$csv" \
  && [ "$steps" = 400 ]; then
  echo "ok - bench_sphere_two_spheres: the implicit NCP converged on all 400 steps"; else
  echo "not ok - bench_sphere_two_spheres: implicit NCP: $steps of 400 steps converged"; fi
if awk -F, 'NR > 1 && $3 == "stewart_trinkle" && $4 == "lemke" && $5 == "ok" { n++ } END { exit !(n == 1) }' "$csv"; then
  echo "ok - bench_sphere_two_spheres: Stewart-Trinkle with Lemke solves every step"; else
  echo "not ok - bench_sphere_two_spheres: Stewart-Trinkle row"; fi
n_na=$(awk -F, 'NR > 1 && $5 == "not_applicable"' "$csv" | wc -l)
if [ "$n_na" = 1 ] && ls "$tmp"/trace/*.csv >/dev/null 2>&1 && head -1 "$tmp"/trace/*task0.csv | grep -q c2_slip_speed; then
  echo "ok - bench_sphere_two_spheres: 1 not_applicable combination, per-step trace with the contact columns"; else
  echo "not ok - bench_sphere_two_spheres: $n_na not_applicable (want 1) or no trace"; fi
