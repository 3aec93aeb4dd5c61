#include "iopddl/solve.hpp"

#include "../local/baseline.hpp"
#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

std::optional<Total> offer_hint(const Problem& problem, std::span<const Strategy> hint,
                                IncumbentStore& store) {
  if (hint.empty()) return std::nullopt;
  const Evaluation e = evaluate(problem, hint);
  if (!e.feasible || !store.offer({hint.begin(), hint.end()}, e.cost, "hint")) return std::nullopt;
  return e.cost;
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

}  // namespace iopddl::inline v0
