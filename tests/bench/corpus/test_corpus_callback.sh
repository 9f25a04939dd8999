#!/usr/bin/env bash
# test_corpus_callback.sh — callback problems in the corpus (corpus.h schema 3, captured 2): steps of
# Chakraborty et al.'s geometrically implicit formulation (2D rolling disc with -cp_warm_start, a rolling
# superellipse, 3D spheres) and
# of the quasi-rigid one (Sec. 6.3 drop) are captured with the world at the step's start, the option values
# and the formulation's carried state; bench_corpus assembles each again through the formulation registry and
# the rebuilt problem is the run's: the same bounds and F(z0) bit for bit (rebuild_diff 0), and fb_newton
# from the run's z0 takes the same iterations to the same status as in the run's trace. A corrupt world text
# and an unknown formulation are recorded rows (not_rebuildable) and the replay goes on (exit 0); a version 2
# corpus still reads; fb_newton's run again without Levenberg-Marquardt solves a rolling N-gon step; a step
# the stepper took again (cold retry, halving) is captured as the problem it first failed on.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cor="$CB_BIN/bench_corpus"
q="-quiet -no_plots"

# replay FILE.h5 TRACE.csv NAME: every row rebuilt exactly, same status and iterations as the run's trace
replay() {
  local h5=$1 trace=$2 name=$3 out="$tmp/rep_$3"
  "$cor" -corpus "$h5" -cp_solver fb_newton -repeats 1 -out "$out" $q >"$tmp/out" 2>&1
  check "$name: the replay exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
  local csv="$out/tasks.csv"
  local p=$(csv_col "$csv" problem) s=$(csv_col "$csv" status) i=$(csv_col "$csv" iterations) d=$(csv_col "$csv" rebuild_diff)
  local rows=$(tail -n +2 "$csv" | wc -l)
  check "$name: every captured step rebuilt with the same bounds and F(z0) ($rows rows, rebuild_diff 0)" \
    '[ "$rows" -gt 0 ] && [ "$(awk -F, -v d=$d '"'"'NR > 1 && $d == "0"'"'"' "$csv" | wc -l)" = "$rows" ]'
  local same=$(awk -F, -v p=$p -v s=$s -v i=$i 'FNR == 1 { f++; next }
    f == 1 { st[$1] = $3; it[$1] = $6 } f == 2 { split($p, a, "_step"); n++; if (st[a[2]] == $s && it[a[2]] == $i) m++ }
    END { print m + 0 "/" n + 0 }' "$trace" "$csv")
  check "$name: fb_newton from the run's z0: the run's status and iterations on every step ($same)" \
    '[ "$same" = "$rows/$rows" ]'
}

mkdir -p "$tmp/t1" "$tmp/t2" "$tmp/t3"
"$CB_BIN/bench_rolling_disc" -N 0 -h 0.01 -formulation geometric_implicit -cp_solver fb_newton -cp_warm_start 1 \
  -t_end 0.1 -out "$tmp/r1" -trace "$tmp/t1" -cp_capture "$tmp/gi.h5" $q >"$tmp/out" 2>&1
check "rolling disc: the capturing run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
check "-info: 10 rebuildable ncp problems of geometric_implicit" \
  '"$cor" -info "$tmp/gi.h5" | grep -q "^rolling_disc  *geometric_implicit  *ncp  *10 "'
replay "$tmp/gi.h5" "$tmp/t1/rolling_disc_task0.csv" "geometric_implicit 2D, warm start"

# a p = 4 superellipse rolling (the world text's superellipse record): rebuilt bit for bit as well
mkdir -p "$tmp/t4"
"$CB_BIN/bench_rolling_disc" -shape superellipse -N 0 -h 0.01 -formulation geometric_implicit -cp_solver fb_newton \
  -cp_warm_start 1 -t_end 0.1 -out "$tmp/r4" -trace "$tmp/t4" -cp_capture "$tmp/se.h5" $q >"$tmp/out" 2>&1
check "rolling superellipse: the capturing run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
replay "$tmp/se.h5" "$tmp/t4/rolling_disc_task0.csv" "geometric_implicit 2D superellipse"

"$CB_BIN/bench_sphere_two_spheres" -h 0.01 -formulation geometric_implicit -cp_solver fb_newton -t_end 0.1 \
  -out "$tmp/r2" -trace "$tmp/t2" -cp_capture "$tmp/sph.h5" $q >"$tmp/out" 2>&1
check "spheres: the capturing run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
replay "$tmp/sph.h5" "$tmp/t2/sphere_two_spheres_task0.csv" "geometric_implicit 3D"

"$CB_BIN/bench_quasirigid_drop" -quasi_rigid_delta_max 0.05 -h 1e-3 -cp_solver fb_newton -t_end 0.3 -out "$tmp/r3" \
  -trace "$tmp/t3" -cp_capture "$tmp/qr.h5" -cp_capture_every 10 $q >"$tmp/out" 2>&1
check "quasi-rigid drop: the capturing run exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
replay "$tmp/qr.h5" "$tmp/t3/quasirigid_drop_task0.csv" "quasi_rigid"

# merge keeps them rebuildable
"$cor" -merge "$tmp/m.h5" "$tmp/gi.h5" "$tmp/qr.h5" >/dev/null 2>&1
"$cor" -corpus "$tmp/m.h5" -cp_solver fb_newton -repeats 1 -out "$tmp/mrep" $q >/dev/null 2>&1
d=$(csv_col "$tmp/mrep/tasks.csv" rebuild_diff)
check "merge: 40 problems, every one rebuilt exactly" \
  '[ "$(awk -F, -v d=$d '"'"'NR > 1 && $d == "0"'"'"' "$tmp/mrep/tasks.csv" | wc -l)" = 40 ]'

# damage: the first world text (rolling disc step 1); the first row's formulation name
cp "$tmp/gi.h5" "$tmp/bad1.h5"
cp "$tmp/gi.h5" "$tmp/bad2.h5"
perl -0777 -pi -e 's/\nbody /\nbodX /' "$tmp/bad1.h5"
perl -0777 -pi -e 's/geometric_implicit\0/geometric_implicix\0/' "$tmp/bad2.h5"
for b in 1 2; do
  "$cor" -corpus "$tmp/bad$b.h5" -cp_solver fb_newton -repeats 1 -out "$tmp/bad$b" $q >"$tmp/out" 2>&1
  check "damaged problem $b: the replay goes on and exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
done
nr() { awk -F, -v s=$(csv_col "$1" status) -v w="$2" '$s == w' "$1" | wc -l; }
check "a corrupt world text: 1 not_rebuildable row saying why, 9 converged" \
  '[ "$(nr "$tmp/bad1/tasks.csv" not_rebuildable)" = 1 ] && [ "$(nr "$tmp/bad1/tasks.csv" converged)" = 9 ] &&
   grep -q "world text: bad or truncated" "$tmp/bad1/tasks.csv"'
check "an unknown formulation: 1 not_rebuildable row saying why, 9 converged" \
  '[ "$(nr "$tmp/bad2/tasks.csv" not_rebuildable)" = 1 ] && [ "$(nr "$tmp/bad2/tasks.csv" converged)" = 9 ] &&
   grep -q "unable to find requested formulation type .geometric_implicix" "$tmp/bad2/tasks.csv"'

# a version 2 corpus (the committed corpus before the callback problems, kept as tests/data/corpus_v2.h5)
# still reads and replays
v2="$here/../../data/corpus_v2.h5"
check "a version 2 corpus reads" '"$cor" -info "$v2" | grep -q "schema version 2"'
"$cor" -corpus "$v2" -driver triangle_drop -formulation peg -cp_solver lemke -repeats 1 -out "$tmp/v2" $q \
  >/dev/null 2>&1
s=$(csv_col "$tmp/v2/tasks.csv" status)
check "a version 2 corpus replays (17 triangle_drop peg problems, Lemke converges)" \
  '[ "$(awk -F, -v s=$s '"'"'NR > 1 && $s == "converged"'"'"' "$tmp/v2/tasks.csv" | wc -l)" = 17 ]'

# fb_newton: a rolling N-gon step where the run with Levenberg-Marquardt crawls to a stationary point of
# the merit, and the run again without it (-fb_newton_retry_plain, default) converges
"$CB_BIN/bench_rolling_disc" -N 10 -h 0.003 -formulation geometric_implicit -cp_solver fb_newton \
  -fb_newton_retry_plain 0 -t_end 0.5 -out "$tmp/r5" -cp_capture "$tmp/ngon.h5" -cp_capture_failed 1 $q \
  >/dev/null 2>&1
for rp in 0 1; do
  "$cor" -corpus "$tmp/ngon.h5" -cp_solver fb_newton -fb_newton_retry_plain $rp -repeats 1 -out "$tmp/ng$rp" $q \
    >/dev/null 2>&1
done
check "N-gon step: fails with Levenberg-Marquardt alone" \
  '[ "$(nr "$tmp/ng0/tasks.csv" max_iterations)" = 1 ] && [ "$(nr "$tmp/ng0/tasks.csv" converged)" = 0 ]'
check "N-gon step: converges when the failed run is run again without it" \
  '[ "$(nr "$tmp/ng1/tasks.csv" converged)" = 1 ] && grep -q "converged in the run without" "$tmp/ng1/tasks.csv"'

# a step whose first solve fails and which the stepper takes again (-step_cold_retry, -step_halvings) is
# captured as the problem it failed on: the one its world at the step's start rebuilds at the run's h (the
# last retry's problem is another: cold, or of h / 2), with the first solve's status; under
# -cp_capture_failed it counts as failed although the retry converged
for retry in "cold_retry 1" "halvings 2"; do
  set -- $retry
  tag=$1
  mkdir -p "$tmp/tr_$tag"
  "$CB_BIN/bench_rolling_disc" -N 10 -h 0.003 -formulation geometric_implicit -cp_solver fb_newton \
    -fb_newton_retry_plain 0 -step_halvings $([ "$tag" = halvings ] && echo 2 || echo 0) \
    -step_cold_retry $([ "$tag" = cold_retry ] && echo 1 || echo 0) -t_end 0.5 -out "$tmp/r_$tag" \
    -trace "$tmp/tr_$tag" -cp_capture "$tmp/$tag.h5" -cp_capture_failed 1 $q >/dev/null 2>&1
  tr="$tmp/tr_$tag/rolling_disc_task0.csv"
  retried=$(awk -F, -v f=$(csv_col "$tr" fp_iterations) -v s=$(csv_col "$tr" status) \
    'NR > 1 && $f > 1 && $s == "converged"' "$tr" | wc -l)
  "$cor" -corpus "$tmp/$tag.h5" -cp_solver fb_newton -fb_newton_retry_plain 0 -repeats 1 -out "$tmp/rep_$tag" $q \
    >/dev/null 2>&1
  csv="$tmp/rep_$tag/tasks.csv"
  ok=$(awk -F, -v d=$(csv_col "$csv" rebuild_diff) -v rs=$(csv_col "$csv" run_status) -v s=$(csv_col "$csv" status) \
    -v h=$(csv_col "$csv" h) 'NR > 1 && $d == "0" && $rs == "max_iterations" && $s == "max_iterations" && $h == 0.003' \
    "$csv" | wc -l)
  check "-step_$tag: the step taken again and solved ($retried) is captured as the problem it failed on (rebuilt exactly at h, its first solve's status, fb_newton fails it again: $ok)" \
    '[ "$retried" -ge 1 ] && [ "$ok" = "$retried" ] && [ "$(tail -n +2 "$csv" | wc -l)" = "$retried" ]'
done

# -cp_dump_failed on a failed callback problem: no plain file exists for it, so the run stops with the way to
# keep it named (-cp_capture) and exits 1, in-process as forked (the task's message is not a ledger row)
for fork in 0 1; do
  "$CB_BIN/bench_rolling_disc" -N 10 -h 0.003 -formulation geometric_implicit -cp_solver fb_newton \
    -fb_newton_retry_plain 0 -t_end 0.5 -out "$tmp/dump$fork" -cp_dump_failed "$tmp/dumpdir$fork" \
    -task_fork $fork $q >"$tmp/out" 2>&1
  rc=$?
  check "-cp_dump_failed on a failed ncp step (-task_fork $fork): exit 1, -cp_capture named, no row for it" \
    '[ $rc = 1 ] && grep -q "error: -cp_dump_failed: step 115.s failed problem is a nonlinear (callback) ncp.*-cp_capture FILE.h5 -cp_capture_failed 1" "$tmp/out" &&
     ! grep -q "!-cp_dump_failed" "$tmp/dump$fork/ledger.csv"' || sed 's/^/# /' "$tmp/out"
done
