// Local search (src/local/): the incremental state, tree blocks, compound moves, crossover
// and windows, against the reference evaluator and brute force on tiny instances.
#include <doctest/doctest.h>

#include <numeric>

#include "iopddl/generate.hpp"
#include "iopddl/solve.hpp"
#include "lagrange/region.hpp"
#include "lagrange/trws.hpp"
#include "local/compound.hpp"
#include "local/crossover.hpp"
#include "local/memory_index.hpp"
#include "local/relief.hpp"
#include "local/repair_moves.hpp"
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

TEST_CASE("the delta evaluator equals the reference evaluator after random move sequences") {
  Rng rng(8);
  for (int round = 0; round < 100; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(10));
    spec.edges = static_cast<int>(rng.below(20));
    spec.max_strategies = 4;
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p, /*fold=*/round % 2 == 0);
    if (r.stats().infeasible_forbidden) continue;
    LocalState st(r);
    std::vector<Strategy> x(r.num_nodes(), 0);
    st.assign(x);
    for (int step = 0; step < 50; ++step) {
      const auto g = static_cast<std::uint32_t>(rng.below(r.num_nodes()));
      const auto s = static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(r.strategies(g))));
      // Cached deltas (of a random group, after moves and window placements) are exact.
      const auto h = static_cast<std::uint32_t>(rng.below(r.num_nodes()));
      const auto dh = st.deltas(h);
      for (Strategy t = 0; t < r.strategies(h); ++t) REQUIRE(dh[t] == st.delta(h, t));
      if (step % 10 == 9) {  // a window search's primitives: lift, place elsewhere, unplace
        const Strategy back = st.at(g);
        st.lift(g);
        if (st.place(g, s, st.delta(g, s))) st.unplace(g, back, st.delta(g, back));
        st.force(g, back, st.delta(g, back));
      }
      st.move(g, s, st.deltas(g)[s]);
      Evaluation e = evaluate(p, r.expand(st.assignment()));
      if (e.forbidden_picks == 0)
        REQUIRE(e.cost == st.cost());
      else
        REQUIRE(st.cost() >= kForbidden);
      CHECK(e.peak_usage == (p.num_segments() ? st.peak() : 0));
      CHECK(e.feasible == st.feasible());
    }
  }
}

TEST_CASE("the repair's kept move list equals one rebuilt at every point, moves between") {
  // Generated memory-family instances: folded groups with several members, hubs whose move
  // makes hundreds of neighbours' cost changes stale, points visited mostly in a row (as a
  // repair does) and sometimes far apart.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    GeneratorOptions g;
    g.family = Family::kMemory;
    g.nodes = 300 + 100 * seed;
    g.seed = seed;
    const Problem p = generate_problem(g);
    const Reduced r = Reduced::build(p);
    const MemoryIndex index(r);
    Rng rng(seed);
    LocalState state(r);
    state.assign(random_labels(rng, r));
    RepairMoves kept(r, index);
    std::size_t t = 0, compared = 0;
    for (int step = 0; step < 300; ++step) {
      CAPTURE(seed);
      CAPTURE(step);
      t = rng.below(4) == 0 ? rng.below(p.num_segments())
                            : std::min(t + rng.below(3), p.num_segments() - 1);
      std::uint64_t work = 0;
      const std::set<ReliefMove>& list = kept.at(state, t, work);
      const std::vector<ReliefMove> got(list.begin(), list.end());
      std::vector<ReliefMove> want;
      ReliefMoves rebuilt(index);
      const std::uint64_t want_work = rebuilt.at(
          state, t, nullptr, ReliefMoves::kAnyCost,
          [&](std::uint32_t h, Strategy s, Total d, Total freed) {
            want.push_back({static_cast<double>(d) / static_cast<double>(freed), h, s, d});
          });
      std::sort(want.begin(), want.end());
      CHECK(work == want_work);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].g == want[i].g);
        CHECK(got[i].s == want[i].s);
        CHECK(got[i].d == want[i].d);
      }
      compared += got.size();
      // Move up to three groups (hubs among them) as a repair step would.
      for (std::uint64_t m = rng.below(4); m > 0; --m) {
        const auto h = static_cast<std::uint32_t>(rng.below(r.num_nodes()));
        const auto s =
            static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(r.strategies(h))));
        state.move(h, s, state.delta(h, s));
        kept.moved(h);
      }
    }
    CHECK(compared > 1000);
  }
}

TEST_CASE("a tree block over a tree-shaped instance relabels it to the optimum") {
  Rng rng(12);
  for (int round = 0; round < 100; ++round) {
    Problem p = random_tree_problem(rng, 2);
    Reduced r = Reduced::build(p, /*fold=*/false);
    LocalState state(r);
    state.assign(std::vector<Strategy>(r.num_nodes(), 0));
    TreeBlockSearch search(r);
    search.improve(state, rng, static_cast<std::uint32_t>(rng.below(r.num_nodes())), r.num_nodes());
    CHECK(state.cost() == *test::brute_force_optimum(p));
    CHECK(evaluate(p, r.expand(state.assignment())).cost == state.cost());
  }
}

TEST_CASE("tree blocks keep a feasible state feasible and never raise its cost") {
  Rng rng(13);
  for_random_feasible_states(rng, 200, 6, 0.3,
                             [&](const Problem& p, const Reduced& r, LocalState& state) {
                               MemoryIndex index(r);  // every other state: with relief
                               TreeBlockSearch search(r, rng.below(2) ? &index : nullptr);
                               StopControl stop;
                               for (int step = 0; step < 5; ++step) {
                                 const Total before = state.cost();
                                 search.run(state, rng, 3, 1 + rng.below(6), stop);
                                 check_no_worse_and_exact(p, r, state, before);
                               }
                             });
}

namespace {

// Two nodes on one interval joined by an equality-like edge (0 on the diagonal, 20 off it),
// optionally a third node with no edge; the state starts at `start`.
struct PricedBlockCase {
  Problem p;
  Reduced r;
  MemoryIndex index;
  LocalState state;
  PricedBlockCase(Problem problem, const std::vector<Strategy>& start)
      : p(std::move(problem)), r(Reduced::build(p, /*fold=*/false)), index(r), state(r) {
    std::vector<Strategy> x;
    REQUIRE(r.contract(start, x));
    state.assign(x);
    REQUIRE(state.feasible());
  }
  Total tree_block(bool relief) {
    TreeBlockSearch search(r, relief ? &index : nullptr);
    Rng rng(1);
    search.improve(state, rng, 0, 2);
    return state.cost();
  }
};

Problem equal_pair(std::span<const Cost> ca, std::span<const Usage> ua, std::span<const Cost> cb,
                   std::span<const Usage> ub, Usage limit, bool third) {
  ProblemBuilder b;
  b.add_node(0, 2, ca, ua);
  b.add_node(0, 2, cb, ub);
  std::vector<Cost> t(ca.size() * cb.size(), 20);
  for (std::size_t s = 0; s < std::min(ca.size(), cb.size()); ++s) t[s * cb.size() + s] = 0;
  b.add_edge(0, 1, b.add_table(t));
  if (third) {
    const std::vector<Cost> cc{0, 3};
    const std::vector<Usage> uc{6, 0};
    b.add_node(0, 2, cc, uc);
  }
  b.set_usage_limit(limit);
  return std::move(b).build();
}

}  // namespace

TEST_CASE("a priced tree block finds the best labelling within the limit") {
  // From (1, 1) at cost 13: (0, 0) costs 0 but takes 20 units of the 12; (2, 2) costs 5 and
  // takes 10. Any single move pays 20 on the edge, so 1-opt is stuck; the block's unpriced
  // labelling overloads, a priced one reaches the optimum.
  const std::vector<Cost> ca{0, 9, 3}, cb{0, 4, 2};
  const std::vector<Usage> u{10, 1, 5};
  PricedBlockCase c(equal_pair(ca, u, cb, u, 12, false), {1, 1});
  REQUIRE(c.state.cost() == 13);
  CHECK(c.tree_block(false) == 5);
  CHECK(c.state.feasible());
  CHECK(c.state.cost() == *test::brute_force_optimum(c.p));
}

TEST_CASE("a tree block that overloads a time point brings in nodes live there") {
  // From (1, 1, 0) at cost 18 and 8 units of 12: (0, 0) saves 18 on the pair but only fits
  // when the third node, which shares no edge with them, frees its 6 units for 3.
  const std::vector<Cost> c2{0, 9};
  const std::vector<Usage> u2{6, 1};
  {
    PricedBlockCase c(equal_pair(c2, u2, c2, u2, 12, true), {1, 1, 0});
    REQUIRE(c.state.cost() == 18);
    CHECK(c.tree_block(false) == 18);  // the pair alone cannot fit (0, 0)
  }
  PricedBlockCase c(equal_pair(c2, u2, c2, u2, 12, true), {1, 1, 0});
  CHECK(c.tree_block(true) == 3);
  CHECK(c.state.feasible());
  CHECK(c.state.cost() == *test::brute_force_optimum(c.p));
}

TEST_CASE("a compound move trades memory between nodes that share no edge") {
  // a saves 10 by taking 5 more units; b frees them for 3. Either move alone is blocked or
  // worse, so 1-opt is stuck at cost 10; the chain reaches the optimum 3.
  ProblemBuilder b;
  const std::vector<Cost> ca{10, 0}, cb{0, 3};
  const std::vector<Usage> ua{5, 10}, ub{10, 5};
  b.add_node(0, 2, ca, ua);
  b.add_node(1, 3, cb, ub);
  b.set_usage_limit(15);
  Problem p = std::move(b).build();
  Reduced r = Reduced::build(p, /*fold=*/false);
  MemoryIndex index(r);
  LocalState state(r);
  std::vector<Strategy> x;
  REQUIRE(r.contract(std::vector<Strategy>{0, 0}, x));
  state.assign(x);
  REQUIRE(state.cost() == 10);
  REQUIRE(state.feasible());
  CompoundMoves moves(r, index);
  Rng rng(1);
  StopControl stop;
  CHECK(moves.run(state, rng, stop, 0) == 0);  // no work allowed: nothing done
  CHECK(state.cost() == 10);
  CHECK(moves.run(state, rng, stop, UINT64_MAX) == 1);
  CHECK(state.cost() == 3);
  CHECK(state.feasible());
  CHECK(state.cost() == *test::brute_force_optimum(p));
}

TEST_CASE("compound moves keep a feasible state feasible, never raise its cost, stay exact") {
  Rng rng(17);
  int improved = 0;
  for_random_feasible_states(rng, 300, 8, 0.2,
                             [&](const Problem& p, const Reduced& r, LocalState& state) {
                               MemoryIndex index(r);
                               CompoundMoves moves(r, index);
                               StopControl stop;
                               const Total before = state.cost();
                               moves.run(state, rng, stop, UINT64_MAX);
                               check_no_worse_and_exact(p, r, state, before);
                               improved += state.cost() < before;
                             });
  CHECK(improved > 0);
}

TEST_CASE("crossover without a memory limit reaches the best mix of the parents' components") {
  // The oracle, from the definition: every mix of base and donor labels over the groups
  // where they differ in which an edge never joins a base label to a donor label between
  // two such groups; without a limit the crossover must reach the cheapest.
  Rng rng(31);
  int mixed = 0;
  for (int round = 0; round < 300; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(8));
    spec.edges = static_cast<int>(rng.below(11));
    spec.forbidden_share = 0;
    spec.limit_factor = 0;
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p, /*fold=*/false);
    const std::vector<Strategy> x = random_labels(rng, r), y = random_labels(rng, r);
    std::vector<std::uint32_t> differ;
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      if (x[g] != y[g]) differ.push_back(g);
    LocalState mix(r);
    std::optional<Total> best;
    for (std::uint32_t mask = 0; mask < (1u << differ.size()); ++mask) {
      std::vector<Strategy> z = x;
      std::vector<int> side(r.num_nodes(), -1);
      for (std::size_t i = 0; i < differ.size(); ++i) {
        side[differ[i]] = (mask >> i) & 1;
        if (side[differ[i]]) z[differ[i]] = y[differ[i]];
      }
      bool consistent = true;
      for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
        const std::uint32_t u = r.edge_u(e), v = r.other(e, u);
        if (side[u] >= 0 && side[v] >= 0 && side[u] != side[v]) consistent = false;
      }
      if (!consistent) continue;
      mix.assign(z);
      if (!best || mix.cost() < *best) best = mix.cost();
    }
    LocalState state(r);
    state.assign(x);
    const Total base = state.cost();
    mix.assign(y);
    const Total donor = mix.cost();
    Crossover crossover(r);
    StopControl stop;
    crossover.run(state, y, rng, stop);
    CHECK(state.cost() == *best);
    CHECK(evaluate(p, r.expand(state.assignment())).cost == state.cost());
    mixed += state.cost() < std::min(base, donor);
  }
  CHECK(mixed > 0);
}

TEST_CASE("crossover keeps a feasible state feasible, never raises its cost, stays exact") {
  Rng rng(37);
  int improved = 0;
  for_random_feasible_states(rng, 300, 8, 0.3,
                             [&](const Problem& p, const Reduced& r, LocalState& state) {
                               const std::vector<Strategy> x = state.assignment();
                               const std::vector<Strategy> y = random_labels(rng, r);
                               Crossover crossover(r);
                               StopControl stop;
                               const Total before = state.cost();
                               crossover.run(state, y, rng, stop);
                               check_no_worse_and_exact(p, r, state, before);
                               improved += state.cost() < before;
                               for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
                                 CHECK((state.at(g) == x[g] || state.at(g) == y[g]));
                             });
  CHECK(improved > 0);
}

TEST_CASE("a window covering a whole connected instance re-solves it to the optimum") {
  Rng rng(31);
  int compared = 0;
  for (int round = 0; round < 150; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(5));
    spec.edges = 0;
    spec.forbidden_share = 0.2;
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    // A path through all nodes keeps the instance connected; random chords on top.
    Problem base = test::random_problem(rng, spec);
    ProblemBuilder b;
    b.set_usage_limit(base.usage_limit());
    for (NodeId v = 0; v < base.num_nodes(); ++v)
      b.add_node(base.interval_lo(v), base.interval_hi(v), base.costs(v), base.usages(v));
    auto add = [&](NodeId u, NodeId v) {
      std::vector<Cost> t(static_cast<std::size_t>(b.strategies(u) * b.strategies(v)));
      for (auto& x : t) x = rng.uniform() < 0.2 ? kForbidden : static_cast<Cost>(rng.below(100));
      b.add_edge(u, v, b.add_table(t));
    };
    for (NodeId v = 1; v < base.num_nodes(); ++v) add(v - 1, v);
    for (int c = 0; c < 2; ++c)
      add(static_cast<NodeId>(rng.below(base.num_nodes())),
          static_cast<NodeId>(rng.below(base.num_nodes())));
    Problem p = std::move(b).build();
    Reduced r = Reduced::build(p, /*fold=*/false);
    LocalState st(r);
    st.assign(least_memory_assignment(p));  // feasible by construction of the limit
    REQUIRE(st.feasible());
    WindowSearch ws(r);
    ws.set_window_size(p.num_nodes());
    ws.set_node_limit(1u << 30);
    StopControl stop;
    const Total before = st.cost();
    ws.run(st, rng, 1, stop);
    CHECK(st.feasible());
    CHECK(st.cost() <= before);
    Evaluation e = evaluate(p, r.expand(st.assignment()));
    CHECK(e.feasible);
    auto best = test::brute_force_optimum(p, /*forbidden_free=*/true);
    if (best && before < kForbidden) {
      CHECK(e.cost == *best);
      ++compared;
    }
  }
  CHECK(compared > 30);
}
