#!/usr/bin/env bash
# Distributed benchmark: the same total cores and time for 1 rank x 2 threads and for
# 2 ranks x 1 thread, every answer checked by the evaluator, with peak memory per rank.
#
#   bench/mpi_bench.sh [-b SECONDS] [-s "1 2 3"] [-l "1x2 2x1"] [-o OUTDIR]
#                      [-x "extra iopddl args"] FILE...
#
# CSV columns: instance, layout (ranks x threads), seconds, seed, cost, ratio to best known,
# peak resident memory per rank in MB (the largest over the ranks), the certified lower
# bound rank 0 reports and its ratio to the best known. IOPDDL picks the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bin=${IOPDDL:-$here/../build/iopddl}
budget=20 out=$here/out seeds=1 extra="" layouts="1x2 2x1"
while getopts "b:l:o:s:x:" opt; do
  case $opt in
    b) budget=$OPTARG ;; l) layouts=$OPTARG ;; o) out=$OPTARG ;; s) seeds=$OPTARG ;;
    x) extra=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
csv=$out/mpi.csv
echo "instance,layout,seconds,seed,cost,ratio,peak_mb_per_rank,bound,bound_ratio" > "$csv"
for file in "$@"; do
  name=$(instance_name "$file")
  best=$(best_known "$name")
  for seed in $seeds; do for layout in $layouts; do
    IFS=x read -r ranks threads <<< "$layout"
    log=$out/$name.np$ranks.t$threads.s$seed.log
    # Each rank reports its own peak memory through GNU time.
    # --bind-to none: otherwise Open MPI pins a lone rank, and its threads, to one core.
    mpirun -np "$ranks" --bind-to none sh -c "/usr/bin/time -f 'peak_kb %M' -o '$log.time.'\$OMPI_COMM_WORLD_RANK \
      '$bin' solve '$file' --time-limit $budget --threads $threads --seed $seed $extra" > "$log"
    "$bin" evaluate --json "$file" "$log" > "$log.eval" || { echo "$name $layout: INFEASIBLE"; exit 1; }
    cost=$(sed -n 's/.*"cost":\([0-9-]*\).*/\1/p' "$log.eval")
    peak=$(cat "$log".time.* | awk '/peak_kb/ {if ($2 > m) m = $2} END {printf "%.0f", m / 1024}')
    ratio=$([[ -n $best ]] && awk -v c="$cost" -v b="$best" 'BEGIN {printf "%.5f", c / b}' || true)
    bound=$(sed -n 's/.*certified lower bound \(-\{0,1\}[0-9]*\).*/\1/p' "$log" | tail -n 1)
    bound_ratio=$([[ -n $best && -n $bound ]] && awk -v c="$bound" -v b="$best" 'BEGIN {printf "%.5f", c / b}' || true)
    echo "$name,${ranks}x$threads,$budget,$seed,$cost,$ratio,$peak,$bound,$bound_ratio" | tee -a "$csv"
    rm -f "$log".time.*
  done; done
done
echo "wrote $csv"
