// The baseline solver (--algorithm baseline, and every solve's first answer):
// least-memory start, then memory-aware 1-opt descent.
#pragma once

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/result.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

SolveResult solve_baseline(const Problem& problem, StopControl& stop, IncumbentStore& store,
                           Log& log);

}  // namespace iopddl::inline v0
