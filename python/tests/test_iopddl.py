"""The Python package as its users meet it: problems from numpy arrays and lists, solve with
its options, errors naming the element, the GIL released, Ctrl-C cancelling.

Run with PYTHONPATH at the built package (build/python) and, for the tests that compare
with the command line, IOPDDL_BIN at the iopddl binary and IOPDDL_SOURCE at the source tree.
"""

import itertools
import json
import os
import random
import struct
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import iopddl

SOURCE = os.environ.get("IOPDDL_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("IOPDDL_BIN")
EXAMPLE = os.path.join(SOURCE, "examples", "example.json")


def deterministic(work=2):
    return dict(deterministic=True, work_limit=work, threads=2, seed=1)


def random_problem(rng, nodes, limit_factor):
    """A tiny problem as lists, and its brute-force optimum (None if infeasible)."""
    k = [rng.randint(1, 3) for _ in range(nodes)]
    costs = [[rng.randint(0, 50) for _ in range(kv)] for kv in k]
    usages = [[rng.randint(0, 20) for _ in range(kv)] for kv in k]
    intervals = []
    for _ in range(nodes):
        lo = rng.randint(0, 6)
        intervals.append([lo, lo + rng.randint(0, 4)])
    edges, tables = [], []
    for _ in range(nodes + 1):
        u, v = rng.randrange(nodes), rng.randrange(nodes)
        if u == v:
            continue
        edges.append([u, v])
        tables.append([10**18 if rng.random() < 0.1 else rng.randint(0, 30)
                       for _ in range(k[u] * k[v])])

    def peak(x):
        return max([sum(usages[v][x[v]] for v in range(nodes)
                        if intervals[v][0] <= t < intervals[v][1]) for t in range(12)])

    least = [min(range(k[v]), key=lambda s: (usages[v][s], costs[v][s])) for v in range(nodes)]
    limit = int(peak(least) * limit_factor) if limit_factor else None
    best = None
    for x in itertools.product(*[range(kv) for kv in k]):
        if limit is not None and peak(x) > limit:
            continue
        c = sum(costs[v][x[v]] for v in range(nodes))
        c += sum(t[x[u] * k[v] + x[v]] for (u, v), t in zip(edges, tables))
        best = c if best is None else min(best, c)
    problem = iopddl.from_arrays(costs, usages, intervals, np.array(edges, dtype=np.int64).reshape(-1, 2),
                                 tables, usage_limit=limit)
    return problem, best


def test_the_contest_example_loaded_and_built_gives_445():
    loaded = iopddl.load(EXAMPLE)
    with open(EXAMPLE) as f:
        spec = json.load(f)["problem"]
    built = iopddl.from_arrays(
        costs=[np.array(c, dtype=np.int64) for c in spec["nodes"]["costs"]],
        usages=spec["nodes"]["usages"],
        intervals=np.array(spec["nodes"]["intervals"]),
        edges=np.array(spec["edges"]["nodes"]),
        edge_costs=spec["edges"]["costs"],
        usage_limit=spec["usage_limit"],
        name="example")
    assert (built.num_nodes, built.num_edges) == (loaded.num_nodes, loaded.num_edges)
    for problem in (loaded, built):
        r = iopddl.solve(problem, time_limit=2)
        assert r.status == "optimal" and r.cost == 445
        assert isinstance(r.cost, int)
        assert r.assignment.dtype == np.int32
        e = iopddl.evaluate(problem, r.assignment)
        assert e["feasible"] and e["cost"] == 445 and e["peak_usage"] == r.peak_usage


def test_solve_reaches_the_brute_force_optimum_on_tiny_problems():
    rng = random.Random(7)
    checked = 0
    for i in range(60):
        problem, best = random_problem(rng, 2 + i % 5, [0, 1.0, 1.2][i % 3])
        r = iopddl.solve(problem, **deterministic())
        if best is None:
            assert not r.has_solution and r.cost is None
            continue
        assert iopddl.evaluate(problem, r.assignment)["feasible"]
        assert r.cost == best
        assert r.bound is None or r.bound <= best
        checked += 1
    assert checked > 30


def test_an_infeasible_problem_says_where_the_limit_binds():
    # Least usages 10 + 5 + 30 = 45 are live together at time 2; the limit is 30.
    problem = iopddl.from_arrays(
        costs=[[1, 2], [3, 1], [2, 2]], usages=[[10, 20], [15, 5], [30, 40]],
        intervals=[[0, 3], [1, 4], [2, 5]], edges=[[0, 1]], edge_costs=[[0, 1, 1, 0]],
        usage_limit=30)
    r = iopddl.solve(problem, **deterministic())
    assert r.status == "infeasible" and not r.has_solution
    why = r.infeasibility
    assert why["least_peak"] == 45 and why["usage_limit"] == 30 and why["time"] == 2
    assert why["live"] == [(2, 30), (0, 10), (1, 5)]
    assert "time 2" in why["message"]
    fits = iopddl.from_arrays(
        costs=[[1, 2]], usages=[[10, 20]], intervals=[[0, 3]], edges=[], edge_costs=[],
        usage_limit=30)
    assert iopddl.solve(fits, **deterministic()).infeasibility is None


def test_an_alpa_style_problem_from_float_costs_and_liveness_sets():
    """Built as Alpa and autoparallel build theirs: per operation, strategy costs in seconds
    (compute + communication) and memory in bytes; resharding costs as (k_u, k_v) matrices;
    liveness as the set of operations live at each time step. Costs are scaled to integers."""
    rng = np.random.default_rng(3)
    ops = 40
    k = rng.integers(2, 6, size=ops)
    compute = [rng.uniform(1e-4, 1e-2, size=kv) for kv in k]
    communication = [rng.uniform(0, 1e-3, size=kv) for kv in k]
    memory = [rng.integers(1 << 20, 1 << 26, size=kv) for kv in k]
    liveness = [sorted(set(range(max(0, t - 3), min(ops, t + 1)))) for t in range(ops)]
    live_at = [[t for t, live in enumerate(liveness) if v in live] for v in range(ops)]
    intervals = np.array([[min(ts), max(ts) + 1] for ts in live_at], dtype=np.int64)
    edges = np.array([[v, v + 1] for v in range(ops - 1)] + [[v, v + 3] for v in range(0, ops - 3, 5)])
    resharding = [rng.uniform(0, 5e-3, size=(k[u], k[v])) for u, v in edges]
    scale = 1e6  # microseconds
    to_int = lambda a: np.rint(np.asarray(a) * scale).astype(np.int64)
    least = sum(int(m.min()) for m in memory)
    problem = iopddl.from_arrays(
        costs=[to_int(c + m) for c, m in zip(compute, communication)],
        usages=memory, intervals=intervals, edges=edges,
        edge_costs=[to_int(r) for r in resharding], usage_limit=least)
    r = iopddl.solve(problem, **deterministic(5))
    assert r.has_solution
    e = iopddl.evaluate(problem, r.assignment)
    assert e["feasible"] and e["cost"] == r.cost and e["peak_usage"] <= least
    # The same problem from the float arrays as they are: scaled by a power of two, answered
    # in seconds, within the rounding of the costs to microseconds above.
    floats = iopddl.from_arrays(
        costs=[c + m for c, m in zip(compute, communication)], usages=memory,
        intervals=intervals, edges=edges, edge_costs=resharding, usage_limit=least)
    assert floats.cost_scale > 1e6 and 0 < floats.max_rounding_error <= 1e-9
    f = iopddl.solve(floats, **deterministic(5))
    assert isinstance(f.cost, float) and isinstance(f.scaled_cost, int)
    assert f.cost == pytest.approx(r.cost / scale, rel=1e-3)


def brute_force_float(costs, usages, intervals, edges, edge_costs, limit):
    best = None
    for a in itertools.product(*[range(len(c)) for c in costs]):
        used = {}
        for v, (lo, hi) in enumerate(intervals):
            for t in range(lo, hi):
                used[t] = used.get(t, 0) + usages[v][a[v]]
        if used and max(used.values()) > limit:
            continue
        cost = sum(costs[v][a[v]] for v in range(len(costs)))
        cost += sum(edge_costs[e][a[u] * len(costs[w]) + a[w]] for e, (u, w) in enumerate(edges))
        best = cost if best is None else min(best, cost)
    return best


def test_float_costs_are_answered_in_their_units_and_never_called_optimal_when_rounded():
    rng = random.Random(11)
    for i in range(30):
        n = 2 + i % 4
        costs = [[rng.uniform(1e-4, 1e-2) for _ in range(rng.randint(1, 3))] for _ in range(n)]
        usages = [[rng.randint(0, 20) for _ in c] for c in costs]
        intervals = [[t, t + rng.randint(1, 3)] for t in (rng.randint(0, 3) for _ in range(n))]
        edges = [[v, v + 1] for v in range(n - 1)]
        edge_costs = [[rng.uniform(0, 5e-3) for _ in range(len(costs[u]) * len(costs[w]))]
                      for u, w in edges]
        limit = sum(max(u) for u in usages)
        problem = iopddl.from_arrays(costs, usages, intervals, edges, edge_costs, limit)
        r = iopddl.solve(problem, **deterministic())
        best = brute_force_float(costs, usages, intervals, edges, edge_costs, limit)
        assert r.cost == pytest.approx(best, rel=1e-8)
        assert r.status == "feasible" and "not proven for the costs as given" in r.note
        assert r.bound is None or r.bound <= best * (1 + 1e-8)
    # Binary fractions scale exactly: then a proof is a proof.
    exact = iopddl.from_arrays([[0.5, 0.25], [0.125, 1.0]], [[1, 2], [1, 1]], [[0, 1], [0, 1]],
                               [[0, 1]], [[0, 0.75, 0.75, 0]], 3)
    r = iopddl.solve(exact, **deterministic())
    assert exact.max_rounding_error == 0 and r.status == "optimal"
    assert r.cost == brute_force_float([[0.5, 0.25], [0.125, 1.0]], [[1, 2], [1, 1]],
                                       [[0, 1], [0, 1]], [[0, 1]], [[0, 0.75, 0.75, 0]], 3)


def test_names_plans_profiles_and_summaries():
    problem = iopddl.from_arrays(
        costs=[[10, 30], [20, 25], [5, 9]], usages=[[80, 40], [60, 30], [10, 10]],
        intervals=[[0, 2], [1, 3], [2, 4]], edges=[[0, 1]], edge_costs=[[0, 12, 12, 0]],
        usage_limit=100, node_names=["matmul", "relu", "add"],
        strategy_names=[["replicated", "sharded"], ["replicated", "sharded"], ["r", "s"]])
    r = iopddl.solve(problem, **deterministic())
    # (At time 1 matmul and relu are live together: only sharded matmul fits beside relu.)
    assert r.plan == {"matmul": "sharded", "relu": "sharded", "add": "r"}
    starts, ends, usage = r.memory_profile()
    assert max(usage) == r.peak_usage == iopddl.evaluate(problem, r.assignment)["peak_usage"]
    assert list(starts) == [0, 1, 2, 3] and list(ends) == [1, 2, 3, 4]
    assert "status    optimal" in r.summary() and "of the limit 100" in r.summary()
    hinted = iopddl.solve(problem, hint={"matmul": "sharded", "relu": "sharded", "add": "s"},
                          **deterministic())
    assert hinted.improvements[0][2] == "hint"
    with pytest.raises(iopddl.InputError, match="no strategy named 'diagonal'"):
        iopddl.solve(problem, hint={"matmul": "diagonal", "relu": 0, "add": 0})
    with pytest.raises(iopddl.InputError, match="node_names: 2 names for 3 entries"):
        iopddl.from_arrays([[1], [1], [1]], [[0], [0], [0]], [[0, 1]] * 3, [], [],
                           node_names=["a", "b"])


def test_a_result_draws_its_memory_and_history(tmp_path):
    problem = iopddl.generate(family="memory", nodes=400, seed=2)
    r = iopddl.solve(problem, **deterministic())
    out = tmp_path / "memory.png"
    r.plot(out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1000, 900)  # memory, then cost and bound
    env_path = os.environ["PATH"]
    try:
        os.environ["PATH"] = str(tmp_path)  # no gnuplot there
        with pytest.raises(OSError, match="gnuplot is not installed"):
            r.plot(tmp_path / "none.png")
    finally:
        os.environ["PATH"] = env_path


def test_the_transformer_tutorial_runs_end_to_end(tmp_path):
    """examples/python/transformer.py, as a new user runs it: float seconds, names, a plot."""
    script = os.path.join(SOURCE, "examples", "python", "transformer.py")
    out = tmp_path / "memory.png"
    run = subprocess.run([sys.executable, script, str(out)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    assert "layer0.qkv" in run.stdout and "status    " in run.stdout, run.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_problems_show_their_parts_save_and_pickle(tmp_path):
    import pickle
    problem = iopddl.from_arrays(
        costs=[[1.5e-3, 3.0e-3], [2.0e-3, 2.5e-3]], usages=[[80, 40], [60, 30]],
        intervals=[[0, 2], [1, 3]], edges=[[0, 1]], edge_costs=[[0, 1, 1, 0]],
        usage_limit=100, node_names=["a", "b"])
    assert problem.usages(1) == [60, 30] and problem.interval(1) == (1, 3)
    assert problem.costs(0) == [round(1.5e-3 * problem.cost_scale), round(3.0e-3 * problem.cost_scale)]
    u, v, table = problem.edge(0)
    assert (u, v) == (0, 1) and len(table) == 4
    with pytest.raises(IndexError, match="node 2 does not exist"):
        problem.costs(2)
    again = pickle.loads(pickle.dumps(problem))
    assert again.node_names == ["a", "b"] and again.cost_scale == problem.cost_scale
    assert iopddl.solve(again, **deterministic()).plan == iopddl.solve(problem, **deterministic()).plan
    problem.save(str(tmp_path / "saved.json"))
    assert iopddl.load(str(tmp_path / "saved.json")).costs(1) == problem.costs(1)


def test_progress_lines_go_to_a_logger(caplog):
    import logging
    problem = iopddl.generate(family="memory", nodes=300, seed=1)
    with caplog.at_level(logging.INFO, logger="iopddl-test"):
        iopddl.solve(problem, log=logging.getLogger("iopddl-test"), **deterministic())
    lines = [r.getMessage() for r in caplog.records if r.name == "iopddl-test"]
    assert lines and all(line.startswith("# [") for line in lines), lines[:3]


@pytest.mark.skipif(BIN is None, reason="needs IOPDDL_BIN to convert the example")
def test_requests_from_python_are_answered_in_their_units(tmp_path):
    request = tmp_path / "example.pb"
    subprocess.run([BIN, "convert", EXAMPLE, str(request)], check=True, capture_output=True)
    loaded = iopddl.load(str(request))
    r = iopddl.solve(loaded, **deterministic())
    assert r.cost == 445 and r.status == "optimal"  # (shifted by 130 inside, not here)
    answer = iopddl.solve_request(request.read_bytes(), time_limit=2)
    assert answer["cost"] == 445 and answer["is_optimal"] and answer["s_val"] == [0, 0, 2, 1, 0]
    # A soft budget: solve() answers under the hard limit and says so; solve_request weighs it.
    text = tmp_path / "example.textproto"
    subprocess.run([BIN, "convert", EXAMPLE, str(text)], check=True, capture_output=True)
    soft = tmp_path / "soft.textproto"
    soft.write_text(text.read_text().replace("memory_budget: 50", "memory_budget: 45")
                    + "overbudget_coeff { coeff: 1 }\n")
    s = iopddl.solve(iopddl.load(str(soft)), **deterministic())
    assert s.status == "feasible" and "solve_request weighs it" in s.note and s.bound is None
    weighed = iopddl.solve_request(soft.read_bytes(), time_limit=2)
    assert weighed["is_optimal"] and weighed["cost"] <= s.cost


def test_bounds_are_streamed_and_can_stop_the_solve():
    problem = iopddl.generate(family="memory", nodes=3000, seed=3)
    bounds, costs = [], []
    r = iopddl.solve(problem, time_limit=3, threads=2, callback=lambda s, c, src, a: costs.append(c),
                     bound_callback=lambda s, b: bounds.append(b))
    assert bounds and bounds == sorted(set(bounds)) and bounds[-1] == r.bound
    assert all(b <= r.cost for b in bounds)
    # No time limit: only the bound callback's False can end this solve.
    seen = []
    stopped = iopddl.solve(problem, time_limit=0, threads=2,
                           bound_callback=lambda s, b: seen.append(b) or False)
    assert seen and stopped.bound >= seen[0]


def test_the_type_stub_matches_the_package():
    import ast
    import inspect
    stub = ast.parse(open(os.path.join(os.path.dirname(iopddl.__file__), "__init__.pyi")).read())
    names = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert set(iopddl.__all__) - {"__version__"} <= names, set(iopddl.__all__) - names
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    for name in ("from_arrays", "solve"):
        a = functions[name].args
        stubbed = [x.arg for x in a.args + a.kwonlyargs]
        assert stubbed == list(inspect.signature(getattr(iopddl, name)).parameters), name
    result = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Result")
    members = {getattr(n, "target", n).id if isinstance(n, ast.AnnAssign) else n.name
               for n in result.body if isinstance(n, (ast.AnnAssign, ast.FunctionDef))}
    public = {m for m in dir(iopddl.Result) if not m.startswith("_")}
    assert public == members, public ^ members


def test_a_float_usage_limit_is_refused_in_one_line():
    with pytest.raises(TypeError) as e:
        iopddl.from_arrays([[1]], [[1]], [[0, 1]], [], [], usage_limit=2.5)
    assert str(e.value) == "usage_limit: expected an integer number of memory units or None, found float 2.5"


def test_a_callback_that_returns_false_stops_the_solve():
    problem = iopddl.generate(family="memory", nodes=3000, seed=3)
    calls = []
    # No time limit: only the callback's False can end this solve.
    r = iopddl.solve(problem, time_limit=0, threads=1,
                     callback=lambda s, c, src, a: calls.append(c) or False)
    # (Another thread may report one more before the stop is seen.)
    assert calls and r.has_solution and r.cost <= calls[0]


def test_errors_name_the_element():
    b = iopddl.ProblemBuilder("checks")
    b.add_node([1, 2], [3, 4], 0, 2)
    with pytest.raises(iopddl.InputError, match="node 1: strategy 1: negative usage -4"):
        b.add_node([1, 2], [3, -4])
    with pytest.raises(iopddl.InputError, match="node 1: 2 costs but 1 usages"):
        b.add_node([1, 2], [3])
    b.add_node([5], [1], 1, 3)
    with pytest.raises(iopddl.InputError, match=r"edge 0 \(0-7\): node 7 does not exist"):
        b.add_edge(0, 7, [0, 0])
    with pytest.raises(iopddl.InputError, match="edge 0: costs: expected a 2 x 1 matrix, found 1 x 2"):
        b.add_edge(0, 1, np.zeros((1, 2), dtype=np.int64))
    with pytest.raises(TypeError, match="edge 0: costs: expected integers"):
        b.add_edge(0, 1, [0.5, 1.5])
    b.add_edge(0, 1, np.array([[3], [0]]))
    problem = b.build()
    assert iopddl.evaluate(problem, [1, 0])["cost"] == 2 + 5 + 0
    with pytest.raises(iopddl.InputError, match="hint: "):
        iopddl.solve(problem, hint=[0, 0, 0], **deterministic())
    with pytest.raises(iopddl.InputError, match="intervals: expected 1 pairs"):
        iopddl.from_arrays([[1]], [[1]], [[0, 1], [1, 2]], np.zeros((0, 2), dtype=int), [])
    with pytest.raises(iopddl.InputError, match="threads: "):
        iopddl.solve(problem, threads=-2)
    with pytest.raises(ValueError, match="not_a_file.json"):
        iopddl.load("not_a_file.json")
    assert not iopddl.evaluate(problem, [0, 5])["valid"]


def test_callbacks_see_decreasing_costs_and_their_exceptions_propagate():
    problem = iopddl.load(EXAMPLE)
    seen = []
    r = iopddl.solve(problem, callback=lambda t, cost, source, a: seen.append((cost, a.copy())),
                     **deterministic())
    assert seen and all(b[0] < a[0] for a, b in zip(seen, seen[1:]))
    assert seen[-1][0] == r.cost and list(seen[-1][1]) == list(r.assignment)
    assert [c for _, c, _ in r.improvements][-1] == r.cost

    def fail(*_):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        iopddl.solve(problem, time_limit=30, callback=fail)


def test_hint_and_cutoff():
    problem = iopddl.load(EXAMPLE)
    r = iopddl.solve(problem, hint=[0, 0, 2, 1, 0], **deterministic())
    assert r.improvements[0][2] == "hint" and r.cost == 445
    r = iopddl.solve(problem, cost_cutoff=445, **deterministic())
    assert r.status == "no solution" and "cutoff" in r.note and r.cost is None
    assert iopddl.solve(problem, cost_cutoff=446, **deterministic()).cost == 445


def test_the_gil_is_released_while_solving():
    problem = iopddl.generate("memory", 5000, seed=3)  # not solved to optimality in 1 s
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.monotonic()
    iopddl.solve(problem, time_limit=1.0, gap_limit=0.0)
    elapsed = time.monotonic() - start
    done.set()
    counter.join()
    assert elapsed > 0.5  # the solve ran for its time limit
    # A solve that held the GIL would let the counter run only between its own steps.
    assert ticks > 50 * elapsed


def test_ctrl_c_cancels_and_returns_the_best_answer():
    script = textwrap.dedent(f"""
        import os, signal, threading, iopddl
        p = iopddl.generate("memory", 20000, seed=2)
        def first(*_):
            threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        fired = []
        def callback(*args):
            if not fired:
                fired.append(1)
                first()
        r = iopddl.solve(p, time_limit=0, callback=callback)
        e = iopddl.evaluate(p, r.assignment)
        print(r.interrupted, r.has_solution, e["feasible"], e["cost"] == r.cost)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, env=os.environ)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True"]


@pytest.mark.skipif(BIN is None, reason="IOPDDL_BIN not set")
def test_deterministic_answers_equal_the_command_line(tmp_path):
    instance = tmp_path / "generated.json"
    subprocess.run([BIN, "generate", "--family", "forbidden", "-n", "2000", "--seed", "11",
                    "-o", str(instance)], check=True)
    cli = subprocess.run([BIN, "solve", str(instance), "--deterministic", "--work-limit", "100",
                          "--seed", "4", "--threads", "2", "--quiet"],
                         check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    r = iopddl.solve(iopddl.load(str(instance)), deterministic=True, work_limit=100, seed=4,
                     threads=2)
    assert json.loads(cli) == list(r.assignment)
    # The same problem as an XLA request, loaded by content.
    request = tmp_path / "generated.pb"
    subprocess.run([BIN, "convert", str(instance), str(request)], check=True, capture_output=True)
    via_request = iopddl.load(str(request))
    assert via_request.num_nodes == r.assignment.size
    cli_request = subprocess.run([BIN, "solve", str(request), "--deterministic", "--work-limit",
                                  "100", "--seed", "4", "--threads", "2", "--quiet"], check=True,
                                 capture_output=True, text=True).stdout.strip().splitlines()[-1]
    r2 = iopddl.solve(via_request, deterministic=True, work_limit=100, seed=4, threads=2)
    assert json.loads(cli_request) == list(r2.assignment)


def test_arguments_out_of_range_are_refused_by_name():
    """Issue 29: what the command line refuses, Python refuses too, naming the argument."""
    p = iopddl.from_arrays(costs=[[10, 30], [20, 25]], usages=[[80, 40], [60, 30]],
                           intervals=[[0, 2], [1, 3]], edges=[[0, 1]],
                           edge_costs=[[0, 12, 12, 0]], usage_limit=100)
    for limit in (-1, float("nan")):
        with pytest.raises(iopddl.InputError, match="time_limit: "):
            iopddl.solve(p, time_limit=limit)
    assert iopddl.solve(p, time_limit=float("inf")).status == "optimal"  # no limit
    for seed in (-1, 2**64, 1.5):
        with pytest.raises(iopddl.InputError, match="seed: expected an integer"):
            iopddl.solve(p, seed=seed)
    for nodes in (10**12, 0, -5):
        with pytest.raises(iopddl.InputError, match="nodes: "):
            iopddl.generate("memory", nodes)
    with pytest.raises(iopddl.InputError, match="limit_factor: "):
        iopddl.generate("memory", 10, limit_factor=float("nan"))
    with pytest.raises(iopddl.InputError, match="isolated_share: "):
        iopddl.generate("memory", 10, isolated_share=1.5)
    with pytest.raises(iopddl.InputError, match="max_strategies: "):
        iopddl.generate("memory", 10, max_strategies=1)
    # The shape options reach the generator.
    plain = iopddl.generate("memory", 2000)
    shaped = iopddl.generate("memory", 2000, isolated_share=0.99, max_strategies=7)
    assert plain.num_edges > 1000 and shaped.num_edges < 100
    assert max(shaped.strategies(v) for v in range(2000)) == 7
    # Integers past 64 bits in a list are named as such (numpy would make them floats).
    for big in (2**63, 2**64, -(2**63) - 1):
        with pytest.raises(ValueError, match=r"node 0: costs\[1\]: -?\d+ is outside the int64 range"):
            iopddl.from_arrays([[10, big]], [[1, 1]], [[0, 1]], np.zeros((0, 2), dtype=int), [])
    # A float cost is scaled (and answered in its units); a float usage is refused by name.
    with pytest.raises(TypeError, match=r"node 0: usages\[1\]: expected an integer, found float"):
        iopddl.from_arrays([[10, 1]], [[1, 1.5]], [[0, 1]], np.zeros((0, 2), dtype=int), [])
    half = iopddl.from_arrays([[10, 1.5]], [[1, 1]], [[0, 1]], np.zeros((0, 2), dtype=int), [])
    assert iopddl.solve(half, **deterministic()).cost == 1.5
    # numpy's integer scalars in a list are integers.
    q = iopddl.from_arrays([[np.int64(3), np.int32(4)]], [[1, 1]], [[0, 1]],
                           np.zeros((0, 2), dtype=int), [])
    assert iopddl.evaluate(q, [0])["cost"] == 3


def test_load_takes_a_byte_order_mark(tmp_path):
    """Issue 29, 6: a UTF-8 byte order mark before contest JSON or a text request."""
    example = os.path.join(SOURCE, "examples", "example.json")
    with open(example, "rb") as f:
        data = f.read()
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + data)
    assert iopddl.load(str(path)).num_nodes == 5
    text = subprocess.run([BIN, "convert", example, "/dev/fd/1", "--to", "textproto"],
                          capture_output=True, check=True).stdout
    path = tmp_path / "bom.textproto"
    path.write_bytes(b"\xef\xbb\xbf" + text)
    assert iopddl.load(str(path)).num_nodes == 5


def test_load_request_options(tmp_path):
    """A request with a field that would change the problem is refused unless asked; a cost
    scale given replaces the chosen one."""
    path = tmp_path / "r.textproto"
    path.write_text("num_nodes: 1 s_len: 2 computation_costs { costs: [2.5, 0.75] } "
                    "departure_costs { costs: [1, 1] }\n")
    with pytest.raises(iopddl.InputError, match="departure_costs: not supported"):
        iopddl.load(str(path))
    problem = iopddl.load(str(path), ignore_unsupported_fields=True, cost_scale=4)
    result = iopddl.solve(problem, time_limit=1)
    assert result.cost == 0.75 and result.scaled_cost == 3  # in the request's units; 0.75 x 4 inside
    with pytest.raises(iopddl.InputError, match="cost_scale"):
        iopddl.load(str(path), ignore_unsupported_fields=True, cost_scale=0)
