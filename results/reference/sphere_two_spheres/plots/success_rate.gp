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
set title "sphere on two spheres: contact transitions (Chakraborty et al. Sec. 6.2, Figs. 4-5)\ntasks whose status is a success (ok, converged) / applicable tasks (not_applicable left out;\nhatched: no applicable task)"
unset grid
set border 15
set tics nomirror out
set xrange [-0.5:4.5]
set yrange [15.5:-0.5]
set xtics ("0.001" 0, "0.003" 1, "0.01" 2, "0.03" 3, "0.1" 4)
set ytics ("geometric_implicit / fb_newton" 0, "geometric_implicit / tao_ssils" 1, "geometric_implicit / snes_vinewtonssls" 2, "tzitzouris_pang / fb_newton" 3, "tzitzouris_pang / tao_ssils" 4, "tzitzouris_pang / snes_vinewtonssls" 5, "stewart_trinkle / fb_newton" 6, "stewart_trinkle / lemke" 7, "stewart_trinkle / tao_ssils" 8, "stewart_trinkle / snes_vinewtonssls" 9, "anitescu_potra / fb_newton" 10, "anitescu_potra / lemke" 11, "anitescu_potra / tao_ssils" 12, "anitescu_potra / snes_vinewtonssls" 13, "coulomb_cone / fc_nsgs" 14, "anitescu_ccp / fc_nsgs" 15)
set xlabel "time step [s]"
set ylabel "formulation / solver"
set cblabel "success rate [%] (cividis palette, colour-blind safe)"
set cbrange [0:100]
unset key
# cividis (colour-blind safe, lightness rising with the rate): its quartile colours (viridisLite
# cividis(5)), interpolated
set palette defined (0 '#00204d', 25 '#414d6b', 50 '#7c7b78', 75 '#bcaf6f', 100 '#ffea46')
$cells << EOD
0 0 0 "0/1"
1 0 0 "0/1"
2 0 100 "1/1"
3 0 0 "0/1"
4 0 100 "1/1"
0 1 0 "0/1"
1 1 0 "0/1"
2 1 0 "0/1"
3 1 0 "0/1"
4 1 100 "1/1"
0 2 0 "0/1"
1 2 0 "0/1"
2 2 0 "0/1"
3 2 0 "0/1"
4 2 0 "0/1"
0 3 0 "0/1"
1 3 100 "1/1"
2 3 100 "1/1"
3 3 100 "1/1"
4 3 100 "1/1"
0 4 0 "0/1"
1 4 0 "0/1"
2 4 0 "0/1"
3 4 100 "1/1"
4 4 0 "0/1"
0 5 0 "0/1"
1 5 0 "0/1"
2 5 0 "0/1"
3 5 100 "1/1"
4 5 100 "1/1"
0 6 100 "1/1"
1 6 100 "1/1"
2 6 100 "1/1"
3 6 100 "1/1"
4 6 100 "1/1"
0 7 100 "1/1"
1 7 100 "1/1"
2 7 100 "1/1"
3 7 100 "1/1"
4 7 100 "1/1"
0 8 100 "1/1"
1 8 100 "1/1"
2 8 100 "1/1"
3 8 100 "1/1"
4 8 100 "1/1"
0 9 0 "0/1"
1 9 0 "0/1"
2 9 0 "0/1"
3 9 0 "0/1"
4 9 100 "1/1"
0 10 100 "1/1"
1 10 100 "1/1"
2 10 100 "1/1"
3 10 100 "1/1"
4 10 100 "1/1"
0 11 100 "1/1"
1 11 100 "1/1"
2 11 100 "1/1"
3 11 100 "1/1"
4 11 100 "1/1"
0 12 100 "1/1"
1 12 100 "1/1"
2 12 100 "1/1"
3 12 100 "1/1"
4 12 100 "1/1"
0 13 0 "0/1"
1 13 0 "0/1"
2 13 100 "1/1"
3 13 100 "1/1"
4 13 100 "1/1"
0 14 100 "1/1"
1 14 100 "1/1"
2 14 100 "1/1"
3 14 100 "1/1"
4 14 100 "1/1"
0 15 100 "1/1"
1 15 100 "1/1"
2 15 100 "1/1"
3 15 100 "1/1"
4 15 100 "1/1"
EOD
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,804 noenhanced font 'sans,11' background '#ffffff'
  set output 'success_rate.svg'
} else {
  set terminal pngcairo size 1000,804 noenhanced font 'sans,11'
  set output 'success_rate.png'
}
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#b0b0b0' fs pattern 4 transparent
plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
  $cells using 1:2:(strcol(4)):($3 < 55 ? 0xffffff : 0x000000) with labels font ',8' tc rgb variable
}
unset output
