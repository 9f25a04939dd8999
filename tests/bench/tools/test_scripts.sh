#!/usr/bin/env bash
# test_scripts.sh — bench/regress and bench/run-default (make baseline, make regress, make run) in a scratch
# copy of the layout they expect (bench/, bin/, bench/experiments/), with two experiments made of
# bench_synthetic: alpha, and beta whose runs fail when BETA_FAIL is set (its -dry_run still passes).
# bench/regress -baseline checks the options with every driver before it touches anything, and replaces the
# baselines all or nothing: a bad option or a run that fails leaves results/baseline/ as it was, with no
# temporary folder; a baseline without a preset is kept. bench/run-default reports a failed experiment with
# its exit status and goes on; Ctrl-C (SIGINT to make's process group) stops it at the experiment it
# interrupts (its running task recorded as interrupted), the later ones do not run, and make exits 130.
set -u
bin=${CB_BIN:-bin}
bin=$(cd "$bin" && pwd)
root=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../lib.sh"
L=$tmp/l
mkdir -p "$L/bench/experiments" "$L/bin"
cp "$root"/bench/{regress,run-default,lib_help.sh,baseline_kernels.sh} "$L/bench/"
ln -s "$bin/bench_synthetic" "$L/bin/bench_alpha"
ln -s "$bin/bench_compare" "$L/bin/bench_compare"
printf '#!/bin/sh\ncase " $* " in *" -dry_run "*) ;; *) [ -n "${BETA_FAIL:-}" ] && exit 1 ;; esac\nexec %s "$@"\n' \
  "$bin/bench_synthetic" >"$L/bin/bench_beta"
chmod +x "$L/bin/bench_beta"
printf -- '-kind ok\n-work 0.001\n-seeds 2\n' >"$L/bench/experiments/alpha_quick.opts"
printf -- '-kind ok,fail\n-work 0.001\n-seeds 2\n' >"$L/bench/experiments/beta_quick.opts"
: >"$L/bench/experiments/default.opts"
export CB_RANKS=1
cd "$L" || exit 1
temps() { ls -a results | grep -c '^\.baseline'; }

# 1. make baseline: the set is made, and rewritten all or nothing
mkdir -p results/baseline/gamma && echo kept >results/baseline/gamma/tasks.csv # a baseline without a preset
bench/regress -baseline >"$tmp/b1.out" 2>&1
check "regress -baseline: exit 0, alpha and beta written without ledgers, gamma kept, no temporary folder" \
  '[ $? = 0 ] && [ -s results/baseline/alpha/tasks.csv ] && [ -s results/baseline/beta/tasks.csv ] &&
   [ -z "$(ls results/baseline/alpha | grep ledger)" ] && [ "$(cat results/baseline/gamma/tasks.csv)" = kept ] && [ $(temps) = 0 ]'
cp -a results/baseline "$tmp/before"
bench/regress -baseline -bogus_opt >"$tmp/b2.out" 2>&1
check "regress -baseline -bogus_opt: exit 2 before any run, naming the option, every baseline as it was" \
  '[ $? = 2 ] && grep -q "error: -bogus_opt is not an option of this run" $tmp/b2.out &&
   grep -q "regress: nothing was run or changed" $tmp/b2.out && ! grep -q "^== .* -> " $tmp/b2.out &&
   diff -r $tmp/before results/baseline >/dev/null && [ $(temps) = 0 ]'
BETA_FAIL=1 bench/regress -baseline >"$tmp/b3.out" 2>&1
check "regress -baseline with a run that fails: exit 2, no baseline replaced (alpha's neither), no temporary folder" \
  '[ $? = 2 ] && grep -q "regress: beta did not complete" $tmp/b3.out && grep -q "no baseline replaced" $tmp/b3.out &&
   diff -r $tmp/before results/baseline >/dev/null && [ $(temps) = 0 ]'
bench/regress >"$tmp/r1.out" 2>&1
check "regress against the baselines: exit 0" '[ $? = 0 ] && grep -q "every experiment passes" $tmp/r1.out'
bench/regress -bogus_opt >"$tmp/r2.out" 2>&1
check "regress -bogus_opt: exit 2, nothing run" '[ $? = 2 ] && grep -q "nothing was run or changed" $tmp/r2.out && ! grep -q "^== .* -> " $tmp/r2.out'

bench/regress -lemke_block 4 >"$tmp/r3.out" 2>&1
check "regress -lemke_block 4 where no preset runs lemke: exit 2, 'no quick preset uses -lemke_block', nothing run" \
  '[ $? = 2 ] && grep -q "regress: no quick preset uses -lemke_block" $tmp/r3.out &&
   grep -q "regress: alpha: -lemke_block left out" $tmp/r3.out && ! grep -q "^== .* -> " $tmp/r3.out'

# 2. run-default: a failed experiment is reported with its status and the others run
BETA_FAIL=1 bench/run-default >"$tmp/d1.out" 2>&1
check "run-default with beta failing: exit 1, 'beta failed (exit 1)', alpha ran" \
  '[ $? = 1 ] && grep -q "run-default: beta failed (exit 1); going on with the others" $tmp/d1.out && grep -q "^== alpha" $tmp/d1.out'
mkdir -p results/other/1 && ln -sfn 1 results/other/latest # another tool's run folder: not this run's
bench/run-default >"$tmp/d2.out" 2>"$tmp/d2.err"
check "run-default: exit 0; stdout is one line per experiment with tasks, failures, wall and summary, then the folders" \
  '[ $? = 0 ] && [ $(grep -c "^== " $tmp/d2.out) = 2 ] &&
   grep -Eq "^== alpha +2 tasks, 0 failed, wall [0-9.]+ s, summary results/synthetic/[0-9-]+/summary.md \(log results/synthetic/[0-9-]+/run.log\)$" $tmp/d2.out &&
   grep -Eq "^== beta +4 tasks, 2 failed, wall" $tmp/d2.out && [ $(wc -l <$tmp/d2.out) -le 6 ] && [ ! -s $tmp/d2.err ]'
check "... the drivers' tables and progress went to run.log in each run folder, none left elsewhere" \
  'l=$(sed -n "s/^== beta .*(log \(.*\))$/\1/p" $tmp/d2.out); [ -f "$l" ] && grep -q "^|" "$l" && grep -q "results in" "$l" &&
   ! grep -q "^|" $tmp/d2.out && [ ! -e results/.run-default ]'
check "... the folders listed at the end are this run's two, not other results/*/latest links" \
  '[ $(grep -c "^  /.*/results/synthetic/" $tmp/d2.out) = 2 ] && ! grep -q "results/other" $tmp/d2.out'

# 3. Ctrl-C of make run while alpha runs: alpha is reported interrupted, beta does not start, make exits 130
printf 'run:\n\tbench/run-default -work 0.5 -seeds 8\n' >Makefile
rm -rf results/synthetic
set -m
# a terminal's Ctrl-C: SIGINT at its default even when this script was started with it ignored (a
# background job of a non-interactive shell), which the run would keep ignoring
env --default-signal=INT make run >"$tmp/m.out" 2>&1 &
mk=$!
ledger() { ls results/synthetic/2*/ledger.csv 2>/dev/null | head -n 1; }
for _ in $(seq 400); do l=$(ledger); [ -n "$l" ] && [ "$(tail -n +2 "$l" | grep -c .)" -ge 1 ] && break; sleep 0.05; done
kill -INT -- -$mk
wait $mk
mrc=$?
set +m
check "make run, Ctrl-C during alpha: make exits 130, run-default says alpha was interrupted and stops there" \
  '[ $mrc = 130 ] && grep -q "run-default: alpha interrupted" $tmp/m.out && ! grep -q "^== beta" $tmp/m.out &&
   ! grep -q "going on with the others" $tmp/m.out'
check "... alpha's running task is recorded as interrupted, none as crashed; no tables" \
  'l=$(ledger); grep -q ",interrupted," $l && ! grep -q crashed $l && [ ! -e ${l%/ledger.csv}/tasks.csv ]'
check "... and the printed command with -resume completes it" \
  'cmd=$(sed -n "s/^run-default: continue it with: //p" $tmp/m.out); [ -n "$cmd" ] && eval "$cmd -work 0.5 -seeds 8 -quiet -no_plots" >/dev/null 2>&1 &&
   [ "$(grep -c ",ok," results/synthetic/latest/tasks.csv)" = 8 ]'
