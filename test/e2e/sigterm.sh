#!/usr/bin/env bash
# A run stopped by SIGTERM prints the best solution so far at once, as its last line.
#   sigterm.sh BIN INSTANCE      a contest instance
#   sigterm.sh BIN soft          a generated request with a soft budget (overbudget_coeff),
#                                whose solves at several limits each keep their own stores
set -euo pipefail
bin=$1 instance=$2
out=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$out" "$work"' EXIT
if [[ $instance == soft ]]; then
  "$bin" generate --family memory -n 20000 --seed 4 -o "$work/g.json"
  "$bin" convert "$work/g.json" "$work/g.textproto" 2> /dev/null
  limit=$(sed -n 's/^memory_budget: //p' "$work/g.textproto")
  sed "s/^memory_budget: .*/memory_budget: $((limit * 19 / 20))/" "$work/g.textproto" > "$work/soft.textproto"
  echo "overbudget_coeff { coeff: 2 }" >> "$work/soft.textproto"
  instance=$work/soft.textproto
fi
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
