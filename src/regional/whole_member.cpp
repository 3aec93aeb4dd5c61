#include "whole_member.hpp"

#include <algorithm>

#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

std::size_t region_count(std::size_t ranks, const DistributedOptions& d) {
  return std::max<std::size_t>(2, (ranks > 0 ? ranks - 1 : 0) * d.regions_per_rank);
}

std::uint64_t region_work(std::uint64_t work, std::size_t regions, std::size_t ranks) {
  const std::size_t region_ranks = std::max<std::size_t>(1, ranks > 0 ? ranks - 1 : 0);
  const std::size_t per_rank = std::max<std::size_t>(1, regions / region_ranks);
  return std::max<std::uint64_t>(1, work / per_rank / 1000000);
}

coordinator::AssemblyOutcome end_round(const Problem& p, const Reduced& r, RegionRounds& rounds,
                                       Portfolio& whole, IncumbentStore& store,
                                       std::vector<coordinator::RegionChange> changes) {
  auto [y, has] = store.snapshot();
  const coordinator::AssemblyOutcome outcome = rounds.conclude(
      has ? y : std::vector<Strategy>{}, has ? store.cost() : 0, std::move(changes));
  if (outcome.accepted == 0) return outcome;
  const Evaluation e = evaluate(p, rounds.incumbent());
  if (!e.feasible) return outcome;  // cannot happen: the assembly keeps the limit
  store.offer(rounds.incumbent(), e.cost, "regions");
  std::vector<Strategy> x;
  if (r.contract(rounds.incumbent(), x)) whole.post(x, e.cost);
  return outcome;
}

}  // namespace iopddl::inline v0
