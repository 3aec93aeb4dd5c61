#!/usr/bin/env bash
# --explorer-nice takes effect: while a 2-thread solve runs, exactly the workers after the
# first run at the asked nice value (read from /proc/PID/task/*/stat), and with 0 none does.
# The solve's budget is long and the test stops it once it has seen what it waits for, so
# that a loaded machine (slow presolve, late thread starts) only makes the test wait longer.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
pid=""
trap '[[ -n $pid ]] && kill "$pid" 2> /dev/null; rm -rf "$tmp"' EXIT
fail() { echo "$@"; exit 1; }
"$bin" generate --family memory -n 3000 --seed 5 -o "$tmp/gen.json" > /dev/null || fail "generate"
base=$(awk '{print $19}' /proc/self/stat)
threads_at() {  # NICE: how many of the running solve's threads are at that nice value
  for f in /proc/$pid/task/*/stat; do sed 's/^.*) //' "$f" 2> /dev/null | awk '{print $17}'; done |
    grep -c "^$1\$"
}
threads() { ls /proc/$pid/task 2> /dev/null | wc -l; }
# NICE: start a solve with --explorer-nice NICE; once its workers' threads exist (at least 3
# threads) and, for NICE > 0, one of them is at base+NICE (up to 100 s each), print how many
# are at base+NICE and how many not at base, the most seen over another second.
watch_solve() {
  "$bin" solve "$tmp/gen.json" -t 300 --threads 2 --explorer-nice "$1" -q > /dev/null &
  pid=$!
  local i
  for ((i = 0; i < 1000 && $(threads) < 3; i++)); do sleep 0.1; done
  for ((i = 0; i < 1000 && $1 > 0 && $(threads_at $((base + $1))) == 0; i++)); do sleep 0.1; done
  local at=0 off=0 n
  for _ in $(seq 1 10); do
    n=$(threads_at $((base + $1))); ((n > at)) && at=$n
    n=$(($(threads) - $(threads_at "$base"))); ((n > off)) && off=$n
    sleep 0.1
  done
  kill "$pid"; wait "$pid" 2> /dev/null; pid=""
  echo "$at $off"
}
read -r at7 off7 <<< "$(watch_solve 7)"
((at7 == 1 && off7 == 1)) ||
  fail "--explorer-nice 7: $at7 threads at nice $((base + 7)), $off7 not at $base; expected 1 and 1"
read -r _ off0 <<< "$(watch_solve 0)"
((off0 == 0)) || fail "--explorer-nice 0: $off0 threads not at nice $base"
echo "explorer-nice: ok"
