// Per-time-segment memory prices: the Lagrangian multipliers of the memory constraint at
// each time segment, shared by the workers' per-time pricing and the regions' dual. A
// member live on segments [lo, hi) pays the sum of the prices there per unit of usage.
#pragma once

#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

// w[mi] = the sum of price[t] over member mi's segments (0 for members without memory).
// `price` covers at least every segment.
inline void member_time_weights(const Reduced& r, const std::vector<double>& price,
                                std::vector<double>& w) {
  const Problem& p = r.original();
  std::vector<double> prefix(price.size() + 1, 0.0);
  for (std::size_t t = 0; t < price.size(); ++t) prefix[t + 1] = prefix[t] + price[t];
  w.assign(r.num_members(), 0.0);
  for (std::size_t mi = 0; mi < w.size(); ++mi) {
    const NodeId v = r.member_node(mi);
    if (p.has_memory(v)) w[mi] = prefix[p.seg_hi(v)] - prefix[p.seg_lo(v)];
  }
}

}  // namespace iopddl::inline v0
