#!/usr/bin/env bash
# test_bench_incline.sh — smoke run of bin/bench_incline on the sweep engine: one sticking and one
# sliding angle in 2D and 3D with Lemke report status ok (drift < 1e-9, acceleration within 1e-6); the
# columns the issue names are there; an unknown formulation exits 2.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_incline" -theta 10,30 -mu 0.3 -h 1e-3 -formulation stewart_trinkle -cp_solver lemke -dim 2,3 \
  -out "$tmp/run" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
n_ok=$(awk -F, 'NR > 1 && $8 == "ok"' "$csv" 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && [ "$n_ok" = 4 ]; then echo "ok - bench_incline: 4 runs ok (stick and slide, 2D and 3D)"; else
  echo "not ok - bench_incline: exit $rc, $n_ok of 4 ok"; sed 's/^/# /' "$tmp/out" "$csv"; fi
want="task_id,dim,theta,mu,h,formulation,solver,status,measured,analytic,stick_drift,rel_error,step_seconds,failed_at"
if head -1 "$csv" | grep -q "^$want,"; then echo "ok - bench_incline: tasks.csv columns"; else
  echo "not ok - bench_incline: header $(head -1 "$csv")"; fi
# the sliding rows: measured acceleration g (sin 30 - 0.3 cos 30) = 2.35629 within 1e-6 relative
if awk -F, 'NR > 1 && $3 == 30 { n++; if (($9 - 2.3562872366623964) / 2.3562872366623964 > 1e-6 || \
   ($9 - 2.3562872366623964) / 2.3562872366623964 < -1e-6) bad = 1 } END { exit !(n == 2 && !bad) }' "$csv"; then
  echo "ok - bench_incline: sliding acceleration matches Coulomb"; else echo "not ok - bench_incline: sliding rows"; fi
# one meaning per column: the sticking rows (theta 10) fill stick_drift (under 1e-9) and leave rel_error empty,
# the sliding rows (theta 30) the other way round
if awk -F, 'NR > 1 && $3 == 10 { n++; if ($11 == "" || $11 > 1e-9 || $12 != "") bad = 1 }
   NR > 1 && $3 == 30 { m++; if ($11 != "" || $12 == "" || $12 > 1e-6) bad = 1 } END { exit !(n == 2 && m == 2 && !bad) }' "$csv"; then
  echo "ok - bench_incline: stick_drift for sticking rows, rel_error for sliding ones"; else
  echo "not ok - bench_incline: stick_drift / rel_error cells"; fi
"$CB_BIN/bench_incline" -formulation no_such_thing -out "$tmp/bad" >/dev/null 2>&1
rc=$?
if [ "$rc" = 2 ]; then echo "ok - bench_incline: unknown formulation exits 2"; else
  echo "not ok - bench_incline: unknown formulation exits $rc (want 2)"; fi
