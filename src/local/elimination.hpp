// Orders of the reduced graph's groups (or of a set of them).
//  - Min-fill elimination, ties to the smaller domain: the width of the order bounds the
//    tree-width from above, and the largest bag's domain product (in log2) is the work of
//    exact dynamic programming over the matching tree decomposition: how hard a core is.
//  - Maximum cardinality search: the order exact branch-and-bound places groups in, each
//    as soon as possible after its neighbours, so that open groups see their edges placed.
#pragma once

#include <cstdint>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

struct Elimination {
  std::vector<std::uint32_t> order;  // groups, first eliminated first
  std::size_t width = 0;             // largest bag minus one
  double log2_bag = 0;               // log2 of the largest bag's domain product
};

// Min-fill elimination of `groups` (all groups when empty), edges to groups outside ignored.
Elimination min_fill_order(const Reduced& r, const std::vector<std::uint32_t>& groups = {});

// Maximum cardinality search over `groups` of a graph (the reduced problem, or a cost
// network: incident() and other()): next the one with the most neighbours ordered so far,
// ties to the earlier in `groups`. slot[g] is g's index in `groups` (kNoIndex for groups
// outside, whose edges are ignored).
template <class Graph>
std::vector<std::uint32_t> max_cardinality_order(const Graph& graph,
                                                 const std::vector<std::uint32_t>& groups,
                                                 const std::vector<std::uint32_t>& slot) {
  const std::size_t n = groups.size();
  std::vector<std::uint32_t> ordered_neighbours(n, 0), order;
  std::vector<char> taken(n, 0);
  order.reserve(n);
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t next = n;
    for (std::size_t i = 0; i < n; ++i)
      if (!taken[i] && (next == n || ordered_neighbours[i] > ordered_neighbours[next])) next = i;
    taken[next] = 1;
    order.push_back(groups[next]);
    for (std::uint32_t e : graph.incident(groups[next])) {
      const std::uint32_t j = slot[graph.other(e, groups[next])];
      if (j != kNoIndex && !taken[j]) ++ordered_neighbours[j];
    }
  }
  return order;
}

}  // namespace iopddl::inline v0
