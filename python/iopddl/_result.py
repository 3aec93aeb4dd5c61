"""A solve's result in the user's terms: costs in the units the problem was given in, the
plan by name when the problem has names, the memory profile and a summary."""

from . import _core


class Result:
    """What ``solve`` returns.

    ``cost``, ``bound`` and the costs in ``improvements`` and ``bounds`` are in the units the
    problem was given in: floats when ``from_arrays`` scaled fractional costs (``scaled_cost``
    is then the integer the solver minimised). ``status`` is "optimal" only when that holds for
    the costs as given: where rounding moved a cost, a proof of the rounded problem is reported
    as "feasible", and ``note`` says so.
    """

    def __init__(self, core, problem):
        self._r = core
        self._problem = problem
        self._scale = getattr(problem, "cost_scale", 1.0)
        self._offset = getattr(problem, "cost_offset", 0.0)
        self._rounded = getattr(problem, "max_rounding_error", 0.0) > 0
        # A loaded request's soft budget (budget, coeff): solved here under the hard limit.
        self._soft = getattr(problem, "soft_budget", None)

    def _units(self, x):
        if x is None or (self._scale == 1 and self._offset == 0):
            return x
        return (x + self._offset) / self._scale

    @property
    def status(self):
        """'optimal', 'feasible', 'infeasible' or 'no solution'."""
        s = self._r.status
        return "feasible" if s == "optimal" and (self._rounded or self._soft) else s

    @property
    def note(self):
        """Why: what proved optimality, a hint refused, the rounding of float costs."""
        note = self._r.note
        if self._soft is not None:
            note = (f"answered under the hard limit {self._problem.usage_limit}: the request's "
                    f"soft budget {self._soft[0]} (overbudget_coeff {self._soft[1]!r}) is not "
                    f"weighed here, and cost includes its overrun penalty; "
                    f"iopddl.solve_request weighs it ({note})")
        elif self._rounded and self._r.status == "optimal":
            note = (f"optimal for the costs scaled by {self._scale!r} and rounded (largest relative "
                    f"rounding error {self._problem.max_rounding_error:.3g}); not proven for the "
                    f"costs as given ({note})")
        return note

    has_solution = property(lambda self: self._r.has_solution, doc="Whether there is an answer.")
    assignment = property(lambda self: self._r.assignment, doc="One strategy per node (int32).")
    peak_usage = property(lambda self: self._r.peak_usage, doc="The answer's peak memory.")
    gap = property(lambda self: self._r.gap, doc="(cost - bound) / cost, or None.")
    seconds = property(lambda self: self._r.seconds, doc="The solve's wall time.")
    work_units = property(lambda self: self._r.work_units, doc="Work its workers did.")
    interrupted = property(lambda self: self._r.interrupted, doc="Stopped by Ctrl-C.")
    infeasibility = property(lambda self: self._r.infeasibility,
                             doc="Where the limit binds, when the status is 'infeasible'.")
    scaled_cost = property(lambda self: self._r.cost,
                           doc="The integer cost the solver minimised (scaled float costs).")

    @property
    def cost(self):
        """The answer's cost in the problem's units (None without an answer)."""
        cost = self._units(self._r.cost)
        if cost is not None and self._soft is not None:
            cost += self._soft[1] * max(0, self.peak_usage - self._soft[0])
        return cost

    @property
    def bound(self):
        """A certified lower bound on the optimum in the problem's units (or None). With
        rounded float costs it bounds the rounded problem; none for a soft budget solved under the hard limit."""
        return None if self._soft is not None else self._units(self._r.bound)

    @property
    def improvements(self):
        """[(seconds, cost, source)] for each better answer."""
        return [(t, self._units(c), s) for t, c, s in self._r.improvements]

    @property
    def bounds(self):
        """[(seconds, bound)] for each better bound."""
        return [(t, self._units(b)) for t, b in self._r.bounds]

    @property
    def plan(self):
        """The answer as {node name: strategy name} when the problem has names (strategy
        indices where it has node names only); None without names or an answer."""
        nodes = getattr(self._problem, "node_names", None)
        if nodes is None or not self.has_solution:
            return None
        strategies = getattr(self._problem, "strategy_names", None)
        a = self.assignment
        return {n: (strategies[v][a[v]] if strategies is not None else int(a[v]))
                for v, n in enumerate(nodes)}

    def memory_profile(self):
        """(starts, ends, usage): the answer's summed usage of live nodes on each span of time
        [start, end) (None without an answer)."""
        if not self.has_solution:
            return None
        return _core.memory_profile(self._problem, self.assignment)

    def plot(self, path, named=5):
        """Draws the answer's memory over time against the limit (the peak marked, its
        `named` heaviest live nodes named) and, below it, the best cost and the certified
        bound over the solve, into a PNG at `path` (with gnuplot, as ``iopddl plot`` does).
        Raises OSError naming the reason when it cannot (gnuplot missing, path unwritable)."""
        if not self.has_solution:
            raise ValueError("plot: the result has no answer to draw")
        history = _core.CostHistory()
        history.costs = [(t, float(c)) for t, c, _ in self.improvements]
        history.bounds = [(t, float(b)) for t, b in self.bounds]
        history.end = self.seconds
        _core.plot_memory(self._problem, self.assignment, history, str(path), named,
                          getattr(self._problem, "node_names", None) or [])

    def summary(self):
        """A few lines for a person: status, cost, bound and gap, peak against the limit."""
        lines = [f"status    {self.status}" + (f" ({self.note})" if self.note else "")]
        if self.has_solution:
            lines.append(f"cost      {self.cost}")
            limit = self._problem.usage_limit
            lines.append(f"peak      {self.peak_usage}" +
                         (f" of the limit {limit}" if limit is not None else " (no limit)"))
        if self.bound is not None:
            lines.append(f"bound     {self.bound}" +
                         (f" (gap {100 * self.gap:.4f} %)" if self.gap is not None else ""))
        if self.infeasibility is not None:
            lines.append(f"why       {self.infeasibility['message']}")
        lines.append(f"seconds   {self.seconds:.3f}")
        return "\n".join(lines)

    def __repr__(self):
        cost = f", cost {self.cost}" if self.has_solution else ""
        return f"<iopddl.Result {self.status}{cost}>"
