#include "network.hpp"

#include <algorithm>

#include "../util/incidence.hpp"

namespace iopddl::inline v0 {

CostNetwork CostNetwork::from_reduced(const Reduced& r) {
  CostNetwork net;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    net.add_node(r.strategies(g));
    for (Strategy s = 0; s < r.strategies(g); ++s)
      net.unary(g)[s] = std::min(static_cast<double>(r.costs(g)[s]), kInfinite);
  }
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    net.add_edge(r.edge_u(e), r.edge_v(e));
    const std::size_t size =
        static_cast<std::size_t>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
    double* t = net.table(e);
    for (std::size_t i = 0; i < size; ++i)
      t[i] = std::min(static_cast<double>(r.table(e)[i]), kInfinite);
  }
  net.finish();
  return net;
}

std::uint32_t CostNetwork::add_node(Strategy k) {
  Graph& g = *g_;
  g.k.push_back(k);
  g.ubegin.push_back(g.ubegin.back() + static_cast<std::uint64_t>(k));
  unary_.resize(g.ubegin.back(), 0.0);
  return static_cast<std::uint32_t>(g.k.size() - 1);
}

std::uint32_t CostNetwork::add_edge(std::uint32_t u, std::uint32_t v) {
  Graph& g = *g_;
  g.eu.push_back(u);
  g.ev.push_back(v);
  g.tbegin.push_back(g.tbegin.back() + static_cast<std::uint64_t>(g.k[u]) * g.k[v]);
  g.table.resize(g.tbegin.back(), 0.0);
  return static_cast<std::uint32_t>(g.eu.size() - 1);
}

void CostNetwork::finish() {
  build_incidence(g_->k.size(), g_->eu, g_->ev, g_->adj_begin, g_->adj);
}

double CostNetwork::energy(const std::vector<Strategy>& x) const {
  double total = 0;
  for (std::uint32_t g = 0; g < num_nodes(); ++g) total += unary(g)[x[g]];
  for (std::uint32_t e = 0; e < num_edges(); ++e)
    total += table(e)[static_cast<std::size_t>(x[g_->eu[e]]) * g_->k[g_->ev[e]] + x[g_->ev[e]]];
  return total;
}

void CostNetwork::descend(std::vector<Strategy>& x, int passes) const {
  std::vector<double> score;
  for (int pass = 0; pass < passes; ++pass) {
    bool changed = false;
    for (std::uint32_t g = 0; g < num_nodes(); ++g) {
      score.assign(unary(g), unary(g) + g_->k[g]);
      for (std::uint32_t e : incident(g)) {
        const std::uint32_t o = other(e, g);
        for (Strategy s = 0; s < g_->k[g]; ++s) score[s] += entry(e, g, s, x[o]);
      }
      const auto best =
          static_cast<Strategy>(std::min_element(score.begin(), score.end()) - score.begin());
      if (score[best] < score[x[g]]) {
        x[g] = best;
        changed = true;
      }
    }
    if (!changed) return;
  }
}

}  // namespace iopddl::inline v0
