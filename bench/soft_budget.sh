#!/usr/bin/env bash
# Soft budgets (overbudget_coeff): the request's own objective, cost + coeff x overrun, of
# the answer a hard limit at the budget gives (the contest JSON at that limit) against the
# solves at several limits that weigh overruns (one row per --soft-first-share). Every
# answer is judged by `iopddl evaluate` on the soft request.
#
#   bench/soft_budget.sh [-b SECONDS] [-s "1 2 3"] [-f "0.2 0.4 0.6"] BIN NAME=JSON:REQUEST... > soft.csv
#
# JSON is the instance at the hard limit (the budget), REQUEST the same with the soft budget.
# CSV columns: instance, config (hard or first-share=X), seed, request_cost, overbudget_cost.
set -euo pipefail
budget=10 seeds="1 2 3" shares="0.2 0.4 0.6"
while getopts "b:s:f:" opt; do
  case $opt in
    b) budget=$OPTARG ;; s) seeds=$OPTARG ;; f) shares=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 ]] || { echo "usage: $0 [-b S] [-s SEEDS] [-f SHARES] BIN NAME=JSON:REQUEST..." >&2; exit 2; }
bin=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "instance,config,seed,request_cost,overbudget_cost"
for spec in "$@"; do
  name=${spec%%=*} files=${spec#*=}
  json=${files%%:*} request=${files#*:}
  for seed in $seeds; do
    for config in hard $shares; do
      if [[ $config == hard ]]; then
        "$bin" solve "$json" -t "$budget" --seed "$seed" -q > "$tmp/out"
      else
        "$bin" solve "$request" -t "$budget" --seed "$seed" -q --soft-first-share "$config" \
          > "$tmp/out" 2> /dev/null
        config="first-share=$config"
      fi
      "$bin" evaluate --json "$request" "$tmp/out" > "$tmp/eval"
      cost=$(sed -n 's/.*"request_cost":\([0-9.e+-]*\).*/\1/p' "$tmp/eval")
      over=$(sed -n 's/.*"overbudget_cost":\([0-9.e+-]*\).*/\1/p' "$tmp/eval")
      echo "$name,$config,$seed,$cost,$over"
    done
  done
done
