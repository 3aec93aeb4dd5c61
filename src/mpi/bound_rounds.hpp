// The distributed bound's rounds in the portfolio mode: each phase of a distributed run
// starts with rounds in which every rank bounds its region of the reduced graph and the
// coordinator (rank 0, coordinator.hpp) steps the multipliers.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "../coordinator/decisions.hpp"
#include "../portfolio/portfolio.hpp"
#include "coordinator.hpp"

namespace iopddl::inline v0::mpi {

// The rounds of the distributed bound in each phase: rounds until their wall time reaches
// share / (1 - share) of the last portfolio phase's (rank 0's clock decides for all, so
// every rank runs the same rounds); one round per phase in deterministic runs, whose
// message passing then ignores the clock. Rank 0 offers each bound to its store and stops
// the run once the gap is closed. Rank (phase mod ranks) repairs and improves the last
// assembly of the phase (once a phase: a repair of every round's took most of the rounds'
// time on N).
struct BoundRounds {
  BoundRounds(const Reduced& r, const Partition& part, const SolverOptions& o, MPI_Comm comm)
      : coordinator(r, part, o.bound, comm), ratio(coordinator::bound_time_ratio(o.bound.share)) {}
  void run(double phase_seconds, const SolverOptions& o, int rank, int size, Portfolio& portfolio,
           StopControl& stop, IncumbentStore& store, Log& log, MPI_Comm comm);
  Coordinator coordinator;
  double ratio;
  std::uint64_t rounds = 0, phases = 0;
};

// The regions (one per rank) and the bound: split over them when their cut is narrow
// (the rounds, returned), otherwise rank 0's bound worker bounds the whole problem beside
// its workers, as a single process does (null).
std::unique_ptr<BoundRounds> split_bound_rounds(const Reduced& r, Portfolio& portfolio,
                                                const SolverOptions& options, int size, Log& log,
                                                MPI_Comm comm);

}  // namespace iopddl::inline v0::mpi
