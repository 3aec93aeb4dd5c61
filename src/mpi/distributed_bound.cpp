// `iopddl bound` under mpirun: every rank reads and presolves the instance, bounds its
// region, and the coordinator (rank 0) steps the multipliers, round after round, until its
// clock, a signal, the gap limit or the step limit ends the ascent (the decision is
// broadcast, so every rank runs the same rounds). When the regions' cut is wide, rank 0
// bounds the whole problem alone (the others hold empty regions). No proof searches: they
// need the whole reparametrised problem in one place.
#include "distributed_bound.hpp"

#include "../local/baseline.hpp"
#include "../partition/regions.hpp"
#include "../portfolio/bound_worker.hpp"
#include "coordinator.hpp"

namespace iopddl::inline v0::mpi {

BoundOutcome bound_distributed(const Problem& p, const SolverOptions& o, std::uint64_t max_steps,
                               MPI_Comm comm, StopControl& stop, IncumbentStore& store, Log& log) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  BoundOutcome out;
  const SolveResult base = solve_baseline(p, stop, store, log);  // the same on every rank
  out.status = base.status;
  if (base.status == SolveStatus::kInfeasible) return out;
  // Every rank must hold the same grouping: if presolve ran out of time on any rank, all
  // bound the input as it is.
  int presolved = 1;
  std::optional<Reduced> r;
  try {
    r.emplace(Reduced::build(p, o.presolve, &stop));
  } catch (const PresolveStopped&) {
    presolved = 0;
  }
  MPI_Allreduce(MPI_IN_PLACE, &presolved, 1, MPI_INT, MPI_LAND, comm);
  if (!presolved) {
    log.info("presolve stopped by the time limit: bounding the input as it is");
    r.emplace(Reduced::build(p, false));
  }
  Partition part = shared_regions(*r, comm);
  const std::string summary = part.summary();
  log.info("%d ranks: %s", size, summary.substr(0, summary.find('\n')).c_str());
  if (!split_bound(part, *r, o.bound, log))
    part = regions_of(*r, std::vector<std::uint32_t>(r->num_nodes(), 0), 1);
  Coordinator coordinator(*r, part, o.bound, comm);
  std::vector<Strategy> assembled;
  for (int more = 1; more;) {  // one round at least, for a bound whatever the time left
    const std::optional<Total> upper =
        store.has_solution() ? std::optional<Total>(store.cost()) : std::nullopt;
    const Total bound = coordinator.round(upper, &stop, assembled);
    ++out.steps;
    if (rank == 0) {
      // An answer too, as the bound engine's labelling is.
      if (coordinator.assembly_fits()) BoundWorker::offer_labelling(*r, assembled, store, log);
      BoundWorker::offer_bound(store, log, bound, "coordinator");
      more = !BoundWorker::stop_if_closed(stop, store, log, o.gap_limit) && !stop.should_stop() &&
             (max_steps == 0 || out.steps < max_steps);
    }
    MPI_Bcast(&more, 1, MPI_INT, 0, comm);
  }
  const std::string memory = peak_memory(comm);
  log.info("peak memory per rank (MiB): %s", memory.c_str());
  if (const std::string lp = coordinator.lp().summary(); !lp.empty()) log.info("%s", lp.c_str());
  out.multipliers = coordinator.ascent().memory();
  if (store.has_solution())
    out.status = store.proven_optimal() ? SolveStatus::kOptimal : SolveStatus::kFeasible;
  return out;
}

}  // namespace iopddl::inline v0::mpi
