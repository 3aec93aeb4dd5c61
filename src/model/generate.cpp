// The generator mimics how XLA auto-sharding requests look (PROBLEM.md): nodes follow the
// schedule, most live 2-3 steps and about 12 % live a quarter of the horizon; a strategy
// shards a tensor d ways, dividing its memory (and its small compute cost) by d and adding
// communication cost that grows with d; edges
// join nearby nodes with resharding costs (0 when the layouts match). The forbidden family
// adds followers (equality edges: 0 on the diagonal, 10^18 elsewhere) and alias edges
// (only 0 and 10^18). The memory family has its own file (generate_memory.cpp).
#include "iopddl/generate.hpp"

#include <algorithm>
#include <cmath>

#include "generate_parts.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/rng.hpp"

namespace iopddl::inline v0 {

namespace {

// What the nodes' generation leaves for the edges: per node, the shard degree of each
// strategy, the tensor size, and the node it follows (forbidden family; -1: none).
struct Nodes {
  std::vector<std::vector<int>> shard;
  std::vector<double> tensor;
  std::vector<std::int64_t> leader;
};

Nodes add_nodes(ProblemBuilder& b, Rng& rng, std::size_t n) {
  const auto horizon = static_cast<std::int64_t>(n);
  Nodes nodes{std::vector<std::vector<int>>(n), std::vector<double>(n),
              std::vector<std::int64_t>(n, -1)};
  std::vector<Cost> cost;
  std::vector<Usage> usage;
  for (std::size_t v = 0; v < n; ++v) {
    // Strategies: mean ~8, a few nodes with many (up to 120). Most
    // nodes follow a recent node: same strategies, tied to it by an equality-like edge (as
    // XLA's follower instructions are).
    int k = 1 + static_cast<int>(rng.below(12));
    if (rng.uniform() < 0.02) k = 20 + static_cast<int>(rng.below(100));
    if (v > 0 && rng.uniform() < 0.7) {
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
      const generated::Sharded sharded = generated::shard(rng, tensor, flops, d);
      cost[s] = sharded.cost;
      usage[s] = sharded.usage;
    }
    auto lo = static_cast<std::int64_t>(v) + static_cast<std::int64_t>(rng.below(3));
    std::int64_t len = 2 + static_cast<std::int64_t>(rng.below(2));
    if (rng.uniform() < 0.12)
      len = horizon / 4 +
            static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(horizon / 4 + 1)));
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
                NodeId w, Strategy ku, Strategy kw, bool follow, std::vector<Cost>& table) {
  table.assign(static_cast<std::size_t>(ku) * static_cast<std::size_t>(kw), 0);
  const double roll = follow ? 0.0 : 0.35 + 0.65 * rng.uniform();
  if (roll < 0.35 && ku == kw) {
    // Follower: the identity when it can be (the planted pair must be allowed).
    std::vector<Strategy> perm(static_cast<std::size_t>(ku));
    for (Strategy a = 0; a < ku; ++a) perm[a] = a;
    if (planted[u] != planted[w]) std::swap(perm[planted[u]], perm[planted[w]]);
    for (Strategy a = 0; a < ku; ++a)
      for (Strategy c = 0; c < kw; ++c)
        table[static_cast<std::size_t>(a) * kw + c] = perm[a] == c ? 0 : kForbidden;
  } else if (roll < 0.55) {
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
        table[static_cast<std::size_t>(a) * kw + c] =
            generated::resharding(scale, nodes.shard[u][a], nodes.shard[w][c]);
      }
    const Cost m = *std::min_element(table.begin(), table.end());
    for (Cost& x : table) x -= m;
  }
}

void add_edges(ProblemBuilder& b, Rng& rng, const Nodes& nodes,
               const std::vector<Strategy>& planted, std::size_t n) {
  std::vector<Cost> table;
  for (std::size_t v = 1; v < n; ++v) {
    const int fan = 1 + static_cast<int>(rng.below(2));
    for (int f = 0; f < fan; ++f) {
      const std::size_t back = 1 + rng.below(std::min<std::size_t>(v, 16));
      const bool follow = f == 0 && nodes.leader[v] >= 0;
      const auto u = follow ? static_cast<NodeId>(nodes.leader[v]) : static_cast<NodeId>(v - back);
      const auto w = static_cast<NodeId>(v);
      edge_table(rng, nodes, planted, u, w, b.strategies(u), b.strategies(w), follow, table);
      b.add_edge(u, w, b.add_table(table));
    }
  }
}

// The core family. What makes A, D and G hard is not their size but what presolve leaves:
// 230-350 groups of 7-13 strategies (up to 35-73), 1.6-2.9 edges per group, each group the
// union of many members whose memory spreads over the horizon, and a limit 1.1 x the
// least-memory peak. So: `nodes` core nodes with cost-memory trade-offs, each with about
// `leaves` leaves tied to it by a functional table (a leaf's strategy a function of its
// core node's: presolve folds it), core edges of resharding costs or aliases to recent core
// nodes. The least-memory assignment is forbidden-free (every table allows it), so the
// limit is exactly limit_factor x its peak, as in the contest's instances.
// The strategy least_memory_assignment picks: least usage, ties to the least cost.
Strategy least_of(const std::vector<Cost>& cost, const std::vector<Usage>& usage) {
  Strategy best = 0;
  for (Strategy s = 1; s < static_cast<Strategy>(usage.size()); ++s)
    if (usage[s] < usage[best] || (usage[s] == usage[best] && cost[s] < cost[best])) best = s;
  return best;
}

namespace {

// The `core` family, step by step: the dense core's nodes, their edges, then the leaves that
// presolve folds into them (one random stream through all three, in that order).
class CoreGenerator {
 public:
  explicit CoreGenerator(const GeneratorOptions& options)
      : o(options),
        rng(o.seed, 0xc07e),
        core(std::max<std::size_t>(o.nodes, 1)),
        horizon(static_cast<std::int64_t>(4 * core)),
        shard(core),
        tensor(core),
        least(core) {
    b.set_name("generated-core-" + std::to_string(o.nodes) + "-s" + std::to_string(o.seed));
  }

  Problem run() {
    add_core_nodes();
    add_core_edges();
    add_leaves();
    b.set_usage_limit(generated::least_memory_limit(b, o.limit_factor));
    return std::move(b).build();
  }

 private:
  // A node's costs and usages for a tensor of `size` split `degrees[s]` ways by strategy s.
  void node_costs(double size, const std::vector<int>& degrees) {
    cost.resize(degrees.size());
    usage.resize(degrees.size());
    const double flops = size * (1.0 + 20.0 * rng.uniform());
    for (std::size_t s = 0; s < degrees.size(); ++s) {
      const generated::Sharded sharded = generated::shard(rng, size, flops, degrees[s]);
      cost[s] = sharded.cost;
      usage[s] = sharded.usage;
    }
  }

  void add_core_nodes() {
    for (std::size_t v = 0; v < core; ++v) {
      // Strategies: mean about 11, a tail up to 70 (A's core reaches 73, D's 35, G's 22).
      int k = 3 + static_cast<int>(rng.below(15));
      if (rng.uniform() < 0.05) k = 25 + static_cast<int>(rng.below(46));
      shard[v].resize(static_cast<std::size_t>(k));
      for (int& d : shard[v]) d = 1 << rng.below(5);
      tensor[v] = std::exp(10.0 + 6.0 * rng.uniform());
      node_costs(tensor[v], shard[v]);
      least[v] = least_of(cost, usage);
      const auto lo = static_cast<std::int64_t>(4 * v);
      b.add_node(lo, lo + 2 + static_cast<std::int64_t>(rng.below(4)), cost, usage);
    }
  }

  void add_core_edges() {
    // Core edges to recent core nodes: resharding costs (0 where the shard degrees match), or
    // aliases that allow the least-usage pair and a few others.
    for (std::size_t v = 1; v < core; ++v) {
      const double want = o.core_degree;  // edges per node: each node adds its own
      const int fan = static_cast<int>(want) + (rng.uniform() < want - std::floor(want) ? 1 : 0);
      for (int f = 0; f < fan; ++f) {
        const auto u = static_cast<NodeId>(v - 1 - rng.below(std::min<std::size_t>(v, 24)));
        const auto w = static_cast<NodeId>(v);
        const auto ku = static_cast<std::size_t>(b.strategies(u)),
                   kw = static_cast<std::size_t>(b.strategies(w));
        table.assign(ku * kw, 0);
        if (rng.uniform() < o.alias_share) {
          for (std::size_t a = 0; a < ku; ++a)
            for (std::size_t c = 0; c < kw; ++c)
              table[a * kw + c] = rng.uniform() < 0.4 ? 0 : kForbidden;
          table[static_cast<std::size_t>(least[u]) * kw + static_cast<std::size_t>(least[w])] = 0;
        } else {
          const double scale = tensor[u] * (0.1 + rng.uniform());
          for (std::size_t a = 0; a < ku; ++a)
            for (std::size_t c = 0; c < kw; ++c) {
              table[a * kw + c] = generated::resharding(scale, shard[u][a], shard[w][c]);
            }
        }
        b.add_edge(u, w, b.add_table(table));
      }
    }
  }

  void add_leaves() {
    // Leaves: each follows a core node through a functional table (strategy a of the core
    // node allows exactly f(a)), with the least-usage leaf strategy at f(least), and lives a
    // few steps somewhere in the horizon, so a group's members spread its memory over time.
    for (std::size_t v = 0; v < core; ++v) {
      const int count = static_cast<int>(o.leaves * (0.5 + rng.uniform()));
      for (int i = 0; i < count; ++i) {
        std::vector<int> degrees(shard[v]);
        const double size = tensor[v] * (0.05 + 0.3 * rng.uniform());
        node_costs(size, degrees);
        const auto lo = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(horizon)));
        std::int64_t len = 1 + static_cast<std::int64_t>(rng.below(4));
        if (rng.uniform() < 0.1)
          len = horizon / 8 +
                static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(horizon / 8 + 1)));
        const NodeId leaf = b.add_node(lo, lo + len, cost, usage);
        const Strategy k = b.strategies(leaf), kc = b.strategies(static_cast<NodeId>(v));
        const Strategy leaf_least = least_of(cost, usage);
        table.assign(static_cast<std::size_t>(kc) * static_cast<std::size_t>(k), kForbidden);
        for (Strategy a = 0; a < kc; ++a) {
          const Strategy to = a == least[v]
                                  ? leaf_least
                                  : static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(k)));
          table[static_cast<std::size_t>(a) * static_cast<std::size_t>(k) +
                static_cast<std::size_t>(to)] = 0;
        }
        b.add_edge(static_cast<NodeId>(v), leaf, b.add_table(table));
      }
    }
  }

  const GeneratorOptions& o;
  Rng rng;
  ProblemBuilder b;
  const std::size_t core;
  const std::int64_t horizon;
  std::vector<Cost> cost;
  std::vector<Usage> usage;
  std::vector<std::vector<int>> shard;
  std::vector<double> tensor;
  std::vector<Strategy> least;  // each core node's least-usage strategy
  std::vector<Cost> table;
};

}  // namespace

Problem generate_core(const GeneratorOptions& o) {
  return CoreGenerator(o).run();
}

}  // namespace

Usage generated::least_memory_limit(const ProblemBuilder& b, double factor) {
  const Problem unlimited = ProblemBuilder(b).build();
  const Evaluation least = evaluate(unlimited, least_memory_assignment(unlimited));
  return static_cast<Usage>(static_cast<double>(least.peak_usage) * factor);
}

namespace {

void check(const GeneratorOptions& o) {
  const auto within = [](double x, double lo, double hi, const char* name) {
    if (!(x >= lo && x <= hi))  // (NaN too)
      throw InputError(std::string(name) + ": " + std::to_string(x) + " is outside [" +
                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
  };
  if (o.nodes < 1 || o.nodes > kMaxGeneratedNodes)
    throw InputError("nodes: " + std::to_string(o.nodes) + " is outside [1, " +
                     std::to_string(kMaxGeneratedNodes) + "]");
  within(o.limit_factor, 1e-6, 1e6, "limit_factor");
  within(o.leaves, 0, 1000, "leaves");
  within(o.core_degree, 0, 20, "core_degree");
  within(o.alias_share, 0, 1, "alias_share");
  within(o.isolated_share, 0, 0.99, "isolated_share");
  within(o.hub_share, 0, 0.05, "hub_share");
  within(o.strategies_mean, 1, 200, "strategies_mean");
  if (o.max_strategies < 2 || o.max_strategies > 1000)
    throw InputError("max_strategies: " + std::to_string(o.max_strategies) +
                     " is outside [2, 1000]");
}

}  // namespace

Problem generate_problem(const GeneratorOptions& o) {
  check(o);
  if (o.family == Family::kCore) return generate_core(o);
  if (o.family == Family::kMemory) return generated::generate_memory(o);
  Rng rng(o.seed, 0x6e6e);
  ProblemBuilder b;
  b.set_name("generated-forbidden-" + std::to_string(o.nodes) + "-s" + std::to_string(o.seed));
  const std::size_t n = std::max<std::size_t>(o.nodes, 1);
  const Nodes nodes = add_nodes(b, rng, n);
  const std::vector<Strategy> planted = plant(b, rng, n);
  add_edges(b, rng, nodes, planted, n);
  // The limit: a multiple of the least-memory peak, and at least what the planted
  // forbidden-free assignment needs.
  Problem unlimited = ProblemBuilder(b).build();
  Evaluation least = evaluate(unlimited, least_memory_assignment(unlimited));
  const Evaluation plant_eval = evaluate(unlimited, planted);
  const double limit = std::max(static_cast<double>(least.peak_usage) * o.limit_factor,
                                static_cast<double>(plant_eval.peak_usage) * 1.01);
  b.set_usage_limit(static_cast<Usage>(limit));
  return std::move(b).build();
}

}  // namespace iopddl::inline v0
