#!/usr/bin/env bash
# Cost and certified bound at 10, 50 and 100 % of each budget (issue 32, item 3): one run
# per instance and seed at the budget (seconds, or "contest"), every answer checked by the
# reference evaluator; the values at each fraction are read from the run's own histories
# (the result's "improvements" and "bounds"), so one run gives all three.
#
#   bench/fractions.sh [-b BUDGET|contest] [-s "1 2 3"] [-o OUTDIR] [-x "args"] FILE...
#
# CSV (OUTDIR/fractions.csv), per run and fraction: the seconds, the best cost and the best
# certified bound by then over the best known cost (bench/best_known.csv), the source of
# that bound, the run's final status and its seconds to proof (empty if not proven).
# A summary of medians over the seeds follows on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bench_options contest "$@"
csv=$out/fractions.csv
echo "instance,limit,seed,fraction,seconds,cost_ratio,bound_ratio,bound_source,status,t_proof" > "$csv"
for file in "${files[@]}"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  [[ -n $best ]] || { echo "$name: no best known cost in bench/best_known.csv" >&2; exit 2; }
  limit=$(budget_for "$name" "$budget")
  for seed in $seeds; do
    run=$out/$name.b$limit.s$seed
    # shellcheck disable=SC2086
    "$bin" solve "$file" --time-limit "$limit" --seed "$seed" --quiet --output "$run.json" $extra > "$run.out"
    "$bin" evaluate "$file" "$run.out" > /dev/null || { echo "$name seed $seed: INFEASIBLE"; exit 1; }
    python3 - "$run.json" "$name" "$limit" "$seed" "$best" >> "$csv" <<'PY'
import json, sys
path, name, limit, seed, best = sys.argv[1:]
r = json.load(open(path))
best, limit = int(best), float(limit)
proven = r["status"] == "optimal"
# A proven run stops as soon as the proof is in, so its end is the time to proof.
t_proof = f"{r['elapsed_seconds']:.1f}" if proven else ""
for fraction in (0.1, 0.5, 1.0):
    # The whole run counts at 100 %: its last records may come a moment after the limit.
    until = float("inf") if fraction == 1.0 else fraction * limit
    costs = [int(i["cost"]) for i in r.get("improvements") or [] if i["seconds"] <= until]
    bounds = [b for b in r.get("bounds") or [] if b["seconds"] <= until]
    cost = f"{min(costs) / best:.5f}" if costs else ""
    top = max(bounds, key=lambda b: int(b["bound"]), default=None)
    bound = f"{int(top['bound']) / best:.5f}" if top else ""
    print(f"{name},{limit:g},{seed},{fraction},{fraction * limit:g},{cost},{bound},"
          f"{top['source'] if top else ''},{r['status']},{t_proof}")
PY
  done
done
echo "wrote $csv"
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def med(values):
    values = [float(v) for v in values if v]
    return f"{statistics.median(values):.5f}" if values else "-"
print("| instance | limit | cost at 10 / 50 / 100 % | bound at 10 / 50 / 100 % | seconds to proof |")
print("|---|---|---|---|---|")
for name in dict.fromkeys(r["instance"] for r in rows):
    mine = [r for r in rows if r["instance"] == name]
    at = lambda f, key: med(r[key] for r in mine if r["fraction"] == f)
    fr = ("0.1", "0.5", "1.0")
    proofs = " / ".join(r["t_proof"] or "none" for r in mine if r["fraction"] == "1.0")
    print(f"| {name} | {mine[0]['limit']} s | {' / '.join(at(f, 'cost_ratio') for f in fr)} | "
          f"{' / '.join(at(f, 'bound_ratio') for f in fr)} | {proofs} |")
PY
