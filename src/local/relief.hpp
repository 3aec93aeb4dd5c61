// The moves that relieve one overloaded time point, shared by greedy repair and the compound
// moves' inner repair: every group with a member live at t, each of its other strategies,
// the move's cost change and the usage it frees at t. Only the members live at t count
// (found through the memory index), and the list of them by group is kept for the last t:
// repairs and chains mostly meet the same few tight points.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "memory_index.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

class ReliefMoves {
 public:
  explicit ReliefMoves(const MemoryIndex& index) : index_(index) {}
  // A `below` that lets every move through (above any sum of int64 deltas).
  static constexpr Total kAnyCost = Total{1} << 126;

  // Calls take(h, s, d, freed) for every move of a group h with a member live at t, h not
  // marked in `excluded` (null: none), to a strategy s with cost change d < `below` that
  // frees freed > 0 at t; groups in increasing order, strategies in order. Returns the
  // entries it read (its work).
  template <class F>
  std::uint64_t at(LocalState& state, std::size_t t, const std::vector<char>* excluded, Total below,
                   F&& take) {
    load(t);
    const Reduced& r = state.reduced();
    std::uint64_t work = 0;
    for (std::size_t i = 0, j; i < live_.size(); i = j) {
      const std::uint32_t h = live_[i].first;
      for (j = i + 1; j < live_.size() && live_[j].first == h;) ++j;
      if (excluded != nullptr && (*excluded)[h]) continue;
      const Strategy cur = state.at(h);
      const auto dh = state.deltas(h);
      work += dh.size();
      for (Strategy s = 0; s < r.strategies(h); ++s) {
        if (s == cur || dh[s] >= below) continue;
        work += j - i;
        Total freed = 0;
        for (std::size_t k = i; k < j; ++k)
          freed += Total{r.member_usage(live_[k].second, cur)} - r.member_usage(live_[k].second, s);
        if (freed > 0) take(h, s, dh[s], freed);
      }
    }
    return work;
  }

 private:
  // The (group, member) pairs live at t, by group.
  void load(std::size_t t) {
    if (t == live_t_) return;
    live_t_ = t;
    live_.clear();
    index_.live_at(t, [&](std::uint32_t mi) { live_.push_back({index_.group[mi], mi}); });
    std::sort(live_.begin(), live_.end());
  }

  const MemoryIndex& index_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> live_;
  static constexpr std::size_t kNoPoint = static_cast<std::size_t>(-1);
  std::size_t live_t_ = kNoPoint;  // the time point live_ is for
};

}  // namespace iopddl::inline v0
