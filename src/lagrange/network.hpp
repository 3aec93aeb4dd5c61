// A pairwise cost network in doubles: node costs (unary) per strategy and one table per
// edge. It is what message passing (TRW-S), its rounding and the priced 1-opt work on: the
// whole reduced problem with memory priced into the node costs, or one region of it with
// ghost copies of its neighbours (the distributed region workers).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl {

// Forbidden costs in the doubles of a priced network (and of its messages) stop here: far
// above any real cost, far below overflow.
inline constexpr double kInfinite = 1e18;

class CostNetwork {
 public:
  // The reduced problem's graph; unary = its node costs, forbidden entries at 1e18.
  static CostNetwork from_reduced(const Reduced& r);

  // Building by hand: nodes first, then edges (table row-major in u's strategy), then
  // finish() before use.
  std::uint32_t add_node(Strategy k);
  std::uint32_t add_edge(std::uint32_t u, std::uint32_t v);  // table zeroed, filled via table()
  void finish();

  std::size_t num_nodes() const { return k_.size(); }
  std::size_t num_edges() const { return eu_.size(); }
  Strategy strategies(std::uint32_t g) const { return k_[g]; }
  double* unary(std::uint32_t g) { return unary_.data() + ubegin_[g]; }
  const double* unary(std::uint32_t g) const { return unary_.data() + ubegin_[g]; }
  std::size_t unary_size() const { return unary_.size(); }
  std::size_t table_size() const { return table_.size(); }  // entries of all edge tables
  std::size_t unary_begin(std::uint32_t g) const { return ubegin_[g]; }
  std::uint32_t edge_u(std::uint32_t e) const { return eu_[e]; }
  std::uint32_t edge_v(std::uint32_t e) const { return ev_[e]; }
  double* table(std::uint32_t e) { return table_.data() + tbegin_[e]; }
  const double* table(std::uint32_t e) const { return table_.data() + tbegin_[e]; }
  std::span<const std::uint32_t> incident(std::uint32_t g) const {
    return {adj_.data() + adj_begin_[g], adj_begin_[g + 1] - adj_begin_[g]};
  }
  std::uint32_t other(std::uint32_t e, std::uint32_t g) const {
    return eu_[e] == g ? ev_[e] : eu_[e];
  }
  // Edge e's cost for each strategy s of g, the other end at `other`.
  double entry(std::uint32_t e, std::uint32_t g, Strategy s, Strategy other) const {
    return eu_[e] == g ? table(e)[static_cast<std::size_t>(s) * k_[ev_[e]] + other]
                       : table(e)[static_cast<std::size_t>(other) * k_[g] + s];
  }

  double energy(const std::vector<Strategy>& x) const;
  // Priced 1-opt (iterated conditional modes): each node in turn to its best strategy
  // given its neighbours, until a pass changes nothing or `passes` are done.
  void descend(std::vector<Strategy>& x, int passes) const;

 private:
  std::vector<Strategy> k_;
  std::vector<std::uint64_t> ubegin_{0};
  std::vector<double> unary_;
  std::vector<std::uint32_t> eu_, ev_;
  std::vector<std::uint64_t> tbegin_{0};
  std::vector<double> table_;
  std::vector<std::uint64_t> adj_begin_;
  std::vector<std::uint32_t> adj_;
};

}  // namespace iopddl
