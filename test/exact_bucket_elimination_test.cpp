// Bucket elimination (exact/bucket_elimination): the least cost with memory left aside,
// against brute force over the reduced assignments, in any elimination order; and exact
// mode by it, against the brute-force optimum under the memory limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "exact/bucket_elimination.hpp"
#include "local/elimination.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

namespace iopddl::inline v0 {

TEST_CASE("bucket elimination finds the least cost of every tiny problem, in any order") {
  Rng rng(71);
  int checked = 0;
  for (int round = 0; round < 1500; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(7));
    spec.edges = static_cast<int>(rng.below(12));
    spec.max_strategies = 1 + static_cast<int>(rng.below(4));
    spec.forbidden_share = round % 3 == 0 ? 0.0 : 0.3;
    spec.huge_values = round % 7 == 0;
    const Problem p = test::random_problem(rng, spec);
    const Reduced r = Reduced::build(p, round % 2 == 0);
    CAPTURE(round);
    Total least = 0;
    bool first = true;
    test::for_each_reduced_assignment(r, [&](const std::vector<Strategy>& x) {
      const Total c = test::reduced_cost(r, x);
      if (first || c < least) least = c;
      first = false;
    });
    std::vector<std::uint32_t> order = min_fill_order(r).order;
    if (round % 2 == 1) {  // any order is exact; only the tables' sizes differ
      order.resize(r.num_nodes());
      std::iota(order.begin(), order.end(), 0u);
      for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    }
    const BucketElimination dp(r, order);
    const auto out = dp.run(StopControl());
    REQUIRE(out.has_value());
    REQUIRE(out->x.size() == r.num_nodes());
    // The reduced problem's sums saturate at 10^18 as presolve's do; the minimum does not
    // (it only matters below 10^18, where they agree).
    if (least < kForbidden) {
      CHECK(out->cost == least);
      CHECK(test::reduced_cost(r, out->x) == least);
    } else {
      CHECK(out->cost >= kForbidden);
    }
    ++checked;
  }
  CHECK(checked == 1500);
}

TEST_CASE("the planned table entries are those of the min-fill bags") {
  // A path of 4 groups with 3 strategies each: eliminated from an end, every new function
  // has one group (3 entries) and the last one none (1).
  ProblemBuilder b;
  const std::vector<Cost> costs{1, 2, 3};
  const std::vector<Usage> usages{0, 0, 0};
  for (int i = 0; i < 4; ++i) b.add_node(0, 1, costs, usages);
  const std::vector<Cost> table{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::uint32_t t = b.add_table(table);
  for (NodeId i = 0; i + 1 < 4; ++i) b.add_edge(i, i + 1, t);
  const Problem p = std::move(b).build();
  PresolveOptions none;
  none.enabled = false;
  const Reduced r = Reduced::build(p, none);
  CHECK(BucketElimination(r, {0, 1, 2, 3}).entries() == 3 + 3 + 3 + 1);
  // From the middle, the two ends join one function: 9 entries.
  CHECK(BucketElimination(r, {1, 0, 2, 3}).entries() == 9 + 3 + 3 + 1);
}

TEST_CASE("exact mode by dynamic programming: optimal only when its minimiser fits") {
  Rng rng(73);
  int proven = 0, bounded = 0;
  for (int round = 0; round < 200; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(6));
    spec.edges = 1 + static_cast<int>(rng.below(9));
    spec.forbidden_share = 0.1;
    spec.limit_factor = round % 4 == 0 ? 0 : 1.0 + 0.3 * rng.uniform();
    const Problem p = test::random_problem(rng, spec);
    SolverOptions o = test::deterministic_options(1, 1);
    o.exact.max_nodes = 0;  // no search: exact mode is the dynamic programming alone
    o.bound.share = 0;      // nor a bound or proof search beside it
    const test::Outcome out = test::solve_checked(p, o);
    const auto best = test::brute_force_optimum(p, /*forbidden_free=*/true);
    CAPTURE(round);
    // exact.dp-entries 0 turns it off: then nothing proves or bounds anything.
    SolverOptions off = o;
    off.exact.dp_entries = 0;
    const test::Outcome without = test::solve_checked(p, off);
    CHECK(without.result.status != SolveStatus::kOptimal);
    CHECK(!without.bound);
    if (out.result.status == SolveStatus::kOptimal) {
      REQUIRE(best.has_value());
      CHECK(out.cost == best);
      ++proven;
    } else if (out.bound) {
      if (best) CHECK(*out.bound <= *best);
      ++bounded;
    }
  }
  MESSAGE("proven ", proven, ", bounded ", bounded);
  CHECK(proven > 80);
  CHECK(bounded > 5);
}

}  // namespace iopddl::inline v0
