// The problem model: immutable, flat, built once by ProblemBuilder.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "iopddl/export.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

// Layout (CSR style, no vector per node):
//  - node v owns strategies [strategy_begin_[v], strategy_begin_[v+1]) of cost_ and usage_;
//  - edge e joins edge_u_[e] and edge_v_[e]; its table is table_[edge_table_[e]], stored in
//    table_cost_ from table_begin_[t], row-major with u's strategy as the major index. Equal
//    tables are stored once (contest instances repeat the same table thousands of times);
//  - node v's incident edges are adj_edge_[adj_begin_[v] .. adj_begin_[v+1]); parallel edges
//    are kept as separate entries, and a self-loop appears once;
//  - time is compressed to the sorted distinct endpoints of non-empty intervals, times_. Segment
//    i is [times_[i], times_[i+1]); usage is constant on a segment. Node v is live on segments
//    [seg_lo_[v], seg_hi_[v]) (empty when equal).
class IOPDDL_API Problem {
 public:
  const std::string& name() const { return name_; }
  std::optional<Usage> usage_limit() const { return usage_limit_; }
  // A copy with another usage limit (nullopt: none); everything else is shared by value.
  Problem with_usage_limit(std::optional<Usage> limit) const {
    Problem p = *this;
    p.usage_limit_ = limit;
    return p;
  }

  std::size_t num_nodes() const { return interval_lo_.size(); }
  std::size_t num_edges() const { return edge_u_.size(); }
  std::size_t num_strategies_total() const { return cost_.size(); }
  std::size_t num_tables() const { return table_begin_.size() - 1; }
  std::size_t num_segments() const { return times_.empty() ? 0 : times_.size() - 1; }

  Strategy strategies(NodeId v) const {
    return static_cast<Strategy>(strategy_begin_[v + 1] - strategy_begin_[v]);
  }
  std::span<const Cost> costs(NodeId v) const {
    return {cost_.data() + strategy_begin_[v], static_cast<std::size_t>(strategies(v))};
  }
  std::span<const Usage> usages(NodeId v) const {
    return {usage_.data() + strategy_begin_[v], static_cast<std::size_t>(strategies(v))};
  }
  std::int64_t interval_lo(NodeId v) const { return interval_lo_[v]; }
  std::int64_t interval_hi(NodeId v) const { return interval_hi_[v]; }
  bool has_memory(NodeId v) const { return interval_lo_[v] < interval_hi_[v]; }

  NodeId edge_u(EdgeId e) const { return edge_u_[e]; }
  NodeId edge_v(EdgeId e) const { return edge_v_[e]; }
  std::uint32_t edge_table(EdgeId e) const { return edge_table_[e]; }
  std::span<const Cost> table(std::uint32_t t) const {
    return {table_cost_.data() + table_begin_[t], table_begin_[t + 1] - table_begin_[t]};
  }
  std::span<const Cost> edge_costs(EdgeId e) const { return table(edge_table_[e]); }
  Cost edge_cost(EdgeId e, Strategy su, Strategy sv) const {
    return edge_costs(e)[static_cast<std::size_t>(su) * strategies(edge_v_[e]) + sv];
  }

  std::span<const EdgeId> incident_edges(NodeId v) const {
    return {adj_edge_.data() + adj_begin_[v], adj_begin_[v + 1] - adj_begin_[v]};
  }
  std::size_t degree(NodeId v) const { return adj_begin_[v + 1] - adj_begin_[v]; }

  const std::vector<std::int64_t>& times() const { return times_; }
  std::uint32_t seg_lo(NodeId v) const { return seg_lo_[v]; }
  std::uint32_t seg_hi(NodeId v) const { return seg_hi_[v]; }

 private:
  friend class ProblemBuilder;
  friend class ProblemTransfer;  // src/mpi/problem_transfer.cpp: sends it to other MPI ranks
  std::string name_;
  std::optional<Usage> usage_limit_;
  std::vector<std::uint64_t> strategy_begin_{0};
  std::vector<Cost> cost_;
  std::vector<Usage> usage_;
  std::vector<std::int64_t> interval_lo_, interval_hi_;
  std::vector<NodeId> edge_u_, edge_v_;
  std::vector<std::uint32_t> edge_table_;
  std::vector<std::uint64_t> table_begin_{0};
  std::vector<Cost> table_cost_;
  std::vector<std::uint64_t> adj_begin_;
  std::vector<EdgeId> adj_edge_;
  std::vector<std::int64_t> times_;
  std::vector<std::uint32_t> seg_lo_, seg_hi_;
};

// Builds a Problem. Callers add nodes first, then edges; add_table deduplicates tables by
// content so that equal tables share storage. Checks that need the whole picture (edge
// endpoints and table sizes) are done by the caller, which knows how to name the offending
// input element; build() asserts them.
class IOPDDL_API ProblemBuilder {
 public:
  void set_name(std::string name) { p_.name_ = std::move(name); }
  void set_usage_limit(std::optional<Usage> limit) { p_.usage_limit_ = limit; }
  void reserve_nodes(std::size_t nodes, std::size_t strategies);
  NodeId add_node(std::int64_t lo, std::int64_t hi, std::span<const Cost> costs,
                  std::span<const Usage> usages);
  // Returns the id of a table equal to `costs`, storing it if it is new.
  std::uint32_t add_table(std::span<const Cost> costs);
  std::size_t table_size(std::uint32_t t) const {
    return p_.table_begin_[t + 1] - p_.table_begin_[t];
  }
  std::size_t num_nodes() const { return p_.num_nodes(); }
  Strategy strategies(NodeId v) const { return p_.strategies(v); }
  EdgeId add_edge(NodeId u, NodeId v, std::uint32_t table);
  Problem build() &&;

 private:
  Problem p_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> table_index_;  // content hash -> id
};

// Each node's least-usage strategy (ties: least cost). Its peak is the smallest possible at
// every time point at once, so the instance is feasible iff this assignment is.
IOPDDL_API std::vector<Strategy> least_memory_assignment(const Problem& problem);

}  // namespace iopddl::inline v0
