// What every driver (the single-process solve, the MPI ranks, the simulated ranks) starts
// from, before it builds a portfolio: a feasible answer in the store at once (the
// baseline), then the reduced problem (presolve). The driver owns the reduced problem and
// lends it to the portfolio and to whatever else works on it (the MPI layer's regions,
// contraction and expansion of the ranks' answers).
#pragma once

#include <memory>

#include "../reduce/reduced.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

struct Prepared {
  // kInfeasible when the baseline proved the instance infeasible; otherwise kFeasible,
  // with a note when presolve did not finish within the time limit.
  SolveResult result;
  // Null when infeasible or out of time (the baseline's answer is then the answer).
  std::unique_ptr<const Reduced> reduced;
};

Prepared prepare(const Problem& p, const PresolveOptions& o, StopControl& stop,
                 IncumbentStore& store, Log& log);

}  // namespace iopddl::inline v0
