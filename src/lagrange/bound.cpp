#include "bound.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "iopddl/stop.hpp"
#include "time_prices.hpp"

namespace iopddl::inline v0 {

Total certify_cap(const Reduced& r) {
  const Problem& p = r.original();
  Total usage = 0;  // every member at its largest usage
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      Usage most = 0;
      for (Strategy s = 0; s < r.strategies(g); ++s) most = std::max(most, r.member_usage(mi, s));
      usage += most;
    }
  const Total limit = p.usage_limit().value_or(0);
  // The priced usage and the limit term then stay below 2^100, the scaled costs and
  // messages below 2^(63 + 24) each: far inside 128 bits (scale_bits is at most 24).
  return (Total{1} << 100) / (1 + std::max(usage, limit));
}

Total certify(const Reduced& r, const std::vector<Total>& lambda, const std::vector<Total>& msg,
              int scale_bits, Reparametrisation* out) {
  const CopyLayout none;
  const Total sum =
      certify_region(r, RegionShape::whole(r), none, lambda, {}, msg, scale_bits, out);
  Total priced = 0;
  for (Total l : lambda) priced += l;
  const Total constant = -priced * Total{r.original().usage_limit().value_or(0)};
  if (out != nullptr) out->constant = constant;
  return in_cost_units(sum + constant, scale_bits);
}

Total in_cost_units(Total scaled, int scale_bits) {
  const Total scale = Total{1} << scale_bits;
  const Total q = scaled / scale;  // truncated towards zero, then up: costs are integers
  return q * scale < scaled ? q + 1 : q;
}

BoundEngine::BoundEngine(const Reduced& r, const CostNetwork& network, const BoundOptions& o)
    : r_(r),
      o_(o),
      region_(r, RegionShape::whole(r), no_copies_, network),
      ascent_(r, no_copies_, o),
      lp_(r, o) {}

Reparametrisation BoundEngine::best_reparametrisation() const {
  Reparametrisation out;
  if (ascent_.steps() == 0) return out;
  certify(r_, best_lambda_, best_msg_, o_.scale_bits, &out);
  return out;
}

Total BoundEngine::step(std::optional<Total> upper, const StopControl* stop) {
  const auto start = std::chrono::steady_clock::now();
  const Total bound = ascent_.bound(
      region_.solve(ascent_.memory(), ascent_.agreement(), o_.iterations, 2, o_.scale_bits, stop));
  if (lp_.time_capped())
    lp_.add_step_seconds(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (bound > ascent_.best()) {
    best_lambda_ = certified_integers(ascent_.memory(), o_.scale_bits);
    best_msg_ = region_.messages();
  }
  std::vector<Total> usage(r_.original().num_segments() + 1, 0);
  region_.add_usage(usage);
  if (!lp_.active()) {
    ascent_.step(bound, upper, usage);
    return bound;
  }
  ascent_.record(bound, usage);
  if (!lp_.wants_costs(ascent_)) return bound;
  std::vector<double> theta(lp_.offsets().back(), 0.0);
  region_.add_unpriced_costs(ascent_.agreement(), o_.scale_bits, lp_.offsets(), theta);
  lp_.solve(ascent_, theta, stop);
  return bound;
}

}  // namespace iopddl::inline v0
