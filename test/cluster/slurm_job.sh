#!/usr/bin/env bash
# The Slurm batch script under a real, one-machine Slurm (Debian's slurmctld, slurmd and
# munge, started here as root in a scratch directory on their own ports): the job runs 2
# MPI ranks through srun, gets SIGUSR1 on its batch shell (what --signal=B:USR1@120 sends
# before the time limit), checkpoints, requeues itself through scontrol, and the requeued
# job resumes from the checkpoint; SIGTERM then stops it with an answer at least as good.
#
#   slurm_job.sh SOURCE_DIR IOPDDL_BINARY INSTANCE
#
# Exits 77 (skipped) when the Slurm daemons are not installed or not run as root.
set -euo pipefail
src=$1 bin=$2 instance=$3
for tool in munged slurmctld slurmd sbatch scontrol scancel sinfo; do
  command -v "$tool" > /dev/null || { echo "skipped: $tool not installed"; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "skipped: starting slurmd needs root"; exit 77; }
# slurmd needs the cgroup filesystem (absent in some containers and chroots).
mountpoint -q /sys/fs/cgroup || { echo "skipped: no cgroup filesystem for slurmd"; exit 77; }

work=$(mktemp -d /tmp/iopddl-slurm.XXXXXX)
chmod 755 "$work"
stop_daemons() {
  for pid in slurmd slurmctld munged; do
    if [[ -s $work/$pid.pid ]]; then kill "$(cat "$work/$pid.pid")" 2> /dev/null || true; fi
  done
  sleep 1
  [[ -n ${KEEP:-} ]] || rm -rf "$work"
}
trap stop_daemons EXIT

# Ports and job ids from the process id, so that concurrent runs (a suite in a chroot
# beside one on the host) do not collide: PMIx names its files and shared memory after the
# job and step ids, and two job 1s crashed each other's ranks.
port=$((20000 + ($$ % 20000) * 2))
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" << EOF
ClusterName=iopddltest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
FirstJobId=$port
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
KillWait=5
MpiDefault=pmix
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$work/slurm.conf
head -c 128 /dev/urandom > "$work/munge.key"
chmod 600 "$work/munge.key"
munged --force --socket="$work/munge.sock" --key-file="$work/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed"
for daemon in slurmctld slurmd; do
  "$daemon" || { echo "$daemon did not start:"; tail -n 5 "$work/$daemon.log"; exit 1; }
done

wait_for() {  # FILE PATTERN SECONDS
  for _ in $(seq 1 $(($3 * 10))); do grep -q "$2" "$1" 2> /dev/null && return 0; sleep 0.1; done
  echo "timed out waiting for '$2' in $1"; cat "$1" 2> /dev/null; tail -n 20 "$work"/slurm*.log; exit 1
}
for _ in $(seq 1 100); do
  sinfo -h -o %T | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %T | grep -q idle || { echo "the node never became idle"; tail -n 20 "$work"/slurm*.log; exit 1; }

# The job: one node, 2 ranks of 1 thread. sbatch exports this environment to the job.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export IOPDDL_BIN=$bin IOPDDL_CHECKPOINT=$work/job.checkpoint
out=$work/job.out
job=$(sbatch --parsable --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 --time=10 \
  --chdir="$work" --output="$out" --error="$work/job.err" "$src/cluster/iopddl.sbatch" "$instance" 600)
echo "job $job"
wait_for "$out" "cost" 60
sleep 1
# What --signal=B:USR1@120 does 120 s before the limit: SIGUSR1 to the batch shell only.
scancel --batch --signal=USR1 "$job"
# Slurm holds a requeued job for about 2 minutes (Reason=BeginTime); release it at once.
for _ in $(seq 1 300); do
  scontrol show job "$job" | grep -q "Restarts=1" && break
  sleep 0.1
done
scontrol show job "$job" | grep -q "Restarts=1" || { echo "the job was not requeued"; exit 1; }
until scontrol show job "$job" | grep -q "JobState=PENDING"; do sleep 0.1; done
# slurmd refuses a job whose credential is no newer than the revocation of its last run's
# (whole seconds): released within the same second, it is killed ("Job credential revoked").
sleep 2
scontrol update jobid="$job" starttime=now
wait_for "$out" "resumed from $work/job.checkpoint" 120
[[ -s $work/job.checkpoint.used ]] || { echo "no record of the time used"; exit 1; }
sleep 2
# What Slurm does at the job's time limit (and on scancel): SIGTERM to every process of
# the job, SIGKILL after KillWait. Rank 0 must print its incumbent at once.
scancel "$job"
for _ in $(seq 1 300); do
  squeue -h -j "$job" 2> /dev/null | grep -q . || break
  sleep 0.1
done

# The output holds both segments (--open-mode=append); each must end with a valid answer.
csplit -s -z -f "$work/segment." "$out" '/^# iopddl.sbatch: job/' '{*}'
segments=("$work"/segment.*)
[[ ${#segments[@]} -eq 2 ]] || { echo "expected 2 segments, got ${#segments[@]}"; cat "$out"; exit 1; }
cost_of() { "$bin" evaluate --json "$instance" "$1" | sed -n 's/.*"cost":\([0-9]*\).*/\1/p'; }
first=$(cost_of "${segments[0]}")
second=$(cost_of "${segments[1]}")
[[ -n $first && -n $second ]] || { echo "a segment has no valid answer"; cat "$out"; exit 1; }
[[ $second -le $first ]] || { echo "resumed run is worse: $second > $first"; exit 1; }
echo "slurm job: checkpointed, requeued and resumed (costs $first then $second)"
