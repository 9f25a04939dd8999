#!/usr/bin/env bash
# test_cpsolve.sh — bin/cpsolve as a user runs it: output rows, exit codes 0 / 1 / 2, messages naming the
# file and line, -write round trip, unknown solver names listing the valid ones.
set -u
bin=${CB_BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../lib.sh"
expect() { # expect RC DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then pass "$what (exit $rc)"; else fail "$what: exit $rc, wanted $want: $(head -c 300 "$tmp/err")"; fi
}
printf '2\n2 1\n1 2\n-5 -6\n' >"$tmp/good.txt"
expect 0 "solves a plain LCP" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs -format csv
grep -q '^solver,status,iterations,residual,seconds,n,scale,scaled_residual$' "$tmp/out" && pass "csv header" || fail "csv header"
grep -q '^pgs,converged,[0-9]*,[0-9.e+-]*,[0-9.e+-]*,2,6.000000e+00,[0-9.e+-]*$' "$tmp/out" && pass "csv row for pgs" || fail "csv row: $(cat "$tmp/out")"
expect 0 "-cp_solver all" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver all
rows=$(grep -c -E '^[a-z_]+ +(converged|max_iterations|ray_termination|line_search_failure|nan_or_inf|time_limit|not_applicable|numerical_failure|infeasible) ' "$tmp/out")
nsolvers=$("$bin/cpsolve" -help | grep -c -E '^  [a-z_]+ +(lcp|mlcp|box_mcp|ncp|fc)')
[ "$rows" -ge 2 ] && [ "$rows" = "$nsolvers" ] && pass "all: one row per registered solver ($rows)" || fail "all: $rows rows for $nsolvers solvers"
expect 0 "-print_solution and -write" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs -print_solution -write "$tmp/copy.txt" -cp_tol 1e-12
grep -q '^# pgs z = 1.333333333' "$tmp/out" && pass "solution printed" || fail "solution: $(cat "$tmp/out")"
expect 0 "written file reads back" -- "$bin/cpsolve" -f "$tmp/copy.txt" -cp_solver pgs
expect 1 "pgs hits -cp_max_it 1: nothing converged" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs -cp_max_it 1 -cp_tol 1e-14
grep -q 'max_iterations' "$tmp/out" && pass "status max_iterations reported" || fail "status: $(cat "$tmp/out")"
printf '2\n0 1\n1 0\n-1 -1\n' >"$tmp/zero_diag.txt"
expect 1 "zero diagonal: pgs not applicable" -- "$bin/cpsolve" -f "$tmp/zero_diag.txt" -cp_solver pgs
grep -q 'not_applicable' "$tmp/out" && pass "not_applicable reported" || fail "status: $(cat "$tmp/out")"
expect 2 "missing -f" -- "$bin/cpsolve"
expect 2 "missing file" -- "$bin/cpsolve" -f "$tmp/nope.txt"
grep -q "nope.txt: cannot open" "$tmp/err" && pass "message names the missing file" || fail "message: $(cat "$tmp/err")"
printf '2\n2 1\n1 x\n-5 -6\n' >"$tmp/bad.txt"
expect 2 "non-number" -- "$bin/cpsolve" -f "$tmp/bad.txt"
grep -q "bad.txt:3: row 2 of M: 'x' is not a number" "$tmp/err" && pass "message names file, line and problem" || fail "message: $(cat "$tmp/err")"
printf '3\n1 0 0\n0 1 0\n' >"$tmp/trunc.txt"
expect 2 "truncated file" -- "$bin/cpsolve" -f "$tmp/trunc.txt"
printf '2\n2 1\n1 2\n-5 NaN\n' >"$tmp/nan.txt"
expect 2 "NaN in q" -- "$bin/cpsolve" -f "$tmp/nan.txt"
printf '3\n2 1\n1 2\n-5 -6\n' >"$tmp/counts.txt"
expect 2 "wrong counts" -- "$bin/cpsolve" -f "$tmp/counts.txt"
expect 2 "unknown solver" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs,nosuch
grep -q "nosuch.*valid: .*pgs" "$tmp/err" && pass "unknown solver lists the valid ones" || fail "message: $(cat "$tmp/err")"
expect 2 "bad -format" -- "$bin/cpsolve" -f "$tmp/good.txt" -format xml
expect 2 "bad -input_format" -- "$bin/cpsolve" -f "$tmp/good.txt" -input_format foo
expect 2 "negative tolerance" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_tol -1
expect 0 "-help" -- "$bin/cpsolve" -help
grep -q "pgs" "$tmp/out" && pass "-help lists the solver table" || fail "-help output"
# Declared options: a misspelt or unused option, a malformed number, an option of a solver not run.
expect 2 "misspelt solver option" -- "$bin/cpsolve" -f "$tmp/good.txt" -lemke_pivto_tol 1e-9
grep -q "error: -lemke_pivto_tol is not an option of this run (did you mean -lemke_pivot_tol?)" "$tmp/err" &&
  pass "typo named with the nearest option" || fail "message: $(cat "$tmp/err")"
expect 2 "option of a solver not selected" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver lemke -pgs_omega 1.1
grep -q -- "-pgs_omega is an option of solver pgs, which this run does not use" "$tmp/err" &&
  pass "unselected solver's option named with its solver" || fail "message: $(cat "$tmp/err")"
expect 2 "malformed -cp_tol" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs -cp_tol abc
grep -q -- "-cp_tol: 'abc' is not a number" "$tmp/err" && pass "-cp_tol abc named" || fail "message: $(cat "$tmp/err")"
expect 2 "malformed -cp_max_it" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs -cp_max_it 3x
grep -q -- "-cp_max_it: '3x' is not a whole number" "$tmp/err" && pass "-cp_max_it 3x named" || fail "message: $(cat "$tmp/err")"
expect 2 "out-of-range solver option" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver psor -psor_omega 2.5
grep -q -- "-psor_omega 2.5: out of range" "$tmp/err" && pass "-psor_omega 2.5 named" || fail "message: $(cat "$tmp/err")"
expect 0 "a PETSc option of a selected TAO solver is read" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver tao_ssils -tao_ssils_tao_max_it 50
expect 2 "a PETSc option of a TAO solver not selected" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver pgs -tao_ssils_tao_max_it 50
expect 0 "-cp_solver all,lemke runs each once" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver all,lemke,pgs
[ "$(grep -c '^lemke ' "$tmp/out")" = 1 ] && pass "lemke listed once" || fail "rows: $(cat "$tmp/out")"
expect 0 "-help with solvers" -- "$bin/cpsolve" -help -cp_solver lemke
grep -q -- "-lemke_pivot_tol <real>" "$tmp/out" && grep -q -- "-cp_tol <real>" "$tmp/out" &&
  ! grep -q -- "-log_view" "$tmp/out" && pass "-help: own, harness and lemke options, not PETSc's" ||
  fail "-help output: $(head -c 400 "$tmp/out")"
# A library that aborts on its own errors must not take the other solvers' rows with it: GLPK's "invalid
# scale factor" on data near DBL_MAX (milp's MIP, enum's face LPs) becomes numerical_failure with its text.
printf '2\n1e200 -1e200\n-1e200 1e200\n-1e200 1e200\n' >"$tmp/glpk_scale.txt"
expect 0 "GLPK error in milp: lemke still converges" -- "$bin/cpsolve" -f "$tmp/glpk_scale.txt" -cp_solver milp,lemke
grep -q '^milp  *numerical_failure' "$tmp/out" && pass "milp: numerical_failure" || fail "milp row: $(cat "$tmp/out")"
grep -q '^# milp: GLPK error: glp_set_rii.*invalid scale factor' "$tmp/out" && pass "milp: GLPK's message" || fail "milp message: $(cat "$tmp/out")"
grep -q '^lemke  *converged' "$tmp/out" && pass "lemke row after milp's GLPK error" || fail "lemke row: $(cat "$tmp/out")"
printf '3\n0 -1 -1e200\n1 0 0\n-1 0 0\n-0.0001 -1 1\n' >"$tmp/glpk_face.txt"
expect 1 "GLPK error in enum's face LP: no abort" -- "$bin/cpsolve" -f "$tmp/glpk_face.txt" -cp_solver enum,lemke,milp
grep -q '^enum  *numerical_failure' "$tmp/out" && pass "enum: numerical_failure" || fail "enum row: $(cat "$tmp/out")"
grep -q '^# enum: .*GLPK error: glp_set_sjj.*invalid scale factor' "$tmp/out" && pass "enum: GLPK's message" || fail "enum message: $(cat "$tmp/out")"
grep -q '^lemke ' "$tmp/out" && grep -q '^milp ' "$tmp/out" && pass "rows after enum's GLPK error" || fail "rows: $(cat "$tmp/out")"
# Badly scaled data: the tolerance's scale is capped at 1e8, so a residual of 4e262 beside ||q|| = 3e271 is
# not converged (it was: 1e-8 x 3e271), while an exact answer still is.
printf '2\n1 0\n0 1\n-3e271 -1\n' >"$tmp/huge_q.txt"
expect 1 "||q|| = 3e271: psor's 17-sweep iterate is not converged" -- "$bin/cpsolve" -f "$tmp/huge_q.txt" -cp_solver psor -cp_max_it 17 -format csv
grep -q '^psor,max_iterations,17,[0-9.]*e+262,[0-9.e+-]*,2,1.000000e+08,[0-9.]*e+254$' "$tmp/out" && pass "capped scale and scaled residual in the row" || fail "row: $(cat "$tmp/out")"
grep -q '^# psor: badly scaled: ||q||_inf 3e+271, judged on scale 1e+08' "$tmp/out" && pass "badly scaled message" || fail "message: $(cat "$tmp/out")"
expect 0 "||q|| = 3e271: pgs's exact answer converges" -- "$bin/cpsolve" -f "$tmp/huge_q.txt" -cp_solver pgs -format csv
# Hostile files: refused with a reason (exit 2), never by running out of memory.
expect 2 "/dev/zero" -- "$bin/cpsolve" -f /dev/zero
grep -q "/dev/zero: binary data (NUL byte)" "$tmp/err" && pass "/dev/zero: NUL byte message" || fail "message: $(cat "$tmp/err")"
expect 2 "a directory" -- "$bin/cpsolve" -f "$tmp"
grep -q "is a directory" "$tmp/err" && pass "directory message" || fail "message: $(cat "$tmp/err")"
printf '100000\n1 2\n3 4\n' >"$tmp/huge_n.txt"
expect 2 "header n = 100000 over two lines" -- "$bin/cpsolve" -f "$tmp/huge_n.txt"
grep -q "huge_n.txt:1: n = 100000 needs a 80 GB dense matrix" "$tmp/err" && pass "huge n message" || fail "message: $(cat "$tmp/err")"
printf '1\n1e-320\n-1e-320\n' >"$tmp/subnormal.txt"
expect 0 "subnormals read, written and read back" -- "$bin/cpsolve" -f "$tmp/subnormal.txt" -cp_solver pgs -write "$tmp/subnormal2.txt"
expect 0 "subnormal file written by -write reads back" -- "$bin/cpsolve" -f "$tmp/subnormal2.txt" -cp_solver pgs
printf '2\n2 1\033[31m\n1 2\n-5 -6\n' >"$tmp/ctl.txt"
expect 2 "control bytes in a number" -- "$bin/cpsolve" -f "$tmp/ctl.txt"
grep -qF "'1\x1b[31m' is not a number" "$tmp/err" && ! grep -q $'\033' "$tmp/err" && pass "control bytes escaped" || fail "message: $(od -c "$tmp/err" | head -3)"
printf '\357\273\2772\n2 1\n1 2\n-5 -6\n' >"$tmp/bom.txt"
expect 0 "a leading UTF-8 BOM is skipped" -- "$bin/cpsolve" -f "$tmp/bom.txt" -cp_solver lemke
# Siconos cannot be interrupted: with -cp_time_limit its call runs in a child killed at the limit.
if "$bin/cpsolve" -help | grep -q '^  siconos_lemke '; then
  awk -v n=800 'BEGIN{print n; for(i=0;i<n;i++){s=""; for(j=0;j<n;j++){v=(i==j)?n:((i*7+j*13)%10)/10; s=s (j?" ":"") v}; print s}
    s=""; for(j=0;j<n;j++) s=s (j?" ":"") "-1"; print s}' >"$tmp/slow800.txt"
  expect 1 "siconos_lemke under -cp_time_limit 0.3 on n = 800" -- "$bin/cpsolve" -f "$tmp/slow800.txt" -cp_solver siconos_lemke -cp_time_limit 0.3 -format csv
  secs=$(awk -F, '$1=="siconos_lemke"{print $5}' "$tmp/out")
  grep -q '^siconos_lemke,time_limit,' "$tmp/out" && awk -v s="$secs" 'BEGIN{exit !(s >= 0.3 && s < 1.5)}' &&
    pass "siconos_lemke: time_limit after ${secs} s" || fail "siconos_lemke time limit: $(cat "$tmp/out")"
  grep -q 'killed at the time limit 0.3 s' "$tmp/out" && pass "siconos_lemke: time limit message" || fail "message: $(cat "$tmp/out")"
  expect 0 "siconos_lemke through the child process still converges" -- "$bin/cpsolve" -f "$tmp/good.txt" -cp_solver siconos_lemke,siconos_enum -cp_time_limit 30 -print_solution -cp_tol 1e-12
  grep -q '^siconos_lemke  *converged  *2 ' "$tmp/out" && grep -q '^# siconos_lemke z = 1.333333333' "$tmp/out" &&
    grep -q '^siconos_enum  *converged' "$tmp/out" && pass "siconos: z comes back from the child" || fail "rows: $(cat "$tmp/out")"
  # Siconos' own outcome: a ray (4.4 says info 0 there; its error check and the point it returns tell)
  printf '2\n0 -1\n1 0\n-1 -1\n' >"$tmp/ray.txt"
  expect 1 "siconos_lemke on a ray" -- "$bin/cpsolve" -f "$tmp/ray.txt" -cp_solver siconos_lemke
  grep -q '^siconos_lemke  *ray_termination' "$tmp/out" && grep -q 'without a complementary basis.*a ray' "$tmp/out" &&
    pass "siconos_lemke: ray_termination with Siconos' reason" || fail "ray: $(cat "$tmp/out")"
  expect 1 "siconos_lemke at its pivot limit" -- "$bin/cpsolve" -f "$tmp/slow800.txt" -cp_solver siconos_lemke -cp_max_it 3
  grep -q '^siconos_lemke  *max_iterations  *3 ' "$tmp/out" && grep -q 'pivot limit 3 reached' "$tmp/out" &&
    pass "siconos_lemke: max_iterations at -cp_max_it" || fail "pivot limit: $(cat "$tmp/out")"
else
  pass "skipped: built without Siconos"
fi
