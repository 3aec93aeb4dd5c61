// The coordinator's memory multipliers: one price per time segment of the whole problem, in
// cost per unit of usage live on the segment. A region's solve adds to each strategy of its
// nodes its usage times the prices summed over the node's segments (region_problem.hpp), so
// regions that would all spend the same slack are steered apart. Prices matter only where
// regions may ask for more than their share (DistributedOptions::region_overcommit): the
// allowances then sum past the limit, the assembly keeps the limit by refusing changes, and
// the prices rise on the segments the regions overbid and fall where slack went unused.
// Pure functions of the problem, the round's incumbent and the regions' reports.
#pragma once

#include <span>
#include <vector>

#include "assembly.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0::coordinator {

// What a round's regions asked of the memory, from the incumbent `x` they were made from.
// Of each region only the change of largest gain counts, as the assembly takes at most one.
struct Bids {
  // Per time segment of `p`, the net usage the changes would add if all were applied.
  std::vector<Total> demand;
  // The changes' gain per unit of usage their nodes add (each node's increase counted once,
  // whatever its segments: a price of this size on one segment would cost a change about its
  // gain), over the changes that add usage; 0 when none does.
  double reference = 0;
};
Bids bids(const Problem& p, std::span<const Strategy> x, std::span<const RegionChange> changes);

// One subgradient step: on each segment, the price moves by `step` x `reference` x (demand
// less slack) / (|demand| + slack, at least 1), so by at most `step` x `reference`, and stays
// at least 0. `usage` is the incumbent's profile.
void step_prices(std::vector<double>& prices, std::span<const Total> demand,
                 std::span<const Total> usage, Total limit, double reference, double step);

// Node v's priced term of strategy s: its usage times the prices summed over its segments,
// rounded; `prefix` holds the prices' prefix sums (one more than the segments).
Total priced_term(const Problem& p, std::span<const double> prefix, NodeId v, Strategy s);
std::vector<double> prefix_sums(std::span<const double> prices);

}  // namespace iopddl::inline v0::coordinator
