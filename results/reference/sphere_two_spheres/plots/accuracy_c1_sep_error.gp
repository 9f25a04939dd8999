# accuracy_c1_sep_error.gp — c1_sep_error vs h: median (line) and interquartile range (band) per formulation / solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make accuracy_c1_sep_error.png and accuracy_c1_sep_error.svg by
# running `gnuplot accuracy_c1_sep_error.gp` in this directory (the run directory's plots/).
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
set ylabel "c1 sep error [s]"
set logscale y
set format y '%g'
set ytics (1e-03, 2e-03, 5e-03, 1e-02, 2e-02, 5e-02, 1e-01, 2e-01, 5e-01, 1e+00, 2e+00, 5e+00)
set yrange [0.0014659403007128325:0.42641163409707517]
set arrow from graph 0, first 0.001965846949956124 to graph 1, first 0.001965846949956124 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1860,1157 noenhanced font 'sans,11' background '#ffffff'
  set output 'accuracy_c1_sep_error.svg'
} else {
  set terminal pngcairo size 1860,1157 noenhanced font 'sans,11'
  set output 'accuracy_c1_sep_error.png'
}
set multiplot title "sphere on two spheres: contact transitions (Chakraborty et al. Sec. 6.2, Figs. 4-5)\nthe value of each cell's one successful task (line)\nx on the bottom: every task failed\nopen points shifted right: same values as an earlier series\ny: |c1_sep_time - c1_sep_exact|: contact 1's separation against the exact DAE [s]"
set key title "solver"
set key maxcols 1
set lmargin at screen 0.04946
set rmargin at screen 0.32043
set tmargin at screen 0.88332
set bmargin at screen 0.62403
set key at screen 0.16667, screen 0.56871 center top
set title "geometric_implicit"
plot \
  'accuracy_c1_sep_error.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'accuracy_c1_sep_error.dat' index 1 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'accuracy_c1_sep_error.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "tao_ssils", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "snes_vinewtonssls (every task failed)", \
  'accuracy_c1_sep_error.dat' index 15 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.38280
set rmargin at screen 0.65376
set tmargin at screen 0.88332
set bmargin at screen 0.62403
set key at screen 0.50000, screen 0.56871 center top
set title "tzitzouris_pang"
plot \
  'accuracy_c1_sep_error.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 2 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'accuracy_c1_sep_error.dat' index 3 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'accuracy_c1_sep_error.dat' index 3 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "tao_ssils", \
  'accuracy_c1_sep_error.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_c1_sep_error.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_c1_sep_error.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_c1_sep_error.dat' index 4 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "snes_vinewtonssls", \
  'accuracy_c1_sep_error.dat' index 17 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.71613
set rmargin at screen 0.98710
set tmargin at screen 0.88332
set bmargin at screen 0.62403
set key at screen 0.83333, screen 0.56871 center top
set title "stewart_trinkle"
plot \
  'accuracy_c1_sep_error.dat' index 5 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 5 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 5 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 5 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'accuracy_c1_sep_error.dat' index 6 using 1:2 with linespoints lw 2.3 pt 4 ps 1.6 dt 2 lc rgb '#D55E00' title "lemke (= fb_newton)", \
  'accuracy_c1_sep_error.dat' index 7 using 1:2 with linespoints lw 1.7 pt 8 ps 1.6 dt 3 lc rgb '#009E73' title "tao_ssils (= fb_newton)", \
  'accuracy_c1_sep_error.dat' index 8 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#CC79A7' notitle, \
  'accuracy_c1_sep_error.dat' index 8 using 1:2 with linespoints lw 1.2 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "snes_vinewtonssls", \
  'accuracy_c1_sep_error.dat' index 19 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.04946
set rmargin at screen 0.32043
set tmargin at screen 0.42697
set bmargin at screen 0.16768
set key at screen 0.16667, screen 0.11236 center top
set title "anitescu_potra"
plot \
  'accuracy_c1_sep_error.dat' index 9 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 9 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 9 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 9 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'accuracy_c1_sep_error.dat' index 10 using 1:2 with linespoints lw 2.3 pt 4 ps 1.6 dt 2 lc rgb '#D55E00' title "lemke (= fb_newton)", \
  'accuracy_c1_sep_error.dat' index 11 using 1:2 with linespoints lw 1.7 pt 8 ps 1.6 dt 3 lc rgb '#009E73' title "tao_ssils (= fb_newton)", \
  'accuracy_c1_sep_error.dat' index 12 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#CC79A7' notitle, \
  'accuracy_c1_sep_error.dat' index 12 using 1:3 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'accuracy_c1_sep_error.dat' index 12 using 1:4 with lines lw 0.8 dt 2 lc rgb '#CC79A7' notitle, \
  'accuracy_c1_sep_error.dat' index 12 using 1:2 with linespoints lw 1.2 pt 11 ps 1.3 dt 4 lc rgb '#CC79A7' title "snes_vinewtonssls", \
  'accuracy_c1_sep_error.dat' index 21 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 3
set lmargin at screen 0.38280
set rmargin at screen 0.65376
set tmargin at screen 0.42697
set bmargin at screen 0.16768
set key at screen 0.50000, screen 0.11236 center top
set title "coulomb_cone"
plot \
  'accuracy_c1_sep_error.dat' index 13 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 13 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 13 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 13 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fc_nsgs"
set key maxcols 3
set lmargin at screen 0.71613
set rmargin at screen 0.98710
set tmargin at screen 0.42697
set bmargin at screen 0.16768
set key at screen 0.83333, screen 0.11236 center top
set title "anitescu_ccp"
plot \
  'accuracy_c1_sep_error.dat' index 14 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 14 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 14 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_c1_sep_error.dat' index 14 using 1:2 with linespoints lw 2 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fc_nsgs"
unset multiplot
}
unset output
