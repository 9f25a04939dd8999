#!/usr/bin/env bash
# test_corpus.sh — capture and replay end to end: bench_incline with -cp_capture writes one problem per
# step (capped), on 2 ranks one file per rank that bench_corpus -merge joins to the single-rank count;
# -cp_capture_every thins it, -cp_capture_step S (with -tasks) takes one step of one task; bench_corpus -info lists it; bench_corpus replays it with two solvers (one
# row per problem and solver, every Lemke row converged); -export_siconos writes .dat files cpsolve reads;
# a run killed while capturing leaves a readable file holding the batches written before the kill (tasks
# in-process, and forked tasks with their writer process: tasks killed at the time limit, the run killed); bad
# input exits 2 with a message (a truncated file, a file that is not HDF5, a filter matching nothing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inc="$CB_BIN/bench_incline" cor="$CB_BIN/bench_corpus"
run="-theta 20,30 -mu 0.3 -h 1e-2 -t_end 0.2 -formulation stewart_trinkle -cp_solver lemke -dim 2 -quiet -no_plots"
$inc $run -out "$tmp/r1" -cp_capture "$tmp/one.h5" >"$tmp/out" 2>&1
check "capture: the run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
count() { "$cor" -info "$1" 2>/dev/null | head -1 | awk '{print $2}'; }
check "capture: one problem per step (2 runs x 20 steps)" '[ "$(count "$tmp/one.h5")" = 40 ]'
$inc $run -out "$tmp/r2" -cp_capture "$tmp/every.h5" -cp_capture_every 5 >/dev/null 2>&1
check "-cp_capture_every 5: steps 1, 6, 11, 16 of each run" '[ "$(count "$tmp/every.h5")" = 8 ]'
$inc $run -out "$tmp/r2s" -cp_capture "$tmp/step.h5" -cp_capture_step 13 -tasks 1:2 >/dev/null 2>&1
check "-cp_capture_step 13 -tasks 1:2: that one step of that one task" \
  '[ "$(count "$tmp/step.h5")" = 1 ] && "$cor" -corpus "$tmp/step.h5" -problem incline_task1_step13 -cp_solver lemke \
     -repeats 1 -dry_run >/dev/null 2>&1'
$inc $run -out "$tmp/r2c" -cp_capture "$tmp/both.h5" -cp_capture_step 13 -cp_capture_every 5 >"$tmp/out" 2>&1
check "-cp_capture_step with -cp_capture_every: exit 2 naming both" \
  '[ $? = 2 ] && grep -q "cp_capture_step and -cp_capture_every" "$tmp/out"'
$inc $run -out "$tmp/r3" -cp_capture "$tmp/cap.h5" -cp_capture_max 7 >/dev/null 2>&1
check "-cp_capture_max 7: the file stops at 7" '[ "$(count "$tmp/cap.h5")" = 7 ]'
mpi 2 $inc $run -out "$tmp/r4" -cp_capture "$tmp/par.h5" >/dev/null 2>&1
# (a rank that ran no task writes no file: which rank runs what depends on timing)
check "2 ranks: a file per rank that captured, none shared" \
  '[ ! -e "$tmp/par.h5" ] && ls "$tmp"/par.rank*.h5 | grep -q "par.rank[01].h5"'
"$cor" -merge "$tmp/merged.h5" "$tmp"/par.rank*.h5 >/dev/null 2>&1
check "bench_corpus -merge: the rank files join to the single-rank count" '[ "$(count "$tmp/merged.h5")" = 40 ]'
check "-info: by driver / formulation / kind" '"$cor" -info "$tmp/one.h5" | grep -q "^incline  *stewart_trinkle  *lcp  *40"'

"$cor" -corpus "$tmp/one.h5" -cp_solver lemke,pgs -repeats 1 -out "$tmp/replay" -quiet -no_plots >"$tmp/out" 2>&1
check "replay: exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
check "replay: a row per problem and solver" '[ "$(tail -n +2 "$tmp/replay/tasks.csv" | wc -l)" = 80 ]'
s=$(csv_col "$tmp/replay/tasks.csv" status) v=$(csv_col "$tmp/replay/tasks.csv" solver)
check "replay: every Lemke row converged" \
  '[ "$(awk -F, -v s=$s -v v=$v '"'"'NR > 1 && $v == "lemke" && $s == "converged"'"'"' "$tmp/replay/tasks.csv" | wc -l)" = 40 ]'
"$cor" -corpus "$tmp/one.h5" -driver incline -formulation stewart_trinkle -n_max 10000 -cp_solver lemke \
  -repeats 1 -out "$tmp/filt" -quiet -no_plots >/dev/null 2>&1
check "replay with filters that keep everything" '[ "$(tail -n +2 "$tmp/filt/tasks.csv" | wc -l)" = 40 ]'

mkdir "$tmp/dat"
"$cor" -corpus "$tmp/one.h5" -export_siconos "$tmp/dat" >/dev/null 2>&1
first=$(ls "$tmp/dat" | head -1)
check "-export_siconos: 40 .dat files" '[ "$(ls "$tmp/dat" | wc -l)" = 40 ]'
check "cpsolve reads an exported file and solves it" \
  '"$CB_BIN/cpsolve" -f "$tmp/dat/$first" -cp_solver lemke 2>&1 | grep -q converged'

# killed while capturing: the file stays readable and holds every batch written before the kill (the
# writer appends and flushes every 256 problems, 1 MB or 1 s; the batch being filled is lost). HDF5 locks a
# file open for writing, so it is read after the kill; its size tells when batches have been written.
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
kill_when_written() { # PID FILE: kill -9 PID once FILE holds some batches (or after 20 s)
  for _ in $(seq 100); do
    [ "$(size "$2")" -gt 200000 ] && break
    sleep 0.2
  done
  kill -9 "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}
$inc -theta 20 -mu 0.3 -h 1e-3 -t_end 2000 -formulation stewart_trinkle -cp_solver lemke -dim 3 -quiet -no_plots \
  -out "$tmp/k" -cp_capture "$tmp/killed.h5" -cp_capture_every 100 -task_fork 0 >/dev/null 2>&1 &
kill_when_written $! "$tmp/killed.h5"
n=$(count "$tmp/killed.h5")
check "killed run: the file opens and holds the batches flushed before the kill ($n problems)" \
  '[ -n "$n" ] && [ "$n" -gt 0 ]'

# forked tasks send their problems to the rank's writer process: tasks killed at the time limit in the
# middle of their problems leave a file that opens, whose every problem reads and solves (a problem cut off
# by the kill is dropped, not stored half)
$inc -theta 20,30 -mu 0.3 -h 1e-3 -t_end 2000 -formulation stewart_trinkle -cp_solver lemke -dim 3 -quiet -no_plots \
  -out "$tmp/tl" -cp_capture "$tmp/tl.h5" -cp_capture_every 50 -cp_capture_max 150 -task_time_limit 2 >/dev/null 2>&1
n=$(count "$tmp/tl.h5")
check "tasks killed at the time limit: both rows say time_limit" \
  '[ "$(grep -c ",time_limit," "$tmp/tl/tasks.csv")" = 2 ]'
check "tasks killed at the time limit: the file opens and holds their problems ($n)" '[ -n "$n" ] && [ "$n" -gt 2 ]'
"$cor" -corpus "$tmp/tl.h5" -cp_solver lemke -repeats 1 -out "$tmp/tlr" -quiet -no_plots >/dev/null 2>&1
check "tasks killed at the time limit: every stored problem replays and converges" \
  '[ "$(grep -c ",converged," "$tmp/tlr/tasks.csv")" = "$n" ]'

# the run killed (kill -9) while its forked tasks capture: the writer process sees the run's end, writes
# what the tasks had sent and closes the file
$inc -theta 20 -mu 0.3 -h 1e-3 -t_end 2000 -formulation stewart_trinkle -cp_solver lemke -dim 3 -quiet -no_plots \
  -out "$tmp/k2" -cp_capture "$tmp/killed2.h5" -cp_capture_every 100 >/dev/null 2>&1 &
kill_when_written $! "$tmp/killed2.h5"
for _ in $(seq 50); do # the writer process ends once the task's pipe has ended
  pgrep -f "killed2.h5" >/dev/null || break
  sleep 0.1
done
n=$(count "$tmp/killed2.h5")
check "run killed while forked tasks capture: the writer process ends and the file opens ($n problems)" \
  '! pgrep -f "killed2.h5" >/dev/null && [ -n "$n" ] && [ "$n" -gt 0 ]'
"$cor" -corpus "$tmp/killed2.h5" -cp_solver lemke -repeats 1 -out "$tmp/k2r" -quiet -no_plots >/dev/null 2>&1
check "run killed while forked tasks capture: every stored problem replays and converges" \
  '[ "$(grep -c ",converged," "$tmp/k2r/tasks.csv")" = "$n" ]'

# bad input
head -c 3000 "$tmp/one.h5" >"$tmp/trunc.h5"
"$cor" -corpus "$tmp/trunc.h5" -out "$tmp/b1" >"$tmp/out" 2>&1
check "truncated file: exit 2 with a message" '[ $? = 2 ] && grep -q "corrupt or truncated" "$tmp/out"'
echo "not hdf5" >"$tmp/text.h5"
"$cor" -corpus "$tmp/text.h5" -out "$tmp/b2" >"$tmp/out" 2>&1
check "not HDF5: exit 2" '[ $? = 2 ] && grep -q "not an HDF5 file" "$tmp/out"'
"$cor" -corpus "$tmp/one.h5" -formulation peg -out "$tmp/b3" >"$tmp/out" 2>&1
check "a filter matching nothing: exit 2" '[ $? = 2 ] && grep -q "no problem" "$tmp/out"'
"$cor" -info "$tmp/nonexistent.h5" >/dev/null 2>&1
check "-info on a missing file: exit 2" '[ $? = 2 ]'

# the committed corpus's Chakraborty et al. Fig. 1b step (the 1000-gon at h = 0.001, step 208: 45 contacts,
# n = 180) that the run's Lemke failed (numerical_failure, residual 2.8e-7: a negligible z0 pivoted out along
# a column whose z0 entry is small drove a degenerate w_i negative): Lemke, path_crash and fb_newton solve it
"$cor" -corpus results/corpus/corpus.h5 -problem rolling_disc_task4_step208 -cp_solver lemke,path_crash,fb_newton \
  -repeats 1 -out "$tmp/rd" -quiet -no_plots >"$tmp/out" 2>&1
check "the rolling disc's Fig. 1b step: the run's status numerical_failure, and lemke, path_crash, fb_newton converge" \
  '[ "$(grep -c "^[0-9]*,rolling_disc_task4_step208,[a-z_]*,converged,.*,180,.*,lemke,numerical_failure," \
     "$tmp/rd/tasks.csv")" = 3 ]' || sed 's/^/# /' "$tmp/out" "$tmp/rd/tasks.csv"
# the committed corpus's grasp step (Chakraborty et al. Sec. 6.4, geometric_implicit, n = 36) where fb_newton's
# run with the active-set step reaches a point where the FB step crawls: with the stall test (the default
# -fb_newton_active_set_stall 10) the run stops and the plain run from the start converges, at most 30
# iterations in all; without it (0) the crawl takes the run's whole budget before that (measured 25 and 205)
"$cor" -corpus results/corpus/corpus.h5 -problem grasp_task20_step30 -cp_solver fb_newton -repeats 1 \
  -out "$tmp/gs10" -quiet -no_plots >"$tmp/out" 2>&1
"$cor" -corpus results/corpus/corpus.h5 -problem grasp_task20_step30 -cp_solver fb_newton -repeats 1 \
  -fb_newton_active_set_stall 0 -out "$tmp/gs0" -quiet -no_plots >>"$tmp/out" 2>&1
check "the grasp's crawling step: converged in $(csv_values "$tmp/gs10/tasks.csv" iterations) <= 30 iterations with the stall test, in $(csv_values "$tmp/gs0/tasks.csv" iterations) >= 150 without" \
  '[ "$(csv_values "$tmp/gs10/tasks.csv" status)" = converged ] && [ "$(csv_values "$tmp/gs0/tasks.csv" status)" = converged ] &&
   [ "$(csv_values "$tmp/gs10/tasks.csv" iterations)" -le 30 ] && [ "$(csv_values "$tmp/gs0/tasks.csv" iterations)" -ge 150 ]' ||
  sed 's/^/# /' "$tmp/out" "$tmp/gs10/tasks.csv" "$tmp/gs0/tasks.csv"
