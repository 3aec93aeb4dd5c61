#!/usr/bin/env bash
# A/B quality of two builds, interleaved (old, new, old, new, ... per instance and seed, so
# that the machine's noise falls on both alike): every answer is checked by the reference
# evaluator; one CSV row per run, then the median ratio to the best known per instance.
#
#   bench/ab.sh [-b BUDGET] [-s "1 2 3"] [-x "extra iopddl args"] OLD_BIN NEW_BIN FILE... > ab.csv
#
# CSV columns: build (old/new), instance, budget, seed, cost, ratio.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
budget=20 seeds="1 2 3" extra=""
while getopts "b:s:x:" opt; do
  case $opt in
    b) budget=$OPTARG ;; s) seeds=$OPTARG ;; x) extra=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 3 ]] || { echo "usage: $0 [-b BUDGET] [-s SEEDS] [-x ARGS] OLD_BIN NEW_BIN FILE..." >&2; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "build,instance,budget,seed,cost,ratio"
for file in "$@"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  for seed in $seeds; do
    for build in old new; do
      bin=$old; [[ $build == new ]] && bin=$new
      # shellcheck disable=SC2086
      "$bin" solve "$file" --time-limit "$budget" --seed "$seed" -q $extra > "$tmp/out"
      "$new" evaluate --json "$file" "$tmp/out" > "$tmp/eval" ||
        { echo "$build $name seed $seed: INFEASIBLE" >&2; exit 1; }
      cost=$(sed -n 's/.*"cost":\([0-9-]*\).*/\1/p' "$tmp/eval")
      ratio=""
      [[ -n $best ]] && ratio=$(awk -v c="$cost" -v b="$best" 'BEGIN {printf "%.5f", c / b}')
      echo "$build,$name,$budget,$seed,$cost,$ratio"
    done
  done
done | tee "$tmp/rows"
# Medians per instance and build, on stderr (the CSV stays clean).
awk -F, '$6 != "" {print $2 "," $1 "," $6}' "$tmp/rows" | sort -t, -k1,1 -k2,2 -k3,3g |
  awk -F, '{k = $1 "," $2; v[k, ++n[k]] = $3}
    END {for (k in n) {c = n[k]; m = c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2;
         printf "median %s: %.5f (%d runs)\n", k, m, c > "/dev/stderr"}}'
