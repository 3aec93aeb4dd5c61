#include "region_problem.hpp"

#include <algorithm>
#include <limits>

#include "../coordinator/memory_prices.hpp"

namespace iopddl::inline v0 {

namespace {

// Node v's costs with every edge to a node outside the region (local[u] == none) priced at
// the incumbent's label of that node; a sum at or past 10^18 stays forbidden. An allowed
// strategy then gets its priced term, the sum capped below 10^18.
std::vector<Cost> folded_costs(const Problem& p, std::span<const Strategy> x,
                               const std::vector<std::uint32_t>& local, NodeId v,
                               std::span<const double> price_prefix) {
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  const std::span<const Cost> own = p.costs(v);
  std::vector<Total> sum(own.begin(), own.end());
  for (EdgeId e : p.incident_edges(v)) {
    const NodeId u = p.edge_u(e), w = p.edge_v(e);
    if (local[u] != none && local[w] != none) continue;  // inside: kept as an edge
    for (Strategy s = 0; s < p.strategies(v); ++s)
      sum[static_cast<std::size_t>(s)] +=
          u == v ? p.edge_cost(e, s, x[w]) : p.edge_cost(e, x[u], s);
  }
  std::vector<Cost> out(sum.size());
  for (std::size_t s = 0; s < sum.size(); ++s) {
    if (sum[s] >= kForbidden) {
      out[s] = kForbidden;
      continue;
    }
    const Total priced =
        sum[s] + coordinator::priced_term(p, price_prefix, v, static_cast<Strategy>(s));
    out[s] = static_cast<Cost>(std::min<Total>(priced, kForbidden - 1));
  }
  return out;
}

// The padding: the region's own time points cut time into coarse segments; on each, the
// capacity is the least over the fine segments it spans. The limit is the greatest
// capacity; a run of coarse segments with the same shortfall below it gets one node.
void add_padding(const Problem& p, const std::vector<NodeId>& nodes,
                 std::span<const Total> capacity, ProblemBuilder& b) {
  std::vector<std::uint32_t> cuts;  // fine segment indices where the region's usage may change
  for (NodeId v : nodes)
    if (p.has_memory(v)) {
      cuts.push_back(p.seg_lo(v));
      cuts.push_back(p.seg_hi(v));
    }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  if (cuts.size() < 2) {
    b.set_usage_limit(p.usage_limit());
    return;
  }
  std::vector<Total> coarse(cuts.size() - 1);
  for (std::size_t j = 0; j + 1 < cuts.size(); ++j)
    coarse[j] = *std::min_element(capacity.begin() + cuts[j], capacity.begin() + cuts[j + 1]);
  const Total limit = std::max<Total>(0, *std::max_element(coarse.begin(), coarse.end()));
  b.set_usage_limit(static_cast<Usage>(limit));
  const std::vector<std::int64_t>& times = p.times();
  const Cost zero[1] = {0};
  for (std::size_t j = 0; j < coarse.size();) {
    std::size_t end = j + 1;
    while (end < coarse.size() && coarse[end] == coarse[j]) ++end;
    const Total shortfall = limit - std::max<Total>(0, coarse[j]);
    if (shortfall > 0) {
      const Usage usage[1] = {static_cast<Usage>(shortfall)};
      b.add_node(times[cuts[j]], times[cuts[end]], zero, usage);
    }
    j = end;
  }
}

}  // namespace

RegionProblem region_problem(const Problem& p, std::span<const Strategy> x,
                             std::vector<NodeId> nodes, std::span<const Total> capacity,
                             std::span<const double> price_prefix) {
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> local(p.num_nodes(), none);
  for (std::size_t i = 0; i < nodes.size(); ++i) local[nodes[i]] = static_cast<std::uint32_t>(i);
  ProblemBuilder b;
  b.set_name(p.name() + " (region)");
  for (NodeId v : nodes) {
    const std::vector<Cost> costs = folded_costs(p, x, local, v, price_prefix);
    b.add_node(p.interval_lo(v), p.interval_hi(v), costs, p.usages(v));
  }
  if (p.usage_limit()) add_padding(p, nodes, capacity, b);
  for (NodeId v : nodes)
    for (EdgeId e : p.incident_edges(v)) {
      const NodeId u = p.edge_u(e), w = p.edge_v(e);
      // each inside edge once: from its first end (a self-loop has one)
      if (local[u] == none || local[w] == none || u != v) continue;
      b.add_edge(local[u], local[w], b.add_table(p.edge_costs(e)));
    }
  return {std::move(b).build(), std::move(nodes)};
}

}  // namespace iopddl::inline v0
