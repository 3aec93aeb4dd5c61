// The candidate moves of greedy repair (repair.hpp) at the overloaded point it works on,
// kept from one point to the next.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "memory_index.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

struct ReliefMove {
  double score;  // cost change per unit of usage freed at the point
  std::uint32_t g;
  Strategy s;
  Total d;
  bool operator<(const ReliefMove& o) const {
    return score != o.score ? score < o.score : g != o.g ? g < o.g : s < o.s;
  }
};

// The moves that relieve the overloaded point a repair step works on (every group with a
// member live there, each of its other strategies, its cost change, the usage it frees
// there), in increasing (score, group, strategy) order. A repair walks thousands of points
// whose live groups are mostly the same, and rebuilding and sorting the list at each
// (10,000 groups live at a point, each read from scattered memory) took 18 s of a
// 300,000-node instance's first repair: the list is kept from one point to the next, and
// only the groups whose live members changed, that moved, or whose neighbour moved (their
// cost changes are stale) are read again. The list and the work charged are what a
// rebuild at every point would give.
class RepairMoves {
 public:
  explicit RepairMoves(const MemoryIndex& index, std::uint32_t groups)
      : index_(index), mark_(groups, 0) {}

  // The candidates at t, sorted; `work` gets the entries a rebuild would read.
  const std::vector<ReliefMove>& at(LocalState& state, std::size_t t, std::uint64_t& work) {
    const Reduced& r = state.reduced();
    ++epoch_;
    for (std::uint32_t g : moved_) {
      mark_[g] = epoch_;
      for (std::uint32_t e : r.incident(g)) mark_[r.other(e, g)] = epoch_;
    }
    moved_.clear();
    next_.clear();
    index_.live_at(t, [&](std::uint32_t mi) { next_.push_back(mi); });
    // Members are numbered group by group, so member order is group order.
    std::sort(next_.begin(), next_.end());
    mark_changed_members();
    live_.swap(next_);

    kept_.clear();
    for (const ReliefMove& c : list_)
      if (mark_[c.g] != epoch_) kept_.push_back(c);
    fresh_.clear();
    work = 0;
    for (std::size_t i = 0, j; i < live_.size(); i = j) {
      const std::uint32_t h = index_.group[live_[i]];
      for (j = i + 1; j < live_.size() && index_.group[live_[j]] == h;) ++j;
      const std::uint64_t k = r.strategies(h);
      work += k + (k - 1) * (j - i);
      if (mark_[h] == epoch_) read(state, h, i, j);
    }
    std::sort(fresh_.begin(), fresh_.end());
    list_.resize(kept_.size() + fresh_.size());
    std::merge(kept_.begin(), kept_.end(), fresh_.begin(), fresh_.end(), list_.begin());
    return list_;
  }

  // g moved: its candidates and its neighbours' are stale.
  void moved(std::uint32_t g) { moved_.push_back(g); }

 private:
  // Marks the groups whose live members differ between live_ (the last point) and next_.
  void mark_changed_members() {
    std::size_t a = 0, b = 0;
    while (a < live_.size() || b < next_.size()) {
      if (b == next_.size() || (a < live_.size() && live_[a] < next_[b])) {
        mark_[index_.group[live_[a++]]] = epoch_;
      } else if (a == live_.size() || next_[b] < live_[a]) {
        mark_[index_.group[next_[b++]]] = epoch_;
      } else {
        ++a, ++b;
      }
    }
  }

  // h's moves with members live_[i, j).
  void read(LocalState& state, std::uint32_t h, std::size_t i, std::size_t j) {
    const Reduced& r = state.reduced();
    const Strategy cur = state.at(h);
    const auto dh = state.deltas(h);
    for (Strategy s = 0; s < r.strategies(h); ++s) {
      if (s == cur) continue;
      Total freed = 0;
      for (std::size_t m = i; m < j; ++m)
        freed += Total{r.member_usage(live_[m], cur)} - r.member_usage(live_[m], s);
      if (freed > 0)
        fresh_.push_back({static_cast<double>(dh[s]) / static_cast<double>(freed), h, s, dh[s]});
    }
  }

  const MemoryIndex& index_;
  std::vector<std::uint32_t> mark_;  // per group: the epoch it was last found changed
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> moved_;        // groups moved since the last point
  std::vector<std::uint32_t> live_, next_;  // members live at the last point, the next
  std::vector<ReliefMove> list_, kept_, fresh_;
};

}  // namespace iopddl::inline v0
