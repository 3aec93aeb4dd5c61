#!/bin/sh
# The scaling picture: median cost over seeds against the machines' count, from a CSV of
# bench/scaling.sh: k ranks at W each, and one rank at k x W (the same total work, one
# machine), divided by a reference cost (the best known, or for a generated instance e.g.
# one rank's cost at 8W). Drawn by gnuplot (a dependency already).
# Usage: bench/plot_scaling.sh RESULTS.csv REFERENCE_COST OUT.png [REFERENCE_NAME]
set -eu
csv=$1 best=$2 out=$3 name=${4:-the best known}
data=$(mktemp)
trap 'rm -f "$data"' EXIT
# (instance, ranks, work) -> median cost / best; the base W is the least work per rank.
awk -F, -v best="$best" 'NR > 1 { key = $3 "," $4; v[key] = v[key] " " $5 / best; if (w == "" || $4 < w) w = $4 }
  END {
    for (key in v) {
      n = split(substr(v[key], 2), x, " ");
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
      med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2;
      split(key, kw, ",");
      if (kw[2] == w) print "ranks", kw[1], med;
      if (kw[2] == w && kw[1] == 1) print "one", 1, med;
      else if (kw[1] == 1) print "one", kw[2] / w, med;
    }
  }' "$csv" | sort -k1,1 -k2,2n > "$data"
gnuplot <<GP > "$out"
set terminal png noenhanced size 800,520
set title "simulated machines: median cost over $name (seeds 1-3)"
set xlabel 'machines k (or k x the work on one machine)'
set ylabel "cost / $name"
set logscale x 2
set grid
set key top right
plot '< grep ^ranks $data' using 2:3 with linespoints lw 2 pt 7 title 'k ranks, W each', \
     '< grep ^one $data' using 2:3 with linespoints lw 2 pt 5 dt 2 title 'one rank, k x W'
GP
