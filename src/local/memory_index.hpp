// Which members of the reduced problem are live at a time segment, for moves aimed at one
// time point (greedy repair, time windows of the large-neighbourhood search).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

// Which members are live at a time segment: each member with memory is stored at the
// O(log T) nodes of a segment tree that cover its interval, so the members live at t are
// found on the path from the root to leaf t, in O(log T + answer).
struct MemoryIndex {
  std::vector<std::uint32_t> group;      // member index -> group
  std::vector<std::size_t> with_memory;  // members that use memory
  std::size_t leaves = 1;
  std::vector<std::vector<std::uint32_t>> node;  // segment tree node -> members
  explicit MemoryIndex(const Reduced& r) : group(r.num_members()) {
    const Problem& p = r.original();
    leaves = std::max<std::size_t>(p.num_segments(), 1);
    node.resize(4 * leaves);
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
        group[mi] = g;
        const NodeId v = r.member_node(mi);
        if (!p.has_memory(v)) continue;
        with_memory.push_back(mi);
        insert(1, 0, leaves, p.seg_lo(v), p.seg_hi(v), static_cast<std::uint32_t>(mi));
      }
  }
  void insert(std::size_t x, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi,
              std::uint32_t mi) {
    if (hi <= l || r <= lo) return;
    if (lo <= l && r <= hi) {
      node[x].push_back(mi);
      return;
    }
    const std::size_t m = (l + r) / 2;
    insert(2 * x, l, m, lo, hi, mi);
    insert(2 * x + 1, m, r, lo, hi, mi);
  }
  // Calls f(x) for the segment tree's nodes x from the root down to leaf t: their members
  // are the ones live at t.
  template <class F>
  void walk(std::size_t t, F&& f) const {
    std::size_t x = 1, l = 0, r = leaves;
    for (;;) {
      f(x);
      if (r - l == 1) return;
      const std::size_t m = (l + r) / 2;
      if (t < m) {
        x = 2 * x, r = m;
      } else {
        x = 2 * x + 1, l = m;
      }
    }
  }
  void path(std::size_t t, std::vector<std::size_t>& out) const {
    walk(t, [&](std::size_t x) { out.push_back(x); });
  }
  template <class F>
  void live_at(std::size_t t, F&& f) const {
    walk(t, [&](std::size_t x) {
      for (std::uint32_t mi : node[x]) f(mi);
    });
  }
};

}  // namespace iopddl::inline v0
