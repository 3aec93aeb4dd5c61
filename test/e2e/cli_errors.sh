#!/usr/bin/env bash
# Bad input and bad command lines give a message on stderr, the documented exit status and
# no final line, except in contest mode, whose last line is then [].
set -uo pipefail
bin=$1 src=$2
fail() { echo "$@"; exit 1; }
out=$("$bin" "$src/test/data/bad/edge_table_size.json" 5 2>err.txt); rc=$?
[[ $rc -eq 3 ]] || fail "bad input: exit $rc, expected 3"
[[ $(grep -v '^#' <<< "$out") == "[]" ]] || fail "bad input in contest mode: not [] last: $out"
out=$("$bin" solve "$src/test/data/bad/edge_table_size.json" 2> /dev/null); rc=$?
[[ $rc -eq 3 ]] || fail "bad input (solve): exit $rc, expected 3"
! grep -v '^#' <<< "$out" | grep -q . || fail "bad input (solve) printed a final line: $out"
grep -q "edges.costs\[2\]: expected 4 entries (2 x 2), found 3" err.txt || fail "message: $(cat err.txt)"
"$bin" /no/such/file.json 5 > /dev/null 2> err.txt; rc=$?
[[ $rc -eq 3 ]] || fail "missing file: exit $rc"
grep -q "/no/such/file.json: cannot open" err.txt || fail "message: $(cat err.txt)"
"$bin" "$src/examples/example.json" -1 > /dev/null 2>&1; rc=$?
[[ $rc -eq 2 ]] || fail "negative timeout: exit $rc, expected 2"
"$bin" > /dev/null 2>&1; rc=$?
[[ $rc -eq 2 ]] || fail "no arguments: exit $rc, expected 2"
# Every subcommand the top-level help lists has a help of its own, and each that reads a
# problem file says it takes an XLA request too.
cmds=$("$bin" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}')
[[ $(wc -w <<< "$cmds") -ge 8 ]] || fail "subcommands listed: $cmds"
for cmd in "" $cmds; do
  "$bin" $cmd --help > help.txt || fail "$cmd --help failed"
  grep -q "Usage" help.txt || fail "$cmd --help has no usage"
  if grep -q "^  FILE" help.txt; then
    grep -A1 "^  FILE" help.txt | grep -qi "request" || fail "$cmd --help: FILE says nothing of requests"
  fi
done
grep -q "Usage" help.txt
"$bin" solve "$src/examples/example.json" --seed 9 --dump-config > cfg.toml || fail "dump-config"
grep -q "seed=9" cfg.toml || fail "dump-config lacks the seed: $(cat cfg.toml)"
# A flag takes true or false: --key=false turns off one whose default is true.
"$bin" solve "$src/examples/example.json" --presolve-enabled=false --deterministic=true \
  --dump-config > flags.toml || fail "flags with values"
grep -qx "enabled=false" flags.toml || fail "--presolve-enabled=false ignored: $(grep enabled flags.toml)"
grep -qx "deterministic=true" flags.toml || fail "--deterministic=true ignored"
"$bin" solve "$src/examples/example.json" --stats=maybe --dump-config > /dev/null 2> err.txt; rc=$?
[[ $rc -eq 2 ]] || fail "--stats=maybe: exit $rc, expected 2"
grep -q -- '--stats: expected true or false, found "maybe"' err.txt || fail "message: $(cat err.txt)"
"$bin" solve "$src/examples/example.json" --config cfg.toml -o res.json > out.txt || fail "config run"
"$bin" evaluate --json "$src/examples/example.json" res.json | grep -q '"cost":445' || fail "result"
grep -q '"status":"optimal"' res.json || fail "the example's optimum is not reported as proven: $(cat res.json)"
# Every bound says which method certified it, in the result and in the log.
python3 -c '
import json, sys
bounds = json.load(open("res.json"))["bounds"]
assert bounds and all(b["source"] for b in bounds), bounds
' || fail "bounds without their method: $(cat res.json)"
grep -q "certified lower bound 445 (by " out.txt || fail "the log's bound names no method: $(cat out.txt)"
grep -q '"neighbourhoods":\[' res.json || fail "the result has no neighbourhood statistics: $(cat res.json)"
echo "[0, 0, 1, 1, 0]" > over.txt
"$bin" evaluate "$src/examples/example.json" over.txt > /dev/null; rc=$?
[[ $rc -eq 1 ]] || fail "infeasible solution: exit $rc, expected 1"
grep -q '"lower_bound":445' res.json || fail "the proven optimum is not the result's bound: $(cat res.json)"
# The bound command: the last line is the certified bound; the multipliers file is JSON.
"$bin" bound "$src/examples/example.json" -t 2 --multipliers mult.json > bound.txt || fail "bound"
[[ $(tail -1 bound.txt) == 445 ]] || fail "bound of the example: $(tail -1 bound.txt), expected 445"
grep -q '"multipliers_per_segment":\[' mult.json || fail "multipliers: $(cat mult.json)"
"$bin" bound "$src/examples/example.json" --multipliers /no/such/dir/m.json > /dev/null 2> err.txt; rc=$?
[[ $rc -eq 2 ]] || fail "unwritable --multipliers: exit $rc, expected 2"
grep -q -- "--multipliers /no/such/dir/m.json: cannot write" err.txt || fail "message: $(cat err.txt)"
"$bin" bound "$src/examples/example.json" --bound-share 0.5 > /dev/null 2>&1; rc=$?
[[ $rc -eq 2 ]] || fail "bound takes no --bound-share (it spends the whole budget): exit $rc"
"$bin" bound "$src/test/data/bad/edge_table_size.json" > /dev/null 2>&1; rc=$?
[[ $rc -eq 3 ]] || fail "bound of bad input: exit $rc, expected 3"
# bound --solution: a known answer is the steps' target once the evaluator accepts it.
"$bin" bound "$src/examples/example.json" -t 2 --solution res.json > bound.txt || fail "bound --solution"
grep -q "solution: cost 445" bound.txt || fail "bound --solution: no target line: $(cat bound.txt)"
echo "[0]" > short.txt
"$bin" bound "$src/examples/example.json" --solution short.txt > /dev/null 2> err.txt; rc=$?
[[ $rc -eq 3 ]] || fail "bound --solution with a wrong answer: exit $rc, expected 3"
grep -q "short.txt: not a feasible answer of" err.txt || fail "message: $(cat err.txt)"
# A time limit that comes while the input is read: no bound, exit 4, a message.
rm -f never.fifo && mkfifo never.fifo
timeout 20 "$bin" bound never.fifo -t 1 > bound.txt 2> err.txt; rc=$?
[[ $rc -eq 4 ]] || fail "bound of a FIFO that delivers nothing: exit $rc, expected 4"
! grep -qv '^#' bound.txt || fail "it printed a bound: $(cat bound.txt)"
grep -q "never.fifo: the time limit came while reading it" err.txt || fail "message: $(cat err.txt)"
rm -f never.fifo
# --deterministic ignores the time limit while reading too: a slow input is read whole.
rm -f slow.fifo && mkfifo slow.fifo
(sleep 2; cat "$src/examples/example.json" > slow.fifo) &
timeout 60 "$bin" solve slow.fifo --deterministic --work-limit 1 -t 1 > det.txt 2> err.txt; rc=$?
wait
[[ $rc -eq 0 ]] || fail "--deterministic, input slower than -t 1: exit $rc: $(cat err.txt)"
[[ $(tail -1 det.txt) == \[*\] ]] || fail "--deterministic, slow input: no answer"
rm -f slow.fifo
# evaluate --bound: the gap, and a bound above the cost is an error.
"$bin" evaluate "$src/examples/example.json" res.json --bound 400 | grep -q "gap to the lower bound 400: 10.1" ||
  fail "evaluate --bound: $("$bin" evaluate "$src/examples/example.json" res.json --bound 400)"
"$bin" evaluate "$src/examples/example.json" res.json --bound 446 > /dev/null; rc=$?
[[ $rc -eq 1 ]] || fail "a bound above the cost: exit $rc, expected 1"
"$bin" evaluate "$src/examples/example.json" res.json --bound 4e2 > /dev/null 2> err.txt; rc=$?
[[ $rc -eq 2 ]] || fail "evaluate --bound 4e2: exit $rc, expected 2"
grep -q -- "--bound: expected a decimal integer" err.txt || fail "message: $(cat err.txt)"
"$bin" solve "$src/examples/example.json" --gap-limit 2 > /dev/null 2> err.txt; rc=$?
[[ $rc -eq 2 ]] || fail "--gap-limit 2: exit $rc, expected 2"
# No assignment fits: exit 4, and the result says where the limit binds and who is live.
cat > inf.json <<'JSON'
{"problem": {"name": "inf", "nodes": {"intervals": [[0, 3], [1, 4], [2, 5]],
 "costs": [[1, 2], [3, 1], [2, 2]], "usages": [[10, 20], [15, 5], [30, 40]]},
 "edges": {"nodes": [[0, 1]], "costs": [[0, 1, 1, 0]]}, "usage_limit": 30}}
JSON
"$bin" solve inf.json -t 1 -q --output inf-res.json > /dev/null; rc=$?
[[ $rc -eq 4 ]] || fail "an infeasible instance: exit $rc, expected 4"
python3 - inf-res.json <<'PY' || fail "infeasibility report: $(cat inf-res.json)"
import json, sys
r = json.load(open(sys.argv[1]))
why = r["infeasibility"]
assert r["status"] == "infeasible" and why["least_peak"] == 45 and why["usage_limit"] == 30
assert why["time"] == 2 and why["live_count"] == 3
assert why["live"] == [{"node": 2, "least_usage": 30}, {"node": 0, "least_usage": 10},
                       {"node": 1, "least_usage": 5}]
PY
rm -f err.txt help.txt cfg.toml res.json out.txt over.txt bound.txt mult.json inf.json inf-res.json
echo "cli errors: ok"
