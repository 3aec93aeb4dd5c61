// Soft memory budgets, as XLA's overbudget_coeff defines them: minimise
//   cost + coeff x max(0, peak - budget)
// over all assignments, with no hard limit. Cheap overruns are taken where they pay.
//
// How: the best answer at a hard limit L costs c(L), falling as L rises. Solves at chosen
// limits (solve_at_limit) cut the peaks into ranges; a range (lo, L] of peaks is bounded
// below by the certified bound at L plus the penalty at lo + 1. The search first solves at
// max(budget, least peak) and without a limit, then always splits the open range with the
// least such bound: below a proven answer's peak (the next point of the cost-memory
// frontier, exactly) or at its middle. It ends when every range is bounded above the best
// objective (proven optimal), or at the deadline or the solve count.
#pragma once

#include <span>
#include <vector>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

struct SoftBudget {
  Usage budget = 0;
  double coeff = 0;  // in the problem's cost units per unit of memory over the budget
};

// The penalty of a peak: coeff x max(0, peak - budget). (Inline: the request's answer uses
// it too, and the reader's fuzz build links no solver.)
inline long double overrun_penalty(const SoftBudget& soft, Total peak) {
  if (peak <= soft.budget) return 0;
  return static_cast<long double>(soft.coeff) * static_cast<long double>(peak - soft.budget);
}

struct SoftOutcome {
  bool has = false;
  std::vector<Strategy> assignment;
  Total cost = 0;  // node and edge costs
  Total peak = 0;
  long double objective = 0;  // cost + penalty
  long double bound = 0;      // certified: no assignment's objective is below it
  bool proven = false;        // objective == bound
  int solves = 0;             // solves at different limits
};

// Minimises the soft objective on `problem` (its own usage limit is ignored) until `stop`
// stops it or it is proven. Each better answer is offered to `store` with its objective
// rounded to an integer as the "cost" (the store ranks by it); hint as solve()'s.
SoftOutcome solve_soft_budget(const Problem& problem, const SoftBudget& soft,
                              const SolverOptions& options, const StopControl& stop,
                              IncumbentStore& store, Log& log, std::span<const Strategy> hint = {});

}  // namespace iopddl::inline v0
