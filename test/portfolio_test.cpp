// The portfolio (src/portfolio/): brute-force optima on tiny instances, determinism, exact mode.
#include "portfolio/portfolio.hpp"

#include <doctest/doctest.h>

#include <numeric>

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
#include "portfolio/prepare.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;
using namespace iopddl::test;

TEST_CASE("the portfolio's answers on tiny instances are the brute-force optimum") {
  Rng rng(13);
  for (int round = 0; round < 60; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(9));
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    test::Outcome out = test::solve_checked(p, test::deterministic_options(5));
    REQUIRE(out.cost.has_value());
    CHECK(*out.cost == *test::brute_force_optimum(p));
  }
}

TEST_CASE("a deterministic run gives the same answer for the same seed and threads") {
  Rng rng(99);
  test::TinySpec spec;
  spec.nodes = 60;
  spec.edges = 90;
  spec.max_strategies = 5;
  spec.forbidden_share = 0.2;
  Problem p = test::random_problem(rng, spec);
  SolverOptions o = test::deterministic_options(8);
  o.seed = 5;
  const auto first = test::solve_checked(p, o).assignment;
  CHECK_FALSE(first.empty());
  CHECK(first == test::solve_checked(p, o).assignment);
}

TEST_CASE("a timed run with more than one thread has its polisher, one thread or work units none") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 400;
  g.seed = 2;
  const Problem p = generate_problem(g);
  auto polishers = [&](int threads, bool deterministic) {
    SolverOptions o = deterministic ? deterministic_options(1, threads) : SolverOptions{};
    o.threads = threads;
    o.polishers = 1;
    o.exact.max_nodes = 0;  // workers even where exact mode would prove the optimum
    StopControl stop;
    IncumbentStore store(&stop);
    Log quiet(stderr, &stop, true);
    const Prepared prepared = prepare(p, o.presolve, stop, store, quiet);
    REQUIRE(prepared.reduced);
    Portfolio portfolio(p, *prepared.reduced, o, quiet);
    portfolio.start(stop, store);
    REQUIRE(portfolio.ready());
    return portfolio.polishers();
  };
  CHECK(polishers(2, false) == 1);
  CHECK(polishers(3, false) == 1);
  CHECK(polishers(1, false) == 0);
  CHECK(polishers(2, true) == 0);
}

TEST_CASE("an answer posted to running workers is taken at their next round") {
  GeneratorOptions g;
  g.family = Family::kMemory;
  g.nodes = 800;
  g.seed = 11;
  const Problem p = generate_problem(g);
  const Outcome better = solve_checked(p, deterministic_options(20, 1));
  REQUIRE(better.cost);
  SolverOptions o = deterministic_options(20, 1);
  o.exact.max_nodes = 0;
  StopControl stop;
  stop.ignore_deadline();
  IncumbentStore store(&stop);
  Log quiet(stderr, &stop, true);
  const Prepared prepared = prepare(p, o.presolve, stop, store, quiet);
  REQUIRE(prepared.reduced);
  Portfolio portfolio(p, *prepared.reduced, o, quiet);
  portfolio.start(stop, store);
  REQUIRE(portfolio.ready());
  portfolio.run(stop, store, 1);
  REQUIRE(portfolio.best().second > *better.cost);  // one round is not there yet
  std::vector<Strategy> x;
  REQUIRE(prepared.reduced->contract(better.assignment, x));
  portfolio.post(x, *better.cost);
  CHECK(portfolio.best().second > *better.cost);  // not before the next round
  portfolio.run(stop, store, 1);
  CHECK(portfolio.best().second <= *better.cost);
}

TEST_CASE("exact mode proves the brute-force optimum of small instances") {
  Rng rng(77);
  int proven = 0;
  for (int round = 0; round < 120; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(7));
    spec.edges = static_cast<int>(rng.below(10));
    spec.forbidden_share = 0.3 * rng.uniform();
    spec.limit_factor = 1.0 + 0.4 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    test::Outcome out = test::solve_checked(p, test::deterministic_options(1, 1));
    const auto best = test::brute_force_optimum(p, /*forbidden_free=*/true);
    if (out.result.status == SolveStatus::kOptimal) {
      ++proven;
      REQUIRE(best.has_value());  // a proof needs a forbidden-free feasible assignment
      CHECK(out.cost == best);
    } else if (best) {
      // Not proven only when presolve was skipped (a node with only forbidden choices
      // cannot have a forbidden-free optimum, so this branch should stay empty).
      FAIL_CHECK("a small instance with a forbidden-free optimum was not proven optimal");
    }
  }
  CHECK(proven > 60);
}
