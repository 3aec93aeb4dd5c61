#!/usr/bin/env bash
# Deadline benchmark: how long before its time limit `iopddl FILE T` ends, on inputs made
# to test the limit (a 300,000-node instance of each family, a node with 150,000
# strategies) and on the given files. Each run is checked: the last line is feasible or [].
#
#   bench/deadline.sh [-r RUNS] [-o CSV] [FILE:T ...]
#
# CSV columns: commit, input, limit, run, wall seconds, margin (limit - wall), exit status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${IOPDDL:-$here/../build/iopddl}
runs=3 csv=$here/results/deadline.csv
while getopts "r:o:" opt; do
  case $opt in r) runs=$OPTARG ;; o) csv=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" generate --family memory -n 300000 --seed 1 -o "$tmp/memory-300k.json"
"$bin" generate --family forbidden -n 300000 --seed 1 -o "$tmp/forbidden-300k.json"
python3 - "$tmp/wide-150k.json" <<'PY'
import json, random, sys
rng = random.Random(1)
k = 150000
nodes = {"intervals": [[0, 10], [5, 20], [15, 30]],
         "costs": [[rng.randint(0, 1000) for _ in range(k)], [1, 2], [3, 4]],
         "usages": [[rng.randint(0, 100) for _ in range(k)], [10, 20], [5, 5]]}
json.dump({"problem": {"name": "wide", "nodes": nodes,
                       "edges": {"nodes": [[1, 2]], "costs": [[1, 2, 3, 4]]},
                       "usage_limit": 120}}, open(sys.argv[1], "w"))
PY
cases=("$tmp/memory-300k.json:3" "$tmp/memory-300k.json:6" "$tmp/forbidden-300k.json:3"
       "$tmp/wide-150k.json:1" "$tmp/wide-150k.json:2" "$@")
commit=$(git -C "$here" rev-parse --short HEAD)
[[ -f $csv ]] || echo "commit,input,limit,run,wall_seconds,margin_seconds,exit" > "$csv"
for c in "${cases[@]}"; do
  file=${c%:*} limit=${c##*:}
  name=$(basename "$file")
  for run in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    status=0
    "$bin" "$file" "$limit" > "$tmp/out" 2> /dev/null || status=$?
    end=$(date +%s.%N)
    last=$(tail -n 1 "$tmp/out")
    if [[ $last != "[]" ]]; then
      "$bin" evaluate "$file" "$tmp/out" > /dev/null || { echo "$name: infeasible answer"; exit 1; }
    fi
    wall=$(echo "$end - $start" | bc -l)
    printf '%s,%s,%s,%s,%.3f,%.3f,%s\n' "$commit" "$name" "$limit" "$run" "$wall" \
      "$(echo "$limit - $wall" | bc -l)" "$status" | tee -a "$csv"
  done
done
