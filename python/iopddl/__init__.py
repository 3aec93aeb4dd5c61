"""iopddl: a solver for the auto-sharding (IOPDDL) problem.

Build a problem with ``ProblemBuilder`` or ``from_arrays`` (numpy arrays or lists of
integers), or ``load`` a contest JSON file; ``solve`` it; check any assignment with
``evaluate``::

    import iopddl
    p = iopddl.from_arrays(costs=[[10, 30], [20, 25]], usages=[[80, 40], [60, 30]],
                           intervals=[[0, 2], [1, 3]], edges=[[0, 1]],
                           edge_costs=[[0, 12, 12, 0]], usage_limit=100)
    r = iopddl.solve(p, time_limit=1)
    r.assignment, r.cost, r.status

``solve`` releases the GIL while it runs; Ctrl-C cancels it and returns the best answer
found so far (``result.interrupted`` is then true). Bad input raises ``iopddl.InputError``
(a ValueError) naming the offending node, edge or argument.
"""

from ._core import (
    InputError,
    Problem,
    ProblemBuilder,
    Result,
    __version__,
    evaluate,
    from_arrays,
    generate,
    load,
    solve,
)

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
]
