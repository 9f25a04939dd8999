#!/usr/bin/env bash
# run_subset.sh SOLVER IDS OUT — from the repository's root: the registered geometric_implicit with -cp_solver
# SOLVER on the task ids listed in IDS (one per line) of the seven medium rows (paired/'s runs), one process,
# Haswell kernels, each trial its own run OUT/t<ID>; then OUT/tasks.csv holds them all (by id), for
# bin/bench_grasp_pair OUT paired/own_step (the other run's trials outside the list are "only there").
set -u
[ $# = 3 ] || { echo "usage: run_subset.sh SOLVER IDS OUT" >&2; exit 2; }
solver=$1 ids=$2 out=$3
export OPENBLAS_CORETYPE=Haswell
mkdir -p "$out" || exit 2
while read -r id; do
  [ -f "$out/t$id/tasks.csv" ] && continue # resumable
  bin/bench_grasp -options_file bench/experiments/grasp.opts -formulation geometric_implicit -cp_solver "$solver" \
    -seeds 24 -friction medium -y -11.5,-10.5,-9.5,-8.5,-7.5,-6.5,-5.5 -tasks "$id:$((id + 1))" -no_plots -quiet \
    -out "$out/t$id" >"$out/t$id.log" 2>&1 || { echo "task $id: bench_grasp failed ($out/t$id.log)" >&2; exit 1; }
done <"$ids"
first=$(head -1 "$ids")
{ head -1 "$out/t$first/tasks.csv"
  while read -r id; do tail -n +2 "$out/t$id/tasks.csv"; done <"$ids" | sort -t, -k1,1n; } >"$out/tasks.csv"
