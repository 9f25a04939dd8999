#!/usr/bin/env bash
# test_bench_step.sh — smoke run of bin/bench_step on the sweep engine with tiny registered scenes (a
# 3-row cannonball stack, 5 polygons in a box after 10 warm-up steps): the rows report status ok, contacts
# and rows > 0, per-phase times >= 0 that sum to the step time, and a fraction in [0, 1]; an unknown scene,
# a bad scene option (inline or -<scene>_<opt>) and a bad -steps exit 2 naming what is wrong.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CB_BIN/bench_step" -scene cannonball:rows=3,polygon_box:n=5 -steps 3 -warmup 10 -out "$tmp/run" -quiet \
  -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/run/tasks.csv"
check "bench_step: exit 0 and two tasks" '[ "$rc" = 0 ] && [ "$(awk "NR > 1" "$csv" 2>/dev/null | wc -l)" = 2 ]' ||
  sed 's/^/# /' "$tmp/out"
want="task_id,scene,formulation,solver,status,bodies,h,steps,failed_steps,warmup_failed_steps,contacts,rows"
want="$want,detect_seconds,assemble_seconds,solve_phase_seconds,recover_seconds,step_seconds,detect_assemble_fraction"
check "bench_step: tasks.csv columns" 'head -1 "$csv" | grep -q "^$want,"'
# columns: 2 scene, 5 status, 6 bodies, 7 h, 8 steps, 11 contacts, 12 rows, 13-16 phases, 17 step, 18 fraction
check "bench_step: both rows ok with contacts and rows > 0, 3 timed steps" \
  'awk -F, "NR > 1 && \$5 == \"ok\" && \$8 == 3 && \$11 > 0 && \$12 > 0 { n++ } END { exit n != 2 }" "$csv"'
check "bench_step: the scenes' bodies and steps (cannonball 1 + 6 at h 0.05, polygon_box 3 + 5 at h 0.01)" \
  'awk -F, "(\$2 == \"cannonball:rows=3\" && \$6 == 7 && \$7 == 0.05) || (\$2 == \"polygon_box:n=5\" && \$6 == 8 && \$7 == 0.01) { n++ } END { exit n != 2 }" "$csv"'
check "bench_step: phase times >= 0, summing to the step time; fraction in [0, 1]" \
  'awk -F, "NR > 1 { s = \$13 + \$14 + \$15 + \$16; d = s - \$17; if (d < 0) d = -d;
     if (\$13 < 0 || \$14 < 0 || \$15 < 0 || \$16 < 0 || d > 1e-12 + 1e-9 * s || \$18 < 0 || \$18 > 1) bad = 1; n++ }
     END { exit bad || n != 2 }" "$csv"'
"$CB_BIN/bench_step" -scene cannonball:rows=2,no_such_scene -out "$tmp/bad1" >"$tmp/err" 2>&1
rc=$?
check "bench_step: an unknown scene exits 2 listing the valid ones" \
  '[ "$rc" = 2 ] && grep -q "no_such_scene" "$tmp/err" && grep -q "polygon_box" "$tmp/err" && [ ! -e "$tmp/bad1" ]'
"$CB_BIN/bench_step" -scene cannonball:rows=0 -out "$tmp/bad2" >"$tmp/err" 2>&1
rc=$?
check "bench_step: an inline option out of range exits 2 naming it" '[ "$rc" = 2 ] && grep -q "rows 0" "$tmp/err"'
"$CB_BIN/bench_step" -scene cannonball:rows=2 -cannonball_mu x -out "$tmp/bad3" >"$tmp/err" 2>&1
rc=$?
check "bench_step: a malformed -cannonball_mu exits 2 naming it" '[ "$rc" = 2 ] && grep -q "cannonball_mu" "$tmp/err"'
"$CB_BIN/bench_step" -scene cannonball:rows=2 -steps 2x -out "$tmp/bad4" >"$tmp/err" 2>&1
rc=$?
check "bench_step: -steps 2x exits 2 naming it" '[ "$rc" = 2 ] && grep -q "steps" "$tmp/err"'
"$CB_BIN/bench_step" -help >"$tmp/help" 2>&1
check "bench_step: -help lists the scenes and their options" \
  'grep -q "cannonball_rows" "$tmp/help" && grep -q "polygon_box_seed" "$tmp/help"'
