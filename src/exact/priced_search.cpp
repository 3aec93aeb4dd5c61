#include "priced_search.hpp"

#include <algorithm>
#include <cmath>

namespace iopddl {

namespace {
ArcGraph<double> graph_of(const CostNetwork& net) {
  ArcGraph<double> g;
  g.incident.resize(net.num_nodes());
  for (std::uint32_t i = 0; i < net.num_nodes(); ++i) {
    g.k.push_back(net.strategies(i));
    g.incident[i].assign(net.incident(i).begin(), net.incident(i).end());
  }
  for (std::uint32_t e = 0; e < net.num_edges(); ++e) {
    g.eu.push_back(net.edge_u(e));
    g.ev.push_back(net.edge_v(e));
    g.table.push_back(net.table(e));
  }
  return g;
}

// A leaf's value is its energy, c0 (below the bar, or the search would not reach it).
struct EnergyLeaf final : ArcSearch<double>::Hooks {
  double tolerance;
  explicit EnergyLeaf(double t) : tolerance(t) {}
  std::optional<double> leaf(const std::vector<Strategy>&, double c0) override {
    return c0 - tolerance;
  }
};
}  // namespace

PricedSearch::PricedSearch(const CostNetwork& net) : search_(graph_of(net)) {}

PricedSearch::Outcome PricedSearch::run(const CostNetwork& net, std::vector<Strategy>& x,
                                        std::uint64_t node_limit, const StopControl& stop) {
  Outcome out;
  unary_.resize(search_.first_strategy(static_cast<std::uint32_t>(search_.n())));
  for (std::uint32_t g = 0; g < search_.n(); ++g)
    std::copy(net.unary(g), net.unary(g) + net.strategies(g),
              unary_.begin() + static_cast<std::ptrdiff_t>(search_.first_strategy(g)));
  const double start = net.energy(x);
  // Relative to the costs at stake (a start with forbidden picks would make it huge).
  const double tolerance = 1e-9 * std::max(1.0, std::min(std::abs(start), 1e15));
  std::vector<Strategy> best = x;
  EnergyLeaf leaf(tolerance);
  const auto o = search_.run(unary_, best, start - tolerance, tolerance, leaf, node_limit, stop);
  out.complete = o.complete;
  out.nodes = o.nodes;
  out.energy = start;
  if (const double energy = o.found ? net.energy(best) : start; energy < start) {
    x = best;
    out.improved = true;
    out.gain = start - energy;
    out.energy = energy;
  }
  return out;
}

}  // namespace iopddl
