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
set title "complementarity solvers on Siconos' frictional-contact problems (the exact Coulomb cone)\ntasks whose status is a success (ok, converged) / applicable tasks (not_applicable left out; hatched:\nno applicable task)\nat seed = 0"
unset grid
set border 15
set tics nomirror out
set xrange [-0.5:12.5]
set yrange [7.5:-0.5]
set xtics ("siconos:fc3d/BoxesStack1-i100000-32.hdf5.dat" 0, "siconos:fc3d/Capsules-i101-404.dat" 1, "siconos:fc3d/Confeti-ex03-Fc3D-SBM.dat" 2, "siconos:fc3d/FC3D_Example1.dat" 3, "siconos:fc3d/FrictionContact3D_1c.dat" 4, "siconos:fc3d/FrictionContactProblem00071.dat" 5, "siconos:fc3d/FrictionContactProblem00374.dat" 6, "siconos:fc3d/NESpheres_10_1.dat" 7, "siconos:fc3d/OneObject-i100000-499.hdf5.dat" 8, "siconos:fc3d/Rover1039.dat" 9, "siconos:fc3d/Rover4396.dat" 10, "siconos:fc3d/Rover4516.dat" 11, "siconos:fc3d/fc2d_granularflowonwall_00667_00000.dat" 12)
set xtics rotate by 45 right
set ytics ("fc_nsgs" 0, "fc_newton" 1, "fc_admm" 2, "siconos_fc_nsgs" 3, "siconos_fc_nsn_ac" 4, "siconos_fc_nsn_fb" 5, "siconos_fc_admm" 6, "siconos_fc_vi_eg" 7)
set xlabel "problem classes"
set ylabel "solver"
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
3 0 100 "1/1"
4 0 100 "1/1"
5 0 100 "1/1"
6 0 100 "1/1"
7 0 100 "1/1"
8 0 0 "0/1"
9 0 100 "1/1"
10 0 100 "1/1"
11 0 100 "1/1"
12 0 100 "1/1"
0 1 100 "1/1"
1 1 100 "1/1"
2 1 100 "1/1"
3 1 100 "1/1"
4 1 100 "1/1"
5 1 100 "1/1"
6 1 100 "1/1"
7 1 100 "1/1"
8 1 100 "1/1"
9 1 100 "1/1"
10 1 100 "1/1"
11 1 100 "1/1"
12 1 100 "1/1"
0 2 100 "1/1"
1 2 100 "1/1"
2 2 0 "0/1"
3 2 100 "1/1"
4 2 100 "1/1"
5 2 100 "1/1"
6 2 100 "1/1"
7 2 100 "1/1"
8 2 100 "1/1"
9 2 100 "1/1"
10 2 100 "1/1"
11 2 100 "1/1"
12 2 100 "1/1"
0 3 0 "0/1"
1 3 0 "0/1"
2 3 100 "1/1"
3 3 100 "1/1"
4 3 100 "1/1"
5 3 100 "1/1"
6 3 100 "1/1"
7 3 100 "1/1"
8 3 0 "0/1"
9 3 100 "1/1"
10 3 100 "1/1"
11 3 100 "1/1"
12 3 100 "1/1"
0 4 0 "0/1"
1 4 0 "0/1"
2 4 100 "1/1"
3 4 100 "1/1"
4 4 100 "1/1"
5 4 NaN "n/a"
6 4 NaN "n/a"
7 4 100 "1/1"
8 4 100 "1/1"
9 4 100 "1/1"
10 4 100 "1/1"
11 4 100 "1/1"
12 4 NaN "n/a"
0 5 100 "1/1"
1 5 100 "1/1"
2 5 0 "0/1"
3 5 100 "1/1"
4 5 100 "1/1"
5 5 NaN "n/a"
6 5 NaN "n/a"
7 5 100 "1/1"
8 5 100 "1/1"
9 5 100 "1/1"
10 5 100 "1/1"
11 5 100 "1/1"
12 5 NaN "n/a"
0 6 100 "1/1"
1 6 100 "1/1"
2 6 0 "0/1"
3 6 100 "1/1"
4 6 100 "1/1"
5 6 NaN "n/a"
6 6 NaN "n/a"
7 6 100 "1/1"
8 6 100 "1/1"
9 6 0 "0/1"
10 6 100 "1/1"
11 6 0 "0/1"
12 6 NaN "n/a"
0 7 0 "0/1"
1 7 100 "1/1"
2 7 100 "1/1"
3 7 100 "1/1"
4 7 100 "1/1"
5 7 NaN "n/a"
6 7 NaN "n/a"
7 7 100 "1/1"
8 7 0 "0/1"
9 7 100 "1/1"
10 7 100 "1/1"
11 7 100 "1/1"
12 7 NaN "n/a"
EOD
# the same commands twice: PNG, then SVG
do for [cb_svg = 0:1] {
if (cb_svg) {
  set terminal svg size 1066,700 noenhanced font 'sans,11' background '#ffffff'
  set output 'success_rate.svg'
} else {
  set terminal pngcairo size 1066,700 noenhanced font 'sans,11'
  set output 'success_rate.png'
}
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#b0b0b0' fs pattern 4 transparent
plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
  $cells using 1:2:(strcol(4)):($3 < 55 ? 0xffffff : 0x000000) with labels font ',8' tc rgb variable
}
unset output
