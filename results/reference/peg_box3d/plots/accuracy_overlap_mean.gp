# accuracy_overlap_mean.gp — overlap_mean vs h: median (line) and interquartile range (band) per formulation / detection / solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make accuracy_overlap_mean.png and accuracy_overlap_mean.svg by
# running `gnuplot accuracy_overlap_mean.gp` in this directory (the run directory's plots/).
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
set ylabel "overlap mean [m^3]"
set logscale y
set format y '%.0e'
set yrange [2.1251705105020141e-13:0.0016222525829611382]
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'accuracy_overlap_mean.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'accuracy_overlap_mean.png'
}
set title "box of icosahedra: total overlap volume vs h (Williams, Lu & Trinkle 2016, Figs. 23-24)\nmedian (line) and interquartile range (band) over the successful tasks\nopen points shifted right: same values as an earlier series\ny: mean over the steps of the total intersection volume [m^3]"
set key maxcols 2
plot \
  'accuracy_overlap_mean.dat' index 0 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#0072B2' notitle, \
  'accuracy_overlap_mean.dat' index 0 using 1:3 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_overlap_mean.dat' index 0 using 1:4 with lines lw 0.8 dt 2 lc rgb '#0072B2' notitle, \
  'accuracy_overlap_mean.dat' index 0 using 1:2 with linespoints lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "peg / closest / lemke", \
  'accuracy_overlap_mean.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#009E73' notitle, \
  'accuracy_overlap_mean.dat' index 1 using 1:3 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_overlap_mean.dat' index 1 using 1:4 with lines lw 0.8 dt 2 lc rgb '#009E73' notitle, \
  'accuracy_overlap_mean.dat' index 1 using 1:2 with linespoints lw 2.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "corrective / closest / lemke", \
  'accuracy_overlap_mean.dat' index 2 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#E69F00' notitle, \
  'accuracy_overlap_mean.dat' index 2 using 1:3 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_overlap_mean.dat' index 2 using 1:4 with lines lw 0.8 dt 2 lc rgb '#E69F00' notitle, \
  'accuracy_overlap_mean.dat' index 2 using 1:2 with linespoints lw 1.5 pt 13 ps 1.3 dt 5 lc rgb '#E69F00' title "stewart_trinkle / closest / lemke", \
  'accuracy_overlap_mean.dat' index 3 using 1:3:4 with filledcurves fs transparent solid 0.1 noborder lc rgb '#56B4E9' notitle, \
  'accuracy_overlap_mean.dat' index 3 using 1:3 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'accuracy_overlap_mean.dat' index 3 using 1:4 with lines lw 0.8 dt 2 lc rgb '#56B4E9' notitle, \
  'accuracy_overlap_mean.dat' index 3 using 1:2 with linespoints lw 1.2 pt 15 ps 1.3 dt 1 lc rgb '#56B4E9' title "stewart_trinkle / paper / lemke"
}
unset output
