// A pairwise cost network in doubles: node costs (unary) per strategy and one table per
// edge. It is what message passing (TRW-S), its rounding and the priced 1-opt work on: the
// whole reduced problem with memory priced into the node costs, or one region of it with
// ghost copies of its neighbours (the distributed bound).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "../reduce/reduced.hpp"

namespace iopddl::inline v0 {

// Forbidden costs in the doubles of a priced network (and of its messages) stop here: far
// above any real cost, far below overflow.
inline constexpr double kInfinite = 1e18;

// Copies share the graph and the edge tables, which never change once built (finish()), and
// own their unaries: every worker prices its own copy of one network.
class CostNetwork {
 public:
  // The reduced problem's graph; unary = its node costs, forbidden entries at 1e18.
  static CostNetwork from_reduced(const Reduced& r);

  // Building by hand: nodes first, then edges (table row-major in u's strategy, filled via
  // the writable table() before the network is first copied), then finish() before use.
  std::uint32_t add_node(Strategy k);
  std::uint32_t add_edge(std::uint32_t u, std::uint32_t v);  // table zeroed, filled via table()
  void finish();

  std::size_t num_nodes() const { return g_->k.size(); }
  std::size_t num_edges() const { return g_->eu.size(); }
  Strategy strategies(std::uint32_t g) const { return g_->k[g]; }
  double* unary(std::uint32_t g) { return unary_.data() + g_->ubegin[g]; }
  const double* unary(std::uint32_t g) const { return unary_.data() + g_->ubegin[g]; }
  std::size_t unary_size() const { return unary_.size(); }
  std::size_t table_size() const { return g_->table.size(); }  // entries of all edge tables
  std::size_t unary_begin(std::uint32_t g) const { return g_->ubegin[g]; }
  std::uint32_t edge_u(std::uint32_t e) const { return g_->eu[e]; }
  std::uint32_t edge_v(std::uint32_t e) const { return g_->ev[e]; }
  // Writable while building only (the tables are shared by copies).
  double* table(std::uint32_t e) { return g_->table.data() + g_->tbegin[e]; }
  const double* table(std::uint32_t e) const { return g_->table.data() + g_->tbegin[e]; }
  std::span<const std::uint32_t> incident(std::uint32_t g) const {
    return {g_->adj.data() + g_->adj_begin[g], g_->adj_begin[g + 1] - g_->adj_begin[g]};
  }
  std::uint32_t other(std::uint32_t e, std::uint32_t g) const {
    return g_->eu[e] == g ? g_->ev[e] : g_->eu[e];
  }
  // Edge e's cost for each strategy s of g, the other end at `other`.
  double entry(std::uint32_t e, std::uint32_t g, Strategy s, Strategy other) const {
    return g_->eu[e] == g ? table(e)[static_cast<std::size_t>(s) * g_->k[g_->ev[e]] + other]
                          : table(e)[static_cast<std::size_t>(other) * g_->k[g] + s];
  }

  double energy(const std::vector<Strategy>& x) const;
  // Priced 1-opt (iterated conditional modes): each node in turn to its best strategy
  // given its neighbours, until a pass changes nothing or `passes` are done.
  void descend(std::vector<Strategy>& x, int passes) const;

 private:
  struct Graph {
    std::vector<Strategy> k;
    std::vector<std::uint64_t> ubegin{0};
    std::vector<std::uint32_t> eu, ev;
    std::vector<std::uint64_t> tbegin{0};
    std::vector<double> table;
    std::vector<std::uint64_t> adj_begin;
    std::vector<std::uint32_t> adj;
  };
  std::shared_ptr<Graph> g_ = std::make_shared<Graph>();
  std::vector<double> unary_;
};

}  // namespace iopddl::inline v0
