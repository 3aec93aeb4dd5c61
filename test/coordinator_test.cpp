// The decisions of a distributed run (src/coordinator/decisions.hpp), without MPI.
#include <doctest/doctest.h>

#include <vector>

#include "coordinator/decisions.hpp"

namespace iopddl::inline v0::coordinator {
namespace {

PhaseReport report(bool stop, bool work_left, std::optional<Total> best) {
  return PhaseReport{stop, work_left, best};
}

TEST_CASE("coordinator: any rank's stop stops all - a deterministic run stops once all are spent") {
  const std::vector<PhaseReport> going = {report(false, true, 5), report(false, false, 3)};
  CHECK_FALSE(stop_after_phase(going, false));
  CHECK_FALSE(stop_after_phase(going, true));  // rank 0 has work left
  const std::vector<PhaseReport> one_stops = {report(false, true, 5), report(true, true, 3)};
  CHECK(stop_after_phase(one_stops, false));
  const std::vector<PhaseReport> spent = {report(false, false, 5), report(false, false, {})};
  CHECK(stop_after_phase(spent, true));
  CHECK_FALSE(stop_after_phase(spent, false));  // a timed run goes on until its deadline
}

TEST_CASE("coordinator: the winner has the least cost, exactly, ties to the lower rank") {
  CHECK_FALSE(winning_rank(std::vector<PhaseReport>{report(false, false, {})}).has_value());
  CHECK(winning_rank(std::vector<PhaseReport>{report(false, false, {}), report(false, false, 9)}) ==
        1);
  CHECK(winning_rank(std::vector<PhaseReport>{report(false, false, 7), report(false, false, 7),
                                              report(false, false, 8)}) == 0);
  // Costs past 2^53 (a forbidden pick costs 10^18) that a double would call equal.
  const Total big = Total{1} << 70;
  CHECK(winning_rank(std::vector<PhaseReport>{report(false, false, big + 1),
                                              report(false, false, big)}) == 1);
}

TEST_CASE("coordinator: blended prices move part of the way to the ranks' average") {
  const std::vector<double> mine = {2, 4}, sum = {6, 4};  // 2 ranks: averages 3 and 2
  CHECK(blended_prices(mine, sum, 2, 0) == mine);
  CHECK(blended_prices(mine, sum, 2, 1) == std::vector<double>{3, 2});
  CHECK(blended_prices(mine, sum, 2, 0.5) == std::vector<double>{2.5, 3});
}

TEST_CASE("coordinator: checkpoints when asked, by period and at the end, only where configured") {
  const CheckpointPolicy none{false, 10}, every10{true, 10};
  CHECK(checkpoint_due(none, 100, 0, true, false));  // SIGUSR1 writes to the signal path
  CHECK_FALSE(checkpoint_due(none, 100, 0, false, true));
  CHECK_FALSE(checkpoint_due(every10, 15, 6, false, false));
  CHECK(checkpoint_due(every10, 16, 6, false, false));
  CHECK(checkpoint_due(every10, 7, 6, false, true));
}

TEST_CASE("coordinator: bound rounds take their share of the phase - ranks repair in turn") {
  CHECK(bound_time_ratio(0.5) == doctest::Approx(1));
  CHECK(bound_time_ratio(0.95) == doctest::Approx(9));  // capped at 0.9
  CHECK(another_bound_round(false, false, 0.5, 1, 1));
  CHECK_FALSE(another_bound_round(false, false, 1.0, 1, 1));
  CHECK_FALSE(another_bound_round(true, false, 0, 1, 1));  // one round per deterministic phase
  CHECK_FALSE(another_bound_round(false, true, 0, 1, 1));
  CHECK(repairing_rank(0, 3) == 0);
  CHECK(repairing_rank(4, 3) == 1);
}

}  // namespace
}  // namespace iopddl::inline v0::coordinator
