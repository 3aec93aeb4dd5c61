#!/usr/bin/env bash
# Runs `iopddl FILE TIMEOUT` as the contest did and checks the output contract: every line
# but the last starts with '#', the last is [s0, ...], and the evaluator finds it feasible.
set -euo pipefail
bin=$1 instance=$2 timeout=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" "$instance" "$timeout" > "$out"
last=$(tail -n 1 "$out")
[[ $last == \[*\] ]] || { echo "last line is not an assignment: $last"; exit 1; }
if grep -v '^#' "$out" | head -n -1 | grep -q .; then
  echo "lines other than the last do not start with '#':"; grep -v '^#' "$out" | head -3; exit 1
fi
"$bin" evaluate "$instance" "$out"
