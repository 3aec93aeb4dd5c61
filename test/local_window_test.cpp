// The exact window search's parts: its memory profile against the state's usage tree, its
// branch-and-bound on windows with fixed neighbours against brute force, and the
// elimination orders that measure a core.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "local/elimination.hpp"
#include "local/memory_index.hpp"
#include "local/state.hpp"
#include "local/window_memory.hpp"
#include "local/window_search.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;

namespace {

// A random window of 1 to all of r's groups, in random order.
std::vector<std::uint32_t> random_window(Rng& rng, const Reduced& r) {
  std::vector<std::uint32_t> w(r.num_nodes());
  std::iota(w.begin(), w.end(), 0u);
  for (std::size_t i = w.size(); i > 1; --i) std::swap(w[i - 1], w[rng.below(i)]);
  w.resize(1 + rng.below(w.size()));
  return w;
}

}  // namespace

TEST_CASE("the window's memory profile accepts a placement exactly when the usage tree does") {
  Rng rng(77);
  std::size_t accepted = 0, refused = 0;
  for (int round = 0; round < 300; ++round) {
    test::TinySpec spec;
    spec.nodes = 3 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(8));
    spec.max_strategies = 4;
    spec.forbidden_share = 0;
    spec.limit_factor = 1.0 + 0.4 * rng.uniform();
    spec.huge_values = round % 10 == 0;
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p, /*fold=*/round % 2 == 0);  // groups of several members too
    if (r.num_nodes() == 0) continue;
    LocalState state(r);
    std::vector<Strategy> x(r.num_nodes());
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      x[g] = static_cast<Strategy>(rng.below(r.strategies(g)));
    state.assign(x);
    const std::vector<std::uint32_t> window = random_window(rng, r);
    for (std::uint32_t g : window) state.lift(g);
    WindowMemory memory;
    memory.build(state, window);
    // Place the window in order, each at a random strategy (a few tries); take a placement
    // back now and then.
    for (std::size_t i = 0; i < window.size(); ++i) {
      const std::uint32_t g = window[i];
      bool placed = false;
      for (int attempt = 0; attempt < 3 && !placed; ++attempt) {
        const auto s = static_cast<Strategy>(rng.below(r.strategies(g)));
        const bool ours = memory.place(i, s);
        REQUIRE(ours == state.place(g, s, state.delta(g, s)));
        (ours ? accepted : refused) += 1;
        if (!ours) continue;
        if (rng.uniform() < 0.3) {
          memory.unplace(i, s);
          state.unplace(g, x[g], state.delta(g, x[g]));
          continue;
        }
        placed = true;
      }
      if (!placed) break;
    }
  }
  CHECK(accepted > 300);
  CHECK(refused > 100);
}

TEST_CASE("a window re-solved with its neighbours fixed is the brute-force best of the window") {
  // The branch-and-bound's bound counts the edges to placed window nodes and to fixed
  // nodes: on any window of any instance, its answer is the best over the window's
  // assignments with the rest held, among those within the limit and forbidden-free.
  Rng rng(5);
  int compared = 0;
  for (int round = 0; round < 300; ++round) {
    test::TinySpec spec;
    spec.nodes = 3 + static_cast<int>(rng.below(5));
    spec.edges = 2 + static_cast<int>(rng.below(10));
    spec.max_strategies = 4;
    spec.forbidden_share = 0.1;
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p, /*fold=*/false);
    LocalState state(r);
    state.assign(least_memory_assignment(p));
    if (!state.feasible() || state.cost() >= kForbidden) continue;
    const std::vector<Strategy> start = state.assignment();
    // Brute force over the window's groups, the others held at the start.
    const std::vector<std::uint32_t> window = random_window(rng, r);
    std::vector<Strategy> x = start;
    Total best = state.cost();
    const std::function<void(std::size_t)> enumerate = [&](std::size_t i) {
      if (i == window.size()) {
        const Evaluation e = evaluate(p, r.expand(x));
        if (e.feasible && e.cost < kForbidden) best = std::min(best, e.cost);
        return;
      }
      for (Strategy s = 0; s < r.strategies(window[i]); ++s) {
        x[window[i]] = s;
        enumerate(i + 1);
      }
      x[window[i]] = start[window[i]];
    };
    enumerate(0);
    WindowSearch search(r);
    StopControl stop;
    const WindowSearch::Exact e = search.solve_window(state, window, 1u << 30, stop);
    REQUIRE(e.complete);
    CHECK(state.feasible());
    const Evaluation ev = evaluate(p, r.expand(state.assignment()));
    CHECK(ev.feasible);
    CHECK(ev.cost == state.cost());
    CHECK(ev.cost == best);
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      if (std::find(window.begin(), window.end(), g) == window.end())
        CHECK(state.at(g) == start[g]);
    ++compared;
  }
  CHECK(compared > 100);
}

TEST_CASE("min-fill elimination gives the width of trees, cycles and cliques") {
  const auto build = [](int n, const std::vector<std::pair<int, int>>& edges) {
    ProblemBuilder b;
    const std::vector<Cost> costs = {1, 2, 3};
    const std::vector<Usage> usages = {1, 1, 1};
    for (int v = 0; v < n; ++v) b.add_node(0, 1, costs, usages);
    const auto t = b.add_table(std::vector<Cost>(9, 1));
    for (auto [u, v] : edges) b.add_edge(static_cast<NodeId>(u), static_cast<NodeId>(v), t);
    return std::move(b).build();
  };
  const auto width = [](const Problem& p) {
    Reduced r = Reduced::build(p, /*fold=*/false);
    const Elimination el = min_fill_order(r);
    std::vector<std::uint32_t> sorted = el.order;
    std::sort(sorted.begin(), sorted.end());
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g) REQUIRE(sorted[g] == g);  // a permutation
    return el;
  };
  // A path, a star, a cycle of 7, a clique of 5, a 3x3 grid.
  CHECK(width(build(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}})).width == 1);
  CHECK(width(build(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}})).width == 1);
  CHECK(width(build(7, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 0}})).width == 2);
  std::vector<std::pair<int, int>> clique;
  for (int u = 0; u < 5; ++u)
    for (int v = u + 1; v < 5; ++v) clique.push_back({u, v});
  const Elimination k5 = width(build(5, clique));
  CHECK(k5.width == 4);
  CHECK(k5.log2_bag == doctest::Approx(5 * std::log2(3.0)));
  std::vector<std::pair<int, int>> grid;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (j < 2) grid.push_back({3 * i + j, 3 * i + j + 1});
      if (i < 2) grid.push_back({3 * i + j, 3 * i + j + 3});
    }
  CHECK(width(build(9, grid)).width == 3);
}

TEST_CASE("maximum cardinality search takes the most connected next, ties to the earlier") {
  ProblemBuilder b;
  const std::vector<Cost> costs = {1, 2};
  const std::vector<Usage> usages = {1, 1};
  for (int v = 0; v < 6; ++v) b.add_node(0, 1, costs, usages);
  const auto t = b.add_table(std::vector<Cost>(4, 1));
  for (NodeId v = 1; v < 5; ++v) b.add_edge(v - 1, v, t);  // a path 0-...-4, and 5 alone
  b.add_edge(0, 2, t);                                     // and a triangle 0-1-2
  const Problem p = std::move(b).build();
  const Reduced r = Reduced::build(p, /*fold=*/false);
  const std::vector<std::uint32_t> groups = {3, 5, 4, 1, 0, 2};
  std::vector<std::uint32_t> slot(r.num_nodes(), kNoIndex);
  for (std::size_t i = 0; i < groups.size(); ++i) slot[groups[i]] = static_cast<std::uint32_t>(i);
  // From 3: 4 and 2 have one ordered neighbour each (4 is earlier), then 2; then 1 and 0
  // have one each (1 is earlier); then 0 (two); 5, with none, last.
  CHECK(max_cardinality_order(r, groups, slot) == std::vector<std::uint32_t>{3, 4, 2, 1, 0, 5});
  // Groups outside the set are ignored: without 2, 1 and 0 are reached from nothing.
  slot.assign(r.num_nodes(), kNoIndex);
  const std::vector<std::uint32_t> some = {0, 3, 1, 4};
  for (std::size_t i = 0; i < some.size(); ++i) slot[some[i]] = static_cast<std::uint32_t>(i);
  CHECK(max_cardinality_order(r, some, slot) == std::vector<std::uint32_t>{0, 1, 3, 4});
}
