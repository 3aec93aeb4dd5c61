// The coordinator's side of region rounds, as pure functions of the problem, the global
// incumbent and the regions' reports (the MPI layer only carries them; a simulated run
// calls the same functions):
//  - each region's memory allowance per time segment: its own usage under the incumbent
//    plus a share of the slack (limit minus the incumbent's usage) in proportion to the
//    room its live nodes have to change their usage (greatest minus least usage), so that
//    the allowances of all regions never sum past the limit;
//  - the assembly: the regions' changes applied to the incumbent, the largest reported
//    gain first, each only if, on top of those already applied, it lowers the exact cost
//    (edges between two changed regions are counted with both new labels) and keeps every
//    time segment under the limit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "iopddl/problem.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0::coordinator {

// Summed usage of the live nodes per time segment of `p` under `x`.
std::vector<Total> usage_profile(const Problem& p, std::span<const Strategy> x);
// Each node's room: its greatest less its least usage over its allowed strategies (those of
// cost below 10^18), summed per time segment over the live nodes.
std::vector<Total> room_profile(const Problem& p);

// The allowance per time segment of the region of `nodes` (sorted): its usage under `x`
// plus slack x room(region) / room(all) x `overcommit`, at most the slack, rounded down
// (less one, so that with `overcommit` 1 rounding never lets the shares sum past the slack).
// `usage` and `room` are the whole problem's profiles. With `overcommit` above 1 the
// allowances may sum past the limit, and the assembly refuses what does not fit.
std::vector<Total> allowance(const Problem& p, std::span<const Strategy> x,
                             std::span<const NodeId> nodes, std::span<const Total> usage,
                             std::span<const Total> room, double overcommit = 1.0);

// One region's report: new labels for some of its nodes and the gain it measured on its
// own problem (the cost it lowered with everything else held at the incumbent).
struct RegionChange {
  std::uint32_t region = 0;
  Total gain = 0;
  std::vector<NodeId> nodes;
  std::vector<Strategy> labels;
};

struct AssemblyOutcome {
  std::size_t accepted = 0;  // changes applied
  std::size_t refused = 0;   // changes that would have raised the cost or passed the limit
  Total gain = 0;            // the exact cost the incumbent lost
};

// Applies `changes` to `x` (whose usage per segment is `usage`, kept up to date) as above.
// Changes are taken by gain, largest first, ties by region; one whose gain is not positive,
// or whose region already had a change applied (copies of a region, each made from the same
// incumbent, would patch two answers together), is skipped. `x` stays feasible if it was.
AssemblyOutcome assemble(const Problem& p, std::vector<Strategy>& x, std::vector<Total>& usage,
                         std::vector<RegionChange> changes);

}  // namespace iopddl::inline v0::coordinator
