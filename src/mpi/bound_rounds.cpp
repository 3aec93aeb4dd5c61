#include "bound_rounds.hpp"

#include "../portfolio/bound_worker.hpp"

namespace iopddl::inline v0::mpi {

void BoundRounds::run(double phase_seconds, const SolverOptions& o, int rank, int size,
                      Portfolio& portfolio, StopControl& stop, IncumbentStore& store, Log& log,
                      MPI_Comm comm) {
  const double start = stop.elapsed();
  std::vector<Strategy> assembled;
  for (int more = 1; more; ++rounds) {
    const std::optional<Total> upper =
        store.has_solution() ? std::optional<Total>(store.cost()) : std::nullopt;
    const Total bound = coordinator.round(upper, o.deterministic ? nullptr : &stop, assembled);
    if (rank == 0) {
      BoundWorker::offer_bound(store, log, bound, "coordinator");
      BoundWorker::stop_if_closed(stop, store, log, o.gap_limit);
    }
    more = coordinator::another_bound_round(o.deterministic, stop.should_stop(),
                                            stop.elapsed() - start, ratio, phase_seconds);
    MPI_Bcast(&more, 1, MPI_INT, 0, comm);
  }
  if (coordinator::repairing_rank(phases++, size) == rank)
    portfolio.improve(assembled, stop, store);
}

// The regions (one per rank) and the bound: split over them when their cut is narrow
// (the rounds, returned), otherwise rank 0's bound worker bounds the whole problem beside
// its workers, as a single process does (null).
std::unique_ptr<BoundRounds> split_bound_rounds(const Reduced& r, Portfolio& portfolio,
                                                const SolverOptions& options, int size, Log& log,
                                                MPI_Comm comm) {
  const Partition part = shared_regions(r, comm);
  const std::string summary = part.summary();
  log.info("%d ranks: %s", size, summary.substr(0, summary.find('\n')).c_str());
  if (options.bound.share <= 0 || !split_bound(part, r, options.bound, log)) return nullptr;
  auto bounds = std::make_unique<BoundRounds>(r, part, options, comm);
  portfolio.drop_bound();
  return bounds;
}

}  // namespace iopddl::inline v0::mpi
