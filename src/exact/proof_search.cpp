#include "proof_search.hpp"

#include <numeric>

namespace iopddl {

namespace {
ArcGraph<Total> graph_of(const Reduced& r, const Reparametrisation& rep) {
  ArcGraph<Total> g;
  g.incident.resize(r.num_nodes());
  for (std::uint32_t i = 0; i < r.num_nodes(); ++i) {
    g.k.push_back(r.strategies(i));
    g.incident[i].assign(r.incident(i).begin(), r.incident(i).end());
  }
  if (rep.node.empty()) return g;  // no bound yet: run() declines
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    g.eu.push_back(r.edge_u(e));
    g.ev.push_back(r.edge_v(e));
    g.table.push_back(rep.table(e));
  }
  return g;
}

Total true_cost(const Reduced& r, const std::vector<Strategy>& x) {
  Total sum = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) sum += r.costs(g)[x[g]];
  for (std::uint32_t e = 0; e < r.num_edges(); ++e)
    sum += r.table(
        e)[static_cast<std::size_t>(x[r.edge_u(e)]) * r.strategies(r.edge_v(e)) + x[r.edge_v(e)]];
  return sum;
}

// Placements within the limit (groups in index order in the window memory); leaves by
// their true cost, the bar the largest bound a cheaper one could have.
struct LimitAndCost final : ArcSearch<Total>::Hooks {
  const Reduced& r;
  const Reparametrisation& rep;
  WindowMemory& memory;
  Total best;
  LimitAndCost(const Reduced& r_, const Reparametrisation& rep_, WindowMemory& m, Total b)
      : r(r_), rep(rep_), memory(m), best(b) {}
  // Bounds of at least this cannot belong to a labelling of cost below `best`.
  Total bar() const { return rep.scale * (best - 1) - rep.constant + 1; }
  bool fits(std::uint32_t i, Strategy a) override { return memory.place(i, a); }
  void release(std::uint32_t i, Strategy a) override { memory.unplace(i, a); }
  std::optional<Total> leaf(const std::vector<Strategy>& x, Total) override {
    const Total cost = true_cost(r, x);
    if (cost >= best || cost >= kForbidden) return std::nullopt;
    best = cost;
    return bar();
  }
};
}  // namespace

ProofSearch::ProofSearch(const Reduced& r, const Reparametrisation& rep)
    : r_(r), rep_(rep), search_(graph_of(r, rep)) {}

ProofSearch::Outcome ProofSearch::run(LocalState& state, std::uint64_t node_limit,
                                      const StopControl& stop) {
  Outcome out;
  if (!state.feasible() || state.cost() >= kForbidden || rep_.node.empty()) return out;
  const std::size_t n = r_.num_nodes();
  unary_.resize(search_.first_strategy(static_cast<std::uint32_t>(n)));
  for (std::uint32_t g = 0; g < n; ++g)
    std::copy(rep_.costs(g), rep_.costs(g) + r_.strategies(g),
              unary_.begin() + static_cast<std::ptrdiff_t>(search_.first_strategy(g)));
  std::vector<Strategy> best = state.assignment();
  std::vector<std::uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  for (std::uint32_t g : all) state.lift(g);
  memory_.build(state, all);
  const Total start = state.cost();
  LimitAndCost hooks(r_, rep_, memory_, start);
  const auto o = search_.run(unary_, best, hooks.bar(), 0, hooks, node_limit, stop);
  for (std::uint32_t g : all) {
    if (!state.place(g, best[g], state.delta(g, best[g])))
      state.force(g, best[g], state.delta(g, best[g]));  // cannot happen: best fits
  }
  out.complete = o.complete;
  out.improved = o.found;
  // Finished: the best is optimal. If not, no labelling of cost below the start's has a
  // scaled value below the root's c0 plus the constant: in cost units rounded up (costs
  // are integers), or the start's cost.
  const Total scaled = o.root + rep_.constant;
  Total bound = scaled / rep_.scale;
  if (bound * rep_.scale < scaled) ++bound;
  out.bound = o.complete ? hooks.best : std::min(bound, start);
  out.nodes = o.nodes;
  return out;
}

}  // namespace iopddl
