// Greedy elimination orders of the reduced graph (or of a set of its groups): min-fill,
// ties to the smaller domain. The width of the order bounds the tree-width from above, and
// the largest bag's domain product (in log2) is the work of exact dynamic programming over
// the matching tree decomposition: how hard a core is for exact search.
#pragma once

#include <cstdint>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl {

struct Elimination {
  std::vector<std::uint32_t> order;  // groups, first eliminated first
  std::size_t width = 0;             // largest bag minus one
  double log2_bag = 0;               // log2 of the largest bag's domain product
};

// Min-fill elimination of `groups` (all groups when empty), edges to groups outside ignored.
Elimination min_fill_order(const Reduced& r, const std::vector<std::uint32_t>& groups = {});

}  // namespace iopddl
