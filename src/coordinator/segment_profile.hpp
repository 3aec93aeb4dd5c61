// Sums per time segment: what each of a list of nodes adds over the segments where it is
// live, by a difference array (the coordinator's usage, room, allowance and demand profiles).
#pragma once

#include <cstddef>
#include <vector>

#include "iopddl/problem.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0::coordinator {

// Per time segment of `p`, the sum of delta(i) over the live segments of node(i), for i in
// [0, count); nodes without memory add nothing.
template <class Node, class Delta>
std::vector<Total> segment_profile(const Problem& p, std::size_t count, Node node, Delta delta) {
  std::vector<Total> diff(p.num_segments() + 1, 0);
  for (std::size_t i = 0; i < count; ++i) {
    const NodeId v = node(i);
    if (!p.has_memory(v)) continue;
    const Total d = delta(i);
    diff[p.seg_lo(v)] += d;
    diff[p.seg_hi(v)] -= d;
  }
  std::vector<Total> out(p.num_segments());
  Total run = 0;
  for (std::size_t s = 0; s < out.size(); ++s) out[s] = run += diff[s];
  return out;
}

}  // namespace iopddl::inline v0::coordinator
