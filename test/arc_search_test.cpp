// The soft arc consistency search in exact integers (exact/arc_search, the proof search's
// engine): against brute force on thousands of tiny networks whose node costs and edge
// entries may be negative (a reparametrisation's are), with a placement rule that depends
// on the placed nodes (as the memory limit does): at most `cap` nodes at strategy 0.
#include "exact/arc_search.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <optional>

#include "iopddl/rng.hpp"

namespace iopddl {

namespace {

struct Network {
  ArcGraph<Total> graph;
  std::vector<std::vector<Total>> tables;
  std::vector<Total> unary;
  std::vector<std::size_t> begin;  // per node: its first entry in unary

  Total value(const std::vector<Strategy>& x) const {
    Total sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) sum += unary[begin[i] + x[i]];
    for (std::size_t e = 0; e < tables.size(); ++e)
      sum += tables[e][static_cast<std::size_t>(x[graph.eu[e]]) * graph.k[graph.ev[e]] +
                       x[graph.ev[e]]];
    return sum;
  }
};

// Values from -`spread` to 20 (spread 0: none negative).
Network random_network(Rng& rng, int nodes, int edges, int max_strategies, int spread) {
  Network net;
  const auto value = [&] { return static_cast<Total>(rng.below(21 + spread)) - spread; };
  net.graph.incident.resize(nodes);
  net.begin.push_back(0);
  for (int i = 0; i < nodes; ++i) {
    net.graph.k.push_back(1 + static_cast<Strategy>(rng.below(max_strategies)));
    for (Strategy s = 0; s < net.graph.k.back(); ++s) net.unary.push_back(value());
    net.begin.push_back(net.unary.size());
  }
  for (int e = 0; e < edges && nodes > 1; ++e) {
    const auto u = static_cast<std::uint32_t>(rng.below(nodes));
    auto v = static_cast<std::uint32_t>(rng.below(nodes - 1));
    if (v >= u) ++v;
    net.graph.eu.push_back(u);
    net.graph.ev.push_back(v);
    net.graph.incident[u].push_back(static_cast<std::uint32_t>(e));
    net.graph.incident[v].push_back(static_cast<std::uint32_t>(e));
    net.tables.emplace_back();
    for (std::size_t i = 0; i < static_cast<std::size_t>(net.graph.k[u]) * net.graph.k[v]; ++i)
      net.tables.back().push_back(value());
  }
  for (const auto& t : net.tables) net.graph.table.push_back(t.data());
  return net;
}

int zeros(const std::vector<Strategy>& x) {
  return static_cast<int>(std::count(x.begin(), x.end(), Strategy{0}));
}

// The least value over the labellings with at most `cap` zeros.
std::optional<Total> brute_force(const Network& net, int cap) {
  std::vector<Strategy> x(net.graph.k.size(), 0);
  std::optional<Total> least;
  for (;;) {
    if (zeros(x) <= cap && (!least || net.value(x) < *least)) least = net.value(x);
    std::size_t i = 0;
    while (i < x.size() && ++x[i] == net.graph.k[i]) x[i++] = 0;
    if (i == x.size()) return least;
  }
}

// Placements keep at most `cap` zeros; a leaf is worth its c0, which the test checks
// against the network's value: the reparametrisation never changes a labelling's value.
struct CappedZeros final : ArcSearch<Total>::Hooks {
  const Network& net;
  int cap, placed_zeros = 0, most_zeros = 0;
  bool values_agree = true;
  CappedZeros(const Network& n, int c) : net(n), cap(c) {}
  bool fits(std::uint32_t, Strategy a) override {
    if (a != 0) return true;
    if (placed_zeros == cap) return false;
    most_zeros = std::max(most_zeros, ++placed_zeros);
    return true;
  }
  void release(std::uint32_t, Strategy a) override { placed_zeros -= a == 0; }
  std::optional<Total> leaf(const std::vector<Strategy>& x, Total c0) override {
    values_agree = values_agree && c0 == net.value(x) && zeros(x) <= cap;
    return c0;
  }
};

}  // namespace

TEST_CASE("the integer arc consistency search finds the least value under a placement rule") {
  Rng rng(2027);
  int improved = 0, capped = 0;
  for (int round = 0; round < 3000; ++round) {
    const int nodes = 1 + static_cast<int>(rng.below(7));
    const Network net = random_network(rng, nodes, static_cast<int>(rng.below(12)),
                                       1 + static_cast<int>(rng.below(4)), round % 3 == 0 ? 0 : 15);
    const int cap = static_cast<int>(rng.below(nodes + 1));
    CAPTURE(round);
    const std::optional<Total> least = brute_force(net, cap);
    // A start within the rule: the largest strategy of every node (a zero only where it is
    // the only one), its value the first bar.
    std::vector<Strategy> best(nodes);
    for (int i = 0; i < nodes; ++i) best[i] = net.graph.k[i] - 1;
    if (zeros(best) > cap) continue;  // no labelling within the rule
    REQUIRE(least.has_value());
    const Total start = net.value(best);
    ArcSearch<Total> search(net.graph);
    CappedZeros hooks(net, cap);
    const auto out = search.run(net.unary, best, start, 0, hooks, 1'000'000, StopControl());
    CHECK(out.complete);
    CHECK(hooks.values_agree);
    CHECK(hooks.placed_zeros == 0);  // every placement released
    CHECK(out.found == (*least < start));
    CHECK(net.value(best) == std::min(start, *least));
    // The root's bound: no labelling within the rule below the first bar is below it.
    if (*least < start) CHECK(out.root <= *least);
    improved += out.found;
    capped += hooks.most_zeros == cap && cap < nodes;
  }
  CHECK(improved > 1000);
  CHECK(capped > 300);
}

}  // namespace iopddl
