#include "limit_solve.hpp"

#include <algorithm>

#include "iopddl/evaluate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

Total least_peak(const Problem& p) {
  return evaluate(p, least_memory_assignment(p)).peak_usage;
}

Total most_peak(const Problem& p) {
  std::vector<Strategy> a(p.num_nodes(), 0);
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    const auto u = p.usages(v);
    a[v] = static_cast<Strategy>(std::max_element(u.begin(), u.end()) - u.begin());
  }
  return evaluate(p, a).peak_usage;
}

LimitSolve solve_at_limit(const Problem& problem, std::optional<Usage> limit,
                          const SolverOptions& options, const StopControl& parent, double seconds,
                          Log& log, std::span<const Strategy> hint,
                          const IncumbentStore::Listener& listener) {
  const Problem at = problem.with_usage_limit(limit);
  StopControl stop(parent, seconds);
  if (options.deterministic) stop.ignore_deadline();  // (the parent's requests still stop it)
  IncumbentStore store(&stop);
  if (listener) store.set_listener(listener);
  const SolveResult result = solve(at, options, stop, store, log, hint);
  LimitSolve out;
  out.limit = limit;
  out.status = result.status;
  out.infeasible = result.status == SolveStatus::kInfeasible;
  if (const auto bound = store.bound()) out.bound = *bound;
  auto [a, has] = store.snapshot();
  if (!has) return out;
  const Evaluation e = evaluate(at, a);  // the store keeps only checked answers; this is cheap
  out.has = e.feasible;
  out.assignment = std::move(a);
  out.cost = e.cost;
  out.peak = e.peak_usage;
  out.proven = result.status == SolveStatus::kOptimal || store.proven_optimal();
  if (out.proven) out.bound = out.cost;
  return out;
}

}  // namespace iopddl::inline v0
