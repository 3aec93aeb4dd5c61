// util/: the incumbent store, stop controls, 128-bit totals on the wire, incidence lists and
// status names.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "iopddl/incumbent.hpp"
#include "iopddl/result.hpp"
#include "iopddl/stop.hpp"
#include "support.hpp"
#include "util/incidence.hpp"
#include "util/total_halves.hpp"

using namespace iopddl;

TEST_CASE("a total survives its two halves, at every extreme of 128 bits") {
  const Total one = 1;
  const Total max = (one << 126) - 1 + (one << 126);  // 2^127 - 1
  const Total values[] = {0,
                          1,
                          -1,
                          std::numeric_limits<std::int64_t>::max(),
                          std::numeric_limits<std::int64_t>::min(),
                          one << 64,
                          -(one << 64) - 1,
                          one << 126,
                          max,
                          -max - 1,
                          (one << 64) - 1};
  for (Total v : values) {
    CAPTURE(to_string(v));
    CHECK(join_total(split_total(v)) == v);
    CHECK(join_total(split_total(v).high, low_bits(v)) == v);
  }
  CHECK(split_total(-1).high == -1);
  CHECK(split_total(one << 64).high == 1);
  CHECK(split_total(one << 64).low == 0);
}

TEST_CASE(
    "the incumbent store keeps the cheapest, breaks ties by the assignment, and tells "
    "its listener each lower cost once") {
  IncumbentStore store(nullptr);
  std::vector<Total> told;
  store.set_listener(
      [&](const Improvement& i, const std::vector<Strategy>&) { told.push_back(i.cost); });
  CHECK_FALSE(store.has_solution());
  CHECK(store.offer({1, 1}, 10, "a"));
  CHECK_FALSE(store.offer({0, 0}, 12, "dearer"));
  CHECK_FALSE(store.offer({2, 0}, 10, "tie, larger"));
  CHECK(store.offer({0, 2}, 10, "tie, smaller"));  // the same answer whatever the order
  CHECK(store.assignment() == std::vector<Strategy>{0, 2});
  CHECK(store.offer({3, 3}, 8, "b"));
  CHECK(store.cost() == 8);
  REQUIRE(store.history().size() == 2);  // a tie is no improvement
  CHECK(store.history()[0].source == "a");
  CHECK(store.history()[1].source == "b");
  CHECK(told == std::vector<Total>{10, 8});
}

TEST_CASE("bounds only rise, and the gap and the proof read cost and bound together") {
  IncumbentStore store(nullptr);
  CHECK_FALSE(store.gap());
  CHECK(store.offer_bound(5, "first"));
  CHECK_FALSE(store.offer_bound(4, "lower"));
  CHECK_FALSE(store.offer_bound(5, "equal"));
  CHECK(store.bound() == Total{5});
  CHECK_FALSE(store.gap());  // no answer yet
  store.offer({0}, 8, "answer");
  CHECK(*store.gap() == doctest::Approx(3.0 / 8.0));
  CHECK_FALSE(store.proven_optimal());
  CHECK(store.offer_bound(8, "meets"));
  CHECK(store.proven_optimal());
  CHECK(*store.gap() == 0.0);
  CHECK(store.bound_history().size() == 2);
  // The gap is relative to the cost's magnitude, also below zero.
  CHECK(relative_gap(-10, -20) == doctest::Approx(1.0));
  CHECK(relative_gap(-10, -5) == 0.0);
  CHECK(std::isinf(relative_gap(0, -1)));
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

TEST_CASE("a stop control reads the time it is given: deadlines, reserves and phases") {
  test::TestTime time;
  StopControl stop(time.now(), 10.0, time);
  time.advance(9.0);
  CHECK_FALSE(stop.should_stop());
  CHECK(stop.elapsed() == doctest::Approx(9.0));
  stop.reserve(0.5);
  time.advance(0.6);  // 9.6 s: past the reserved deadline of 9.5 s
  CHECK(stop.should_stop());
  StopControl fresh(time.now(), 10.0, time);
  StopControl phase(fresh, 2.0);  // a phase ends at its own deadline or its parent's
  time.advance(1.9);
  CHECK_FALSE(phase.should_stop());
  time.advance(0.2);
  CHECK(phase.should_stop());
  CHECK_FALSE(fresh.should_stop());
}

TEST_CASE("incidence lists hold each edge at both ends in edge order, a self-loop once") {
  // edges: 0-1, 1-2, 2-2, 0-2
  const std::vector<std::uint32_t> eu = {0, 1, 2, 0}, ev = {1, 2, 2, 2};
  std::vector<std::uint64_t> begin;
  std::vector<std::uint32_t> adj;
  build_incidence(4, eu, ev, begin, adj);
  CHECK(begin == std::vector<std::uint64_t>{0, 2, 4, 7, 7});
  CHECK(adj == std::vector<std::uint32_t>{0, 3, 0, 1, 1, 2, 3});
}

TEST_CASE("every status has its documented name") {
  CHECK(std::string(status_name(SolveStatus::kOptimal)) == "optimal");
  CHECK(std::string(status_name(SolveStatus::kFeasible)) == "feasible");
  CHECK(std::string(status_name(SolveStatus::kInfeasible)) == "infeasible");
  CHECK(std::string(status_name(SolveStatus::kNoSolution)) == "no solution");
}
