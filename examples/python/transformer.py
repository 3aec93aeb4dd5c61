"""A toy transformer sharded over 4 devices, as an ML-compiler user would pose it.

Each layer has four operations (the QKV projection, attention, two MLP matmuls); each can
run replicated, split over the batch, or split over the model dimension. Costs are seconds
(compute from FLOPs, communication from bytes moved), memory is bytes, an operation's output
lives until its last consumer runs, and switching layout between two operations costs a
reshard. iopddl picks one layout per operation under a memory budget.

    PYTHONPATH=build/python python3 examples/python/transformer.py [memory.png]
"""

import sys

import numpy as np

import iopddl

DEVICES = 4
FLOPS = 100e12       # per device, per second
BANDWIDTH = 50e9     # bytes per second between devices
BATCH, SEQ, MODEL, LAYERS = 2, 512, 2048, 6
LAYOUTS = ["replicated", "batch", "model"]
BYTES = 2            # bf16

# (name, FLOPs, output elements, weight elements) per operation of one layer.
layer = [
    ("qkv", 2 * BATCH * SEQ * MODEL * 3 * MODEL, BATCH * SEQ * 3 * MODEL, 3 * MODEL * MODEL),
    ("attention", 4 * BATCH * SEQ * SEQ * MODEL, BATCH * SEQ * MODEL, 0),
    ("mlp_up", 2 * BATCH * SEQ * MODEL * 4 * MODEL, BATCH * SEQ * 4 * MODEL, 4 * MODEL * MODEL),
    ("mlp_down", 2 * BATCH * SEQ * 4 * MODEL * MODEL, BATCH * SEQ * MODEL, 4 * MODEL * MODEL),
]
ops = [(f"layer{l}.{name}", flops, out, w) for l in range(LAYERS) for name, flops, out, w in layer]

costs, usages, names = [], [], []
for name, flops, out, weights in ops:
    names.append(name)
    compute = np.array([flops / FLOPS, flops / FLOPS / DEVICES, flops / FLOPS / DEVICES])
    # Split over the model dimension: an all-reduce of the output; over the batch: the
    # weights' gradients are all-reduced (a share of a step, as a simple proxy).
    comm = np.array([0.0, 2 * weights * BYTES / BANDWIDTH / 8, 2 * out * BYTES / BANDWIDTH])
    costs.append(compute + comm)
    memory = np.array([out + weights, out / DEVICES + weights, out + weights / DEVICES])
    usages.append((memory * BYTES).astype(np.int64))

# Each output lives from its operation to the next one (and the layer's input to its end:
# the residual connection).
n = len(ops)
intervals = np.array([[i, i + 2] if i % 4 else [i, i + 4] for i in range(n)])
edges = np.array([[i, i + 1] for i in range(n - 1)])
reshard = []
for i in range(n - 1):
    size = ops[i][2] * BYTES
    m = np.full((3, 3), size / BANDWIDTH / DEVICES)  # an all-to-all moves a share of it
    np.fill_diagonal(m, 0.0)
    reshard.append(m)

# The budget: halfway between the least peak any plan reaches (what an impossible limit
# of 0 reports) and the peak of the fastest plan with no limit.
def posed(limit):
    return iopddl.from_arrays(costs, usages, intervals, edges, reshard, usage_limit=limit)


least_peak = iopddl.solve(posed(0), time_limit=1).infeasibility["least_peak"]
free_peak = iopddl.solve(posed(None), time_limit=1, seed=1).peak_usage
budget = (least_peak + free_peak) // 2
print(f"least peak {least_peak / 2**20:.0f} MiB, fastest plan's peak {free_peak / 2**20:.0f} MiB:"
      f" budget {budget / 2**20:.0f} MiB")
problem = iopddl.from_arrays(costs, usages, intervals, edges, reshard, usage_limit=budget,
                             name="toy-transformer", node_names=names,
                             strategy_names=[LAYOUTS] * n)

result = iopddl.solve(problem, time_limit=5, seed=1)
print(result.summary())
print(f"step time {result.cost * 1e3:.3f} ms (costs scaled by {problem.cost_scale:g} "
      f"and rounded, within {problem.max_rounding_error:.1e})")
for op, layout in list(result.plan.items())[:8]:
    print(f"  {op:20s} {layout}")
if result.status == "infeasible":
    print(result.infeasibility["message"])
elif len(sys.argv) > 1:
    result.plot(sys.argv[1])
    print(f"memory over time drawn in {sys.argv[1]}")
