# accuracy_err_mean.gp — err_mean vs h: median (line) and interquartile range (band) per formulation / detection / solver / mu.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make accuracy_err_mean.png and accuracy_err_mean.svg by
# running `gnuplot accuracy_err_mean.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set xlabel "time step [s] (a multiple of -ref_h)"
set logscale x
set format x '%g'
set xrange [0.00080000000000000004:0.02]
set xtics (0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016)
set xtics rotate by 45 right
set ylabel "err mean [m]"
set logscale y
set format y '%.0e'
set yrange [4.7908490145604335e-06:0.73073121423830911]
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1240,1040 noenhanced font 'sans,11' background '#ffffff'
  set output 'accuracy_err_mean.svg'
} else {
  set terminal pngcairo size 1240,1040 noenhanced font 'sans,11'
  set output 'accuracy_err_mean.png'
}
set multiplot layout 2,2 title "robot-arm grasp of a polygon, target position error vs a PEG h = 1e-4 reference (Williams, Lu & Trinkle 2016)\nmedian (line) and interquartile range (band) over the successful tasks\naggregated over seed; open points shifted right: same values as an earlier series\ny: mean position error of the target against the reference over the samples [m]"
set key maxcols 1
set title "peg"
plot \
  'accuracy_err_mean.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "closest / lemke / 0", \
  'accuracy_err_mean.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 1 using 1:2 with linespoints lw 2.3 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "closest / path_crash / 0", \
  'accuracy_err_mean.dat' index 8 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 8 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 8 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 8 using 1:2 with linespoints lw 1.9 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "closest / lemke / 0.125", \
  'accuracy_err_mean.dat' index 9 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 9 using 1:3 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 9 using 1:4 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 9 using 1:2 with linespoints lw 1.4 pt 1 ps 1.3 dt 2 lc rgb '#000000' title "closest / path_crash / 0.125"
set title "stewart_trinkle"
plot \
  'accuracy_err_mean.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 2 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "closest / lemke / 0", \
  'accuracy_err_mean.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'accuracy_err_mean.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'accuracy_err_mean.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'accuracy_err_mean.dat' index 3 using 1:2 with linespoints lw 2.6 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "paper / lemke / 0", \
  'accuracy_err_mean.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 4 using 1:2 with linespoints lw 2.3 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "closest / path_crash / 0", \
  'accuracy_err_mean.dat' index 5 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#CC79A7' notitle, \
  'accuracy_err_mean.dat' index 5 using 1:3 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'accuracy_err_mean.dat' index 5 using 1:4 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'accuracy_err_mean.dat' index 5 using 1:2 with linespoints lw 2.1 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "paper / path_crash / 0", \
  'accuracy_err_mean.dat' index 10 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 10 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 10 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 10 using 1:2 with linespoints lw 1.9 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "closest / lemke / 0.125", \
  'accuracy_err_mean.dat' index 11 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#56B4E9' notitle, \
  'accuracy_err_mean.dat' index 11 using 1:3 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'accuracy_err_mean.dat' index 11 using 1:4 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'accuracy_err_mean.dat' index 11 using 1:2 with linespoints lw 1.7 pt 15 ps 1.3 dt 1 lc rgb '#56B4E9' title "paper / lemke / 0.125", \
  'accuracy_err_mean.dat' index 12 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 12 using 1:3 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 12 using 1:4 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 12 using 1:2 with linespoints lw 1.4 pt 1 ps 1.3 dt 2 lc rgb '#000000' title "closest / path_crash / 0.125", \
  'accuracy_err_mean.dat' index 13 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#F0E442' notitle, \
  'accuracy_err_mean.dat' index 13 using 1:3 with lines lw 0.8 dt 2 lc rgb '#F0E442' notitle, \
  'accuracy_err_mean.dat' index 13 using 1:4 with lines lw 0.8 dt 2 lc rgb '#F0E442' notitle, \
  'accuracy_err_mean.dat' index 13 using 1:2 with linespoints lw 1.2 pt 3 ps 1.3 dt 3 lc rgb '#F0E442' title "paper / path_crash / 0.125"
set title "corrective"
plot \
  'accuracy_err_mean.dat' index 6 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 6 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 6 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_err_mean.dat' index 6 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "closest / lemke / 0", \
  'accuracy_err_mean.dat' index 7 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 7 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 7 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_err_mean.dat' index 7 using 1:2 with linespoints lw 2.3 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "closest / path_crash / 0", \
  'accuracy_err_mean.dat' index 14 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 14 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 14 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_err_mean.dat' index 14 using 1:2 with linespoints lw 1.9 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "closest / lemke / 0.125", \
  'accuracy_err_mean.dat' index 15 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 15 using 1:3 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 15 using 1:4 with lines lw 0.8 dt 2 lc rgb '#000000' notitle, \
  'accuracy_err_mean.dat' index 15 using 1:2 with linespoints lw 1.4 pt 1 ps 1.3 dt 2 lc rgb '#000000' title "closest / path_crash / 0.125"
unset multiplot
}
unset output
