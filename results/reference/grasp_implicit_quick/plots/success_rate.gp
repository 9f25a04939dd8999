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
set title "grasping the lock piece: success map (Chakraborty et al. Sec. 6.4, Fig. 10; Brost & Christiansen)\nsuccesses / applicable tasks (not_applicable left out; hatched: no applicable task)\naggregated over seed, formulation, solver"
unset grid
set border 15
set tics nomirror out
set xrange [-0.5:5.5]
set yrange [19.5:-0.5]
set xtics ("-9.5" 0, "-5.5" 1, "-1.5" 2, "0.5" 3, "2.5" 4, "6.5" 5)
set ytics ("medium / -19.5" 0, "medium / -17.5" 1, "medium / -15.5" 2, "medium / -13.5" 3, "medium / -11.5" 4, "medium / -9.5" 5, "medium / -7.5" 6, "medium / -5.5" 7, "medium / -3.5" 8, "medium / -1.5" 9, "high / -19.5" 10, "high / -17.5" 11, "high / -15.5" 12, "high / -13.5" 13, "high / -11.5" 14, "high / -9.5" 15, "high / -7.5" 16, "high / -5.5" 17, "high / -3.5" 18, "high / -1.5" 19)
set xlabel "gripper centre right of the part's centre [mm]"
set ylabel "friction / y"
set cblabel 'success rate [%] (cividis palette, colour-blind safe)'
set cbrange [0:100]
unset key
# cividis (colour-blind safe, lightness rising with the rate): its quartile colours (viridisLite
# cividis(5)), interpolated
set palette defined (0 '#00204d', 25 '#414d6b', 50 '#7c7b78', 75 '#bcaf6f', 100 '#ffea46')
$cells << EOD
0 0 0 "0/12"
1 0 0 "0/12"
2 0 0 "0/12"
3 0 0 "0/12"
4 0 0 "0/12"
5 0 0 "0/12"
0 1 0 "0/12"
1 1 0 "0/12"
2 1 0 "0/12"
3 1 0 "0/12"
4 1 0 "0/12"
5 1 0 "0/12"
0 2 0 "0/12"
1 2 0 "0/12"
2 2 75 "9/12"
3 2 100 "12/12"
4 2 41.6667 "5/12"
5 2 0 "0/12"
0 3 0 "0/12"
1 3 0 "0/12"
2 3 66.6667 "8/12"
3 3 66.6667 "8/12"
4 3 66.6667 "8/12"
5 3 0 "0/12"
0 4 0 "0/12"
1 4 66.6667 "8/12"
2 4 58.3333 "7/12"
3 4 83.3333 "10/12"
4 4 83.3333 "10/12"
5 4 16.6667 "2/12"
0 5 41.6667 "5/12"
1 5 50 "6/12"
2 5 41.6667 "5/12"
3 5 41.6667 "5/12"
4 5 33.3333 "4/12"
5 5 58.3333 "7/12"
0 6 66.6667 "8/12"
1 6 25 "3/12"
2 6 0 "0/12"
3 6 0 "0/12"
4 6 0 "0/12"
5 6 50 "6/12"
0 7 0 "0/12"
1 7 0 "0/12"
2 7 0 "0/12"
3 7 0 "0/12"
4 7 0 "0/12"
5 7 0 "0/12"
0 8 0 "0/12"
1 8 0 "0/12"
2 8 0 "0/12"
3 8 0 "0/12"
4 8 0 "0/12"
5 8 0 "0/12"
0 9 0 "0/12"
1 9 0 "0/12"
2 9 0 "0/12"
3 9 0 "0/12"
4 9 0 "0/12"
5 9 0 "0/12"
0 10 0 "0/12"
1 10 0 "0/12"
2 10 0 "0/12"
3 10 0 "0/12"
4 10 0 "0/12"
5 10 0 "0/12"
0 11 0 "0/12"
1 11 0 "0/12"
2 11 0 "0/12"
3 11 0 "0/12"
4 11 0 "0/12"
5 11 0 "0/12"
0 12 0 "0/12"
1 12 0 "0/12"
2 12 100 "12/12"
3 12 100 "12/12"
4 12 33.3333 "4/12"
5 12 0 "0/12"
0 13 0 "0/12"
1 13 0 "0/12"
2 13 25 "3/12"
3 13 16.6667 "2/12"
4 13 50 "6/12"
5 13 0 "0/12"
0 14 0 "0/12"
1 14 33.3333 "4/12"
2 14 0 "0/12"
3 14 0 "0/12"
4 14 0 "0/12"
5 14 16.6667 "2/12"
0 15 0 "0/12"
1 15 0 "0/12"
2 15 0 "0/12"
3 15 0 "0/12"
4 15 0 "0/12"
5 15 0 "0/12"
0 16 0 "0/12"
1 16 0 "0/12"
2 16 0 "0/12"
3 16 0 "0/12"
4 16 0 "0/12"
5 16 0 "0/12"
0 17 0 "0/12"
1 17 0 "0/12"
2 17 0 "0/12"
3 17 0 "0/12"
4 17 0 "0/12"
5 17 0 "0/12"
0 18 0 "0/12"
1 18 0 "0/12"
2 18 0 "0/12"
3 18 0 "0/12"
4 18 0 "0/12"
5 18 0 "0/12"
0 19 0 "0/12"
1 19 0 "0/12"
2 19 0 "0/12"
3 19 0 "0/12"
4 19 0 "0/12"
5 19 0 "0/12"
EOD
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1000,940 noenhanced font 'sans,11' background '#ffffff'
  set output 'success_rate.svg'
} else {
  set terminal pngcairo size 1000,940 noenhanced font 'sans,11'
  set output 'success_rate.png'
}
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#b0b0b0' fs pattern 4 transparent
plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
  $cells using 1:2:(strcol(4)):($3 < 55 ? 0xffffff : 0x000000) with labels font ',8' tc rgb variable
}
unset output
