// Incremental state over the reduced problem, shared by every move: the assignment, its
// exact cost and the usage profile over compressed time in a segment tree, so a move's
// cost delta costs O(degree) and its memory effect O(members log T). Each group's deltas to
// all its strategies are cached until it or a neighbour moves (DeltaCache): descent and
// compound moves around a hub with thousands of edges try many groups between moves.
#pragma once

#include <span>
#include <vector>

#include "../eval/usage_tree.hpp"
#include "../reduce/reduced.hpp"
#include "delta_cache.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

class LocalState {
 public:
  explicit LocalState(const Reduced& r);

  void assign(const std::vector<Strategy>& x);
  const Reduced& reduced() const { return r_; }
  const std::vector<Strategy>& assignment() const { return x_; }
  Strategy at(std::uint32_t g) const { return x_[g]; }
  Total cost() const { return cost_; }
  bool limited() const { return limited_; }
  Total limit() const { return limit_; }
  Total peak() const { return tree_.max(); }
  bool feasible() const { return !limited_ || tree_.max() <= limit_; }
  const UsageTree& usage() const { return tree_; }
  // Where the state counts the work of its updates (null: nowhere): delta entries read,
  // and a usage update per member and level of the usage tree. Most of a search's work is
  // here, so a run bounded by work (WorkMeter) is bounded wherever it spends it.
  void set_meter(WorkMeter* meter) { meter_ = meter; }

  // g's own cost per strategy plus its edges to the groups outside a set, at their current
  // strategies, into out[0..k_g): `slot[o]` is kNoIndex for groups outside, anything else
  // for members (whose edges are left out). Exact re-solves of a set of groups start here.
  void outside_costs(std::uint32_t g, const std::vector<std::uint32_t>& slot, Total* out) const;

  // Cost change of moving g to each strategy (size k_g); valid until the state changes.
  std::span<const Total> deltas(std::uint32_t g);
  Total delta(std::uint32_t g, Strategy s) const;
  // Moves g to s (cost change `d` from delta()), updating the usage profile.
  void move(std::uint32_t g, Strategy s, Total d);
  // Moves g to s if the global peak stays within max(limit, current peak); returns whether
  // it moved.
  bool try_move(std::uint32_t g, Strategy s, Total d);

  // Members of g that use memory and whose usage depends on its strategy (no others change
  // the usage profile when g moves), and each member's floor: its least usage over g's
  // strategies.
  std::span<const std::size_t> varying(std::uint32_t g) const {
    return {vary_.data() + vary_begin_[g], vary_begin_[g + 1] - vary_begin_[g]};
  }
  Usage floor(std::size_t mi) const { return floor_[mi]; }

  // For exact window searches: lift() lowers g's usage in the profile to its floor (each
  // member's smallest usage over g's strategies), so that place() only ever adds usage and
  // a placement over the limit proves every completion infeasible. While lifted, g keeps
  // its strategy for cost purposes.
  void lift(std::uint32_t g);
  // Places a lifted g at s (cost change d from delta()) if the peak stays within the limit.
  bool place(std::uint32_t g, Strategy s, Total d);
  // Places a lifted g at s whatever the limit says (restoring an infeasible assignment).
  void force(std::uint32_t g, Strategy s, Total d);
  // Undoes place(): back to the floor, with strategy `back` (cost change d).
  void unplace(std::uint32_t g, Strategy back, Total d);

 private:
  void add_usage(std::uint32_t g, Strategy from, Strategy to);
  void touched(std::uint32_t g);  // g moved: its and its neighbours' deltas are stale
  void touched_all() { deltas_.clear(); }
  void add_floor(std::uint32_t g, Strategy s, int sign);  // sign * (usage(s) - floor)
  void charge(std::uint64_t units) const {
    if (meter_ != nullptr) meter_->done += units;
  }
  // Work of a usage update of g: its members times the tree's depth.
  std::uint64_t usage_work(std::uint32_t g) const {
    return (r_.member_begin(g + 1) - r_.member_begin(g)) * depth_;
  }
  const Reduced& r_;
  const Problem& p_;
  std::vector<Strategy> x_;
  Total cost_ = 0;
  UsageTree tree_;
  bool limited_;
  Total limit_;
  std::vector<Usage> floor_;  // per member: its smallest usage over the group's strategies
  std::vector<std::size_t> vary_begin_, vary_;  // varying(), in CSR
  DeltaCache deltas_;
  std::uint64_t depth_;  // levels of the usage tree
  WorkMeter* meter_ = nullptr;
};

}  // namespace iopddl::inline v0
