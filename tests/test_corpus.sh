#!/usr/bin/env bash
# test_corpus.sh — capture and replay end to end: bench_incline with -cp_capture writes one problem per
# step (capped), on 2 ranks one file per rank that bench_corpus -merge joins to the single-rank count;
# -cp_capture_every thins it; bench_corpus -info lists it; bench_corpus replays it with two solvers (one
# row per problem and solver, every Lemke row converged); -export_siconos writes .dat files cpsolve reads;
# a run killed while capturing leaves a readable file holding the batches written before the kill; bad
# input exits 2 with a message (a truncated file, a file that is not HDF5, a filter matching nothing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
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
$inc $run -out "$tmp/r3" -cp_capture "$tmp/cap.h5" -cp_capture_max 7 >/dev/null 2>&1
check "-cp_capture_max 7: the file stops at 7" '[ "$(count "$tmp/cap.h5")" = 7 ]'
mpi 2 $inc $run -out "$tmp/r4" -cp_capture "$tmp/par.h5" >/dev/null 2>&1
check "2 ranks: one file per rank" '[ -f "$tmp/par.rank0.h5" ] && [ -f "$tmp/par.rank1.h5" ]'
"$cor" -merge "$tmp/merged.h5" "$tmp/par.rank0.h5" "$tmp/par.rank1.h5" >/dev/null 2>&1
check "bench_corpus -merge: the rank files join to the single-rank count" '[ "$(count "$tmp/merged.h5")" = 40 ]'
check "-info: by driver / formulation / kind" '"$cor" -info "$tmp/one.h5" | grep -q "^incline  *stewart_trinkle  *lcp  *40"'

"$cor" -corpus "$tmp/one.h5" -cp_solver lemke,pgs -repeats 1 -out "$tmp/replay" -quiet -no_plots >"$tmp/out" 2>&1
check "replay: exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
check "replay: a row per problem and solver" '[ "$(tail -n +2 "$tmp/replay/tasks.csv" | wc -l)" = 80 ]'
col() { head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
s=$(col "$tmp/replay/tasks.csv" status) v=$(col "$tmp/replay/tasks.csv" solver)
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
# writer appends and flushes every 256 problems, 1 MB or 1 s; the batch being filled is lost)
$inc -theta 20 -mu 0.3 -h 1e-3 -t_end 50 -formulation stewart_trinkle -cp_solver lemke -dim 3 -quiet -no_plots \
  -out "$tmp/k" -cp_capture "$tmp/killed.h5" -task_fork 0 >/dev/null 2>&1 &
pid=$!
seen=
for _ in $(seq 100); do
  seen=$(count "$tmp/killed.h5")
  [ -n "$seen" ] && [ "$seen" -gt 0 ] && break
  sleep 0.2
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n=$(count "$tmp/killed.h5")
check "killed run: the file opens and holds the batches flushed before the kill ($seen seen, $n after)" \
  '[ -n "$n" ] && [ -n "$seen" ] && [ "$seen" -gt 0 ] && [ "$n" -ge "$seen" ]'

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
