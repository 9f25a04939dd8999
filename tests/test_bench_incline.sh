#!/usr/bin/env bash
# test_bench_incline.sh — smoke run of bin/bench_incline (issue 3): one sticking and one sliding angle in
# 2D and 3D with Lemke must report status ok; an unknown formulation must fail with exit code 2.
set -u
out=$("$CB_BIN/bench_incline" -theta 10,30 -mu 0.3 -h 1e-3 -formulation stewart_trinkle -cp_solver lemke -dim 2,3 2>&1)
rc=$?
n_ok=$(printf '%s\n' "$out" | awk '$7 == "ok"' | wc -l)
if [ "$rc" = 0 ] && [ "$n_ok" = 4 ]; then echo "ok - bench_incline: 4 runs ok (stick and slide, 2D and 3D)"; else
  echo "not ok - bench_incline: exit $rc, $n_ok of 4 ok"; printf '%s\n' "$out" | sed 's/^/# /'; fi
"$CB_BIN/bench_incline" -formulation no_such_thing >/dev/null 2>&1
rc=$?
if [ "$rc" = 2 ]; then echo "ok - bench_incline: unknown formulation exits 2"; else
  echo "not ok - bench_incline: unknown formulation exits $rc (want 2)"; fi
