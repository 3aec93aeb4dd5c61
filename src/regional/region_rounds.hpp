// Region rounds: the global incumbent improved region by region, the work of a distributed
// run's ranks. Each round cuts the reduced graph into regions anew (partition/regions.hpp:
// moving_owners), every region's nodes are improved by the single-process solver with the
// rest of the incumbent held fixed and the region's memory allowance as its capacity
// (region_problem.hpp), and the coordinator assembles the regions' changes
// (coordinator/assembly.hpp). Everything here is a function of the problem, the incumbent
// and the round: every rank computes the same regions and allowances, so a rank needs only
// the other regions' changes to continue, and a simulated run that improves all regions in
// one process gives what k ranks would.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "../coordinator/assembly.hpp"
#include "../reduce/reduced.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

// How regions share the slack (DistributedOptions::region_overcommit, memory_price_step):
// each may ask for `overcommit` times its share, and the coordinator's memory prices move by
// `price_step` (0: no prices) after each round (coordinator/memory_prices.hpp).
struct RegionMarket {
  double overcommit = 1.0;
  double price_step = 0.0;
};

class RegionRounds {
 public:
  // `r` is `p` presolved (its groups keep tied nodes in one region); `regions` per round;
  // `incumbent` is feasible.
  RegionRounds(const Problem& p, const Reduced& r, const SolverOptions& o, std::size_t regions,
               std::vector<Strategy> incumbent, RegionMarket market = {});

  // Cuts this round's regions (they depend on the round only, not on the incumbent).
  void begin(std::uint64_t round);
  // A region rank's task: a region and which of its copies. With fewer regions than region
  // ranks (DistributedOptions::max_regions), several ranks improve one region, each from its
  // own random stream, and the assembly applies one of their changes.
  struct Task {
    std::uint32_t region = 0;
    std::uint32_t copy = 0;
  };
  // The tasks of region rank `which` of `region_ranks`: the regions i with i mod region_ranks
  // == which, or with fewer regions than ranks, region which mod regions, copy which / regions.
  std::vector<Task> assigned(std::size_t which, std::size_t region_ranks) const;
  // The task's region improved from the incumbent: by `work` million units of the solver
  // (one thread) in a deterministic run, else for `seconds` or until `stop` stops or the
  // search ends, its memory priced by the coordinator's prices. The change holds the region's
  // nodes whose label changed and the cost (unpriced) they lower.
  coordinator::RegionChange improve(Task t, std::uint64_t work, double seconds,
                                    const StopControl& stop) const;
  // The coordinator's end of a round: the whole-problem member's best `whole` (feasible,
  // cost `cost`; empty for none) replaces the incumbent if it is cheaper, then the regions'
  // changes, made from the round's incumbent, are assembled into it; the memory prices take a
  // step from what the changes asked of the round's incumbent.
  coordinator::AssemblyOutcome conclude(const std::vector<Strategy>& whole, Total cost,
                                        std::vector<coordinator::RegionChange> changes);

  // The incumbent from elsewhere (the coordinator's broadcast), with its exact cost.
  void adopt(std::vector<Strategy> x, Total cost);
  // The coordinator's memory prices (the coordinator's broadcast), one per time segment.
  void adopt_prices(std::vector<double> prices);
  const std::vector<double>& prices() const { return prices_; }
  const std::vector<Strategy>& incumbent() const { return x_; }
  Total cost() const { return cost_; }
  std::size_t regions() const { return nodes_.size(); }
  std::uint64_t round() const { return round_; }

 private:
  const Problem& p_;
  const Reduced& r_;
  SolverOptions o_;
  RegionMarket market_;
  std::vector<double> prices_;              // per time segment of p_
  std::vector<double> prefix_;              // their prefix sums; empty while all are 0
  double reference_ = 0;                    // the last positive reference price
  std::vector<std::vector<NodeId>> nodes_;  // this round's regions, input nodes, sorted
  std::vector<Total> usage_, room_;         // the incumbent's usage, everyone's room
  std::vector<Strategy> x_;
  Total cost_ = 0;
  std::uint64_t round_ = 0;
};

// Changes on the wire (distributed runs send the changed nodes only): per change its
// region, the gain's two halves, the count, then the nodes and their labels.
std::vector<std::int64_t> pack_changes(std::span<const coordinator::RegionChange> changes);
// The changes of pack_changes(); throws std::invalid_argument on a malformed message or a
// node or label that `p` does not have.
std::vector<coordinator::RegionChange> unpack_changes(std::span<const std::int64_t> message,
                                                      const Problem& p);
// The bytes one change takes on the wire.
std::size_t change_bytes(const coordinator::RegionChange& c);

}  // namespace iopddl::inline v0
