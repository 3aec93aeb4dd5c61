// The Python module iopddl._core: the library's builder, solve and evaluator for Python.
// Integer arrays come in as numpy arrays or lists (anything numpy.asarray takes) and must
// be of an integer dtype: a float array is refused rather than truncated. Costs come out
// as Python ints (exact, whatever their size: totals are 128-bit).
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "iopddl/generate.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/request.hpp"
#include "iopddl/solve.hpp"
#include "plot/gnuplot.hpp"
#include "plot/pictures.hpp"
#include "xla_request.hpp"

namespace py = pybind11;
using namespace iopddl;

namespace {

// A 128-bit total as a Python int (through its decimal text: exact and simple).
py::object to_python(Total value) {
  return py::reinterpret_steal<py::object>(
      PyLong_FromString(to_string(value).c_str(), nullptr, 10));
}

Total from_python_total(const py::handle& value, const char* what) {
  if (!PyLong_Check(value.ptr())) throw py::type_error(std::string(what) + ": expected an int");
  const std::string text = py::str(value);
  Total t = 0;
  const bool negative = !text.empty() && text[0] == '-';
  for (std::size_t i = negative ? 1 : 0; i < text.size(); ++i) {
    if (t > (Total{1} << 125) / 10) throw py::value_error(std::string(what) + ": out of range");
    t = t * 10 + (text[i] - '0');
  }
  return negative ? -t : t;
}

// `values` (anything numpy takes) as an array; a TypeError naming `where` if it cannot be.
py::array as_numpy(const py::handle& values, const std::string& where) {
  py::array a = py::array::ensure(values);
  if (!a) {
    PyErr_Clear();
    throw py::type_error(where + ": expected an array or a list of integers");
  }
  return a;
}

// One integer of a Python sequence or an object array: an int (or anything with
// __index__, numpy's integer scalars too) within int64; a float or an int past 64 bits is
// refused by name ("node 3: costs[1]: 9223372036854775808 is outside the int64 range").
std::int64_t int64_item(const py::handle& item, const std::string& where, std::size_t i) {
  const std::string at = where + "[" + std::to_string(i) + "]";
  if (!PyIndex_Check(item.ptr()))
    throw py::type_error(at + ": expected an integer, found " +
                         std::string(py::str(py::type::handle_of(item).attr("__name__"))) + " " +
                         std::string(py::repr(item)));
  const py::object number = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
  if (!number) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow != 0)
    throw py::value_error(at + ": " + std::string(py::str(number)) + " is outside the int64 range");
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

// `values` as int64 values, refusing what is not integral ("node 3: costs: ..."). Lists and
// tuples are read item by item (numpy would turn a list holding 2**63 into floats); arrays
// must be of an integer dtype: a float array is refused rather than truncated.
std::vector<std::int64_t> int64_values(const py::handle& values, const std::string& where) {
  if (py::isinstance<py::list>(values) || py::isinstance<py::tuple>(values)) {
    const py::sequence items = py::reinterpret_borrow<py::sequence>(values);
    std::vector<std::int64_t> out(py::len(items));
    for (std::size_t i = 0; i < out.size(); ++i) {
      const py::handle item = items[i];
      if (py::isinstance<py::list>(item) || py::isinstance<py::tuple>(item))
        throw py::value_error(where + ": expected a flat list of integers, found a nested one");
      out[i] = int64_item(item, where, i);
    }
    return out;
  }
  const py::array a = as_numpy(values, where);
  const char kind = a.dtype().kind();
  if (a.ndim() > 1)
    throw py::value_error(where + ": expected a flat array, got " + std::to_string(a.ndim()) +
                          " dimensions");
  if (kind == 'O') {  // Python ints past 64 bits, or mixed objects
    const py::list items = a.attr("tolist")();
    return int64_values(items, where);
  }
  if (a.size() > 0 && kind != 'i' && kind != 'u' && kind != 'b')
    throw py::type_error(where + ": expected integers, got an array of dtype " +
                         std::string(py::str(a.dtype())));
  if (kind == 'u' && a.size() > 0 && a.dtype().itemsize() == 8) {
    const py::object too_big = a.attr("__gt__")(INT64_MAX).attr("any")();
    if (too_big.cast<bool>()) throw py::value_error(where + ": a value is outside the int64 range");
  }
  auto typed = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!typed) throw py::type_error(where + ": expected integers");
  return {typed.data(), typed.data() + typed.size()};
}

// A whole number argument within [0, hi] (seeds, counts): refused by name as InputError,
// not with pybind11's list of signatures.
std::uint64_t unsigned_arg(const py::handle& value, const char* name, std::uint64_t lo,
                           std::uint64_t hi) {
  const std::string what = std::string(name) + ": expected an integer from " + std::to_string(lo) +
                           " to " + std::to_string(hi) + ", found " + std::string(py::repr(value));
  if (py::isinstance<py::bool_>(value) || !PyIndex_Check(value.ptr())) throw InputError(what);
  const py::object number = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!number) throw py::error_already_set();
  if (PyObject_RichCompareBool(number.ptr(), py::int_(0).ptr(), Py_LT) == 1) throw InputError(what);
  const unsigned long long v = PyLong_AsUnsignedLongLong(number.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw InputError(what);
  }
  if (v < lo || v > hi) throw InputError(what);
  return v;
}

py::array_t<Strategy> as_array(const std::vector<Strategy>& v) {
  py::array_t<Strategy> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

std::vector<Strategy> strategies_from(const py::handle& values, const std::string& where) {
  const auto v = int64_values(values, where);
  std::vector<Strategy> s(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0 || v[i] > INT32_MAX)
      throw py::value_error(where + "[" + std::to_string(i) + "]: strategy " +
                            std::to_string(v[i]) + " is out of range");
    s[i] = static_cast<Strategy>(v[i]);
  }
  return s;
}

void add_node(ModelBuilder& b, const py::handle& costs, const py::handle& usages, std::int64_t lo,
              std::int64_t hi) {
  const std::string where = "node " + std::to_string(b.num_nodes());
  const auto c = int64_values(costs, where + ": costs");
  const auto u = int64_values(usages, where + ": usages");
  b.add_node(c, u, lo, hi);
}

// An edge's costs: flat and row-major, or a (strategies(u), strategies(v)) matrix.
void add_edge(ModelBuilder& b, NodeId u, NodeId v, const py::handle& costs) {
  const std::string where = "edge " + std::to_string(b.num_edges()) + ": costs";
  py::array a = as_numpy(costs, where);
  if (a.ndim() == 2 && u < b.num_nodes() && v < b.num_nodes()) {
    const auto ku = static_cast<py::ssize_t>(b.strategies(u)),
               kv = static_cast<py::ssize_t>(b.strategies(v));
    if (a.shape(0) != ku || a.shape(1) != kv)
      throw InputError(where + ": expected a " + std::to_string(ku) + " x " + std::to_string(kv) +
                       " matrix, found " + std::to_string(a.shape(0)) + " x " +
                       std::to_string(a.shape(1)));
    a = a.attr("ravel")();
  }
  b.add_edge(u, v, int64_values(a, where));
}

// A whole problem from arrays: costs[v] and usages[v] per node, intervals an (n, 2) array
// of [lo, hi), edges an (m, 2) array of node pairs and edge_costs[e] each row-major table.
Problem from_arrays(const py::sequence& costs, const py::sequence& usages,
                    const py::handle& intervals, const py::handle& edges,
                    const py::sequence& edge_costs, std::optional<Usage> usage_limit,
                    const std::string& name) {
  const std::size_t n = py::len(costs);
  if (py::len(usages) != n)
    throw InputError("usages: " + std::to_string(py::len(usages)) + " nodes, but costs has " +
                     std::to_string(n));
  const auto iv = int64_values(as_numpy(intervals, "intervals").attr("ravel")(), "intervals");
  if (iv.size() != 2 * n)
    throw InputError("intervals: expected " + std::to_string(n) + " pairs [lo, hi], found " +
                     std::to_string(iv.size()) + " values");
  const auto ev = int64_values(as_numpy(edges, "edges").attr("ravel")(), "edges");
  const std::size_t m = py::len(edge_costs);
  if (ev.size() != 2 * m)
    throw InputError("edges: expected " + std::to_string(m) +
                     " pairs (one per edge_costs entry), found " + std::to_string(ev.size()) +
                     " values");
  ModelBuilder b(name);
  b.set_usage_limit(usage_limit);
  for (std::size_t v = 0; v < n; ++v) add_node(b, costs[v], usages[v], iv[2 * v], iv[2 * v + 1]);
  for (std::size_t e = 0; e < m; ++e) {
    for (std::size_t k = 0; k < 2; ++k)
      if (ev[2 * e + k] < 0 || static_cast<std::size_t>(ev[2 * e + k]) >= n)
        throw InputError("edge " + std::to_string(e) + ": node " + std::to_string(ev[2 * e + k]) +
                         " does not exist (" + std::to_string(n) + " nodes)");
    add_edge(b, static_cast<NodeId>(ev[2 * e]), static_cast<NodeId>(ev[2 * e + 1]), edge_costs[e]);
  }
  return std::move(b).build();
}

py::tuple memory_profile(const Problem& p, const py::handle& assignment) {
  const std::vector<Strategy> a = strategies_from(assignment, "assignment");
  const Evaluation e = evaluate(p, a);
  if (!e.valid) throw InputError("assignment: " + e.error);
  const std::vector<Total> used = usage_by_segment(p, a);
  const auto k = static_cast<py::ssize_t>(used.size());
  py::array_t<std::int64_t> starts(k), ends(k);
  py::list usage;
  for (py::ssize_t i = 0; i < k; ++i) {
    starts.mutable_at(i) = p.times()[static_cast<std::size_t>(i)];
    ends.mutable_at(i) = p.times()[static_cast<std::size_t>(i) + 1];
    usage.append(to_python(used[static_cast<std::size_t>(i)]));
  }
  return py::make_tuple(starts, ends, usage);
}

void check_node(const Problem& p, NodeId v) {
  if (v >= p.num_nodes()) throw py::index_error("node " + std::to_string(v) + " does not exist");
}

// A node's costs or usages (`of`) as a list, once the node is known to exist.
std::vector<std::int64_t> per_strategy(const Problem& p, NodeId v,
                                       std::span<const std::int64_t> (Problem::*of)(NodeId) const) {
  check_node(p, v);
  const auto values = (p.*of)(v);
  return {values.begin(), values.end()};
}

std::string problem_json(const Problem& p) {
  std::ostringstream out;
  write_problem_json(out, p);
  return out.str();
}

py::dict evaluation(const Problem& p, const py::handle& assignment) {
  const Evaluation e = evaluate(p, strategies_from(assignment, "assignment"));
  py::dict d;
  d["valid"] = e.valid;
  d["error"] = e.error;
  d["cost"] = to_python(e.cost);
  d["node_cost"] = to_python(e.node_cost);
  d["edge_cost"] = to_python(e.edge_cost);
  d["peak_usage"] = to_python(e.peak_usage);
  d["peak_time"] = e.peak_time;
  d["usage_limit"] = e.usage_limit ? py::cast(*e.usage_limit) : py::none();
  d["feasible"] = e.feasible;
  d["first_violation"] = e.first_violation ? py::cast(*e.first_violation) : py::none();
  d["forbidden_picks"] = e.forbidden_picks;
  return d;
}

const char* status_text(SolveStatus s) {
  return status_name(s);
}

struct PyResult {
  RunResult r;
  bool interrupted = false;
};

py::list history(const std::vector<Improvement>& list, bool with_source) {
  py::list out;
  for (const Improvement& i : list)
    if (with_source)
      out.append(py::make_tuple(i.seconds, to_python(i.cost), i.source));
    else
      out.append(py::make_tuple(i.seconds, to_python(i.cost)));
  return out;
}

// Runs the solve on a thread of its own while this thread, without the GIL, waits for it
// and every 50 ms looks for a signal (Ctrl-C): a signal cancels the solve, which returns
// its best answer so far (`interrupted` set); an exception from the signal handler other
// than KeyboardInterrupt is raised once the solve has ended.
PyResult solve_py(const Problem& problem, double time_limit, int threads, const py::object& seed,
                  bool deterministic, const py::object& work_limit, const py::object& hint,
                  const py::object& cost_cutoff, double gap_limit, const py::object& callback,
                  const py::object& log, const py::object& bound_callback) {
  RunOptions o;
  o.time_limit = time_limit;
  o.solver.threads = threads;
  o.solver.seed = unsigned_arg(seed, "seed", 0, UINT64_MAX);
  o.solver.deterministic = deterministic;
  o.solver.work_limit = unsigned_arg(work_limit, "work_limit", 0, UINT64_MAX);
  o.solver.gap_limit = gap_limit;
  if (!hint.is_none()) o.hint = strategies_from(hint, "hint");
  if (!cost_cutoff.is_none()) o.cost_cutoff = from_python_total(cost_cutoff, "cost_cutoff");
  // log: True for the process's stderr, or a file descriptor the lines are written to (the
  // Python layer reads them into the logging module); closed when the solve ends.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> log_file(nullptr, &std::fclose);
  if (py::isinstance<py::bool_>(log)) {
    if (log.cast<bool>()) o.log = stderr;
  } else if (py::isinstance<py::int_>(log)) {
    const int fd = ::dup(log.cast<int>());
    if (fd < 0 || !(log_file.reset(::fdopen(fd, "w")), log_file))
      throw InputError("log: not a file descriptor open for writing");
    std::setvbuf(log_file.get(), nullptr, _IOLBF, 0);
    o.log = log_file.get();
  } else if (!log.is_none()) {
    throw InputError("log: expected True, False or a file descriptor");
  }
  if (!callback.is_none())  // (returning False stops the solve: its answer is kept)
    o.on_improvement = [&callback, cancel = o.cancel](const Progress& p) {
      py::gil_scoped_acquire gil;
      const py::object said = callback(p.seconds, to_python(p.cost), p.source,
                                       as_array({p.assignment.begin(), p.assignment.end()}));
      if (said.is(py::bool_(false))) cancel.cancel();
    };
  if (!bound_callback.is_none())  // (as the callback: False stops the solve)
    o.on_bound = [&bound_callback, cancel = o.cancel](const Improvement& b) {
      py::gil_scoped_acquire gil;
      if (bound_callback(b.seconds, to_python(b.cost)).is(py::bool_(false))) cancel.cancel();
    };
  PyResult out;
  std::exception_ptr failed;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool signalled = false;
  {
    py::gil_scoped_release release;
    std::thread solver([&] {
      try {
        out.r = solve(problem, o);
      } catch (...) {
        failed = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      finished.notify_all();
    });
    std::unique_lock lock(mutex);
    while (!done) {
      finished.wait_for(lock, std::chrono::milliseconds(50));
      if (done || signalled) continue;
      lock.unlock();
      {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
          signalled = true;
          o.cancel.cancel();
        }
      }
      lock.lock();
    }
    lock.unlock();
    solver.join();
  }
  if (signalled) {
    // KeyboardInterrupt is what Ctrl-C means: cancelled, the answer so far is returned.
    // Any other exception a signal handler raised goes to the caller.
    if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
      PyErr_Clear();
    else
      throw py::error_already_set();
    out.interrupted = true;
  }
  if (failed) std::rethrow_exception(failed);
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "iopddl: the auto-sharding (IOPDDL) problem solver";
  m.attr("__version__") = version();
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);

  // (dynamic_attr: the Python layer keeps a float problem's cost scale and names on it.)
  py::class_<Problem>(m, "Problem",
                      "An immutable problem (build one with ProblemBuilder, "
                      "from_arrays or load)",
                      py::dynamic_attr())
      .def_property_readonly("name", &Problem::name)
      .def(
          "costs", [](const Problem& p, NodeId v) { return per_strategy(p, v, &Problem::costs); },
          py::arg("node"), "The node's cost per strategy")
      .def(
          "usages", [](const Problem& p, NodeId v) { return per_strategy(p, v, &Problem::usages); },
          py::arg("node"), "The node's memory usage per strategy")
      .def(
          "interval",
          [](const Problem& p, NodeId v) {
            check_node(p, v);
            return py::make_tuple(p.interval_lo(v), p.interval_hi(v));
          },
          py::arg("node"), "The node's live interval [lo, hi)")
      .def(
          "edge",
          [](const Problem& p, EdgeId e) {
            if (e >= p.num_edges())
              throw py::index_error("edge " + std::to_string(e) + " does not exist");
            return py::make_tuple(
                p.edge_u(e), p.edge_v(e),
                std::vector<Cost>(p.edge_costs(e).begin(), p.edge_costs(e).end()));
          },
          py::arg("edge"), "(u, v, costs): the edge's nodes and its row-major cost table")
      .def(
          "save",
          [](const Problem& p, const std::string& path) { write_file(path, problem_json(p)); },
          py::arg("path"), "Writes the problem as contest JSON (through links, to FIFOs)")
      .def(py::pickle(
          [](const py::object& self) {
            return py::make_tuple(problem_json(self.cast<const Problem&>()), self.attr("__dict__"));
          },
          [](const py::tuple& state) {
            const std::string json = state[0].cast<std::string>();
            std::string padded = json + std::string(64, '\0');
            return std::make_pair(parse_problem(padded.data(), json.size(), "pickle"),
                                  state[1].cast<py::dict>());
          }))
      .def_property_readonly("usage_limit", &Problem::usage_limit)
      .def_property_readonly("num_nodes", &Problem::num_nodes)
      .def_property_readonly("num_edges", &Problem::num_edges)
      .def("strategies",
           [](const Problem& p, NodeId v) {
             check_node(p, v);
             return p.strategies(v);
           })
      .def("__repr__", [](const Problem& p) {
        return "<iopddl.Problem '" + p.name() + "': " + std::to_string(p.num_nodes()) + " nodes, " +
               std::to_string(p.num_edges()) + " edges>";
      });

  py::class_<ModelBuilder>(m, "ProblemBuilder", "Builds a Problem node by node, then edge by edge")
      .def(py::init<std::string>(), py::arg("name") = "problem")
      .def("set_usage_limit", &ModelBuilder::set_usage_limit, py::arg("limit"))
      .def("add_node", &add_node, py::arg("costs"), py::arg("usages"), py::arg("lo") = 0,
           py::arg("hi") = 0, "Adds a node live over [lo, hi); returns nothing (ids count from 0)")
      .def("add_edge", &add_edge, py::arg("u"), py::arg("v"), py::arg("costs"))
      .def_property_readonly("num_nodes", &ModelBuilder::num_nodes)
      .def_property_readonly("num_edges", &ModelBuilder::num_edges)
      .def(
          "build", [](ModelBuilder& b) { return std::move(b).build(); },
          "The problem (the builder is then empty)");

  m.def("from_arrays", &from_arrays, py::arg("costs"), py::arg("usages"), py::arg("intervals"),
        py::arg("edges"), py::arg("edge_costs"), py::arg("usage_limit") = py::none(),
        py::arg("name") = "problem");
  m.def(
      "load",
      [](const std::string& path, bool ignore_unsupported_fields, const py::object& cost_scale) {
        RequestOptions o;
        o.ignore_unsupported_fields = ignore_unsupported_fields;
        if (!cost_scale.is_none()) {
          const double scale = cost_scale.cast<double>();
          if (!(scale > 0 && scale <= 1e12))
            throw InputError("cost_scale: must be a number above 0 and at most 10^12");
          o.cost_scale = scale;
        }
        std::optional<XlaRequest> q;
        py::object problem = py::cast(read_input_file(path, nullptr, &q, o));
        if (q) {  // results in the request's units (the Python layer reads these)
          problem.attr("cost_scale") = q->cost_scale;
          problem.attr("cost_offset") = q->offset;
          problem.attr("max_rounding_error") = q->max_rounding_error;
          problem.attr("soft_budget") =
              q->budget && q->overbudget_coeff
                  ? py::cast(std::make_pair(*q->budget, *q->overbudget_coeff))
                  : py::none();
        }
        return problem;
      },
      py::arg("path"), py::arg("ignore_unsupported_fields") = false,
      py::arg("cost_scale") = py::none(),
      "Reads a contest JSON file (plain or gzipped) or an XLA AutoShardingSolverRequest "
      "(binary or text format; converted as `iopddl convert` does: a request with fields that "
      "would change the problem but that iopddl does not implement is refused unless "
      "ignore_unsupported_fields; fractional costs are scaled, by cost_scale when given)");
  m.def(
      "generate",
      [](const std::string& family, const py::object& nodes, const py::object& seed,
         double limit_factor, double isolated_share, double hub_share, double strategies_mean,
         const py::object& max_strategies) {
        GeneratorOptions g;
        if (family == "forbidden")
          g.family = Family::kForbiddenPairs;
        else if (family == "memory")
          g.family = Family::kMemory;
        else if (family == "core")
          g.family = Family::kCore;
        else
          throw InputError("family: expected \"forbidden\", \"memory\" or \"core\", not \"" +
                           family + "\"");
        g.nodes = unsigned_arg(nodes, "nodes", 1, kMaxGeneratedNodes);
        g.seed = unsigned_arg(seed, "seed", 0, UINT64_MAX);
        g.limit_factor = limit_factor;
        g.isolated_share = isolated_share;
        g.hub_share = hub_share;
        g.strategies_mean = strategies_mean;
        g.max_strategies = unsigned_arg(max_strategies, "max_strategies", 2, 1000);
        return generate_problem(g);
      },
      py::arg("family") = "forbidden", py::arg("nodes") = 1000, py::arg("seed") = 1,
      py::arg("limit_factor") = 1.1, py::arg("isolated_share") = GeneratorOptions{}.isolated_share,
      py::arg("hub_share") = GeneratorOptions{}.hub_share,
      py::arg("strategies_mean") = GeneratorOptions{}.strategies_mean,
      py::arg("max_strategies") = GeneratorOptions{}.max_strategies,
      "A generated instance, as `iopddl generate` writes (the memory family's shape: "
      "isolated_share, hub_share, strategies_mean, max_strategies)");
  m.def("evaluate", &evaluation, py::arg("problem"), py::arg("assignment"),
        "The reference evaluator: a dict of valid, error, cost, node_cost, edge_cost, "
        "peak_usage, peak_time, usage_limit, feasible, first_violation, forbidden_picks "
        "(costs in the problem's integer units)");
  m.def(
      "choose_cost_scale",
      [](double least, double most, bool integral) {
        return choose_cost_scale(CostRange{least, most, integral});
      },
      py::arg("least"), py::arg("most"), py::arg("integral"),
      "The power of two that turns fractional costs into integers (the rule XLA requests "
      "follow too): least and most are the smallest and largest nonzero magnitudes");
  m.def(
      "plot_memory",
      [](const Problem& p, const py::handle& assignment, const CostHistory& history,
         const std::string& path, int named, const std::vector<std::string>& node_names) {
        const std::vector<Strategy> a = strategies_from(assignment, "assignment");
        const Evaluation e = evaluate(p, a);
        if (!e.valid) throw InputError("assignment: " + e.error);
        std::string png;
        {
          py::gil_scoped_release release;  // gnuplot may take a moment
          png = render_png(memory_picture(p, a, history, named, node_names).script);
        }
        write_file(path, png);
      },
      py::arg("problem"), py::arg("assignment"), py::arg("history"), py::arg("path"),
      py::arg("named") = 5, py::arg("node_names") = std::vector<std::string>{},
      "Draws the answer's memory over time (and history's cost and bound over time) into a "
      "PNG at `path`, with gnuplot");
  py::class_<CostHistory>(m, "CostHistory")
      .def(py::init<>())
      .def_readwrite("costs", &CostHistory::costs)
      .def_readwrite("bounds", &CostHistory::bounds)
      .def_readwrite("end", &CostHistory::end);
  py::register_exception<OutputError>(m, "OutputError", PyExc_OSError);
  m.def("memory_profile", &memory_profile, py::arg("problem"), py::arg("assignment"),
        "(starts, ends, usage): the summed usage of the live nodes on each span of time");

  py::class_<PyResult>(m, "Result")
      .def_property_readonly("status", [](const PyResult& r) { return status_text(r.r.status); })
      .def_property_readonly("note", [](const PyResult& r) { return r.r.note; })
      .def_property_readonly("has_solution", [](const PyResult& r) { return r.r.has_solution(); })
      .def_property_readonly("assignment",
                             [](const PyResult& r) { return as_array(r.r.assignment); })
      .def_property_readonly(
          "cost",
          [](const PyResult& r) { return r.r.has_solution() ? to_python(r.r.cost) : py::none(); })
      .def_property_readonly("peak_usage",
                             [](const PyResult& r) {
                               return r.r.has_solution() ? to_python(r.r.peak_usage) : py::none();
                             })
      .def_property_readonly(
          "bound", [](const PyResult& r) { return r.r.bound ? to_python(*r.r.bound) : py::none(); })
      .def_property_readonly("gap", [](const PyResult& r) { return r.r.gap; })
      .def_property_readonly("improvements",
                             [](const PyResult& r) { return history(r.r.improvements, true); })
      .def_property_readonly("bounds", [](const PyResult& r) { return history(r.r.bounds, false); })
      .def_property_readonly("seconds", [](const PyResult& r) { return r.r.seconds; })
      .def_property_readonly("work_units", [](const PyResult& r) { return r.r.work; })
      .def_property_readonly("interrupted", [](const PyResult& r) { return r.interrupted; })
      .def_property_readonly(
          "infeasibility",
          [](const PyResult& r) -> py::object {
            if (!r.r.infeasibility) return py::none();
            const Infeasibility& i = *r.r.infeasibility;
            py::list live;
            for (const auto& [v, u] : i.live) live.append(py::make_tuple(v, u));
            py::dict d;
            d["least_peak"] = to_python(i.least_peak);
            d["usage_limit"] = i.limit;
            d["time"] = i.time;
            d["live"] = live;
            d["message"] = i.describe();
            return d;
          },
          "When the status is 'infeasible': the least limit any assignment meets (least_peak), "
          "the time where it binds, and the nodes live then as (node, least usage), heaviest "
          "first; else None")
      .def("__repr__", [](const PyResult& r) {
        return std::string("<iopddl.Result ") + status_text(r.r.status) +
               (r.r.has_solution() ? ", cost " + to_string(r.r.cost) : std::string()) + ">";
      });

  m.def("solve", &solve_py, py::arg("problem"), py::arg("time_limit") = 10.0,
        py::arg("threads") = 0, py::arg("seed") = 1, py::arg("deterministic") = false,
        py::arg("work_limit") = 2500, py::arg("hint") = py::none(),
        py::arg("cost_cutoff") = py::none(), py::arg("gap_limit") = 0.0,
        py::arg("callback") = py::none(), py::arg("log") = false,
        py::arg("bound_callback") = py::none());
  m.def(
      "solve_request",
      [](const py::bytes& request, double time_limit, int threads, const py::object& seed,
         bool deterministic, const py::object& work_limit, bool ignore_unsupported_fields) {
        RunOptions o;
        o.time_limit = time_limit;
        o.solver.threads = threads;
        o.solver.seed = unsigned_arg(seed, "seed", 0, UINT64_MAX);
        o.solver.deterministic = deterministic;
        o.solver.work_limit = unsigned_arg(work_limit, "work_limit", 0, UINT64_MAX);
        const std::string bytes = request;
        RequestResult r;
        {
          py::gil_scoped_release release;
          r = solve_request(bytes, o, ignore_unsupported_fields);
        }
        py::dict d;
        d["status"] = status_text(r.status);
        d["s_val"] = r.s_val;
        d["cost"] = r.cost;
        d["is_optimal"] = r.is_optimal;
        d["peak_times"] = r.peak_times;
        d["peak_usage"] = r.peak_usage;
        d["overbudget_cost"] = r.overbudget_cost;
        d["lower_bound"] = r.lower_bound ? py::cast(*r.lower_bound) : py::none();
        d["message"] = r.message;
        d["response"] = py::bytes(r.response);
        return d;
      },
      py::arg("request"), py::arg("time_limit") = 10.0, py::arg("threads") = 0, py::arg("seed") = 1,
      py::arg("deterministic") = false, py::arg("work_limit") = 2500,
      py::arg("ignore_unsupported_fields") = false,
      "Answers a serialized XLA AutoShardingSolverRequest in its own terms, as XLA's pass "
      "would (a soft budget weighed, fractional costs never 'optimal'): a dict of the "
      "response's fields, and 'response', the serialized AutoShardingSolverResult");
}
