#include "assembly.hpp"

#include <algorithm>
#include <cmath>

#include "segment_profile.hpp"

namespace iopddl::inline v0::coordinator {

namespace {

Usage node_room(const Problem& p, NodeId v) {
  Usage lo = 0, hi = 0;
  bool any = false;
  for (Strategy s = 0; s < p.strategies(v); ++s) {
    if (is_forbidden(p.costs(v)[static_cast<std::size_t>(s)])) continue;
    const Usage u = p.usages(v)[static_cast<std::size_t>(s)];
    lo = any ? std::min(lo, u) : u;
    hi = any ? std::max(hi, u) : u;
    any = true;
  }
  return hi - lo;
}

// The cost change of giving the nodes of `change` their new labels in `x` (exact; an edge
// between two changed nodes is counted once, with both new labels).
Total cost_change(const Problem& p, const std::vector<Strategy>& x,
                  const std::vector<Strategy>& after, std::span<const NodeId> changed) {
  Total delta = 0;
  for (NodeId v : changed) {
    delta += p.costs(v)[static_cast<std::size_t>(after[v])];
    delta -= p.costs(v)[static_cast<std::size_t>(x[v])];
    for (EdgeId e : p.incident_edges(v)) {
      const NodeId a = p.edge_u(e), b = p.edge_v(e);
      const NodeId other = a == v ? b : a;
      // counted from its lesser changed end when both ends changed
      if (other != v && after[other] != x[other] && other < v) continue;
      delta += p.edge_cost(e, after[a], after[b]);
      delta -= p.edge_cost(e, x[a], x[b]);
    }
  }
  return delta;
}

// Whether moving `changed` from `x` to `after` keeps every segment within `limit`, given the
// current profile; applies the move to `usage` if so.
bool fits(const Problem& p, const std::vector<Strategy>& x, const std::vector<Strategy>& after,
          std::span<const NodeId> changed, std::vector<Total>& usage, Total limit) {
  std::vector<std::pair<std::uint32_t, Total>> events;
  for (NodeId v : changed) {
    if (!p.has_memory(v)) continue;
    const Total d = static_cast<Total>(p.usages(v)[static_cast<std::size_t>(after[v])]) -
                    p.usages(v)[static_cast<std::size_t>(x[v])];
    if (d == 0) continue;
    events.emplace_back(p.seg_lo(v), d);
    events.emplace_back(p.seg_hi(v), -d);
  }
  std::sort(events.begin(), events.end());
  auto sweep = [&](bool apply) {
    Total run = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
      run += events[i].second;
      const std::uint32_t end = i + 1 < events.size() ? events[i + 1].first : events[i].first;
      for (std::uint32_t s = events[i].first; s < end; ++s) {
        if (apply)
          usage[s] += run;
        else if (run > 0 && usage[s] + run > limit)
          return false;
      }
    }
    return true;
  };
  if (!sweep(false)) return false;
  sweep(true);
  return true;
}

}  // namespace

// (node i of the whole problem is i)
std::vector<Total> usage_profile(const Problem& p, std::span<const Strategy> x) {
  return segment_profile(
      p, p.num_nodes(), [](std::size_t v) { return static_cast<NodeId>(v); },
      [&](std::size_t v) -> Total {
        return p.usages(static_cast<NodeId>(v))[static_cast<std::size_t>(x[v])];
      });
}

std::vector<Total> room_profile(const Problem& p) {
  return segment_profile(
      p, p.num_nodes(), [](std::size_t v) { return static_cast<NodeId>(v); },
      [&](std::size_t v) -> Total { return node_room(p, static_cast<NodeId>(v)); });
}

std::vector<Total> allowance(const Problem& p, std::span<const Strategy> x,
                             std::span<const NodeId> nodes, std::span<const Total> usage,
                             std::span<const Total> room, double overcommit) {
  const auto node = [&](std::size_t i) { return nodes[i]; };
  std::vector<Total> own = segment_profile(p, nodes.size(), node, [&](std::size_t i) -> Total {
    return p.usages(nodes[i])[static_cast<std::size_t>(x[nodes[i]])];
  });
  if (!p.usage_limit()) return own;
  const std::vector<Total> mine =
      segment_profile(p, nodes.size(), node, [&](std::size_t i) { return node_room(p, nodes[i]); });
  const Total limit = *p.usage_limit();
  for (std::size_t s = 0; s < own.size(); ++s) {
    const Total slack = limit - usage[s];
    if (slack <= 0 || room[s] <= 0 || mine[s] <= 0) continue;
    const long double share = static_cast<long double>(slack) * static_cast<long double>(mine[s]) /
                              static_cast<long double>(room[s]) * overcommit;
    const long double capped = std::min(std::floor(share), static_cast<long double>(slack));
    own[s] += std::max<Total>(0, static_cast<Total>(capped) - 1);
  }
  return own;
}

AssemblyOutcome assemble(const Problem& p, std::vector<Strategy>& x, std::vector<Total>& usage,
                         std::vector<RegionChange> changes) {
  std::stable_sort(changes.begin(), changes.end(),
                   [](const RegionChange& a, const RegionChange& b) {
                     return a.gain != b.gain ? a.gain > b.gain : a.region < b.region;
                   });
  const Total limit =
      p.usage_limit() ? static_cast<Total>(*p.usage_limit()) : std::numeric_limits<Total>::max();
  AssemblyOutcome out;
  std::vector<Strategy> after = x;
  std::vector<std::uint32_t> applied;  // regions with a change applied
  for (const RegionChange& c : changes) {
    if (c.gain <= 0 || std::find(applied.begin(), applied.end(), c.region) != applied.end())
      continue;
    std::vector<NodeId> changed;
    for (std::size_t i = 0; i < c.nodes.size(); ++i)
      if (c.labels[i] != x[c.nodes[i]]) {
        after[c.nodes[i]] = c.labels[i];
        changed.push_back(c.nodes[i]);
      }
    const Total delta = cost_change(p, x, after, changed);
    if (delta < 0 && fits(p, x, after, changed, usage, limit)) {
      for (NodeId v : changed) x[v] = after[v];
      applied.push_back(c.region);
      ++out.accepted;
      out.gain -= delta;
    } else {
      for (NodeId v : changed) after[v] = x[v];
      ++out.refused;
    }
  }
  return out;
}

}  // namespace iopddl::inline v0::coordinator
