// Complete search of the whole reduced problem under the true memory limit, against the
// bound engine's reparametrised problem: depth-first branch-and-bound whose bound at every
// search node is the Lagrangian bound of the rest given the placed groups (the placed part's
// reparametrised cost, plus each open group's least reparametrised cost given its placed
// neighbours; edges between open groups count 0, their minimum there). Where the root
// bound is close to the best cost, most strategies cannot be part of a cheaper answer and
// the search is small; when it finishes, the best answer it holds is optimal.
//
// The search finds cheaper answers on the way (anytime); memory is checked exactly, in the
// cells of the window memory, with the groups not yet placed at their floor.
#pragma once

#include <cstdint>
#include <vector>

#include "../lagrange/bound.hpp"
#include "../local/open_costs.hpp"
#include "../local/search_budget.hpp"
#include "../local/state.hpp"
#include "../local/window_memory.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

class ProofSearch {
 public:
  ProofSearch(const Reduced& r, const Reparametrisation& rep);

  struct Outcome {
    bool complete = false;  // the search finished: the state's assignment is optimal
    bool improved = false;  // the state holds a cheaper assignment than it did
    std::uint64_t nodes = 0;
    std::uint64_t work = 0;  // as StopPoll counts it
  };
  // From a feasible, forbidden-free `state` (its cost the bar to beat), within `node_limit`
  // search nodes; the state ends at the best assignment found.
  Outcome run(LocalState& state, std::uint64_t node_limit, const StopControl& stop);

 private:
  void order();
  void dfs(std::size_t depth, Total partial_rep, Total partial_cost);
  void add_to_later(std::size_t i, Strategy s, int sign);

  const Reduced& r_;
  const Reparametrisation& rep_;
  std::vector<std::uint32_t> order_;     // groups in search order
  std::vector<std::uint32_t> position_;  // group -> its place in order_
  // Per position and strategy: the reparametrised cost given the placed neighbours, and
  // the true cost (own cost plus edges to placed neighbours, at open_'s offsets).
  OpenCosts open_;
  std::vector<Total> true_;
  WindowMemory memory_;
  std::vector<Strategy> chosen_, best_;
  Total best_cost_ = 0, bar_ = 0;  // bar_: the scaled bound must stay at or below it
  SearchBudget budget_;
};

}  // namespace iopddl::inline v0
