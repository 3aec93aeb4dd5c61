#include "bound.hpp"

#include <algorithm>
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
      ascent_(r, no_copies_, o) {
  if (o.lp_every > 0) lp_ = std::make_unique<MemoryLp>(r, o.lp_nonzeros);
  if (lp_ && !lp_->ready()) lp_.reset();  // subgradient steps from the start, as without it
}

Reparametrisation BoundEngine::best_reparametrisation() const {
  Reparametrisation out;
  if (ascent_.steps() == 0) return out;
  certify(r_, best_lambda_, best_msg_, o_.scale_bits, &out);
  return out;
}

Total BoundEngine::step(std::optional<Total> upper, const StopControl* stop) {
  const Total bound = ascent_.bound(
      region_.solve(ascent_.memory(), ascent_.agreement(), o_.iterations, 2, o_.scale_bits, stop));
  if (bound > ascent_.best()) {
    best_lambda_ = certified_integers(ascent_.memory(), o_.scale_bits);
    best_msg_ = region_.messages();
  }
  std::vector<Total> usage(r_.original().num_segments() + 1, 0);
  region_.add_usage(usage);
  if (!lp_) {
    ascent_.step(bound, upper, usage);
    return bound;
  }
  ascent_.record(bound, usage);
  if (ascent_.steps() % static_cast<std::uint64_t>(o_.lp_every) != 0) return bound;
  // Block coordinate ascent stalls where subgradient steps still climb (LP steps alone, 300
  // steps: M 0.971, G 0.82 of the best cost; subgradient steps 0.987, 0.939): once the best
  // bound gains less than bound.lp-stall over bound.lp-patience steps, they take over.
  if (ascent_.steps() >= window_start_ + static_cast<std::uint64_t>(o_.lp_patience)) {
    const double best = static_cast<double>(ascent_.best());
    if (window_start_ > 0 && best - window_best_ < o_.lp_stall * std::fabs(best)) {
      hand_over();
      return bound;
    }
    window_start_ = ascent_.steps();
    window_best_ = best;
  }
  // The groups' reparametrised costs without prices: what the LP prices.
  std::vector<Total> costs;
  certify_region(r_, region_.shape(), no_copies_,
                 std::vector<Total>(r_.original().num_segments(), 0), {}, region_.messages(),
                 o_.scale_bits, nullptr, &costs);
  std::vector<double> theta(costs.size());
  const double scale = std::ldexp(1.0, o_.scale_bits);
  for (std::size_t i = 0; i < costs.size(); ++i) theta[i] = static_cast<double>(costs[i]) / scale;
  const MemoryLp::Outcome out = lp_->solve(theta, stop);
  if (out.lambda)
    ascent_.set_memory(*out.lambda);
  else if (out.given_up)
    hand_over();  // too large, or failing
  return bound;
}

void BoundEngine::hand_over() {
  lp_.reset();
  lp_ended_at_ = ascent_.steps();
  ascent_.set_factor(o_.lp_handover_step);
}

}  // namespace iopddl::inline v0
