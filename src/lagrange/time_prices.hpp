// Per-time-segment memory prices: the Lagrangian multipliers of the memory constraint at
// each time segment, shared by the workers' per-time pricing and the regions' dual. A
// member live on segments [lo, hi) pays the sum of the prices there per unit of usage.
// Also the segments where prices (or memory rows) are needed at all.
#pragma once

#include <cstdint>
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

// The time segments where some node starts and some node ends right after: every other
// segment's live set is contained in one of theirs, so memory rows (or multipliers) there
// are the only ones needed (exact/mip_model.hpp, memory_lp.hpp).
inline std::vector<std::uint32_t> maximal_segments(const Problem& p) {
  std::vector<char> starts(p.num_segments() + 1, 0), ends(p.num_segments() + 1, 0);
  for (NodeId v = 0; v < p.num_nodes(); ++v)
    if (p.has_memory(v)) {
      starts[p.seg_lo(v)] = 1;
      ends[p.seg_hi(v)] = 1;
    }
  std::vector<std::uint32_t> kept;
  for (std::uint32_t s = 0; s < p.num_segments(); ++s)
    if (starts[s] && ends[s + 1]) kept.push_back(s);
  return kept;
}

}  // namespace iopddl::inline v0
