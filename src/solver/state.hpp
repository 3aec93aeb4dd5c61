// Incremental state over the reduced problem, shared by every move: the assignment, its
// exact cost and the usage profile over compressed time in a segment tree, so a move's
// cost delta costs O(degree) and its memory effect O(members log T).
#pragma once

#include <vector>

#include "../eval/usage_tree.hpp"
#include "../reduce/reduced.hpp"

namespace iopddl {

class LocalState {
 public:
  explicit LocalState(const Reduced& r);

  void assign(const std::vector<Strategy>& x);
  const std::vector<Strategy>& assignment() const { return x_; }
  Strategy at(std::uint32_t g) const { return x_[g]; }
  Total cost() const { return cost_; }
  bool limited() const { return limited_; }
  Total limit() const { return limit_; }
  Total peak() const { return tree_.max(); }
  bool feasible() const { return !limited_ || tree_.max() <= limit_; }
  const UsageTree& usage() const { return tree_; }

  // Cost change of moving g to each strategy, into d (size k_g).
  void deltas(std::uint32_t g, std::vector<Total>& d) const;
  Total delta(std::uint32_t g, Strategy s) const;
  // Moves g to s (cost change `d` from delta()), updating the usage profile.
  void move(std::uint32_t g, Strategy s, Total d);
  // Moves g to s if the global peak stays within max(limit, current peak); returns whether
  // it moved.
  bool try_move(std::uint32_t g, Strategy s, Total d);

 private:
  void add_usage(std::uint32_t g, Strategy from, Strategy to);
  const Reduced& r_;
  const Problem& p_;
  std::vector<Strategy> x_;
  Total cost_ = 0;
  UsageTree tree_;
  bool limited_;
  Total limit_;
};

}  // namespace iopddl
