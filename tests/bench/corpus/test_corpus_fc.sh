#!/usr/bin/env bash
# test_corpus_fc.sh — frictional-contact problems (kind fc: coulomb_cone's exact Coulomb cone) captured,
# replayed and exported end to end: bench_incline with -cp_capture stores one problem per step in 2D and 3D,
# in-process and through forked tasks' pipes (-task_fork 1); -info lists them as kind fc; bench_corpus
# replays them (every cone-solver row converged by the checker's residual, the LCP solver's rows
# not_applicable); -export_siconos writes fc2d / fc3d .dat files that cpsolve reads and solves; the
# relaxation (anitescu_ccp) keeps its flag through capture and replay; the committed corpus (schema version
# 3) still opens.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inc="$CB_BIN/bench_incline" cor="$CB_BIN/bench_corpus"
run="-dim 2,3 -theta 10,30 -mu 0.3 -h 1e-2 -t_end 0.05 -formulation coulomb_cone -cp_solver fc_nsgs -quiet -no_plots"
$inc $run -out "$tmp/r1" -cp_capture "$tmp/fc.h5" -task_fork 0 >"$tmp/out" 2>&1
check "capture: the coulomb_cone run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
check "-info: 20 problems of kind fc, schema version 4" \
  '"$cor" -info "$tmp/fc.h5" | grep -q "20 problems (schema version 4)" &&
   "$cor" -info "$tmp/fc.h5" | grep -q "^incline  *coulomb_cone  *fc  *20"'
$inc $run -out "$tmp/r2" -cp_capture "$tmp/forked.h5" -task_fork 1 >"$tmp/out" 2>&1
check "capture through forked tasks' pipes: the same 20 problems" \
  '"$cor" -info "$tmp/forked.h5" | grep -q "^incline  *coulomb_cone  *fc  *20"' || sed 's/^/# /' "$tmp/out"
"$cor" -corpus "$tmp/forked.h5" -cp_solver fc_nsgs,fc_newton,lemke -repeats 1 -out "$tmp/replay" -quiet \
  -no_plots >"$tmp/out" 2>&1
check "replay: exits 0, a row per problem and solver" \
  '[ $? = 0 ] && [ "$(tail -n +2 "$tmp/replay/tasks.csv" | wc -l)" = 60 ]' || sed 's/^/# /' "$tmp/out"
s=$(csv_col "$tmp/replay/tasks.csv" status) v=$(csv_col "$tmp/replay/tasks.csv" solver)
check "replay: every cone solver's row converged (the checker's natural map on the cone)" \
  '[ "$(awk -F, -v s=$s -v v=$v '\''NR>1 && $v ~ /^fc_/ && $s == "converged"'\'' "$tmp/replay/tasks.csv" | wc -l)" = 40 ]'
check "replay: the LCP solver answers not_applicable" \
  '[ "$(awk -F, -v s=$s -v v=$v '\''NR>1 && $v == "lemke" && $s == "not_applicable"'\'' "$tmp/replay/tasks.csv" | wc -l)" = 20 ]'
"$cor" -export_siconos "$tmp/dat" -corpus "$tmp/fc.h5" >/dev/null 2>&1
check "-export_siconos: 10 fc2d and 10 fc3d files" \
  '[ "$(ls "$tmp/dat" | grep -c _fc2d.dat)" = 10 ] && [ "$(ls "$tmp/dat" | grep -c _fc3d.dat)" = 10 ]'
f=$(ls "$tmp/dat" | grep _fc3d.dat | head -1)
check "cpsolve reads an exported fc3d file and solves it" \
  '"$CB_BIN/cpsolve" -f "$tmp/dat/$f" -cp_solver fc_nsgs | grep -q "fc_nsgs  *converged"'
# the relaxation (anitescu_ccp) through forked tasks' pipes: its flag must survive, or the replay's checker
# would judge the answers against Coulomb's law
$inc ${run/coulomb_cone/anitescu_ccp} -out "$tmp/r3" -cp_capture "$tmp/ccp.h5" -task_fork 1 >/dev/null 2>&1
"$cor" -corpus "$tmp/ccp.h5" -cp_solver fc_nsgs,fc_newton -repeats 1 -out "$tmp/rccp" -quiet -no_plots >/dev/null 2>&1
check "the relaxation replays: fc_nsgs converged on all 20, fc_newton not_applicable on all 20" \
  '[ "$(grep -c "^[0-9]*,[^,]*,fc_nsgs,converged," "$tmp/rccp/tasks.csv")" = 20 ] &&
   [ "$(grep -c "^[0-9]*,[^,]*,fc_newton,not_applicable," "$tmp/rccp/tasks.csv")" = 20 ]'
# a version 3 corpus (the committed corpus before the rolling disc's Fig. 1b step was merged into it, kept as
# tests/data/corpus_v3.h5: the same blob in git) still opens, and the committed one is version 4
check "a version 3 corpus still opens (523 problems); the committed corpus is version 4" \
  '"$cor" -info "$here/../../data/corpus_v3.h5" | grep -q "523 problems (schema version 3)" &&
   "$cor" -info results/corpus/corpus.h5 | grep -q "(schema version 4)"'
