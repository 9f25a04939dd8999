#!/usr/bin/env bash
# test_option_axes.sh — what the user asked is what runs (the engine's options objects): a formulation or
# solver option given as a list is a method axis with its own column; a driver's axis that is a formulation
# option is that option's axis, so the user's value is the one that runs; values are checked against the
# declaring table before any task; an option axis no method reads, and a value that conflicts with what the
# experiment sets itself, are refused; axis lists have no length limit; bench_corpus reads -corpus and its
# filters from the options wherever they are given; a task's numbers do not depend on the number of ranks;
# -resume without -out continues the latest run, and observer options may be added to a resumed run.
set -u
. "$(dirname "$0")/../../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$CB_BIN

# 1. A solver option and a formulation option as axes of one run: a column each, every combination, and
#    peg (which does not read -stewart_trinkle_detection) runs its first value only.
"$bin/bench_peg_box2d" -source generator -seeds 2 -h 0.016 -t_end 0.5 -formulation stewart_trinkle,peg \
  -cp_solver lemke -lemke_block 8,64 -stewart_trinkle_detection closest,paper -out "$tmp/pb" -quiet -no_plots \
  >"$tmp/pb.out" 2>&1
csv=$tmp/pb/tasks.csv
check "option axes: columns stewart_trinkle_detection and lemke_block after the driver's axes" \
  'head -1 "$csv" | grep -q "^task_id,source,seed,h,formulation,solver,stewart_trinkle_detection,lemke_block,status,"' ||
  sed 's/^/# /' "$tmp/pb.out"
st=$(csv_col "$csv" status)
check "option axes: 16 tasks, stewart_trinkle ok for both detections and blocks, peg with paper not_applicable" \
  '[ "$(awk -F, -v s="$st" "NR > 1 && \$5 == \"stewart_trinkle\" && \$s == \"ok\"" "$csv" | wc -l)" = 8 ] &&
   [ "$(awk -F, -v s="$st" "NR > 1 && \$5 == \"peg\" && \$7 == \"closest\" && \$s == \"ok\"" "$csv" | wc -l)" = 4 ] &&
   [ "$(awk -F, -v s="$st" "NR > 1 && \$5 == \"peg\" && \$7 == \"paper\" && \$s == \"not_applicable\"" "$csv" | wc -l)" = 4 ]'
check "option axes: experiment.txt lists them as axes, group keys and plot series (never merged in a line)" \
  'grep -q "^axes source,seed,h,formulation,solver,stewart_trinkle_detection,lemke_block$" "$tmp/pb/experiment.txt" &&
   grep -q "^group .*stewart_trinkle_detection,lemke_block$" "$tmp/pb/experiment.txt" &&
   grep -q "^series formulation,stewart_trinkle_detection,solver,lemke_block$" "$tmp/pb/experiment.txt"'
"$bin/bench_compare" "$tmp/pb" "$tmp/pb" -map 64=8 >"$tmp/map.out" 2>&1
check "bench_compare RUN RUN -map 64=8 judges lemke_block 64 against 8 within one run (pass, 4 groups)" \
  '[ $? = 0 ] && grep -q "^4 groups compared" "$tmp/map.out" && grep -q "lemke_block = 8 left out of the new side" "$tmp/map.out"' ||
  sed 's/^/# /' "$tmp/map.out"

# 2. The user's value of a formulation option runs, not a driver's default: the paper's detection jams the
#    falling triangle at the static one's corner (y about 2.12), closest features let it fall past.
"$bin/bench_triangle_drop" -formulation stewart_trinkle -stewart_trinkle_detection paper -h 0.008 -t_end 1.5 \
  -ref_h 1e-3 -cp_solver lemke -out "$tmp/td" -quiet -no_plots >"$tmp/td.out" 2>&1
csv=$tmp/td/tasks.csv fy=$(csv_col "$tmp/td/tasks.csv" final_y)
check "-stewart_trinkle_detection paper runs the paper's detection (column paper, final y 2.0-2.2: jammed)" \
  'awk -F, -v y="$fy" "NR == 2 { exit !(\$5 == \"paper\" && \$y > 2.0 && \$y < 2.2) }" "$csv"' ||
  sed 's/^/# /' "$csv" "$tmp/td.out"

# 3. Bad input found before any task (exit 2, the option named, no run directory).
expect2() { # NAME PATTERN CMD...
  local name=$1 pat=$2
  shift 2
  "$@" -out "$tmp/bad" -quiet -no_plots >"$tmp/bad.out" 2>&1
  local rc=$?
  if [ $rc = 2 ] && grep -q -- "$pat" "$tmp/bad.out" && [ ! -e "$tmp/bad/ledger.csv" ]; then pass "$name"; else
    fail "$name: exit $rc"
    sed 's/^/# /' "$tmp/bad.out"
  fi
  rm -rf "$tmp/bad"
}
expect2 "an option-axis value out of the declaring table's range" "lemke_block 8000: out of range \[0,4096\]" \
  "$bin/bench_incline" -theta 10 -cp_solver lemke -lemke_block 8,8000
expect2 "a choice the table does not list" "'nearest' is not one of closest|paper" \
  "$bin/bench_peg_box2d" -source generator -seeds 1 -formulation stewart_trinkle -stewart_trinkle_detection nearest,paper
expect2 "an option axis no method of the run reads" "no formulation or solver of this run reads it" \
  "$bin/bench_peg_box2d" -source generator -seeds 1 -formulation peg -stewart_trinkle_detection closest,paper
expect2 "a scalar option of a solver the run does not use" "an option of solver pgs" \
  "$bin/bench_incline" -theta 10 -cp_solver lemke -pgs_omega 1.2
expect2 "a value the experiment sets itself (the paper's friction ellipsoid)" \
  "bench_sphere_two_spheres sets -geometric_implicit_er 0.3 itself" \
  "$bin/bench_sphere_two_spheres" -geometric_implicit_er 0.5
expect2 "bench_solvers' cold starts are not silently overridden" "sets -cp_warm_start 0 itself" \
  "$bin/bench_solvers" -problem spd10 -cp_solver lemke -cp_warm_start 1
expect2 "a driver's stray word (-theta 10 30: the 30 would have been dropped)" "stray word '30' after -theta 10" \
  "$bin/bench_incline" -theta 10 30 -h 1e-3
expect2 "a driver's stray word in an options file, named with its line" "x.opts:2: stray word '2e-3'" \
  "$bin/bench_incline" -options_file "$(printf -- '-theta 10\n-h 1e-3 2e-3\n' >"$tmp/x.opts"; echo "$tmp/x.opts")"
printf -- '-options_file %s/cyc2.opts\n' "$tmp" >"$tmp/cyc1.opts"
printf -- '-options_file %s/cyc1.opts\n' "$tmp" >"$tmp/cyc2.opts"
expect2 "two options files that include each other (no crash: the chain named)" "options file cycle" \
  "$bin/bench_peg_box2d" -options_file "$tmp/cyc1.opts"
expect2 "a string axis checked before any task (rolling_disc -shape)" "-shape square: not one of" \
  "$bin/bench_rolling_disc" -shape disc,square
expect2 "bench_corpus -corpus A -corpus B is ambiguous" "one source gives the option two values" \
  "$bin/bench_corpus" -corpus "$tmp/a.h5" -corpus "$tmp/b.h5"
expect2 "a renamed option says what replaced it" "use -stewart_trinkle_detection" \
  "$bin/bench_peg_box2d" -source generator -seeds 1 -detection closest,paper

# 4. No length limit: 7001 values of an axis (70 KB of text) are 7001 tasks.
theta=$(awk 'BEGIN { for (i = 0; i <= 7000; i++) printf "%s%.4f", (i ? "," : ""), 1 + i * 0.01 }')
"$bin/bench_incline" -dim 2 -theta "$theta" -h 1e-3 -formulation stewart_trinkle -cp_solver lemke -dry_run \
  -out "$tmp/long" >"$tmp/long.out" 2>&1
check "an axis of 7001 values (${#theta} characters) is 7001 tasks" \
  'tail -1 "$tmp/long.out" | grep -q "^7001 of 7001 tasks"' || tail -3 "$tmp/long.out" | sed 's/^/# /'

# 5. bench_corpus: -corpus, -kind and the problem list from one place, wherever they are given.
corpus=$(cd "$(dirname "$0")/../../.." && pwd)/results/corpus/corpus.h5
if [ -f "$corpus" ]; then
  total=$("$bin/bench_corpus" -info "$corpus" | head -1 | awk '{print $2}')
  n_lcp=$("$bin/bench_corpus" -info "$corpus" | awk 'NR > 2 && $3 == "lcp" { s += $4 } END { print s + 0 }')
  "$bin/bench_corpus" -corpus "$corpus" -cp_solver lemke -dry_run -out "$tmp/c1" >"$tmp/c1.out" 2>&1
  check "bench_corpus without -problem replays every problem ($total)" \
    '[ "$(tail -1 "$tmp/c1.out" | cut -d" " -f1)" = "$total" ]' || tail -3 "$tmp/c1.out" | sed 's/^/# /'
  printf -- '-corpus %s\n-kind lcp\n' "$corpus" >"$tmp/c.opts"
  "$bin/bench_corpus" -options_file "$tmp/c.opts" -cp_solver lemke -dry_run -out "$tmp/c2" >"$tmp/c2.out" 2>&1
  check "-corpus and -kind in an options file are the ones read ($n_lcp lcp problems)" \
    '[ "$(tail -1 "$tmp/c2.out" | cut -d" " -f1)" = "$n_lcp" ]' || tail -3 "$tmp/c2.out" | sed 's/^/# /'
else
  skip "bench_corpus: $corpus is not here"
fi

# 6. Rank invariance (one BLAS thread per rank by default, whatever OPENBLAS_NUM_THREADS says): the same
#    pivots, iterations and residuals on 1, 2 and 3 ranks, BLAS-heavy problems included.
for n in 1 2 3; do
  env -u OPENBLAS_NUM_THREADS mpirun --oversubscribe -n $n "$bin/bench_solvers" -problem spd300,resting120 \
    -cp_solver lemke,fb_newton -seeds 3 -repeats 1 -out "$tmp/r$n" -quiet -no_plots >/dev/null 2>&1
  keep "$tmp/r$n/tasks.csv" | cut -d, -f1-8 >"$tmp/r$n.keep"
done
check "bench_solvers (SPD n = 300, resting120; lemke, fb_newton): identical rows on 1, 2 and 3 ranks" \
  '[ -s "$tmp/r1.keep" ] && cmp -s "$tmp/r1.keep" "$tmp/r2.keep" && cmp -s "$tmp/r1.keep" "$tmp/r3.keep"' ||
  diff "$tmp/r1.keep" "$tmp/r3.keep" | head | sed 's/^/# /'
for n in 1 3; do
  env -u OPENBLAS_NUM_THREADS mpirun --oversubscribe -n $n "$bin/bench_peg_box2d" -source generator -seeds 2 \
    -h 0.008,0.016 -t_end 1 -formulation stewart_trinkle,peg -cp_solver lemke -out "$tmp/p$n" -quiet -no_plots \
    >/dev/null 2>&1
  keep "$tmp/p$n/tasks.csv" >"$tmp/p$n.keep"
done
check "the box of polygons: identical rows on 1 and 3 ranks" \
  '[ -s "$tmp/p1.keep" ] && cmp -s "$tmp/p1.keep" "$tmp/p3.keep"' || diff "$tmp/p1.keep" "$tmp/p3.keep" | head | sed 's/^/# /'

# 7. -resume: without -out it continues the run results/<experiment>/latest points to (never a fresh run);
#    observer options may be added to a resumed run.
(cd "$tmp" && "$bin/bench_synthetic" -resume -quiet -no_plots >"$tmp/res0.out" 2>&1)
check "-resume with no run to continue is refused (exit 2)" \
  '[ $? = 2 ] || grep -q "needs the run to continue" "$tmp/res0.out"'
(cd "$tmp" && "$bin/bench_synthetic" -work 0 -seeds 2 -quiet -no_plots >/dev/null 2>&1 &&
  "$bin/bench_synthetic" -work 0 -seeds 3 -resume -quiet -no_plots >"$tmp/res1.out" 2>&1)
latest=$(readlink "$tmp/results/synthetic/latest")
check "-resume without -out continues results/synthetic/latest (3 tasks there, one run directory)" \
  'grep -q "continues results/synthetic/$latest" "$tmp/res1.out" && [ "$(ls "$tmp/results/synthetic" | wc -l)" = 2 ] &&
   [ "$(($(wc -l <"$tmp/results/synthetic/$latest/tasks.csv") - 1))" = 3 ]' || sed 's/^/# /' "$tmp/res1.out"
"$bin/bench_incline" -theta 10,30 -h 1e-3 -cp_solver lemke -t_end 0.05 -out "$tmp/inc" -quiet -no_plots >/dev/null 2>&1
"$bin/bench_incline" -theta 10,30 -h 1e-3 -cp_solver lemke -t_end 0.05 -out "$tmp/inc" -rerun_failed \
  -trace "$tmp/trace" -cp_dump_failed "$tmp/dump" -quiet -no_plots >"$tmp/inc.out" 2>&1
check "-rerun_failed with -trace and -cp_dump_failed added: accepted (observers change no number)" \
  '[ $? = 0 ]' || sed 's/^/# /' "$tmp/inc.out"
"$bin/bench_incline" -theta 10,30 -h 1e-3 -cp_solver lemke -t_end 0.05 -cp_tol 1e-6 -out "$tmp/inc" -resume \
  -quiet -no_plots >"$tmp/inc2.out" 2>&1
check "-resume with another method option is refused naming it" \
  '[ $? = 2 ] && grep -q "^  -cp_tol 1e-6: only here" "$tmp/inc2.out"' || sed 's/^/# /' "$tmp/inc2.out"
