// Each group's cost deltas to all its strategies, kept until the group or a neighbour
// moves (LocalState::deltas fills them): a search that tries many groups between moves
// pays for each group's deltas once.
#pragma once

#include <cstdint>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

class DeltaCache {
 public:
  explicit DeltaCache(const Reduced& r) : offset_(r.num_nodes() + 1, 0) {
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g) offset_[g + 1] = offset_[g] + r.strategies(g);
    cache_.resize(offset_.back());
    cached_at_.assign(r.num_nodes(), 0);
    changed_.assign(r.num_nodes(), 0);
  }
  // g's deltas, at g's strategies.
  Total* slot(std::uint32_t g) { return cache_.data() + offset_[g]; }
  // Whether g's slot holds deltas computed after its neighbourhood last changed and after
  // the last change to everything.
  bool valid(std::uint32_t g) const {
    return cached_at_[g] >= changed_[g] && cached_at_[g] >= valid_from_;
  }
  void filled(std::uint32_t g) { cached_at_[g] = clock_; }
  // g moved: its and its neighbours' deltas are stale.
  void moved(const Reduced& r, std::uint32_t g) {
    changed_[g] = ++clock_;
    for (std::uint32_t e : r.incident(g)) changed_[r.other(e, g)] = clock_;
  }
  void clear() { valid_from_ = ++clock_; }

 private:
  std::vector<std::size_t> offset_;
  std::vector<Total> cache_;
  std::vector<std::uint64_t> cached_at_, changed_;  // clock readings
  std::uint64_t clock_ = 1, valid_from_ = 1;
};

}  // namespace iopddl::inline v0
