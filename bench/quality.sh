#!/usr/bin/env bash
# Quality benchmark: runs `iopddl solve` on instances at a budget (seconds, or "contest" for
# each instance's contest limit) and seeds, checks every answer with the reference
# evaluator, and writes a CSV and one PNG plot of cost over time per instance.
#
#   bench/quality.sh [-b BUDGET] [-s "1 2 3"] [-o OUTDIR] [-x "extra iopddl args"] FILE...
#
# CSV columns: instance, budget, seed, cost, ratio (to bench/best_known.csv, empty if
# unknown), seconds to within 1 % of the best known cost (empty if never).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bench_options 20 "$@"
csv=$out/quality.csv
echo "instance,budget,seed,cost,ratio,seconds_to_1pct" > "$csv"
for file in "${files[@]}"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  limit=$(budget_for "$name" "$budget")
  for seed in $seeds; do
    log=$out/$name.b$limit.s$seed.log
    # shellcheck disable=SC2086
    "$bin" solve "$file" --time-limit "$limit" --seed "$seed" $extra > "$log"
    "$bin" evaluate --json "$file" "$log" > "$log.eval" || { echo "$name seed $seed: INFEASIBLE"; exit 1; }
    cost=$(sed -n 's/.*"cost":\([0-9-]*\).*/\1/p' "$log.eval")
    # Progress lines "# [  t] ... cost C": time series of the improvements (forbidden excluded).
    sed -n 's/^# \[ *\([0-9.]*\)\].*cost \([0-9]*\).*/\1 \2/p' "$log" |
      awk '$2 < 1e18' > "$log.series"
    ratio="" t1=""
    if [[ -n $best ]]; then
      ratio=$(awk -v c="$cost" -v b="$best" 'BEGIN {printf "%.5f", c / b}')
      t1=$(awk -v b="$best" '$2 <= 1.01 * b {print $1; exit}' "$log.series")
    fi
    echo "$name,$limit,$seed,$cost,$ratio,$t1" | tee -a "$csv"
  done
  if command -v gnuplot > /dev/null; then
    plots=""
    # With a best known cost: the ratio to it, clipped so that the end game is visible;
    # otherwise the cost on a log scale.
    column=2
    [[ -n $best ]] && column="(\$2/$best)"
    for seed in $seeds; do
      s=$out/$name.b$limit.s$seed.log.series
      [[ -s $s ]] && plots+="${plots:+, }'$s' using 1:$column with steps title 'seed $seed'"
    done
    if [[ -n $plots ]]; then
      if [[ -n $best ]]; then
        # Clip at 1.1, or higher when even the best final answer is above that.
        top=$(awk -F, -v n="$name" '$1 == n && $5 != "" {if (m == "" || $5 < m) m = $5}
                END {t = 1.1 * m; printf "%.3f", (m == "" || t < 1.1) ? 1.1 : t}' "$csv")
        axis="set ylabel 'cost / best known'; set yrange [*:$top]; set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2"
      else
        axis="set ylabel 'cost'; set logscale y"
      fi
      gnuplot <<GP
set terminal pngcairo size 900,500
set output '$out/$name.b$limit.png'
set title '$name: cost over time (budget $limit s)'
set xlabel 'seconds'; set xrange [0:*]; set key top right
$axis
plot $plots
GP
    fi
  fi
done
echo "wrote $csv"
