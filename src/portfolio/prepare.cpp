#include "prepare.hpp"

#include "../local/baseline.hpp"

namespace iopddl::inline v0 {

Prepared prepare(const Problem& p, const PresolveOptions& o, StopControl& stop,
                 IncumbentStore& store, Log& log) {
  Prepared out;
  // A feasible answer first, whatever happens next.
  out.result = solve_baseline(p, stop, store, log);
  if (out.result.status == SolveStatus::kInfeasible) return out;
  try {
    out.reduced = std::make_unique<const Reduced>(Reduced::build(p, o, &stop));
  } catch (const PresolveStopped&) {  // out of time: the baseline's answer is the answer
    log.info("presolve stopped by the time limit");
    out.result = {SolveStatus::kFeasible, "presolve did not finish within the time limit"};
    return out;
  }
  const Reduced& r = *out.reduced;
  log.info("presolve: %zu nodes, %zu edges left; %s", r.num_nodes(), r.num_edges(),
           r.stats().summary().c_str());
  out.result = {SolveStatus::kFeasible, ""};
  return out;
}

}  // namespace iopddl::inline v0
