// A region of the global incumbent as a problem of its own, for the ranks of a distributed
// run to improve with the whole single-process solver. Every node outside the region is
// held at the incumbent's label: an edge to it becomes node costs of its end inside, and
// its memory is taken off the region's capacity. The capacity per time segment (the
// region's allowance, coordinator/assembly.hpp) becomes a usage limit plus padding nodes,
// one per run of the region's own time segments whose capacity is below the limit: each
// has one strategy, cost 0, and the usage that brings the room left to the capacity. The
// region's own segments are coarser than the whole problem's, so the capacity on one is the
// least over the fine segments it spans (safe: the region's usage is constant on it).
// Any labelling of the region that fits its problem therefore fits the whole problem beside
// the incumbent's other labels, and its cost differs from the whole problem's by a constant.
// With the coordinator's memory prices (coordinator/memory_prices.hpp), each allowed strategy
// also costs its priced term (capped below 10^18): then the difference is that constant plus
// the priced terms of the labelling.
#pragma once

#include <span>
#include <vector>

#include "iopddl/problem.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

struct RegionProblem {
  Problem problem;            // the region's nodes first, in `nodes` order, then the padding
  std::vector<NodeId> nodes;  // the whole problem's node of each region node
};

// `nodes` (sorted, distinct) of `p` under incumbent `x`; `capacity` holds one value per time
// segment of `p` (ignored without a usage limit) and must be at least the region's usage
// under `x` wherever one of its nodes is live. `price_prefix`: the prefix sums of the memory
// prices per time segment of `p`, or empty for none.
RegionProblem region_problem(const Problem& p, std::span<const Strategy> x,
                             std::vector<NodeId> nodes, std::span<const Total> capacity,
                             std::span<const double> price_prefix = {});

}  // namespace iopddl::inline v0
