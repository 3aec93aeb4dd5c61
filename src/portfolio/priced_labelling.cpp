#include "priced_labelling.hpp"

#include <algorithm>
#include <cmath>

namespace iopddl::inline v0 {

PricedLabelling::PricedLabelling(const Reduced& r, const MemoryIndex& index,
                                 const CostNetwork& network, const SolverOptions& o,
                                 double price_unit, Pricing pricing)
    : o_(o), net_(network), trws_(net_), prices_(r, index, pricing, price_unit, o.prices) {
  if (o.trws.search_nodes > 0 &&
      r.num_nodes() <= static_cast<std::size_t>(o.trws.search_max_groups))
    search_.emplace(net_);
}

void PricedLabelling::iterate(const StopControl& stop) {
  prices_.price(net_);
  for (int it = 0; it < o_.trws.iterations && !stop.should_stop(); ++it) trws_.iterate(&stop);
}

std::vector<Strategy> PricedLabelling::labelling(const StopControl& stop) {
  std::vector<Strategy> x = trws_.round();
  // TRW-S's rounding follows half-converged messages and leaves many priced 1-opt moves:
  // on N its labelling's priced energy was 1.2-1.6 times what priced 1-opt from it
  // reaches.
  net_.descend(x, o_.trws.descent_passes);
  // Pricing, rounding and each descent pass read every entry once.
  stop.charge(1 + (2 + static_cast<std::uint64_t>(o_.trws.descent_passes)) *
                      (net_.unary_size() + net_.table_size()));
  if (search_) search(x, stop);
  return x;
}

void PricedLabelling::scatter(Rng& rng) {
  prices_.scatter(rng);
  if (rng.uniform() < o_.trws.reset_share) trws_.reset_messages();
}

void PricedLabelling::search(std::vector<Strategy>& x, const StopControl& stop) {
  if (skip_ > 0) {
    --skip_;
    return;
  }
  PricedSearch::Outcome out;
  stats_.count(stop, [&] {
    out = search_->run(net_, x, budget_, stop);
    return std::pair{out.improved ? 1 : 0, static_cast<Total>(std::llround(out.gain))};
  });
  const bool paid = out.gain > o_.trws.search_min_gain * std::abs(out.energy);
  failures_ = paid ? 0 : std::min(failures_ + 1, kMaxBackoff);
  budget_ =
      paid ? std::min(2 * budget_, o_.trws.search_nodes) : std::max<std::uint64_t>(budget_ / 2, 1);
  skip_ = (1u << failures_) - 1;
}

}  // namespace iopddl::inline v0
