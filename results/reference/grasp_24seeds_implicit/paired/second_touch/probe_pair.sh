#!/usr/bin/env bash
# probe_pair.sh ID ... — run each task id of the seven medium rows (paired/'s runs) in the registered step
# (REGISTERED: a built tree with registered_probe.patch) and in the former own step (OWN: 2c01561 with
# ../own_step_options.patch and own_step_probe.patch), and print per id: mu_grip and both outcomes, then for
# each step the second touch (second_touch.awk). Each trial runs on one process, Haswell kernels.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${REGISTERED:?set REGISTERED to the probed registered tree}" "${OWN:?set OWN to the probed own-step tree}"
args=(-options_file bench/experiments/grasp.opts -formulation geometric_implicit -cp_solver fb_newton -seeds 24
  -friction medium -y -11.5,-10.5,-9.5,-8.5,-7.5,-6.5,-5.5 -no_plots -quiet)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_CORETYPE=Haswell
column() { awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[want] }' "$1"; }
for id in "$@"; do
  for step in registered own; do
    tree=$REGISTERED
    [ $step = own ] && tree=$OWN
    rm -rf "$tmp/$step"
    (cd "$tree" && GRASP_PROBE=1 bin/bench_grasp "${args[@]}" -tasks "$id:$((id + 1))" -out "$tmp/$step" \
      >"$tmp/$step.log" 2>/dev/null) || { echo "$id: the $step run failed" >&2; exit 1; }
  done
  echo "$id mu $(column "$tmp/registered/tasks.csv" mu_grip) registered $(column "$tmp/registered/tasks.csv" outcome)" \
    "own $(column "$tmp/own/tasks.csv" outcome)"
  echo "  registered: $(awk -f "$here/second_touch.awk" "$tmp/registered.log")"
  echo "  own: $(awk -f "$here/second_touch.awk" "$tmp/own.log")"
done
