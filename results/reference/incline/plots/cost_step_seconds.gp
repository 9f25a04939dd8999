# cost_step_seconds.gp — step_seconds vs h: median (line) and interquartile range (band) per formulation / solver.
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
set xrange [0.00080000000000000004:0.012500000000000001]
set xtics (0.001, 0.01)
set ylabel "wall time per step [s]"
set logscale y
set format y '%g'
set ytics (1e-06, 2e-06, 5e-06, 1e-05, 2e-05, 5e-05, 1e-04, 2e-04, 5e-04)
set yrange [1.7018677144444136e-06:0.00019915845005380104]
set arrow from graph 0, first 2.1772356370397124e-06 to graph 1, first 2.1772356370397124e-06 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1240,1102 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_step_seconds.svg'
} else {
  set terminal pngcairo size 1240,1102 noenhanced font 'sans,11'
  set output 'cost_step_seconds.png'
}
set multiplot title "block on an incline vs Coulomb's law (Stewart-Trinkle 1996; Anitescu-Potra)\nmedian (line) and interquartile range (band) over the successful tasks\naggregated over dim, theta, mu; x on the bottom: every task failed\ny: wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]"
set key title "solver"
set key maxcols 1
set lmargin at screen 0.07419
set rmargin at screen 0.48065
set tmargin at screen 0.89292
set bmargin at screen 0.62069
set key at screen 0.25000, screen 0.56261 center top
set title "stewart_trinkle"
plot \
  'cost_step_seconds.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "lemke", \
  'cost_step_seconds.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "fb_newton", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "fc_nsgs (every task failed)", \
  'cost_step_seconds.dat' index 6 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.57419
set rmargin at screen 0.98065
set tmargin at screen 0.89292
set bmargin at screen 0.62069
set key at screen 0.75000, screen 0.56261 center top
set title "anitescu_potra"
plot \
  'cost_step_seconds.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 2 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "lemke", \
  'cost_step_seconds.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 3 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "fb_newton", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "fc_nsgs (every task failed)", \
  'cost_step_seconds.dat' index 8 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.07419
set rmargin at screen 0.48065
set tmargin at screen 0.43103
set bmargin at screen 0.15880
set key at screen 0.25000, screen 0.10073 center top
set title "coulomb_cone"
plot \
  'cost_step_seconds.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 4 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "fc_nsgs", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#0072B2' title "lemke (every task failed)", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#D55E00' title "fb_newton (every task failed)", \
  'cost_step_seconds.dat' index 10 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.57419
set rmargin at screen 0.98065
set tmargin at screen 0.43103
set bmargin at screen 0.15880
set key at screen 0.75000, screen 0.10073 center top
set title "anitescu_ccp"
plot \
  'cost_step_seconds.dat' index 5 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 5 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 5 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 5 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "fc_nsgs", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#0072B2' title "lemke (every task failed)", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#D55E00' title "fb_newton (every task failed)", \
  'cost_step_seconds.dat' index 12 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
unset multiplot
}
unset output
