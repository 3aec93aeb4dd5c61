#include "support.hpp"

#include <algorithm>

#include "iopddl/solve.hpp"
#include "reduce/reduced.hpp"

namespace iopddl::inline v0::test {

Problem random_problem(Rng& rng, const TinySpec& spec) {
  ProblemBuilder b;
  b.set_name("tiny");
  const Cost cmax = spec.huge_values ? (Cost{1} << 62) : spec.max_cost;
  const Usage umax = spec.huge_values ? (Usage{1} << 62) : spec.max_usage;
  for (int v = 0; v < spec.nodes; ++v) {
    const int k = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(spec.max_strategies)));
    std::vector<Cost> c(static_cast<std::size_t>(k));
    std::vector<Usage> u(static_cast<std::size_t>(k));
    for (auto& x : c) x = static_cast<Cost>(rng.below(static_cast<std::uint64_t>(cmax) + 1));
    for (auto& x : u) x = static_cast<Usage>(rng.below(static_cast<std::uint64_t>(umax) + 1));
    std::int64_t lo = static_cast<std::int64_t>(rng.below(10));
    std::int64_t hi = lo + 1 + static_cast<std::int64_t>(rng.below(6));
    if (rng.uniform() < spec.empty_interval_share) {
      hi = lo - static_cast<std::int64_t>(rng.below(2));  // empty: lo >= hi
    }
    b.add_node(lo, hi, c, u);
  }
  for (int e = 0; e < spec.edges && spec.nodes > 0; ++e) {
    const auto u = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(spec.nodes)));
    auto v = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(spec.nodes)));
    if (spec.nodes > 1 && v == u) v = (v + 1) % static_cast<NodeId>(spec.nodes);
    std::vector<Cost> t(static_cast<std::size_t>(b.strategies(u)) *
                        static_cast<std::size_t>(b.strategies(v)));
    for (auto& x : t)
      x = rng.uniform() < spec.forbidden_share
              ? kForbidden
              : static_cast<Cost>(rng.below(static_cast<std::uint64_t>(cmax) + 1));
    b.add_edge(u, v, b.add_table(t));
  }
  Problem unlimited = ProblemBuilder(b).build();
  if (spec.limit_factor > 0) {
    Evaluation least = evaluate(unlimited, least_memory_assignment(unlimited));
    const double limit = static_cast<double>(least.peak_usage) * spec.limit_factor;
    b.set_usage_limit(static_cast<Usage>(std::min(limit, 9.2e18)));
  }
  return std::move(b).build();
}

namespace {

// Every labelling of n items with labels(i) labels each, in lexicographic order.
void for_each_labelling(std::size_t n, const std::function<Strategy(std::size_t)>& labels,
                        const std::function<void(const std::vector<Strategy>&)>& f) {
  std::vector<Strategy> a(n, 0);
  for (;;) {
    f(a);
    std::size_t v = 0;
    while (v < a.size() && ++a[v] == labels(v)) a[v++] = 0;
    if (v == a.size()) return;
  }
}

}  // namespace

void for_each_assignment(const Problem& p,
                         const std::function<void(const std::vector<Strategy>&)>& f) {
  for_each_labelling(
      p.num_nodes(), [&](std::size_t v) { return p.strategies(static_cast<NodeId>(v)); }, f);
}

void for_each_reduced_assignment(const Reduced& r,
                                 const std::function<void(const std::vector<Strategy>&)>& f) {
  for_each_labelling(
      r.num_nodes(), [&](std::size_t g) { return r.strategies(static_cast<std::uint32_t>(g)); }, f);
}

Total reduced_cost(const Reduced& r, const std::vector<Strategy>& x) {
  Total cost = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) cost += r.costs(g)[x[g]];
  for (std::uint32_t e = 0; e < r.num_edges(); ++e)
    cost += r.table(
        e)[static_cast<std::size_t>(x[r.edge_u(e)]) * r.strategies(r.edge_v(e)) + x[r.edge_v(e)]];
  return cost;
}

Total segment_usage(const Reduced& r, const std::vector<Strategy>& x, std::size_t t) {
  const Problem& p = r.original();
  Total usage = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      const NodeId n = r.member_node(mi);
      if (p.has_memory(n) && p.seg_lo(n) <= t && t < p.seg_hi(n)) usage += r.member_usage(mi, x[g]);
    }
  return usage;
}

std::optional<Total> brute_force_optimum(const Problem& p, bool forbidden_free) {
  std::optional<Total> best;
  for_each_assignment(p, [&](const std::vector<Strategy>& a) {
    Evaluation e = evaluate(p, a);
    if (forbidden_free && e.forbidden_picks > 0) return;
    if (e.feasible && (!best || e.cost < *best)) best = e.cost;
  });
  return best;
}

Outcome solve_checked(const Problem& p, const SolverOptions& o) {
  StopControl stop;
  IncumbentStore store(&stop);
  Log log(nullptr, &stop, true);
  Outcome out;
  out.result = solve(p, o, stop, store, log);
  if (store.has_solution()) {
    out.assignment = store.assignment();
    Evaluation e = evaluate(p, out.assignment);
    REQUIRE(e.feasible);
    CHECK(e.cost == store.cost());
    out.cost = e.cost;
    out.forbidden_picks = e.forbidden_picks;
  }
  out.bound = store.bound();
  return out;
}

SolverOptions deterministic_options(std::uint64_t millions, int threads) {
  SolverOptions o;
  o.deterministic = true;
  o.work_limit = millions;
  o.threads = threads;
  return o;
}

std::string source_path(const std::string& relative) {
  return std::string(IOPDDL_SOURCE_DIR) + "/" + relative;
}

}  // namespace iopddl::inline v0::test
