// Complete search of the whole reduced problem under the true memory limit, against the
// bound engine's reparametrised problem: depth-first branch-and-bound whose bound at every
// search node is the Lagrangian bound of the rest given the placed groups (the placed part's
// reparametrised cost, plus each open group's least reparametrised cost given its placed
// neighbours; edges between open groups count 0, their minimum there). Where the root
// bound is close to the best cost, most strategies cannot be part of a cheaper answer and
// the search is small; when it finishes, the best answer it holds is optimal.
//
// Groups are placed in one fixed order, the widest spread of reparametrised costs first.
// The search finds cheaper answers on the way (anytime); memory is checked exactly, in the
// cells of the window memory, with the groups not yet placed at their floor.
//
// Memory inside the bound (`lookahead`): after each placement, every open group's
// strategies that no longer fit beside the placed groups (the other open groups at their
// floor) are left out of its least cost, and a group with none left ends the branch. The
// same filtered minima also bound the true cost (placed part, each open group's least true
// cost given its placed neighbours, each edge between open groups at its least entry): the
// priced bound gives away the multipliers times the memory left free, which deep in the
// tree, where memory has slack, the unpriced bound does not.
//
// Then a knapsack per time cell, for each of the two bounds: with every open group at its
// cheapest strategy, each group is charged to the cell of its runs that is most over the
// limit, and the groups charged to one cell must fit its room (the limit less the placed
// groups and the other open groups' floors). The least extra cost of that multiple-choice
// knapsack, by its linear relaxation's dual (weak duality: any price gives a valid bound,
// the relaxation's best price the largest), adds to the bound; the groups of different
// cells are disjoint, so the extras add up. A cell whose groups cannot fit at all ends the
// branch.
//
// Strategies put out stay out below on the path (usage and placed edges only grow there),
// so a lookahead re-checks only those whose cells the last placement touched. Reduced-cost
// fixing puts out more: a strategy whose excess over its group's least, added to the bound
// without its group's knapsack, passes the bar.
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
  ProofSearch(const Reduced& r, const Reparametrisation& rep, bool lookahead = true,
              bool knapsack = true);

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
  // Whether the positions from `depth` on can still beat the best (see above).
  bool lookahead(std::size_t depth, Total partial_rep, Total partial_cost);
  // The knapsacks' extra cost over the open groups' least `priced` (reparametrised) or true
  // costs; false if a cell cannot hold its groups.
  bool memory_extra(std::size_t depth, bool priced, Total& extra);
  // Puts an open cost entry out for the subtree (dfs takes it back on the way up).
  void put_out(std::size_t entry);

  const Reduced& r_;
  const Reparametrisation& rep_;
  std::vector<std::uint32_t> order_;     // groups in search order
  std::vector<std::uint32_t> position_;  // group -> its place in order_
  // Per position and strategy: the reparametrised cost given the placed neighbours, and
  // the true cost (own cost plus edges to placed neighbours, at open_'s offsets).
  OpenCosts open_;
  std::vector<Total> true_;
  bool lookahead_ = true, knapsack_ = true;
  std::uint64_t lookahead_work_ = 0;  // strategies the lookahead weighed since the last node
  // The lookahead's scratch, per open position from the depth: the strategies that fit
  // (CSR) and the cheapest of them, priced and true; per cell the demand at the cheapest.
  struct Span {
    std::uint32_t lo = 0, hi = 0;  // the cells of a strategy's runs: [lo, hi)
  };
  std::vector<Span> span_;             // per open cost entry
  std::vector<char> dead_;             // per open cost entry: out since a lookahead above
  std::vector<std::uint32_t> killed_;  // the entries put out, deepest last
  std::vector<Strategy> fit_;
  std::vector<Total> fit_add_;  // per entry of fit_: its usage in the knapsack's cell
  std::vector<std::size_t> fit_begin_;
  std::vector<Strategy> cheapest_[2];
  std::vector<Total> least_[2];
  std::vector<Total> cell_extra_[2];  // per open position: its knapsack's extra (0: none)
  std::vector<Total> demand_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> charged_;  // (cell, open position)
  std::vector<std::pair<long double, long double>> points_, steps_;
  std::vector<Total> open_floor_;  // per depth: the least entries of edges between open groups
  WindowMemory memory_;
  std::vector<Strategy> chosen_, best_;
  Total best_cost_ = 0, bar_ = 0;  // bar_: the scaled bound must stay at or below it
  SearchBudget budget_;
};

}  // namespace iopddl::inline v0
