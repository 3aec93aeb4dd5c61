#include <doctest/doctest.h>

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

TEST_CASE("the forbidden family folds under presolve and the memory family barely does") {
  GeneratorOptions o;
  o.nodes = 3000;
  o.family = Family::kForbiddenPairs;
  Reduced forbidden = Reduced::build(generate_problem(o));
  CHECK_FALSE(forbidden.stats().infeasible_forbidden);
  CHECK(forbidden.num_nodes() < 3000 / 3);
  o.family = Family::kMemory;
  Problem memory = generate_problem(o);
  Reduced reduced = Reduced::build(memory);
  CHECK(reduced.num_nodes() > 3000 * 8 / 10);
  for (EdgeId e = 0; e < memory.num_edges(); ++e)
    for (Cost c : memory.edge_costs(e)) REQUIRE_FALSE(is_forbidden(c));
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
