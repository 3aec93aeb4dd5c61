// Dual decomposition of the memory-priced problem over the regions of a partition, for the
// distributed region workers. The core stays free of MPI: this module only builds and
// solves one region's subproblem and updates the multipliers from flat arrays that the
// distributed driver gathers.
//
// Region k's subproblem is a cost network over its owned nodes plus a ghost copy of each
// neighbour owned elsewhere. Owned nodes carry their costs plus the memory prices of
// their members (per time segment: a member's weight is the sum of the prices over its
// interval); edges inside the region carry their tables, and each cut edge appears in both
// regions it joins with half of its table, against the ghost copy. Agreement of a copy with
// its owner is relaxed with Lagrangian multipliers: lambda_c(s) is added to copy c's cost of
// strategy s and subtracted from its owner's. For any multipliers and non-negative memory
// prices, the sum of the regions' least energies minus the prices times the limit is a lower
// bound on the optimum, and every region's TRW-S bound keeps it valid.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "../partition/regions.hpp"
#include "network.hpp"
#include "trws.hpp"

namespace iopddl {

class StopControl;

// The copies of all regions in one global order (region by region, each region's ghosts in
// order), the same on every rank: the layout of the flat arrays the regions exchange.
struct CopyLayout {
  std::vector<std::uint32_t> region;  // copy -> region holding it
  std::vector<std::uint32_t> node;    // copy -> reduced node it copies
  std::vector<std::uint64_t> begin;   // copy -> offset of its multipliers (one per strategy)
  std::vector<std::uint64_t> first;   // region -> its first copy
  CopyLayout(const Reduced& r, const Partition& part);
  std::size_t size() const { return node.size(); }
};

// The Lagrangian state every rank holds identically: memory prices per time segment and
// agreement multipliers per copy and strategy, updated by subgradient steps.
class DualState {
 public:
  // `gain`: the time prices' subgradient gain; `halving_steps`: the steps over which the
  // step size halves (DistributedOptions::region_gain, region_step_rounds).
  DualState(const Reduced& r, const CopyLayout& copies, double price_unit, double gain = 20.0,
            double halving_steps = 10.0);
  // Per-member weights (cost per unit of usage) for the current time prices.
  std::vector<double> member_weights() const;
  const std::vector<double>& multipliers() const { return lambda_; }
  // One subgradient step from an assembled assignment `x` (each node at its owner's label),
  // the copies' labels and the usage per time segment of `x`.
  void update(const std::vector<Strategy>& x, const std::vector<Strategy>& copy_labels,
              const std::vector<double>& usage);
  // The bound the regions' summed lower bound gives on the unpriced problem.
  double bound(double regions_bound) const;
  // Adds the usage of the members of `nodes` under `x` to a per-segment difference array
  // (size segments + 1), so that the owners' parts sum to the whole profile.
  static void add_usage(const Reduced& r, const std::vector<std::uint32_t>& nodes,
                        const std::vector<Strategy>& x, std::vector<double>& diff);

 private:
  const Reduced& r_;
  const CopyLayout& copies_;
  double unit_;
  double gain_, halving_steps_;
  double edge_scale_;
  std::uint64_t steps_ = 0;
  std::vector<double> price_;   // per time segment
  std::vector<double> lambda_;  // per copy and strategy
};

class RegionSolver {
 public:
  RegionSolver(const Reduced& r, const Partition& part, const CopyLayout& copies,
               std::uint32_t region);
  // Sets the region's costs from the memory weights and multipliers, runs `iterations` of
  // TRW-S (warm-started) and rounds, then a priced 1-opt.
  void solve(const std::vector<double>& weights, const std::vector<double>& multipliers,
             int iterations, const StopControl* stop);
  // After solve(): the owned nodes' labels and the copies' labels (in layout order).
  const std::vector<std::uint32_t>& owned() const { return owned_; }
  Strategy owned_label(std::size_t i) const { return x_[i]; }
  std::size_t num_copies() const { return ghosts_; }
  Strategy copy_label(std::size_t i) const { return x_[owned_.size() + i]; }
  // TRW-S's lower bound on the region's least energy, from the last solve().
  double lower_bound() const { return bound_; }

 private:
  const Reduced& r_;
  const CopyLayout& copies_;
  std::uint32_t region_;
  std::vector<std::uint32_t> owned_;
  std::size_t ghosts_ = 0;
  std::vector<std::size_t> copies_of_owned_begin_;  // owned index -> its copies elsewhere
  std::vector<std::uint32_t> copies_of_owned_;
  CostNetwork net_;
  std::vector<double> base_;  // per local unary entry: cost without prices and multipliers
  std::unique_ptr<Trws> trws_;
  std::vector<Strategy> x_;
  double bound_ = 0;
};

}  // namespace iopddl
