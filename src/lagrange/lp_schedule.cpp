#include "lp_schedule.hpp"

#include <chrono>

namespace iopddl::inline v0 {

std::vector<std::size_t> strategy_offsets(const Reduced& r) {
  std::vector<std::size_t> begin(r.num_nodes() + 1, 0);
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) begin[g + 1] = begin[g] + r.strategies(g);
  return begin;
}

LpSchedule::LpSchedule(const Reduced& r, const BoundOptions& o)
    : o_(o), stall_(o.lp_stall, static_cast<std::uint64_t>(o.lp_patience)) {
  if (o.lp_every > 0) lp_ = std::make_unique<MemoryLp>(r, o.lp_nonzeros);
  if (lp_ && !lp_->ready()) lp_.reset();
  if (lp_) begin_ = strategy_offsets(r);
}

bool LpSchedule::wants_costs(DualAscent& ascent) {
  if (!due(ascent.steps())) return false;
  if (capped_ && lp_seconds_ > o_.lp_time_share * (lp_seconds_ + step_seconds_)) return false;
  if (stall_.at(ascent.steps(), static_cast<double>(ascent.best())).value_or(false)) {
    hand_over(ascent);
    return false;
  }
  return true;
}

void LpSchedule::solve(DualAscent& ascent, const std::vector<double>& theta,
                       const StopControl* stop) {
  const auto start = std::chrono::steady_clock::now();
  const MemoryLp::Outcome out = lp_->solve(theta, stop);
  ++solves_;
  lp_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (out.lambda)
    ascent.set_memory(*out.lambda);
  else if (out.given_up)
    hand_over(ascent);
}

std::string LpSchedule::summary() const {
  const std::string solves = "memory LP: " + std::to_string(solves_) + " solves, ";
  if (lp_)
    return solves + std::to_string(lp_->rows()) + " rows, " + std::to_string(lp_->nonzeros()) +
           " nonzeros";
  if (ended_at_ > 0) return solves + "subgradient steps from step " + std::to_string(ended_at_);
  return "";
}

void LpSchedule::hand_over(DualAscent& ascent) {
  lp_.reset();
  ended_at_ = ascent.steps();
  ascent.set_factor(o_.lp_handover_step);
}

}  // namespace iopddl::inline v0
