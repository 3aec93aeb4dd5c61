#!/usr/bin/env bash
# Pictures and the frontier from the command line, on the contest example: `frontier` writes
# one CSV row per limit (costs falling as the limit rises, each proven on so small a
# problem) and a PNG of the size its script sets; `plot` draws an answer through a symbolic
# link (which stays a link) and its data file holds the evaluator's peak; without gnuplot
# both say so and exit 6.
set -euo pipefail
bin=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example=$source/examples/example.json

# (Width and height from a PNG's IHDR chunk.)
png_size() {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
print("%dx%d" % struct.unpack(">II", data[16:24]))
PY
}

"$bin" frontier "$example" -n 4 -t 6 -q -o "$work/front.csv" --png "$work/front.png"
python3 - "$work/front.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) >= 2, rows
limits = [int(r["limit"]) for r in rows]
costs = [int(r["cost"]) for r in rows]
assert limits == sorted(limits) and len(set(limits)) == len(limits), limits
assert costs == sorted(costs, reverse=True), costs
assert all(r["proven"] == "yes" and int(r["bound"]) == int(r["cost"]) for r in rows), rows
assert all(int(r["peak"]) <= int(r["limit"]) for r in rows), rows
PY
[[ $(png_size "$work/front.png") == 960x600 ]]
# The time limit is the solves': reading the file does not eat it.
"$bin" frontier "$example" -n 3 -t 0.01 -q -o "$work/short.csv"
[[ $(wc -l < "$work/short.csv") -ge 3 ]] || { echo "short frontier: $(cat "$work/short.csv")"; exit 1; }

"$bin" solve "$example" -t 2 -q --output "$work/result.json" > "$work/out"
touch "$work/target.png"
ln -s "$work/target.png" "$work/link.png"
"$bin" plot "$example" "$work/result.json" -o "$work/link.png" --data "$work/profile.csv"
[[ -L $work/link.png ]]
[[ $(png_size "$work/target.png") == 1000x900 ]]  # memory, and cost and bound over time
"$bin" plot "$example" "$work/out" -o "$work/contest.png"
[[ $(png_size "$work/contest.png") == 1000x560 ]]  # a contest output has no history
peak=$("$bin" evaluate --json "$example" "$work/out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["peak_usage"])')
python3 - "$work/profile.csv" "$peak" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert max(int(r["usage"]) for r in rows) == int(sys.argv[2]), (rows, sys.argv[2])
assert all(int(r["start"]) < int(r["end"]) for r in rows), rows
PY

# A FIFO nobody reads: frontier gives up after its grace and says so (exit 6), no hang.
mkfifo "$work/nobody"
status=0
timeout 120 "$bin" frontier "$example" -n 2 -t 0.5 -q -o "$work/nobody" 2> "$work/err" || status=$?
[[ $status == 6 ]] && grep -q "no reader opened the FIFO" "$work/err" ||
  { echo "frontier to an unread FIFO: exit $status: $(cat "$work/err")"; exit 1; }

# A problem where no node is ever live: a flat picture, not an error.
cat > "$work/nomem.json" <<'JSON'
{"problem": {"name": "nomem", "nodes": {"intervals": [[0, 0], [0, 0]],
 "costs": [[1, 2], [3, 1]], "usages": [[10, 20], [15, 5]]},
 "edges": {"nodes": [[0, 1]], "costs": [[0, 1, 1, 0]]}}}
JSON
"$bin" solve "$work/nomem.json" -t 1 -q > "$work/nomem.out"
"$bin" plot "$work/nomem.json" "$work/nomem.out" -o "$work/nomem.png"
[[ $(png_size "$work/nomem.png") == 1000x560 ]]

# No gnuplot on the PATH: a clear error, exit 6.
mkdir "$work/empty"
status=0
PATH=$work/empty "$bin" plot "$example" "$work/out" -o "$work/none.png" 2> "$work/err" || status=$?
[[ $status == 6 ]] && grep -q "gnuplot is not installed" "$work/err" ||
  { echo "without gnuplot: exit $status: $(cat "$work/err")"; exit 1; }
echo "pictures: ok"
