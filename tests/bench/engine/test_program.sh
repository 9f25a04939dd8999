#!/usr/bin/env bash
# test_program.sh — program start-up (bench/engine/program.c) as users meet it in the tools: options files
# that include themselves or each other, /dev/zero and a FIFO are refused with exit 2 and a message (they
# crashed, ate memory or hung inside PETSc's reader); nothing on the command line is dropped (cpsolve -f
# takes several files, a stray word is named); precedence notes; ~/.petscrc and PETSC_OPTIONS go through
# the same reader; one help per tool, PETSc's only on "-help petsc"; PETSc's runtime options still work;
# under mpirun the messages come once.
set -u
bin=$(cd "${CB_BIN:-bin}" && pwd) # absolute: the test runs in its temporary directory
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../lib.sh"
expect() { # expect RC DESCRIPTION -- command...   (each under a 120 s timeout: a hang is a failure; not a speed
  # check — at a load of 10 on 2 cores `cpsolve -h` once took over 10 s)
  local want=$1 what=$2; shift 3
  timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" = "$want" ]; then pass "$what (exit $rc)"; else fail "$what: exit $rc, wanted $want: $(head -c 400 "$tmp/err")"; fi
}
err_has() { if grep -q -F -- "$2" "$tmp/err"; then pass "$1"; else fail "$1: no '$2' in: $(head -c 400 "$tmp/err")"; fi; }
out_has() { if grep -q -E -- "$2" "$tmp/out"; then pass "$1"; else fail "$1: no /$2/ in: $(head -c 400 "$tmp/out")"; fi; }
cd "$tmp" || exit 1
printf '2\n2 1\n1 2\n-5 -6\n' >a.txt
printf '2\n1 0\n0 1\n-1 -1\n' >b.txt
c="$bin/cpsolve"

# 1. options files PETSc's reader crashed on, ate memory with or waited on forever
echo '-options_file cycle.opts' >cycle.opts
expect 2 "a file that includes itself" -- "$c" -f a.txt -options_file cycle.opts
err_has "... the chain is named" "error: cycle.opts:1: options file cycle: cycle.opts -> cycle.opts"
echo '-options_file m2.opts' >m1.opts
printf '# the other half\n-cp_tol 1e-9 -options_file m1.opts\n' >m2.opts
expect 2 "two files that include each other" -- "$c" -f a.txt -options_file m1.opts
err_has "... the chain is named" "error: m2.opts:2: options file cycle: m1.opts -> m2.opts -> m1.opts"
expect 2 "-options_file /dev/zero" -- "$c" -f a.txt -options_file /dev/zero
err_has "... refused before reading" "the options file /dev/zero is a character device, not a regular file"
mkfifo fifo
expect 2 "-options_file FIFO: no hang" -- "$c" -f a.txt -options_file fifo
err_has "... refused" "the options file fifo is a FIFO, not a regular file"
expect 2 "-options_file DIRECTORY" -- "$c" -f a.txt -options_file "$tmp"
truncate -s 17M big.opts
expect 2 "a 17 MiB options file" -- "$c" -f a.txt -options_file big.opts
err_has "... over the cap" "is larger than 16 MiB"
expect 2 "a missing options file" -- "$c" -f a.txt -options_file nope.opts
err_has "... named" "cannot read the options file nope.opts: No such file or directory"
expect 2 "cycles through PETSC_OPTIONS too" -- env PETSC_OPTIONS="-options_file cycle.opts" "$c" -f a.txt

# 2. nothing dropped
expect 0 "cpsolve -f a.txt b.txt solves both" -- "$c" -f a.txt b.txt -cp_solver pgs
[ "$(grep -c '^pgs  *converged' out)" = 2 ] && grep -q '^# a.txt: lcp' out && grep -q '^# b.txt: lcp' out &&
  pass "... one block per file" || fail "blocks: $(cat out)"
mkdir f
for k in 1 2 3; do cp a.txt "f/peg_box2d_task0_step$k.txt"; done
expect 0 "docs/solving.md's replay: -f f/peg_box2d_task0_step*.txt -cp_solver all" -- "$c" -f f/peg_box2d_task0_step*.txt -cp_solver all
[ "$(grep -c '^# peg_box2d_task0_step[123].txt: lcp' out)" = 3 ] && pass "... three blocks" || fail "blocks: $(grep '^#' out)"
expect 0 "-format csv with two files" -- "$c" -f a.txt b.txt -cp_solver pgs,lemke -format csv
out_has "... one header, the file first" '^file,solver,status,iterations,residual,seconds,n,scale,scaled_residual$'
[ "$(grep -c '^file,' out)" = 1 ] && [ "$(grep -c '^b.txt,lemke,converged,' out)" = 1 ] && pass "... rows name their file" ||
  fail "csv: $(cat out)"
expect 0 "-format csv with one file: the columns as before" -- "$c" -f a.txt -cp_solver pgs -format csv
out_has "... no file column" '^solver,status,'
expect 2 "an unreadable file among good ones" -- "$c" -f a.txt nope.txt b.txt -cp_solver pgs
[ "$(grep -c '^pgs  *converged' out)" = 2 ] && pass "... the others are solved" || fail "rows: $(cat out)"
err_has "... it is named" "nope.txt: cannot open"
printf '2\n1 0\n0 1\n1 1\n' >c.txt
expect 0 "every file had a converged solver: exit 0" -- "$c" -f a.txt c.txt -cp_solver lemke
expect 1 "a file with no converged solver: exit 1" -- "$c" -f a.txt a.txt -cp_solver pgs -cp_max_it 1 -cp_tol 1e-14
expect 2 "-write with two files" -- "$c" -f a.txt b.txt -write out.txt
err_has "... refused" "-write takes one problem file, -f gives 2"
expect 2 "a stray word on the command line" -- "$c" -f a.txt -cp_tol 1e-8 1e-9
err_has "... named with the option before it" "error: stray word '1e-9' after -cp_tol 1e-8 (a list is one word: -cp_tol 1e-8,1e-9)"
printf '# tolerances\n-cp_tol 1e-8 1e-9\n' >stray.opts
expect 2 "a stray word in a file" -- "$c" -f a.txt -options_file stray.opts
err_has "... FILE:LINE" "error: stray.opts:2: stray word '1e-9' after -cp_tol 1e-8"
expect 2 "a stray word in bench_compare after the two directories" -- "$bin/bench_compare" A B C
err_has "... named" "stray word 'C': bench_compare takes at most 2 words that are not options"

# 3. precedence: ~/.petscrc < PETSC_OPTIONS < files < the command line, with notes
mkdir home
echo '-cp_tol abc' >home/.petscrc
expect 2 "~/.petscrc is read (strictly)" -- env HOME="$tmp/home" "$c" -f a.txt -cp_solver pgs
err_has "... its bad value named" "-cp_tol: 'abc' is not a number"
expect 0 "-skip_petscrc skips it" -- env HOME="$tmp/home" "$c" -f a.txt -cp_solver pgs -skip_petscrc
echo '-cp_tol 1e-7' >home/.petscrc
echo '-cp_tol 1e-9' >tol.opts
expect 0 "four sources give -cp_tol" -- env HOME="$tmp/home" PETSC_OPTIONS="-cp_tol 1e-6" "$c" -f a.txt -cp_solver pgs \
  -cp_tol 1e-10 -options_file tol.opts -format csv
err_has "... PETSC_OPTIONS over ~/.petscrc" "note: -cp_tol 1e-6 (PETSC_OPTIONS) replaces -cp_tol 1e-7 ($tmp/home/.petscrc:1)"
err_has "... the file over PETSC_OPTIONS" "note: -cp_tol 1e-9 (tol.opts:1) replaces -cp_tol 1e-6 (PETSC_OPTIONS)"
err_has "... the command line over the file" "note: -cp_tol 1e-10 (command line) replaces -cp_tol 1e-9 (tol.opts:1)"
awk -F, '$1 == "pgs" { exit !($4 <= 6e-10) }' out && pass "... the command line's value is used" || fail "row: $(cat out)"
expect 2 "one source giving two values" -- "$c" -f a.txt -cp_solver pgs -cp_solver lemke
err_has "... is ambiguous" "-cp_solver pgs (command line) and -cp_solver lemke (command line)"
expect 2 "PETSC_OPTIONS_YAML is refused" -- env PETSC_OPTIONS_YAML="cp_tol: 1" "$c" -f a.txt
echo 'alias -tol -cp_tol' >alias.opts
expect 2 "alias lines are refused" -- "$c" -f a.txt -options_file alias.opts
expect 2 "-prefix_push is refused" -- "$c" -f a.txt -prefix_push lemke_ -pivot_tol 1e-9

# 4. one help per tool, not PETSc's block
for t in cpsolve bench_compare bench_merge bench_plot bench_grasp_map ah_pyramid; do
  for h in -help --help -h; do
    expect 0 "$t $h" -- "$bin/$t" $h
    grep -q "^$t" out && ! grep -q -i 'petsc release\|Options for all PETSc programs' out &&
      pass "$t $h: its own help only" || fail "$t $h: $(head -3 out)"
  done
done
expect 0 "cpsolve -help petsc" -- "$c" -help petsc
out_has "... PETSc's options" 'Options for all PETSc programs'
out_has "... and cpsolve's" '^cpsolve -f FILE'
expect 0 "ah_pyramid -h 0.01 is the time step, not help" -- "$bin/ah_pyramid" -h 0.01 -mu 0.5
out_has "... h = 0.01" 'at rest, h = 0.01,'

# 5. PETSc's runtime options still reach PETSc; unknown ones are errors
expect 0 "-log_view" -- "$c" -f a.txt -cp_solver pgs -log_view
out_has "... PETSc's summary is printed" 'PETSc Performance Summary'
expect 0 "-malloc_debug -options_left 0" -- "$c" -f a.txt -cp_solver pgs -malloc_debug -options_left 0
expect 2 "a misspelt option in bench_grasp_map" -- "$bin/bench_grasp_map" run -windw 3
err_has "... with the nearest" "error: -windw is not an option of this run (did you mean -window?)"
expect 2 "... in bench_plot" -- "$bin/bench_plot" run -serie solver
err_has "... with the nearest" "(did you mean -series?)"
expect 2 "bench_merge: the word after -no_plots is the run directory" -- "$bin/bench_merge" -no_plots "$tmp/none"
! grep -q usage err && pass "... not a usage error" || fail "$(cat err)"

# 6. under mpirun: every rank reads, rank 0 speaks once
if command -v mpirun >/dev/null; then
  mpi 2 "$c" -f a.txt -cp_tol 1e-8 1e-9 >out 2>err
  [ "$(grep -c "stray word '1e-9'" err)" = 1 ] && pass "2 ranks: the error is printed once" || fail "2 ranks: $(cat err)"
  PETSC_OPTIONS="-cp_tol 1e-6" mpi 2 -x PETSC_OPTIONS "$c" -f a.txt -cp_solver pgs -cp_tol 1e-8 >out 2>err
  [ "$(grep -c "^note: -cp_tol 1e-8" err)" = 1 ] && pass "2 ranks: the note is printed once" || fail "2 ranks: $(cat err)"
else
  skip "mpirun absent"
fi
