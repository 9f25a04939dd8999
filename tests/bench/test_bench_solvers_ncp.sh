#!/usr/bin/env bash
# test_bench_solvers_ncp.sh — bin/bench_solvers on the mixed NCP classes (callback problems): the disc on a
# plane of Chakraborty et al. eqs. (41)-(47) and Siconos' MCP test, our fb_newton beside Siconos' MCP
# Newton-min and a solver without the kind (lemke: not_applicable); the random classes depend on the seed
# only: the same rows on 1 and 2 ranks; the preset's solver and problem lists are valid (-dry_run).
set -u
bin=${CB_BIN:-bin}
drv="$bin/bench_solvers"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
siconos=0
"$drv" -help 2>/dev/null | grep -q '^Registered solvers:.*siconos_mcp_newton_minfb' && siconos=1
solvers=fb_newton,lemke
[ $siconos = 1 ] && solvers=$solvers,siconos_mcp_newton_minfb
A=(-problem ncp_disc_roll,ncp_disc_rand,mcp_siconos10,ncp_mixed12 -cp_solver $solvers -seeds 2 -repeats 2 -quiet -no_plots)
for n in 1 2; do mpi $n "$drv" -out "$tmp/r$n" "${A[@]}" >"$tmp/r$n.log" 2>&1; echo $? >"$tmp/r$n.rc"; done
check "1 and 2 ranks exit 0" '[ "$(cat $tmp/r1.rc $tmp/r2.rc | tr -d "\n")" = 00 ]'
check "2 ranks: identical tasks.csv except timing/rank/host" \
  '[ -s $tmp/r1/tasks.csv ] && diff <(keep $tmp/r1/tasks.csv) <(keep $tmp/r2/tasks.csv) >/dev/null'
for p in ncp_disc_roll ncp_disc_rand mcp_siconos10 ncp_mixed12; do
  check "$p: fb_newton converged on both seeds" '[ "$(csv_distinct $tmp/r1/tasks.csv $p fb_newton status)" = "converged " ]'
  check "$p: lemke (no callback problems) not_applicable" '[ "$(csv_distinct $tmp/r1/tasks.csv $p lemke status)" = "not_applicable " ]'
done
check "n: 11 for the disc, 10 for Siconos' MCP, 12 for ncp_mixed12" \
  '[ "$(csv_distinct $tmp/r1/tasks.csv ncp_disc_roll fb_newton n)$(csv_distinct $tmp/r1/tasks.csv mcp_siconos10 fb_newton n)$(csv_distinct $tmp/r1/tasks.csv ncp_mixed12 fb_newton n)" = "11 10 12 " ]'
if [ $siconos = 1 ]; then
  check "siconos_mcp_newton_minfb converged on the rolling disc and Siconos' MCP test" \
    '[ "$(csv_distinct $tmp/r1/tasks.csv ncp_disc_roll siconos_mcp_newton_minfb status)$(csv_distinct $tmp/r1/tasks.csv mcp_siconos10 siconos_mcp_newton_minfb status)" = "converged converged " ]'
else
  skip "siconos_mcp_*: built without Siconos numerics"
fi
"$drv" -options_file bench/experiments/solvers_ncp.opts -dry_run -out "$tmp/d" >"$tmp/d.log" 2>&1
rc=$?
check "the solvers_ncp preset is valid (-dry_run exits 0)" '[ $rc = 0 ]'
