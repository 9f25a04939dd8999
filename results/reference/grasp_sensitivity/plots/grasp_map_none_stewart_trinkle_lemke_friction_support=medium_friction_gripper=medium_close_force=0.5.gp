# success probability per gripper position, none/stewart_trinkle/lemke/friction_support=medium/friction_gripper=medium/close_force=0.5 (bench_grasp_map)
set terminal pngcairo noenhanced size 900,800
set output 'grasp_map_none_stewart_trinkle_lemke_friction_support=medium_friction_gripper=medium_close_force=0.5.png'
set title "grasping the lock piece: success probability, none/stewart_trinkle/lemke/friction_support=medium/friction_gripper=medium/close_force=0.5\n(Chakraborty et al. Fig. 10 style; circle: best cell, box: +-3 mm sweet spot)"
set xlabel 'x: gripper centre right of the part centre [mm]'
set ylabel 'y: gripper centre above the part centre [mm]'
set cblabel 'success probability'
set cbrange [0:1]
set size ratio -1
set palette defined (0 '#67000d', 25 '#d7301f', 50 '#fc8d59', 75 '#fdd49e', 100 '#fff7ec')
$cells << EOD
-3.5 -17.5 0
-2.5 -17.5 0
-1.5 -17.5 0
-0.5 -17.5 0
0.5 -17.5 0
1.5 -17.5 0
2.5 -17.5 0
3.5 -17.5 0
-3.5 -16.5 0
-2.5 -16.5 0.0833333
-1.5 -16.5 0.75
-0.5 -16.5 1
0.5 -16.5 1
1.5 -16.5 0.75
2.5 -16.5 0.0833333
3.5 -16.5 0
-3.5 -15.5 0
-2.5 -15.5 0.666667
-1.5 -15.5 1
-0.5 -15.5 1
0.5 -15.5 1
1.5 -15.5 1
2.5 -15.5 0.75
3.5 -15.5 0
-3.5 -14.5 0.0833333
-2.5 -14.5 1
-1.5 -14.5 1
-0.5 -14.5 1
0.5 -14.5 1
1.5 -14.5 1
2.5 -14.5 1
3.5 -14.5 0.25
-3.5 -13.5 0.833333
-2.5 -13.5 1
-1.5 -13.5 1
-0.5 -13.5 1
0.5 -13.5 1
1.5 -13.5 1
2.5 -13.5 1
3.5 -13.5 0.833333
-3.5 -12.5 1
-2.5 -12.5 0.916667
-1.5 -12.5 0.833333
-0.5 -12.5 0.666667
0.5 -12.5 0.916667
1.5 -12.5 0.833333
2.5 -12.5 1
3.5 -12.5 1
-3.5 -11.5 1
-2.5 -11.5 0.75
-1.5 -11.5 0.333333
-0.5 -11.5 0.416667
0.5 -11.5 0.666667
1.5 -11.5 0.75
2.5 -11.5 0.833333
3.5 -11.5 0.916667
-3.5 -10.5 0.5
-2.5 -10.5 0.583333
-1.5 -10.5 0.333333
-0.5 -10.5 0.166667
0.5 -10.5 0.416667
1.5 -10.5 0.416667
2.5 -10.5 0.583333
3.5 -10.5 0.583333
-3.5 -9.5 0.333333
-2.5 -9.5 0.416667
-1.5 -9.5 0.166667
-0.5 -9.5 0
0.5 -9.5 0.333333
1.5 -9.5 0.0833333
2.5 -9.5 0.166667
3.5 -9.5 0.333333
-3.5 -8.5 0.0833333
-2.5 -8.5 0.0833333
-1.5 -8.5 0.166667
-0.5 -8.5 0
0.5 -8.5 0.0833333
1.5 -8.5 0
2.5 -8.5 0.166667
3.5 -8.5 0.0833333
-3.5 -7.5 0.0833333
-2.5 -7.5 0
-1.5 -7.5 0
-0.5 -7.5 0
0.5 -7.5 0
1.5 -7.5 0
2.5 -7.5 0
3.5 -7.5 0
EOD
set object 1 circle at -0.5,-16.5 size 0.45 front fs empty border lc rgb '#0072b2' lw 3
set object 2 rectangle from -2.5,-16.5 to 3.5,-10.5 front fs empty border lc rgb '#0072b2' lw 2 dt 2
plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
