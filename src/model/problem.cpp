#include "iopddl/problem.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "../util/incidence.hpp"

namespace iopddl::inline v0 {

std::string to_string(Total value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  // Work on the negative side so that the minimum value does not overflow.
  Total v = negative ? value : -value;
  std::string digits;
  while (v != 0) {
    digits.push_back(static_cast<char>('0' - static_cast<int>(v % 10)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::optional<Total> parse_total(std::string_view text) {
  const std::size_t first = !text.empty() && text[0] == '-' ? 1 : 0;
  if (first == text.size() || text.size() - first > 37) return std::nullopt;
  Total v = 0;
  for (std::size_t i = first; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return first == 1 ? -v : v;
}

void ProblemBuilder::reserve_nodes(std::size_t nodes, std::size_t strategies) {
  p_.strategy_begin_.reserve(nodes + 1);
  p_.interval_lo_.reserve(nodes);
  p_.interval_hi_.reserve(nodes);
  p_.cost_.reserve(strategies);
  p_.usage_.reserve(strategies);
}

NodeId ProblemBuilder::add_node(std::int64_t lo, std::int64_t hi, std::span<const Cost> costs,
                                std::span<const Usage> usages) {
  assert(costs.size() == usages.size() && !costs.empty());
  p_.interval_lo_.push_back(lo);
  p_.interval_hi_.push_back(hi);
  p_.cost_.insert(p_.cost_.end(), costs.begin(), costs.end());
  p_.usage_.insert(p_.usage_.end(), usages.begin(), usages.end());
  p_.strategy_begin_.push_back(p_.cost_.size());
  return static_cast<NodeId>(p_.interval_lo_.size() - 1);
}

static std::uint64_t hash_costs(std::span<const Cost> costs) {
  // FNV-1a over the raw bytes, mixed with the length: fast and good enough for bucketing.
  std::uint64_t h = 1469598103934665603ull ^ costs.size();
  for (Cost c : costs) {
    h ^= static_cast<std::uint64_t>(c);
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

std::uint32_t ProblemBuilder::add_table(std::span<const Cost> costs) {
  const std::uint64_t h = hash_costs(costs);
  auto [first, last] = table_index_.equal_range(h);
  for (auto it = first; it != last; ++it) {
    auto existing = p_.table(it->second);
    if (existing.size() == costs.size() &&
        std::equal(existing.begin(), existing.end(), costs.begin()))
      return it->second;
  }
  const auto id = static_cast<std::uint32_t>(p_.num_tables());
  p_.table_cost_.insert(p_.table_cost_.end(), costs.begin(), costs.end());
  p_.table_begin_.push_back(p_.table_cost_.size());
  table_index_.emplace(h, id);
  return id;
}

EdgeId ProblemBuilder::add_edge(NodeId u, NodeId v, std::uint32_t table) {
  assert(u < num_nodes() && v < num_nodes());
  assert(table_size(table) ==
         static_cast<std::size_t>(strategies(u)) * static_cast<std::size_t>(strategies(v)));
  p_.edge_u_.push_back(u);
  p_.edge_v_.push_back(v);
  p_.edge_table_.push_back(table);
  return static_cast<EdgeId>(p_.edge_u_.size() - 1);
}

Problem ProblemBuilder::build() && {
  Problem& p = p_;
  const std::size_t n = p.num_nodes();
  build_incidence(n, p.edge_u_, p.edge_v_, p.adj_begin_, p.adj_edge_);
  // Time compression over the endpoints of non-empty intervals.
  p.times_.clear();
  for (std::size_t v = 0; v < n; ++v) {
    if (p.interval_lo_[v] < p.interval_hi_[v]) {
      p.times_.push_back(p.interval_lo_[v]);
      p.times_.push_back(p.interval_hi_[v]);
    }
  }
  std::sort(p.times_.begin(), p.times_.end());
  p.times_.erase(std::unique(p.times_.begin(), p.times_.end()), p.times_.end());
  p.seg_lo_.assign(n, 0);
  p.seg_hi_.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (p.interval_lo_[v] >= p.interval_hi_[v]) continue;
    auto at = [&](std::int64_t t) {
      return static_cast<std::uint32_t>(std::lower_bound(p.times_.begin(), p.times_.end(), t) -
                                        p.times_.begin());
    };
    p.seg_lo_[v] = at(p.interval_lo_[v]);
    p.seg_hi_[v] = at(p.interval_hi_[v]);
  }
  table_index_.clear();
  return std::move(p_);
}

std::vector<Strategy> least_memory_assignment(const Problem& p) {
  std::vector<Strategy> a(p.num_nodes());
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    auto u = p.usages(v);
    auto c = p.costs(v);
    Strategy best = 0;
    for (Strategy s = 1; s < p.strategies(v); ++s)
      if (u[s] < u[best] || (u[s] == u[best] && c[s] < c[best])) best = s;
    a[v] = best;
  }
  return a;
}

}  // namespace iopddl::inline v0
