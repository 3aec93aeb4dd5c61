#include "decisions.hpp"

#include <algorithm>

namespace iopddl::inline v0::coordinator {

bool stop_after_phase(std::span<const PhaseReport> reports, bool deterministic) {
  const bool asked =
      std::any_of(reports.begin(), reports.end(), [](const PhaseReport& r) { return r.stop; });
  const bool spent = std::none_of(reports.begin(), reports.end(),
                                  [](const PhaseReport& r) { return r.work_left; });
  return asked || (deterministic && spent);
}

std::optional<int> winning_rank(std::span<const PhaseReport> reports) {
  std::optional<int> best;
  for (std::size_t i = 0; i < reports.size(); ++i)
    if (reports[i].best &&
        (!best || *reports[i].best < *reports[static_cast<std::size_t>(*best)].best))
      best = static_cast<int>(i);
  return best;
}

std::vector<double> blended_prices(std::span<const double> mine, std::span<const double> sum,
                                   int ranks, double blend) {
  std::vector<double> out(mine.begin(), mine.end());
  if (blend <= 0 || ranks <= 0) return out;
  for (std::size_t i = 0; i < out.size() && i < sum.size(); ++i)
    out[i] = (1 - blend) * out[i] + blend * sum[i] / ranks;
  return out;
}

bool checkpoint_due(const CheckpointPolicy& policy, double elapsed, double last_written,
                    bool requested, bool stopping) {
  const bool periodic = policy.configured && elapsed - last_written >= policy.period_seconds;
  return requested || periodic || (policy.configured && stopping);
}

double bound_time_ratio(double share) {
  const double s = std::min(share, 0.9);
  return s / (1 - s);
}

bool another_bound_round(bool deterministic, bool stopping, double seconds_in_rounds, double ratio,
                         double last_phase_seconds) {
  return !deterministic && !stopping && seconds_in_rounds < ratio * last_phase_seconds;
}

int repairing_rank(std::uint64_t phase, int ranks) {
  return ranks <= 0 ? 0 : static_cast<int>(phase % static_cast<std::uint64_t>(ranks));
}

}  // namespace iopddl::inline v0::coordinator
