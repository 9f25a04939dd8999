# cost_cpu_seconds.gp — cpu_seconds vs mu: median (line) and interquartile range (band) per formulation / solver.
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make cost_cpu_seconds.png and cost_cpu_seconds.svg by
# running `gnuplot cost_cpu_seconds.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set xlabel "Coulomb friction coefficient at every contact"
set xrange [-0.5:0.5]
set xtics ("0.2" 0)
set ylabel "process CPU time per run [s]"
set yrange [-4.8785305252400004:50.427110829840004]
set arrow from graph 0, first -2.6119058795399996 to graph 1, first -2.6119058795399996 nohead lc rgb '#bbbbbb' dt 3
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'cost_cpu_seconds.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'cost_cpu_seconds.png'
}
set title "cannonball piles, LCP0/LCP1/LCP2 (Anitescu & Hart Sec. 4B, Figs. 3-4, Table 1)\nmedian (point) and interquartile range (bar) over the successful tasks\nat disks = 136, h = 0.05; x on the bottom: every task failed\ny: process CPU time per run, the whole loop: every step and the observers [s]"
set key maxcols 2
set key title "formulation / solver"
plot \
  'cost_cpu_seconds.dat' index 0 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#0072B2' notitle, \
  'cost_cpu_seconds.dat' index 0 using 1:2 with points lw 2.8 pt 7 ps 1.3 dt 1 lc rgb '#0072B2' title "anitescu_potra / path_crash", \
  'cost_cpu_seconds.dat' index 1 using 1:2:3:4 with yerrorbars ps 0 lw 1.5 lc rgb '#009E73' notitle, \
  'cost_cpu_seconds.dat' index 1 using 1:2 with points lw 1.2 pt 9 ps 1.3 dt 3 lc rgb '#009E73' title "anitescu_hart_lcp2 / path_crash", \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#D55E00' title "anitescu_hart_lcp1 / path_crash (every task failed)", \
  'cost_cpu_seconds.dat' index 2 using 1:2:3 with points pt 2 ps 1.6 lw 2 lc rgb variable notitle, \
  NaN with points pt 2 ps 1.6 lw 2 lc rgb '#444444' title "failed (no successful task)"
}
unset output
