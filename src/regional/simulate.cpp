#include "simulate.hpp"

#include "../portfolio/portfolio.hpp"
#include "region_rounds.hpp"
#include "whole_member.hpp"

namespace iopddl::inline v0 {

SolveResult simulate_ranks(const Problem& p, const SolverOptions& options,
                           const DistributedOptions& d, StopControl& stop, IncumbentStore& store,
                           Log& log) {
  SolverOptions o = options;
  o.threads = 1;  // one worker per simulated rank
  Log quiet(stderr, &stop, true);
  // Rank 0: the whole-problem member, the single-process solver run in phases.
  Portfolio whole(p, o, quiet);
  SolveResult first = whole.start(stop, store);
  if (first.status == SolveStatus::kInfeasible || first.status == SolveStatus::kOptimal ||
      !whole.ready() || !store.has_solution())
    return first;
  const std::size_t ranks = d.simulate_ranks;
  RegionRounds rounds(p, whole.reduced(), o, region_count(ranks, d), store.assignment());
  // The work of rank 0's last phase, which the region ranks spend in the next round (in the
  // first: the start's).
  std::uint64_t last = whole.work();
  for (std::uint64_t round = 0; !whole.spent() && !stop.stop_requested(); ++round) {
    rounds.begin(round);
    const std::uint64_t before = whole.work();
    whole.run(stop, store, d.sync_rounds);
    // The region ranks, one after the other, from the round's incumbent.
    std::vector<coordinator::RegionChange> changes;
    std::size_t bytes = 0;
    for (std::size_t rank = 1; rank < ranks; ++rank)
      for (std::uint32_t i : rounds.assigned(rank - 1, ranks - 1)) {
        changes.push_back(rounds.improve(i, region_work(last, rounds.regions(), ranks), 0, stop));
        bytes += change_bytes(changes.back());
      }
    last = whole.work() - before;
    const coordinator::AssemblyOutcome end = end_round(p, rounds, whole, store, std::move(changes));
    log.info(
        "round %llu of %zu ranks: cost %s, %zu region changes kept, %zu refused, "
        "%zu bytes, work per rank %llu",
        static_cast<unsigned long long>(round + 1), ranks, to_string(store.cost()).c_str(),
        end.accepted, end.refused, bytes, static_cast<unsigned long long>(whole.work() / 1000000));
  }
  return {store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution, ""};
}

}  // namespace iopddl::inline v0
