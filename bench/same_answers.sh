#!/usr/bin/env bash
# Refactoring check: two builds give byte-identical --deterministic answers (the same seed,
# threads and ranks), on the given instances with every pricing scheme, and under mpirun
# with 2 and 3 ranks on the first instance.
#
#   bench/same_answers.sh REFERENCE_BINARY CANDIDATE_BINARY FILE...
set -euo pipefail
ref=$1 new=$2
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
answer() { "$@" 2> /dev/null | tail -n 1 | md5sum | cut -c1-12; }
differ=0
for f in "$@"; do
  for pricing in member time mixed; do
    args=(solve "$f" --deterministic --threads 2 --work-limit 8 --pricing "$pricing" -q)
    a=$(answer "$ref" "${args[@]}") b=$(answer "$new" "${args[@]}")
    [[ $a == "$b" ]] && s=same || { s=DIFFERENT; differ=1; }
    echo "$s $(basename "$f") $pricing"
  done
done
if command -v mpirun > /dev/null; then
  for np in 2 3; do
    args=(solve "$1" --deterministic --work-limit 10 -q)
    a=$(answer mpirun -np $np "$ref" "${args[@]}") b=$(answer mpirun -np $np "$new" "${args[@]}")
    [[ $a == "$b" ]] && s=same || { s=DIFFERENT; differ=1; }
    echo "$s $(basename "$1") mpirun -np $np"
  done
fi
exit $differ
