#include "elimination.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace iopddl::inline v0 {

Elimination min_fill_order(const Reduced& r, const std::vector<std::uint32_t>& groups) {
  std::vector<std::uint32_t> all = groups;
  if (all.empty()) {
    all.resize(r.num_nodes());
    std::iota(all.begin(), all.end(), 0u);
  }
  const std::size_t n = all.size();
  std::vector<std::uint32_t> local(r.num_nodes(), kNoIndex);
  for (std::size_t i = 0; i < n; ++i) local[all[i]] = static_cast<std::uint32_t>(i);
  std::vector<std::set<std::uint32_t>> adj(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t e : r.incident(all[i])) {
      const std::uint32_t j = local[r.other(e, all[i])];
      if (j != kNoIndex && j != i) adj[i].insert(j);
    }
  std::vector<double> log_k(n);
  for (std::size_t i = 0; i < n; ++i)
    log_k[i] = std::log2(std::max<Strategy>(r.strategies(all[i]), 1));
  // Fill-in of eliminating i: pairs of its neighbours not yet adjacent.
  const auto fill = [&](std::size_t i) {
    std::size_t missing = 0;
    for (auto a = adj[i].begin(); a != adj[i].end(); ++a)
      for (auto b = std::next(a); b != adj[i].end(); ++b) missing += adj[*a].count(*b) == 0;
    return missing;
  };
  Elimination out;
  std::vector<char> done(n, 0);
  std::vector<std::size_t> fills(n);
  for (std::size_t i = 0; i < n; ++i) fills[i] = fill(i);
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t best = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!done[i] && (best == n || fills[i] < fills[best] ||
                       (fills[i] == fills[best] && adj[i].size() < adj[best].size())))
        best = i;
    done[best] = 1;
    out.order.push_back(all[best]);
    out.width = std::max(out.width, adj[best].size());
    double bag = log_k[best];
    for (std::uint32_t a : adj[best]) bag += log_k[a];
    out.log2_bag = std::max(out.log2_bag, bag);
    // Connect its neighbours, drop it; the fill of nodes near it changes.
    const std::vector<std::uint32_t> nb(adj[best].begin(), adj[best].end());
    for (std::uint32_t a : nb) {
      adj[a].erase(static_cast<std::uint32_t>(best));
      for (std::uint32_t b : nb)
        if (a != b) adj[a].insert(b);
    }
    std::set<std::uint32_t> stale(nb.begin(), nb.end());
    for (std::uint32_t a : nb) stale.insert(adj[a].begin(), adj[a].end());
    for (std::uint32_t a : stale)
      if (!done[a]) fills[a] = fill(a);
  }
  return out;
}

}  // namespace iopddl::inline v0
