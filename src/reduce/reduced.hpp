// The reduced problem produced by exact presolve, and the map back to the input.
//
// A reduced node is a group of input nodes whose strategies are tied: group g's strategy s
// means strategy choice[m][s] for each member m. Folding a node v whose strategy is a
// function of u's (every strategy of u allows exactly one of v's) puts v into u's group;
// strategies that must pick a forbidden (10^18) entry are removed and the removal propagates;
// strategies dominated by another of their group (no worse in node cost, in every incident
// edge and in every member's usage) are removed. Parallel edges are summed, edges inside a
// group become node costs, and each table's row and column minima move into node costs. Memory
// stays exact: every member keeps its own interval, with its usage read through the choice table.
// The choice tables are the undo stack: expand() maps any reduced assignment back to the input.
#pragma once

#include <string>
#include <vector>

#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

struct PresolveStats {
  std::size_t rounds = 0;
  std::size_t dead_strategies = 0;       // removed: forbidden node cost or forced forbidden pick
  std::size_t folded_nodes = 0;          // nodes folded into a neighbour's group
  std::size_t parallel_edges = 0;        // edges summed into another between the same groups
  std::size_t internal_edges = 0;        // edges turned into node costs (both ends in one group)
  std::size_t dominated_strategies = 0;  // removed: another is no worse in cost, edges, usage
  std::size_t minima_moved = 0;          // edge tables whose row/column minima became node costs
  bool infeasible_forbidden = false;     // some node has only forbidden choices: presolve skipped
  std::string summary() const;
};

// Thrown by Reduced::build when its stop control says stop (presolve of a huge instance
// that would outlast the time limit).
struct PresolveStopped {};

class Reduced {
 public:
  // Runs exact presolve on `p` (or only the identity grouping if !o.enabled). Throws
  // PresolveStopped when `stop` says stop.
  static Reduced build(const Problem& p, const PresolveOptions& o = {},
                       const StopControl* stop = nullptr);
  // The same with default options, folding or not (tests).
  static Reduced build(const Problem& p, bool fold) {
    PresolveOptions o;
    o.enabled = fold;
    return build(p, o);
  }

  const Problem& original() const { return *p_; }
  std::size_t num_nodes() const { return k_.size(); }
  std::size_t num_edges() const { return eu_.size(); }
  Strategy strategies(std::uint32_t g) const { return k_[g]; }
  const Cost* costs(std::uint32_t g) const { return cost_.data() + cost_begin_[g]; }

  // Members of group g: indices into member arrays [member_begin(g), member_begin(g+1)).
  std::size_t member_begin(std::uint32_t g) const { return member_begin_[g]; }
  NodeId member_node(std::size_t mi) const { return member_[mi]; }
  // Input strategy of member mi under group strategy s.
  Strategy choice(std::size_t mi, Strategy s) const { return choice_[choice_begin_[mi] + s]; }
  Usage member_usage(std::size_t mi, Strategy s) const {
    return p_->usages(member_[mi])[choice(mi, s)];
  }
  std::size_t num_members() const { return member_.size(); }

  std::uint32_t edge_u(std::uint32_t e) const { return eu_[e]; }
  std::uint32_t edge_v(std::uint32_t e) const { return ev_[e]; }
  // Row-major in edge_u's strategy.
  const Cost* table(std::uint32_t e) const { return table_.data() + table_begin_[e]; }
  // Edge e's costs as a function of g's strategy, the other end held at strategy `other`:
  // a row of the table when g is edge_v, a strided column when g is edge_u. (Reduced edges
  // never join a group to itself: such edges became node costs.)
  struct EdgeSlice {
    const Cost* base;
    std::size_t stride;
    Cost operator[](Strategy s) const { return base[static_cast<std::size_t>(s) * stride]; }
  };
  EdgeSlice slice(std::uint32_t e, std::uint32_t g, Strategy other) const {
    if (eu_[e] == g) return {table(e) + other, static_cast<std::size_t>(k_[ev_[e]])};
    return {table(e) + static_cast<std::size_t>(other) * k_[g], 1};
  }
  std::span<const std::uint32_t> incident(std::uint32_t g) const {
    return {adj_.data() + adj_begin_[g], adj_begin_[g + 1] - adj_begin_[g]};
  }
  std::uint32_t other(std::uint32_t e, std::uint32_t g) const {
    return eu_[e] == g ? ev_[e] : eu_[e];
  }

  std::vector<Strategy> expand(const std::vector<Strategy>& x) const;
  // The reduced assignment matching an input assignment, when there is one.
  bool contract(const std::vector<Strategy>& a, std::vector<Strategy>& x) const;
  // The same for any input assignment: a group that `a` does not match (a strategy that
  // presolve removed as dominated) takes, among its strategies whose every member uses no
  // more memory than in `a`, one that matches most members, then of least cost (a dominating
  // strategy qualifies); failing any, one of least usage. Returns how many groups it changed.
  std::size_t contract_nearest(const std::vector<Strategy>& a, std::vector<Strategy>& x) const;

  const PresolveStats& stats() const { return stats_; }

 private:
  const Problem* p_ = nullptr;
  std::vector<Strategy> k_;
  std::vector<std::uint64_t> cost_begin_;
  std::vector<Cost> cost_;
  std::vector<std::uint64_t> member_begin_;
  std::vector<NodeId> member_;
  std::vector<std::uint64_t> choice_begin_;
  std::vector<Strategy> choice_;
  std::vector<std::uint32_t> eu_, ev_;
  std::vector<std::uint64_t> table_begin_;
  std::vector<Cost> table_;
  std::vector<std::uint64_t> adj_begin_;
  std::vector<std::uint32_t> adj_;
  PresolveStats stats_;
  friend class ReducedBuilder;
};

}  // namespace iopddl::inline v0
