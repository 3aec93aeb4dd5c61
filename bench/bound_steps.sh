#!/usr/bin/env bash
# Multiplier rules measured by steps, not seconds: `iopddl bound FILE --solution SOL
# --steps N -t 0` for each step count and each configuration, so the numbers do not depend
# on the machine's load. The target of the steps is SOL's cost (a good answer, say a 60-s
# `solve --output`), and the CSV gives the bound over that cost.
#
#   bench/bound_steps.sh [-n "150 300 600"] [-c "name=ARGS;name=ARGS"] FILE:SOL...
#
# -c: configurations, `;`-separated, each a name and the extra arguments of `bound`
# (default: "lp=;subgradient=--bound-lp-every 0").
# CSV on stdout: instance, config, steps, bound, cost, ratio.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${IOPDDL:-$here/../build/iopddl}
steps="150 300 600" configs="lp=;subgradient=--bound-lp-every 0"
while getopts "n:c:" opt; do
  case $opt in
    n) steps=$OPTARG ;; c) configs=$OPTARG ;; *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -gt 0 ]] || { echo "usage: $0 [-n STEPS] [-c CONFIGS] FILE:SOL..." >&2; exit 2; }
echo "instance,config,steps,bound,cost,ratio"
IFS=';' read -r -a config_list <<< "$configs"
for pair in "$@"; do
  file=${pair%%:*} sol=${pair#*:}
  name=$(basename "$file"); name=${name%.gz}; name=${name%.json}
  cost=$("$bin" evaluate "$file" "$sol" --json | sed -n 's/.*"cost":\([0-9-]*\).*/\1/p')
  for config in "${config_list[@]}"; do
    label=${config%%=*} args=${config#*=}
    for n in $steps; do
      # shellcheck disable=SC2086
      bound=$("$bin" bound "$file" --solution "$sol" --steps "$n" -t 0 -q $args | tail -1)
      ratio=$(awk -v b="$bound" -v c="$cost" 'BEGIN { printf "%.5f", b / c }')
      echo "$name,$label,$n,$bound,$cost,$ratio"
    done
  done
done
