#!/usr/bin/env bash
# test_bench_grasp.sh — smoke run of bin/bench_grasp (the lock piece grasp study, Chakraborty et al.
# Sec. 6.4): with medium friction the cell (0.5, -11.5) mm next to the paper's sweet spot (0, -11) succeeds
# (there the jaws first touch the disc with the contact normal 33.7 degrees under horizontal, so every
# medium gripper friction, under tan 33.7 = 0.666, lets the part slide up onto the outer teeth; at y = -11 mm
# it is 32.0 degrees, tan 0.625: test_grasp) and the diameter (0.5, -0.5) mm does not; one row per
# trial with its outcome; the same rows (timing columns aside) on 2 ranks as on 1 rank in-process and
# after a stop and -resume; a bad
# friction range exits 2; bench_grasp_map writes the per-cell intervals and the sweet spot, and compares two
# runs cell by cell (-compare: two-proportion z); bench_grasp_pair pairs two runs trial by trial; the run loop's
# options (-trace, -perturb_initial) apply to every formulation, geometric_implicit included.
set -u
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args="-x 0.5 -y -11.5,-0.5 -friction medium,high -seeds 3 -quiet -no_plots"
"$CB_BIN/bench_grasp" $args -out "$tmp/a" -task_fork 0 >"$tmp/out" 2>&1
rc=$?
csv="$tmp/a/tasks.csv"
rows=$(awk 'NR > 1' "$csv" 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && [ "$rows" = 12 ]; then echo "ok - bench_grasp: 12 trials, one row each"; else
  echo "not ok - bench_grasp: exit $rc, $rows rows"; sed 's/^/# /' "$tmp/out"; fi
# experiment.txt says which of the driver's option defaults were in force (the run gives no method option)
if grep -qx "options " "$tmp/a/experiment.txt" && grep -qx "driver_options -step_halvings 8 -step_cold_retry 1 \
-geometric_implicit_equilibrate 1 -geometric_implicit_creep 2e-5" "$tmp/a/experiment.txt"; then
  echo "ok - bench_grasp: experiment.txt's driver_options line lists the driver's defaults in force"; else
  echo "not ok - bench_grasp: driver_options"; grep options "$tmp/a/experiment.txt" | sed 's/^/# /'; fi
cy=$(csv_col "$csv" y) cs=$(csv_col "$csv" status) co=$(csv_col "$csv" outcome) cf=$(csv_col "$csv" friction)
if awk -F, -v y="$cy" -v s="$cs" -v o="$co" -v f="$cf" 'NR > 1 && $s != "ok" { bad = 1 }
   NR > 1 && $y == -11.5 && $f == "medium" && $o != "outer_teeth" { bad = 1 } END { exit bad }' "$csv"; then
  echo "ok - bench_grasp: every trial ran (status ok); the sweet spot holds by the outer teeth at medium friction"; else
  echo "not ok - bench_grasp: sweet spot rows"; cut -d, -f1-12 "$csv" | sed 's/^/# /'; fi
# the outcome shares: 3 of 3 successes at the medium sweet spot, share 1 with Wilson's [0.4385, 1]; no
# other outcome there; meta.json counts no failed task (an outcome is not a failure of the run)
sum=$tmp/a/summary.csv
if awk -F, -v f="$(csv_col "$sum" friction)" -v y="$(csv_col "$sum" y)" -v s="$(csv_col "$sum" success_share)" \
     -v lo="$(csv_col "$sum" success_lo95)" -v hi="$(csv_col "$sum" success_hi95)" -v l="$(csv_col "$sum" lost_share)" \
     '$f == "medium" && $y == -11.5 { n++; if ($s != 1 || $lo < 0.43849 || $lo > 0.43851 || $hi != 1 || $l != 0) bad = 1 }
      END { exit bad || n != 1 }' "$tmp/a/summary.csv" && grep -q '"tasks_failed": 0' "$tmp/a/meta.json"; then
  echo "ok - bench_grasp: summary shares with Wilson intervals, no failed task in meta.json"; else
  echo "not ok - bench_grasp: summary shares"; sed 's/^/# /' "$tmp/a/summary.csv" | head -5; grep failed "$tmp/a/meta.json" | sed 's/^/# /'; fi
if awk -F, -v y="$cy" -v o="$co" 'NR > 1 && $y == -0.5 && $o != "diametric" { bad = 1 } END { exit bad }' "$csv"; then
  echo "ok - bench_grasp: squeezed across the diameter at y = -0.5 mm"; else
  echo "not ok - bench_grasp: diameter rows"; fi
mpirun -n 2 "$CB_BIN/bench_grasp" $args -out "$tmp/b" >"$tmp/out2" 2>&1
strip() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = $i !~ /_seconds$|^rank$|^host$/ }
  { line = ""; for (i = 1; i <= NF; i++) if (keep[i]) line = line $i ","; print line }' "$1"; }
if cmp -s <(strip "$csv") <(strip "$tmp/b/tasks.csv"); then
  echo "ok - bench_grasp: 2 ranks forked give the rows of 1 rank in-process"; else
  echo "not ok - bench_grasp: rows differ between 1 and 2 ranks"; sed 's/^/# /' "$tmp/out2"; fi
# stopped part-way (tasks 0..4 only) and resumed: the rows of the uninterrupted run, none twice
"$CB_BIN/bench_grasp" $args -out "$tmp/c" -task_fork 0 -tasks 0:5 >/dev/null 2>&1
"$CB_BIN/bench_grasp" $args -out "$tmp/c" -task_fork 0 -resume >"$tmp/out3" 2>&1
ledger_rows=$(awk 'NR > 1' "$tmp/c/ledger.csv" 2>/dev/null | wc -l)
if cmp -s <(strip "$csv") <(strip "$tmp/c/tasks.csv") && [ "$ledger_rows" = 12 ]; then
  echo "ok - bench_grasp: resumed run equals the uninterrupted one, each trial once"; else
  echo "not ok - bench_grasp: resume ($ledger_rows ledger rows)"; sed 's/^/# /' "$tmp/out3"; fi
# the map: 3 of 3 at the medium sweet spot gives the Wilson interval [0.4385, 1]
"$CB_BIN/bench_grasp_map" "$tmp/a" -no_plots >"$tmp/map" 2>&1
if awk -F, '$1 == "medium/stewart_trinkle/lemke" && $3 == -11.5 { f = 1; if ($4 != 3 || $5 != 3 || \
     $7 < 0.43849 || $7 > 0.43851 || $8 != 1) bad = 1 } END { exit !(f && !bad) }' "$tmp/a/grasp_cells.csv" &&
   grep -q "best cell (0.5, -11.5) mm: 3/3" "$tmp/a/grasp_sweet.txt"; then
  echo "ok - bench_grasp_map: Wilson interval and best cell"; else
  echo "not ok - bench_grasp_map"; sed 's/^/# /' "$tmp/map" "$tmp/a/grasp_cells.csv"; fi
# -compare: two runs' cells matched by friction range and (x, y) across methods; the pooled two-proportion z
# of 10/20 against 15/20 is -1.633, of 0/20 against 10/20 -3.652, of their row y = -1 summed (10/40 against
# 25/40) -3.381; a cell only one run has is counted without a match
mkdir -p "$tmp/cmpA" "$tmp/cmpB"
cells_head="group,x,y,trials,successes,p,wilson_lo,wilson_hi,share_outer_teeth,share_other_teeth,share_round,share_diametric,share_lost,share_solver_failure,share_engine_failure"
printf '%s\n%s\n%s\n%s\n' "$cells_head" "medium/geometric_implicit/fb_newton,0,-1,20,10,0.5,0,1,0.5,0,0,0,0.5,0,0" \
  "medium/geometric_implicit/fb_newton,1,-1,20,0,0,0,1,0,0,0,0,1,0,0" \
  "medium/geometric_implicit/fb_newton,2,-1,20,5,0.25,0,1,0.25,0,0,0,0.75,0,0" >"$tmp/cmpA/grasp_cells.csv"
printf '%s\n%s\n%s\n' "$cells_head" "medium/stewart_trinkle/lemke,0,-1,20,15,0.75,0,1,0.75,0,0,0,0.25,0,0" \
  "medium/stewart_trinkle/lemke,1,-1,20,10,0.5,0,1,0.5,0,0,0,0.5,0,0" >"$tmp/cmpB/grasp_cells.csv"
"$CB_BIN/bench_grasp_map" "$tmp/cmpA" -no_plots -bootstrap 0 -compare "$tmp/cmpB" >"$tmp/cmpout" 2>&1
rc=$?
if [ "$rc" = 0 ] && awk -F, 'NR > 1 && $3 == 0 { a = $11 } NR > 1 && $3 == 1 { b = $11 } END { n = NR - 1
       exit !(n == 2 && a > -1.6331 && a < -1.6329 && b > -3.6516 && b < -3.6514) }' "$tmp/cmpA/grasp_compare.csv" &&
   grep -q "medium/geometric_implicit/fb_newton against medium/stewart_trinkle/lemke: 2 cells (1 without a match); equal success counts 0; successes 10/40 against 25/40 (z -3.38); |z| > 1.96 in 1 cells, > 3.29 in 1" "$tmp/cmpA/grasp_compare.txt" &&
   grep -q "rows y with |z| > 1.96 (summed over x): -1: 10/40 against 25/40 (z -3.38)" "$tmp/cmpA/grasp_compare.txt"; then
  echo "ok - bench_grasp_map -compare: two-proportion z per cell (-1.633, -3.652) and per row (-3.38), across methods"; else
  echo "not ok - bench_grasp_map -compare (exit $rc)"; sed 's/^/# /' "$tmp/cmpout" "$tmp/cmpA/grasp_compare.csv" "$tmp/cmpA/grasp_compare.txt" 2>/dev/null; fi
# the cells the |z| counts are out of: those whose pooled share is strictly between 0 and 1, equal counts
# included (z 0 there, still a test): 10/20 against 10/20 is one, 0/20 against 0/20 and 20/20 against 20/20 not
mkdir -p "$tmp/cmpC" "$tmp/cmpD"
for d in cmpC cmpD; do
  printf '%s\n%s\n%s\n%s\n' "$cells_head" "medium/geometric_implicit/fb_newton,0,-1,20,10,0.5,0,1,0.5,0,0,0,0.5,0,0" \
    "medium/geometric_implicit/fb_newton,1,-1,20,0,0,0,1,0,0,0,0,1,0,0" \
    "medium/geometric_implicit/fb_newton,2,-1,20,20,1,0,1,1,0,0,0,0,0,0" >"$tmp/$d/grasp_cells.csv"
done
"$CB_BIN/bench_grasp_map" "$tmp/cmpC" -no_plots -bootstrap 0 -compare "$tmp/cmpD" >"$tmp/cmpout3" 2>&1
if [ $? = 0 ] && grep -q "equal success counts 3; successes 30/60 against 30/60 (z 0.00); |z| > 1.96 in 0 cells, > 3.29 in 0 (of 1 with a pooled share strictly between 0 and 1" "$tmp/cmpC/grasp_compare.txt" &&
   grep -q "in 1 cells, > 3.29 in 1 (of 2 with a pooled share" "$tmp/cmpA/grasp_compare.txt"; then
  echo "ok - bench_grasp_map -compare: the |z| counts are out of the cells with a pooled share in (0, 1), equal ones included"; else
  echo "not ok - bench_grasp_map -compare: the cells with a pooled share in (0, 1)"; sed 's/^/# /' "$tmp/cmpC/grasp_compare.txt"; fi
"$CB_BIN/bench_grasp_map" "$tmp/cmpA" -no_plots -bootstrap 0 -compare "$tmp/nonexistent" >"$tmp/cmpout2" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "nonexistent" "$tmp/cmpout2"; then
  echo "ok - bench_grasp_map -compare with a run that is not there exits 2, named"; else
  echo "not ok - bench_grasp_map -compare with no run exits $rc"; sed 's/^/# /' "$tmp/cmpout2"; fi
# bench_grasp_pair: trial by trial, each trial matched with its twin by friction range, (x, y) and seed
# across methods (x = 0 and -0 alike); of the 9 trials both finished 2 end alike, the discordant successes
# are 1 here, 6 there: McNemar's exact p = 2 (1 + 7) / 2^7 = 0.125, z = -5 / sqrt 7 = -1.89; row y = -1
# alone 0 against 6, p = 2 / 2^6 = 0.03125; a draw only one run holds is counted on its side
mkdir -p "$tmp/pairA" "$tmp/pairB"
pair_head="task_id,friction,y,x,seed,formulation,solver,status,outcome"
{ echo "$pair_head"
  for s in 0 1 2 3 4 5; do echo "$s,medium,-1,0,$s,geometric_implicit,fb_newton,ok,round"; done
  echo "6,medium,-2,0,0,geometric_implicit,fb_newton,ok,outer_teeth"
  echo "7,medium,-2,0,1,geometric_implicit,fb_newton,ok,outer_teeth"
  echo "8,medium,-2,1,0,geometric_implicit,fb_newton,solve_failed,solver_failure"
  echo "9,medium,-2,1,1,geometric_implicit,fb_newton,ok,lost"
  echo "10,medium,-2,1,2,geometric_implicit,fb_newton,ok,other_teeth"; } >"$tmp/pairA/tasks.csv"
{ echo "$pair_head"
  for s in 0 1 2 3 4 5; do echo "$s,medium,-1,0,$s,stewart_trinkle,lemke,ok,outer_teeth"; done
  echo "6,medium,-2,-0,0,stewart_trinkle,lemke,ok,round"
  echo "7,medium,-2,0,1,stewart_trinkle,lemke,ok,outer_teeth"
  echo "8,medium,-2,1,0,stewart_trinkle,lemke,ok,lost"
  echo "9,medium,-2,1,1,stewart_trinkle,lemke,ok,lost"
  echo "11,medium,-2,1,3,stewart_trinkle,lemke,ok,round"; } >"$tmp/pairB/tasks.csv"
"$CB_BIN/bench_grasp_pair" "$tmp/pairA" "$tmp/pairB" >"$tmp/pairout" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "medium/geometric_implicit/fb_newton against medium/stewart_trinkle/lemke: 10 \
trials matched by draw (1 only here, 1 only there); both finished 9, same outcome 2 (22.22 %); a success \
(outer_teeth) here only 1, there only 6 (McNemar exact p 0.125, z -1.89)" "$tmp/pairA/grasp_pair.txt" &&
   grep -q "most common first): round -> outer_teeth 6; outer_teeth -> round 1; solver_failure -> lost 1$" \
     "$tmp/pairA/grasp_pair.txt" &&
   grep -q "p < 0.05: -1: here only 0, there only 6 (p 0.031[23])$" "$tmp/pairA/grasp_pair.txt" &&
   grep -qx "medium/geometric_implicit/fb_newton,medium/stewart_trinkle/lemke,round,outer_teeth,6" \
     "$tmp/pairA/grasp_pair.csv"; then
  echo "ok - bench_grasp_pair: matched trials, McNemar's exact p 0.125 (z -1.89), the outcome changes, row y = -1 p 0.03125"; else
  echo "not ok - bench_grasp_pair (exit $rc)"; sed 's/^/# /' "$tmp/pairout" "$tmp/pairA/grasp_pair.csv" 2>/dev/null; fi
echo "12,medium,-1,0,0,stewart_trinkle,lemke,ok,round" >>"$tmp/pairB/tasks.csv"
"$CB_BIN/bench_grasp_pair" "$tmp/pairA" "$tmp/pairB" >"$tmp/pairout2" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "holds the trial medium (0, -1) mm, seed 0 twice" "$tmp/pairout2"; then
  echo "ok - bench_grasp_pair: a run holding a draw twice (two methods) exits 2, named"; else
  echo "not ok - bench_grasp_pair with a draw twice exits $rc"; sed 's/^/# /' "$tmp/pairout2"; fi
# a run that names a sensitivity axis in its groups (it varies close_force) meets its twins in a run that
# does not: close_force=1 matched, close_force=2 only here
mkdir -p "$tmp/pairC" "$tmp/pairD"
printf '%s\n%s\n%s\n' "task_id,close_force,friction,y,x,seed,formulation,solver,status,outcome" \
  "0,1,medium,-1,0,0,geometric_implicit,fb_newton,ok,round" \
  "1,2,medium,-1,0,0,geometric_implicit,fb_newton,ok,outer_teeth" >"$tmp/pairC/tasks.csv"
printf '%s\n%s\n' "task_id,close_force,friction,y,x,seed,formulation,solver,status,outcome" \
  "0,1,medium,-1,0,0,stewart_trinkle,lemke,ok,round" >"$tmp/pairD/tasks.csv"
"$CB_BIN/bench_grasp_pair" "$tmp/pairC" "$tmp/pairD" >"$tmp/pairout3" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c against "$tmp/pairC/grasp_pair.txt")" = 2 ] &&
   grep -q "fb_newton/close_force=1 against medium/stewart_trinkle/lemke: 1 trials matched by draw (0 only here, 0 only there); both finished 1, same outcome 1" "$tmp/pairC/grasp_pair.txt" &&
   grep -q "fb_newton/close_force=2 against -: 0 trials matched by draw (1 only here, 0 only there)" "$tmp/pairC/grasp_pair.txt"; then
  echo "ok - bench_grasp_pair: a sensitivity axis named in one run's groups only still pairs the trials"; else
  echo "not ok - bench_grasp_pair across group naming (exit $rc)"; sed 's/^/# /' "$tmp/pairout3"; fi
# bench_compare judges a share column by its share and the Newcombe interval of its change: one of the
# three medium sweet-spot trials turned from outer_teeth to other_teeth (3/3 -> 2/3; the median would stay
# 1) is no evidence ([-79.2, +29.1] points: ok), all three turned (3/3 -> 0/3) is a regression; the 2-rank
# run compares equal
cp -r "$tmp/a" "$tmp/a2"
cp -r "$tmp/a" "$tmp/a3"
for k in 1 3; do
  awk -F, -v OFS=, -v y="$cy" -v f="$cf" -v o="$co" -v s="$(csv_col "$csv" success)" \
    -v t="$(csv_col "$csv" other_teeth)" -v k="$k" \
    'NR > 1 && done < k && $y == -11.5 && $f == "medium" { $o = "other_teeth"; $s = 0; $t = 1; done++ } { print }' \
    "$csv" >"$tmp/a$((k == 1 ? 2 : 3))/tasks.csv"
done
"$CB_BIN/bench_compare" "$tmp/a" "$tmp/a2" >"$tmp/cmp1" 2>&1
rc1=$?
"$CB_BIN/bench_compare" "$tmp/a" "$tmp/a3" >"$tmp/cmp3" 2>&1
rc3=$?
"$CB_BIN/bench_compare" "$tmp/a" "$tmp/b" >"$tmp/cmp2" 2>&1
rc2=$?
if [ "$rc1" = 0 ] && grep -Eq "success +100.0% \(3\) +66.7% \(3\) +-33.3 pts \[Newcombe 95%: -79.2, \+29.1\].* ok$" "$tmp/cmp1" &&
   [ "$rc3" = 1 ] && grep -Eq "success +100.0% \(3\) +0.0% \(3\) +-100.0 pts \[Newcombe 95%: -100.0, -20.6\].* REGRESSION$" "$tmp/cmp3" &&
   [ "$rc2" = 0 ]; then
  echo "ok - bench_compare: a success share 3/3 -> 2/3 is within the Newcombe interval, 3/3 -> 0/3 a regression; the same trials compare equal"; else
  echo "not ok - bench_compare on shares (exit $rc1, $rc3, $rc2)"; sed 's/^/# /' "$tmp/cmp1" "$tmp/cmp3" | grep -v "^# #"; fi
"$CB_BIN/bench_grasp" -friction low -out "$tmp/bad" -quiet >/dev/null 2>&1
rc=$?
if [ "$rc" = 2 ]; then echo "ok - bench_grasp: unknown friction range exits 2"; else
  echo "not ok - bench_grasp: unknown friction range exits $rc (want 2)"; fi
# the registered geometric_implicit (Sec. 3-4) on scene grasp by the run loop: across the diameter it squeezes as
# the explicit LCP does, its rows name the formulation; an LCP-only solver is not_applicable; an option only the
# formulations that linearise the support friction read, with none of them run, is refused
"$CB_BIN/bench_grasp" -x 0.5 -y -0.5 -friction medium -seeds 2 -formulation geometric_implicit,stewart_trinkle \
  -cp_solver fb_newton,lemke -quiet -no_plots -out "$tmp/gi" -task_fork 0 >"$tmp/outgi" 2>&1
gcsv="$tmp/gi/tasks.csv"
gf=$(csv_col "$gcsv" formulation) gso=$(csv_col "$gcsv" solver) gs=$(csv_col "$gcsv" status)
go=$(csv_col "$gcsv" opening) gou=$(csv_col "$gcsv" outcome)
if awk -F, -v f="$gf" -v so="$gso" -v s="$gs" -v ou="$gou" 'NR > 1 { n++ }
     NR > 1 && $f == "geometric_implicit" && $so == "fb_newton" && ($s != "ok" || $ou != "diametric") { bad = 1 }
     NR > 1 && $f == "geometric_implicit" && $so == "lemke" && $s != "not_applicable" { bad = 1 }
     NR > 1 && $f == "stewart_trinkle" && ($s != "ok" || $ou != "diametric") { bad = 1 } END { exit bad || n != 8 }' "$gcsv"; then
  echo "ok - bench_grasp -formulation geometric_implicit: diametric with fb_newton, lemke not_applicable"; else
  echo "not ok - bench_grasp geometric_implicit rows"; cut -d, -f1-12 "$gcsv" | sed 's/^/# /'; sed 's/^/# /' "$tmp/outgi"; fi
# the final opening: the two formulations within 0.05 mm of each other, trial by trial (same draws)
if awk -F, -v f="$gf" -v so="$gso" -v o="$go" -v sd="$(csv_col "$gcsv" seed)" 'NR > 1 && $so == "fb_newton" { gi[$sd] = $o }
     NR > 1 && $f == "stewart_trinkle" && $so == "lemke" { ex[$sd] = $o }
     END { for (k in gi) { n++; d = gi[k] - ex[k]; if (d < -0.05 || d > 0.05 || !(k in ex)) bad = 1 } exit bad || n != 2 }' "$gcsv"; then
  echo "ok - bench_grasp: implicit and explicit final openings agree to 0.05 mm"; else
  echo "not ok - bench_grasp: openings differ"; fi
"$CB_BIN/bench_grasp" -formulation geometric_implicit -support_directions 12 -out "$tmp/bad2" -quiet >"$tmp/outbad2" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "support_directions" "$tmp/outbad2"; then
  echo "ok - bench_grasp: -support_directions without stewart_trinkle exits 2, named"; else
  echo "not ok - bench_grasp: -support_directions without stewart_trinkle exits $rc"; sed 's/^/# /' "$tmp/outbad2"; fi
"$CB_BIN/bench_grasp" -geometric_implicit_creep 1e-4 -out "$tmp/bad3" -quiet >"$tmp/outbad3" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "geometric_implicit_creep" "$tmp/outbad3"; then
  echo "ok - bench_grasp: -geometric_implicit_creep without geometric_implicit exits 2, named"; else
  echo "not ok - bench_grasp: -geometric_implicit_creep without geometric_implicit exits $rc"; sed 's/^/# /' "$tmp/outbad3"; fi
# the registered formulations run on the engine's run loop: -trace writes a trial's steps, the physics checks
# fill their columns, -perturb_initial 1e-12 moves no outcome of these trials; geometric_implicit is run by the
# same loop, so -trace records its steps too
"$CB_BIN/bench_grasp" -x 0.5 -y -11.5 -friction medium -seeds 1 -trace "$tmp/tr" -out "$tmp/t1" -quiet -no_plots \
  >"$tmp/outt1" 2>&1
rc=$?
trace=$(ls "$tmp"/tr/grasp_task0.csv 2>/dev/null)
if [ "$rc" = 0 ] && [ -n "$trace" ] && [ "$(awk 'END { print NR }' "$trace")" -gt 10 ] &&
   head -1 "$tmp/t1/tasks.csv" | grep -q "phys_"; then
  echo "ok - bench_grasp -trace: a trial's steps in grasp_task0.csv; physics-check columns in tasks.csv"; else
  echo "not ok - bench_grasp -trace (exit $rc)"; sed 's/^/# /' "$tmp/outt1"; fi
"$CB_BIN/bench_grasp" $args -perturb_initial 1e-12 -out "$tmp/p1" -task_fork 0 >"$tmp/outp1" 2>&1
rc=$?
pco=$(head -1 "$tmp/p1/tasks.csv" 2>/dev/null | tr , '\n' | grep -nx outcome | cut -d: -f1)
if [ "$rc" = 0 ] && [ -n "$pco" ] && cmp -s <(cut -d, -f"$co" "$csv") <(cut -d, -f"$pco" "$tmp/p1/tasks.csv"); then
  echo "ok - bench_grasp -perturb_initial 1e-12: every trial's outcome as unperturbed"; else
  echo "not ok - bench_grasp -perturb_initial (exit $rc)"; sed 's/^/# /' "$tmp/outp1"; fi
"$CB_BIN/bench_grasp" -x 0.5 -y -11.5 -friction medium -seeds 1 -formulation geometric_implicit -cp_solver fb_newton \
  -trace "$tmp/tr5" -out "$tmp/t5" -quiet -no_plots >"$tmp/outt5" 2>&1
rc=$?
trace=$(ls "$tmp"/tr5/grasp_task0.csv 2>/dev/null)
if [ "$rc" = 0 ] && [ -n "$trace" ] && [ "$(awk 'END { print NR }' "$trace")" -gt 10 ] &&
   grep -q ",ok,outer_teeth," "$tmp/t5/tasks.csv"; then
  echo "ok - bench_grasp -trace with geometric_implicit: its steps in grasp_task0.csv, the trial on the outer teeth"; else
  echo "not ok - bench_grasp -trace with geometric_implicit (exit $rc)"; sed 's/^/# /' "$tmp/outt5"; fi
# -step_halvings is the stepper's retry of every formulation: stewart_trinkle takes it (its Lemke steps never
# fail here, so nothing is halved and the rows equal the run without it)
"$CB_BIN/bench_grasp" $args -step_halvings 2 -out "$tmp/h4" -task_fork 0 >"$tmp/outh4" 2>&1
rc=$?
if [ "$rc" = 0 ] && cmp -s <(strip "$csv") <(strip "$tmp/h4/tasks.csv"); then
  echo "ok - bench_grasp: -step_halvings with stewart_trinkle runs, rows unchanged when no step fails"; else
  echo "not ok - bench_grasp: -step_halvings with stewart_trinkle exits $rc"; sed 's/^/# /' "$tmp/outh4"; fi
# the friction bounds per coefficient and the jaw force as axes: method axes, out of the task's seed, so
# every setting sees the same tripods and friction quantiles: mu = LO + (HI - LO) u with the same u
"$CB_BIN/bench_grasp" -x 0.5 -y -11.5 -seeds 2 -friction_support 0.2:0.5 -friction_gripper 0.4:0.6,0.7:0.9 \
  -close_force 0.5,2 -quiet -no_plots -task_fork 0 -out "$tmp/sens" >"$tmp/outsens" 2>&1
rc=$?
scsv="$tmp/sens/tasks.csv"
sc() { head -1 "$scsv" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
if [ "$rc" = 0 ] && awk -F, -v fr="$(sc friction)" -v fs="$(sc friction_support)" -v fg="$(sc friction_gripper)" \
     -v cf="$(sc close_force)" -v sd="$(sc seed)" -v ms="$(sc mu_support)" -v mg="$(sc mu_grip)" -v tp="$(sc tripod)" \
     'NR > 1 { n++; if ($fr != "none" || $fs != "0.2:0.5") bad = 1
       if ($ms <= 0.2 || $ms > 0.5) bad = 1
       split($fg, r, ":"); if ($mg <= r[1] || $mg > r[2]) bad = 1
       u = ($mg - r[1]) / (r[2] - r[1]); v = ($ms - 0.2) / 0.3
       if ($sd in ug) { if (ug[$sd] - u > 1e-12 || u - ug[$sd] > 1e-12 || us[$sd] != v || tr[$sd] != $tp) bad = 1 }
       else { ug[$sd] = u; us[$sd] = v; tr[$sd] = $tp }
       forces[$cf] = 1 }
     END { exit bad || n != 8 || !(0.5 in forces) || !(2 in forces) }' "$scsv"; then
  echo "ok - bench_grasp: -friction_support, -friction_gripper, -close_force axes: 8 trials, -friction none, the same draws per seed in every setting"; else
  echo "not ok - bench_grasp: sensitivity axes (exit $rc)"; cut -d, -f1-13,20-22 "$scsv" | sed 's/^/# /'; sed 's/^/# /' "$tmp/outsens"; fi
# a gripper friction in (0.4, 0.6] lets the part slide up onto the outer teeth from (0.5, -11.5) mm; in (0.7, 0.9]
# the squeeze holds it on the round part (only a gripper friction under tan 33.7 deg = 0.666 lets it slide)
if awk -F, -v fg="$(sc friction_gripper)" -v o="$(sc outcome)" 'NR > 1 && $fg == "0.4:0.6" && $o != "outer_teeth" { bad = 1 }
     NR > 1 && $fg == "0.7:0.9" && $o == "outer_teeth" { bad = 1 } END { exit bad }' "$scsv"; then
  echo "ok - bench_grasp: gripper friction (0.4, 0.6] slides onto the outer teeth at (0.5, -11.5) mm, (0.7, 0.9] does not"; else
  echo "not ok - bench_grasp: outcomes against the gripper friction"; fi
# -friction medium with the gripper's own axis at the medium bounds: the rows of -friction medium (same seed,
# same bounds), the new column aside
margs="-x 0.5 -y -11.5,-0.5 -friction medium -seeds 3 -quiet -no_plots -task_fork 0"
"$CB_BIN/bench_grasp" $margs -friction_gripper 0.33:0.66 -out "$tmp/fm" >/dev/null 2>&1
"$CB_BIN/bench_grasp" $margs -out "$tmp/fm0" >/dev/null 2>&1
nogrip() { strip "$1" | awk -F, -v OFS=, -v c="$(head -1 "$1" | tr , '\n' | grep -nx friction_gripper | cut -d: -f1)" \
  '{ $c = ""; print }'; }
if cmp -s <(nogrip "$tmp/fm/tasks.csv") <(nogrip "$tmp/fm0/tasks.csv") && [ "$(awk 'NR > 1' "$tmp/fm/tasks.csv" | wc -l)" = 6 ]; then
  echo "ok - bench_grasp: -friction_gripper 0.33:0.66 with -friction medium gives the rows of -friction medium"; else
  echo "not ok - bench_grasp: the gripper axis at the medium bounds changed the rows"; fi
# one meaning per option: every conflicting or malformed friction choice exits 2, named
bad_case() { # name, expected word in the message, options...
  local name=$1 word=$2; shift 2
  "$CB_BIN/bench_grasp" "$@" -out "$tmp/bad_$name" -quiet >"$tmp/out_$name" 2>&1
  local rc=$?
  if [ "$rc" = 2 ] && grep -q -- "$word" "$tmp/out_$name" && [ ! -d "$tmp/bad_$name" ]; then
    echo "ok - bench_grasp: $name exits 2 naming $word, no run folder"; else
    echo "not ok - bench_grasp: $name exits $rc"; sed 's/^/# /' "$tmp/out_$name"; fi
}
bad_case "-friction with both coefficient axes" "-friction names" -friction medium -friction_support 0.2:0.5 -friction_gripper high
bad_case "a coefficient taking -friction none" "-friction none" -friction_support 0.2:0.5 -friction_gripper high,friction
bad_case "reversed bounds" "-friction_support 0.5:0.2" -friction_support 0.5:0.2
bad_case "a bad bound" "-friction_gripper 0.2:x" -friction_gripper 0.2:x
bad_case "a zero jaw force" "close_force" -close_force 0
# the step's fallback solver (-step_fallback_solver): a name not registered, the step's own solver, and the
# fallback's own option without the fallback are refused before any trial; with it the option is read, and
# a fallback that no step needs leaves the trials as they were (the fallbacks column 0)
fb_args="-formulation geometric_implicit -cp_solver fb_newton -x 0.5 -y -11.5 -friction medium -seeds 2"
bad_case "an unknown fallback" "-step_fallback_solver: unable to find requested solver type 'nosuch'" $fb_args \
  -step_fallback_solver nosuch
bad_case "the step's solver as the fallback" "-step_fallback_solver fb_newton is the step's solver itself" $fb_args \
  -step_fallback_solver fb_newton
bad_case "the fallback's option without it" "-tao_ssils_mat_type is an option of solver tao_ssils" $fb_args \
  -tao_ssils_mat_type dense
"$CB_BIN/bench_grasp" $fb_args -quiet -no_plots -task_fork 0 -out "$tmp/fb0" >/dev/null 2>&1
"$CB_BIN/bench_grasp" $fb_args -step_fallback_solver tao_ssils -tao_ssils_mat_type dense -quiet -no_plots \
  -task_fork 0 -out "$tmp/fb1" >"$tmp/out_fb1" 2>&1
rc=$?
fc=$(csv_col "$tmp/fb1/tasks.csv" fallbacks)
if [ "$rc" = 0 ] && [ -n "$fc" ] && awk -F, -v c="$fc" 'NR > 1 && $c != 0 { bad = 1 } END { exit bad || NR != 3 }' \
  "$tmp/fb1/tasks.csv" && cmp -s <(strip "$tmp/fb0/tasks.csv") <(strip "$tmp/fb1/tasks.csv"); then
  echo "ok - bench_grasp -step_fallback_solver tao_ssils: its option read, no step needs it, the rows unchanged"; else
  echo "not ok - bench_grasp -step_fallback_solver tao_ssils (exit $rc)"; sed 's/^/# /' "$tmp/out_fb1"; fi
# the bootstrap: at (0.5, -11.5) every medium trial succeeds and every high one is held on the round part, so
# no resample moves the sweet spot or the best cell; with a coarse x the best cell ties with the other
"$CB_BIN/bench_grasp_map" "$tmp/a" -no_plots -bootstrap 50 -bootstrap_seed 3 >"$tmp/map2" 2>&1
if grep -q "^medium/stewart_trinkle/lemke: .*sweet spot +-3 mm: centre (0.5, -11.5) mm" "$tmp/a/grasp_sweet.txt" &&
   grep -q "bootstrap (50 resamples of the trials per cell, GSL mt19937 seed 3): the sweet spot stays at the estimate's centre in 1.000, the best cell in 1.000 (1 cells share its p 1.000" "$tmp/a/grasp_sweet.txt" &&
   [ "$(grep -c bootstrap "$tmp/a/grasp_sweet.txt")" = 2 ]; then
  echo "ok - bench_grasp_map: bootstrap line per group, a certain sweet spot stays in every resample"; else
  echo "not ok - bench_grasp_map: bootstrap"; sed 's/^/# /' "$tmp/a/grasp_sweet.txt"; fi
# -full_windows: on a 2 x 3 grid with +-1 mm windows only the middle row's windows are whole, so the sweet
# spot is there; a run kept without tasks.csv is read from its grasp_cells.csv, which comes out unchanged
"$CB_BIN/bench_grasp" -x -0.5,0.5 -y -12.5,-11.5,-10.5 -friction medium -seeds 2 -quiet -no_plots -task_fork 0 \
  -out "$tmp/fw" >/dev/null 2>&1
"$CB_BIN/bench_grasp_map" "$tmp/fw" -no_plots -window 1 -full_windows -bootstrap 20 >/dev/null 2>&1
cp "$tmp/fw/grasp_cells.csv" "$tmp/fw_cells.csv"
rm -f "$tmp/fw/tasks.csv"
"$CB_BIN/bench_grasp_map" "$tmp/fw" -no_plots -window 1 -full_windows -bootstrap 20 >"$tmp/fw_out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "sweet spot +-1 mm: centre (-\?0.5, -11.5) mm" "$tmp/fw/grasp_sweet.txt" &&
   grep -q "y 95 % range \[-11.5, -11.5\]" "$tmp/fw/grasp_sweet.txt" && cmp -s "$tmp/fw_cells.csv" "$tmp/fw/grasp_cells.csv"; then
  echo "ok - bench_grasp_map -full_windows: the sweet spot where its window is whole; read back from grasp_cells.csv"; else
  echo "not ok - bench_grasp_map -full_windows (exit $rc)"; sed 's/^/# /' "$tmp/fw/grasp_sweet.txt" "$tmp/fw_out"; fi
# -help lists the axes whose default the driver gives at run time (the friction ranges) without an error
"$CB_BIN/bench_grasp" -help >"$tmp/help" 2>&1
rc=$?
if [ "$rc" = 0 ] && ! grep -q "^error" "$tmp/help" && grep -q "^  -friction_support a,b,\.\.\. *range of the support friction" "$tmp/help" &&
   ! grep -q "(default )" "$tmp/help"; then
  echo "ok - bench_grasp -help: the friction axes listed, no error"; else
  echo "not ok - bench_grasp -help (exit $rc)"; grep -n "error\|(default )" "$tmp/help" | sed 's/^/# /'; fi
