// The distributed loop. With --distributed-mode regions, rank 0 runs the portfolio and the
// other ranks improve regions of the incumbent (region_run.hpp); otherwise (the portfolio
// mode, described here) every rank runs the portfolio. Every rank presolves (presolve is
// deterministic, so all ranks hold the same reduced problem), owns one region of the
// reduced graph (for the distributed bound) and runs the portfolio's workers rank x threads
// + t, whose price levels and random streams differ from the other ranks'. Between
// phases all ranks gather each other's reports and take the same decisions from them
// (coordinator/decisions.hpp; this file only packs, sends and unpacks):
//   1. whether to stop (a rank past the deadline or signalled stops all);
//   2. the best assignment (the least cost, exactly, ties to the lower rank) is broadcast
//      and every rank continues from it; rank 0 keeps it as the incumbent;
//   3. with --price-blend, the memory multipliers are averaged (one Allreduce of a flat
//      array) and every rank blends its own with the average (off by default: the ranks'
//      price levels differ on purpose, and instances differ in which level suits them);
//   4. rank 0 writes a checkpoint when asked (SIGUSR1) or when the period has passed.
// Each phase starts with rounds of the distributed bound (coordinator.hpp) on
// bound.share of the time: every rank bounds its region of the reduced graph under the
// multipliers that rank 0, the coordinator, owns and steps; rank 0 certifies the global
// bound, and one rank in turn repairs the regions' assembled labelling under the true
// limit (the MINLOC that follows shares it if it is the best).
#include "distributed.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <span>

#include "../coordinator/decisions.hpp"
#include "../partition/regions.hpp"
#include "../portfolio/portfolio.hpp"
#include "../portfolio/prepare.hpp"
#include "../util/total_halves.hpp"
#include "bound_rounds.hpp"
#include "checkpoint.hpp"
#include "coordinator.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "rank_checkpoints.hpp"
#include "region_run.hpp"

namespace iopddl::inline v0::mpi {

bool launched_by_mpi() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "SLURM_STEP_ID"})
    if (std::getenv(var)) return true;
  return false;
}

namespace {

// The launcher may bind a rank to fewer cores than it has worker threads (Open MPI binds
// each of up to two ranks to one core by default): mpirun -np 1 --threads 2 on N at 20 s
// then gave 1.21 of one process with 2 threads, against 1.00 with --bind-to none.
void warn_if_bound_tighter(int threads) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return;
  const int cores = CPU_COUNT(&set);
  if (cores >= threads) return;
  std::fprintf(stderr,
               "warning: this rank may run on %d core%s (the launcher bound it) but has %d "
               "worker threads; start mpirun with --bind-to none or --map-by slot:PE=%d\n",
               cores, cores == 1 ? "" : "s", threads, threads);
}

// Every rank's phase report, on every rank (five int64 per rank: stop, work left, has an
// answer, the cost's two halves).
std::vector<coordinator::PhaseReport> gather_reports(const coordinator::PhaseReport& mine, int size,
                                                     MPI_Comm comm) {
  const Total cost = mine.best.value_or(0);
  const std::int64_t packed[5] = {mine.stop, mine.work_left, mine.best.has_value(),
                                  split_total(cost).high, low_bits(cost)};
  std::vector<std::int64_t> all(5 * static_cast<std::size_t>(size));
  MPI_Allgather(packed, 5, MPI_INT64_T, all.data(), 5, MPI_INT64_T, comm);
  std::vector<coordinator::PhaseReport> reports(static_cast<std::size_t>(size));
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const std::int64_t* q = &all[5 * i];
    reports[i].stop = q[0] != 0;
    reports[i].work_left = q[1] != 0;
    if (q[2]) reports[i].best = join_total(q[3], q[4]);
  }
  return reports;
}

// Every rank adopts the winning rank's assignment (broadcast from it; `x` is this rank's
// own best); rank 0 offers it to the store it prints from.
void share_best(Portfolio& portfolio, std::vector<Strategy> x, const Problem& p, const Reduced& r,
                IncumbentStore& store, Log& log, std::uint64_t epoch, int rank,
                std::span<const coordinator::PhaseReport> reports, MPI_Comm comm) {
  const std::optional<int> winner = coordinator::winning_rank(reports);
  if (!winner) return;
  x.resize(r.num_nodes());
  MPI_Bcast(x.data(), static_cast<int>(x.size()), MPI_INT, *winner, comm);
  portfolio.adopt(x, *reports[static_cast<std::size_t>(*winner)].best);
  if (rank != 0) return;
  std::vector<Strategy> a = r.expand(x);
  Evaluation e = evaluate(p, a);
  if (e.feasible && store.offer(a, e.cost, "rank-" + std::to_string(*winner)))
    log.info("sync %llu: cost %s from rank %d", static_cast<unsigned long long>(epoch),
             to_string(e.cost).c_str(), *winner);
}

// With --price-blend, every rank moves its memory multipliers part of the way to the ranks'
// average (the same setting on every rank, so all or none take part). Returns them.
std::vector<double> blend_prices(Portfolio& portfolio, double blend, int size, MPI_Comm comm) {
  std::vector<double> prices = portfolio.prices();
  if (blend <= 0) return prices;
  std::vector<double> sum = prices;
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(sum.size()), MPI_DOUBLE, MPI_SUM, comm);
  prices = coordinator::blended_prices(prices, sum, size, blend);
  portfolio.set_prices(prices);
  return prices;
}

// Rank 0 logs each rank's peak memory and the distributed bound's rounds (collective).
void log_end(int rank, const BoundRounds* bounds, Log& log, MPI_Comm comm) {
  const std::string memory = peak_memory(comm);
  if (rank != 0) return;
  log.info("peak memory per rank (MiB): %s", memory.c_str());
  if (!bounds) return;
  log.info("distributed bound: %llu rounds over %zu regions",
           static_cast<unsigned long long>(bounds->rounds), bounds->coordinator.regions());
  if (const std::string lp = bounds->coordinator.lp().summary(); !lp.empty())
    log.info("%s", lp.c_str());
}

// Presolve may stop at the time limit on one rank and not on another, and exact mode may
// be cut short on one (a signal): go on only if every rank has a reduced problem, and skip
// the search only if every rank has the proof.
bool search_needed(const Portfolio* portfolio, const SolveResult& result, MPI_Comm comm) {
  int ready = portfolio && portfolio->ready();
  MPI_Allreduce(MPI_IN_PLACE, &ready, 1, MPI_INT, MPI_LAND, comm);
  if (!ready) return false;
  int optimal = result.status == SolveStatus::kOptimal;
  MPI_Allreduce(MPI_IN_PLACE, &optimal, 1, MPI_INT, MPI_LAND, comm);
  return !optimal;
}

// The whole-problem phases: every rank's portfolio runs a phase (after the bound's rounds,
// if the ranks split the bound); then the ranks 1. stop together, 2. take the best
// assignment of all ranks, 3. blend their memory multipliers; rank 0 checkpoints.
using PhaseCheckpoint =
    std::function<void(bool stopping, std::uint64_t epoch, const std::vector<double>& prices)>;
void run_phases(const Problem& p, const Reduced& r, const SolverOptions& o,
                const DistributedOptions& d, Portfolio& portfolio, BoundRounds* bounds,
                MPI_Comm comm, StopControl& stop, IncumbentStore& store, Log& log,
                const PhaseCheckpoint& checkpoint) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  double phase_seconds = 0;
  for (std::uint64_t epoch = 0;; ++epoch) {
    if (bounds) bounds->run(phase_seconds, o, rank, size, portfolio, stop, store, log, comm);
    const double phase_start = stop.elapsed();
    if (o.deterministic)
      portfolio.run(stop, store, d.sync_rounds);
    else
      portfolio.run(stop, store, std::numeric_limits<std::uint64_t>::max(), d.sync_seconds);
    phase_seconds = stop.elapsed() - phase_start;
    // (a deterministic run ends once every rank's workers have spent their work)
    auto [x, cost] = portfolio.best();
    coordinator::PhaseReport mine{stop.should_stop(), o.deterministic && !portfolio.spent(),
                                  std::nullopt};
    if (!x.empty()) mine.best = cost;
    const std::vector<coordinator::PhaseReport> reports = gather_reports(mine, size, comm);
    const bool want_stop = coordinator::stop_after_phase(reports, o.deterministic);
    share_best(portfolio, std::move(x), p, r, store, log, epoch, rank, reports, comm);
    const std::vector<double> prices = blend_prices(portfolio, d.price_blend, size, comm);
    if (rank == 0) checkpoint(want_stop, epoch, prices);
    if (want_stop) break;
  }
}

}  // namespace

SolveResult solve_distributed(const Problem& p, const SolverOptions& options,
                              const DistributedOptions& d, MPI_Comm comm, StopControl& stop,
                              IncumbentStore& store, Log& log,
                              std::atomic<bool>& checkpoint_request,
                              std::string* checkpoint_error) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Under MPI the ranks are the unit of parallelism: one worker thread per rank unless
  // --threads says otherwise.
  SolverOptions o = options;
  if (o.threads <= 0) o.threads = 1;
  if (rank == 0) warn_if_bound_tighter(o.threads);
  const std::uint64_t print = fingerprint(p);
  const std::optional<Checkpoint> resume = load_resume(p, d, print);
  const Prepared prepared = prepare(p, o.presolve, stop, store, log);
  // (the same on every rank)
  if (prepared.result.status == SolveStatus::kInfeasible) return prepared.result;
  std::optional<Portfolio> made;
  SolveResult result = prepared.result;
  if (prepared.reduced) {
    // Worker w (global index rank x threads + thread) gets the same price level and random
    // stream whatever the layout: 2 ranks x 1 thread run the same workers as 1 rank x 2.
    made.emplace(p, *prepared.reduced, o, log, rank * o.threads);
    result = made->start(stop, store);
  }
  if (!search_needed(made ? &*made : nullptr, result, comm)) return result;
  const Reduced& r = *prepared.reduced;
  Portfolio& portfolio = *made;
  const bool regions = d.mode == DistributedMode::kRegions;
  std::unique_ptr<BoundRounds> bounds =
      regions ? nullptr : split_bound_rounds(r, portfolio, options, size, log, comm);
  if (resume) apply_resume(*resume, d, p, r, portfolio, bounds.get(), store, log);

  Checkpoints checkpoint{p,
                         print,
                         d,
                         o.seed,
                         stop,
                         store,
                         log,
                         checkpoint_request,
                         checkpoint_error,
                         bounds.get(),
                         &portfolio,
                         stop.elapsed()};
  if (regions) {
    run_regions(p, r, o, d, portfolio, comm, stop, store, log,
                [&](bool stopping, std::uint64_t round, bool running) {
                  checkpoint(stopping, round, running ? std::vector<double>{} : portfolio.prices(),
                             running);
                });
  } else {
    run_phases(p, r, o, d, portfolio, bounds.get(), comm, stop, store, log,
               [&](bool stopping, std::uint64_t epoch, const std::vector<double>& prices) {
                 checkpoint(stopping, epoch, prices);
               });
  }
  log_end(rank, bounds.get(), log, comm);
  return portfolio.result(store);  // (rank 0's store is the one that prints)
}

}  // namespace iopddl::inline v0::mpi
