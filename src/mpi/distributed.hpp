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

namespace iopddl::mpi {

// True when this process was started by mpirun/srun (then MPI is initialised; otherwise the
// binary runs as a plain single process and never touches MPI).
bool launched_by_mpi();

struct DistributedOptions {
  double sync_seconds = 1.0;         // wall time between synchronisations
  double price_blend = 0.0;          // how far each rank moves its prices to the average
  std::uint64_t sync_rounds = 5;     // pricing rounds between synchronisations (deterministic)
  int region_iterations = 3;         // TRW-S iterations per region round (0: no region workers)
  std::string checkpoint_path;       // periodic checkpoints (and one at the end) go here
  double checkpoint_seconds = 60.0;  // their period
  // Where SIGUSR1 writes one when checkpoint_path is empty.
  std::string signal_checkpoint_path = "iopddl.checkpoint";
  std::string resume_path;  // continue from this checkpoint
};

// Rank 0 of `comm` keeps the global incumbent in `store`; the other ranks' stores hold
// their own. `checkpoint_request` (set by SIGUSR1) makes rank 0 write a checkpoint at the
// next synchronisation. Throws InputError for a bad --resume file (on every rank).
SolveResult solve_distributed(const Problem& problem, const SolverOptions& options,
                              const DistributedOptions& distributed, MPI_Comm comm,
                              StopControl& stop, IncumbentStore& store, Log& log,
                              std::atomic<bool>& checkpoint_request);

}  // namespace iopddl::mpi
