# accuracy_friction_residual.gp — friction_residual vs h: median (line) and interquartile range (band) per formulation / solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make accuracy_friction_residual.png and accuracy_friction_residual.svg by
# running `gnuplot accuracy_friction_residual.gp` in this directory (the run directory's plots/).
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
set ylabel "friction residual [N s]"
set logscale y
set format y '%.0e'
set yrange [2.1802211753517062e-08:0.00019520309337556189]
set arrow from graph 0, first 3.4907088713540857e-08 to graph 1, first 3.4907088713540857e-08 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1240,1119 noenhanced font 'sans,11' background '#ffffff'
  set output 'accuracy_friction_residual.svg'
} else {
  set terminal pngcairo size 1240,1119 noenhanced font 'sans,11'
  set output 'accuracy_friction_residual.png'
}
set multiplot title "sphere on two spheres: contact transitions (Chakraborty et al. Sec. 6.2, Figs. 4-5)\nthe value of each cell's one successful task (line)\nx on the bottom: every task failed; no value (not measured) for coulomb_cone, anitescu_ccp\ny: largest friction-law violation over steps and contacts: | |p_f|_e - mu p_n | sliding, max(0, |p_f|_e - mu p_n) rolling, |p_f|_e the ellipsoid\nnorm (geometric_implicit and tzitzouris_pang only) [N s]"
set key title "solver"
set key maxcols 1
set lmargin at screen 0.07419
set rmargin at screen 0.48065
set tmargin at screen 0.87936
set bmargin at screen 0.61126
set key at screen 0.25000, screen 0.55407 center top
set title "geometric_implicit"
plot \
  'accuracy_friction_residual.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_friction_residual.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_friction_residual.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_friction_residual.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'accuracy_friction_residual.dat' index 1 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'accuracy_friction_residual.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "tao_ssils", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "snes_vinewtonssls (every task failed)", \
  'accuracy_friction_residual.dat' index 5 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.57419
set rmargin at screen 0.98065
set tmargin at screen 0.87936
set bmargin at screen 0.61126
set key at screen 0.75000, screen 0.55407 center top
set title "tzitzouris_pang"
plot \
  'accuracy_friction_residual.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_friction_residual.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_friction_residual.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_friction_residual.dat' index 2 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "fb_newton", \
  'accuracy_friction_residual.dat' index 3 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#D55E00' notitle, \
  'accuracy_friction_residual.dat' index 3 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "tao_ssils", \
  'accuracy_friction_residual.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_friction_residual.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_friction_residual.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_friction_residual.dat' index 4 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "snes_vinewtonssls", \
  'accuracy_friction_residual.dat' index 7 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.07419
set rmargin at screen 0.48065
set tmargin at screen 0.42449
set bmargin at screen 0.15639
set key at screen 0.25000, screen 0.09920 center top
set title "stewart_trinkle"
plot \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#CC79A7' title "snes_vinewtonssls (every task failed)", \
  'accuracy_friction_residual.dat' index 9 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.57419
set rmargin at screen 0.98065
set tmargin at screen 0.42449
set bmargin at screen 0.15639
set key at screen 0.75000, screen 0.09920 center top
set title "anitescu_potra"
plot \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#CC79A7' title "snes_vinewtonssls (every task failed)", \
  'accuracy_friction_residual.dat' index 11 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
unset multiplot
}
unset output
