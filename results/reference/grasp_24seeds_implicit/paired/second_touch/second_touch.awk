# The first step in which both fingertips push on the disc (normal impulse > 1e-6 N s) in a GRASP_PROBE=1
# log (the probe patches here): its end time, the part's y [mm], the part's vy [m/s] and omega [rad/s] and
# the jaw's velocity [m/s] after it, and each pushing contact's tan(alpha) = |n_y / n_x|.
/^P/ {
  l = 0; r = 0; ta = ""
  for (i = 1; i <= NF; i++)
    if ($i ~ /^\[/) { # [finger component g GAP n NX NY r RX RY p IMPULSE]
      f = substr($i, 2) + 0; nx = $(i + 5); ny = $(i + 6); p = $(i + 11); sub(/\]/, "", p)
      if (p + 0 > 1e-6 && $(i + 1) == 0) {
        if (f == 1) r = 1; else l = 1
        ta = ta sprintf(" %.3f", (ny < 0 ? -ny : ny) / (nx < 0 ? -nx : nx))
      }
    }
  if (l && r) { printf "t %s y %.3f mm vy %+.4f w %+.3f jaw %+.4f tanalpha%s\n", $2, $5 * 1e3, $10, $11, $12, ta; exit }
}
