#include "network.hpp"

#include <algorithm>

namespace iopddl {

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
  k_.push_back(k);
  ubegin_.push_back(ubegin_.back() + static_cast<std::uint64_t>(k));
  unary_.resize(ubegin_.back(), 0.0);
  return static_cast<std::uint32_t>(k_.size() - 1);
}

std::uint32_t CostNetwork::add_edge(std::uint32_t u, std::uint32_t v) {
  eu_.push_back(u);
  ev_.push_back(v);
  tbegin_.push_back(tbegin_.back() + static_cast<std::uint64_t>(k_[u]) * k_[v]);
  table_.resize(tbegin_.back(), 0.0);
  return static_cast<std::uint32_t>(eu_.size() - 1);
}

void CostNetwork::finish() {
  const std::size_t n = k_.size();
  adj_begin_.assign(n + 1, 0);
  for (std::size_t e = 0; e < eu_.size(); ++e) {
    ++adj_begin_[eu_[e] + 1];
    ++adj_begin_[ev_[e] + 1];
  }
  for (std::size_t g = 0; g < n; ++g) adj_begin_[g + 1] += adj_begin_[g];
  adj_.resize(adj_begin_[n]);
  std::vector<std::uint64_t> fill(adj_begin_.begin(), adj_begin_.end() - 1);
  for (std::uint32_t e = 0; e < eu_.size(); ++e) {
    adj_[fill[eu_[e]]++] = e;
    adj_[fill[ev_[e]]++] = e;
  }
}

double CostNetwork::energy(const std::vector<Strategy>& x) const {
  double total = 0;
  for (std::uint32_t g = 0; g < num_nodes(); ++g) total += unary(g)[x[g]];
  for (std::uint32_t e = 0; e < num_edges(); ++e)
    total += table(e)[static_cast<std::size_t>(x[eu_[e]]) * k_[ev_[e]] + x[ev_[e]]];
  return total;
}

void CostNetwork::descend(std::vector<Strategy>& x, int passes) const {
  std::vector<double> score;
  for (int pass = 0; pass < passes; ++pass) {
    bool changed = false;
    for (std::uint32_t g = 0; g < num_nodes(); ++g) {
      score.assign(unary(g), unary(g) + k_[g]);
      for (std::uint32_t e : incident(g)) {
        const std::uint32_t o = other(e, g);
        for (Strategy s = 0; s < k_[g]; ++s) score[s] += entry(e, g, s, x[o]);
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

}  // namespace iopddl
