// Helpers of the tests of local search, TRW-S and the partition: random tree-shaped problems,
// random labels, random feasible states, and the check every search's result must pass.
#pragma once

#include <doctest/doctest.h>

#include <vector>

#include "iopddl/evaluate.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/rng.hpp"
#include "local/state.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

namespace iopddl::inline v0::test {

// A random tree-shaped problem of `least` to least + 6 nodes (1-4 strategies each, costs
// below 100) with no memory limit: node v hangs below an earlier node.
inline Problem random_tree_problem(Rng& rng, int least) {
  ProblemBuilder b;
  const int n = least + static_cast<int>(rng.below(7));
  for (int v = 0; v < n; ++v) {
    const int k = 1 + static_cast<int>(rng.below(4));
    std::vector<Cost> c(static_cast<std::size_t>(k));
    std::vector<Usage> u(static_cast<std::size_t>(k), 1);
    for (auto& x : c) x = static_cast<Cost>(rng.below(100));
    b.add_node(0, 1, c, u);
  }
  for (int v = 1; v < n; ++v) {
    const auto parent = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(v)));
    std::vector<Cost> t(
        static_cast<std::size_t>(b.strategies(parent) * b.strategies(static_cast<NodeId>(v))));
    for (auto& x : t) x = static_cast<Cost>(rng.below(100));
    b.add_edge(parent, static_cast<NodeId>(v), b.add_table(t));
  }
  return std::move(b).build();
}

// Random labels for every group of r.
inline std::vector<Strategy> random_labels(Rng& rng, const Reduced& r) {
  std::vector<Strategy> x(r.num_nodes());
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
    x[g] = static_cast<Strategy>(rng.below(static_cast<std::uint64_t>(r.strategies(g))));
  return x;
}

// `rounds` random tiny problems (2 to 1 + max_nodes nodes, up to 9 edges, limit 1 to
// 1 + limit_spread times the least-memory peak), each reduced and given a random feasible
// assignment; f(p, r, state) runs on each (draws that are infeasible are skipped).
template <class F>
void for_random_feasible_states(Rng& rng, int rounds, int max_nodes, double limit_spread, F f) {
  for (int round = 0; round < rounds; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(static_cast<std::uint64_t>(max_nodes)));
    spec.edges = static_cast<int>(rng.below(10));
    spec.limit_factor = 1.0 + limit_spread * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p);
    if (r.stats().infeasible_forbidden) continue;
    LocalState state(r);
    state.assign(random_labels(rng, r));
    if (state.feasible()) f(p, r, state);
  }
}

// After a search on a feasible state: still feasible, no dearer than `before`, and the cost
// it tracks is the reference evaluator's. Returns the evaluation.
inline Evaluation check_no_worse_and_exact(const Problem& p, const Reduced& r,
                                           const LocalState& state, Total before) {
  CHECK(state.feasible());
  CHECK(state.cost() <= before);
  Evaluation e = evaluate(p, r.expand(state.assignment()));
  CHECK(e.feasible);
  if (e.forbidden_picks == 0) CHECK(e.cost == state.cost());
  return e;
}

}  // namespace iopddl::inline v0::test
