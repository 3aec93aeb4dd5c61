#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/solve.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;

TEST_CASE("the baseline's answers are feasible and never below the brute-force optimum") {
  Rng rng(3);
  for (int round = 0; round < 200; ++round) {
    test::TinySpec spec;
    spec.nodes = 1 + static_cast<int>(rng.below(6));
    spec.edges = static_cast<int>(rng.below(9));
    spec.limit_factor = 1.0 + 0.5 * rng.uniform();
    Problem p = test::random_problem(rng, spec);
    SolverOptions o;
    o.algorithm = Algorithm::kBaseline;
    test::Outcome out = test::solve_checked(p, o);
    auto best = test::brute_force_optimum(p);
    REQUIRE(best.has_value());  // the least-memory assignment is always feasible here
    REQUIRE(out.cost.has_value());
    CHECK(*out.cost >= *best);
  }
}

TEST_CASE("an instance whose least-memory peak exceeds the limit is proven infeasible") {
  std::string text = R"({"problem":{"nodes":{"intervals":[[0,2],[1,3]],"costs":[[1,2],[3]],
    "usages":[[5,4],[3]]},"edges":{"nodes":[],"costs":[]},"usage_limit":6}})";
  text += std::string(64, '\0');
  Problem p = parse_problem(text.data(), text.size() - 64, "<text>");
  for (auto algorithm : {Algorithm::kBaseline, Algorithm::kPortfolio}) {
    SolverOptions o;
    o.algorithm = algorithm;
    test::Outcome out = test::solve_checked(p, o);
    CHECK(out.result.status == SolveStatus::kInfeasible);
    CHECK_FALSE(out.cost.has_value());
  }
}

TEST_CASE("a time limit past the clock's range means no limit, not one already expired") {
  const auto start = Clock::now();
  for (double seconds : {1e10, 1e300, std::numeric_limits<double>::infinity()}) {
    CAPTURE(seconds);
    StopControl stop(start, seconds);
    CHECK_FALSE(stop.should_stop());
    stop.reserve(5.0);  // reserving from "never" leaves "never"
    CHECK_FALSE(stop.should_stop());
    StopControl phase(stop, 1e12);  // a phase of it, as long as it likes
    CHECK_FALSE(phase.should_stop());
  }
  CHECK(time_after(start, std::nan("")) == Clock::time_point::max());
  CHECK(time_after(Clock::time_point::max(), 1.0) == Clock::time_point::max());
}

TEST_CASE("reserving more than a deadline leaves stops at once, without wrapping around") {
  StopControl stop(Clock::now(), 10.0);
  CHECK_FALSE(stop.should_stop());
  stop.reserve(20.0);
  CHECK(stop.should_stop());
}

TEST_CASE("presolve stops when its stop control says stop, and the portfolio answers anyway") {
  GeneratorOptions g;
  g.nodes = 400;
  g.seed = 5;
  const Problem p = generate_problem(g);
  StopControl stopped;
  stopped.request_stop();
  CHECK_THROWS_AS(Reduced::build(p, PresolveOptions{}, &stopped), PresolveStopped);
  CHECK_NOTHROW(Reduced::build(p, PresolveOptions{}, nullptr));
  // The portfolio under a stop that has fired: the baseline's answer, checked, and no hang.
  IncumbentStore store(&stopped);
  Log quiet(nullptr, &stopped, true);
  SolverOptions o;
  const SolveResult r = solve(p, o, stopped, store, quiet);
  CHECK(r.status != SolveStatus::kOptimal);
  REQUIRE(store.has_solution());
  CHECK(evaluate(p, store.assignment()).feasible);
}
