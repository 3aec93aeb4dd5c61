// The whole-problem member beside the regions: how rank 0 of a region run (over MPI, or
// simulated in one process) sizes the rounds and ends each one. A round: every rank holds
// the same incumbent and cuts the same regions; rank 0 runs its single-process solver for a
// phase while the other ranks improve their regions of the incumbent (region_rounds.hpp),
// each with the work rank 0 did in the phase before; rank 0 then takes the better of its own
// best and the incumbent, assembles the regions' changes into it and sends the result to
// every rank, whose next round starts from it. Region changes are made from the round's
// incumbent, which rank 0 may have improved meanwhile: the assembly checks each against the
// exact cost and the limit, so a stale change is refused, never harmful. (Crossing the
// incumbent with rank 0's newer answer instead, so that region work done before it is not
// lost, made N worse: bench/README.md, "Scaling".)
#pragma once

#include <cstdint>
#include <vector>

#include "../portfolio/portfolio.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/options.hpp"
#include "region_rounds.hpp"

namespace iopddl::inline v0 {

// Regions per round when `ranks` ranks take part (rank 0 the whole-problem member): the
// region ranks' share each, at most `d.max_regions` (further ranks improve copies), at least two
// (one region is the whole problem, whose warm-started solves did not beat the incumbent on N, 13
// rounds, k = 2; two halves gained 16 %).
std::size_t region_count(std::size_t ranks, const DistributedOptions& d);
// What the region ranks of a deterministic run may spend: in each round the work of rank 0's
// phase before, and once rank 0's work is spent, in one last round, what is left
// of rank 0's total, so that every rank does the same work (without it, the work of rank 0's
// last phase was never matched: on 1,000,000 nodes, k = 8, 1,776 of 12,000 units).
class RegionBudget {
 public:
  RegionBudget(std::size_t regions, std::size_t ranks) : regions_(regions), ranks_(ranks) {}
  // The work (millions, at least one) for each region of a round after a phase of rank 0 of
  // `phase` units, counted as given to every region rank.
  std::uint64_t round(std::uint64_t phase);
  // The units left for a last round when rank 0 did `total` in all (0: none, or one ran:
  // after it less than a round's least is left).
  std::uint64_t last_round(std::uint64_t total) const;

 private:
  std::size_t regions_, ranks_;
  std::uint64_t given_ = 0;  // units given to each region rank
};

// Rank 0's end of a round (`r`: `p` reduced): the regions' `changes` are assembled into the better
// of the incumbent and the whole-problem member's best (`store`'s); an assembly that improved it
// goes to `store` (the reference evaluator's cost) and to the member's workers, which take
// it at their next round (the member may be running in another thread). Returns what the
// assembly did.
coordinator::AssemblyOutcome end_round(const Problem& p, const Reduced& r, RegionRounds& rounds,
                                       Portfolio& whole, IncumbentStore& store,
                                       std::vector<coordinator::RegionChange> changes);

}  // namespace iopddl::inline v0
