// A Problem as a request: followers and aliases recovered from 10^18 patterns, parallel
// edges summed, liveness as node intervals.
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <map>

#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "request_format.hpp"

namespace iopddl::inline v0 {
namespace {

using Tables = std::map<std::pair<NodeId, NodeId>, std::vector<Total>>;

void write_nodes(const Problem& p, Request& r) {
  r.set_num_nodes(static_cast<std::int64_t>(p.num_nodes()));
  r.set_request_name(p.name());
  if (p.usage_limit()) {
    if (*p.usage_limit() == 0)
      throw InputError(p.name() +
                       ": a usage limit of 0 has no request form (memory_budget 0 means none)");
    r.set_memory_budget(*p.usage_limit());
  }
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    r.add_s_len(p.strategies(v));
    auto* c = r.add_computation_costs();
    auto* m = r.add_memory_costs();
    for (Strategy s = 0; s < p.strategies(v); ++s) {
      c->add_costs(static_cast<double>(p.costs(v)[static_cast<std::size_t>(s)]));
      m->add_costs(static_cast<double>(p.usages(v)[static_cast<std::size_t>(s)]));
    }
  }
}

// Liveness as XLA writes it today: each node's inclusive steps [lo, hi - 1] in the input's
// own time (node_intervals, field 36); a node never live as (1, 0).
void write_intervals(const Problem& p, Request& r) {
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    auto* pair = r.add_node_intervals();
    const bool live = p.interval_lo(v) < p.interval_hi(v);
    pair->set_first(live ? p.interval_lo(v) : 1);
    pair->set_second(live ? p.interval_hi(v) - 1 : 0);
  }
}

// Parallel edges summed, as one table oriented from the lower node.
Tables summed_tables(const Problem& p) {
  Tables tables;
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    NodeId u = p.edge_u(e), v = p.edge_v(e);
    const bool flip = u > v;
    if (flip) std::swap(u, v);
    const auto ku = static_cast<std::size_t>(p.strategies(u)),
               kv = static_cast<std::size_t>(p.strategies(v));
    auto& t = tables[{u, v}];
    t.resize(ku * kv, 0);
    for (std::size_t a = 0; a < ku; ++a)
      for (std::size_t b = 0; b < kv; ++b)
        t[a * kv + b] += flip ? p.edge_cost(e, static_cast<Strategy>(b), static_cast<Strategy>(a))
                              : p.edge_cost(e, static_cast<Strategy>(a), static_cast<Strategy>(b));
  }
  return tables;
}

// Whether table t (ku x kv) is 0 on the diagonal and forbidden elsewhere: u follows v.
bool follower_table(const std::vector<Total>& t, std::size_t ku, std::size_t kv) {
  if (ku != kv) return false;
  for (std::size_t a = 0; a < ku; ++a)
    for (std::size_t b = 0; b < kv; ++b) {
      const Total c = t[a * kv + b];
      if (a == b ? c != 0 : c < kForbidden) return false;
    }
  return true;
}

// Each table as a follower, a resharding edge (its costs), an alias (its forbidden
// entries), or both of the last two.
void write_tables(const Problem& p, const Tables& tables, Request& r) {
  std::vector<std::int64_t> follow(p.num_nodes(), -1);
  const auto reaches = [&](std::int64_t from, NodeId target) {
    for (std::int64_t w = from; w >= 0; w = follow[static_cast<std::size_t>(w)])
      if (w == target) return true;
    return false;
  };
  for (const auto& [ends, t] : tables) {
    const auto [u, v] = ends;
    const auto ku = static_cast<std::size_t>(p.strategies(u)),
               kv = static_cast<std::size_t>(p.strategies(v));
    if (u != v && follower_table(t, ku, kv) && follow[u] < 0 && !reaches(v, u)) {
      follow[u] = v;
      continue;
    }
    const bool any_forbidden =
        std::any_of(t.begin(), t.end(), [](Total c) { return c >= kForbidden; });
    const bool any_cost =
        std::any_of(t.begin(), t.end(), [](Total c) { return c < kForbidden && c != 0; });
    if (any_cost || !any_forbidden) {
      auto* pair = r.add_edges();
      pair->set_first(u);
      pair->set_second(v);
      auto* c = r.add_resharding_costs();
      for (const Total x : t) c->add_costs(x >= kForbidden ? 0.0 : static_cast<double>(x));
    }
    if (any_forbidden) {
      auto* pair = r.add_aliases();
      pair->set_first(u);
      pair->set_second(v);
      auto* c = r.add_value_costs();
      for (const Total x : t) c->add_costs(x >= kForbidden ? 1.0 : 0.0);
    }
  }
  if (std::any_of(follow.begin(), follow.end(), [](std::int64_t j) { return j >= 0; }))
    for (std::int64_t j : follow) r.add_s_follow(j);
}

}  // namespace

std::string write_request(const Problem& p, bool text) {
  Request r;
  write_nodes(p, r);
  write_intervals(p, r);
  write_tables(p, summed_tables(p), r);
  std::string out;
  if (text)
    google::protobuf::TextFormat::PrintToString(r, &out);
  else
    r.SerializeToString(&out);
  return out;
}

}  // namespace iopddl::inline v0
