# cost_solve_seconds.gp — solve_seconds vs problem: median (line) and interquartile range (band) per solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make cost_solve_seconds.png and cost_solve_seconds.svg by
# running `gnuplot cost_solve_seconds.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set xlabel "problem classes"
set xrange [-0.5:12.5]
set xtics ("siconos:fc3d/BoxesStack1-i100000-32.hdf5.dat" 0, "siconos:fc3d/Capsules-i101-404.dat" 1, "siconos:fc3d/Confeti-ex03-Fc3D-SBM.dat" 2, "siconos:fc3d/FC3D_Example1.dat" 3, "siconos:fc3d/FrictionContact3D_1c.dat" 4, "siconos:fc3d/FrictionContactProblem00071.dat" 5, "siconos:fc3d/FrictionContactProblem00374.dat" 6, "siconos:fc3d/NESpheres_10_1.dat" 7, "siconos:fc3d/OneObject-i100000-499.hdf5.dat" 8, "siconos:fc3d/Rover1039.dat" 9, "siconos:fc3d/Rover4396.dat" 10, "siconos:fc3d/Rover4516.dat" 11, "siconos:fc3d/fc2d_granularflowonwall_00667_00000.dat" 12)
set xtics rotate by 45 right
set ylabel "wall time of one solve [s]"
set logscale y
set format y '%.0e'
set yrange [3.8554713865202712e-08:5.285104330003378]
set arrow from graph 0, first 1.0161447027252991e-07 to graph 1, first 1.0161447027252991e-07 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,719 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_solve_seconds.svg'
} else {
  set terminal pngcairo size 1000,719 noenhanced font 'sans,11'
  set output 'cost_solve_seconds.png'
}
set title "complementarity solvers on Siconos' frictional-contact problems (the exact Coulomb cone)\nthe value of each cell's one successful task (point)\nat seed = 0; x on the bottom: every task failed\ny: wall time of one solve, solver only (the harness's timing), median of the -repeats timed solves [s]"
set key title "\nsolver"
set key maxcols 2
plot \
  'cost_solve_seconds.dat' index 0 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#0072B2' notitle, \
  'cost_solve_seconds.dat' index 0 using 1:2 with points lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fc_nsgs", \
  'cost_solve_seconds.dat' index 1 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'cost_solve_seconds.dat' index 1 using 1:2 with points lw 2.6 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "fc_newton", \
  'cost_solve_seconds.dat' index 2 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#009E73' notitle, \
  'cost_solve_seconds.dat' index 2 using 1:2 with points lw 2.3 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "fc_admm", \
  'cost_solve_seconds.dat' index 3 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#CC79A7' notitle, \
  'cost_solve_seconds.dat' index 3 using 1:2 with points lw 2.1 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "siconos_fc_nsgs", \
  'cost_solve_seconds.dat' index 4 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#E69F00' notitle, \
  'cost_solve_seconds.dat' index 4 using 1:2 with points lw 1.9 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "siconos_fc_nsn_ac", \
  'cost_solve_seconds.dat' index 5 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#56B4E9' notitle, \
  'cost_solve_seconds.dat' index 5 using 1:2 with points lw 1.7 pt 15 ps 1.3 dt 1 lc rgb '#56B4E9' title "siconos_fc_nsn_fb", \
  'cost_solve_seconds.dat' index 6 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#000000' notitle, \
  'cost_solve_seconds.dat' index 6 using 1:2 with points lw 1.4 pt 1 ps 1.3 dt 2 lc rgb '#000000' title "siconos_fc_admm", \
  'cost_solve_seconds.dat' index 7 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#F0E442' notitle, \
  'cost_solve_seconds.dat' index 7 using 1:2 with points lw 1.2 pt 3 ps 1.3 dt 3 lc rgb '#F0E442' title "siconos_fc_vi_eg", \
  'cost_solve_seconds.dat' index 8 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
}
unset output
