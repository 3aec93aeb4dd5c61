#!/usr/bin/env bash
# Distributed bound benchmark: `mpirun -np R iopddl bound FILE -t SECONDS` for each rank
# count, one after another on the same machine; the bound against time, and when each run
# first reaches the final bound of the first rank count (the reference, usually 1 rank).
#
#   bench/mpi_bound.sh [-b SECONDS] [-r "1 2"] [-o OUTDIR] [-x "extra iopddl args"] FILE...
#
# CSV columns: instance, ranks, seconds, steps, final certified bound, seconds to the
# reference's final bound (empty if never), the largest peak memory of a rank (MiB) and
# the regions line (ranks, regions, cut edges). Per run, OUTDIR/NAME.npR.curve holds
# "seconds bound" lines. IOPDDL picks the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=instances.sh
source "$here/instances.sh"
bin=${IOPDDL:-$here/../build/iopddl}
budget=60 ranks_list="1 2" out=$here/out extra=""
while getopts "b:r:o:x:" opt; do
  case $opt in
    b) budget=$OPTARG ;; r) ranks_list=$OPTARG ;; o) out=$OPTARG ;; x) extra=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -gt 0 ]] || { echo "usage: $0 [-b SECONDS] [-r RANKS] [-o DIR] [-x ARGS] FILE..."; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
csv=$out/mpi_bound.csv
echo "instance,ranks,seconds,steps,bound,t_reference_bound,peak_mb_per_rank,regions" > "$csv"
for file in "$@"; do
  name=$(instance_name "$file")
  reference=""
  for ranks in $ranks_list; do
    log=$out/$name.np$ranks.log
    # shellcheck disable=SC2086
    mpirun -np "$ranks" --bind-to none "$bin" bound "$file" -t "$budget" $extra > "$log"
    curve=$out/$name.np$ranks.curve
    sed -n 's/^# \[ *\([0-9.]*\)\] bound \(-\{0,1\}[0-9]*\), gap.*/\1 \2/p' "$log" > "$curve"
    bound=$(tail -n 1 "$log")
    steps=$(sed -n 's/.* after \([0-9]*\) steps.*/\1/p' "$log")
    [[ -n $reference ]] || reference=$bound
    reached=$(awk -v f="$reference" '$2 >= f {print $1; exit}' "$curve")
    peak=$(sed -n 's/.*peak memory per rank (MiB): //p' "$log" | tr ',' '\n' | sort -n | tail -n 1 | tr -d ' ')
    regions=$(sed -n 's/.*\] \([0-9]* ranks: [0-9]* regions, [0-9]* cut edges\).*/\1/p' "$log")
    echo "$name,$ranks,$budget,$steps,$bound,$reached,$peak,$regions" | tee -a "$csv"
  done
done
echo "wrote $csv"
