#!/usr/bin/env bash
# A run stopped by SIGTERM prints the best solution so far at once, as its last line.
set -euo pipefail
bin=$1 instance=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" solve "$instance" --time-limit 600 > "$out" &
pid=$!
# Wait (bounded) until the solver reports a first solution, then stop it.
for _ in $(seq 1 600); do
  grep -q "cost" "$out" && break
  sleep 0.1
done
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[[ $status -eq 143 ]] || { echo "exit status $status, expected 143 (128 + SIGTERM)"; exit 1; }
grep -q "stopped by signal 15" "$out" || { echo "no stop message"; exit 1; }
last=$(tail -n 1 "$out")
[[ $last == \[*\] && $last != "[]" ]] || { echo "last line is not an assignment: $last"; exit 1; }
"$bin" evaluate "$instance" "$out"
