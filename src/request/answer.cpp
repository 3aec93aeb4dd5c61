// A solve's answer in a request's terms, and as the request's result message.
#include <algorithm>

#include "iopddl/evaluate.hpp"
#include "request_format.hpp"

namespace iopddl::inline v0 {
namespace {

// Every step at which assignment `a` reaches its peak `peak` (steps are the request's live
// indices).
std::vector<std::int64_t> peak_times(const Problem& problem, const std::vector<Strategy>& a,
                                     Total peak) {
  std::vector<std::int64_t> out;
  std::int64_t steps = 0;
  for (NodeId v = 0; v < problem.num_nodes(); ++v) steps = std::max(steps, problem.interval_hi(v));
  std::vector<Total> usage(static_cast<std::size_t>(steps) + 1, 0);
  for (NodeId v = 0; v < problem.num_nodes(); ++v)
    if (problem.has_memory(v)) {  // a difference array, summed below
      const Usage used = problem.usages(v)[static_cast<std::size_t>(a[v])];
      usage[static_cast<std::size_t>(problem.interval_lo(v))] += used;
      usage[static_cast<std::size_t>(problem.interval_hi(v))] -= used;
    }
  Total running = 0;
  for (std::int64_t t = 0; t < steps; ++t) {
    running += usage[static_cast<std::size_t>(t)];
    if (running == peak && peak > 0) out.push_back(t);
  }
  return out;
}

pb::AutoShardingSolverResult::Status result_status(SolveStatus status) {
  switch (status) {
    case SolveStatus::kOptimal:
      return pb::AutoShardingSolverResult::OPTIMAL;
    case SolveStatus::kFeasible:
      return pb::AutoShardingSolverResult::FEASIBLE;
    case SolveStatus::kInfeasible:
      return pb::AutoShardingSolverResult::INFEASIBLE;
    case SolveStatus::kNoSolution:
      break;
  }
  return pb::AutoShardingSolverResult::NO_SOLUTION;
}

}  // namespace

std::optional<SoftBudget> soft_budget(const XlaRequest& q) {
  if (!q.budget || !q.overbudget_coeff) return std::nullopt;
  return SoftBudget{*q.budget, *q.overbudget_coeff * q.cost_scale};
}

namespace {

void say(RequestAnswer& out, const std::string& what) {
  out.message += (out.message.empty() ? "" : "; ") + what;
}

// A soft budget: an overrun's cost is added in the request's units (its own coefficient),
// and an answer found under the hard limit without weighing overruns is not proven optimal.
void answer_soft_budget(const XlaRequest& q, const Problem& problem, const Evaluation& e,
                        const std::optional<OverrunWeighing>& weighed, RequestAnswer& out) {
  if (e.peak_usage > *q.budget) {
    out.overbudget_cost = static_cast<double>(
        overrun_penalty(SoftBudget{*q.budget, *q.overbudget_coeff}, e.peak_usage));
    out.cost += out.overbudget_cost;
    say(out, "peak " + to_string(e.peak_usage) + " is over the soft budget " +
                 std::to_string(*q.budget) + " (overrun cost " +
                 request_number(out.overbudget_cost) + ")");
  }
  if (weighed) return;
  if (out.status == SolveStatus::kOptimal) out.status = SolveStatus::kFeasible;
  say(out, "answered under the hard limit " + std::to_string(problem.usage_limit().value_or(0)) +
               ": overruns were not weighed against cost, so it is not proven optimal for the "
               "soft budget");
}

// Rounded costs: the problem solved is not quite the one given, so neither its proof nor its
// bound holds for the request as they stand.
void answer_rounding(const XlaRequest& q, RequestAnswer& out) {
  const std::string how = "costs scaled by " + request_number(q.cost_scale) +
                          " and rounded, within a relative rounding error of " +
                          request_number(q.max_rounding_error) + " per cost";
  if (out.status == SolveStatus::kOptimal) {
    out.status = SolveStatus::kFeasible;
    say(out, "optimal for the " + how + "; not proven for the costs as given");
  } else {
    say(out, how);
  }
}

}  // namespace

RequestAnswer answer_request(const XlaRequest& q, const Problem& problem, SolveStatus status,
                             const std::vector<Strategy>& a, bool has, std::optional<Total> bound,
                             const std::optional<OverrunWeighing>& weighed) {
  RequestAnswer out;
  out.status = status;
  if (!q.ignored.empty()) {
    std::string list;
    for (const std::string& f : q.ignored) list += (list.empty() ? "" : ", ") + f;
    say(out, "ignored: " + list);
  }
  if (!has) {  // nothing to answer with: never "optimal" or "feasible"
    if (out.status != SolveStatus::kInfeasible) out.status = SolveStatus::kNoSolution;
    if (out.status == SolveStatus::kInfeasible)
      if (const auto why = explain_infeasibility(problem)) say(out, why->describe());
    return out;
  }
  const Evaluation e = evaluate(problem, a);
  if (e.forbidden_picks > 0) {  // a follower, an alias or an infinite cost broken
    out.status = SolveStatus::kNoSolution;
    say(out, "every answer found breaks a follower, an alias or an infinite cost");
    return out;
  }
  out.s_val = a;
  out.peak_usage = e.peak_usage;
  out.cost = (static_cast<double>(e.cost) + q.offset) / q.cost_scale;
  const bool soft = soft_budget(q).has_value();
  if (soft) answer_soft_budget(q, problem, e, weighed, out);
  const bool rounded = q.max_rounding_error > 0;
  if (rounded) answer_rounding(q, out);
  if (!rounded && soft && weighed && weighed->bound)
    out.lower_bound = (static_cast<double>(*weighed->bound) + q.offset) / q.cost_scale;
  else if (!rounded && !soft && bound)
    out.lower_bound = (static_cast<double>(*bound) + q.offset) / q.cost_scale;
  out.peak_times = peak_times(problem, a, e.peak_usage);
  if (q.max_cost && !(out.cost < *q.max_cost)) {
    say(out, "no answer cheaper than max_cost " + request_number(*q.max_cost) + " (best " +
                 request_number(out.cost) + ")");
    out.status = SolveStatus::kNoSolution;
    out.s_val.clear();
    out.peak_times.clear();
  }
  return out;
}

std::string answer_proto(const RequestAnswer& a) {
  pb::AutoShardingSolverResult r;
  r.set_status(result_status(a.status));
  for (Strategy s : a.s_val) r.add_s_val(s);
  r.set_cost(a.cost);
  r.set_is_optimal(a.status == SolveStatus::kOptimal);
  for (std::int64_t t : a.peak_times) r.add_peak_times(t);
  r.set_peak_usage(static_cast<std::int64_t>(a.peak_usage));
  r.set_overbudget_cost(a.overbudget_cost);
  if (a.lower_bound) r.set_lower_bound(*a.lower_bound);
  r.set_message(a.message);
  std::string out;
  r.SerializeToString(&out);
  return out;
}

}  // namespace iopddl::inline v0
