// The baseline solver: least-memory start, then first-improvement 1-opt descent that only
// takes moves keeping every time point within the limit. Small on purpose: it makes the
// tool useful end to end and gives every other solver a feasible starting point.
#include "baseline.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "../eval/usage_tree.hpp"
#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

SolveResult solve_baseline(const Problem& p, StopControl& stop, IncumbentStore& store, Log& log) {
  std::vector<Strategy> a = least_memory_assignment(p);
  Evaluation start = evaluate(p, a);
  if (!start.feasible) {
    const std::string why = explain_infeasibility(p)->describe();
    log.info("%s: no feasible assignment exists", why.c_str());
    return {SolveStatus::kInfeasible, why};
  }
  Total cost = start.cost;
  store.offer(a, cost, "least-memory");
  log.info("least-memory start: cost %s, %zu forbidden picks", to_string(cost).c_str(),
           start.forbidden_picks);

  UsageTree tree(p.num_segments());
  for (NodeId v = 0; v < p.num_nodes(); ++v) tree.add(p.seg_lo(v), p.seg_hi(v), p.usages(v)[a[v]]);
  const Total limit = p.usage_limit() ? Total{*p.usage_limit()} : UsageTree::lowest();
  const bool limited = p.usage_limit().has_value();

  auto move_delta = [&](NodeId v, Strategy s) {
    Total d = Total{p.costs(v)[s]} - p.costs(v)[a[v]];
    for (EdgeId e : p.incident_edges(v)) {
      const NodeId x = p.edge_u(e), y = p.edge_v(e);
      const Strategy sx = x == v ? s : a[x], sy = y == v ? s : a[y];
      d += Total{p.edge_cost(e, sx, sy)} - p.edge_cost(e, a[x], a[y]);
    }
    return d;
  };

  bool improved = true;
  std::size_t passes = 0;
  while (improved && !stop.should_stop()) {
    improved = false;
    ++passes;
    for (NodeId v = 0; v < p.num_nodes() && !stop.should_stop(); ++v) {
      Strategy best = a[v];
      Total best_delta = 0;
      const Usage current = p.usages(v)[a[v]];
      const Total room =
          limited && p.has_memory(v) ? limit - tree.max(p.seg_lo(v), p.seg_hi(v)) : Total{0};
      for (Strategy s = 0; s < p.strategies(v); ++s) {
        if (s == a[v]) continue;
        if (limited && p.has_memory(v) && Total{p.usages(v)[s]} - current > room) continue;
        const Total d = move_delta(v, s);
        if (d < best_delta) {
          best_delta = d;
          best = s;
        }
      }
      if (best != a[v]) {
        tree.add(p.seg_lo(v), p.seg_hi(v), Total{p.usages(v)[best]} - current);
        a[v] = best;
        cost += best_delta;
        improved = true;
      }
    }
    store.offer(a, cost, "descent");
  }
  log.info("descent: cost %s after %zu passes", to_string(cost).c_str(), passes);
  return {SolveStatus::kFeasible, ""};
}

}  // namespace iopddl::inline v0
