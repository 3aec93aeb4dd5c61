#include "iopddl/solve.hpp"

#include "iopddl/evaluate.hpp"

namespace iopddl {

bool offer_hint(const Problem& problem, std::span<const Strategy> hint, IncumbentStore& store) {
  if (hint.empty() && problem.num_nodes() > 0) return false;
  const Evaluation e = evaluate(problem, hint);
  return e.feasible && store.offer({hint.begin(), hint.end()}, e.cost, "hint");
}

SolveResult solve(const Problem& problem, const SolverOptions& options, StopControl& stop,
                  IncumbentStore& store, Log& log, std::span<const Strategy> hint) {
  switch (options.algorithm) {
    case Algorithm::kBaseline:
      offer_hint(problem, hint, store);
      return solve_baseline(problem, stop, store, log);
    case Algorithm::kPortfolio:
      return solve_portfolio(problem, options, stop, store, log, hint);
  }
  return {};
}

}  // namespace iopddl
