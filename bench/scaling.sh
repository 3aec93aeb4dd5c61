#!/bin/sh
# Scaling of distributed runs without a cluster: k machines simulated in one process with
# deterministic work units (iopddl solve --deterministic --simulate-ranks K), each with the
# same budget W whatever k, against one rank with 2W, 4W and 8W. One CSV line per run:
#   instance,seed,ranks,work_per_rank,cost,wall_seconds,peak_kib,bytes_per_round
# Usage: bench/scaling.sh BIN WORK "RANKS..." "SEEDS..." FILE... > results.csv
# Environment: MULTIPLES, the one-rank budgets in units of W (default "2 4 8"; "" for none);
# SIMULATE_THREADS, threads of the simulation (default: the machine's; answers do not
# depend on it, only the wall time).
set -eu
bin=$1 work=$2 ranks=$3 seeds=$4
multiples=${MULTIPLES-2 4 8}
threads=${SIMULATE_THREADS:+--simulate-threads $SIMULATE_THREADS}
shift 4
echo "instance,seed,ranks,work_per_rank,cost,wall_seconds,peak_kib,bytes_per_round"
for file in "$@"; do
  name=$(basename "$file" | sed 's/\.json.*//')
  for seed in $seeds; do
    for k in $ranks; do
      log=$(mktemp)
      /usr/bin/time -f "TIME %e %M" "$bin" solve "$file" --deterministic --work-limit "$work" \
        --seed "$seed" --sync-rounds 1 --simulate-ranks "$k" $threads >"$log" 2>&1 || true
      cost=$(grep -o 'final: cost [0-9]*' "$log" | awk '{print $3}')
      set -- $(grep '^TIME' "$log") ; wall=$2 kib=$3
      bytes=$(grep -o '[0-9]* bytes' "$log" | awk '{s+=$1; n++} END {printf "%.0f", n ? s/n : 0}')
      echo "$name,$seed,$k,$work,$cost,$wall,$kib,$bytes"
      rm -f "$log"
    done
    for m in $multiples; do
      log=$(mktemp)
      /usr/bin/time -f "TIME %e %M" "$bin" solve "$file" --deterministic --threads 1 \
        --work-limit $((work * m)) --seed "$seed" >"$log" 2>&1 || true
      cost=$(grep -o 'final: cost [0-9]*' "$log" | awk '{print $3}')
      set -- $(grep '^TIME' "$log") ; wall=$2 kib=$3
      echo "$name,$seed,1,$((work * m)),$cost,$wall,$kib,0"
      rm -f "$log"
    done
  done
done
