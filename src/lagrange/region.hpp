// One region's part of the Lagrangian bound: the memory-priced problem restricted to the
// groups a region owns, plus a ghost copy of each neighbour owned elsewhere. The core stays
// free of MPI: this module builds and bounds one region; the bound engine (one region: the
// whole problem) and the MPI coordinator (one region per rank) sum the regions' bounds.
//
// Region k's subproblem: a group's priced cost (its costs plus the memory prices of its
// members; a member's weight is the sum of the per-segment multipliers over its interval)
// is shared equally between its owner and each of its copies; an edge with both ends owned
// carries its table; a cut edge appears in both regions it
// joins, each with a share of its table against the ghost copy (the region owning the
// edge's first end takes half, rounded towards zero in the certified units, the other the
// rest, so the shares sum exactly to the table). Agreement of a copy with its owner is
// relaxed: multiplier a_c(s) is added to copy c's cost of strategy s and subtracted from
// its owner's. (Ghosts without their share of the priced cost lagged behind every memory
// step: on G under 2 ranks the bound fell to 0.4 of the best cost.) For an assignment that every
// copy agrees with, the regions' energies sum to its cost plus the priced usage, so for any
// multipliers (memory ones >= 0) the sum of the regions' certified bounds minus the memory
// multipliers times the limit bounds the optimum.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "../partition/regions.hpp"
#include "network.hpp"
#include "trws.hpp"

namespace iopddl::inline v0 {

class StopControl;

// The copies of all regions in one global order (region by region, each region's ghosts in
// order), the same on every rank: the layout of the agreement multipliers and of the
// copies' labels.
struct CopyLayout {
  CopyLayout() { begin.push_back(0); }  // no copies: one region
  CopyLayout(const Reduced& r, const Partition& part);
  std::vector<std::uint32_t> node;   // copy -> reduced group it copies
  std::vector<std::uint64_t> begin;  // copy -> offset of its multipliers (one per strategy)
  std::vector<std::uint64_t> first;  // region -> its first copy
  std::size_t size() const { return node.size(); }
  // The copies of group g (held by regions other than its owner's), in copy order.
  std::span<const std::uint32_t> of(std::uint32_t g) const {
    if (of_begin_.empty()) return {};
    return {of_.data() + of_begin_[g], of_begin_[g + 1] - of_begin_[g]};
  }
  // 1 + the copies of group g: the parts its priced cost is shared between.
  std::uint32_t parts(std::uint32_t g) const {
    return 1 + static_cast<std::uint32_t>(of(g).size());
  }

 private:
  std::vector<std::size_t> of_begin_;  // per group (CSR; empty without copies)
  std::vector<std::uint32_t> of_;
};

// Which local nodes and edges a region has, in the order of its network (and so of its
// messages). Local nodes: the owned groups, then the ghosts; local edges: the reduced edges
// with an owned end, in the reduced order, each between the local ids of its two ends.
// A group's priced cost is shared equally between its owner and its copies
// (CopyLayout::parts; exactly, in the certified units: each copy takes the floor of a
// share, the owner the rest).
struct RegionShape {
  enum class Share : std::uint8_t { kWhole, kFirstHalf, kSecondHalf };
  // The whole reduced problem as one region: groups and edges in the reduced order, the
  // layout of CostNetwork::from_reduced.
  static RegionShape whole(const Reduced& r);
  RegionShape(const Reduced& r, const Partition& part, const CopyLayout& copies,
              std::uint32_t region);

  std::vector<std::uint32_t> group;   // local node -> reduced group
  std::size_t owned = 0;              // local nodes [0, owned) are owned, the rest ghosts
  std::vector<std::uint32_t> edge;    // local edge -> reduced edge
  std::vector<std::uint32_t> eu, ev;  // local edge -> local ids of edge_u and edge_v
  std::vector<Share> share;
  std::vector<std::uint32_t> ghost_copy;  // ghost j (local owned + j) -> its copy

  // The region's network in doubles (cut edges at half their table); node costs are set
  // when a RegionBound prices it.
  CostNetwork network(const Reduced& r) const;

 private:
  RegionShape() = default;
};

// The certified sum of a region's reparametrised node minima, in units of 2^-scale_bits
// (not divided, and without the memory multipliers' limit term, which belongs to the whole
// problem): `memory` per segment and `agreement` per copy entry of `copies` (both scaled
// integers), integer messages `msg` per local edge (k_u entries into edge_u, then k_v
// into edge_v). Exact in 128 bits. With `out`, the reparametrised problem (over the local
// nodes and edges; its constant left 0) is kept there too; with `node_costs`, only its node
// costs (local node after local node, each node's strategies in order).
struct Reparametrisation;
Total certify_region(const Reduced& r, const RegionShape& shape, const CopyLayout& copies,
                     const std::vector<Total>& memory, const std::vector<Total>& agreement,
                     const std::vector<Total>& msg, int scale_bits, Reparametrisation* out,
                     std::vector<Total>* node_costs = nullptr);

// One region's priced subproblem bounded by warm-started TRW-S and certified.
class RegionBound {
 public:
  RegionBound(const Reduced& r, RegionShape shape, const CopyLayout& copies, CostNetwork network);
  RegionBound(const Reduced& r, RegionShape shape, const CopyLayout& copies)
      : RegionBound(r, shape, copies, shape.network(r)) {}

  // Prices the region at the multipliers (on the certified grid: `memory` per segment,
  // empty without a limit; `agreement` per copy entry), runs `iterations` of TRW-S, and
  // certifies: returns certify_region() of the rounded messages. Then rounds the
  // messages to a labelling and improves it by a priced 1-opt of `descent_passes`.
  Total solve(const std::vector<double>& memory, const std::vector<double>& agreement,
              int iterations, int descent_passes, int scale_bits, const StopControl* stop);

  const RegionShape& shape() const { return shape_; }
  // After solve(): the labels of the local nodes, the integer messages certified, and the
  // reparametrised cost of local node i's strategies (scaled) that the bound was read from.
  const std::vector<Strategy>& labels() const { return x_; }
  const std::vector<Total>& messages() const { return msg_; }
  const Total* reparametrised(std::size_t i) const { return nodes_.data() + node_begin_[i]; }
  // Adds the owned groups' usage under labels() to a per-segment difference array
  // (size segments + 1), so that the regions' parts sum to the assembly's profile.
  void add_usage(std::vector<Total>& diff) const;
  // Writes the owned groups' labels into `owners` (per reduced group), and the
  // reparametrised costs into the layout's per-copy-entry arrays: each ghost's into `copy`,
  // each owned group's into `owner` at every copy of it (DualAscent::average_copies).
  // Entries of other regions are left as they are (zero, for sums over the regions).
  void add_labels(std::vector<Strategy>& owners) const;
  void add_copy_costs(std::vector<Total>& copy, std::vector<Total>& owner) const;
  // Adds the local nodes' reparametrised costs without memory prices (at the last solve's
  // messages and `agreement`), in cost units, into `theta` from `begin[g]` on for each
  // reduced group g. Summed over the regions, a group's parts give its costs in the whole
  // problem (the agreement multipliers cancel): what the memory LP prices (lp_schedule.hpp).
  void add_unpriced_costs(const std::vector<double>& agreement, int scale_bits,
                          const std::vector<std::size_t>& begin, std::vector<double>& theta) const;
  // Work units of a solve() with `iterations` (as StopPoll counts them).
  std::uint64_t work(int iterations) const;

 private:
  void price(const std::vector<double>& memory, const std::vector<double>& agreement);

  const Reduced& r_;
  RegionShape shape_;
  const CopyLayout& copies_;
  CostNetwork net_;
  Trws trws_;
  std::vector<Strategy> x_;
  std::vector<Total> msg_;
  std::vector<std::size_t> node_begin_;  // per local node: its first entry in nodes_
  std::vector<Total> nodes_;
};

}  // namespace iopddl::inline v0
