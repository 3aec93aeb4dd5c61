#include "iopddl/solve.hpp"

namespace iopddl {

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
