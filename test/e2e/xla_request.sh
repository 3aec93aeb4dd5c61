#!/usr/bin/env bash
# XLA requests from the command line: the contest example converted to a request (text and
# binary) solves to 445 in the request's units, both ways of converting agree, the answer
# is written as JSON and as our result message, and a bad request exits 3 naming the field.
set -euo pipefail
bin=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example=$source/examples/example.json
"$bin" convert "$example" "$work/example.textproto" 2> /dev/null
"$bin" convert "$example" "$work/example.pb" 2> /dev/null
"$bin" convert "$work/example.pb" "$work/back.json" 2> "$work/note"
grep -q "shifted by 130" "$work/note"
grep -q "^num_nodes: 5" "$work/example.textproto"
for request in "$work/example.textproto" "$work/example.pb"; do
  "$bin" solve "$request" -t 2 --quiet --output "$work/result.json" \
    --output-proto "$work/result.pb" > "$work/out"
  grep -qE "^cost +445$" <<< "$("$bin" evaluate "$example" "$work/out")"
  python3 - "$work/result.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["request"]
assert r["cost"] == 445 and r["is_optimal"] and r["status"] == "optimal", r
assert r["s_val"] == [0, 0, 2, 1, 0] and r["peak_usage"] == 50, r
PY
  protoc --decode=iopddl.xla.AutoShardingSolverResult -I "$source/proto" \
    "$source/proto/auto_sharding_request.proto" < "$work/result.pb" > "$work/result.txt"
  grep -q "status: OPTIMAL" "$work/result.txt"
  grep -q "cost: 445" "$work/result.txt"
done
# Back to JSON: the same problem up to the shifts (the optimum, 445, moves by them).
"$bin" solve "$work/back.json" -t 2 --quiet > "$work/back.out"
grep -qE "^cost +445$" <<< "$("$bin" evaluate "$example" "$work/back.out")"
# max_cost not beaten: no answer, exit 4.
{ cat "$work/example.textproto"; echo "max_cost { coeff: 445 }"; } > "$work/capped.textproto"
status=0
"$bin" solve "$work/capped.textproto" -t 1 --quiet > "$work/capped.out" 2> /dev/null || status=$?
[[ $status == 4 && $(tail -n 1 "$work/capped.out") == "[]" ]] || { echo "max_cost: exit $status"; exit 1; }
# A bad request: exit 3, the field named.
printf 'num_nodes: 2\ns_len: 1\n' > "$work/bad.textproto"
status=0
"$bin" solve "$work/bad.textproto" -t 1 2> "$work/err" > /dev/null || status=$?
[[ $status == 3 ]] || { echo "bad request: exit $status"; exit 1; }
grep -q "bad.textproto: s_len: 1 entries, but num_nodes is 2" "$work/err"
# --output-proto for an input that is not a request: refused before the search (exit 2).
status=0
"$bin" solve "$example" -t 1 --output-proto "$work/not.pb" > /dev/null 2> "$work/err" || status=$?
[[ $status == 2 ]] || { echo "--output-proto on JSON: exit $status"; exit 1; }
grep -q "is not an XLA request" "$work/err"
# A field that would change the problem refuses the request (exit 3, named) unless asked;
# then the warning names it and what it means for the answer.
{ cat "$work/example.textproto"; echo "departure_costs { costs: 1 }"; } > "$work/ignored.textproto"
status=0
"$bin" solve "$work/ignored.textproto" -t 1 --quiet 2> "$work/warn" > /dev/null || status=$?
[[ $status == 3 ]] && grep -q "departure_costs: not supported by iopddl" "$work/warn" ||
  { echo "unsupported field: exit $status"; cat "$work/warn"; exit 1; }
"$bin" solve "$work/ignored.textproto" -t 1 --quiet --ignore-unsupported-fields 2> "$work/warn" \
  > /dev/null
grep -q "departure_costs is not used by iopddl: the answer leaves it out" "$work/warn"
# Deterministic: a request solves to the command line's answer on the same problem as
# contest JSON (the request's conversion: shifted tables, followers and aliases as edges).
"$bin" generate --family forbidden -n 1500 --seed 11 -o "$work/generated.json"
"$bin" convert "$work/generated.json" "$work/generated.pb" 2> /dev/null
"$bin" convert "$work/generated.pb" "$work/generated_back.json" 2> /dev/null
run() { "$bin" solve "$1" --deterministic --work-limit 60 --seed 4 --threads 2 --quiet | tail -n 1; }
[[ "$(run "$work/generated.pb")" == "$(run "$work/generated_back.json")" ]] ||
  { echo "request and JSON differ in deterministic mode"; exit 1; }
echo "xla requests: ok"
