#include "whole_member.hpp"

#include <algorithm>

namespace iopddl {

std::size_t region_count(std::size_t ranks, const DistributedOptions& d) {
  return std::max<std::size_t>(2, (ranks > 0 ? ranks - 1 : 0) * d.regions_per_rank);
}

std::uint64_t region_work(std::uint64_t work, std::size_t regions, std::size_t ranks) {
  const std::size_t region_ranks = std::max<std::size_t>(1, ranks > 0 ? ranks - 1 : 0);
  const std::size_t per_rank = std::max<std::size_t>(1, regions / region_ranks);
  return std::max<std::uint64_t>(1, work / per_rank / 1000000);
}

RoundEnd end_round(const Problem& p, RegionRounds& rounds, Portfolio& whole, bool running,
                   const IncumbentStore& best, std::vector<coordinator::RegionChange> changes) {
  auto [y, has] = best.snapshot();
  RoundEnd end;
  end.outcome =
      rounds.conclude(has ? y : std::vector<Strategy>{}, has ? best.cost() : 0, std::move(changes));
  end.incumbent = evaluate(p, rounds.incumbent());
  if (end.outcome.accepted > 0) {
    std::vector<Strategy> x;
    if (end.incumbent.feasible && whole.reduced().contract(rounds.incumbent(), x)) {
      if (running)
        whole.post(x, end.incumbent.cost);
      else
        whole.adopt(x, end.incumbent.cost);
    }
  }
  return end;
}

}  // namespace iopddl
