// A request's live intervals, from the live matrix or from the intervals and groups XLA
// writes today (see XlaRequest).
#include <algorithm>
#include <tuple>

#include "request_fields.hpp"

namespace iopddl::inline v0::request_fields {

namespace {

// Live intervals from the live matrix: node v is live on [first step, last step + 1).
void matrix_liveness(const Request& r, const LiveBytes* live_bytes, std::size_t n, Fields& f,
                     Liveness& live) {
  const std::size_t steps =
      live_bytes ? live_bytes->size() : static_cast<std::size_t>(r.live_size());
  for (std::size_t t = 0; t < steps; ++t) {
    const auto live_at = [&](std::int64_t v) {
      if (v < 0 || static_cast<std::size_t>(v) >= n)
        f.refuse(at("live", t),
                 "node " + std::to_string(v) + " does not exist (" + std::to_string(n) + " nodes)");
      const auto u = static_cast<std::size_t>(v);
      if (!live.seen[u]) live.lo[u] = static_cast<std::int64_t>(t);  // steps come in order
      live.hi[u] = static_cast<std::int64_t>(t) + 1;
      live.seen[u] = 1;
    };
    if (!live_bytes)
      for (std::int64_t v : r.live(static_cast<int>(t)).nodes()) live_at(v);
    else if (!for_each_live_node((*live_bytes)[t], live_at))
      f.refuse(at("live", t), "malformed entry");
  }
}

// Liveness as XLA writes it today (node_intervals, node_groups): a node's own interval and
// those of the groups that hold it, which must join into one interval (the model's: one
// per node); XLA's term reduction splits a node's interval into such pieces.
void interval_liveness(const Request& r, const LiveBytes* live_bytes, std::size_t n, Fields& f,
                       Liveness& live) {
  const bool matrix = live_bytes ? !live_bytes->empty() : r.live_size() > 0;
  if (matrix) f.refuse("node_intervals", "given with live as well: a request has one of the two");
  const auto groups = static_cast<std::size_t>(r.node_groups_size());
  const auto intervals = static_cast<std::size_t>(r.node_intervals_size());
  if (intervals != n + groups)
    f.refuse("node_intervals", std::to_string(intervals) + " entries, but num_nodes + " +
                                   "node_groups is " + std::to_string(n + groups));
  // Every node's pieces, inclusive [first, second] as half-open [first, second + 1), in
  // one flat list (v, first, end) sorted by node and start: one per node in most requests.
  std::vector<std::tuple<std::size_t, std::int64_t, std::int64_t>> pieces;
  pieces.reserve(n);
  const auto add = [&](std::size_t v, std::size_t i) {
    const auto& pair = r.node_intervals(static_cast<int>(i));
    if (pair.first() > pair.second()) return;  // never live
    if (pair.first() < 0 || pair.second() >= (std::int64_t{1} << 62))
      f.refuse(at("node_intervals", i), "steps must be within [0, 2^62)");
    pieces.emplace_back(v, pair.first(), pair.second() + 1);
  };
  for (std::size_t v = 0; v < n; ++v) add(v, v);
  for (std::size_t g = 0; g < groups; ++g)
    for (const std::int64_t v : r.node_groups(static_cast<int>(g)).prims()) {
      if (v < 0 || static_cast<std::size_t>(v) >= n)
        f.refuse(at("node_groups", g),
                 "node " + std::to_string(v) + " does not exist (" + std::to_string(n) + " nodes)");
      add(static_cast<std::size_t>(v), n + g);
    }
  if (groups > 0) std::sort(pieces.begin(), pieces.end());  // (own pieces come in order)
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto [v, first, end] = pieces[i];
    if (live.seen[v] && first != live.hi[v])
      f.refuse("node_intervals",
               "node " + std::to_string(v) + " is live over [" + std::to_string(live.lo[v]) + ", " +
                   std::to_string(live.hi[v] - 1) + "] and [" + std::to_string(first) + ", " +
                   std::to_string(end - 1) + "], which " +
                   (first < live.hi[v] ? "overlap" : "leave a gap") +
                   ": iopddl's model has one interval per node");
    if (!live.seen[v]) live.lo[v] = first;
    live.hi[v] = end;
    live.seen[v] = 1;
  }
}

}  // namespace

Liveness request_liveness(const Request& r, const LiveBytes* live_bytes, std::size_t n, Fields& f) {
  Liveness live;
  live.lo.assign(n, 0);
  live.hi.assign(n, 0);
  live.seen.assign(n, 0);
  if (r.node_intervals_size() > 0 || r.node_groups_size() > 0)
    interval_liveness(r, live_bytes, n, f, live);
  else
    matrix_liveness(r, live_bytes, n, f, live);
  return live;
}

}  // namespace iopddl::inline v0::request_fields
