// The cost-memory frontier: the best cost found at each of several usage limits, from the
// least peak any assignment reaches to the peak of the cheapest answer without a limit,
// with certified bounds. What a planner choosing a memory budget wants to see.
#pragma once

#include <vector>

#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/stop.hpp"
#include "limit_solve.hpp"

namespace iopddl::inline v0 {

struct FrontierPoint {
  Usage limit = 0;
  LimitSolve solve;    // its bound already raised to the bounds at higher limits
  double seconds = 0;  // the solve's wall time
};

// `points` limits (at least 2) evenly spaced from the least peak to the peak of the answer
// the solve without a limit finds (which takes one share of the time, and stands for the
// last point). The others are solved from the lowest up, each starting from the answer
// below it (which fits), each with an equal share of the time left. Fewer points when the
// range holds fewer distinct limits.
std::vector<FrontierPoint> cost_memory_frontier(const Problem& problem, int points,
                                                const SolverOptions& options,
                                                const StopControl& stop, Log& log);

}  // namespace iopddl::inline v0
