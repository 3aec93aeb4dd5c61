// Branch-and-bound on priced cost networks (exact/priced_search): against brute force over
// every labelling of thousands of tiny networks, with forbidden entries, ties and parallel
// edges; within a node limit it never returns a worse labelling; same input, same answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "exact/priced_search.hpp"
#include "iopddl/rng.hpp"

namespace iopddl::inline v0 {

namespace {

// Costs 0-20 in whole units (ties) or with fractions (prices), some entries forbidden.
CostNetwork random_network(Rng& rng, int nodes, int edges, int max_strategies, double forbidden,
                           bool fractions) {
  CostNetwork net;
  std::vector<Strategy> k;
  for (int g = 0; g < nodes; ++g) {
    k.push_back(1 + static_cast<Strategy>(rng.below(max_strategies)));
    net.add_node(k.back());
  }
  const auto value = [&] {
    if (rng.uniform() < forbidden) return kInfinite;
    const double v = static_cast<double>(rng.below(21));
    return fractions ? v * rng.uniform() * 1000.0 : v;
  };
  for (int e = 0; e < edges && nodes > 1; ++e) {
    const auto u = static_cast<std::uint32_t>(rng.below(nodes));
    auto v = static_cast<std::uint32_t>(rng.below(nodes - 1));
    if (v >= u) ++v;
    const std::uint32_t id = net.add_edge(u, v);
    for (std::size_t i = 0; i < static_cast<std::size_t>(k[u]) * k[v]; ++i)
      net.table(id)[i] = value();
  }
  net.finish();
  for (int g = 0; g < nodes; ++g)
    for (Strategy s = 0; s < k[g]; ++s) net.unary(static_cast<std::uint32_t>(g))[s] = value();
  return net;
}

// The least energy over every labelling.
double brute_force(const CostNetwork& net) {
  std::vector<Strategy> x(net.num_nodes(), 0);
  double least = net.energy(x);
  for (;;) {
    std::size_t g = 0;
    while (g < x.size() && ++x[g] == net.strategies(static_cast<std::uint32_t>(g))) x[g++] = 0;
    if (g == x.size()) return least;
    least = std::min(least, net.energy(x));
  }
}

std::vector<Strategy> random_labelling(Rng& rng, const CostNetwork& net) {
  std::vector<Strategy> x(net.num_nodes());
  for (std::uint32_t g = 0; g < x.size(); ++g)
    x[g] = static_cast<Strategy>(rng.below(net.strategies(g)));
  return x;
}

}  // namespace

TEST_CASE("the priced branch-and-bound finds the least energy of every tiny network") {
  Rng rng(2026);
  int improved = 0;
  for (int round = 0; round < 2000; ++round) {
    const int nodes = 1 + static_cast<int>(rng.below(7));
    const CostNetwork net = random_network(rng, nodes, static_cast<int>(rng.below(13)),
                                           1 + static_cast<int>(rng.below(4)),
                                           round % 3 == 0 ? 0.0 : 0.25, round % 2 == 0);
    CAPTURE(round);
    const double least = brute_force(net);
    std::vector<Strategy> x = random_labelling(rng, net);
    const double start = net.energy(x);
    PricedSearch search(net);
    const auto out = search.run(net, x, 1'000'000, StopControl());
    CHECK(out.complete);
    REQUIRE(x.size() == net.num_nodes());
    for (std::uint32_t g = 0; g < x.size(); ++g) REQUIRE(x[g] < net.strategies(g));
    // Up to the search's tolerance (1e-9 of the energy at stake).
    const double energy = net.energy(x);
    CHECK(energy <= least + 1e-9 * std::max(1.0, std::abs(start)));
    CHECK(out.improved == (energy < start));
    CHECK(out.energy == energy);
    improved += out.improved;
  }
  CHECK(improved > 1000);
}

TEST_CASE("within a node limit the priced branch-and-bound keeps the better labelling") {
  Rng rng(7);
  int cut = 0;
  for (int round = 0; round < 300; ++round) {
    const CostNetwork net = random_network(rng, 12, 30, 5, 0.1, true);
    std::vector<Strategy> x = random_labelling(rng, net);
    const std::vector<Strategy> start = x;
    PricedSearch search(net);
    const std::uint64_t limit = 1 + rng.below(40);
    const auto out = search.run(net, x, limit, StopControl());
    cut += !out.complete;
    CHECK(net.energy(x) <= net.energy(start));
    CHECK(out.energy == net.energy(x));
    CHECK((x != start) == out.improved);
    // Same network, same start, same limit: the same answer, also from a second search
    // object (nothing carried over between runs).
    std::vector<Strategy> again = start;
    PricedSearch(net).run(net, again, limit, StopControl());
    std::vector<Strategy> twice = start;
    search.run(net, twice, limit, StopControl());
    CHECK(again == x);
    CHECK(twice == x);
  }
  CHECK(cut > 100);
}

}  // namespace iopddl::inline v0
