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
set title "grasping the lock piece: success map (Chakraborty et al. Sec. 6.4, Fig. 10; Brost & Christiansen)\nsuccesses / applicable tasks (not_applicable left out; hatched: no applicable task)\naggregated over friction_support, friction_gripper, close_force, seed; at formulation = stewart_trinkle, solver = lemke"
unset grid
set border 15
set tics nomirror out
set xrange [-0.5:7.5]
set yrange [10.5:-0.5]
set xtics ("-3.5" 0, "-2.5" 1, "-1.5" 2, "-0.5" 3, "0.5" 4, "1.5" 5, "2.5" 6, "3.5" 7)
set xtics rotate by 45 right
set ytics ("none / -17.5" 0, "none / -16.5" 1, "none / -15.5" 2, "none / -14.5" 3, "none / -13.5" 4, "none / -12.5" 5, "none / -11.5" 6, "none / -10.5" 7, "none / -9.5" 8, "none / -8.5" 9, "none / -7.5" 10)
set xlabel "gripper centre right of the part's centre [mm]"
set ylabel "friction / y"
set cblabel 'success rate [%] (cividis palette, colour-blind safe)'
set cbrange [0:100]
unset key
# cividis (colour-blind safe, lightness rising with the rate): its quartile colours (viridisLite
# cividis(5)), interpolated
set palette defined (0 '#00204d', 25 '#414d6b', 50 '#7c7b78', 75 '#bcaf6f', 100 '#ffea46')
$cells << EOD
0 0 100 "144/144"
1 0 100 "144/144"
2 0 100 "144/144"
3 0 100 "144/144"
4 0 100 "144/144"
5 0 100 "144/144"
6 0 100 "144/144"
7 0 100 "144/144"
0 1 100 "144/144"
1 1 100 "144/144"
2 1 100 "144/144"
3 1 100 "144/144"
4 1 100 "144/144"
5 1 100 "144/144"
6 1 100 "144/144"
7 1 100 "144/144"
0 2 100 "144/144"
1 2 100 "144/144"
2 2 100 "144/144"
3 2 100 "144/144"
4 2 100 "144/144"
5 2 100 "144/144"
6 2 100 "144/144"
7 2 100 "144/144"
0 3 100 "144/144"
1 3 100 "144/144"
2 3 100 "144/144"
3 3 100 "144/144"
4 3 100 "144/144"
5 3 100 "144/144"
6 3 100 "144/144"
7 3 100 "144/144"
0 4 100 "144/144"
1 4 100 "144/144"
2 4 100 "144/144"
3 4 100 "144/144"
4 4 100 "144/144"
5 4 100 "144/144"
6 4 100 "144/144"
7 4 100 "144/144"
0 5 100 "144/144"
1 5 100 "144/144"
2 5 100 "144/144"
3 5 100 "144/144"
4 5 100 "144/144"
5 5 100 "144/144"
6 5 100 "144/144"
7 5 100 "144/144"
0 6 100 "144/144"
1 6 100 "144/144"
2 6 100 "144/144"
3 6 100 "144/144"
4 6 100 "144/144"
5 6 100 "144/144"
6 6 100 "144/144"
7 6 100 "144/144"
0 7 100 "144/144"
1 7 100 "144/144"
2 7 100 "144/144"
3 7 100 "144/144"
4 7 100 "144/144"
5 7 100 "144/144"
6 7 100 "144/144"
7 7 100 "144/144"
0 8 100 "144/144"
1 8 100 "144/144"
2 8 100 "144/144"
3 8 100 "144/144"
4 8 100 "144/144"
5 8 100 "144/144"
6 8 100 "144/144"
7 8 100 "144/144"
0 9 100 "144/144"
1 9 100 "144/144"
2 9 100 "144/144"
3 9 100 "144/144"
4 9 100 "144/144"
5 9 100 "144/144"
6 9 100 "144/144"
7 9 100 "144/144"
0 10 100 "144/144"
1 10 100 "144/144"
2 10 100 "144/144"
3 10 100 "144/144"
4 10 100 "144/144"
5 10 100 "144/144"
6 10 100 "144/144"
7 10 100 "144/144"
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
