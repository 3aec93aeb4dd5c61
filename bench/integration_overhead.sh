#!/usr/bin/env bash
# What the three ways in cost before the solve: reading contest JSON, reading the same
# problem as an XLA request (binary), and building it from Python lists with from_arrays
# (the lists made by Python's json module first, not timed). Each in a fresh process:
# wall seconds of the step and the process's peak resident memory.
#   bench/integration_overhead.sh BUILD INSTANCE.json.gz [RUNS]   -> CSV on stdout
set -euo pipefail
build=$1 instance=$2 runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/iopddl" convert "$instance" "$work/request.pb" 2> /dev/null
gunzip -c -f "$instance" > "$work/plain.json" 2> /dev/null || cp "$instance" "$work/plain.json"
export PYTHONPATH=$build/python
echo "instance,way,run,seconds,peak_mb"
for run in $(seq "$runs"); do
  for way in json request from_arrays; do
    /usr/bin/python3 - "$way" "$work" "$instance" "$run" <<'PY'
import json, os, resource, sys, time
import numpy as np
import iopddl
way, work, instance, run = sys.argv[1:]
if way == "from_arrays":
    with open(os.path.join(work, "plain.json")) as f:
        spec = json.load(f)["problem"]
    nodes, edges = spec["nodes"], spec["edges"]
    start = time.perf_counter()
    p = iopddl.from_arrays(nodes["costs"], nodes["usages"], nodes["intervals"],
                           np.array(edges["nodes"], dtype=np.int64).reshape(-1, 2),
                           edges["costs"], usage_limit=spec.get("usage_limit"))
else:
    path = os.path.join(work, "request.pb") if way == "request" else instance
    start = time.perf_counter()
    p = iopddl.load(path)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{os.path.basename(instance)},{way},{run},{seconds:.3f},{peak:.0f}")
PY
  done
done
