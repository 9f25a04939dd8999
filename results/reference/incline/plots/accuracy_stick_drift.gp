# accuracy_stick_drift.gp — stick_drift vs h: median (line) and interquartile range (band) per formulation / solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make accuracy_stick_drift.png and accuracy_stick_drift.svg by
# running `gnuplot accuracy_stick_drift.gp` in this directory (the run directory's plots/).
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
set ylabel "stick drift [m]"
set logscale y
set format y '%.0e'
set yrange [2.2336459458024928e-14:1.1712791431195413e-09]
set arrow from graph 0, first 3.9186272931802013e-14 to graph 1, first 3.9186272931802013e-14 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1240,1157 noenhanced font 'sans,11' background '#ffffff'
  set output 'accuracy_stick_drift.svg'
} else {
  set terminal pngcairo size 1240,1157 noenhanced font 'sans,11'
  set output 'accuracy_stick_drift.png'
}
set multiplot title "block on an incline vs Coulomb's law (Stewart-Trinkle 1996; Anitescu-Potra)\nmedian (line) and interquartile range (band) over the successful tasks\naggregated over dim, theta, mu; x on the bottom: every task failed\nopen triangles: under the floor, drawn at it\ny: |drift| along the slope when Coulomb's law says it sticks (else empty) [m]"
set key title "solver"
set key maxcols 1
set lmargin at screen 0.07419
set rmargin at screen 0.48065
set tmargin at screen 0.88332
set bmargin at screen 0.62403
set key at screen 0.25000, screen 0.56871 center top
set title "stewart_trinkle"
plot \
  'accuracy_stick_drift.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_stick_drift.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_stick_drift.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_stick_drift.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "lemke", \
  'accuracy_stick_drift.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'accuracy_stick_drift.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'accuracy_stick_drift.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'accuracy_stick_drift.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "fb_newton", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "fc_nsgs (every task failed)", \
  'accuracy_stick_drift.dat' index 6 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)", \
  'accuracy_stick_drift.dat' index 7 using 1:2:3 with points pt 10 ps 2.2 lw 1.5 lc rgb variable notitle, \
  NaN with points pt 10 ps 2 lc rgb '#444444' title "clamped (under 1e-13)"
set key maxcols 1
set lmargin at screen 0.57419
set rmargin at screen 0.98065
set tmargin at screen 0.88332
set bmargin at screen 0.62403
set key at screen 0.75000, screen 0.56871 center top
set title "anitescu_potra"
plot \
  'accuracy_stick_drift.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_stick_drift.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_stick_drift.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_stick_drift.dat' index 2 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "lemke", \
  'accuracy_stick_drift.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#D55E00' notitle, \
  'accuracy_stick_drift.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'accuracy_stick_drift.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#D55E00' notitle, \
  'accuracy_stick_drift.dat' index 3 using 1:2 with linespoints lw 2 pt 5 ps 1.3 dt 2 lc rgb '#D55E00' title "fb_newton", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#009E73' title "fc_nsgs (every task failed)", \
  'accuracy_stick_drift.dat' index 8 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)", \
  'accuracy_stick_drift.dat' index 9 using 1:2:3 with points pt 10 ps 2.2 lw 1.5 lc rgb variable notitle, \
  NaN with points pt 10 ps 2 lc rgb '#444444' title "clamped (under 1e-13)"
set key maxcols 1
set lmargin at screen 0.07419
set rmargin at screen 0.48065
set tmargin at screen 0.42697
set bmargin at screen 0.16768
set key at screen 0.25000, screen 0.11236 center top
set title "coulomb_cone"
plot \
  'accuracy_stick_drift.dat' index 4 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_stick_drift.dat' index 4 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_stick_drift.dat' index 4 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_stick_drift.dat' index 4 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "fc_nsgs", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#0072B2' title "lemke (every task failed)", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#D55E00' title "fb_newton (every task failed)", \
  'accuracy_stick_drift.dat' index 10 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
set key maxcols 1
set lmargin at screen 0.57419
set rmargin at screen 0.98065
set tmargin at screen 0.42697
set bmargin at screen 0.16768
set key at screen 0.75000, screen 0.11236 center top
set title "anitescu_ccp"
plot \
  'accuracy_stick_drift.dat' index 5 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_stick_drift.dat' index 5 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_stick_drift.dat' index 5 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_stick_drift.dat' index 5 using 1:2 with linespoints lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "fc_nsgs", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#0072B2' title "lemke (every task failed)", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#D55E00' title "fb_newton (every task failed)", \
  'accuracy_stick_drift.dat' index 12 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
unset multiplot
}
unset output
