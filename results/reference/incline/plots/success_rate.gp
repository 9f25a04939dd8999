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
set title "block on an incline vs Coulomb's law (Stewart-Trinkle 1996; Anitescu-Potra)\ntasks whose status is a success (ok, converged) / applicable tasks (not_applicable left out;\nhatched: no applicable task)\naggregated over dim, theta, mu"
unset grid
set border 15
set tics nomirror out
set xrange [-0.5:1.5]
set yrange [11.5:-0.5]
set xtics ("1e-3" 0, "1e-2" 1)
set ytics ("stewart_trinkle / lemke" 0, "stewart_trinkle / fb_newton" 1, "stewart_trinkle / fc_nsgs" 2, "anitescu_potra / lemke" 3, "anitescu_potra / fb_newton" 4, "anitescu_potra / fc_nsgs" 5, "coulomb_cone / lemke" 6, "coulomb_cone / fb_newton" 7, "coulomb_cone / fc_nsgs" 8, "anitescu_ccp / lemke" 9, "anitescu_ccp / fb_newton" 10, "anitescu_ccp / fc_nsgs" 11)
set xlabel "time step [s]"
set ylabel "formulation / solver"
set cblabel "success rate [%] (cividis palette, colour-blind safe)"
set cbrange [0:100]
unset key
# cividis (colour-blind safe, lightness rising with the rate): its quartile colours (viridisLite
# cividis(5)), interpolated
set palette defined (0 '#00204d', 25 '#414d6b', 50 '#7c7b78', 75 '#bcaf6f', 100 '#ffea46')
$cells << EOD
0 0 100 "20/20"
1 0 100 "20/20"
0 1 85 "17/20"
1 1 80 "16/20"
0 2 0 "0/20"
1 2 0 "0/20"
0 3 100 "20/20"
1 3 100 "20/20"
0 4 100 "20/20"
1 4 90 "18/20"
0 5 0 "0/20"
1 5 0 "0/20"
0 6 0 "0/20"
1 6 0 "0/20"
0 7 0 "0/20"
1 7 0 "0/20"
0 8 80 "16/20"
1 8 85 "17/20"
0 9 0 "0/20"
1 9 0 "0/20"
0 10 0 "0/20"
1 10 0 "0/20"
0 11 40 "8/20"
1 11 45 "9/20"
EOD
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'success_rate.svg'
} else {
  set terminal pngcairo size 1000,700 noenhanced font 'sans,11'
  set output 'success_rate.png'
}
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#b0b0b0' fs pattern 4 transparent
plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
  $cells using 1:2:(strcol(4)):($3 < 55 ? 0xffffff : 0x000000) with labels font ',8' tc rgb variable
}
unset output
