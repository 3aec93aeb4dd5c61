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
#include <vector>

#include "../coordinator/assembly.hpp"
#include "../reduce/reduced.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"

namespace iopddl {

class RegionRounds {
 public:
  // `r` is `p` presolved (its groups keep tied nodes in one region); `regions` per round.
  RegionRounds(const Problem& p, const Reduced& r, const SolverOptions& o, std::size_t regions,
               std::vector<Strategy> incumbent);

  // Cuts this round's regions of the incumbent.
  void begin(std::uint64_t round);
  // Region i improved from the incumbent: by `work` million units of the solver (one
  // thread) in a deterministic run, else until `stop` stops or the search ends. The change
  // holds the region's nodes whose label changed.
  coordinator::RegionChange improve(std::uint32_t i, std::uint64_t work,
                                    const StopControl& stop) const;
  // The coordinator's assembly of the round's changes into the incumbent.
  coordinator::AssemblyOutcome assemble(std::vector<coordinator::RegionChange> changes);

  // A better incumbent from elsewhere (a whole-problem member's).
  void adopt(std::vector<Strategy> x);
  const std::vector<Strategy>& incumbent() const { return x_; }
  std::size_t regions() const { return nodes_.size(); }
  std::uint64_t round() const { return round_; }

 private:
  const Problem& p_;
  const Reduced& r_;
  SolverOptions o_;
  std::vector<std::vector<NodeId>> nodes_;  // this round's regions, input nodes, sorted
  std::vector<Total> usage_, room_;         // the incumbent's usage, everyone's room
  std::vector<Strategy> x_;
  std::uint64_t round_ = 0;
};

// The bytes one change takes on the wire (distributed runs send the changed nodes only).
std::size_t change_bytes(const coordinator::RegionChange& c);

}  // namespace iopddl
