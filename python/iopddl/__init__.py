"""iopddl: a solver for the auto-sharding (IOPDDL) problem.

Build a problem with ``ProblemBuilder`` or ``from_arrays`` (numpy arrays or lists; float
costs are scaled to integers and answered in your units), or ``load`` a contest JSON file
or an XLA request; ``solve`` it; check any assignment with ``evaluate``::

    import iopddl
    p = iopddl.from_arrays(costs=[[1.0e-3, 3.0e-3], [2.0e-3, 2.5e-3]],
                           usages=[[80, 40], [60, 30]], intervals=[[0, 2], [1, 3]],
                           edges=[[0, 1]], edge_costs=[[0, 1.2e-3, 1.2e-3, 0]],
                           usage_limit=100, node_names=["matmul", "relu"])
    r = iopddl.solve(p, time_limit=1)
    r.plan, r.cost, r.status
    print(r.summary())

``solve`` releases the GIL while it runs; Ctrl-C cancels it and returns the best answer
found so far (``result.interrupted`` is then true). Bad input raises ``iopddl.InputError``
(a ValueError) naming the offending node, edge or argument.
"""

import logging
import math
import numbers
import os
import threading

from . import _core, _floats
from ._core import (InputError, Problem, ProblemBuilder, __version__, evaluate, generate, load,
                    solve_request)
from ._result import Result

__all__ = [
    "InputError",
    "Problem",
    "ProblemBuilder",
    "Result",
    "__version__",
    "evaluate",
    "from_arrays",
    "generate",
    "load",
    "solve",
    "solve_request",
]


def _names(names, count, what):
    names = [str(n) for n in names]
    if len(names) != count:
        raise InputError(f"{what}: {len(names)} names for {count} entries")
    if len(set(names)) != len(names):
        raise InputError(f"{what}: names repeat")
    return names


def from_arrays(costs, usages, intervals, edges, edge_costs, usage_limit=None, name="problem",
                *, cost_scale=None, node_names=None, strategy_names=None):
    """A problem from arrays.

    costs[v], usages[v]: one entry per strategy of node v (usages integers). intervals: an
    (n, 2) array of [lo, hi) per node. edges: an (m, 2) array of node pairs; edge_costs[e]
    row-major (or a k_u x k_v matrix). usage_limit: an integer, or None for no limit.

    Float costs (seconds, say) are multiplied by a power of two and rounded, the least
    that keeps every cost within 1e-9 of it (``cost_scale`` sets the scale instead); the
    problem keeps ``cost_scale`` and ``max_rounding_error``, and results are in your units.
    Infinite costs, or 10^18 and more, forbid a choice.

    node_names: one name per node; strategy_names: per node, one name per strategy. With
    them a result's ``plan`` maps node names to strategy names.
    """
    if usage_limit is not None and (isinstance(usage_limit, bool)
                                    or not isinstance(usage_limit, numbers.Integral)):
        raise TypeError(f"usage_limit: expected an integer number of memory units or None, "
                        f"found {type(usage_limit).__name__} {usage_limit!r}")
    costs, edge_costs = list(costs), list(edge_costs)
    scale, error = 1.0, 0.0
    if cost_scale is not None or _floats.is_fractional(costs + edge_costs):
        if cost_scale is None:
            scale = _floats.choose_scale(costs + edge_costs)
        elif not (isinstance(cost_scale, numbers.Real) and 0 < cost_scale < float("inf")):
            raise InputError(f"cost_scale: expected a positive finite number, found {cost_scale!r}")
        else:
            scale = float(cost_scale)
        rounded = []
        for kind, arrays in (("node", costs), ("edge", edge_costs)):
            out = []
            for i, a in enumerate(arrays):
                values, e = _floats.scaled(a, scale, f"{kind} {i}: costs")
                out.append(values)
                error = max(error, e)
            rounded.append(out)
        costs, edge_costs = rounded
    problem = _core.from_arrays(costs, usages, intervals, edges, edge_costs, usage_limit, name)
    problem.cost_scale = scale
    problem.max_rounding_error = error
    if node_names is not None:
        problem.node_names = _names(node_names, problem.num_nodes, "node_names")
    if strategy_names is not None:
        if len(strategy_names) != problem.num_nodes:
            raise InputError(f"strategy_names: {len(strategy_names)} lists for "
                             f"{problem.num_nodes} nodes")
        problem.strategy_names = [_names(s, problem.strategies(v), f"strategy_names[{v}]")
                                  for v, s in enumerate(strategy_names)]
    return problem


def solve(problem, time_limit=10.0, threads=0, seed=1, deterministic=False, work_limit=2500,
          hint=None, cost_cutoff=None, gap_limit=0.0, callback=None, log=False,
          bound_callback=None):
    """Solves `problem`; returns a ``Result``.

    time_limit: seconds (0: none; a gap limit, deterministic mode or a callback must end
    it). threads: workers (0: the machine's cores). deterministic: bounded by work_limit
    (millions of work units per worker) instead of time: same seed, same answer.
    hint: a warm start, one strategy per node (or {node name: strategy name} for a named
    problem). cost_cutoff: only answers cheaper than this count (in the problem's units).
    gap_limit: stop once (cost - bound) / cost is at most this.
    callback(seconds, cost, source, assignment): called on each better answer (cost in the
    problem's units); returning False stops the solve, which keeps its answer.
    bound_callback(seconds, bound): called on each better certified bound (in the problem's
    units), one call at a time with the callback's; returning False stops the solve too.
    log: True for progress lines on the process's stderr, or a logging.Logger that gets
    each line at INFO level.
    """
    scale = getattr(problem, "cost_scale", 1.0)
    offset = getattr(problem, "cost_offset", 0.0)
    if isinstance(hint, dict):
        hint = _hint_by_name(problem, hint)
    if cost_cutoff is not None and (scale != 1 or offset != 0):
        cost_cutoff = math.ceil(cost_cutoff * scale - offset)  # (up: cheaper still counts)
    if callback is not None and (scale != 1 or offset != 0):
        user = callback
        callback = lambda s, cost, source, a: user(s, (cost + offset) / scale, source, a)  # noqa: E731
    if bound_callback is not None and (scale != 1 or offset != 0):
        told = bound_callback
        bound_callback = lambda s, bound: told(s, (bound + offset) / scale)  # noqa: E731
    options = dict(time_limit=time_limit, threads=threads, seed=seed,
                   deterministic=deterministic, work_limit=work_limit, hint=hint,
                   cost_cutoff=cost_cutoff, gap_limit=gap_limit, callback=callback,
                   bound_callback=bound_callback)
    if isinstance(log, logging.Logger):
        return Result(_solve_logged(problem, options, log), problem)
    return Result(_core.solve(problem, log=bool(log), **options), problem)


def _solve_logged(problem, options, logger):
    """The solve with its progress lines read from a pipe into `logger`."""
    read_end, write_end = os.pipe()

    def pump():
        with os.fdopen(read_end, "r", errors="replace") as lines:
            for line in lines:
                logger.info("%s", line.rstrip("\n"))

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        return _core.solve(problem, log=write_end, **options)
    finally:
        os.close(write_end)  # (the solve wrote through its own copy, closed by now)
        reader.join()


def _hint_by_name(problem, hint):
    nodes = getattr(problem, "node_names", None)
    if nodes is None:
        raise InputError("hint: a mapping needs a problem with node_names")
    strategies = getattr(problem, "strategy_names", None)
    index = {n: v for v, n in enumerate(nodes)}
    out = [0] * problem.num_nodes
    missing = [n for n in nodes if n not in hint]
    if missing:
        raise InputError(f"hint: no strategy for node {missing[0]!r}")
    for name, s in hint.items():
        if name not in index:
            raise InputError(f"hint: no node named {name!r}")
        v = index[name]
        if strategies is not None and not isinstance(s, numbers.Integral):
            if s not in strategies[v]:
                raise InputError(f"hint: node {name!r} has no strategy named {s!r}")
            s = strategies[v].index(s)
        out[v] = int(s)
    return out
