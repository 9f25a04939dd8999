#!/usr/bin/env bash
# test_bench_solvers.sh — smoke run of bin/bench_solvers through the sweep engine on 1 and 2 ranks:
# tasks.csv has one row per (problem, solver, seed) and the same rows on both (apart from timing, rank,
# host); every registered LCP solver converges on spd10 (the frictional-contact ones: not_applicable); Lemke takes 2^10 - 1 = 1023 pivots on Murty's n = 10
# (Siconos' Lemke too); Lemke stops on a ray on Egan's max (b) while enum solves it; a Siconos file solves
# when ../shared is present and is not_applicable when the data folder is absent; bad input exits 2.
set -u
bin=${CB_BIN:-bin}
drv="$bin/bench_solvers"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
rows() { tail -n +2 "$1" | wc -l; }

n_solvers=$("$drv" -help 2>/dev/null | sed -n 's/^Registered solvers: //p' | tr ',' '\n' | grep -c .)
# the solvers of frictional contact only (kind fc: cpsolve's table), not_applicable on the LCP classes
fc_only=$("$bin/cpsolve" -help 2>/dev/null | awk '$2 == "fc" {printf "%s ", $1}')
n_fc=$(echo $fc_only | wc -w)
siconos=0
"$drv" -help 2>/dev/null | grep -q '^Registered solvers:.*siconos_lemke' && siconos=1

# 1. spd10 and murty10, every solver, 2 seeds, on 1 and 2 ranks
A=(-problem spd10,murty10 -cp_solver all -seeds 2 -repeats 2 -quiet -no_plots)
for n in 1 2; do mpi $n "$drv" -out "$tmp/r$n" "${A[@]}" >"$tmp/r$n.log" 2>&1; echo $? >"$tmp/r$n.rc"; done
check "1 and 2 ranks exit 0" '[ "$(cat $tmp/r1.rc $tmp/r2.rc | tr -d "\n")" = 00 ]'
check "tasks.csv: 2 problems x $n_solvers solvers x 2 seeds rows" \
  '[ "$n_solvers" -ge 14 ] && [ "$(rows $tmp/r1/tasks.csv)" = $((4 * n_solvers)) ]'
check "2 ranks: identical tasks.csv except timing/rank/host" \
  '[ -s $tmp/r1/tasks.csv ] && diff <(keep $tmp/r1/tasks.csv) <(keep $tmp/r2/tasks.csv) >/dev/null'
check "run directory: ledger, experiment.txt, meta.json" \
  '[ -s $tmp/r2/ledger.csv ] && grep -q "^experiment solvers" $tmp/r2/experiment.txt && [ -s $tmp/r2/meta.json ]'
# fc(s): 1 for a frictional-contact-only solver
fcs='BEGIN{n=split(fc, a, " "); for(i=1;i<=n;i++) isfc[a[i]]=1}'
bad=$(awk -F, -v fc="$fc_only" "$fcs"' NR==1{for(i=1;i<=NF;i++) h[$i]=i; next} $h["problem"]=="spd10" && $h["status"]!=(isfc[$h["solver"]] ? "not_applicable" : "converged") {print $h["solver"]}' "$tmp/r1/tasks.csv" | sort -u | tr '\n' ' ')
n_spd=$(awk -F, 'NR==1{for(i=1;i<=NF;i++) h[$i]=i; next} $h["problem"]=="spd10" && $h["status"]=="converged"' "$tmp/r1/tasks.csv" | wc -l)
check "every registered LCP solver converges on spd10, the $n_fc frictional-contact ones are not_applicable ($n_spd of $((2 * (n_solvers - n_fc))) rows; failing: ${bad:-none})" \
  '[ -z "$bad" ] && [ "$n_fc" -ge 3 ] && [ "$n_spd" = $((2 * (n_solvers - n_fc))) ]'
check "spd10: timing columns filled (solve_seconds > 0 on every converged row, repeats 2)" \
  '[ "$(csv_distinct $tmp/r1/tasks.csv spd10 lemke repeats)" = "2 " ] && awk -F, "NR==1{for(i=1;i<=NF;i++) h[\$i]=i; next} \$h[\"problem\"]==\"spd10\" && \$h[\"status\"]==\"converged\" && !(\$h[\"solve_seconds\"] > 0) {bad=1} END {exit bad}" $tmp/r1/tasks.csv'
check "murty10: lemke converged after exactly 1023 pivots" \
  '[ "$(csv_distinct $tmp/r1/tasks.csv murty10 lemke status)$(csv_distinct $tmp/r1/tasks.csv murty10 lemke iterations)" = "converged 1023 " ]'
if [ $siconos = 1 ]; then
  check "murty10: siconos_lemke converged after 1023 pivots too" \
    '[ "$(csv_distinct $tmp/r1/tasks.csv murty10 siconos_lemke status)$(csv_distinct $tmp/r1/tasks.csv murty10 siconos_lemke iterations)" = "converged 1023 " ]'
fi
check "murty10: pgs converges; n = 10 in every row" \
  '[ "$(csv_distinct $tmp/r1/tasks.csv murty10 pgs status)" = "converged " ] && [ "$(awk -F, "NR==1{for(i=1;i<=NF;i++) h[\$i]=i; next} {print \$h[\"n\"]}" $tmp/r1/tasks.csv | sort -u)" = 10 ]'

# 2. statuses beyond convergence, a Siconos file, and the data folder absent
data=${CB_SHARED_DATA:-../shared/data}/siconos
B=(-problem egan_max_b,sliding24,siconos:lcp/lcp_mmc.dat -cp_solver lemke,enum,pgs -quiet -no_plots)
"$drv" -out "$tmp/b" -siconos_dir "$data" "${B[@]}" >"$tmp/b.log" 2>&1
rc=$?
check "second sweep exits 0" '[ $rc = 0 ]'
check "egan_max_b: lemke ray_termination, enum converged" \
  '[ "$(csv_distinct $tmp/b/tasks.csv egan_max_b lemke status)$(csv_distinct $tmp/b/tasks.csv egan_max_b enum status)" = "ray_termination converged " ]'
check "sliding24 (every corner in contact): lemke converged, pgs not_applicable (zero diagonal), n = 24" \
  '[ "$(csv_distinct $tmp/b/tasks.csv sliding24 lemke status)$(csv_distinct $tmp/b/tasks.csv sliding24 pgs status)$(csv_distinct $tmp/b/tasks.csv sliding24 lemke n)" = "converged not_applicable 24 " ]'
if [ -d "$data" ]; then
  check "siconos:lcp/lcp_mmc.dat: lemke converged, n = 26" \
    '[ "$(csv_distinct $tmp/b/tasks.csv siconos:lcp/lcp_mmc.dat lemke status)$(csv_distinct $tmp/b/tasks.csv siconos:lcp/lcp_mmc.dat lemke n)" = "converged 26 " ]'
else
  skip "siconos:lcp/lcp_mmc.dat: $data absent"
fi
"$drv" -out "$tmp/c" -siconos_dir "$tmp/no_such_folder" "${B[@]}" >"$tmp/c.log" 2>&1
rc=$?
check "data folder absent: exit 0, the Siconos rows not_applicable, the others unchanged" \
  '[ $rc = 0 ] && [ "$(csv_distinct $tmp/c/tasks.csv siconos:lcp/lcp_mmc.dat lemke status)" = "not_applicable " ] && [ "$(csv_distinct $tmp/c/tasks.csv egan_max_b enum status)" = "converged " ]'
check "data folder absent: the default problem list has no Siconos entries" \
  '"$drv" -siconos_dir "$tmp/no_such_folder" -dry_run -out "$tmp/d" -cp_solver lemke 2>&1 | grep -q spd1000 && ! "$drv" -siconos_dir "$tmp/no_such_folder" -dry_run -out "$tmp/d2" -cp_solver lemke 2>&1 | grep -q "siconos:"'

# 3. bad input
"$drv" -problem spd10x -out "$tmp/e" -quiet >"$tmp/e.log" 2>&1
rc=$?
check "unknown problem class exits 2 with a message naming it" '[ $rc = 2 ] && grep -q "spd10x" $tmp/e.log'
"$drv" -problem spd10 -repeats 0 -out "$tmp/f" -quiet >/dev/null 2>&1
rc=$?
check "-repeats 0 exits 2" '[ $rc = 2 ]'
"$drv" -problem spd10 -repeats abc -out "$tmp/g" -quiet >"$tmp/g.log" 2>&1
rc=$?
check "-repeats abc exits 2 naming the option" '[ $rc = 2 ] && grep -q -- "-repeats: .abc. is not a whole number" $tmp/g.log && [ ! -e $tmp/g ]'

# 4. a problem file that is not there is bad input, refused before the sweep (exit 2, naming it): a file:
# path, and a siconos: name missing from a data folder that exists (without the folder: section 2)
"$drv" -problem "spd10,file:$tmp/nope.dat" -cp_solver lemke -out "$tmp/h" -quiet >"$tmp/h.log" 2>&1
rc=$?
check "-problem file:PATH with no file there exits 2 naming it; no run directory" \
  '[ $rc = 2 ] && grep -q "error: -problem: file:$tmp/nope.dat: $tmp/nope.dat is not a readable file" $tmp/h.log && [ ! -e $tmp/h ]'
"$drv" -problem "file:$tmp" -cp_solver lemke -out "$tmp/i" -quiet >"$tmp/i.log" 2>&1
rc=$?
check "-problem file:DIR (a folder, not a file) exits 2" '[ $rc = 2 ] && grep -q "not a readable file" $tmp/i.log && [ ! -e $tmp/i ]'
if [ -d "$data" ]; then
  "$drv" -problem siconos:lcp/lcp_mmcx.dat -siconos_dir "$data" -cp_solver lemke -out "$tmp/j" -quiet >"$tmp/j.log" 2>&1
  rc=$?
  check "a misspelt siconos: name exits 2 naming it; no run directory" \
    '[ $rc = 2 ] && grep -q "siconos:lcp/lcp_mmcx.dat: .*lcp_mmcx.dat is not a readable file of the data folder" $tmp/j.log && [ ! -e $tmp/j ]'
else
  skip "a misspelt siconos: name: $data absent"
fi
