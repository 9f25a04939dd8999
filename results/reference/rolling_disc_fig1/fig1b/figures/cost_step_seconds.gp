# cost_step_seconds.gp — step_seconds vs h: median (line) and interquartile range (band) per solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make cost_step_seconds.png and cost_step_seconds.svg by
# running `gnuplot cost_step_seconds.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set xlabel "time step [s]"
set logscale x
set format x '%g'
set xrange [8.0000000000000007e-05:0.012500000000000001]
set ylabel "wall time per step [s]"
set format y '%g'
set yrange [-0.00098947054231725631:0.012721847564468248]
set arrow from graph 0, first -0.00043659481220493764 to graph 1, first -0.00043659481220493764 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_step_seconds.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'cost_step_seconds.png'
}
set title "rolling unit disc: implicit circle vs N-gon (Chakraborty et al. Sec. 6.1, Fig. 1)\nthe value of each cell's one successful task (line)\nat shape = disc, N = 1000, formulation = stewart_trinkle\nx on the bottom: every task failed\ny: wall time per step, whole step (detect + assemble + solve + recover), mean over the run [s]"
set key title "\nsolver"
set key maxcols 2
plot \
  'cost_step_seconds.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'cost_step_seconds.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "lemke", \
  'cost_step_seconds.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 2 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "path_crash", \
  'cost_step_seconds.dat' index 3 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
}
unset output
