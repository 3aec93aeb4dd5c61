// Solves at several usage limits (src/sweep/): the cost-memory frontier against brute force
// on tiny problems.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "iopddl/evaluate.hpp"
#include "iopddl/rng.hpp"
#include "support.hpp"
#include "sweep/frontier.hpp"

using namespace iopddl;

namespace {

// The least cost among assignments whose peak is at most `limit` (nullopt if none).
std::optional<Total> optimum_within(const Problem& p, Total limit) {
  std::optional<Total> best;
  test::for_each_assignment(p, [&](const std::vector<Strategy>& a) {
    const Evaluation e = evaluate(p, a);
    if (e.peak_usage <= limit && (!best || e.cost < *best)) best = e.cost;
  });
  return best;
}

}  // namespace

TEST_CASE("the frontier's points are the optimum at each limit, from the least peak up") {
  Rng rng(404);
  int points = 0, forbidden = 0;
  for (int i = 0; i < 40; ++i) {
    test::TinySpec spec;
    spec.nodes = 3 + i % 4;
    spec.forbidden_share = i % 3 == 0 ? 0.3 : 0;
    const Problem p = test::random_problem(rng, spec);
    StopControl stop;
    Log log(nullptr, &stop);
    const std::vector<FrontierPoint> front =
        cost_memory_frontier(p, 5, test::deterministic_options(2, 1), stop, log);
    REQUIRE(!front.empty());
    CHECK(static_cast<Total>(front.front().limit) == least_peak(p));
    for (std::size_t k = 0; k < front.size(); ++k) {
      const FrontierPoint& f = front[k];
      const auto best = optimum_within(p, f.limit);
      REQUIRE(best);  // the least peak always fits
      REQUIRE(f.solve.has);
      const Evaluation e = evaluate(p, f.solve.assignment);
      CHECK(e.cost == f.solve.cost);
      CHECK(e.peak_usage <= f.limit);
      CHECK(f.solve.bound <= *best);
      if (k > 0) {
        CHECK(front[k - 1].limit < f.limit);
        CHECK(front[k - 1].solve.cost >= f.solve.cost);
      }
      ++points;
      if (is_forbidden(static_cast<Cost>(std::min<Total>(*best, kForbidden)))) {
        // Nothing forbidden-free fits: the answer picks a forbidden entry too, and the
        // bound says that much.
        CHECK(f.solve.cost >= kForbidden);
        CHECK(f.solve.bound >= kForbidden - 1000);
        ++forbidden;
        continue;
      }
      CHECK(f.solve.cost == *best);  // tiny: every point is solved exactly
      CHECK(f.solve.proven);
    }
    // The top: the cheapest answer at all.
    const auto free = optimum_within(p, most_peak(p));
    CHECK(front.back().solve.cost == *free);
  }
  CHECK(points > 100);
  CHECK(forbidden > 0);
}
