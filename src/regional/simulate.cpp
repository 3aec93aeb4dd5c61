#include "simulate.hpp"

#include "../portfolio/portfolio.hpp"
#include "iopddl/evaluate.hpp"
#include "region_rounds.hpp"

namespace iopddl {

namespace {

// Work units in the millions of --work-limit, at least one.
std::uint64_t millions(std::uint64_t units) {
  return std::max<std::uint64_t>(1, units / 1000000);
}

}  // namespace

SolveResult simulate_ranks(const Problem& p, const SolverOptions& options,
                           const DistributedOptions& d, StopControl& stop, IncumbentStore& store,
                           Log& log) {
  SolverOptions o = options;
  o.threads = 1;  // one worker per simulated rank
  Log quiet(stderr, &stop, true);
  // Rank 0: the whole-problem member, the single-process solver run in phases.
  Portfolio whole(p, o, quiet);
  IncumbentStore own(&stop);
  SolveResult first = whole.start(stop, own);
  if (own.has_solution()) store.offer(own.assignment(), own.cost(), "baseline");
  if (first.status == SolveStatus::kInfeasible || first.status == SolveStatus::kOptimal ||
      !whole.ready())
    return first;
  const Reduced& r = whole.reduced();
  const std::size_t ranks = d.simulate_ranks, region_ranks = ranks - 1;
  // At least two regions: one region is the whole problem, whose warm-started solves did not
  // beat the incumbent on N (13 rounds, k = 2), while two halves gained 16 %.
  RegionRounds rounds(p, r, o, std::max<std::size_t>(2, region_ranks * d.regions_per_rank),
                      store.assignment());
  const std::size_t per_rank = region_ranks > 0 ? rounds.regions() / region_ranks : 1;
  Total cost = store.cost();
  std::uint64_t work = 0;
  for (std::uint64_t round = 0; !whole.spent() && !stop.stop_requested(); ++round) {
    const std::uint64_t before = whole.work();
    whole.run(stop, own, d.sync_rounds);
    const std::uint64_t spent = whole.work() - before;  // every rank's work this round
    work += spent;
    if (own.has_solution() && own.cost() < cost) {
      cost = own.cost();
      rounds.adopt(own.assignment());
    }
    coordinator::AssemblyOutcome a;
    std::size_t bytes = 0;
    if (region_ranks > 0) {
      rounds.begin(round);
      std::vector<coordinator::RegionChange> changes;
      for (std::uint32_t i = 0; i < rounds.regions(); ++i) {
        changes.push_back(rounds.improve(i, millions(spent / per_rank), stop));
        bytes += change_bytes(changes.back());
      }
      a = rounds.assemble(std::move(changes));
      cost -= a.gain;
    }
    if (a.accepted > 0) {
      const Evaluation e = evaluate(p, rounds.incumbent());
      if (e.feasible) store.offer(rounds.incumbent(), e.cost, "regions");
      std::vector<Strategy> x;
      if (r.contract(rounds.incumbent(), x)) whole.adopt(x, e.cost);
    }
    if (own.has_solution()) store.offer(own.assignment(), own.cost(), "whole");
    log.info(
        "round %llu of %zu ranks: cost %s, %zu region changes kept, %zu refused, "
        "%zu bytes, work per rank %llu",
        static_cast<unsigned long long>(round + 1), ranks, to_string(store.cost()).c_str(),
        a.accepted, a.refused, bytes, static_cast<unsigned long long>(work / 1000000));
  }
  return {store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution, ""};
}

}  // namespace iopddl
