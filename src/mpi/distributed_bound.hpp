// `iopddl bound` under mpirun: the coordinator's rounds for the whole budget.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/solve.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0::mpi {

// Collective over `comm`: as solve_bound (iopddl/solve.hpp), with one region per rank and
// rank 0's store holding the bound; the other ranks' stores hold only their baseline.
BoundOutcome bound_distributed(const Problem& p, const SolverOptions& o, std::uint64_t max_steps,
                               MPI_Comm comm, StopControl& stop, IncumbentStore& store, Log& log);

}  // namespace iopddl::inline v0::mpi
