# cost_step_seconds.gp — step_seconds vs h: median (line) and interquartile range (band) per formulation / detection / solver.
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
set xrange [0.00080000000000000004:0.02]
set xtics (0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016)
set xtics rotate by 45 right
set ylabel "wall time per step [s]"
set logscale y
set format y '%g'
set ytics (1e-05, 2e-05, 5e-05, 1e-04, 2e-04, 5e-04, 1e-03, 2e-03, 5e-03, 1e-02, 2e-02, 5e-02)
set yrange [1.3287055346898465e-05:0.0044591792908473728]
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_step_seconds.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'cost_step_seconds.png'
}
set title "box of icosahedra: total overlap volume vs h (Williams, Lu & Trinkle 2016, Figs. 23-24)\nmedian (line) and interquartile range (band) over the successful tasks\nopen points shifted right: same values as an earlier series\ny: wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]"
set key maxcols 2
plot \
  'cost_step_seconds.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_step_seconds.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "peg / closest / lemke", \
  'cost_step_seconds.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_step_seconds.dat' index 1 using 1:2 with linespoints lw 2.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "corrective / closest / lemke", \
  'cost_step_seconds.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'cost_step_seconds.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'cost_step_seconds.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'cost_step_seconds.dat' index 2 using 1:2 with linespoints lw 1.5 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "stewart_trinkle / closest / lemke", \
  'cost_step_seconds.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#56B4E9' notitle, \
  'cost_step_seconds.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'cost_step_seconds.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'cost_step_seconds.dat' index 3 using 1:2 with linespoints lw 1.2 pt 15 ps 1.3 dt 1 lc rgb '#56B4E9' title "stewart_trinkle / paper / lemke"
}
unset output
