// The memory of one exact window search: the usage of every time cell the window's members
// touch, with the window's groups at their floor, and per window group and strategy the
// runs of cells where its usage is above the floor. Placing a group adds its runs and says
// whether every cell stays within the limit; a cell is a stretch of compressed time where
// no window member starts or ends, so the highest usage over it moves by the same amount as
// all its points. This is the residual capacity of every time segment in the window, read
// and written in O(cells touched) rather than O(members x log T) of the state's usage tree.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "iopddl/types.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

class WindowMemory {
 public:
  struct Run {
    std::uint32_t lo, hi;  // cells [lo, hi)
    Total add;             // usage above the group's floor there
  };

  // `window`: the groups, all lifted in `state` (at their floor there).
  void build(const LocalState& state, const std::vector<std::uint32_t>& window);
  // Window group i at strategy s: adds its usage; false (and nothing added) if a cell would
  // exceed the limit.
  bool place(std::size_t i, Strategy s);
  void unplace(std::size_t i, Strategy s);
  // Whether window group i at strategy s would fit beside what is placed (nothing added).
  bool fits(std::size_t i, Strategy s);
  // What a bound on the placements reads: the cells, the room left in each (the limit less
  // what is placed and the floors of the rest), and window group i's runs at strategy s.
  bool limited() const { return limited_ && !blocked_; }
  std::size_t cells() const { return used_.size(); }
  Total room(std::size_t c) const { return limit_ - used_[c]; }
  std::span<const Run> runs(std::size_t i, Strategy s) const {
    const std::size_t slot = slot_begin_[i] + s;
    return {runs_.data() + runs_begin_[slot], runs_begin_[slot + 1] - runs_begin_[slot]};
  }
  void charge(std::uint64_t work) { work_ += work; }
  // Cells read or written since the last call (the work of the placements, for the meter).
  std::uint64_t take_work() { return std::exchange(work_, 0); }

 private:
  static std::vector<std::uint32_t> cell_points(const LocalState& state,
                                                const std::vector<std::uint32_t>& window);
  void add_runs(const LocalState& state, std::uint32_t g, std::size_t first_slot,
                const std::vector<std::uint32_t>& points);
  bool limited_ = false;
  bool blocked_ = false;  // over the limit with the window at its floor
  std::uint64_t work_ = 0;
  Total limit_ = 0;
  std::vector<Total> used_;              // per cell
  std::vector<Run> runs_;                // per window group and strategy, in CSR
  std::vector<std::size_t> runs_begin_;  // per (group, strategy) slot
  std::vector<std::size_t> slot_begin_;  // per window group: its first slot
};

}  // namespace iopddl::inline v0
