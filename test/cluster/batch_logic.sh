#!/usr/bin/env bash
# The Slurm batch script's logic, run outside Slurm with mpirun as the launcher and the
# signals Slurm would send: SIGUSR1 (early warning) makes it checkpoint, record the time
# used and stop with a valid answer; the "requeued" second run resumes from the checkpoint
# and ends with an answer at least as good.
set -euo pipefail
src=$1 bin=$2 instance=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export IOPDDL_LAUNCHER="mpirun -np 2" IOPDDL_BIN=$bin IOPDDL_CHECKPOINT=job.checkpoint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
wait_for() {
  for _ in $(seq 1 600); do grep -q "$2" "$1" 2> /dev/null && return 0; sleep 0.1; done
  echo "timed out waiting for '$2' in $1"; cat "$1"; exit 1
}
cost_of() { "$bin" evaluate --json "$instance" "$1" | sed -n 's/.*"cost":\([0-9]*\).*/\1/p'; }

bash "$src/cluster/iopddl.sbatch" "$instance" 600 > first.out 2> first.err &
script=$!
wait_for first.out "cost"
sleep 1
kill -USR1 "$script"
wait "$script" || true
grep -q "checkpoint written to job.checkpoint" first.out || { echo "no checkpoint"; cat first.out; exit 1; }
[[ -s job.checkpoint && -s job.checkpoint.used ]] || { echo "no checkpoint or time record"; exit 1; }
"$bin" evaluate "$instance" first.out > /dev/null || { echo "first segment: no valid answer"; exit 1; }
first=$(cost_of first.out)

bash "$src/cluster/iopddl.sbatch" "$instance" 600 > second.out 2> second.err &
script=$!
wait_for second.out "resumed from job.checkpoint"
kill -TERM "$script"
wait "$script" || true
"$bin" evaluate "$instance" second.out > /dev/null || { echo "second segment: no valid answer"; cat second.out; exit 1; }
second=$(cost_of second.out)
[[ $second -le $first ]] || { echo "resumed run is worse: $second > $first"; exit 1; }
echo "batch script logic: ok (costs $first then $second)"
