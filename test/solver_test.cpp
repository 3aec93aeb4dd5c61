#include <doctest/doctest.h>

#include "iopddl/io.hpp"
#include "iopddl/solve.hpp"
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
