// The solver entry point shared by every mode of the tool (and, later, every MPI rank).
#pragma once

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/stop.hpp"

namespace iopddl {

enum class SolveStatus {
  kFeasible,    // a memory-feasible assignment is in the store
  kOptimal,     // ... and it is proven optimal
  kInfeasible,  // proven: even the least-memory assignment exceeds the limit
  kNoSolution,  // stopped before any feasible assignment was found
};

// "optimal", "feasible", "infeasible", "no solution": as the JSON result and the log say.
const char* status_name(SolveStatus status);

struct SolveResult {
  SolveStatus status = SolveStatus::kNoSolution;
  std::string note;  // e.g. which component proved optimality
};

// Runs until the stop control says stop (deadline, request or work budget) or the search
// is exhausted; every feasible improvement is offered to `store` as it is found.
SolveResult solve(const Problem& problem, const SolverOptions& options, StopControl& stop,
                  IncumbentStore& store, Log& log);

// The baseline: least-memory start, then memory-aware 1-opt descent.
SolveResult solve_baseline(const Problem& problem, StopControl& stop, IncumbentStore& store,
                           Log& log);

// The solver core: presolve, priced TRW-S workers, repair and local search.
SolveResult solve_portfolio(const Problem& problem, const SolverOptions& options, StopControl& stop,
                            IncumbentStore& store, Log& log);


}  // namespace iopddl
