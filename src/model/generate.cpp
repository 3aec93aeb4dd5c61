// The generator mimics how XLA auto-sharding requests look (PROBLEM.md): nodes follow the
// schedule, most live 2-3 steps and about 12 % live a quarter of the horizon; a strategy
// shards a tensor d ways, dividing its memory (and its small compute cost) by d and adding
// communication cost that grows with d; edges
// join nearby nodes with resharding costs (0 when the layouts match). The forbidden family
// adds followers (equality edges: 0 on the diagonal, 10^18 elsewhere) and alias edges
// (only 0 and 10^18); the memory family has none and leaves many nodes isolated.
#include "iopddl/generate.hpp"

#include <algorithm>
#include <cmath>

#include "iopddl/evaluate.hpp"
#include "iopddl/rng.hpp"

namespace iopddl {

namespace {

// What the nodes' generation leaves for the edges: per node, the shard degree of each
// strategy, the tensor size, and the node it follows (forbidden family; -1: none).
struct Nodes {
  std::vector<std::vector<int>> shard;
  std::vector<double> tensor;
  std::vector<std::int64_t> leader;
};

Nodes add_nodes(ProblemBuilder& b, Rng& rng, std::size_t n, bool forbidden) {
  const auto horizon = static_cast<std::int64_t>(n);
  Nodes nodes{std::vector<std::vector<int>>(n), std::vector<double>(n),
              std::vector<std::int64_t>(n, -1)};
  std::vector<Cost> cost;
  std::vector<Usage> usage;
  for (std::size_t v = 0; v < n; ++v) {
    // Strategies: mean ~8, a few nodes with many (up to 120). In the forbidden family most
    // nodes follow a recent node: same strategies, tied to it by an equality-like edge (as
    // XLA's follower instructions are).
    int k = 1 + static_cast<int>(rng.below(12));
    if (rng.uniform() < 0.02) k = 20 + static_cast<int>(rng.below(100));
    if (forbidden && v > 0 && rng.uniform() < 0.7) {
      nodes.leader[v] = static_cast<std::int64_t>(v - 1 - rng.below(std::min<std::size_t>(v, 8)));
      k = static_cast<int>(nodes.shard[static_cast<std::size_t>(nodes.leader[v])].size());
    }
    const double tensor = nodes.tensor[v] = std::exp(10.0 + 6.0 * rng.uniform());  // bytes
    const double flops = tensor * (1.0 + 20.0 * rng.uniform());
    cost.assign(static_cast<std::size_t>(k), 0);
    usage.assign(static_cast<std::size_t>(k), 0);
    nodes.shard[v].resize(static_cast<std::size_t>(k));
    for (int s = 0; s < k; ++s) {
      const int d = 1 << rng.below(5);  // 1..16 ways
      nodes.shard[v][s] = d;
      // Sharding divides memory and compute but adds communication that grows with the
      // degree, so replicated layouts are cheap and memory-hungry: cost and memory pull
      // against each other, as in XLA's requests (without this, the least-memory layout
      // is also nearly the cheapest and the memory limit costs little).
      const double comm = d > 1 ? tensor * (0.3 + 0.4 * std::log2(d)) * (0.5 + rng.uniform()) : 0.0;
      cost[s] = static_cast<Cost>(0.1 * flops / d + comm);
      usage[s] = static_cast<Usage>(tensor / d * (0.8 + 0.4 * rng.uniform()));
    }
    auto lo = static_cast<std::int64_t>(v) + static_cast<std::int64_t>(rng.below(3));
    std::int64_t len = 2 + static_cast<std::int64_t>(rng.below(2));
    if (rng.uniform() < 0.12)
      len = horizon / 4 +
            static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(horizon / 4 + 1)));
    if (!forbidden && rng.uniform() < 0.05) len = 0;  // some nodes use no memory
    b.add_node(lo, lo + len, cost, usage);
  }
  return nodes;
}

// A planted assignment that every table with forbidden entries allows, so the forbidden
// constraints never contradict each other: one of each node's two least-usage strategies,
// so that a forbidden-free assignment fits near the least-memory peak.
std::vector<Strategy> plant(const ProblemBuilder& b, Rng& rng, std::size_t n) {
  std::vector<Strategy> planted(n);
  Problem nodes_only = ProblemBuilder(b).build();
  for (NodeId v = 0; v < n; ++v) {
    auto u = nodes_only.usages(v);
    std::vector<Strategy> order(u.size());
    for (std::size_t s = 0; s < u.size(); ++s) order[s] = static_cast<Strategy>(s);
    std::sort(order.begin(), order.end(), [&](Strategy a, Strategy c) { return u[a] < u[c]; });
    planted[v] = order[std::min<std::size_t>(rng.below(2), order.size() - 1)];
  }
  return planted;
}

// One edge table between u and w: a follower (w's strategy a permutation of u's), an alias
// (each strategy of u allows a few of w's) or resharding costs.
void edge_table(Rng& rng, const Nodes& nodes, const std::vector<Strategy>& planted, NodeId u,
                NodeId w, Strategy ku, Strategy kw, bool forbidden, bool follow,
                std::vector<Cost>& table) {
  table.assign(static_cast<std::size_t>(ku) * static_cast<std::size_t>(kw), 0);
  const double roll = follow ? 0.0 : 0.35 + 0.65 * rng.uniform();
  if (forbidden && roll < 0.35 && ku == kw) {
    // Follower: the identity when it can be (the planted pair must be allowed).
    std::vector<Strategy> perm(static_cast<std::size_t>(ku));
    for (Strategy a = 0; a < ku; ++a) perm[a] = a;
    if (planted[u] != planted[w]) std::swap(perm[planted[u]], perm[planted[w]]);
    for (Strategy a = 0; a < ku; ++a)
      for (Strategy c = 0; c < kw; ++c)
        table[static_cast<std::size_t>(a) * kw + c] = perm[a] == c ? 0 : kForbidden;
  } else if (forbidden && roll < 0.55) {
    // Alias: at least one strategy of w per strategy of u; the planted pair among them.
    for (Strategy a = 0; a < ku; ++a) {
      const auto ok = a == planted[u]
                          ? planted[w]
                          : static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(kw)));
      for (Strategy c = 0; c < kw; ++c)
        table[static_cast<std::size_t>(a) * kw + c] =
            c == ok || rng.uniform() < 0.15 ? 0 : kForbidden;
    }
  } else {
    // Resharding: free when the shard degrees match, else proportional to the tensor,
    // shifted so the minimum is 0, as the contest's converter did.
    const double scale = nodes.tensor[u] * (0.1 + rng.uniform());
    for (Strategy a = 0; a < ku; ++a)
      for (Strategy c = 0; c < kw; ++c) {
        const int da = nodes.shard[u][a], dc = nodes.shard[w][c];
        table[static_cast<std::size_t>(a) * kw + c] =
            da == dc ? 0 : static_cast<Cost>(scale * std::abs(std::log2(da) - std::log2(dc)) / 4.0);
      }
    const Cost m = *std::min_element(table.begin(), table.end());
    for (Cost& x : table) x -= m;
  }
}

void add_edges(ProblemBuilder& b, Rng& rng, const Nodes& nodes,
               const std::vector<Strategy>& planted, std::size_t n, bool forbidden) {
  std::vector<Cost> table;
  for (std::size_t v = 1; v < n; ++v) {
    // The memory family leaves about half of the nodes isolated.
    if (!forbidden && rng.uniform() < 0.45) continue;
    const int fan = forbidden ? 1 + static_cast<int>(rng.below(2)) : 1;
    for (int f = 0; f < fan; ++f) {
      const std::size_t back = 1 + rng.below(std::min<std::size_t>(v, 16));
      const bool follow = f == 0 && nodes.leader[v] >= 0;
      const auto u = follow ? static_cast<NodeId>(nodes.leader[v]) : static_cast<NodeId>(v - back);
      const auto w = static_cast<NodeId>(v);
      edge_table(rng, nodes, planted, u, w, b.strategies(u), b.strategies(w), forbidden, follow,
                 table);
      b.add_edge(u, w, b.add_table(table));
    }
  }
}

}  // namespace

Problem generate_problem(const GeneratorOptions& o) {
  Rng rng(o.seed, 0x6e6e);
  ProblemBuilder b;
  const bool forbidden = o.family == Family::kForbiddenPairs;
  b.set_name(std::string(forbidden ? "generated-forbidden-" : "generated-memory-") +
             std::to_string(o.nodes) + "-s" + std::to_string(o.seed));
  const std::size_t n = std::max<std::size_t>(o.nodes, 1);
  const Nodes nodes = add_nodes(b, rng, n, forbidden);
  const std::vector<Strategy> planted = plant(b, rng, n);
  add_edges(b, rng, nodes, planted, n, forbidden);
  // The limit: a multiple of the least-memory peak, and in the forbidden family at least
  // what the planted forbidden-free assignment needs.
  Problem unlimited = ProblemBuilder(b).build();
  Evaluation least = evaluate(unlimited, least_memory_assignment(unlimited));
  double limit = static_cast<double>(least.peak_usage) * o.limit_factor;
  if (forbidden) {
    Evaluation plant_eval = evaluate(unlimited, planted);
    limit = std::max(limit, static_cast<double>(plant_eval.peak_usage) * 1.01);
  }
  b.set_usage_limit(static_cast<Usage>(limit));
  return std::move(b).build();
}

}  // namespace iopddl
