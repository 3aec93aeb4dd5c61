// Presolve (src/reduce/): exact, and undone exactly.
#include <doctest/doctest.h>

#include <numeric>
#include <set>

#include "iopddl/generate.hpp"
#include "iopddl/solve.hpp"
#include "lagrange/region.hpp"
#include "lagrange/trws.hpp"
#include "local/compound.hpp"
#include "local/crossover.hpp"
#include "local/memory_index.hpp"
#include "local/state.hpp"
#include "local/tree_block.hpp"
#include "local/window_search.hpp"
#include "local_support.hpp"
#include "partition/regions.hpp"
#include "portfolio/portfolio.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;
using namespace iopddl::test;

TEST_CASE("presolve then undo keeps the brute-force optimum and every cost exact") {
  Rng rng(21);
  int checked = 0;
  for (int round = 0; round < 300; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(9));
    spec.forbidden_share = 0.5 * rng.uniform();
    spec.limit_factor = 1.0 + 0.4 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p);
    if (r.stats().infeasible_forbidden) continue;
    std::optional<Total> best;
    test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
      LocalState st(r);
      st.assign(x);
      Evaluation e = evaluate(p, r.expand(x));
      // Reduced costs are the input's costs; sums of forbidden entries saturate at 10^18.
      if (e.forbidden_picks == 0)
        CHECK(e.cost == st.cost());
      else
        CHECK(st.cost() >= kForbidden);
      CHECK(e.feasible == st.feasible());
      if (e.feasible && e.forbidden_picks == 0 && (!best || e.cost < *best)) best = e.cost;
    });
    CHECK(best == test::brute_force_optimum(p, /*forbidden_free=*/true));
    // One reduced edge per pair of groups; every input edge is inside a group (a node
    // cost), the first of its pair, or summed into it, and the counts say which.
    std::vector<std::uint32_t> group(p.num_nodes());
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi)
        group[r.member_node(mi)] = g;
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs, reduced_pairs;
    std::size_t inside = 0;
    for (EdgeId e = 0; e < p.num_edges(); ++e) {
      const std::uint32_t a = group[p.edge_u(e)], b = group[p.edge_v(e)];
      if (a == b)
        ++inside;
      else
        pairs.insert(std::minmax(a, b));
    }
    for (std::uint32_t e = 0; e < r.num_edges(); ++e)
      reduced_pairs.insert({r.edge_u(e), r.edge_v(e)});
    CHECK(reduced_pairs == pairs);
    CHECK(r.num_edges() == pairs.size());
    CHECK(r.stats().internal_edges == inside);
    CHECK(r.stats().parallel_edges == p.num_edges() - inside - pairs.size());
    // Row and column minima have moved into node costs (input costs are non-negative).
    for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
      const Strategy ku = r.strategies(r.edge_u(e)), kv = r.strategies(r.edge_v(e));
      for (Strategy a = 0; a < ku; ++a) {
        Cost m = kForbidden;
        for (Strategy b = 0; b < kv; ++b) m = std::min(m, r.table(e)[a * kv + b]);
        CHECK((m == 0 || is_forbidden(m)));
      }
      for (Strategy b = 0; b < kv; ++b) {
        Cost m = kForbidden;
        for (Strategy a = 0; a < ku; ++a) m = std::min(m, r.table(e)[a * kv + b]);
        CHECK((m == 0 || is_forbidden(m)));
      }
    }
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("presolve folds a chain of forced nodes, in either edge direction, in one round") {
  // A path whose every edge allows one strategy of the next node per strategy of the
  // previous (a random permutation), written in random direction, plus random full edges
  // and memory: the path collapses into one group and the optimum is kept.
  Rng rng(5);
  for (int round = 0; round < 60; ++round) {
    ProblemBuilder b;
    const int n = 3 + static_cast<int>(rng.below(5)), k = 1 + static_cast<int>(rng.below(3));
    for (int v = 0; v < n; ++v) {
      std::vector<Cost> c(static_cast<std::size_t>(k));
      std::vector<Usage> u(static_cast<std::size_t>(k));
      for (auto& x : c) x = static_cast<Cost>(rng.below(50));
      for (auto& x : u) x = static_cast<Usage>(1 + rng.below(9));
      b.add_node(static_cast<std::int64_t>(rng.below(3)), 3, c, u);
    }
    for (int v = 0; v + 1 < n; ++v) {
      std::vector<Strategy> perm(static_cast<std::size_t>(k));
      std::iota(perm.begin(), perm.end(), 0);
      for (std::size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
      const bool forward = rng.below(2) == 0;
      std::vector<Cost> t(static_cast<std::size_t>(k * k), kForbidden);
      for (int a = 0; a < k; ++a) {
        const int bb = perm[static_cast<std::size_t>(a)];
        t[static_cast<std::size_t>(forward ? a * k + bb : bb * k + a)] =
            static_cast<Cost>(rng.below(50));
      }
      const auto x = static_cast<NodeId>(v), y = static_cast<NodeId>(v + 1);
      b.add_edge(forward ? x : y, forward ? y : x, b.add_table(t));
    }
    const int extra = static_cast<int>(rng.below(3));
    for (int i = 0; i < extra; ++i) {
      std::vector<Cost> t(static_cast<std::size_t>(k * k));
      for (auto& x : t) x = static_cast<Cost>(rng.below(50));
      b.add_edge(static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(n))),
                 static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(n))), b.add_table(t));
    }
    b.set_usage_limit(static_cast<Usage>(6 * n));
    Problem p = std::move(b).build();
    Reduced r = Reduced::build(p);
    if (r.stats().infeasible_forbidden) continue;
    CHECK(r.num_nodes() == 1);
    CHECK(r.stats().folded_nodes == static_cast<std::size_t>(n - 1));
    CHECK(r.stats().rounds <= 3);  // one to fold, at most one for dominance, one to finish
    std::optional<Total> best;
    test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
      Evaluation e = evaluate(p, r.expand(x));
      CHECK(e.forbidden_picks == 0);
      if (e.feasible && (!best || e.cost < *best)) best = e.cost;
    });
    CHECK(best == test::brute_force_optimum(p, /*forbidden_free=*/true));
  }
}

TEST_CASE("presolve removes a strategy dominated in cost, edges and usage, and only that") {
  ProblemBuilder b;
  b.set_usage_limit(100);
  const Cost c0[] = {10, 12, 10}, c1[] = {0, 0};
  const Usage u0[] = {5, 5, 5}, u1[] = {2, 1};
  b.add_node(0, 2, c0, u0);
  b.add_node(0, 2, c1, u1);
  // Strategy 1 of node 0 is no better than strategy 0 anywhere; strategy 2 is cheaper
  // against node 1's strategy 0 and survives.
  const Cost t[] = {1, 4, 2, 5, 0, 9};
  b.add_edge(0, 1, b.add_table(t));
  Problem p = std::move(b).build();
  Reduced r = Reduced::build(p);
  CHECK(r.stats().dominated_strategies == 1);
  REQUIRE(r.num_nodes() == 2);
  CHECK(r.strategies(0) == 2);
  CHECK(r.strategies(1) == 2);
  std::vector<Strategy> x{1, 0};  // reduced strategy 1 of node 0 is input strategy 2
  CHECK(r.expand(x) == std::vector<Strategy>{2, 0});
  LocalState st(r);
  st.assign(x);
  CHECK(st.cost() == 10 + 0 + 0);
  CHECK(r.stats().minima_moved == 1);
}
