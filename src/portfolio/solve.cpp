#include "iopddl/solve.hpp"

namespace iopddl {

const char* status_name(SolveStatus status) {
  switch (status) {
    case SolveStatus::kOptimal:
      return "optimal";
    case SolveStatus::kFeasible:
      return "feasible";
    case SolveStatus::kInfeasible:
      return "infeasible";
    case SolveStatus::kNoSolution:
      break;
  }
  return "no solution";
}

SolveResult solve(const Problem& problem, const SolverOptions& options, StopControl& stop,
                  IncumbentStore& store, Log& log) {
  switch (options.algorithm) {
    case Algorithm::kBaseline:
      return solve_baseline(problem, stop, store, log);
    case Algorithm::kPortfolio:
      return solve_portfolio(problem, options, stop, store, log);
  }
  return {};
}

}  // namespace iopddl
