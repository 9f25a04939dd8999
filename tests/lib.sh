# lib.sh — what the shell tests share (sourced, not run): "ok - ...", "not ok - ..." and "skip - ..." lines
# that tests/run.sh counts, a check on an expression, mpirun with oversubscription, and tasks.csv without
# the columns that may differ between runs of the same sweep.
pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
# skip REASON: a check that could not run here (no root, no data); counted apart, never as a pass
skip() { echo "skip - $*"; }
# check NAME EXPR: EXPR is eval'd; returns 1 when it fails, so a caller may stop a dependent sequence
check() { if eval "$2"; then pass "$1"; else fail "$1"; return 1; fi; }
mpi() { local n=$1; shift; mpirun --oversubscribe -n "$n" "$@"; }
# csv_col FILE NAME: the number of FILE's column NAME (from its header; empty when there is none)
csv_col() { head -1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
# csv_values FILE NAME: the values of column NAME, one line per row. Both split at every comma: for the
# columns before a quoted, comma-holding one (the engine's message column)
csv_values() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"; }
# csv_distinct FILE PROBLEM SOLVER NAME: column NAME's distinct values over the rows of (problem, solver), each
# followed by a space
csv_distinct() {
  awk -F, -v p="$2" -v s="$3" -v c="$4" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    $h["problem"] == p && $h["solver"] == s { print $h[c] }' "$1" | sort -u | tr '\n' ' '
}
# tasks.csv without the columns that may differ between runs (timing, rank, host)
keep() { awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i!~/_seconds$/ && $i!="rank" && $i!="host") k[i]=1}
  {s=""; for(i=1;i<=NF;i++) if(k[i]) s=s $i ","; print s}' "$1"; }
