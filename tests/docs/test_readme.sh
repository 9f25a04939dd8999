#!/usr/bin/env bash
# test_readme.sh — every command README.md shows (its ```sh blocks) runs and exits 0, in order, so that the
# map never shows a command that broke. Adapted to a test only where it must be: a run directory the README
# names under results/ goes to a scratch folder instead (-out added when the command has none), `make X` is
# checked with `make -n X` (make check would run this test again), and slurm/submit queues into a stub
# sbatch on PATH (no cluster here; tests/slurm/test_slurm.sh runs the real one), whose arguments are checked.
set -u
. "$(dirname "$0")/../lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/fakebin"
cat >"$tmp/fakebin/sbatch" <<EOF
#!/bin/sh
echo "\$@" >>"$tmp/sbatch.calls"
n=\$(wc -l <"$tmp/sbatch.calls")
echo "Submitted batch job \$((100 + n))"
EOF
chmod +x "$tmp/fakebin/sbatch"
# the commands: lines of the sh blocks, continuations joined, comments and blank lines dropped
awk '/^```sh/ {on = 1; next} /^```/ {on = 0; next}
  on { sub(/[[:space:]]+#.*$/, ""); if ($0 ~ /^[[:space:]]*#/ || $0 ~ /^[[:space:]]*$/) next;
       if (cont != "") { $0 = cont " " $0; cont = "" }
       if ($0 ~ /\\$/) { sub(/\\$/, ""); cont = $0; next } print }' "$root/README.md" >"$tmp/commands"
n=$(wc -l <"$tmp/commands")
check "README.md shows commands ($n)" '[ "$n" -ge 8 ]'
i=0
while IFS= read -r cmd; do
  i=$((i + 1))
  run=$(printf '%s' "$cmd" | sed "s#results/incline/mine#$tmp/mine#g; s#results/incline/variant#$tmp/variant#g")
  case "$run" in
  make\ *) run="make -n ${run#make } >/dev/null" ;;
  slurm/submit*) run="PATH=$tmp/fakebin:\$PATH $run -o $tmp/submitted" ;;
  *bin/bench_*)
    prog=${run#*bin/bench_}
    [ -f "$root/bench/${prog%% *}.c" ] || prog= # a driver (bench/NAME.c), not a tool such as bench_compare
    if [ -n "$prog" ]; then
      case "$run" in *" -out "*) ;; *) run="$run -out $tmp/run$i" ;; esac
      run="$run -quiet -no_plots"
    fi
    ;;
  esac
  case "$cmd" in
  *../shared/data*) [ -d "$root/../shared/data" ] || {
    skip "README command $i needs ../shared/data: $cmd"
    continue
  } ;;
  esac
  if (cd "$root" && export CB_BIN && eval "$run") >"$tmp/out" 2>&1 </dev/null; then
    pass "README command $i: $cmd"
  else
    fail "README command $i: $cmd (exit $?)"
    tail -5 "$tmp/out" | sed 's/^/# /'
  fi
done <"$tmp/commands"
check "slurm/submit queued an 8-element array and a merge that waits for it" \
  'grep -q -- "--array=0-7" "$tmp/sbatch.calls" && grep -q -- "--dependency=afterok:" "$tmp/sbatch.calls"' ||
  sed 's/^/# /' "$tmp/sbatch.calls"
