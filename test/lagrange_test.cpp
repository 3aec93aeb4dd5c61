// TRW-S (src/lagrange/): exact on trees, a bound from below on loopy problems.
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
#include "portfolio/portfolio.hpp"
#include "reduce/reduced.hpp"
#include "support.hpp"

using namespace iopddl;
using namespace iopddl::test;

TEST_CASE("TRW-S eliminates trees exactly: optimal without any pass, tight bound after passes") {
  Rng rng(4);
  for (int round = 0; round < 200; ++round) {
    Problem p = random_tree_problem(rng, 1);
    Reduced r = Reduced::build(p, /*fold=*/false);
    CostNetwork net = CostNetwork::from_reduced(r);
    Trws trws(net);
    const Total optimum = *test::brute_force_optimum(p);
    // The peeled trees' messages only.
    CHECK(evaluate(p, r.expand(trws.round())).cost == optimum);
    for (int it = 0; it < 1 + round % 10; ++it) trws.iterate();
    const std::vector<Strategy> x = trws.round();
    CHECK(evaluate(p, r.expand(x)).cost == optimum);
    CHECK(net.energy(x) == doctest::Approx(static_cast<double>(optimum)));
    CHECK(trws.lower_bound() == doctest::Approx(static_cast<double>(optimum)));  // tight
  }
}

TEST_CASE("TRW-S bounds loopy problems from below - priced 1-opt never raises the energy") {
  Rng rng(8);
  for (int round = 0; round < 100; ++round) {
    test::TinySpec spec;
    spec.nodes = 2 + static_cast<int>(rng.below(5));
    spec.edges = static_cast<int>(rng.below(10));
    spec.forbidden_share = 0;
    spec.limit_factor = 0;  // no memory limit: the network is the whole problem
    Problem p = test::random_problem(rng, spec);
    Reduced r = Reduced::build(p, /*fold=*/false);
    CostNetwork net = CostNetwork::from_reduced(r);
    Trws trws(net);
    const auto optimum = static_cast<double>(*test::brute_force_optimum(p));
    for (int it = 0; it < 1 + static_cast<int>(rng.below(6)); ++it) {
      trws.iterate();
      CHECK(trws.lower_bound() <= optimum + 1e-6);
    }
    std::vector<Strategy> x = trws.round();
    const double before = net.energy(x);
    net.descend(x, 5);
    CHECK(net.energy(x) <= before);
    CHECK(net.energy(x) >= optimum - 1e-6);
  }
}
