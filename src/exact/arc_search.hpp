// Branch-and-bound on a pairwise cost network, bounded by soft arc consistency: the search
// of both the pricing rounds' optimiser (PricedSearch, in doubles, memory priced into the
// node costs) and the proof search (ProofSearch, in exact integers on the certified
// reparametrisation, memory checked against the true limit).
//
// Bounds kept incrementally along the search and undone by a trail: the network is
// reparametrised (cost moved between node costs and edge tables, never changing any
// labelling's value) so that every edge entry stays >= 0 and node minima are moved into a
// constant c0, which is then a lower bound of every completion:
//   - node consistency: each open node's least cost goes to c0; strategies with
//     c0 + cost at or above the bar are removed;
//   - arc consistency: after a neighbour loses strategies, each strategy's least entry in
//     the edge is moved into its node cost;
//   - directional arc consistency along a fixed order: a node's costs are moved through
//     its edges into its earlier neighbours, so that they pile up on the nodes the search
//     places first and reach c0 there.
// Binary branching (place a strategy / remove it), smallest domain per open degree first,
// the least cost strategy first (ties: the best labelling's); limited discrepancy passes
// with a doubling allowance until the search is complete or the limit is spent.
//
// What a leaf is worth, and whether a strategy may be placed at all, is the caller's
// (`Hooks`): the priced search's leaves are worth their c0; the proof search's are worth
// their true cost and its placements must fit the memory limit.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "iopddl/stop.hpp"
#include "iopddl/types.hpp"

namespace iopddl {

// The graph of a network: strategies per node, edge ends, per edge its table (row-major in
// the edge's first end), per node its edges.
template <class Value>
struct ArcGraph {
  std::vector<Strategy> k;
  std::vector<std::uint32_t> eu, ev;
  std::vector<const Value*> table;
  std::vector<std::vector<std::uint32_t>> incident;
};

template <class Value>
class ArcSearch {
 public:
  struct Hooks {
    // Whether node i may take strategy a given the placed nodes (their strategies placed
    // through fits(), in order); a placement that fits is released in reverse order.
    virtual bool fits(std::uint32_t /*i*/, Strategy /*a*/) { return true; }
    virtual void release(std::uint32_t /*i*/, Strategy /*a*/) {}
    // A complete labelling reached with bound c0: the bar for the rest of the search if it
    // is better than the best so far (it becomes the best), nothing if not.
    virtual std::optional<Value> leaf(const std::vector<Strategy>& x, Value c0) = 0;

   protected:
    ~Hooks() = default;
  };

  explicit ArcSearch(ArcGraph<Value> graph);

  struct Outcome {
    bool complete = false;  // the search finished: no labelling below the last bar
    bool found = false;     // `best` changed
    // c0 after the root's propagation against the first bar (the bar itself when that
    // proved nothing below it): no labelling below the first bar has a smaller bound.
    Value root = 0;
    std::uint64_t nodes = 0;
  };
  // Node costs `unary` (per node, its strategies in order), looking for leaves the hooks
  // take, starting from `bar` (pruned: bound >= bar); `best` the best labelling so far (the
  // value order's ties), the best found on exit. `tolerance`: what counts as no cost at all
  // (0 for integers). Within `node_limit` search nodes.
  Outcome run(const std::vector<Value>& unary, std::vector<Strategy>& best, Value bar,
              Value tolerance, Hooks& hooks, std::uint64_t node_limit, const StopControl& stop);

  std::size_t n() const { return g_.k.size(); }
  std::size_t first_strategy(std::uint32_t i) const { return ubegin_[i]; }  // in `unary`

 private:
  Value entry(std::uint32_t e, Strategy a, Strategy b) const {
    return g_.table[e][static_cast<std::size_t>(a) * g_.k[g_.ev[e]] + b] - pu_[pubegin_[e] + a] -
           pv_[pvbegin_[e] + b];
  }
  // Edge e's entry for strategy a of one end and b of the other; `from_u`: a is edge_u's.
  Value seen_from(std::uint32_t e, bool from_u, Strategy a, Strategy b) const {
    return from_u ? entry(e, a, b) : entry(e, b, a);
  }
  std::uint32_t other(std::uint32_t e, std::uint32_t i) const {
    return g_.eu[e] == i ? g_.ev[e] : g_.eu[e];
  }
  void set(Value& slot, Value value) {
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
  Strategy least_cost(std::uint32_t i) const;

  // The graph (fixed) and the directional order.
  ArcGraph<Value> g_;
  std::vector<std::uint32_t> position_;
  std::vector<std::size_t> ubegin_, pubegin_, pvbegin_;
  // The search state: node costs, edge deltas (entry = table - pu[a] - pv[b]), strategies
  // alive, placed nodes, c0.
  std::vector<Value> u_, pu_, pv_;
  std::vector<char> alive_;
  std::vector<Strategy> domain_;
  std::vector<std::int32_t> placed_;        // -1: open
  std::vector<std::uint32_t> open_degree_;  // edges to open neighbours
  Value c0_ = 0, bar_ = 0, tolerance_ = 0;
  std::vector<std::pair<Value*, Value>> trail_;
  std::vector<std::pair<std::uint32_t, std::size_t>> removed_;  // (node, its entry in u_)
  std::vector<std::uint32_t> placed_trail_;
  // Propagation queues.
  std::vector<std::uint32_t> ac_queue_;
  std::vector<char> in_ac_, in_dac_, dirty_;
  std::vector<std::uint32_t> dac_heap_, dirty_list_;

  std::vector<Value> alpha_;  // directional(): the full supports
  // Search.
  Hooks* hooks_ = nullptr;
  std::vector<Strategy>* best_x_ = nullptr;
  std::vector<Strategy> leaf_x_;
  std::uint64_t nodes_ = 0, node_limit_ = 0, work_ = 0;
  bool complete_ = true, out_of_budget_ = false, found_ = false;
  StopPoll poll_{nullptr, 256};
};

}  // namespace iopddl
