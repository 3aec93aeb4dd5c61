// Who moves the memory multipliers, step by step: the LP (memory_lp.hpp) while it gains,
// then projected subgradient steps for good. One schedule for the single-process engine
// (BoundEngine) and the MPI coordinator (mpi/coordinator.hpp), which hold one DualAscent
// each.
//
// Every bound.lp-every steps the LP sets the multipliers from the groups' reparametrised
// costs without prices; between those steps the bound is only recorded. Block coordinate
// ascent stalls where subgradient steps still climb (LP steps alone, 300 steps: M 0.971,
// G 0.82 of the best cost; subgradient steps 0.987, 0.939): once the best bound gains less
// than bound.lp-stall over bound.lp-patience steps, or the LP gives up (too large, failing),
// subgradient steps take over at factor bound.lp-handover-step.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../reduce/reduced.hpp"
#include "ascent.hpp"
#include "iopddl/options.hpp"
#include "memory_lp.hpp"
#include "stall_window.hpp"

namespace iopddl::inline v0 {

class StopControl;

// Where each group's strategies start in the costs the LP takes (size groups + 1).
std::vector<std::size_t> strategy_offsets(const Reduced& r);

class LpSchedule {
 public:
  // Inactive from the start with bound.lp-every 0, or when the LP can never be ready (no
  // limit, more than bound.lp-nonzeros group strategies): subgradient steps throughout.
  LpSchedule(const Reduced& r, const BoundOptions& o);

  bool active() const { return lp_ != nullptr; }
  // Whether step number `step` (counted from 1) is one the LP moves the multipliers at.
  bool due(std::uint64_t step) const {
    return active() && step % static_cast<std::uint64_t>(o_.lp_every) == 0;
  }
  // In a run bounded by time: a due LP solve waits while the solves have taken more than
  // bound.lp-time-share of the time of the steps (add_step_seconds) and solves together.
  void cap_time() { capped_ = o_.lp_time_share < 1; }
  void add_step_seconds(double seconds) { step_seconds_ += seconds; }
  bool time_capped() const { return capped_; }

  // After `ascent` recorded its latest step (DualAscent::record) while active(): whether
  // the LP wants the costs now. At a due step (unless the time cap makes it wait) it runs
  // the stall test first, and on a stall hands over to the subgradient steps (and returns
  // false).
  bool wants_costs(DualAscent& ascent);
  // Sets `ascent`'s memory multipliers from the LP of `theta` (the groups' reparametrised
  // costs without prices, in cost units, per group strategy, groups in order); hands over
  // if the LP gives up. Polls `stop` during the solve.
  void solve(DualAscent& ascent, const std::vector<double>& theta, const StopControl* stop);

  // Where each group's strategies start in the costs the LP takes (size groups + 1;
  // empty when inactive from the start).
  const std::vector<std::size_t>& offsets() const { return begin_; }

  // The LP while it moves the multipliers (nullptr once the subgradient steps took over or
  // if it never could), and the step at which they took over (0: never).
  const MemoryLp* lp() const { return lp_.get(); }
  std::uint64_t ended_at() const { return ended_at_; }
  std::uint64_t solves() const { return solves_; }  // the LP's solves so far
  // For the log: "memory LP: S solves, N rows, M nonzeros" while active, "memory LP: S
  // solves, subgradient steps from step K" after a hand-over, "" if it never ran.
  std::string summary() const;

 private:
  void hand_over(DualAscent& ascent);

  BoundOptions o_;
  std::unique_ptr<MemoryLp> lp_;
  std::vector<std::size_t> begin_;
  StallWindow stall_;  // over bound.lp-patience steps
  std::uint64_t ended_at_ = 0, solves_ = 0;
  bool capped_ = false;
  double step_seconds_ = 0, lp_seconds_ = 0;
};

}  // namespace iopddl::inline v0
