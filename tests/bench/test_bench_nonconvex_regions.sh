#!/usr/bin/env bash
# test_bench_nonconvex_regions.sh — bin/bench_nonconvex_regions against closed forms (Egan et al. Figs. 4, 7):
# the summation form's cap at the corner has area eps^2 / 2 (within the grid's cells, 5 %) at eps = 0.01,
# 0.02, 0.04 and every end accepted there is one its region predicts; the max form accepts nothing; the
# standard model refuses free space up to eps above a side at eps from the corner (phantom); with eq. 30 the
# share of a polygon of inradius 0.8 eps taken as free grows with its sides (3 < 4 < 6 < 12); with eq. 35
# nothing inside is free, but a point is held off a side: eps for the triangle, 2 (rho + r) for the square.
# (The standard model may accept less than r^2 inside the corner: the disc may round the corner, r = 2^-10.)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { if [ "$1" = 1 ]; then echo "ok - bench_nonconvex_regions: $2"; else echo "not ok - bench_nonconvex_regions: $2"; fi; }
"$CB_BIN/bench_nonconvex_regions" -obstacle corner -eps 0.01,0.02,0.04 -form sum_eq35,max,stewart_trinkle \
  -cp_solver lemke,milp -out "$tmp/corner" -quiet -no_plots >"$tmp/out" 2>&1
rc=$?
csv="$tmp/corner/tasks.csv"
want="task_id,obstacle,eps,form,solver,status,mistaken_area,predicted_area,analytic_area,mistaken_share,predicted_share,outside_region,phantom_offset,predicted_offset,max_depth,sides"
if [ "$rc" = 0 ] && head -1 "$csv" | grep -q "^$want,"; then ok 1 "runs, tasks.csv columns"; else
  ok 0 "exit $rc, header $(head -1 "$csv" 2>/dev/null)"; sed 's/^/# /' "$tmp/out"; fi
# Fig. 4: the cap's area, by lemke and milp, at three eps
n=$(awk -F, 'NR > 1 && $4 == "sum_eq35" && $6 == "converged" && $7 == $8 && $12 == 0 && $7 / $9 > 0.95 && $7 / $9 < 1.06 && $15 > 0.45 * $3 && $15 <= 0.5 * $3 + 1e-9' "$csv" | wc -l)
ok "$([ "$n" = 6 ] && echo 1)" "Fig. 4: the cap's area is eps^2 / 2 within 6 %, as predicted, ends up to eps / 2 deep (6 of 6 rows: $n)"
n=$(awk -F, 'NR > 1 && $4 == "max" && $5 == "milp" && $6 == "converged" && $7 == 0 && $13 == 0' "$csv" | wc -l)
ok "$([ "$n" = 3 ] && echo 1)" "the max form (milp) accepts nothing inside and refuses no free space (3 of 3: $n)"
n=$(awk -F, 'NR > 1 && $4 == "stewart_trinkle" && $5 == "lemke" && $7 < 1e-6 && $13 >= 0.85 * $3 && $13 < $3' "$csv" | wc -l)
ok "$([ "$n" = 3 ] && echo 1)" "the standard model's phantom: refused up to eps above the side (3 of 3: $n)"
# Fig. 7: many-sided groups
"$CB_BIN/bench_nonconvex_regions" -obstacle poly3,poly4,poly6,poly12 -eps 0.02 -form sum_eq30,sum_eq35 \
  -cp_solver lemke -out "$tmp/poly" -quiet -no_plots >"$tmp/out" 2>&1
csv="$tmp/poly/tasks.csv"
shares=$(awk -F, 'NR > 1 && $4 == "sum_eq30" { printf "%s ", $11 }' "$csv")
inc=$(echo "$shares" | awk '{ ok = NF == 4; for (i = 2; i <= NF; i++) if ($i <= $(i - 1)) ok = 0; print ok }')
ok "$inc" "Fig. 7, eq. 30: the share of the polygon taken as free grows with the sides ($shares)"
n=$(awk -F, 'NR > 1 && $6 == "converged" && $12 == 0 && $16 == substr($2, 5)' "$csv" | wc -l)
ok "$([ "$n" = 8 ] && echo 1)" "one group of N sides, every accepted end inside the region (8 of 8: $n)"
tri=$(awk -F, 'NR > 1 && $2 == "poly3" && $4 == "sum_eq35" && $7 == 0 && $13 == $14 && $14 > 0.0185 && $14 < 0.02 { print 1 }' "$csv")
sq=$(awk -F, 'NR > 1 && $2 == "poly4" && $4 == "sum_eq35" && $7 == 0 && $13 == $14 && $14 > 0.0319 && $14 < 0.03396 { print 1 }' "$csv")
ok "${tri:-0}" "eq. 35, triangle: nothing inside free; held off its side by eps = 0.02 (grid step 0.0015)"
ok "${sq:-0}" "eq. 35, square: held off its side by 2 (rho + r) = 0.03395 (grid step 0.002)"
