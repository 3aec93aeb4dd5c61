#include "iopddl/evaluate.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "io/json.hpp"
#include "iopddl/incumbent.hpp"

namespace iopddl::inline v0 {

Evaluation evaluate(const Problem& p, std::span<const Strategy> a) {
  Evaluation r;
  r.usage_limit = p.usage_limit();
  if (a.size() != p.num_nodes()) {
    r.error = "assignment has " + std::to_string(a.size()) + " entries, the problem has " +
              std::to_string(p.num_nodes()) + " nodes";
    return r;
  }
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    if (a[v] < 0 || a[v] >= p.strategies(v)) {
      r.error = "node " + std::to_string(v) + ": strategy " + std::to_string(a[v]) +
                " out of range [0, " + std::to_string(p.strategies(v)) + ")";
      return r;
    }
  }
  r.valid = true;
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    const Cost c = p.costs(v)[a[v]];
    r.node_cost += c;
    r.forbidden_picks += is_forbidden(c);
  }
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    const Cost c = p.edge_cost(e, a[p.edge_u(e)], a[p.edge_v(e)]);
    r.edge_cost += c;
    r.forbidden_picks += is_forbidden(c);
  }
  r.cost = r.node_cost + r.edge_cost;

  // Sweep over interval events in time order; at equal times, ends before starts (half-open).
  struct Event {
    std::int64_t time;
    Total delta;
  };
  std::vector<Event> events;
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    if (p.interval_lo(v) >= p.interval_hi(v)) continue;
    const Usage u = p.usages(v)[a[v]];
    events.push_back({p.interval_lo(v), u});
    events.push_back({p.interval_hi(v), -static_cast<Total>(u)});
  }
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) {
    return x.time != y.time ? x.time < y.time : x.delta < y.delta;
  });
  Total live = 0;
  bool have_peak = false;
  for (std::size_t i = 0; i < events.size();) {
    const std::int64_t t = events[i].time;
    for (; i < events.size() && events[i].time == t; ++i) live += events[i].delta;
    if (i == events.size()) break;  // after the last event nothing is live
    if (!have_peak || live > r.peak_usage) {
      r.peak_usage = live;
      r.peak_time = t;
      have_peak = true;
    }
    if (r.usage_limit && live > *r.usage_limit && !r.first_violation) r.first_violation = t;
  }
  r.feasible = !r.first_violation;
  return r;
}

std::string format_report(const Evaluation& e, std::optional<Total> lower_bound) {
  if (!e.valid) return "invalid: " + e.error + "\n";
  std::string s;
  s += "cost            " + to_string(e.cost) + "\n";
  s += "node cost       " + to_string(e.node_cost) + "\n";
  s += "edge cost       " + to_string(e.edge_cost) + "\n";
  s += "peak usage      " + to_string(e.peak_usage) + " at time " + std::to_string(e.peak_time) +
       "\n";
  s += "usage limit     " + (e.usage_limit ? std::to_string(*e.usage_limit) : "none") + "\n";
  s += "feasible        " + std::string(e.feasible ? "yes" : "no");
  if (e.first_violation)
    s += " (first over the limit at time " + std::to_string(*e.first_violation) + ")";
  s += "\nforbidden picks " + std::to_string(e.forbidden_picks) + "\n";
  if (lower_bound) {
    char line[160];
    std::snprintf(
        line, sizeof line, "gap to the lower bound %s: %.6f%%%s\n", to_string(*lower_bound).c_str(),
        100 * relative_gap(e.cost, *lower_bound),
        *lower_bound > e.cost ? " (the bound is above the cost: the bound is wrong)" : "");
    s += line;
  }
  return s;
}

std::string format_report_json(const Evaluation& e, std::optional<Total> lower_bound) {
  Json report;
  report["valid"] = e.valid;
  if (!e.valid) {
    report["error"] = e.error;
    return json_line(report);
  }
  report["cost"] = e.cost;
  report["node_cost"] = e.node_cost;
  report["edge_cost"] = e.edge_cost;
  report["peak_usage"] = e.peak_usage;
  report["peak_time"] = e.peak_time;
  report["usage_limit"] = e.usage_limit ? Json(*e.usage_limit) : Json();
  report["feasible"] = e.feasible;
  report["first_violation"] = e.first_violation ? Json(*e.first_violation) : Json();
  report["forbidden_picks"] = e.forbidden_picks;
  if (lower_bound) {
    report["lower_bound"] = *lower_bound;
    report["gap"] = relative_gap(e.cost, *lower_bound);  // (dumped as null when not finite)
  }
  return json_line(report);
}

std::optional<Infeasibility> explain_infeasibility(const Problem& p) {
  if (!p.usage_limit()) return std::nullopt;
  const std::vector<Strategy> least = least_memory_assignment(p);
  const Evaluation e = evaluate(p, least);
  if (e.feasible) return std::nullopt;
  return Infeasibility{e.peak_usage, *p.usage_limit(), e.peak_time,
                       live_usages(p, least, e.peak_time)};
}

std::vector<std::pair<NodeId, Usage>> live_usages(const Problem& p, std::span<const Strategy> a,
                                                  std::int64_t time) {
  std::vector<std::pair<NodeId, Usage>> live;
  for (NodeId v = 0; v < p.num_nodes(); ++v)
    if (p.interval_lo(v) <= time && time < p.interval_hi(v) && p.usages(v)[a[v]] > 0)
      live.emplace_back(v, p.usages(v)[a[v]]);
  std::sort(live.begin(), live.end(), [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  });
  return live;
}

std::string Infeasibility::describe(std::size_t named) const {
  std::string why = "the least-memory peak " + to_string(least_peak) + " at time " +
                    std::to_string(time) + " exceeds the usage limit " + std::to_string(limit) +
                    " (" + std::to_string(live.size()) + " nodes live then, at their least usage: ";
  for (std::size_t i = 0; i < live.size() && i < named; ++i)
    why += (i ? ", " : "") + std::string("node ") + std::to_string(live[i].first) + " (" +
           std::to_string(live[i].second) + ")";
  return why + (live.size() > named ? ", ...)" : ")");
}

}  // namespace iopddl::inline v0
