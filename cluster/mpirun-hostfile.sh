#!/usr/bin/env bash
# iopddl across machines with plain mpirun: one rank per line of slots in the hostfile,
# THREADS worker threads per rank.
#
#   cluster/mpirun-hostfile.sh HOSTFILE PROBLEM SECONDS [THREADS]
#
# HOSTFILE lines look like "node01 slots=4" (see hostfile.example). The binary and the
# problem file must be at the same path on every host (a shared file system).
set -euo pipefail
hostfile=${1:?usage: $0 HOSTFILE PROBLEM SECONDS [THREADS]}
problem=${2:?} seconds=${3:?} threads=${4:-1}
bin=${IOPDDL_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/iopddl}
ranks=$(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^slots=/) {split($i, a, "="); n += a[2]}} END {print n}' "$hostfile")
# --bind-to none: a rank's worker threads may use every core of its slot.
exec mpirun --hostfile "$hostfile" -np "$ranks" --bind-to none \
  "$bin" solve "$problem" --time-limit "$seconds" --threads "$threads"
