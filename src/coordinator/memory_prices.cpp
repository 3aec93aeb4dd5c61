#include "memory_prices.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "segment_profile.hpp"

namespace iopddl::inline v0::coordinator {

namespace {

// Of each region, its change of largest gain (the first of equal ones); gains above 0 only.
std::vector<const RegionChange*> best_per_region(std::span<const RegionChange> changes) {
  std::vector<const RegionChange*> best;
  for (const RegionChange& c : changes) {
    if (c.gain <= 0) continue;
    auto same = std::find_if(best.begin(), best.end(),
                             [&](const RegionChange* b) { return b->region == c.region; });
    if (same == best.end())
      best.push_back(&c);
    else if (c.gain > (*same)->gain)
      *same = &c;
  }
  return best;
}

}  // namespace

Bids bids(const Problem& p, std::span<const Strategy> x, std::span<const RegionChange> changes) {
  std::vector<std::pair<NodeId, Total>> added;  // (node, the usage its new label adds)
  long double gain = 0, used = 0;
  for (const RegionChange* c : best_per_region(changes)) {
    long double mine = 0;
    for (std::size_t i = 0; i < c->nodes.size(); ++i) {
      const NodeId v = c->nodes[i];
      const Total d = static_cast<Total>(p.usages(v)[static_cast<std::size_t>(c->labels[i])]) -
                      p.usages(v)[static_cast<std::size_t>(x[v])];
      added.emplace_back(v, d);
      if (d > 0 && p.has_memory(v)) mine += static_cast<long double>(d);
    }
    if (mine <= 0) continue;  // a change that frees memory says nothing of its price
    gain += static_cast<long double>(c->gain);
    used += mine;
  }
  Bids out;
  out.demand = segment_profile(
      p, added.size(), [&](std::size_t i) { return added[i].first; },
      [&](std::size_t i) { return added[i].second; });
  out.reference = used > 0 ? static_cast<double>(gain / used) : 0.0;
  return out;
}

void step_prices(std::vector<double>& prices, std::span<const Total> demand,
                 std::span<const Total> usage, Total limit, double reference, double step) {
  for (std::size_t s = 0; s < prices.size(); ++s) {
    const auto slack = static_cast<long double>(std::max<Total>(0, limit - usage[s]));
    const long double want = static_cast<long double>(demand[s]);
    const long double scale = std::max(std::fabs(want) + slack, 1.0L);
    const long double moved = prices[s] + step * reference * (want - slack) / scale;
    prices[s] = static_cast<double>(std::max(0.0L, moved));
  }
}

std::vector<double> prefix_sums(std::span<const double> prices) {
  std::vector<double> out(prices.size() + 1, 0.0);
  for (std::size_t s = 0; s < prices.size(); ++s) out[s + 1] = out[s] + prices[s];
  return out;
}

Total priced_term(const Problem& p, std::span<const double> prefix, NodeId v, Strategy s) {
  if (prefix.empty() || !p.has_memory(v)) return 0;
  const long double price = prefix[p.seg_hi(v)] - prefix[p.seg_lo(v)];
  const long double term =
      std::nearbyint(price * static_cast<long double>(p.usages(v)[static_cast<std::size_t>(s)]));
  // (a term past 10^18 would forbid the strategy; it is capped below)
  return static_cast<Total>(std::clamp(term, 0.0L, static_cast<long double>(kForbidden / 2)));
}

}  // namespace iopddl::inline v0::coordinator
