# cost_pivots_mean.gp — pivots_mean vs x: median (line) and interquartile range (band) per friction / y.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make cost_pivots_mean.png and cost_pivots_mean.svg by
# running `gnuplot cost_pivots_mean.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set xlabel "gripper centre right of the part's centre [mm]"
set xrange [-3.8500000000000001:3.8500000000000001]
set ylabel "mean solver iterations (pivots) per step"
set yrange [10.307985607673897:29.978728002221661]
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_pivots_mean.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'cost_pivots_mean.png'
}
set title "grasping the lock piece: success map (Chakraborty et al. Sec. 6.4, Fig. 10; Brost & Christiansen)\nmedian (line) and interquartile range (band) over the successful tasks\naggregated over friction_support, friction_gripper, close_force, seed; at formulation = stewart_trinkle, solver = lemke"
set key maxcols 4
set key title "y"
plot \
  'cost_pivots_mean.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_pivots_mean.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_pivots_mean.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_pivots_mean.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "-17.5", \
  'cost_pivots_mean.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_pivots_mean.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_pivots_mean.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_pivots_mean.dat' index 1 using 1:2 with linespoints lw 2.6 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "-16.5", \
  'cost_pivots_mean.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_pivots_mean.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_pivots_mean.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_pivots_mean.dat' index 2 using 1:2 with linespoints lw 2.5 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "-15.5", \
  'cost_pivots_mean.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#CC79A7' notitle, \
  'cost_pivots_mean.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'cost_pivots_mean.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'cost_pivots_mean.dat' index 3 using 1:2 with linespoints lw 2.3 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "-14.5", \
  'cost_pivots_mean.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'cost_pivots_mean.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'cost_pivots_mean.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'cost_pivots_mean.dat' index 4 using 1:2 with linespoints lw 2.2 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "-13.5", \
  'cost_pivots_mean.dat' index 5 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#56B4E9' notitle, \
  'cost_pivots_mean.dat' index 5 using 1:3 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'cost_pivots_mean.dat' index 5 using 1:4 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'cost_pivots_mean.dat' index 5 using 1:2 with linespoints lw 2 pt 15 ps 1.3 dt 1 lc rgb '#56B4E9' title "-12.5", \
  'cost_pivots_mean.dat' index 6 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#000000' notitle, \
  'cost_pivots_mean.dat' index 6 using 1:3 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'cost_pivots_mean.dat' index 6 using 1:4 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'cost_pivots_mean.dat' index 6 using 1:2 with linespoints lw 1.8 pt 1 ps 1.3 dt 2 lc rgb '#000000' title "-11.5", \
  'cost_pivots_mean.dat' index 7 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#F0E442' notitle, \
  'cost_pivots_mean.dat' index 7 using 1:3 with lines lw 0.8 dt 2 lc rgb '#F0E442' notitle, \
  'cost_pivots_mean.dat' index 7 using 1:4 with lines lw 0.8 dt 2 lc rgb '#F0E442' notitle, \
  'cost_pivots_mean.dat' index 7 using 1:2 with linespoints lw 1.7 pt 3 ps 1.3 dt 3 lc rgb '#F0E442' title "-10.5", \
  'cost_pivots_mean.dat' index 8 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_pivots_mean.dat' index 8 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_pivots_mean.dat' index 8 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_pivots_mean.dat' index 8 using 1:2 with linespoints lw 1.5 pt 14 ps 1.3 dt 4 lc rgb '#0072B2' title "-9.5", \
  'cost_pivots_mean.dat' index 9 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_pivots_mean.dat' index 9 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_pivots_mean.dat' index 9 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_pivots_mean.dat' index 9 using 1:2 with linespoints lw 1.4 pt 7 ps 1.3 dt 5 lc rgb '#D55E00' title "-8.5", \
  'cost_pivots_mean.dat' index 10 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_pivots_mean.dat' index 10 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_pivots_mean.dat' index 10 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_pivots_mean.dat' index 10 using 1:2 with linespoints lw 1.2 pt 5 ps 1.3 dt 1 lc rgb '#009E73' title "-7.5"
}
unset output
