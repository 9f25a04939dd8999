#!/usr/bin/env bash
# tests/run.sh BIN — runs every test under tests/, whose folders mirror the code's (tests/solvers/lemke/,
# tests/formulations/types/implicit/, tests/bench/engine/, ...): each tests/DIR/test_X.c as its compiled
# BIN/tests/DIR/test_X, each tests/DIR/test_X.sh as itself, in path order so that a family's tests are
# listed together, each named by its path under tests/. It counts their "ok", "not ok" and "skip" lines,
# names every skipped check with its reason, and ends with the plain line "N passed, N failed, N skipped"
# (CI reads that last line). A skip is neither a pass nor a failure: the exit status is 0 iff nothing
# failed, whatever was skipped.
# A test that exits non-zero without reporting a failure (a crash) counts as one failure, and so does a test
# source whose program is missing from BIN (not built) or a script that is not executable.
set -u
bin=${1:-bin}
here=$(cd "$(dirname "$0")" && pwd)
export CB_BIN=$(cd "$bin" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
passed=0 failed=0 skipped=0
log=$(mktemp) skips=$(mktemp)
# the tests, by path under tests/
mapfile -t tests < <(cd "$here" && find . -type f \( -name 'test_*.c' -o -name 'test_*.sh' \) | sed 's#^\./##' |
  LC_ALL=C sort)
width=36
for rel in "${tests[@]}"; do n=${rel%.c}; [ ${#n} -lt "$width" ] || width=$((${#n} + 1)); done
for rel in "${tests[@]}"; do
  case "$rel" in
  *.c) name=${rel%.c} t=$CB_BIN/tests/$name ;;
  *) name=$rel t=$here/$rel ;;
  esac
  export OPENBLAS_NUM_THREADS=1
  start=$(date +%s%N)
  if [ -x "$t" ] && [ -f "$t" ]; then
    (cd "$here/.." && "$t") >"$log" 2>&1
    rc=$?
  else
    echo "not ok - $name: $t is missing or not executable (not built?)" >"$log"
    rc=1
  fi
  # TAP's "ok - # SKIP reason" is a skip too, not a pass (tests written before the skip line existed)
  sed -i -E 's/^ok .*# SKIP:? */skip - /' "$log"
  p=$(grep -c '^ok ' "$log")
  f=$(grep -c '^not ok ' "$log")
  s=$(grep -c '^skip - ' "$log")
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; echo "not ok - $name exited with status $rc" >>"$log"; fi
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  printf '%-*s %4d passed %4d failed %4d skipped  %6s s\n' "$width" "$name" "$p" "$f" "$s" "$secs"
  [ "$f" != 0 ] && { grep -E '^(not ok|#)' "$log" | head -40; tail -n 15 "$log" | grep -v -E '^(ok|not ok|skip|#)' ; }
  # listed above the last line, so that a skip is seen and not only counted
  sed -n "s#^skip - #skipped: $name: #p" "$log" >>"$skips"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
cat "$skips"
rm -f "$log" "$skips"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
