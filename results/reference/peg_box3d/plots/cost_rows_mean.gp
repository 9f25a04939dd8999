# cost_rows_mean.gp — rows_mean vs h: median (line) and interquartile range (band) per formulation / detection / solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make cost_rows_mean.png and cost_rows_mean.svg by
# running `gnuplot cost_rows_mean.gp` in this directory (the run directory's plots/).
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
set ylabel "mean rows of the complementarity problem per step"
set yrange [-2.6455597948717946:56.896233641025638]
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_rows_mean.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'cost_rows_mean.png'
}
set title "box of icosahedra: total overlap volume vs h (Williams, Lu & Trinkle 2016, Figs. 23-24)\nmedian (line) and interquartile range (band) over the successful tasks\nopen points shifted right: same values as an earlier series"
set key maxcols 2
plot \
  'cost_rows_mean.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'cost_rows_mean.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_rows_mean.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'cost_rows_mean.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "peg / closest / lemke", \
  'cost_rows_mean.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'cost_rows_mean.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_rows_mean.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'cost_rows_mean.dat' index 1 using 1:2 with linespoints lw 2.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "corrective / closest / lemke", \
  'cost_rows_mean.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'cost_rows_mean.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'cost_rows_mean.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'cost_rows_mean.dat' index 2 using 1:2 with linespoints lw 1.5 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "stewart_trinkle / closest / lemke", \
  'cost_rows_mean.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#56B4E9' notitle, \
  'cost_rows_mean.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'cost_rows_mean.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'cost_rows_mean.dat' index 3 using 1:2 with linespoints lw 1.2 pt 15 ps 1.3 dt 1 lc rgb '#56B4E9' title "stewart_trinkle / paper / lemke"
}
unset output
