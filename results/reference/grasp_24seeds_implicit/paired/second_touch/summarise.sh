#!/usr/bin/env bash
# summarise.sh FILE — probe_pair.sh's output grouped by outcome pair (registered / own): trials, those whose
# second touch both steps reach, how many of them keep the jaws at their commanded speed through it
# (|jaw velocity| > 0.0195 m/s of 0.02), the part's median vy after it, and tan(alpha) - mu_grip at it (the
# larger of the two contacts): median and 10-90 %.
awk 'function pick(s, name,   a, n, i) { n = split(s, a, " "); for (i = 1; i < n; i++) if (a[i] == name) return a[i + 1]; return "" }
  /^[0-9]+ mu / { key = $5 " / " $7; mu = $3; n[key]++; next }
  /registered:/ { rj = pick($0, "jaw"); rv = pick($0, "vy"); m = split($0, a, "tanalpha"); split(a[2], t, " ")
                  ta = t[1] > t[2] ? t[1] : t[2]; next }
  /own:/ { oj = pick($0, "jaw"); ov = pick($0, "vy")
           if (rj != "" && oj != "") { both[key]++; kr[key] += rj < -0.0195; ko[key] += oj < -0.0195
             print key "\tvr\t" rv; print key "\tvo\t" ov; print key "\td\t" ta - mu } }
  END { for (k in n) printf "%s\t#\t%d trials, both reach the second touch %d; jaws keep their speed through it: registered %d, own %d\n", k, n[k], both[k], kr[k], ko[k] }' "$1" |
  sort -t"$(printf '\t')" -k1,1 -k2,2 -k3,3g |
  awk -F'\t' '$2 == "#" { line[$1] = $3; next } { v[$1, $2, ++c[$1, $2]] = $3; keys[$1] = 1 }
    function q(k, w, p,   m) { m = c[k, w]; return m ? v[k, w, int(p * (m - 1)) + 1] : "-" }
    END { for (k in keys) printf "%-26s %s; part vy after it, median: registered %+.4f, own %+.4f m/s; tan(alpha) - mu_grip there: median %+.3f (10-90 %% %+.3f .. %+.3f)\n",
            k, line[k], q(k, "vr", 0.5), q(k, "vo", 0.5), q(k, "d", 0.5), q(k, "d", 0.1), q(k, "d", 0.9)
          for (k in line) if (!(k in keys)) printf "%-26s %s\n", k, line[k] }'
