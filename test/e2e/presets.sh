#!/usr/bin/env bash
# Every preset in configs/ is read back by the solver and gives a feasible answer.
set -euo pipefail
bin=$1 src=$2
for preset in "$src"/configs/*.toml; do
  out=$(mktemp)
  "$bin" solve "$src/examples/example.json" --config "$preset" --time-limit 2 > "$out"
  "$bin" evaluate "$src/examples/example.json" "$out" > /dev/null ||
    { echo "$preset: infeasible answer"; exit 1; }
  rm -f "$out"
done
echo "presets: ok"
