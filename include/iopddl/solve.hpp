// The solver entry point shared by every mode of the tool (and, later, every MPI rank).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/result.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

// Runs until the stop control says stop (deadline, request or work budget) or the search
// is exhausted; every feasible improvement is offered to `store` as it is found. `hint`,
// when not empty, is a warm start of one strategy per node (checked by the caller): kept if
// feasible, repaired under the limit first if not. Whether it was used is in the note.
SolveResult solve(const Problem& problem, const SolverOptions& options, StopControl& stop,
                  IncumbentStore& store, Log& log, std::span<const Strategy> hint = {});

// Offers `hint` (none if empty) to `store` if it is a feasible assignment; returns its cost
// if the store kept it.
std::optional<Total> offer_hint(const Problem& problem, std::span<const Strategy> hint,
                                IncumbentStore& store);

// The solver core: presolve, priced TRW-S workers, repair and local search.
SolveResult solve_portfolio(const Problem& problem, const SolverOptions& options, StopControl& stop,
                            IncumbentStore& store, Log& log, std::span<const Strategy> hint = {});

// `iopddl bound`: the whole budget on the certified lower bound (the baseline's answer, and
// any priced labelling that fits, as the target of the multipliers' steps), until `stop`
// says stop, the gap closes to options.gap_limit or `max_steps` multiplier steps are done
// (0: no such limit). The bound and its history are in `store`. Returns the multipliers per time
// segment (empty without a memory limit, or when the instance is proven infeasible: then `status`
// says so).
struct BoundOutcome {
  SolveStatus status = SolveStatus::kNoSolution;
  std::vector<double> multipliers;
  std::uint64_t steps = 0;
};
BoundOutcome solve_bound(const Problem& problem, const SolverOptions& options, StopControl& stop,
                         IncumbentStore& store, Log& log, std::uint64_t max_steps = 0);

}  // namespace iopddl::inline v0
