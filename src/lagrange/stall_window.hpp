// The stall test of a rising bound: whether it gained less than a share of itself over a
// window of steps. The memory LP's schedule hands the multipliers over to the subgradient
// steps on a stall (bound.lp-stall); the bound worker gives its proof searches a larger
// share of the work (exact.prove-stall).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace iopddl::inline v0 {

class StallWindow {
 public:
  StallWindow(double share, std::uint64_t steps) : share_(share), steps_(steps) {}

  // At `step`, the best bound `best`: once the window has its `steps` steps, whether the
  // bound gained less than `share` (relative) over it, and a new window begins; nothing
  // before then, nor at the end of the first window (it began before any bound).
  std::optional<bool> at(std::uint64_t step, double best) {
    if (step < start_ + steps_) return std::nullopt;
    std::optional<bool> stalled;
    if (start_ > 0) stalled = best - best_ < share_ * std::fabs(best);
    start_ = step;
    best_ = best;
    return stalled;
  }

 private:
  double share_;
  std::uint64_t steps_;
  std::uint64_t start_ = 0;  // the window's first step
  double best_ = 0;          // the best bound then
};

}  // namespace iopddl::inline v0
