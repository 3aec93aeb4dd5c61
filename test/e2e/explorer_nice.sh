#!/usr/bin/env bash
# --explorer-nice takes effect: while a 2-thread solve runs, exactly the workers after the
# first run at the asked nice value (read from /proc/PID/task/*/stat), and with 0 none does.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$@"; exit 1; }
"$bin" generate --family memory -n 3000 --seed 5 -o "$tmp/gen.json" > /dev/null || fail "generate"
nice_of_threads() {  # NICE: the nice values of the solve's threads, one per line
  "$bin" solve "$tmp/gen.json" -t 4 --threads 2 --explorer-nice "$1" -q > /dev/null &
  local pid=$! seen=""
  for _ in $(seq 1 40); do  # until the workers' threads exist (after presolve)
    sleep 0.1
    seen=$(for f in /proc/$pid/task/*/stat; do
      sed 's/^.*) //' "$f" 2> /dev/null | awk '{print $17}'; done)
    [[ $(grep -c . <<< "$seen") -ge 3 ]] && sleep 0.5 && break
  done
  for f in /proc/$pid/task/*/stat; do sed 's/^.*) //' "$f" 2> /dev/null | awk '{print $17}'; done
  wait "$pid"
}
base=$(awk '{print $19}' /proc/self/stat)
at7=$(nice_of_threads 7 | grep -c "^$((base + 7))\$")
((at7 == 1)) || fail "--explorer-nice 7: $at7 threads at nice $((base + 7)), expected 1"
at0=$(nice_of_threads 0 | grep -vc "^$base\$")
((at0 == 0)) || fail "--explorer-nice 0: $at0 threads not at nice $base"
echo "explorer-nice: ok"
