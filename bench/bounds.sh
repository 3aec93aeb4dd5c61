#!/usr/bin/env bash
# Bound benchmark: runs `iopddl solve` (or, with -c bound, `iopddl bound`) on instances at a
# budget (seconds, or "contest") and seeds, and writes a CSV with the certified bound, its
# ratio to the best known cost, the gap, and the time to each gap threshold, plus one PNG
# per instance of bound / best known over time.
#
#   bench/bounds.sh [-b BUDGET] [-s "1 2 3"] [-o OUTDIR] [-c solve|bound] [-x "args"] FILE...
#
# CSV columns: instance, command, budget, seed, cost, lower_bound, bound_ratio (to
# bench/best_known.csv), gap (cost - bound) / cost, then seconds until the run's gap was at
# most 10 %, 5 %, 1 %, 0.1 % (empty if never).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bin=${IOPDDL:-$here/../build/iopddl}
budget=20 seeds="1 2 3" out=$here/out command=solve extra=""
while getopts "b:s:o:c:x:" opt; do
  case $opt in
    b) budget=$OPTARG ;; s) seeds=$OPTARG ;; o) out=$OPTARG ;; c) command=$OPTARG ;;
    x) extra=$OPTARG ;; *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -gt 0 ]] || { echo "usage: $0 [-b BUDGET|contest] [-s SEEDS] [-o DIR] [-c solve|bound] FILE..."; exit 2; }
mkdir -p "$out"
csv=$out/bounds.csv
echo "instance,command,budget,seed,cost,lower_bound,bound_ratio,gap,t_gap_10pct,t_gap_5pct,t_gap_1pct,t_gap_01pct" > "$csv"
for file in "$@"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  limit=$(budget_for "$name" "$budget")
  plots=""
  for seed in $seeds; do
    base=$out/$name.$command.b$limit.s$seed
    if [[ $command == bound ]]; then
      # shellcheck disable=SC2086
      "$bin" bound "$file" --time-limit "$limit" $extra > "$base.log"
    else
      # shellcheck disable=SC2086
      "$bin" solve "$file" --time-limit "$limit" --seed "$seed" -o "$base.json" $extra > "$base.log"
      "$bin" evaluate "$file" "$base.log" > /dev/null || { echo "$name seed $seed: INFEASIBLE"; exit 1; }
    fi
    # The histories from the progress lines: "cost C" and "bound B" with their times.
    python3 - "$base.log" "$name" "$command" "$limit" "$seed" "${best:-}" "$base.series" >> "$csv" <<'PY'
import re, sys
log, name, command, limit, seed, best, series = sys.argv[1:]
costs, bounds = [], []
for line in open(log):
    m = re.match(r"# \[\s*([0-9.]+)\] (.*)", line)
    if not m:
        continue
    t, text = float(m.group(1)), m.group(2)
    b = re.match(r"bound (-?\d+)", text)
    if b:
        bounds.append((t, int(b.group(1))))
        continue
    c = re.search(r"cost (\d+)", text)
    if c and int(c.group(1)) < 10**18 and not text.startswith("certified"):
        costs.append((t, int(c.group(1))))
events = sorted([(t, "c", v) for t, v in costs] + [(t, "b", v) for t, v in bounds])
cost = bound = None
first = {}
for t, kind, v in events:
    if kind == "c":
        cost = v if cost is None else min(cost, v)
    else:
        bound = v if bound is None else max(bound, v)
    if cost and bound is not None:
        gap = max(0.0, (cost - bound) / cost)
        for th in (0.1, 0.05, 0.01, 0.001):
            if gap <= th and th not in first:
                first[th] = t
ratio = f"{bound / int(best):.5f}" if best and bound is not None else ""
gap = f"{max(0.0, (cost - bound) / cost):.6f}" if cost and bound is not None else ""
with open(series, "w") as f:
    for t, v in bounds:
        f.write(f"{t} {v / int(best) if best else v}\n")
cells = [name, command, limit, seed, str(cost or ""), str(bound if bound is not None else ""),
         ratio, gap] + [f"{first[th]:.3f}" if th in first else "" for th in (0.1, 0.05, 0.01, 0.001)]
print(",".join(cells))
PY
    tail -1 "$csv"
    [[ -s $base.series ]] && plots+="${plots:+, }'$base.series' using 1:2 with steps title 'seed $seed'"
    [[ $command == bound ]] && break  # the bound command has no seed
  done
  if command -v gnuplot > /dev/null && [[ -n $plots ]]; then
    ylabel="bound"; [[ -n $best ]] && ylabel="bound / best known cost"
    gnuplot <<GP
set terminal pngcairo size 900,500
set output '$out/$name.$command.b$limit.bound.png'
set title '$name: certified lower bound over time ($command, budget $limit s)'
set xlabel 'seconds'; set ylabel '$ylabel'; set xrange [0:*]; set key bottom right
plot $plots
GP
  fi
done
echo "wrote $csv"
