# profile_solve_seconds.gp — Dolan-More performance profile of solve_seconds per solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make profile_solve_seconds.png and profile_solve_seconds.svg by
# running `gnuplot profile_solve_seconds.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set xlabel "tau = cost / the best solver's cost on the instance"
set ylabel "fraction of instances within tau of the best"
set logscale x 2
set xrange [1:82.465421565703338]
set yrange [0:1.05]
set ytics 0,0.2,1
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'profile_solve_seconds.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'profile_solve_seconds.png'
}
set title "complementarity solvers on Siconos' frictional-contact problems (the exact Coulomb cone)\nperformance profile (Dolan-More) of solve_seconds over 13 instances (problem x seed)\ncost: wall time of one solve, solver only (the harness's timing), median of the -repeats timed solves [s]"
set key maxcols 3
set key title "\nsolver"
plot \
  'profile_solve_seconds.dat' index 0 using 1:2 with steps lw 2.8 dt 1 lc rgb '#0072B2' title "fc_nsgs (solved 77%)", \
  'profile_solve_seconds.dat' index 1 using 1:2 with steps lw 2.6 dt 2 lc rgb '#D55E00' title "fc_newton (solved 100%)", \
  'profile_solve_seconds.dat' index 2 using 1:2 with steps lw 2.3 dt 3 lc rgb '#009E73' title "fc_admm (solved 92%)", \
  'profile_solve_seconds.dat' index 3 using 1:2 with steps lw 2.1 dt 4 lc rgb '#CC79A7' title "siconos_fc_nsgs (solved 77%)", \
  'profile_solve_seconds.dat' index 4 using 1:2 with steps lw 1.9 dt 5 lc rgb '#E69F00' title "siconos_fc_nsn_ac (solved 62%)", \
  'profile_solve_seconds.dat' index 5 using 1:2 with steps lw 1.7 dt 1 lc rgb '#56B4E9' title "siconos_fc_nsn_fb (solved 69%)", \
  'profile_solve_seconds.dat' index 6 using 1:2 with steps lw 1.4 dt 2 lc rgb '#000000' title "siconos_fc_admm (solved 54%)", \
  'profile_solve_seconds.dat' index 7 using 1:2 with steps lw 1.2 dt 3 lc rgb '#F0E442' title "siconos_fc_vi_eg (solved 62%)"
}
unset output
