// Large-neighbourhood search: free a window of reduced nodes and re-solve it exactly with
// everything else fixed, by depth-first branch-and-bound (forward checking: each open
// node's least cost given its fixed and placed neighbours), memory checked against the
// true limit at every step in the window's own time cells (window_memory.hpp). Two kinds
// of window:
//  - in the graph: connected, grown breadth-first from a random seed node;
//  - in time: nodes live at one well-filled time point, whose usage there depends on their
//    strategy. These trade memory between nodes that share no edge, which is what a
//    memory-bound instance with many isolated nodes needs.
// Each kind's window size adapts: it grows while windows are solved to optimality within
// the node budget and shrinks when they are not.
#pragma once

#include <vector>

#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"
#include "iopddl/stop.hpp"
#include "open_costs.hpp"
#include "search_budget.hpp"
#include "state.hpp"
#include "window_memory.hpp"

namespace iopddl::inline v0 {
struct MemoryIndex;
}

namespace iopddl::inline v0 {

class WindowSearch {
 public:
  // With `index`, half of the windows (when memory is limited) are time windows.
  explicit WindowSearch(const Reduced& r, const MemoryIndex* index = nullptr,
                        const WindowOptions& options = {});
  // Runs `windows` windows on a feasible `state`; returns how many improved it.
  int run(LocalState& state, Rng& rng, int windows, const StopControl& stop);
  std::size_t window_size() const { return size_[kGraph]; }
  void set_window_size(std::size_t size) { size_[kGraph] = size_[kTime] = size; }
  void set_node_limit(std::size_t limit) { budget_.limit = limit; }
  // The whole reduced problem as one window, with a budget of search nodes. complete: the
  // search finished, so the state now holds an optimal assignment (if `feasible`) or no
  // feasible forbidden-free assignment exists (if not).
  struct Exact {
    bool complete;
    bool feasible;
  };
  Exact solve_exactly(LocalState& state, std::size_t node_limit, const StopControl& stop);
  // The same over the given groups, the others held (complete: the window's best is placed).
  Exact solve_window(LocalState& state, const std::vector<std::uint32_t>& groups,
                     std::size_t node_limit, const StopControl& stop);

 private:
  enum Kind { kGraph = 0, kTime = 1 };
  void clear_window();
  void grow_window(Rng& rng);
  void time_window(const LocalState& state, Rng& rng);
  bool search_window(LocalState& state);  // true if it found a cheaper assignment
  void dfs(std::size_t depth, Total partial);
  void add_to_later(std::size_t i, Strategy s, int sign);
  Cost entry(const LocalState& state, std::uint32_t e) const;

  const Reduced& r_;
  const MemoryIndex* index_;
  std::vector<char> varies_;  // per member: whether its usage depends on the strategy
  WindowOptions o_;
  std::size_t size_[2];
  std::vector<std::uint32_t> forbidden_;  // nodes at a forbidden pick, at the start of run()
  std::vector<std::uint32_t> window_;
  std::vector<std::uint32_t> position_;  // group -> index in window_ (or npos)
  // Per window node and strategy: own cost, edges to fixed nodes and to placed window nodes.
  OpenCosts open_;
  WindowMemory memory_;
  std::vector<Strategy> chosen_;  // per window node: its strategy on the search's path
  std::vector<Strategy> best_;
  Total best_cost_ = 0;
  SearchBudget budget_;  // its poll: the stop control of the current run
};

}  // namespace iopddl::inline v0
