#!/usr/bin/env bash
# test_bench_schedule.sh — bin/bench_schedule against schedules worked out by hand (no latency, no service
# time): equal tasks fill the ranks, the longest task bounds the wall, the id order can leave a long task
# last where costliest-first does not, the dispatcher's service time bounds a sweep of tiny tasks, a run
# without tasks.csv replays its summary's group means; and its refusals (exit 2). Then -measure on 2 ranks
# prints a latency and a service time.
set -u
bin=${CB_BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../lib.sh"
sched="$bin/bench_schedule"
run() { # DIR SECONDS...: a run directory whose tasks.csv has these task seconds
  local d=$1 i=0 s
  shift
  mkdir -p "$d"
  echo "task_id,status,task_seconds" >"$d/tasks.csv"
  for s in "$@"; do echo "$i,ok,$s" >>"$d/tasks.csv"; i=$((i + 1)); done
}
# the predicted wall for ranks P (third word of the row of P)
wall() { local d=$1 p=$2; shift 2; "$sched" "$d" -ranks "$p" -latency 0 -service 0 "$@" | awk -v p="$p" '$1 == p { print $2 }'; }
run "$tmp/eq" 1 1 1 1 1 1 1 1
check "8 tasks of 1 s on 2 ranks: 4 s" '[ "$(wall $tmp/eq 2)" = 4 ]'
check "... on 3 ranks: 3 s (3 + 3 + 2 tasks)" '[ "$(wall $tmp/eq 3)" = 3 ]'
check "... on 16 ranks: 1 s, the longest task" '[ "$(wall $tmp/eq 16)" = 1 ]'
row=$("$sched" "$tmp/eq" -ranks 2 -latency 0 -service 0 | awk '$1 == 2')
check "... schedule ratio 1 and efficiency 1 on 2 ranks ($row)" '[ "$(echo $row | cut -d" " -f4,5)" = "1.000 1.000" ]'
run "$tmp/late" 1 1 1 3
check "a 3 s task last in id order, 2 ranks: 4 s" '[ "$(wall $tmp/late 2)" = 4 ]'
check "... costliest first (-order cost): 3 s" '[ "$(wall $tmp/late 2 -order cost)" = 3 ]'
check "-overhead 0.5 per task: 8 tasks of 1 s on 2 ranks take 6 s" '[ "$(wall $tmp/eq 2 -overhead 0.5)" = 6 ]'
# 1000 tasks of 1 ms on 100 ranks: 10 ms of work a rank, but 1000 rows and the requests at 1 ms of service
# each keep the dispatcher busy for at least 1 s
seconds=$(for _ in $(seq 1000); do printf '0.001 '; done)
run "$tmp/tiny" $seconds
w=$("$sched" "$tmp/tiny" -ranks 100 -latency 0 -service 0.001 | awk '$1 == 100 { print $2 }')
check "1000 tasks of 1 ms, 100 ranks, 1 ms service per message: the dispatcher bounds the wall (${w} s >= 1 s)" \
  'awk -v w="$w" "BEGIN { exit !(w >= 1.0 && w < 1.6) }"'
mkdir -p "$tmp/sum"
printf 'kind,count,task_seconds_total\nok,4,8\nfail,2,2\n' >"$tmp/sum/summary.csv"
check "no tasks.csv: summary.csv's groups, each task its mean (4 of 2 s, 2 of 1 s) on 4 ranks: 3 s" \
  '[ "$(wall $tmp/sum 4)" = 3 ] && "$sched" "$tmp/sum" -ranks 4 | grep -q "each its group.s mean"'
"$sched" "$tmp/eq" -ranks 0 >/dev/null 2>"$tmp/err"
check "-ranks 0 is refused (exit 2)" '[ $? = 2 ] && grep -q "not a rank count" $tmp/err'
"$sched" "$tmp/eq" -order fastest >/dev/null 2>"$tmp/err"
check "-order fastest is refused (exit 2)" '[ $? = 2 ]'
"$sched" "$tmp/nothing" >/dev/null 2>"$tmp/err"
check "a directory without tasks.csv or summary.csv is refused (exit 2)" '[ $? = 2 ] && grep -q "neither" $tmp/err'
"$sched" -measure >/dev/null 2>"$tmp/err"
check "-measure on one rank is refused (exit 2)" '[ $? = 2 ] && grep -q "needs 2 ranks" $tmp/err'
out=$(mpi 2 "$sched" -measure 2>&1)
check "-measure on 2 ranks: a positive latency and service time" \
  'echo "$out" | awk "\$1 == \"-latency\" && \$2 > 0 && \$4 > 0 { ok = 1 } END { exit !ok }"'
