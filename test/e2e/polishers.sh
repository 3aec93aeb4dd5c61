#!/usr/bin/env bash
# --polishers takes effect: with stagnation polishing out of reach (--stale-rounds huge),
# a 2-thread timed solve gets answers from worker 1's polish (tree blocks or exact windows,
# sources tree-1 / lns-1) exactly when worker 1 is a polisher; every answer is feasible.
# --polisher-hand-over takes effect: once worker 0 polishes on stagnation (--stale-rounds
# 1; the polisher looks between its polishes, which take long on a loaded machine), the
# polisher says it goes back to pricing, and never with the hand-over off.
# What must happen is looked for with budgets that double up to 16 times the first, so that a
# loaded machine only makes the test longer; what must not happen is looked for once.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$@"; exit 1; }
"$bin" generate --family memory -n 3000 --seed 5 -o "$tmp/gen.json" > /dev/null || fail "generate"
polished_by_worker_1() {  # POLISHERS SECONDS: how many improvements worker 1's polish made
  "$bin" solve "$tmp/gen.json" -t "$2" --threads 2 --stale-rounds 1000000 --polishers "$1" \
    --output "$tmp/res.json" -q > "$tmp/answer" || fail "solve --polishers $1"
  "$bin" evaluate "$tmp/gen.json" "$tmp/answer" > /dev/null || fail "--polishers $1: infeasible"
  python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(sum(i["source"] in ("tree-1", "lns-1") for i in r["improvements"]))' "$tmp/res.json"
}
for t in 3 6 12 24 48; do
  with=$(polished_by_worker_1 1 $t)
  [[ $with =~ ^[0-9]+$ ]] || fail "$with"
  ((with > 0)) && break
done
((with > 0)) || fail "--polishers 1: no improvement from worker 1's polish"
without=$(polished_by_worker_1 0 3)
[[ $without =~ ^[0-9]+$ ]] || fail "$without"
((without == 0)) || fail "--polishers 0: $without improvements from worker 1's polish"
handed_over() {  # HAND_OVER SECONDS: whether worker 1 reported going back to pricing
  "$bin" solve "$tmp/gen.json" -t "$2" --threads 2 --stale-rounds 1 --polisher-hand-over="$1" \
    > "$tmp/log" || fail "solve --polisher-hand-over=$1"
  tail -1 "$tmp/log" > "$tmp/answer"
  "$bin" evaluate "$tmp/gen.json" "$tmp/answer" > /dev/null || fail "hand-over $1: infeasible"
  grep -c "worker 1: a pricing worker polishes now; back to pricing rounds" "$tmp/log"
}
for t in 6 12 24 48 96; do
  over=$(handed_over true $t)
  [[ $over =~ ^[0-9]+$ ]] || fail "$over"
  [[ $over == 0 ]] || break
done
[[ $over == 1 ]] || fail "--polisher-hand-over=true: no hand-over reported once"
over=$(handed_over false 6)
[[ $over == 0 ]] || fail "--polisher-hand-over=false: a hand-over reported"
echo "polishers: ok ($with improvements by worker 1's polish)"
