#include "whole_member.hpp"

#include <algorithm>

#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

std::size_t region_count(std::size_t ranks, const DistributedOptions& d) {
  const std::size_t wanted = (ranks > 0 ? ranks - 1 : 0) * d.regions_per_rank;
  return std::max<std::size_t>(2, std::min(wanted, d.max_regions));
}

namespace {
// The regions each region rank improves in a round (at least one).
std::size_t regions_per_rank(std::size_t regions, std::size_t ranks) {
  return std::max<std::size_t>(1, regions / std::max<std::size_t>(1, ranks > 0 ? ranks - 1 : 0));
}
}  // namespace

std::uint64_t RegionBudget::round(std::uint64_t phase) {
  const std::size_t per_rank = regions_per_rank(regions_, ranks_);
  const std::uint64_t work = std::max<std::uint64_t>(1, phase / per_rank / 1000000);
  given_ += work * per_rank * 1000000;
  return work;
}

std::uint64_t RegionBudget::last_round(std::uint64_t total) const {
  // Less than a million units per region is not worth a round (a round gives at least one);
  // a last round spends all but less than that, so it comes once.
  const std::uint64_t least = regions_per_rank(regions_, ranks_) * 1000000;
  return ranks_ < 2 || total < given_ + least ? 0 : total - given_;
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
