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
set xrange [0.00080000000000000004:0.125]
set ylabel "wall time per step [s]"
set logscale y
set format y '%g'
set ytics (1e-06, 2e-06, 5e-06, 1e-05, 2e-05, 5e-05, 1e-04, 2e-04, 5e-04, 1e-03, 2e-03, 5e-03)
set yrange [3.3469043068114472e-06:0.0010022835005656816]
set arrow from graph 0, first 4.4950054636855251e-06 to graph 1, first 4.4950054636855251e-06 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1860,1140 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_step_seconds.svg'
} else {
  set terminal pngcairo size 1860,1140 noenhanced font 'sans,11'
  set output 'cost_step_seconds.png'
}
set multiplot title "sphere on two spheres: contact transitions (Chakraborty et al. Sec. 6.2, Figs. 4-5)\nthe value of each cell's one successful task (line)\nx on the bottom: every task failed\ny: wall time per step, whole step (detect + assemble + solve + recover), mean over the run [s]"
set key title "solver"
set key maxcols 1
set lmargin at screen 0.04946
set rmargin at screen 0.32043
set tmargin at screen 0.89649
set bmargin at screen 0.63333
set key at screen 0.16667, screen 0.57719 center top
set title "geometric_implicit"
plot \
  'cost_step_seconds.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'cost_step_seconds.dat' index 1 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "tao_ssils", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "snes_vinewtonssls (every task failed)", \
  'cost_step_seconds.dat' index 15 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.38280
set rmargin at screen 0.65376
set tmargin at screen 0.89649
set bmargin at screen 0.63333
set key at screen 0.50000, screen 0.57719 center top
set title "tzitzouris_pang"
plot \
  'cost_step_seconds.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 2 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'cost_step_seconds.dat' index 3 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 3 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "tao_ssils", \
  'cost_step_seconds.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 4 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "snes_vinewtonssls", \
  'cost_step_seconds.dat' index 17 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.71613
set rmargin at screen 0.98710
set tmargin at screen 0.89649
set bmargin at screen 0.63333
set key at screen 0.83333, screen 0.57719 center top
set title "stewart_trinkle"
plot \
  'cost_step_seconds.dat' index 5 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 5 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 5 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 5 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'cost_step_seconds.dat' index 6 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 6 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 6 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 6 using 1:2 with linespoints lw 2.3 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "lemke", \
  'cost_step_seconds.dat' index 7 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 7 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 7 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 7 using 1:2 with linespoints lw 1.7 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "tao_ssils", \
  'cost_step_seconds.dat' index 8 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#CC79A7' notitle, \
  'cost_step_seconds.dat' index 8 using 1:2 with linespoints lw 1.2 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "snes_vinewtonssls", \
  'cost_step_seconds.dat' index 19 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.04946
set rmargin at screen 0.32043
set tmargin at screen 0.43333
set bmargin at screen 0.17018
set key at screen 0.16667, screen 0.11404 center top
set title "anitescu_potra"
plot \
  'cost_step_seconds.dat' index 9 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 9 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 9 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 9 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'cost_step_seconds.dat' index 10 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 10 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 10 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'cost_step_seconds.dat' index 10 using 1:2 with linespoints lw 2.3 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "lemke", \
  'cost_step_seconds.dat' index 11 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 11 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 11 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 11 using 1:2 with linespoints lw 1.7 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "tao_ssils", \
  'cost_step_seconds.dat' index 12 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#CC79A7' notitle, \
  'cost_step_seconds.dat' index 12 using 1:3 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'cost_step_seconds.dat' index 12 using 1:4 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'cost_step_seconds.dat' index 12 using 1:2 with linespoints lw 1.2 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "snes_vinewtonssls", \
  'cost_step_seconds.dat' index 21 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 3
set lmargin at screen 0.38280
set rmargin at screen 0.65376
set tmargin at screen 0.43333
set bmargin at screen 0.17018
set key at screen 0.50000, screen 0.11404 center top
set title "coulomb_cone"
plot \
  'cost_step_seconds.dat' index 13 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 13 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 13 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 13 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fc_nsgs"
set key maxcols 3
set lmargin at screen 0.71613
set rmargin at screen 0.98710
set tmargin at screen 0.43333
set bmargin at screen 0.17018
set key at screen 0.83333, screen 0.11404 center top
set title "anitescu_ccp"
plot \
  'cost_step_seconds.dat' index 14 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 14 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 14 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 14 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fc_nsgs"
unset multiplot
}
unset output
