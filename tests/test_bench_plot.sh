#!/usr/bin/env bash
# test_bench_plot.sh — bin/bench_plot and the plots at the end of a sweep: PNG and SVG files that exist,
# are non-empty and are what they claim (PNG signature, <svg>); the scripts re-run by hand in plots/;
# a solver benchmark (a "problem" axis, "solver" series) gets performance profiles with the expected
# fractions; a metric with no successful value gets no plot but the rest are made; without gnuplot,
# bench_plot says so, exits nonzero and keeps the scripts, data and tables; bad run directories exit 2.
set -u
bin=${CB_BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
images_ok() { # images_ok DIR NAME: NAME.png is a PNG and NAME.svg an SVG, both non-empty
  [ -s "$1/$2.png" ] && [ -s "$1/$2.svg" ] && [ "$(head -c 4 "$1/$2.png" | tail -c 3)" = PNG ] &&
    grep -q '<svg' "$1/$2.svg"
}

# 1. a sweep at the end of which the engine plots (bench_synthetic: x = work, series = kind)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$bin/bench_synthetic" -out "$tmp/syn" -kind ok,fail -work 0.001,0.003 -seeds 3 -quiet 2>"$tmp/syn.err"
check "the sweep exits 0" '[ $? = 0 ]'
p=$tmp/syn/plots
for n in accuracy_draw_mean cost_busy_seconds cost_task_seconds success_rate; do
  check "sweep made $n.png and $n.svg" "images_ok $p $n"
done
check "scripts and data are kept next to the images" '[ -s $p/accuracy_draw_mean.gp ] && [ -s $p/accuracy_draw_mean.dat ]'
check "x label carries the axis unit from experiment.txt" 'grep -q "set xlabel \"work \[s\]\"" $p/cost_busy_seconds.gp'
check "log x for a positive real axis" 'grep -q "^set logscale x" $p/cost_busy_seconds.gp'
check "only the successful kind has accuracy data (fail has none)" \
  '[ "$(grep -c "^# ok" $p/accuracy_draw_mean.dat)" = 1 ] && ! grep -q "^# fail" $p/accuracy_draw_mean.dat'
check "success_rate.dat: ok 100% (3/3), fail 0% (0/3) per work value" \
  '[ "$(grep -v "^#" $p/success_rate.dat | head -1)" = "\"0.001\" 100 3 3 0 0 3" ]'
rm -f "$p"/*.png "$p"/*.svg
(cd "$p" && gnuplot success_rate.gp 2>/dev/null)
check "a script re-runs by hand in plots/" "images_ok $p success_rate"

# 1b. a driver with higher-is-better metrics (bench_nonconvex_corner): experiment.txt lists them, the
# plots say so
if [ -x "$bin/bench_nonconvex_corner" ]; then
  "$bin/bench_nonconvex_corner" -out "$tmp/nc" -quiet >/dev/null 2>&1
  check "higher_better lists the driver's SWEEP_METRIC_HIGHER columns" \
    'grep -q "^higher_better matches_paper,end_valid$" $tmp/nc/experiment.txt'
  check "... and their plots say higher is better" \
    'grep -q "ylabel \"end_valid (higher is better)\"" $tmp/nc/plots/accuracy_end_valid.gp && ! grep -q "higher is better" $tmp/nc/plots/accuracy_residual.gp'
fi

# 2. bench_plot on a hand-made solver benchmark: problems x solvers x 2 seeds
d=$tmp/solvers
mkdir -p "$d"
cat >"$d/experiment.txt" <<'EOF'
experiment solvers
title hand-made solver benchmark
axes problem,solver,seed
group problem,solver
metrics residual
costs solve_seconds,task_seconds
info
plot_x problem
series solver
log_x 0
options -problem p1,p2
units solve_seconds=s,task_seconds=s
EOF
# p1: fast 1 s, slow 2 s; p2: fast fails, slow 3 s (per seed); the profile of solve_seconds over the 4
# instances: fast is best on 2 (rho(1) = 0.5) and never solves the rest; slow is best on 2 and within 2x on all
cat >"$d/tasks.csv" <<'EOF'
task_id,problem,solver,seed,status,residual,solve_seconds,task_seconds,rank,host
0,p1,fast,0,converged,1e-10,1,1.1,0,vm
1,p1,fast,1,converged,2e-10,1,1.1,0,vm
2,p1,slow,0,converged,0,2,2.1,0,vm
3,p1,slow,1,converged,0,2,2.1,0,vm
4,p2,fast,0,max_iterations,1e-3,5,5.1,0,vm
5,p2,fast,1,ray_termination,,5,5.1,0,vm
6,p2,slow,0,converged,3e-12,3,3.1,0,vm
7,p2,slow,1,converged,4e-12,3,3.1,0,vm
EOF
"$bin/bench_plot" "$d" >"$tmp/out" 2>"$tmp/err"
check "bench_plot exits 0" '[ $? = 0 ]'
check "bench_plot rewrote summary.csv and summary.md" '[ -s $d/summary.csv ] && [ -s $d/summary.md ]'
for n in accuracy_residual cost_solve_seconds success_rate profile_solve_seconds profile_task_seconds; do
  check "bench_plot made $n.png and $n.svg" "images_ok $d/plots $n"
done
prof() { awk -v want="$2" '/^# /{s=$2} s==want && NF==2 && $1!="#"' "$d/plots/profile_solve_seconds.dat" | tr '\n' ' '; }
check "profile of fast: 0.5 at tau 1 and no more" '[ "$(prof x fast)" = "1 0.5 3 0.5 " ]'
check "profile of slow: 0.5 at tau 1, 1 at tau 2" '[ "$(prof x slow)" = "1 0.5 2 1 3 1 " ]'
check "categorical x: problem names as tics" 'grep -q "set xtics (\"p1\" 0, \"p2\" 1)" $d/plots/cost_solve_seconds.gp'
check "log y for residuals spanning decades; the zero median of p1/slow left out and said so" \
  'grep -q "^set logscale y" $d/plots/accuracy_residual.gp && grep -q "medians <= 0 not drawn" $d/plots/accuracy_residual.gp'

# 3. a metric no task has a value for: that plot is skipped, the others are made
sed -i 's/^metrics residual$/metrics residual,missing_metric/' "$d/experiment.txt"
sed -i '1s/residual,/residual,missing_metric,/; 2,$s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)/\1,/' "$d/tasks.csv"
rm -rf "$d/plots"
"$bin/bench_plot" "$d" >"$tmp/out" 2>"$tmp/err"
check "an all-empty metric: exit 0" '[ $? = 0 ]'
check "... no plot for it, the others made" \
  '[ ! -e $d/plots/accuracy_missing_metric.gp ] && images_ok $d/plots accuracy_residual'

# 4. without gnuplot: a message, nonzero, nothing lost
rm -rf "$d/plots"
mkdir -p "$tmp/nobin"
PATH="$tmp/nobin" "$bin/bench_plot" "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "no gnuplot: nonzero exit ($rc)" '[ $rc != 0 ]'
check "no gnuplot: the message says so" 'grep -q "gnuplot is not installed" $tmp/err'
check "no gnuplot: scripts, data and tables are kept" \
  '[ -s $d/plots/success_rate.gp ] && [ -s $d/plots/success_rate.dat ] && [ -s $d/summary.md ]'

# 5. bad run directories
"$bin/bench_plot" "$tmp/nothing" >"$tmp/out" 2>"$tmp/err"
check "missing run directory: exit 2 naming the file" '[ $? = 2 ] && grep -q "$tmp/nothing/experiment.txt" $tmp/err'
"$bin/bench_plot" >"$tmp/out" 2>"$tmp/err"
check "no argument: exit 2 with usage" '[ $? = 2 ] && grep -q usage $tmp/err'
