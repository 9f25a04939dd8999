# success_rate.gp — success rate per x value and series (bars).
# Made by the sweep engine (bench/engine/plot.c) from ../tasks.csv; re-make success_rate.png and success_rate.svg by
# running `gnuplot success_rate.gp` in this directory (the run directory's plots/).
reset
set encoding utf8
set key below horizontal center maxcols 4 spacing 1.1 samplen 3 noenhanced title " "
set grid back lt 1 lc rgb '#e4e4e4' lw 1
set border 3 lw 1.2
set tics nomirror out
set datafile missing 'NaN'
set mxtics default
set title "rolling unit disc: implicit circle vs N-gon (Chakraborty et al. Sec. 6.1, Fig. 1)\ntasks whose status is a success (ok, converged) / applicable tasks (not_applicable left out)\nat shape = disc, N = 1000, formulation = stewart_trinkle"
set xlabel "time step [s]"
set ylabel 'success rate [%]'
set yrange [0:115]
set ytics 0,20,100
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9 relative
set xrange [-0.5:2.5]
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'success_rate.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'success_rate.png'
}
set key maxcols 4
set key title "\nsolver"
plot \
  'success_rate.dat' using 2:xtic(1) lc rgb '#0072B2' title "fb_newton", \
  'success_rate.dat' using 5 lc rgb '#D55E00' title "lemke", \
  'success_rate.dat' using 8 lc rgb '#009E73' title "path_crash", \
  'success_rate.dat' using ($0 + (0 - 2 / 2.0) / 4.0):(column(2) + 3):(sprintf('%d/%d', column(3), column(4))) with labels font ',8' notitle, \
  'success_rate.dat' using ($0 + (1 - 2 / 2.0) / 4.0):(column(5) + 3):(sprintf('%d/%d', column(6), column(7))) with labels font ',8' notitle, \
  'success_rate.dat' using ($0 + (2 - 2 / 2.0) / 4.0):(column(8) + 3):(sprintf('%d/%d', column(9), column(10))) with labels font ',8' notitle
}
unset output
