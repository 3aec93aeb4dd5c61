#!/usr/bin/env bash
# Convergence benchmark (issue 17): one run per instance and seed at a budget (seconds, or
# "contest"), its improvements read from the JSON result, every answer checked by the
# reference evaluator. One run gives every checkpoint, since the solver is anytime.
#
#   bench/convergence.sh [-b BUDGET|contest] [-s "1 2 3"] [-o OUTDIR] [-x "args"] FILE...
#
# CSV (OUTDIR/convergence.csv), per run: the cost ratio to the best known cost
# (bench/best_known.csv) at 5, 10, 20 and 60 s and at the end, and the seconds until the
# run was within 1 % and 0.1 % of the best known cost and of its own final cost (empty if
# never, or past the budget). PNG per instance: cost / best known over time, every seed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bench_options contest "$@"
csv=$out/convergence.csv
echo "instance,budget,seed,at_5s,at_10s,at_20s,at_60s,final,t_best_1pct,t_best_01pct,t_own_1pct,t_own_01pct" > "$csv"
for file in "${files[@]}"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  limit=$(budget_for "$name" "$budget")
  series=()
  for seed in $seeds; do
    run=$out/$name.b$limit.s$seed
    # shellcheck disable=SC2086
    "$bin" solve "$file" --time-limit "$limit" --seed "$seed" --quiet --output "$run.json" $extra > "$run.out"
    "$bin" evaluate "$file" "$run.out" > /dev/null || { echo "$name seed $seed: INFEASIBLE"; exit 1; }
    python3 - "$run.json" "$name" "$limit" "$seed" "${best:-}" "$run.dat" >> "$csv" <<'PY'
import json, sys
path, name, limit, seed, best, dat = sys.argv[1:]
r = json.load(open(path))
steps = [(i["seconds"], i["cost"]) for i in r["improvements"] if i["cost"] < 10**18]
final = r["cost"]
ref = int(best) if best else final
def at(t):
    c = [cost for s, cost in steps if s <= t]
    return f"{c[-1] / ref:.5f}" if c and t <= float(limit) + 1e-9 else ""
def within(target, share):
    for s, cost in steps:
        if cost <= target * (1 + share):
            return f"{s:.2f}"
    return ""
print(",".join([name, limit, seed, at(5), at(10), at(20), at(60), f"{final / ref:.5f}",
                within(ref, 0.01) if best else "", within(ref, 0.001) if best else "",
                within(final, 0.01), within(final, 0.001)]))
with open(dat, "w") as f:
    for s, cost in steps:
        f.write(f"{s} {cost / ref}\n")
PY
    series+=("'$run.dat' using 1:2 with steps title 'seed $seed'")
  done
  if command -v gnuplot > /dev/null; then
    plots=$(IFS=,; echo "${series[*]}")
    gnuplot -e "set terminal png size 900,500; set output '$out/$name.convergence.png';
      set title '$name: cost / best known'; set xlabel 'seconds'; set logscale x;
      set yrange [0.99:1.1]; plot $plots" 2> /dev/null || true
  fi
done
echo "wrote $csv"
