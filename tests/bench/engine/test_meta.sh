#!/usr/bin/env bash
# test_meta.sh — meta.json records what the timings depend on: the CPU model (/proc/cpuinfo), the BLAS
# threads and kernel set (blas_core) in use and OPENBLAS_NUM_THREADS / OMP_NUM_THREADS / OPENBLAS_CORETYPE,
# and the SLURM job, array job and array task ids; an unset variable is null; the build's commit beside the run
# directory's checkout. Runs of bin/bench_synthetic (one task each).
set -u
bin=${CB_BIN:-bin}
. "$(dirname "$0")/../../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the value of "key" in a meta.json (one field per line, as the engine writes it), trailing comma dropped
field() { sed -n "s/^  \"$2\": \(.*\)$/\1/p" "$1" | sed 's/,$//'; }
slurm_unset=(-u SLURM_JOB_ID -u SLURM_ARRAY_JOB_ID -u SLURM_ARRAY_TASK_ID)
# run OUT [env arguments]: one task into OUT, with the SLURM variables of any enclosing job removed
run() { local out=$1; shift; env "${slurm_unset[@]}" "$@" "$bin/bench_synthetic" -work 0.001 -seeds 1 -out "$out" \
  -quiet -no_plots >/dev/null 2>&1; }

# OPENBLAS_CORETYPE is kept as it is: forcing a core type the CPU lacks would crash OpenBLAS
run "$tmp/a" SLURM_JOB_ID=42 SLURM_ARRAY_JOB_ID=41 SLURM_ARRAY_TASK_ID=3 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=2 \
  || fail "bench_synthetic ran (SLURM variables set)"
m=$tmp/a/meta.json
if command -v python3 >/dev/null; then
  check "meta.json is valid JSON" 'python3 -m json.tool "$m" >/dev/null 2>&1'
else
  skip "meta.json JSON syntax: python3 is not installed"
fi
check "SLURM_JOB_ID=42 -> slurm_job_id \"42\"" '[ "$(field "$m" slurm_job_id)" = "\"42\"" ]'
check "SLURM_ARRAY_JOB_ID=41, SLURM_ARRAY_TASK_ID=3 recorded" \
  '[ "$(field "$m" slurm_array_job_id)" = "\"41\"" ] && [ "$(field "$m" slurm_array_task_id)" = "\"3\"" ]'
check "OPENBLAS_NUM_THREADS=1 -> openblas_num_threads \"1\", blas_threads 1 (the library's count)" \
  '[ "$(field "$m" openblas_num_threads)" = "\"1\"" ] && [ "$(field "$m" blas_threads)" = 1 ]'
check "OMP_NUM_THREADS=2 -> omp_num_threads \"2\"" '[ "$(field "$m" omp_num_threads)" = "\"2\"" ]'
if [ -n "${OPENBLAS_CORETYPE+x}" ]; then
  check "OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE recorded" \
    '[ "$(field "$m" openblas_coretype)" = "\"$OPENBLAS_CORETYPE\"" ]'
else
  check "OPENBLAS_CORETYPE unset -> openblas_coretype null" '[ "$(field "$m" openblas_coretype)" = null ]'
fi
# blas_core: the kernels in use; where the CPU has AVX-512 (AVX2 + FMA) and OPENBLAS_CORETYPE is unset, never
# a core without them, whatever OpenBLAS detected (0.3.21 falls back to Prescott on CPUs newer than itself)
flags=$(sed -n 's/^flags[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
core=$(field "$m" blas_core | tr -d '"' | tr '[:upper:]' '[:lower:]')
check "blas_core and blas_core_detected recorded ($core, $(field "$m" blas_core_detected))" \
  '[ -n "$core" ] && [ -n "$(field "$m" blas_core_detected)" ]'
if [ -z "${OPENBLAS_CORETYPE+x}" ] && has avx512f && has avx512bw && has avx512dq && has avx512vl && has avx512cd; then
  check "CPU with AVX-512 -> blas_core is an AVX-512 core (SkylakeX, Cooperlake, SapphireRapids)" \
    'case $core in skylakex | cooperlake | sapphirerapids) true ;; *) false ;; esac'
elif [ -z "${OPENBLAS_CORETYPE+x}" ] && has avx2 && has fma; then
  check "CPU with AVX2 + FMA -> blas_core is not a pre-AVX2 core" \
    'case $core in prescott | core2 | penryn | dunnington | nehalem | sandybridge | atom) false ;; *) true ;; esac'
else
  skip "blas_core selection: OPENBLAS_CORETYPE is set or the CPU has neither AVX-512 nor AVX2"
fi
if has avx2 && has fma; then
  run "$tmp/h" OPENBLAS_CORETYPE=Haswell || fail "bench_synthetic ran (OPENBLAS_CORETYPE=Haswell)"
  check "OPENBLAS_CORETYPE=Haswell is the user's choice: blas_core Haswell, the variable recorded" \
    '[ "$(field "$tmp/h/meta.json" blas_core)" = "\"Haswell\"" ] &&
     [ "$(field "$tmp/h/meta.json" openblas_coretype)" = "\"Haswell\"" ]'
else
  skip "OPENBLAS_CORETYPE=Haswell: the CPU lacks AVX2 + FMA"
fi
model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)
if [ -n "$model" ]; then
  check "cpu_model is /proc/cpuinfo's model name ($model)" '[ "$(field "$m" cpu_model)" = "\"$model\"" ]'
else
  skip "cpu_model: /proc/cpuinfo has no model name here"
fi

run "$tmp/b" -u OMP_NUM_THREADS OPENBLAS_NUM_THREADS=2 || fail "bench_synthetic ran (no SLURM variables)"
m=$tmp/b/meta.json
check "no SLURM variables -> slurm_job_id, slurm_array_job_id, slurm_array_task_id null" \
  '[ "$(field "$m" slurm_job_id)$(field "$m" slurm_array_job_id)$(field "$m" slurm_array_task_id)" = nullnullnull ]'
# the engine sets OpenBLAS's threads from -blas_threads (default 1), whatever the environment says, so that
# a task's numbers do not depend on how the job was launched; the environment is recorded beside it
check "OMP_NUM_THREADS unset -> null; OPENBLAS_NUM_THREADS=2 -> openblas_num_threads \"2\", blas_threads 1 (-blas_threads' default)" \
  '[ "$(field "$m" omp_num_threads)" = null ] && [ "$(field "$m" openblas_num_threads)" = "\"2\"" ] && [ "$(field "$m" blas_threads)" = 1 ]'
env "${slurm_unset[@]}" OPENBLAS_NUM_THREADS=1 "$bin/bench_synthetic" -work 0.001 -seeds 1 -out "$tmp/c" -blas_threads 2 \
  -quiet -no_plots >/dev/null 2>&1 || fail "bench_synthetic -blas_threads 2 ran"
check "-blas_threads 2 -> blas_threads 2 in meta.json (OPENBLAS_NUM_THREADS=1 in the environment)" \
  '[ "$(field "$tmp/c/meta.json" blas_threads)" = 2 ]'

# provenance: git_sha / git_dirty are the build's (the Makefile writes them into the programs), so a run
# from another directory still names the code: the same sha from the source tree, from outside any
# checkout and from another checkout; checkout_git_sha / checkout_git_dirty are the run directory's
# checkout, and a run from a checkout of another commit says so on stderr
src=$(cd "$(dirname "$0")/../../.." && pwd)
abs_bin=$(cd "$bin" && pwd)
if command -v git >/dev/null && head_sha=$(git -C "$src" rev-parse HEAD 2>/dev/null); then
  m=$tmp/b/meta.json
  build_sha=$(field "$m" git_sha | tr -d '"')
  check "git_sha is a commit ($build_sha), checkout_git_sha the source tree's HEAD ($head_sha)" \
    '[[ "$build_sha" =~ ^[0-9a-f]{40}$ ]] && [ "$(field "$m" checkout_git_sha)" = "\"$head_sha\"" ]'
  mkdir -p "$tmp/elsewhere"
  (cd "$tmp/elsewhere" && env "${slurm_unset[@]}" "$abs_bin/bench_synthetic" -work 0.001 -seeds 1 -out "$tmp/d" \
    -quiet -no_plots >/dev/null 2>"$tmp/d.err") || fail "bench_synthetic ran outside any checkout"
  check "run outside any checkout: git_sha still the build's, checkout_git_sha \"\", no warning" \
    '[ "$(field "$tmp/d/meta.json" git_sha)" = "\"$build_sha\"" ] &&
     [ "$(field "$tmp/d/meta.json" checkout_git_sha)" = "\"\"" ] && ! grep -q warning "$tmp/d.err"'
  git init -q "$tmp/other" && git -C "$tmp/other" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x
  other_sha=$(git -C "$tmp/other" rev-parse HEAD)
  (cd "$tmp/other" && env "${slurm_unset[@]}" "$abs_bin/bench_synthetic" -work 0.001 -seeds 1 -out "$tmp/e" \
    -quiet -no_plots >/dev/null 2>"$tmp/e.err") || fail "bench_synthetic ran in another checkout"
  check "run in another checkout: checkout_git_sha is its commit, git_sha the build's, a warning names both" \
    '[ "$(field "$tmp/e/meta.json" checkout_git_sha)" = "\"$other_sha\"" ] &&
     [ "$(field "$tmp/e/meta.json" git_sha)" = "\"$build_sha\"" ] &&
     grep -q "warning: the programs were built from $build_sha.*the checkout here is $other_sha" "$tmp/e.err"'
else
  skip "provenance: git or the source's checkout is not available here"
fi
