// The memory family, shaped like the contest's large memory-dominated instances (R, T, U,
// N): most nodes have no edge at all and meet the others only through memory; the rest
// form sparse chains of nearby operations, tied together by a few hubs (long-lived tensors
// read by hundreds of operations); a good share of the connected nodes has one strategy
// (parameters and constants: their edges are unary costs on their readers). The defaults
// reproduce R's degree histogram, strategy counts and limit (the memory-family issue gives
// the table); GeneratorOptions' isolated_share, hub_share, strategies_mean and
// max_strategies move towards T, U or K.
#include <algorithm>
#include <cmath>

#include "generate_parts.hpp"

namespace iopddl::inline v0::generated {

namespace {

// Degree buckets of R's connected nodes (share of the nodes with an edge): 1, 2, 3, 4, 5-8,
// 9-16, 17-64; hubs (65+) come from hub_share.
constexpr double kDegreeShare[] = {0.488, 0.131, 0.152, 0.079, 0.083, 0.046, 0.0173};
constexpr int kDegreeLo[] = {1, 2, 3, 4, 5, 9, 17};
constexpr int kDegreeHi[] = {1, 2, 3, 4, 8, 16, 64};
constexpr double kDegreeTotal = 0.488 + 0.131 + 0.152 + 0.079 + 0.083 + 0.046 + 0.0173;
constexpr int kHubDegree = 65;  // from here on a node is a hub (the last bucket)

// Strategy counts of multi-strategy nodes as XLA's meshes give them (N's histogram); scaled
// about 2 to meet strategies_mean.
constexpr int kStrategyValue[] = {4, 8, 9, 15, 16, 23, 25, 33};
constexpr double kStrategyShare[] = {0.25, 0.05, 0.25, 0.30, 0.03, 0.08, 0.03, 0.01};
constexpr double kStrategyBaseMean = 11.55;  // of the table above
constexpr double kTailShare = 0.002;         // nodes drawn towards max_strategies

// One-strategy nodes among the connected ones (N: 64 %), and among the nodes of 17 edges or
// more (N: 30 %: hubs are mostly activations with layouts of their own).
constexpr double kSingleShare = 0.6;
constexpr double kSingleHubShare = 0.3;
// Edges whose table is all zero (a dataflow edge whose layouts never need resharding): N
// has 55 %, most of them to one-strategy nodes; presolve drops them.
constexpr double kZeroTableShare = 0.1;
// Connected nodes whose own cost is zero (their cost is on their edges: N 67 %).
constexpr double kZeroCostShare = 0.5;
// How far back in the schedule the chains look for a partner (in open nodes).
constexpr std::size_t kChainWindow = 24;

class MemoryGenerator {
 public:
  explicit MemoryGenerator(const GeneratorOptions& options)
      : o(options),
        n(std::max<std::size_t>(o.nodes, 1)),
        horizon(static_cast<std::int64_t>(n)),
        rng(o.seed, 0x6e6e),
        degree(n, 0),
        k(n, 1),
        shards(n),
        tensor(n),
        lo(n),
        hi(n) {
    b.set_name("generated-memory-" + std::to_string(o.nodes) + "-s" + std::to_string(o.seed));
  }

  Problem run() {
    plan_roles();
    add_nodes();
    connect_hubs();
    connect_chains();
    b.set_usage_limit(least_memory_limit(b, o.limit_factor));
    return std::move(b).build();
  }

 private:
  // Each node's wanted degree (0: isolated) and strategy count.
  void plan_roles() {
    const double connected = 1.0 - o.isolated_share;
    const double hub = connected > 0 ? std::min(1.0, o.hub_share / connected) : 0.0;
    // The mean over all nodes is isolated x M + connected x (single + (1 - single) x M),
    // for M the multi-strategy mean: solve for M.
    const double single = kSingleShare * connected;
    const double multi_mean =
        std::max(2.0, (o.strategies_mean - single) / std::max(1e-9, 1.0 - single));
    // The tail (uniform from the mean to max_strategies) lifts the mean: the body makes up.
    const double top = static_cast<double>(o.max_strategies);
    const double tail = top > multi_mean ? kTailShare : 0.0;
    const double body =
        std::max(2.0, (multi_mean - tail * (std::ceil(multi_mean) + top) / 2.0) / (1.0 - tail));
    const double stretch = (body - 2.0) / (kStrategyBaseMean - 2.0);
    const int hub_top = std::max(kHubDegree, static_cast<int>(std::min<std::size_t>(n / 24, 3000)));
    for (std::size_t v = 0; v < n; ++v) {
      if (rng.uniform() >= o.isolated_share) {
        if (rng.uniform() < hub) {
          degree[v] = log_uniform(kHubDegree, hub_top);
        } else {
          double roll = rng.uniform() * kDegreeTotal;
          std::size_t bucket = 0;
          while (bucket + 1 < std::size(kDegreeShare) && roll >= kDegreeShare[bucket])
            roll -= kDegreeShare[bucket++];
          degree[v] =
              bucket + 1 == std::size(kDegreeShare)
                  ? log_uniform(kDegreeLo[bucket], kDegreeHi[bucket])
                  : kDegreeLo[bucket] + static_cast<int>(rng.below(static_cast<std::uint64_t>(
                                            kDegreeHi[bucket] - kDegreeLo[bucket] + 1)));
        }
        if (rng.uniform() < (degree[v] >= 17 ? kSingleHubShare : kSingleShare)) continue;
      }
      k[v] = multi_strategies(stretch, multi_mean);
    }
    // One node has exactly max_strategies, so the maximum is what was asked for.
    if (n > 1 && o.max_strategies >= 2) k[n / 2] = static_cast<int>(o.max_strategies);
  }

  int multi_strategies(double stretch, double mean) {
    const int top = static_cast<int>(o.max_strategies);
    if (rng.uniform() < kTailShare && top > mean) {
      const int from = static_cast<int>(std::ceil(mean));
      return from + static_cast<int>(rng.below(static_cast<std::uint64_t>(top - from + 1)));
    }
    double roll = rng.uniform();
    std::size_t i = 0;
    while (i + 1 < std::size(kStrategyShare) && roll >= kStrategyShare[i])
      roll -= kStrategyShare[i++];
    const int scaled = static_cast<int>(std::lround(2.0 + (kStrategyValue[i] - 2.0) * stretch));
    return std::clamp(scaled, 2, std::max(2, top));
  }

  int log_uniform(int from, int to) {
    const double x =
        std::exp(std::log(from) + rng.uniform() * (std::log(to + 1.0) - std::log(from)));
    return std::clamp(static_cast<int>(x), from, to);
  }

  // Strategies shard a tensor d ways (memory and compute divided by d, communication growing
  // with d), so cost and memory pull against each other; nodes follow the schedule, most
  // live 2-3 steps, some a quarter to half of the horizon, hubs long, a few use no memory.
  void add_nodes() {
    std::vector<Cost> cost;
    std::vector<Usage> usage;
    for (std::size_t v = 0; v < n; ++v) {
      const auto kv = static_cast<std::size_t>(k[v]);
      tensor[v] = std::exp(10.0 + 6.0 * rng.uniform());
      const double flops = tensor[v] * (1.0 + 20.0 * rng.uniform());
      const bool free = degree[v] > 0 && rng.uniform() < kZeroCostShare;
      cost.assign(kv, 0);
      usage.assign(kv, 0);
      shards[v].resize(kv);
      for (std::size_t s = 0; s < kv; ++s) {
        const int d = kv == 1 ? 1 : 1 << rng.below(5);  // 1..16 ways
        shards[v][s] = d;
        const Sharded sharded = shard(rng, tensor[v], flops, d);
        if (!free && kv > 1) cost[s] = sharded.cost;
        usage[s] = sharded.usage;
      }
      lo[v] = static_cast<std::int64_t>(v) + static_cast<std::int64_t>(rng.below(3));
      std::int64_t len = 2 + static_cast<std::int64_t>(rng.below(2));
      if (degree[v] >= 17)
        len = horizon / 20 + static_cast<std::int64_t>(rng.below(
                                 static_cast<std::uint64_t>(horizon / 2 - horizon / 20 + 1)));
      else if (rng.uniform() < 0.12)
        len = horizon / 4 +
              static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(horizon / 4 + 1)));
      if (rng.uniform() < 0.05) len = 0;
      hi[v] = lo[v] + len;
      b.add_node(lo[v], hi[v], cost, usage);
    }
  }

  // Hubs (and the 17-64 nodes) read or feed nodes anywhere in their lifetime: partners are
  // drawn at random times there, taking the next node that still wants an edge.
  void connect_hubs() {
    for (std::size_t h = 0; h < n; ++h) {
      if (degree[h] < 17) continue;
      const std::int64_t from = lo[h], span = std::max<std::int64_t>(1, hi[h] - lo[h]);
      while (degree[h] > 0) {
        auto c = static_cast<std::size_t>(std::min<std::int64_t>(
            static_cast<std::int64_t>(n) - 1,
            from + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(span)))));
        std::size_t tries = 0;
        while ((c == h || degree[c] <= 0 || degree[c] >= 17) && tries++ < 64) c = (c + 1) % n;
        if (tries > 64) break;  // nobody near wants an edge: the hub ends smaller
        connect(h, c);
      }
    }
  }

  // The other nodes pair with recent nodes that still want an edge.
  void connect_chains() {
    std::vector<std::size_t> open;
    for (std::size_t v = 0; v < n; ++v) {
      while (degree[v] > 0) {
        while (!open.empty() && degree[open.back()] <= 0) open.pop_back();
        if (open.empty()) break;
        const std::size_t first = open.size() > kChainWindow ? open.size() - kChainWindow : 0;
        const std::size_t u = open[first + rng.below(open.size() - first)];
        if (degree[u] <= 0) {  // filled since: drop it and draw again
          open.erase(std::find(open.begin() + static_cast<std::ptrdiff_t>(first), open.end(), u));
          continue;
        }
        connect(u, v);
      }
      if (degree[v] > 0) open.push_back(v);
    }
  }

  // An edge: all zero (no resharding ever needed), or resharding costs proportional to the
  // tensor, 0 where the shard degrees match, shifted so that the least entry is 0.
  void connect(std::size_t u, std::size_t w) {
    --degree[u];
    --degree[w];
    const auto ku = static_cast<std::size_t>(k[u]), kw = static_cast<std::size_t>(k[w]);
    table.assign(ku * kw, 0);
    if (rng.uniform() >= kZeroTableShare) {
      const double scale = std::min(tensor[u], tensor[w]) * (0.1 + rng.uniform());
      for (std::size_t a = 0; a < ku; ++a)
        for (std::size_t c = 0; c < kw; ++c)
          table[a * kw + c] = resharding(scale, shards[u][a], shards[w][c]);
      const Cost m = *std::min_element(table.begin(), table.end());
      for (Cost& x : table) x -= m;
    }
    b.add_edge(static_cast<NodeId>(u), static_cast<NodeId>(w), b.add_table(table));
  }

  const GeneratorOptions& o;
  const std::size_t n;
  const std::int64_t horizon;
  Rng rng;
  ProblemBuilder b;
  std::vector<int> degree;  // edges a node still wants
  std::vector<int> k;
  std::vector<std::vector<int>> shards;  // each strategy's shard degree
  std::vector<double> tensor;
  std::vector<std::int64_t> lo, hi;
  std::vector<Cost> table;
};

}  // namespace

Problem generate_memory(const GeneratorOptions& options) {
  return MemoryGenerator(options).run();
}

}  // namespace iopddl::inline v0::generated
