#!/usr/bin/env bash
# test_bench_plot.sh — bin/bench_plot and the plots at the end of a sweep: PNG and SVG files that exist,
# are non-empty and are what they claim (PNG signature, <svg>); the scripts re-run by hand in plots/;
# a solver benchmark (a "problem" axis, "solver" series) gets performance profiles with the expected
# fractions; labels are the help texts; failed cells and clamped values are marked; many categories turn
# the tics, many series make panels and a success heat map, identical series are told apart; the view
# options (-x, -series, -facet, -where, -out) and -overlay of two runs; no title mentions an issue; a
# metric with no successful value gets no plot but the rest are made; without gnuplot,
# bench_plot says so, exits nonzero and keeps the scripts, data and tables; bad run directories exit 2.
set -u
bin=${CB_BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../lib.sh"
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
check "x label is the axis help with its unit from experiment.txt" \
  'grep -q "set xlabel \"seconds of busy computation per task \[s\]\"" $p/cost_busy_seconds.gp'
check "experiment.txt has the labels line (help texts)" 'grep -q "^labels .*work=seconds of busy computation per task" $tmp/syn/experiment.txt'
check "y label is the column's help, not its name" 'grep -q "set ylabel \"mean of 1000 uniform draws" $p/accuracy_draw_mean.gp'
check "a failed cell is drawn as a 'failed' mark on the bottom" \
  'grep -q "title \"failed (no successful task)\"" $p/accuracy_draw_mean.gp && grep -A3 "failed: every task" $p/accuracy_draw_mean.dat | grep -q "^0.00"'
check "no title of the sweep's plots mentions an issue" '! grep -i "set title.*issue" $p/*.gp'
check "PNG and SVG from one loop over the same commands" 'grep -q "do for \[cb_svg = 0:1\]" $p/accuracy_draw_mean.gp'
check "log x for a positive real axis" 'grep -q "^set logscale x" $p/cost_busy_seconds.gp'
check "only the successful kind has accuracy data (fail has none)" \
  '[ "$(grep -c "^# ok" $p/accuracy_draw_mean.dat)" = 1 ] && ! grep -q "^# fail" $p/accuracy_draw_mean.dat'
check "success_rate.dat: ok 100% (3/3), fail 0% (0/3) per work value" \
  '[ "$(grep -v "^#" $p/success_rate.dat | head -1)" = "\"0.001\" 100 3 3 0 0 3" ]'
rm -f "$p"/*.png "$p"/*.svg
(cd "$p" && gnuplot success_rate.gp 2>/dev/null)
check "a script re-runs by hand in plots/" "images_ok $p success_rate"
# the plots of a run as it is read tasks.csv as a stream (plot_read.c: a skeleton, then the cells); a view
# reads the table: the same x and series as a view give the same data, failed cells and "aggregated over
# seed" included
"$bin/bench_plot" "$tmp/syn" -x work -series kind -out "$tmp/syn_view" >/dev/null 2>&1
check "streamed plots = the table's (bench_plot -x work -series kind): every .dat and the titles" \
  'for f in $p/*.dat; do cmp -s $f $tmp/syn_view/$(basename $f) || exit 1; done && grep -q "aggregated over seed" $p/accuracy_draw_mean.gp && diff <(grep "set title" $p/accuracy_draw_mean.gp) <(grep "set title" $tmp/syn_view/accuracy_draw_mean.gp) >/dev/null'

# 1b. a driver with higher-is-better metrics (bench_nonconvex_corner): experiment.txt lists them, the
# plots say so
if [ -x "$bin/bench_nonconvex_corner" ]; then
  "$bin/bench_nonconvex_corner" -out "$tmp/nc" -quiet >/dev/null 2>&1
  check "higher_better lists the driver's SWEEP_METRIC_HIGHER columns" \
    'grep -q "^higher_better matches_paper,end_valid$" $tmp/nc/experiment.txt'
  check "... and their plots say higher is better" \
    'grep -q "title \".*higher is better" $tmp/nc/plots/accuracy_end_valid.gp && ! grep -q "higher is better" $tmp/nc/plots/accuracy_residual.gp'
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
check "log y for residuals spanning decades; the zero median of p1/slow clamped to the floor and marked" \
  'grep -q "^set logscale y" $d/plots/accuracy_residual.gp && grep -q "title \"clamped" $d/plots/accuracy_residual.gp &&
   grep -A1 "clamped: medians" $d/plots/accuracy_residual.dat | tail -1 | grep -vq NaN'
check "p2/fast (every task failed) is a failed mark" 'grep -q "title \"failed" $d/plots/accuracy_residual.gp'
check "few short categories: tics not turned" '! grep -q "rotate" $d/plots/cost_solve_seconds.gp'
check "no title mentions an issue" '! grep -i "set title.*issue" $d/plots/*.gp'
src=$(dirname "$0")/../../..
check "bench_solvers' title and header carry no issue reference" '! grep -qi issue "$src/bench/solvers.c"'

# 2b. many problems and solvers: 14 problems x 10 solvers, two of the solvers with identical values
m=$tmp/many
mkdir -p "$m"
sed 's/^options .*/options -problem many/' "$d/experiment.txt" >"$m/experiment.txt"
echo "labels residual=natural-map residual of the answer|solve_seconds=solve wall time" >>"$m/experiment.txt"
awk 'BEGIN { print "task_id,problem,solver,seed,status,residual,missing_metric,solve_seconds,task_seconds,rank,host"; id = 0
  for (p = 0; p < 14; p++) for (s = 0; s < 10; s++) for (e = 0; e < 2; e++) {
    st = (s == 3 && p < 4) ? "max_iterations" : "converged"; sv = s == 1 ? "s0" : "s" s
    printf "%d,problem_number_%02d,%s_%d,%d,%s,%g,,%g,%g,0,vm\n", id++, p, (s < 5 ? "tao" : "snes"), s, e, st,
      10^-(1 + (s == 1 ? 0 : s) + e), 1 + (s == 1 ? 0 : s) + p / 10, 2 + s }
}' >"$m/tasks.csv"
"$bin/bench_plot" "$m" >"$tmp/out" 2>"$tmp/err"
check "many: bench_plot exits 0" '[ $? = 0 ] && images_ok $m/plots accuracy_residual && images_ok $m/plots success_rate'
check "many categories: x tics turned 45 degrees" 'grep -q "set xtics rotate by 45 right" $m/plots/cost_solve_seconds.gp'
check "more than 8 series: one panel per solver family (multiplot)" \
  'grep -q "set multiplot" $m/plots/accuracy_residual.gp && grep -q "set title \"tao\"" $m/plots/accuracy_residual.gp &&
   grep -q "set title \"snes\"" $m/plots/accuracy_residual.gp'
check "an identical series is drawn open and says which one it repeats" \
  'grep -q "title \"tao_1 (= tao_0)\"" $m/plots/accuracy_residual.gp'
check "the y label is the help text from experiment.txt's labels" \
  'grep -q "set ylabel \"natural-map residual of the answer\"" $m/plots/accuracy_residual.gp'
check "14 problems x 10 solvers: success as a heat map with the counts in the cells" \
  'grep -q "with boxxyerror" $m/plots/success_rate.gp && grep -q "^3 3 0 \"0/2\"" $m/plots/success_rate.gp'
# in panels the look follows a series' place within its panel: no two series of one panel share it
looks_distinct() { # FILE: every "plot" command's series have distinct colour/point/dash triples
  awk '/^plot/ { p++ } p && match($0, /pt [0-9]+ ps 1.[36] dt [0-9]+ lc rgb .#[0-9A-Fa-f]+./) {
         k = p SUBSEP substr($0, RSTART, RLENGTH); if (seen[k]++) bad = 1; n++ }
       END { exit !(n >= 10 && !bad) }' "$1"
}
check "ten series: no two of a panel share colour, point and dash" "looks_distinct $m/plots/cost_solve_seconds.gp"

# 2c. bench_plot's view options and the overlay of two runs
"$bin/bench_plot" "$m" -x solver -series none -where problem=problem_number_01,problem=problem_number_02 -out "$tmp/v1" \
  >"$tmp/out" 2>"$tmp/err"
check "-x/-series/-where: exit 0, x is the solver, one series, two problems kept" \
  '[ $? = 0 ] && grep -q "set xlabel \"solver\"" $tmp/v1/cost_solve_seconds.gp &&
   [ "$(grep -c "^# " $tmp/v1/cost_solve_seconds.dat)" = 4 ] && grep -q "aggregated over problem, seed" $tmp/v1/cost_solve_seconds.gp &&
   grep -q "\"tao_3\" 0 0 4" $tmp/v1/success_rate.dat'
"$bin/bench_plot" "$m" -facet seed -series solver -where solver=tao_0,solver=tao_2 -out "$tmp/v2" >"$tmp/out" 2>"$tmp/err"
check "-facet seed: one panel per seed, each with its own margins and key position" \
  '[ $? = 0 ] && grep -q "set multiplot title" $tmp/v2/accuracy_residual.gp && grep -q "set title \"1\"" $tmp/v2/accuracy_residual.gp &&
   [ $(grep -c "^set lmargin at screen" $tmp/v2/accuracy_residual.gp) = 2 ] && [ $(grep -c "^set key at screen" $tmp/v2/accuracy_residual.gp) = 2 ]'
# every panel's plot area the same height (tmargin - bmargin), whatever its key: a panel's key has its own band
check "-facet seed: the panels' plot areas are the same size" \
  'awk "/^set tmargin at screen/ { t = \$5 } /^set bmargin at screen/ { h[n++] = t - \$5 } END { for (i = 1; i < n; i++) if (h[i] - h[0] > 1e-4 || h[0] - h[i] > 1e-4) exit 1; exit n < 2 }" $tmp/v2/accuracy_residual.gp'
"$bin/bench_plot" "$m" -x no_such_column >"$tmp/out" 2>"$tmp/err"
check "-x naming no column: exit 2 with a message" '[ $? = 2 ] && grep -q no_such_column $tmp/err'
"$bin/bench_plot" "$m" "$d" >"$tmp/out" 2>"$tmp/err"
check "two runs without -overlay: usage, exit 2" '[ $? = 2 ] && grep -q usage $tmp/err'
"$bin/bench_synthetic" -out "$tmp/syn2" -kind ok,fail -work 0.001,0.003 -seeds 3 -quiet 2>/dev/null
"$bin/bench_plot" "$tmp/syn" "$tmp/syn2" -overlay -out "$tmp/ov" >"$tmp/out" 2>"$tmp/err"
check "-overlay: exit 0, one figure per metric" '[ $? = 0 ] && images_ok $tmp/ov accuracy_draw_mean && [ ! -e $tmp/ov/plots ]'
check "-overlay: both runs in the same figure, named by role and folder" \
  'grep -q "^# baseline (tmp[^/]*/syn) / ok" $tmp/ov/accuracy_draw_mean.dat && grep -q "^# variant (tmp[^/]*/syn2) / ok" $tmp/ov/accuracy_draw_mean.dat &&
   grep -q "title \"baseline (tmp[^/]*/syn) / ok\"" $tmp/ov/accuracy_draw_mean.gp && grep -q "variant (tmp[^/]*/syn2) / ok" $tmp/ov/accuracy_draw_mean.gp'
check "-overlay: the variant dashed (dt 2) with open points, the baseline solid" \
  'grep "title \"variant (" $tmp/ov/accuracy_draw_mean.gp | grep -q "dt 2 " && ! grep "title \"baseline (" $tmp/ov/accuracy_draw_mean.gp | grep -q "dt 2 "'
"$bin/bench_plot" "$tmp/syn" "$d" -overlay -out "$tmp/ov2" >"$tmp/out" 2>"$tmp/err"
check "-overlay of two experiments: exit 2 naming both, unless -force" \
  '[ $? = 2 ] && grep -q "is experiment .synthetic. but .* is .solvers." $tmp/err && grep -q -- -force $tmp/err'
"$bin/bench_plot" "$tmp/syn" "$d" -overlay -force -out "$tmp/ov2" >"$tmp/out" 2>"$tmp/err"
check "... with -force: exit 0" '[ $? = 0 ]'
check "-overlay: the runs' own plots untouched" '[ ! -e $tmp/syn/plots/plots_overlay ] && [ -s $tmp/syn/plots/accuracy_draw_mean.gp ]'

# 2d. a crowded run: 8 variants in one panel (a constant solver axis, one variant that never applies), a
# 0/1 share column, a drift whose help opens with a formula, and costs with long tic labels
c=$tmp/crowd
mkdir -p "$c"
cat >"$c/experiment.txt" <<'EOF2'
experiment crowd
title hand-made crowded run
axes size,solver,variant,seed
group size,solver,variant
metrics flag,drift
costs work_seconds,task_seconds
shares flag
info
plot_x size
series solver,variant
log_x 0
options -size 1,2,3
labels flag=1 when the part was held|drift=largest \|E - E_ref\| over the run|size=problem size
units drift=J,work_seconds=s,task_seconds=s
EOF2
# v3 repeats v0 exactly; "na" never applies; flag is 1 on seeds below the variant number; v7 has no drift
awk 'BEGIN { print "task_id,size,solver,variant,seed,status,flag,drift,work_seconds,task_seconds,rank,host"; id = 0
  for (z = 1; z <= 3; z++) for (v = 0; v <= 8; v++) for (e = 0; e < 4; e++) {
    w = v == 3 ? 0 : v; name = v == 8 ? "na" : "v" v
    if (v == 8) { printf "%d,%d,only,na,%d,not_applicable,,,,0.01,0,vm\n", id++, z, e; continue }
    d = v == 7 ? "" : sprintf("%g", 1 + w * z + e / 10)
    printf "%d,%d,only,%s,%d,ok,%d,%s,%g,0.01,0,vm\n", id++, z, name, e, e < v % 4, d, 1e-4 * (1 + 0.15 * w) * z + e * 1e-6 }
}' >"$c/tasks.csv"
"$bin/bench_plot" "$c" >"$tmp/out" 2>"$tmp/err"
cp=$c/plots
check "crowd: bench_plot exits 0" '[ $? = 0 ] && images_ok $cp accuracy_flag && images_ok $cp accuracy_drift'
check "a share column of more than 5 series a panel is a map of its shares, not lines" \
  'grep -q "with boxxyerror" $cp/accuracy_flag.gp && grep -q "set cblabel \"share of tasks with flag = 1" $cp/accuracy_flag.gp'
check "... each cell says tasks with 1 / tasks that ran (v2 at size 1: 2 of 4)" 'grep -q "^0 2 50 \"2/4\"" $cp/accuracy_flag.gp'
check "more than 5 series in a panel: no quartile bands, and the title says so" \
  '! grep -q filledcurves $cp/accuracy_drift.gp && grep -q "no quartile bands" $cp/accuracy_drift.gp'
check "a series that never applies is left out (no block, no bar, no map row)" \
  '! grep -q "^# na" $cp/accuracy_drift.dat && ! grep -q "\"na\"" $cp/success_rate.gp $cp/accuracy_flag.gp &&
   [ "$(awk "!/^#/ { print NF; exit }" $cp/success_rate.dat)" = 25 ]'
check "a series axis with one value is named once in the title, not in every key entry" \
  'grep -q "at solver = only" $cp/accuracy_drift.gp && grep -q "title \"v1\"" $cp/accuracy_drift.gp &&
   ! grep -q "only / v1" $cp/accuracy_drift.gp'
check "a help that opens with a one-word cut before a formula: the y label is the column name" \
  'grep -q "set ylabel \"drift \[J\]\"" $cp/accuracy_drift.gp'
check "a repeat at place 3 is open but not the clamped mark (pt 10)" \
  'grep "title \"v3 (= v0)\"" $cp/accuracy_drift.gp | grep -q "pt 14 ps 1.6" && ! grep -q "pt 10 ps 1.6" $cp/*.gp'
check "a one-plot key title sits a line below the x label" "grep -q '^set key title \"\\\\nvariant\"' $cp/accuracy_drift.gp"
check "times never negative: the linear axis does not reach under 0 (no failed marks to make room for)" \
  '[ "$(sed -n "s/^set yrange \[\([^:]*\):.*/\1/p" $cp/cost_work_seconds.gp | awk "{ print (\$1 >= 0) }")" = 1 ] &&
   grep -q "^set format y .%g." $cp/cost_work_seconds.gp'
check "a success rate of 100 % everywhere says so (96 applicable tasks)" \
  'grep -q "every one of the 96 applicable tasks succeeded" $cp/success_rate.gp'
"$bin/bench_plot" "$c" -facet variant -out "$tmp/cf" >"$tmp/out" 2>"$tmp/err"
check "panels: one without any value (v7's drift) is left out and named in the title" \
  '[ "$(grep -c "^set lmargin at screen" $tmp/cf/accuracy_drift.gp)" = 7 ] && grep -q "no value (not measured) for v7" $tmp/cf/accuracy_drift.gp &&
   [ "$(grep -c "^set lmargin at screen" $tmp/cf/cost_work_seconds.gp)" = 8 ]'
check "panels: the left margin holds tic labels of 6 characters (0.0001) and the y label (was 92 px)" \
  'awk "/^ *set terminal pngcairo size/ { split(\$5, wh, \",\"); w = wh[1] } /^set lmargin at screen/ && !n++ { exit !(\$5 * w >= 97) }" $tmp/cf/cost_work_seconds.gp'
# every title line fits its figure: at most width / 8 characters (sans 11; the title may come before the
# terminal's size in the script)
titles_fit() {
  for f in "$@"; do
    awk '/^ *set terminal pngcairo size/ { split($5, wh, ","); w = wh[1] }
      /^set (multiplot )?title "/ { t = $0; sub(/^[^"]*"/, "", t); n = split(t, L, /\\n/)
        for (i = 1; i <= n; i++) if (length(L[i]) > longest) longest = length(L[i]) }
      END { exit !(w > 0 && longest <= w / 8 + 1) }' "$f" || return 1
  done
}
check "every title line fits the width of its figure" "titles_fit $cp/*.gp $tmp/cf/*.gp $m/plots/*.gp"
# in panels each key gets the columns its own longest entry allows: "failed (no successful task)" included
check "panels: each panel sets its own key columns" \
  '[ "$(grep -c "^set key maxcols" $m/plots/accuracy_residual.gp)" = "$(grep -c "^set lmargin at screen" $m/plots/accuracy_residual.gp)" ]'

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
