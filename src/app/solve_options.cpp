#include "solve_options.hpp"

#include <limits>

namespace iopddl::app {

void describe_solve_options(OptionTable& t, RunSettings& s) {
  constexpr double kAny = std::numeric_limits<double>::max();
  constexpr int kMaxInt = std::numeric_limits<int>::max();
  SolverOptions& o = s.solver;
  t.number("time-limit", "Seconds from process start (0: run until the search ends)",
           s.time_limit, 0, kAny, "a finite number of seconds");
  t.short_name("time-limit", "-t");
  t.flag("quiet", "No progress lines", s.quiet);
  t.short_name("quiet", "-q");
  t.unsigned_integer("seed", "Seed of every random choice", o.seed, 0,
                     std::numeric_limits<std::uint64_t>::max());
  t.integer("threads",
            "Worker threads (0: one per core; under MPI, per rank, and 0 means 1; more than " +
                std::to_string(SolverOptions::kMaxThreads) + " are capped)",
            o.threads, 0, kMaxInt);
  t.choice("algorithm", "The solver", o.algorithm,
           {{"baseline", Algorithm::kBaseline}, {"portfolio", Algorithm::kPortfolio}});
  t.flag("deterministic",
         "Bound the search by work (--work-limit), not time: the same seed and threads (and "
         "ranks) give the same answer. --time-limit is then ignored",
         o.deterministic);
  t.unsigned_integer("work-limit", "Work budget of --deterministic: pricing rounds per worker (0: 30)",
                     o.work_limit, 0, std::numeric_limits<std::uint64_t>::max());
  t.choice("pricing",
           "Memory prices: per input node, per time segment, or workers alternate", o.pricing,
           {{"member", Pricing::kPerMember}, {"time", Pricing::kPerTime}, {"mixed", Pricing::kMixed}});
  t.integer("lns-windows",
            "Windows per batch of exact re-solves around a stagnating worker's best (0: no "
            "large-neighbourhood search)",
            o.lns_windows, 0, kMaxInt);
  t.integer("stale-rounds", "Pricing rounds without improvement before a worker scatters its prices",
            o.stale_rounds, 1, kMaxInt);
  // Distributed runs: read and printed by every build, used under mpirun only.
  DistributedOptions& d = s.distributed;
  const std::string mpi = "Distributed (used under mpirun)";
  t.number("checkpoint-interval", "Seconds between checkpoints", d.checkpoint_seconds, 1e-3, kAny,
           "a finite number of seconds", mpi);
  t.number("price-blend",
           "How far each rank moves its memory prices to the ranks' average at a "
           "synchronisation (0: keep its own, 1: take the average)",
           d.price_blend, 0, 1, "a number", mpi);
  t.number("sync-seconds", "Seconds between synchronisations of the MPI ranks", d.sync_seconds,
           1e-3, kAny, "a finite number of seconds", mpi);
  t.unsigned_integer("sync-rounds",
                     "Pricing rounds between synchronisations of --deterministic MPI runs",
                     d.sync_rounds, 1, std::numeric_limits<std::uint64_t>::max(), mpi);
  t.integer("region-iterations",
            "TRW-S iterations of each rank's region worker per synchronisation (0: no region "
            "workers; they need at least 2 ranks)",
            d.region_iterations, 0, kMaxInt, mpi);
}

void describe_generator_options(OptionTable& t, GeneratorOptions& g) {
  t.choice("family",
           "forbidden: many 10^18 entries that presolve folds; memory: none, memory-dominated",
           g.family, {{"forbidden", Family::kForbiddenPairs}, {"memory", Family::kMemory}});
  // Node ids are 32-bit; past a few million nodes the JSON alone outgrows the input cap.
  t.unsigned_integer("nodes", "Number of nodes", g.nodes, 1, 5'000'000);
  t.short_name("nodes", "-n");
  t.unsigned_integer("seed", "Seed", g.seed, 0, std::numeric_limits<std::uint64_t>::max());
  t.number("limit-factor", "Usage limit as a multiple of the least-memory peak", g.limit_factor,
           1e-6, 1e6, "a positive number");
}

}  // namespace iopddl::app
