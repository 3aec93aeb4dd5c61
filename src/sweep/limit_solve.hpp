// One solve of a problem at a usage limit of the caller's choosing: the step that soft
// budgets (soft_budget.hpp) and the cost-memory frontier (frontier.hpp) repeat at many limits.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/result.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

// What a solve at one limit found: the best answer (if any) and what is certain about every
// answer whose peak is within the limit.
struct LimitSolve {
  std::optional<Usage> limit;  // nullopt: none
  bool has = false;
  std::vector<Strategy> assignment;
  Total cost = 0;  // exact, as the reference evaluator gives it
  Total peak = 0;
  Total bound = 0;          // every answer with peak <= limit costs at least this (certified)
  bool proven = false;      // the answer is optimal at this limit (bound == cost)
  bool infeasible = false;  // proven: nothing fits within the limit
  SolveStatus status = SolveStatus::kNoSolution;
};

// The peak of the assignment that takes each node's least (most) usage: no assignment
// peaks below (above) it.
Total least_peak(const Problem& problem);
Total most_peak(const Problem& problem);

// Solves `problem` with its usage limit replaced by `limit`, for at most `seconds` (within
// `parent`'s deadline; in deterministic mode the solver's own work limit bounds it instead),
// starting from `hint` when it is not empty. Lines go to `log`; `listener`, when set, hears
// each improvement as it is found (as IncumbentStore's listener does).
LimitSolve solve_at_limit(const Problem& problem, std::optional<Usage> limit,
                          const SolverOptions& options, const StopControl& parent, double seconds,
                          Log& log, std::span<const Strategy> hint = {},
                          const IncumbentStore::Listener& listener = {});

}  // namespace iopddl::inline v0
