#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <sstream>

#include "iopddl/generate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/solve.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;

TEST_CASE("the generator is deterministic and writes instances the reader accepts") {
  for (Family f : {Family::kForbiddenPairs, Family::kMemory, Family::kCore}) {
    GeneratorOptions o;
    o.family = f;
    o.nodes = 300;
    o.seed = 4;
    std::ostringstream a, b;
    write_problem_json(a, generate_problem(o));
    write_problem_json(b, generate_problem(o));
    CHECK(a.str() == b.str());
    std::string text = a.str() + std::string(64, '\0');
    Problem p = parse_problem(text.data(), a.str().size(), "generated");
    if (f != Family::kCore) CHECK(p.num_nodes() == 300);  // (the core family adds leaves)
    // The limit is at least 1.1 x the least-memory peak (exactly that for the memory family).
    Evaluation least = evaluate(p, least_memory_assignment(p));
    CHECK(least.feasible);
    CHECK(static_cast<double>(*p.usage_limit()) >= 1.1 * static_cast<double>(least.peak_usage) - 1);
    if (f != Family::kForbiddenPairs)
      CHECK(static_cast<double>(*p.usage_limit()) ==
            doctest::Approx(1.1 * static_cast<double>(least.peak_usage)).epsilon(1e-6));
  }
}

TEST_CASE("the forbidden family folds under presolve and the memory family much less") {
  GeneratorOptions o;
  o.nodes = 3000;
  o.family = Family::kForbiddenPairs;
  Reduced forbidden = Reduced::build(generate_problem(o));
  CHECK_FALSE(forbidden.stats().infeasible_forbidden);
  CHECK(forbidden.num_nodes() < 3000 / 3);
  o.family = Family::kMemory;
  Problem memory = generate_problem(o);
  Reduced reduced = Reduced::build(memory);
  CHECK(reduced.num_nodes() > 3000 * 6 / 10);  // R keeps 73 % of its nodes as groups
  for (EdgeId e = 0; e < memory.num_edges(); ++e)
    for (Cost c : memory.edge_costs(e)) REQUIRE_FALSE(is_forbidden(c));
}

namespace {

// Shares of the nodes by degree, in `iopddl info`'s buckets: 0, 1, 2, 3, 4, 5-8, 9-16, 17-64,
// 65+.
std::array<double, 9> degree_shares(const Problem& p) {
  const std::size_t upper[] = {0, 1, 2, 3, 4, 8, 16, 64, SIZE_MAX};
  std::array<double, 9> share{};
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    std::size_t b = 0;
    while (p.degree(v) > upper[b]) ++b;
    share[b] += 1.0 / static_cast<double>(p.num_nodes());
  }
  return share;
}

double mean_strategies(const Problem& p) {
  return static_cast<double>(p.num_strategies_total()) / static_cast<double>(p.num_nodes());
}

// Within `relative` of `expected` (doctest's Approx adds 1 to the scale: too loose for shares).
bool near(double actual, double expected, double relative) {
  return std::abs(actual - expected) <= relative * std::abs(expected);
}

std::size_t max_strategies(const Problem& p) {
  std::size_t k = 0;
  for (NodeId v = 0; v < p.num_nodes(); ++v) k = std::max<std::size_t>(k, p.strategies(v));
  return k;
}

}  // namespace

TEST_CASE("the memory family has the kept-aside instances' shape: edgeless nodes and hubs") {
  // R's histogram (62,185 nodes), from the memory-family issue: shares of the nodes.
  const double r[] = {34190, 13675, 3659, 4253, 2227, 2321, 1296, 484, 80};
  GeneratorOptions o;
  o.family = Family::kMemory;
  o.nodes = 60000;
  for (std::uint64_t seed : {1, 2}) {
    o.seed = seed;
    const Problem p = generate_problem(o);
    const auto share = degree_shares(p);
    for (std::size_t b = 0; b < 7; ++b) {
      CAPTURE(b);
      CHECK(near(share[b], r[b] / 62185, 0.08));
    }
    // The sparse buckets within a third (a few dozen hubs vary by seed).
    CHECK(near(share[7], r[7] / 62185, 0.33));
    CHECK(near(share[8], r[8] / 62185, 0.33));
    CHECK(near(mean_strategies(p), 8.6, 0.05));
    CHECK(max_strategies(p) == 39);
    CHECK(p.num_segments() > 50000);  // R: 55,119
    // Least-memory peak over the limit: 0.909, as in R, T and U.
    const Evaluation least = evaluate(p, least_memory_assignment(p));
    CHECK(near(static_cast<double>(least.peak_usage) / static_cast<double>(*p.usage_limit()),
               1 / 1.1, 1e-4));
    for (EdgeId e = 0; e < p.num_edges(); ++e)
      for (Cost c : p.edge_costs(e)) REQUIRE_FALSE(is_forbidden(c));
  }
  // U's parameters (34,932 nodes: 77 % edgeless, 51 hubs, strategies 8.1 / 379).
  o.nodes = 34932;
  o.seed = 1;
  o.isolated_share = 0.77;
  o.hub_share = 51.0 / 34932;
  o.strategies_mean = 8.1;
  o.max_strategies = 379;
  const Problem u = generate_problem(o);
  const auto share = degree_shares(u);
  CHECK(near(share[0], 26877.0 / 34932, 0.03));
  CHECK(near(share[8] * 34932, 51, 0.4));
  CHECK(near(mean_strategies(u), 8.1, 0.05));
  CHECK(max_strategies(u) == 379);
}

TEST_CASE("the core family reduces to a dense core of its size, as A, D and G do") {
  for (std::uint64_t seed : {1, 2, 3}) {
    GeneratorOptions o;
    o.family = Family::kCore;
    o.nodes = 200;
    o.seed = seed;
    const Problem p = generate_problem(o);
    CHECK(p.num_nodes() > 200 * 10);  // the leaves
    const Reduced r = Reduced::build(p);
    CHECK_FALSE(r.stats().infeasible_forbidden);
    // Presolve folds every leaf: the core is what remains (a few core nodes may fold too).
    CHECK(r.num_nodes() <= 200);
    CHECK(r.num_nodes() >= 180);
    const double per_node = static_cast<double>(r.num_edges()) / static_cast<double>(r.num_nodes());
    CHECK(per_node >= 1.6);
    CHECK(per_node <= 3.0);
    std::size_t strategies = 0;
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      strategies += static_cast<std::size_t>(r.strategies(g));
    const double mean = static_cast<double>(strategies) / static_cast<double>(r.num_nodes());
    CHECK(mean >= 7);
    CHECK(mean <= 16);
    // The limit is exactly 1.1 x the least-memory peak, whose assignment is forbidden-free.
    const Evaluation least = evaluate(p, least_memory_assignment(p));
    CHECK(least.feasible);
    CHECK(least.forbidden_picks == 0);
    CHECK(static_cast<double>(*p.usage_limit()) ==
          doctest::Approx(1.1 * static_cast<double>(least.peak_usage)).epsilon(1e-6));
  }
}

TEST_CASE("generated instances of every family are solved to feasible forbidden-free answers") {
  for (Family f : {Family::kForbiddenPairs, Family::kMemory, Family::kCore}) {
    GeneratorOptions g;
    g.family = f;
    g.nodes = 400;
    g.seed = 2;
    test::Outcome out = test::solve_checked(generate_problem(g), test::deterministic_options(10));
    REQUIRE(out.cost.has_value());
    CHECK(out.forbidden_picks == 0);
  }
}

TEST_CASE("a deterministic run of the workers gives the same answer for the same seed") {
  // Large enough that the workers run (no exact mode), memory-bound so that compound moves
  // and repairs are taken, two threads so that both workers offer answers.
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 600;
  g.seed = 4;
  const Problem p = generate_problem(g);
  SolverOptions o = test::deterministic_options(25, 2);
  o.seed = 3;
  o.stale_rounds = 5;  // polish and scatter within the run too
  const test::Outcome first = test::solve_checked(p, o);
  REQUIRE(first.cost.has_value());
  for (int run = 0; run < 2; ++run) CHECK(test::solve_checked(p, o).assignment == first.assignment);
}
