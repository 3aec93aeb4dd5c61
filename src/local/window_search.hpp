// Large-neighbourhood search: free a window of reduced nodes and re-solve it exactly with
// everything else fixed, by depth-first branch-and-bound on the incremental state (so memory
// is checked against the true limit at every step). Two kinds of window:
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
#include "state.hpp"

namespace iopddl {
struct MemoryIndex;
}

namespace iopddl {

class WindowSearch {
 public:
  // With `index`, half of the windows (when memory is limited) are time windows.
  explicit WindowSearch(const Reduced& r, const MemoryIndex* index = nullptr,
                        const WindowOptions& options = {});
  // Runs `windows` windows on a feasible `state`; returns how many improved it.
  int run(LocalState& state, Rng& rng, int windows, const StopControl& stop);
  std::size_t window_size() const { return size_[kGraph]; }
  void set_window_size(std::size_t size) { size_[kGraph] = size_[kTime] = size; }
  void set_node_limit(std::size_t limit) { node_limit_ = limit; }
  // The whole reduced problem as one window, with a budget of search nodes. complete: the
  // search finished, so the state now holds an optimal assignment (if `feasible`) or no
  // feasible forbidden-free assignment exists (if not).
  struct Exact {
    bool complete;
    bool feasible;
  };
  Exact solve_exactly(LocalState& state, std::size_t node_limit, const StopControl& stop);

 private:
  enum Kind { kGraph = 0, kTime = 1 };
  void clear_window();
  void grow_window(Rng& rng);
  void time_window(const LocalState& state, Rng& rng);
  bool search_window(LocalState& state);  // true if it found a cheaper assignment
  void dfs(LocalState& state, std::size_t depth, Total partial);
  Cost entry(const LocalState& state, std::uint32_t e) const;

  const Reduced& r_;
  std::vector<Cost> table_min_;  // per edge: its smallest entry
  const MemoryIndex* index_;
  std::vector<char> varies_;  // per member: whether its usage depends on the strategy
  WindowOptions o_;
  std::size_t size_[2];
  std::vector<std::uint32_t> forbidden_;  // nodes at a forbidden pick, at the start of run()
  std::vector<std::uint32_t> window_;
  std::vector<std::uint32_t> position_;     // group -> index in window_ (or npos)
  std::vector<std::uint32_t> inner_edges_;  // edges with both ends in the window
  std::vector<Total> fixed_;                // per window node and strategy: own + fixed edges
  std::vector<std::size_t> fixed_begin_;
  std::vector<Total> rest_bound_;  // lower bound of the nodes from depth d on
  std::vector<Strategy> best_;
  Total best_cost_ = 0;
  std::size_t nodes_ = 0, node_limit_;
  bool complete_ = true;
  bool found_ = false;
  StopPoll poll_{nullptr, 256};  // the stop control of the current run, every 256 search nodes
};

}  // namespace iopddl
