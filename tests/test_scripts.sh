#!/usr/bin/env bash
# test_scripts.sh — bench/regress (make baseline, make regress) in a scratch copy of the layout it expects
# (bench/, bin/, bench/experiments/), with two experiments made of bench_synthetic: alpha, and beta whose
# runs fail when BETA_FAIL is set (its -dry_run still passes). bench/regress -baseline checks the options
# with every driver before it touches anything, and replaces the baselines all or nothing: a bad option or
# a run that fails leaves results/baseline/ as it was, with no temporary folder; a baseline without a
# preset is kept.
set -u
bin=${CB_BIN:-bin}
bin=$(cd "$bin" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
L=$tmp/l
mkdir -p "$L/bench/experiments" "$L/bin"
cp "$root"/bench/{regress,lib_help.sh,baseline_kernels.sh} "$L/bench/"
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
