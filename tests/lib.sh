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
# tasks.csv without the columns that may differ between runs (timing, rank, host)
keep() { awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i!~/_seconds$/ && $i!="rank" && $i!="host") k[i]=1}
  {s=""; for(i=1;i<=NF;i++) if(k[i]) s=s $i ","; print s}' "$1"; }
