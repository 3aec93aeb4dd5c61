// The payoff schedule of a polish (PolishSchedule::kPayoff): each neighbourhood's gain per
// second (per work unit in deterministic runs) over the worker's run so far decides which
// runs the next batch; one never tried
// goes first, and at the explore rate the other one runs instead. A polish ends once every
// neighbourhood's last batch came up dry (none improved since).
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "iopddl/rng.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

class PayoffSchedule {
 public:
  PayoffSchedule(std::size_t count, double explore)
      : gain_(count, 0.0), spent_(count, 0.0), tried_(count, false), explore_(explore) {}

  // The next neighbourhood among those not `dry`; count() if every one is dry.
  std::size_t choose(const std::vector<bool>& dry, Rng& rng) const {
    std::size_t best = count(), other = count();
    for (std::size_t i = 0; i < count(); ++i) {
      if (dry[i]) continue;
      if (best == count() || payoff(i) > payoff(best)) {
        other = best;
        best = i;
      } else if (other == count()) {
        other = i;
      }
    }
    if (other != count() && tried_[best] && rng.uniform() < explore_) return other;
    return best;
  }
  // `spent`: seconds, or work units (the caller's choice, the same for every call).
  void record(std::size_t i, Total gain, double spent) {
    gain_[i] += static_cast<double>(gain);
    spent_[i] += spent;
    tried_[i] = true;
  }
  // Gain per second (or work unit) so far; never tried: infinite.
  double payoff(std::size_t i) const {
    if (!tried_[i]) return std::numeric_limits<double>::infinity();
    return gain_[i] / std::max(spent_[i], 1e-9);
  }
  std::size_t count() const { return gain_.size(); }

 private:
  std::vector<double> gain_, spent_;
  std::vector<bool> tried_;
  double explore_;
};

}  // namespace iopddl::inline v0
