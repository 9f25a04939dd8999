#!/usr/bin/env bash
# test_corpus_faults.sh — the problem corpus under faults, end to end. A capture onto a full disk (a 2 MB
# tmpfs; skipped where it cannot be mounted) stops the run with exit 1 naming the file, and the file keeps
# every problem committed before, each replaying. A second capture into a file being written is refused
# (exit 2, naming the file and the other writer) with HDF5's file locking on or off; a writer killed with
# SIGKILL leaves a stale lock the next capture takes. -merge is all or nothing (a bad input or a file size
# limit half-way leaves no output and no temporary file; an existing output unchanged) and refuses one file
# given twice (the output among the inputs; an input twice by name, hard link or symbolic link). Flipped
# bytes (every byte of the first 512, then every 1499th) never crash, hang or bloat the reader; a table
# extended to 10^6 rows and a problem of n = 20000 neither. A shifted n and a NaN are one corrupt_input row
# each, no solver's failure. A problem named with a comma or a newline is corrupt (the character named, in
# run_text_check's words), left out of a replay and a -merge. -export_siconos refuses an escaping name (naming the character), a target that
# is a link or not empty, and writes all or nothing (exit 1 naming the file on a full disk). bench_corpus's
# own runs go to results/corpus_replay/, results/corpus/ untouched.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib.sh"
tmp=$(mktemp -d)
mnt="$tmp/full"
cleanup() {
  mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
  rm -rf "$tmp"
}
trap cleanup EXIT
inc="$CB_BIN/bench_incline" cor="$CB_BIN/bench_corpus" fuzz="$CB_BIN/corpus_fuzz"
q="-quiet -no_plots"
run="-theta 20,30 -mu 0.3 -h 1e-3 -formulation stewart_trinkle -cp_solver lemke -dim 3 $q -cp_capture_max 1000000"
count() { "$cor" -info "$1" 2>/dev/null | head -1 | awk '{print $2}'; }
# rows of a replay's tasks.csv with status $2
rows() { local s=$(csv_col "$1" status); awk -F, -v s="$s" -v w="$2" 'NR > 1 && $s == w' "$1" | wc -l; }

# ---- a full disk ----
mkdir "$mnt"
if mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
  "$inc" $run -t_end 20 -out "$tmp/f1" -cp_capture "$mnt/cap.h5" >"$tmp/out" 2>&1
  check "full disk: the run exits 1" '[ $? = 1 ]' || sed 's/^/# /' "$tmp/out"
  check "full disk: the message names the file and says there is no room" \
    'grep -q "error: -cp_capture: $mnt/cap.h5: no room" "$tmp/out"'
  held=$(sed -n 's/.*it holds the \([0-9]*\) problems committed.*/\1/p' "$tmp/out" | head -1)
  n=$(count "$mnt/cap.h5")
  check "full disk: the file opens and holds the $held problems committed before ($n)" \
    '[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" = "$held" ]'
  "$cor" -corpus "$mnt/cap.h5" -cp_solver lemke -repeats 1 -out "$tmp/f1r" $q >/dev/null 2>&1
  check "full disk: every problem in it replays and converges" '[ "$(rows "$tmp/f1r/tasks.csv" converged)" = "$n" ]'
  umount "$mnt"
else
  skip "full disk: cannot mount a tmpfs here (not root?)"
fi

# ---- two writers ----
two_writers() { # FALSE|default: a capture while another writes the same file, HDF5's file locking off / on
  local f="$tmp/two_$1.h5"
  if [ "$1" = FALSE ]; then export HDF5_USE_FILE_LOCKING=FALSE; else unset HDF5_USE_FILE_LOCKING; fi
  "$inc" ${run/-theta 20,30/-theta 20} -t_end 150 -cp_capture_every 20 -out "$tmp/w_$1" -cp_capture "$f" \
    >/dev/null 2>&1 &
  local first=$!
  for _ in $(seq 100); do [ -e "$f.lock" ] && break; sleep 0.1; done
  "$CB_BIN/bench_triangle_drop" -h 0.001 -t_end 0.2 -cp_solver lemke $q -out "$tmp/w2_$1" \
    -cp_capture "$f" >"$tmp/out" 2>&1
  check "HDF5 file locking $1: a second capture into the same file is refused (exit 2)" '[ $? = 2 ]' ||
    sed 's/^/# /' "$tmp/out"
  check "HDF5 file locking $1: the message names the file and the other writer" \
    'grep -q "$f is being written by another writer (host .*, pid [0-9]*; lock $f.lock)" "$tmp/out"'
  writer=$(sed -n 's/.*pid \([0-9]*\).*/\1/p' "$f.lock")
  kill -9 "$writer" "$first" 2>/dev/null
  wait "$first" 2>/dev/null
  unset HDF5_USE_FILE_LOCKING
}
two_writers FALSE
two_writers default
f="$tmp/two_default.h5"
check "a writer killed with SIGKILL leaves its lock file" '[ -e "$f.lock" ]'
before=$(count "$f")
"$CB_BIN/bench_triangle_drop" -h 0.001 -t_end 0.2 -cp_solver lemke $q -out "$tmp/w3" -cp_capture "$f" >"$tmp/out" 2>&1
rc=$?
check "the next capture takes the stale lock and appends ($before, then $(count "$f") problems)" \
  '[ $rc = 0 ] && [ "$(count "$f")" -gt "${before:-0}" ] && [ ! -e "$f.lock" ]' || sed 's/^/# /' "$tmp/out"

# ---- a small corpus: linear (dense and CSR, LCP and MLCP) and callback problems ----
"$inc" -theta 20 -mu 0.3 -h 1e-2 -t_end 0.05 -formulation stewart_trinkle,anitescu_potra -cp_solver lemke -dim 2 $q \
  -out "$tmp/s1" -cp_capture "$tmp/lin.h5" >/dev/null 2>&1
"$CB_BIN/bench_rolling_disc" -N 0 -h 0.01 -formulation geometric_implicit -cp_solver fb_newton -t_end 0.03 $q \
  -out "$tmp/s2" -cp_capture "$tmp/cb.h5" >/dev/null 2>&1
"$cor" -merge "$tmp/small.h5" "$tmp/lin.h5" "$tmp/cb.h5" >/dev/null 2>&1
check "a small corpus of 13 problems" '[ "$(count "$tmp/small.h5")" = 13 ]'

# ---- -merge ----
m="$tmp/m"
mkdir "$m"
head -c 3000 "$tmp/lin.h5" >"$m/trunc.h5"
"$cor" -merge "$m/out.h5" "$tmp/lin.h5" "$m/trunc.h5" >"$tmp/out" 2>&1
check "-merge with a bad second input: exit 2, no output, no temporary file" \
  '[ $? = 2 ] && [ -z "$(ls -A "$m" | grep -v trunc.h5)" ]' || sed 's/^/# /' "$tmp/out"
cp "$tmp/lin.h5" "$m/out.h5"
cp "$m/out.h5" "$m/keep.h5"
"$cor" -merge "$m/out.h5" "$tmp/cb.h5" "$m/trunc.h5" >/dev/null 2>&1
check "-merge into an existing file that fails half-way: exit 2, the file unchanged" \
  '[ $? = 2 ] && cmp -s "$m/out.h5" "$m/keep.h5" && [ "$(ls -A "$m" | wc -l)" = 3 ]'
"$cor" -merge "$m/out.h5" "$m/out.h5" >"$tmp/out" 2>&1
check "-merge of a file into itself: refused (exit 2), the file unchanged" \
  '[ $? = 2 ] && grep -q "also an input" "$tmp/out" && cmp -s "$m/out.h5" "$m/keep.h5"'
ln "$tmp/cb.h5" "$m/hard.h5"
ln -s "$tmp/cb.h5" "$m/soft.h5"
for twice in "$tmp/cb.h5" "$m/hard.h5" "$m/soft.h5"; do
  "$cor" -merge "$m/twice.h5" "$tmp/cb.h5" "$twice" >"$tmp/out" 2>&1
  rc=$? # (the name below is a command substitution: it would reset $?)
  check "-merge of an input given twice ($(basename "$twice")): refused (exit 2), no output" \
    '[ $rc = 2 ] && grep -q "are the same file" "$tmp/out" && [ ! -e "$m/twice.h5" ]'
done
(
  ulimit -f 300
  trap '' XFSZ
  "$cor" -merge "$m/out.h5" "$tmp/cb.h5" "$tmp/small.h5"
) >"$tmp/out" 2>&1
check "-merge under a file size limit: exit 1 naming the output, the file unchanged, no temporary file" \
  '[ $? = 1 ] && grep -q "ulimit -f" "$tmp/out" && cmp -s "$m/out.h5" "$m/keep.h5" && [ -z "$(ls -A "$m" | grep merge)" ]' ||
  sed 's/^/# /' "$tmp/out"
"$cor" -merge "$m/out.h5" "$tmp/cb.h5" >/dev/null 2>&1
check "-merge into an existing file: its 10 problems and the 3 added" '[ $? = 0 ] && [ "$(count "$m/out.h5")" = 13 ]'

# ---- damaged files: flipped bytes, sizes, corrupt problems ----
"$fuzz" -flip "$tmp/small.h5" -to 512 -seconds 5 >"$tmp/fz1" 2>&1
ok1=$?
"$fuzz" -flip "$tmp/small.h5" -from 512 -every 1499 -seconds 5 >"$tmp/fz2" 2>&1
ok2=$?
sed 's/^/# /' "$tmp/fz1" "$tmp/fz2" | grep "runs"
check "flipped bytes: no crash, hang or bloat of the reader (open, read, rebuild, -info, -merge, -export)" \
  '[ $ok1 = 0 ] && [ $ok2 = 0 ] && grep -q " 0 crashes, 0 hangs, 0 over" "$tmp/fz1" && grep -q " 0 crashes, 0 hangs" "$tmp/fz2"' ||
  grep -v "^corpus_fuzz" "$tmp/fz1" "$tmp/fz2" | head | sed 's/^/# /'
"$fuzz" -craft extend "$tmp/lin.h5" "$tmp/ext.h5" && "$fuzz" -craft extend_old "$tmp/lin.h5" "$tmp/ext_old.h5"
/usr/bin/time -f "%M" -o "$tmp/mem" "$cor" -info "$tmp/ext.h5" >"$tmp/out" 2>&1
check "a table extended to 10^6 rows: -info lists the 10 committed problems, says so, in under 200 MB ($(cat "$tmp/mem") kB)" \
  '[ "$(count "$tmp/ext.h5")" = 10 ] && grep -q "999990 table rows past the committed ones" "$tmp/out" && [ "$(cat "$tmp/mem")" -lt 200000 ]'
"$cor" -info "$tmp/ext_old.h5" >"$tmp/out" 2>&1
check "the same without committed sizes: exit 2, the table claims more rows than the file stores" \
  '[ $? = 2 ] && grep -q "claims 1000000 rows" "$tmp/out"'
"$fuzz" -craft huge_n "$tmp/lin.h5" "$tmp/huge.h5"
/usr/bin/time -f "%M" -o "$tmp/mem" "$cor" -corpus "$tmp/huge.h5" -cp_solver lemke -repeats 1 -task_fork 0 \
  -out "$tmp/hr" $q >"$tmp/out" 2>&1
rc=$?
check "a problem whose n says 20000: one corrupt_input row, the replay in under 300 MB ($(cat "$tmp/mem") kB)" \
  '[ $rc = 0 ] && [ "$(rows "$tmp/hr/tasks.csv" corrupt_input)" = 1 ] && [ "$(cat "$tmp/mem")" -lt 300000 ]'
"$fuzz" -craft shifted_n@2 "$tmp/small.h5" "$tmp/bad1.h5" && "$fuzz" -craft nan@7 "$tmp/bad1.h5" "$tmp/bad.h5"
"$cor" -corpus "$tmp/small.h5" -cp_solver lemke,pgs,fb_newton -repeats 1 -out "$tmp/good" $q >/dev/null 2>&1
"$cor" -corpus "$tmp/bad.h5" -cp_solver lemke,pgs,fb_newton -repeats 1 -out "$tmp/bad" $q >"$tmp/out" 2>&1
check "a shifted n and a NaN: the replay exits 0" '[ $? = 0 ]' || sed 's/^/# /' "$tmp/out"
p=$(csv_col "$tmp/bad/tasks.csv" problem) s=$(csv_col "$tmp/bad/tasks.csv" status) v=$(csv_col "$tmp/bad/tasks.csv" solver)
damaged=$(awk -F, -v s=$s -v p=$p '$s == "corrupt_input" { print $p "," }' "$tmp/bad/tasks.csv")
check "each damaged problem is one corrupt_input row (the first solver's), its others not_applicable" \
  '[ "$(awk -F, -v s=$s -v v=$v '"'"'$s == "corrupt_input" { print $v }'"'"' "$tmp/bad/tasks.csv" | sort -u)" = lemke ] &&
   [ "$(rows "$tmp/bad/tasks.csv" corrupt_input)" = 2 ] && [ "$(rows "$tmp/bad/tasks.csv" nan_or_inf)" = 0 ]'
check "their messages say what is damaged (bounds of an LCP row; a NaN in q)" \
  'grep corrupt_input "$tmp/bad/tasks.csv" | grep -q "shifted data" && grep corrupt_input "$tmp/bad/tasks.csv" | grep -q "q\[0\] = nan"'
check "the other problems' rows are the clean corpus's" \
  '[ -n "$damaged" ] && [ "$(keep "$tmp/bad/tasks.csv" | grep -v -F "$damaged")" = "$(keep "$tmp/good/tasks.csv" | grep -v -F "$damaged")" ]'
check "summary.md: the corrupt_input rows are no failure, left out of the success rates" \
  'grep -q "2 corrupt_input tasks (damaged input, no method.s failure) are left out" "$tmp/bad/summary.md" &&
   ! grep -q "[0-9] corrupt_input[,)]" "$tmp/bad/summary.md"'

# ---- names that would break a table row, a -problem list or a path ----
# a corpus whose problem is named with a comma or a newline: the problem is corrupt (named by -info with the
# character, in run_text_check's words), left out of a replay and of a -merge with a note; the others stay
"$fuzz" -craft "name=a,b" "$tmp/lin.h5" "$tmp/comma.h5"
"$fuzz" -craft "name=a"$'\n'"b" "$tmp/lin.h5" "$tmp/newline.h5"
"$cor" -info "$tmp/comma.h5" >"$tmp/out" 2>&1
check "-info: a name with a comma is corrupt, naming the character and where" \
  'grep -q "corrupt: problem 0: its name has a comma (the run.s tables are comma-separated) at character 2 of .a,b." "$tmp/out"'
"$cor" -info "$tmp/newline.h5" >"$tmp/out" 2>&1
check "-info: a name with a newline is corrupt, shown on one line" \
  'grep -q "corrupt: problem 0: its name has a newline at character 2 of .a?b." "$tmp/out"'
"$cor" -corpus "$tmp/newline.h5" -cp_solver lemke -repeats 1 -out "$tmp/nlr" $q >/dev/null 2>"$tmp/out"
check "replay: the newline-named problem left out with a note, no row of it, the other 9 converge" \
  '[ $? = 0 ] && grep -q "left out of the replay: corrupt: its name has a newline" "$tmp/out" &&
   [ "$(rows "$tmp/nlr/tasks.csv" converged)" = 9 ] && [ "$(tail -n +2 "$tmp/nlr/tasks.csv" | wc -l)" = 9 ]'
"$cor" -merge "$tmp/names.h5" "$tmp/comma.h5" >"$tmp/out" 2>&1
check "-merge: the comma-named problem left out with a note; the output holds the other 9" \
  '[ $? = 0 ] && grep -q "left out: corrupt: its name has a comma" "$tmp/out" && [ "$(count "$tmp/names.h5")" = 9 ]'
"$cor" -merge "$tmp/names2.h5" "$tmp/newline.h5" >"$tmp/out" 2>&1
check "-merge: the note on the newline-named problem is one line, the name shown as a?b" \
  '[ $? = 0 ] && [ "$(grep -c "left out" "$tmp/out")" = 1 ] && grep -q "problem 0 (a?b) left out: corrupt: its name has a newline" "$tmp/out"'

# ---- -export_siconos ----
e="$tmp/e/a/b"
mkdir -p "$e"
"$fuzz" -craft "name=../../x" "$tmp/lin.h5" "$e/esc.h5"
"$cor" -corpus "$e/esc.h5" -export_siconos "$e/dat" >"$tmp/out" 2>&1
check "-export_siconos: a name that would leave the folder is refused, naming the character; nothing outside" \
  '[ $? = 0 ] && grep -q "a ./. (a name is one folder) at character 3 of .../../x" "$tmp/out" &&
   [ "$(find "$tmp/e" -name "x_*" | wc -l)" = 0 ] &&
   [ "$(ls "$e/dat" | wc -l)" = 9 ]' || sed "s/^/# /" "$tmp/out"
mkdir "$e/sl"
touch "$tmp/victim"
ln -s "$tmp/victim" "$e/sl/incline_task0_step2_lcp.dat"
"$cor" -corpus "$tmp/lin.h5" -export_siconos "$e/sl" >"$tmp/out" 2>&1
check "-export_siconos into a folder holding a link: refused (exit 2), the link's target untouched" \
  '[ $? = 2 ] && grep -q "not empty" "$tmp/out" && [ ! -s "$tmp/victim" ]'
ln -s "$e/dat" "$e/link"
"$cor" -corpus "$tmp/lin.h5" -export_siconos "$e/link" >"$tmp/out" 2>&1
check "-export_siconos to a link: refused (exit 2)" '[ $? = 2 ] && grep -q "symbolic link" "$tmp/out"'
if mount -t tmpfs -o size=8k tmpfs "$mnt" 2>/dev/null; then
  "$cor" -corpus "$tmp/lin.h5" -export_siconos "$mnt/dat" >"$tmp/out" 2>&1
  check "-export_siconos onto a full disk: exit 1 naming the file, nothing left" \
    '[ $? = 1 ] && grep -q "$mnt/dat/.*: write failed: No space left" "$tmp/out" && [ -z "$(ls -A "$mnt")" ]' ||
    sed 's/^/# /' "$tmp/out"
  umount "$mnt"
else
  skip "-export_siconos onto a full disk: cannot mount a tmpfs here (not root?)"
fi

# ---- where bench_corpus's runs go ----
mkdir -p "$tmp/repo/results/corpus"
cp "$tmp/lin.h5" "$tmp/repo/results/corpus/corpus.h5"
(cd "$tmp/repo" && "$cor" -cp_solver lemke -repeats 1 $q >/dev/null 2>&1)
check "bench_corpus without -out: its run in results/corpus_replay/, results/corpus/ untouched" \
  '[ -e "$tmp/repo/results/corpus_replay/latest/tasks.csv" ] && [ "$(ls -A "$tmp/repo/results/corpus")" = corpus.h5 ]'
