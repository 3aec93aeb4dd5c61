// Branch-and-bound on a priced cost network (memory priced into the node costs, so no
// memory limit): the inner optimiser of the pricing rounds on small reduced cores.
//
// TRW-S's rounding is a heuristic: on D's core (228 groups) the priced optimum at a
// worker's prices was 3-16 % below the energy of TRW-S's rounding after priced 1-opt, and
// repairing the optimum gave cheaper answers at every round measured (bench/results/
// exact_cores.md). The search finds that optimum, or a labelling at least as good as the
// one it starts from, within a node limit.
//
// Bounds by soft arc consistency, kept incrementally along the search and undone by a trail:
// the network is reparametrised (cost moved between node costs and edge tables, never
// changing any labelling's energy) so that every edge entry stays >= 0 and node minima are
// moved into a constant c0, which is then a lower bound of every completion:
//   - node consistency: each open node's least cost goes to c0; strategies with
//     c0 + cost >= the best energy are removed;
//   - arc consistency: after a neighbour loses strategies, each strategy's least entry in
//     the edge is moved into its node cost;
//   - directional arc consistency along a fixed order: a node's costs are moved through
//     its edges into its earlier neighbours, so that they pile up on the nodes the search
//     places first and reach c0 there.
// Binary branching (place a strategy / remove it), smallest domain per open degree first,
// the least cost strategy first (ties: the start's); limited discrepancy passes with a
// doubling allowance until the search is complete or the limit is spent.
//
// Doubles, with a tolerance for the reparametrisation's rounding: a heuristic optimiser, its
// claims are not certified (the proofs use ProofSearch against integer bounds).
#pragma once

#include <cstdint>
#include <vector>

#include "../lagrange/network.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

class PricedSearch {
 public:
  // The graph and edge tables of `net` (the copies of one network share them): the node
  // costs are read at each run, as the prices change.
  explicit PricedSearch(const CostNetwork& net);

  struct Outcome {
    bool complete = false;  // the search finished: x is optimal (up to the tolerance)
    bool improved = false;  // x changed to a labelling of lower energy
    double gain = 0;        // by this much
    double energy = 0;      // x's energy at the end
    std::uint64_t nodes = 0;
  };
  // From labelling x of `net` (its energy the bar to beat), within `node_limit` search
  // nodes; x ends at the least energy labelling found.
  Outcome run(const CostNetwork& net, std::vector<Strategy>& x, std::uint64_t node_limit,
              const StopControl& stop);

 private:
  std::size_t n() const { return k_.size(); }
  double entry(std::uint32_t e, Strategy a, Strategy b) const {
    return table_[e][static_cast<std::size_t>(a) * k_[ev_[e]] + b] - pu_[pubegin_[e] + a] -
           pv_[pvbegin_[e] + b];
  }
  // Edge e's entry for strategy a of one end and b of the other; `from_u`: a is edge_u's.
  double seen_from(std::uint32_t e, bool from_u, Strategy a, Strategy b) const {
    return from_u ? entry(e, a, b) : entry(e, b, a);
  }
  void set(double& slot, double value) {
    trail_.push_back({&slot, slot});
    slot = value;
  }
  struct Mark {
    std::size_t trail, removed, placed;
  };
  Mark mark() const { return {trail_.size(), removed_.size(), placed_trail_.size()}; }
  void undo(const Mark& m);
  auto later_first() const {
    return [this](std::uint32_t x, std::uint32_t y) { return position_[x] < position_[y]; };
  }
  void touch(std::uint32_t i);  // node consistency of i to be checked
  void queue_directional(std::uint32_t i);
  bool remove(std::uint32_t i, Strategy a);
  bool place(std::uint32_t i, Strategy a);
  void revise(std::uint32_t i, std::uint32_t e);       // arc consistency of i on edge e
  void directional(std::uint32_t i, std::uint32_t e);  // move the later end's costs into i
  bool node_consistency(std::uint32_t i);
  bool propagate();
  void dfs(int discrepancies);
  std::uint32_t choose() const;

  // The graph (fixed).
  std::vector<Strategy> k_;
  std::vector<std::uint32_t> eu_, ev_;
  std::vector<const double*> table_;
  std::vector<std::vector<std::uint32_t>> incident_;
  std::vector<std::uint32_t> position_;  // the directional order
  std::vector<std::size_t> ubegin_, pubegin_, pvbegin_;
  // The search state: node costs, edge deltas (entry = table - pu[a] - pv[b]), strategies
  // alive, placed nodes, c0.
  std::vector<double> u_, pu_, pv_;
  std::vector<char> alive_;
  std::vector<Strategy> domain_;
  std::vector<std::int32_t> placed_;        // -1: open
  std::vector<std::uint32_t> open_degree_;  // edges to open neighbours
  double c0_ = 0, best_ = 0, tolerance_ = 0;
  std::vector<std::pair<double*, double>> trail_;
  std::vector<std::pair<std::uint32_t, std::size_t>> removed_;  // (node, its entry in u_)
  std::vector<std::uint32_t> placed_trail_;
  // Propagation queues.
  std::vector<std::uint32_t> ac_queue_;
  std::vector<char> in_ac_, in_dac_, dirty_;
  std::vector<std::uint32_t> dac_heap_, dirty_list_;

  std::vector<double> alpha_;  // directional(): the full supports
  // Search.
  std::vector<Strategy> start_, best_x_;
  std::uint64_t nodes_ = 0, node_limit_ = 0, work_ = 0;
  bool complete_ = true, out_of_budget_ = false, found_ = false;
  StopPoll poll_{nullptr, 256};
};

}  // namespace iopddl::inline v0
