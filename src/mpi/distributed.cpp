// The distributed loop. Every rank reads the whole instance and presolves it (presolve is
// deterministic, so all ranks hold the same reduced problem), owns one region of the
// reduced graph (for the region workers) and runs the portfolio's workers rank x threads
// + t, whose price levels and random streams differ from the other ranks'. Between
// phases all ranks synchronise:
//   1. agree whether to stop (logical or: a rank past the deadline or signalled stops all);
//   2. the best assignment (MINLOC over the ranks' best costs, ties to the lower rank) is
//      broadcast and every rank continues from it; rank 0 keeps it as the incumbent;
//   3. with --price-blend, the memory multipliers are averaged (one Allreduce of a flat
//      array) and every rank blends its own with the average (off by default: the ranks'
//      price levels differ on purpose, and instances differ in which level suits them);
//   4. rank 0 writes a checkpoint when asked (SIGUSR1) or when the period has passed.
// With more than one rank, each phase starts with a round of the region workers (see
// region_round and src/solver/region.hpp): dual decomposition of the priced problem over the
// regions, with Lagrangian multipliers on the cut edges' agreement and on memory per time
// segment, whose assembled labelling is repaired into a candidate incumbent and whose duals
// give a lower bound.
#include "distributed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "../lagrange/region.hpp"
#include "../partition/regions.hpp"
#include "../portfolio/portfolio.hpp"
#include "checkpoint.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"

namespace iopddl::mpi {

bool launched_by_mpi() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "SLURM_STEP_ID"})
    if (std::getenv(var)) return true;
  return false;
}

namespace {

// A 128-bit total travels as two 64-bit halves.
void bcast_total(Total& value, int root, MPI_Comm comm) {
  std::int64_t halves[2] = {static_cast<std::int64_t>(value >> 64),
                            static_cast<std::int64_t>(static_cast<std::uint64_t>(value))};
  MPI_Bcast(halves, 2, MPI_INT64_T, root, comm);
  value = (static_cast<Total>(halves[0]) << 64) |
          static_cast<Total>(static_cast<std::uint64_t>(halves[1]));
}

// The trivial lower bound: every node and edge at its cheapest entry.
Total trivial_bound(const Problem& p) {
  Total b = 0;
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    auto c = p.costs(v);
    b += *std::min_element(c.begin(), c.end());
  }
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    auto t = p.edge_costs(e);
    b += *std::min_element(t.begin(), t.end());
  }
  return b;
}

// One round of the region workers: each rank solves its region; one Allreduce of integer
// arrays assembles the owners' labels and the copies' labels, one of doubles the usage
// profile of the assembly and the regions' bounds. Every rank then takes the same
// subgradient step on the multipliers, and one rank in turn repairs and improves the
// assembly under the true limit (the MINLOC that follows shares it if it is the best).
// Returns the lower bound of this round (rounded down; the lowest Total if none).
Total region_round(const Reduced& r, const Partition& part, const CopyLayout& copies,
                   DualState& dual, RegionSolver& region, int iterations, int rank, int size,
                   std::uint64_t round, Portfolio& portfolio, StopControl& stop,
                   IncumbentStore& store, MPI_Comm comm) {
  const std::size_t n = r.num_nodes(), segments = r.original().num_segments();
  region.solve(dual.member_weights(), dual.multipliers(), iterations, &stop);
  std::vector<int> labels(n + copies.size(), 0);
  for (std::size_t i = 0; i < region.owned().size(); ++i)
    labels[region.owned()[i]] = region.owned_label(i);
  for (std::size_t j = 0; j < region.num_copies(); ++j)
    labels[n + copies.first[static_cast<std::size_t>(rank)] + j] = region.copy_label(j);
  MPI_Allreduce(MPI_IN_PLACE, labels.data(), static_cast<int>(labels.size()), MPI_INT, MPI_SUM,
                comm);
  const std::vector<Strategy> x(labels.begin(), labels.begin() + static_cast<long>(n));
  const std::vector<Strategy> copy_labels(labels.begin() + static_cast<long>(n), labels.end());
  std::vector<double> profile(segments + 2, 0.0);
  DualState::add_usage(r, part.regions[static_cast<std::size_t>(rank)].owned, x, profile);
  profile[segments + 1] = region.lower_bound();
  MPI_Allreduce(MPI_IN_PLACE, profile.data(), static_cast<int>(profile.size()), MPI_DOUBLE, MPI_SUM,
                comm);
  // The bound belongs to the prices the regions were solved with: take it before the step.
  const double bound = dual.bound(profile[segments + 1]);
  profile.pop_back();
  dual.update(x, copy_labels, profile);
  if (static_cast<int>(round % static_cast<std::uint64_t>(size)) == rank)
    portfolio.improve(x, stop, store);
  // Doubles carry rounding error: stay below by a relative margin before rounding down.
  if (!std::isfinite(bound) || std::fabs(bound) > 1e30) return -(Total{1} << 120);
  return static_cast<Total>(std::floor(bound - 1e-9 * std::fabs(bound) - 1.0));
}

// A checkpoint to resume from, refused before anything else if it is of another instance.
std::optional<Checkpoint> load_resume(const Problem& p, const DistributedOptions& d,
                                      std::uint64_t print) {
  if (d.resume_path.empty()) return std::nullopt;
  Checkpoint resume = load_checkpoint(d.resume_path);
  if (resume.fingerprint != print)
    throw InputError(d.resume_path + ": checkpoint of another instance (\"" + resume.instance +
                     "\"), not of \"" + p.name() + "\"");
  return resume;
}

// The checkpoint's incumbent (if it fits) and its multipliers go to the portfolio.
void apply_resume(const Checkpoint& resume, const DistributedOptions& d, const Problem& p,
                  Portfolio& portfolio, IncumbentStore& store, Log& log) {
  if (!resume.assignment.empty()) {
    std::vector<Strategy> x;
    Evaluation e = evaluate(p, resume.assignment);
    if (!e.valid || !portfolio.reduced().contract(resume.assignment, x))
      throw InputError(d.resume_path + ": checkpoint assignment does not fit the instance");
    if (e.feasible) {
      store.offer(resume.assignment, e.cost, "checkpoint");
      portfolio.adopt(x, e.cost);
    }
    log.info("resumed from %s: cost %s after %.1f s", d.resume_path.c_str(),
             to_string(e.cost).c_str(), resume.elapsed);
  }
  portfolio.set_prices(resume.prices);
  portfolio.set_bound_multipliers(resume.bound_multipliers);
  if (const std::optional<Total> bound = parse_total(resume.lower_bound)) {
    store.offer_bound(*bound, "checkpoint");  // certified by the run that wrote it
    log.info("resumed the certified bound %s", to_string(*bound).c_str());
  }
}

// The region workers (with more than one rank): every rank solves its own region under the
// shared multipliers, which every rank updates identically from the same gathered arrays.
// Rounds back off while they stall: each round without a 0.1 % better bound doubles the
// synchronisations to the next (up to max_region_gap), a better one resets the gap. Their
// bound settles within seconds on the shared instances, and each round holds every rank at
// two collectives (about 5-10 % of a phase). The bound is the same on every rank, so is the
// schedule.
struct RegionWorkers {
  RegionWorkers(const Reduced& r, const Partition& part, const DistributedOptions& d, int rank)
      : copies(r, part),
        dual(r, copies, memory_price_unit(r), d.region_gain, d.region_step_rounds),
        solver(r, part, copies, static_cast<std::uint32_t>(rank)) {}
  // Runs a round when one is due at `epoch`; returns whether it raised `lower_bound`.
  bool maybe_round(std::uint64_t epoch, const Reduced& r, const Partition& part,
                   const DistributedOptions& d, int rank, int size, Portfolio& portfolio,
                   StopControl& stop, IncumbentStore& store, MPI_Comm comm, Total& lower_bound) {
    if (epoch < next) return false;
    const Total bound = region_round(r, part, copies, dual, solver, d.region_iterations, rank, size,
                                     rounds++, portfolio, stop, store, comm);
    // The bound gain that counts as progress; an integer share of the bound, as before.
    const Total margin =
        lower_bound > 0 ? lower_bound / static_cast<Total>(std::llround(1 / d.region_bound_gain))
                        : 0;
    gap = bound > lower_bound + margin
              ? 1
              : std::min(2 * gap, static_cast<std::uint64_t>(d.max_region_gap));
    next = epoch + gap;
    if (bound <= lower_bound) return false;
    lower_bound = bound;
    return true;
  }
  CopyLayout copies;
  DualState dual;
  RegionSolver solver;
  std::uint64_t gap = 1, next = 0, rounds = 0;
};

// Every rank adopts the best assignment of all ranks (MINLOC, then a broadcast from its
// rank); rank 0 offers it to the store it prints from.
void share_best(Portfolio& portfolio, const Problem& p, IncumbentStore& store, Log& log,
                std::uint64_t epoch, int rank, MPI_Comm comm) {
  auto [x, cost] = portfolio.best();
  struct {
    double cost;
    int rank;
  } mine{x.empty() ? std::numeric_limits<double>::infinity() : static_cast<double>(cost), rank},
      best{};
  MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
  if (!std::isfinite(best.cost)) return;
  x.resize(portfolio.reduced().num_nodes());
  MPI_Bcast(x.data(), static_cast<int>(x.size()), MPI_INT, best.rank, comm);
  bcast_total(cost, best.rank, comm);
  portfolio.adopt(x, cost);
  if (rank != 0) return;
  std::vector<Strategy> a = portfolio.reduced().expand(x);
  Evaluation e = evaluate(p, a);
  if (e.feasible && store.offer(a, e.cost, "rank-" + std::to_string(best.rank)))
    log.info("sync %llu: cost %s from rank %d", static_cast<unsigned long long>(epoch),
             to_string(e.cost).c_str(), best.rank);
}

// With --price-blend, every rank moves its memory multipliers part of the way to the ranks'
// average (the same setting on every rank, so all or none take part). Returns them.
std::vector<double> blend_prices(Portfolio& portfolio, double blend, int size, MPI_Comm comm) {
  std::vector<double> prices = portfolio.prices();
  if (blend <= 0) return prices;
  std::vector<double> sum = prices;
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(sum.size()), MPI_DOUBLE, MPI_SUM, comm);
  for (std::size_t i = 0; i < prices.size(); ++i)
    prices[i] = (1 - blend) * prices[i] + blend * sum[i] / size;
  portfolio.set_prices(prices);
  return prices;
}

// Rank 0's checkpoint; a failed write is reported and the run goes on.
void write_checkpoint(Checkpoint c, const std::string& path, const IncumbentStore& store, Log& log,
                      std::string* checkpoint_error) {
  auto [a, has] = store.snapshot();
  if (has) {
    c.assignment = a;
    c.cost = to_string(store.cost());
  }
  try {
    save_checkpoint(c, path);
    log.info("checkpoint written to %s", path.c_str());
    if (checkpoint_error) checkpoint_error->clear();
  } catch (const OutputError& e) {  // a full or lost disk must not cost the run
    std::fprintf(stderr, "warning: checkpoint not written: %s\n", e.what());
    if (checkpoint_error) *checkpoint_error = e.what();
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
  const std::uint64_t print = fingerprint(p);
  const std::optional<Checkpoint> resume = load_resume(p, d, print);
  // Worker w (global index rank x threads + thread) gets the same price level and random
  // stream whatever the layout: 2 ranks x 1 thread run the same workers as 1 rank x 2.
  Portfolio portfolio(p, o, log, rank * o.threads);
  SolveResult result = portfolio.start(stop, store);
  if (result.status == SolveStatus::kInfeasible) return result;  // the same on every rank
  // Presolve may stop at the time limit on one rank and not on another, and exact mode may
  // be cut short on one (a signal): go on only if every rank has a reduced problem, and
  // skip the search only if every rank has the proof.
  int ready = portfolio.ready();
  MPI_Allreduce(MPI_IN_PLACE, &ready, 1, MPI_INT, MPI_LAND, comm);
  if (!ready) return result;
  int optimal = result.status == SolveStatus::kOptimal;
  MPI_Allreduce(MPI_IN_PLACE, &optimal, 1, MPI_INT, MPI_LAND, comm);
  if (optimal) return result;
  const Reduced& r = portfolio.reduced();
  const Partition part = make_regions(r, static_cast<std::size_t>(size));
  const std::string summary = part.summary();
  log.info("%d ranks: %s", size, summary.substr(0, summary.find('\n')).c_str());
  std::unique_ptr<RegionWorkers> regions;
  if (size > 1 && d.region_iterations > 0 && part.regions.size() > 1)
    regions = std::make_unique<RegionWorkers>(r, part, d, rank);
  Total lower_bound = trivial_bound(p);
  bool bound_from_regions = false;
  if (resume) apply_resume(*resume, d, p, portfolio, store, log);

  double last_checkpoint = stop.elapsed();
  for (std::uint64_t epoch = 0;; ++epoch) {
    if (regions && regions->maybe_round(epoch, r, part, d, rank, size, portfolio, stop, store, comm,
                                        lower_bound)) {
      bound_from_regions = true;
      if (rank == 0)
        log.info("lower bound %s from the regions' dual", to_string(lower_bound).c_str());
    }
    if (o.deterministic)
      portfolio.run(stop, store, d.sync_rounds);
    else
      portfolio.run(stop, store, std::numeric_limits<std::uint64_t>::max(), d.sync_seconds);
    // 1. Stop together. 2. The best assignment of all ranks. 3. Memory multipliers.
    // (a deterministic run ends once every rank's workers have spent their work)
    int flags[2] = {stop.should_stop(), o.deterministic && !portfolio.spent()};
    MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MAX, comm);
    const bool want_stop = flags[0] != 0 || (o.deterministic && flags[1] == 0);
    share_best(portfolio, p, store, log, epoch, rank, comm);
    const std::vector<double> prices = blend_prices(portfolio, d.price_blend, size, comm);
    // 4. Checkpoints (rank 0 only; it holds the incumbent).
    const bool configured = !d.checkpoint_path.empty();
    const bool periodic = configured && stop.elapsed() - last_checkpoint >= d.checkpoint_seconds;
    const bool requested = rank == 0 && checkpoint_request.exchange(false);
    if (rank == 0 && (requested || periodic || (configured && want_stop))) {
      Checkpoint c;
      c.fingerprint = print;
      c.instance = p.name();
      c.prices = prices;
      // The certified bound only (the regions' dual is computed in doubles), and the bound
      // engine's multipliers, so that a resumed run continues the ascent.
      if (store.bound()) c.lower_bound = to_string(*store.bound());
      c.bound_multipliers = portfolio.bound_multipliers();
      c.seed = o.seed;
      c.elapsed = stop.elapsed();
      c.rounds = epoch + 1;
      last_checkpoint = stop.elapsed();
      write_checkpoint(std::move(c), configured ? d.checkpoint_path : d.signal_checkpoint_path,
                       store, log, checkpoint_error);
    }
    if (want_stop) break;
  }
  if (rank == 0)
    log.info("regions' lower bound %s (%s)", to_string(lower_bound).c_str(),
             bound_from_regions ? "their dual" : "every node and edge at its cheapest");
  SolveResult done(store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution, "",
                   portfolio.neighbourhood_reports());
  if (store.proven_optimal()) {  // rank 0's certified bound (its bound worker) meets the cost
    done.status = SolveStatus::kOptimal;
    done.note = "proven optimal by the certified Lagrangian bound";
  }
  done.work = portfolio.work();
  return done;
}

}  // namespace iopddl::mpi
