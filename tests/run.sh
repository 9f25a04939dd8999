#!/usr/bin/env bash
# tests/run.sh BIN — runs every compiled test (BIN/tests/test_*) and every script test (tests/test_*.sh),
# counts their "ok" / "not ok" lines, and ends with the plain line "N passed, N failed".
# A test that exits non-zero without reporting a failure (a crash) counts as one failure.
set -u
bin=${1:-bin}
here=$(cd "$(dirname "$0")" && pwd)
export CB_BIN=$(cd "$bin" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
passed=0 failed=0
log=$(mktemp)
for t in "$CB_BIN"/tests/test_* "$here"/test_*.sh; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  export OPENBLAS_NUM_THREADS=1
  start=$(date +%s%N)
  (cd "$here/.." && "$t") >"$log" 2>&1
  rc=$?
  p=$(grep -c '^ok ' "$log")
  f=$(grep -c '^not ok ' "$log")
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; echo "not ok - $name exited with status $rc" >>"$log"; fi
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  printf '%-36s %4d passed %4d failed  %6s s\n' "$name" "$p" "$f" "$secs"
  [ "$f" != 0 ] && { grep -E '^(not ok|#)' "$log" | head -40; tail -n 15 "$log" | grep -v -E '^(ok|not ok|#)' ; }
  passed=$((passed + p)) failed=$((failed + f))
done
rm -f "$log"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
