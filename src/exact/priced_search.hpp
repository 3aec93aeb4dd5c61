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
  std::size_t n() const { return g_.k.size(); }
  double entry(std::uint32_t e, Strategy a, Strategy b) const {
    return g_.table[e][static_cast<std::size_t>(a) * g_.k[g_.ev[e]] + b] -
           c_.pu[g_.pubegin[e] + a] - c_.pv[g_.pvbegin[e] + b];
  }
  // Edge e's entry for strategy a of one end and b of the other; `from_u`: a is edge_u's.
  double seen_from(std::uint32_t e, bool from_u, Strategy a, Strategy b) const {
    return from_u ? entry(e, a, b) : entry(e, b, a);
  }
  void set(double& slot, double value) {
    trail_.cells.push_back({&slot, slot});
    slot = value;
  }
  struct Mark {
    std::size_t trail, removed, placed;
  };
  Mark mark() const { return {trail_.cells.size(), trail_.removed.size(), trail_.placed.size()}; }
  void undo(const Mark& m);
  auto later_first() const {
    return [this](std::uint32_t x, std::uint32_t y) { return g_.position[x] < g_.position[y]; };
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
  struct Graph {
    std::vector<Strategy> k;
    std::vector<std::uint32_t> eu, ev;
    std::vector<const double*> table;
    std::vector<std::vector<std::uint32_t>> incident;
    std::vector<std::uint32_t> position;  // the directional order
    std::vector<std::size_t> ubegin, pubegin, pvbegin;
  };
  // The reparametrised network: node costs, edge deltas (entry = table - pu[a] - pv[b]), c0.
  struct Costs {
    std::vector<double> u, pu, pv;
    double c0 = 0;
  };
  // The search's decisions: strategies alive, placed nodes, edges to open neighbours.
  struct Domains {
    std::vector<char> alive;
    std::vector<Strategy> domain;
    std::vector<std::int32_t> placed;        // -1: open
    std::vector<std::uint32_t> open_degree;  // edges to open neighbours
  };
  // What undo() takes back to a mark: cells set, strategies removed, nodes placed.
  struct Trail {
    std::vector<std::pair<double*, double>> cells;
    std::vector<std::pair<std::uint32_t, std::size_t>> removed;  // (node, its entry in u)
    std::vector<std::uint32_t> placed;
  };
  // Propagation queues.
  struct Queues {
    std::vector<std::uint32_t> ac;
    std::vector<char> in_ac, in_dac, dirty;
    std::vector<std::uint32_t> dac_heap, dirty_list;
  };
  // The run's counts and how it ended.
  struct Counts {
    std::uint64_t nodes = 0, node_limit = 0, work = 0;
    bool complete = true, out_of_budget = false, found = false;
  };
  Graph g_;
  Costs c_;
  Domains d_;
  Trail trail_;
  Queues q_;
  Counts run_;
  std::vector<double> alpha_;  // directional(): the full supports
  std::vector<Strategy> start_, best_x_;
  double best_ = 0, tolerance_ = 0;
  StopPoll poll_{nullptr, 256};
};

}  // namespace iopddl::inline v0
