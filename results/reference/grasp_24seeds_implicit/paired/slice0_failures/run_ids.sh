#!/usr/bin/env bash
# run_ids.sh IDS OUT — from any directory: each grasp trial id of IDS (one per line) of the full grid
# (bench/experiments/grasp.opts) under the registered geometric_implicit with fb_newton, one process, Haswell
# kernels, each trial its own run OUT/t<ID>; then OUT/tasks.csv holds them all (by id). TREE: the built
# checkout to run (default /work/wt_probe, the tree with probe_fallback.patch and probe_stall_retry.patch);
# EXTRA: more options (e.g. "-fb_newton_lm 0"); the patches' switches are environment variables:
# CB_FALLBACK=SOLVER (deepest half step), CB_FALLBACK2=SOLVER (the whole step again), CB_STALLRETRY=1.
set -u
ids=$1 out=$2
export OPENBLAS_CORETYPE=Haswell OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "${TREE:-/work/wt_probe}" || exit 2
while read -r id; do
  [ -f "$out/t$id/tasks.csv" ] && continue
  # shellcheck disable=SC2086 # EXTRA is words
  bin/bench_grasp -options_file bench/experiments/grasp.opts -formulation geometric_implicit -cp_solver fb_newton \
    ${EXTRA:-} -tasks "$id:$((id + 1))" -no_plots -quiet -out "$out/t$id" >"$out/t$id.log" 2>&1
done <"$ids"
first=$(head -1 "$ids")
{ head -1 "$out/t$first/tasks.csv"; while read -r id; do tail -n +2 "$out/t$id/tasks.csv"; done <"$ids" | sort -t, -k1,1n; } >"$out/tasks.csv"
