#!/usr/bin/env bash
# Time to the best cost and time to proof (issue 16): one run per instance and seed at a
# budget (seconds, or "contest"), every answer checked by the reference evaluator.
#
#   bench/proof_times.sh [-b BUDGET|contest] [-s "1 2 3"] [-o OUTDIR] [-x "args"] FILE...
#
# CSV (OUTDIR/proof_times.csv), per run: the final cost and its ratio to the best known
# cost (bench/best_known.csv; empty if unknown), the seconds to the run's final cost, the
# status, the certified lower bound and gap at the end, and the seconds to the proof of
# optimality (empty if the run did not prove its answer optimal).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bench_options contest "$@"
csv=$out/proof_times.csv
echo "instance,budget,seed,cost,ratio,t_final_cost,status,lower_bound,gap,t_proof" > "$csv"
for file in "${files[@]}"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  limit=$(budget_for "$name" "$budget")
  for seed in $seeds; do
    run=$out/$name.b$limit.s$seed
    # shellcheck disable=SC2086
    "$bin" solve "$file" --time-limit "$limit" --seed "$seed" --quiet --output "$run.json" $extra > "$run.out"
    "$bin" evaluate "$file" "$run.out" > /dev/null || { echo "$name seed $seed: INFEASIBLE"; exit 1; }
    python3 - "$run.json" "$name" "$limit" "$seed" "${best:-}" >> "$csv" <<'PY'
import json, sys
path, name, limit, seed, best = sys.argv[1:]
r = json.load(open(path))
cost = int(r["cost"])
ratio = f"{cost / int(best):.7f}" if best else ""
imps = r.get("improvements") or []
t_final = next((i["seconds"] for i in imps if int(i["cost"]) == cost), "")
proven = r["status"] == "optimal"
# Proven: the run stops as soon as the proof is in, so its end is the time to proof.
t_proof = f"{r['elapsed_seconds']:.3f}" if proven else ""
bound = r.get("lower_bound")
gap = r.get("gap")
print(f"{name},{limit},{seed},{cost},{ratio},{t_final},{r['status']},"
      f"{'' if bound is None else bound},{'' if gap is None else f'{gap:.6f}'},{t_proof}")
PY
  done
done
echo "wrote $csv"
