// Distributed runs over MPI. Only src/mpi includes <mpi.h> or Boost.Serialization archives;
// every entry point takes the communicator it works on.
#pragma once

#include <mpi.h>

#include <atomic>
#include <string>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/solve.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0::mpi {

// True when this process was started by mpirun/srun (then MPI is initialised; otherwise the
// binary runs as a plain single process and never touches MPI).
bool launched_by_mpi();

// Rank 0 of `comm` keeps the global incumbent in `store`; the other ranks' stores hold
// their own. `checkpoint_request` (set by SIGUSR1) makes rank 0 write a checkpoint at the
// next synchronisation. Throws InputError for a bad --resume file (on every rank). A
// checkpoint that cannot be written is reported on stderr and the run goes on;
// `checkpoint_error` (if given) then holds why the last one failed ("" once one succeeds).
SolveResult solve_distributed(const Problem& problem, const SolverOptions& options,
                              const DistributedOptions& distributed, MPI_Comm comm,
                              StopControl& stop, IncumbentStore& store, Log& log,
                              std::atomic<bool>& checkpoint_request,
                              std::string* checkpoint_error = nullptr);

}  // namespace iopddl::inline v0::mpi
