#include "simulate.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "../portfolio/portfolio.hpp"
#include "../portfolio/prepare.hpp"
#include "region_rounds.hpp"
#include "whole_member.hpp"

namespace iopddl::inline v0 {
namespace {

// Runs `first` and `task(0..count-1)` on `threads` threads (the calling one among them),
// tasks taken in order as threads come free. The simulated ranks of a round share only
// read-only state, so the results do not depend on the order.
template <class First, class Task>
void side_by_side(std::size_t threads, std::size_t count, First first, Task task) {
  std::atomic<std::size_t> next{0};
  const auto drain = [&] {
    for (std::size_t t; (t = next.fetch_add(1)) < count;) task(t);
  };
  std::vector<std::thread> helpers;
  for (std::size_t h = 1; h < std::min(threads, count + 1); ++h) helpers.emplace_back(drain);
  first();
  drain();
  for (std::thread& h : helpers) h.join();
}

}  // namespace

SolveResult simulate_ranks(const Problem& p, const SolverOptions& options,
                           const DistributedOptions& d, StopControl& stop, IncumbentStore& store,
                           Log& log) {
  SolverOptions o = options;
  o.threads = 1;  // one worker per simulated rank
  Log quiet(stderr, &stop, true);
  // Rank 0: the whole-problem member, the single-process solver run in phases.
  const Prepared prepared = prepare(p, o.presolve, stop, store, quiet);
  if (!prepared.reduced) return prepared.result;
  const Reduced& r = *prepared.reduced;
  Portfolio whole(p, r, o, quiet);
  SolveResult first = whole.start(stop, store);
  if (first.status == SolveStatus::kOptimal || !whole.ready() || !store.has_solution())
    return first;
  const std::size_t ranks = d.simulate_ranks;
  const std::size_t threads = d.simulate_threads > 0
                                  ? d.simulate_threads
                                  : std::max<std::size_t>(1, std::thread::hardware_concurrency());
  RegionRounds rounds(p, r, o, region_count(ranks, d), store.assignment(),
                      {d.region_overcommit, d.memory_price_step});
  // The work of rank 0's last phase, which the region ranks spend in the next round (in the
  // first: the start's); once rank 0's is spent, what they have left of it.
  std::uint64_t last = whole.work();
  RegionBudget budget(rounds.regions(), ranks);
  for (std::uint64_t round = 0; !stop.stop_requested(); ++round) {
    if (whole.spent() && (last = budget.last_round(whole.work())) == 0) break;
    rounds.begin(round);
    const std::uint64_t before = whole.work();
    // The region ranks' solves, each from the round's incumbent, beside rank 0's phase (none
    // in the last round: rank 0's run returns at once).
    std::vector<RegionRounds::Task> tasks;  // rank 1's, then rank 2's, ...
    for (std::size_t rank = 1; rank < ranks; ++rank)
      for (const RegionRounds::Task& t : rounds.assigned(rank - 1, ranks - 1)) tasks.push_back(t);
    const std::uint64_t work = budget.round(last);
    std::vector<coordinator::RegionChange> changes(tasks.size());
    side_by_side(
        threads, tasks.size(), [&] { whole.run(stop, store, d.sync_rounds); },
        [&](std::size_t t) { changes[t] = rounds.improve(tasks[t], work, 0, stop); });
    std::size_t bytes = 0;
    for (const coordinator::RegionChange& c : changes) bytes += change_bytes(c);
    last = whole.work() - before;
    const coordinator::AssemblyOutcome end =
        end_round(p, r, rounds, whole, store, std::move(changes));
    log.info(
        "round %llu of %zu ranks: cost %s, %zu region changes kept, %zu refused, "
        "%zu bytes, work per rank %llu",
        static_cast<unsigned long long>(round + 1), ranks, to_string(store.cost()).c_str(),
        end.accepted, end.refused, bytes, static_cast<unsigned long long>(whole.work() / 1000000));
  }
  return {store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution, ""};
}

}  // namespace iopddl::inline v0
