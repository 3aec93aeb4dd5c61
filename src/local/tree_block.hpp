// Tree-block moves: grow an induced tree of reduced nodes (each new node has exactly one
// neighbour already in the block, so the block's own edges form a tree), relabel the whole
// block optimally given everything else by dynamic programming over the tree, and keep the
// result if it is cheaper and within the memory limit. Chains of forced switches across
// hundreds of nodes, which single moves and small exact windows cannot make, are one move
// here.
//
// When the best labelling overloads some time point, the block's members live at the
// overloaded points get a price per unit of usage (a Lagrangian multiplier on that memory,
// searched by doubling and bisection) and the DP runs again, and nodes live at the first
// overloaded point join the block as a forest (new roots, or children of their one
// neighbour inside), so the labelling can free memory elsewhere too (tuning.csv:
// tree.pricings).
#pragma once

#include <vector>

#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"
#include "memory_index.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

class StopControl;

class TreeBlockSearch {
 public:
  // With `index`, an overloading labelling also brings groups live at the overloaded time
  // point into the block.
  explicit TreeBlockSearch(const Reduced& r, const MemoryIndex* index = nullptr,
                           const TreeBlockOptions& options = {});
  // Runs `blocks` moves of up to `size` nodes each on a feasible `state`; returns how many
  // improved it.
  int run(LocalState& state, Rng& rng, int blocks, std::size_t size, const StopControl& stop);
  // One move on the block grown from `root` (exposed for tests).
  bool improve(LocalState& state, Rng& rng, std::uint32_t root, std::size_t size);
  void heat_overloaded(const LocalState& state);

 private:
  void grow(const LocalState& state, Rng& rng, std::uint32_t root, std::size_t size);
  void add(const LocalState& state, std::uint32_t g, std::uint32_t via);
  bool joinable(std::uint32_t g, std::uint32_t& via) const;
  void add_relief(const LocalState& state, Rng& rng);
  void layout();
  void solve(double lambda);

  const Reduced& r_;
  const MemoryIndex* index_;
  TreeBlockOptions o_;  // pricings: labellings per block; relief: groups brought in
  // The block: its nodes in insertion order, each one's edge to its parent, each group's
  // index in it (or none), each group's neighbours in it, and the groups that may join.
  struct Block {
    std::vector<std::uint32_t> nodes, parent_edge;
    std::vector<std::uint32_t> slot, touched;
    std::vector<std::uint32_t> candidates;
  };
  // The dynamic program. Per block node and strategy (from begin[i]): own cost plus edges to
  // nodes outside the block, computed as nodes join (the DP runs up to o_.pricings times on
  // them); and the subtree cost in one DP.
  struct Tables {
    std::vector<Total> base, value;
    std::vector<std::size_t> begin;
    std::vector<Strategy> choice;  // per block node and parent strategy: best own
    std::vector<Total> best;       // per parent strategy: the child's best subtree cost
    std::vector<std::size_t> choice_begin;
  };
  Block b_;
  Tables dp_;
  std::vector<Strategy> label_, before_;
  std::vector<char> hot_;  // per member: priced in this block's labellings
  std::vector<std::size_t> hot_list_;
  std::vector<std::uint32_t> relief_;
  std::vector<std::size_t> over_;  // the overloaded segments of a labelling, in order
  // Groups with an edge: a block grown from one without is that group alone, which 1-opt
  // covers (on N, 19,446 of the 27,200 reduced groups have no edge).
  std::vector<std::uint32_t> roots_;
  std::uint64_t work_ = 0;  // DP entries of the labellings since the last charge
};

}  // namespace iopddl::inline v0
