// Tree-block moves: grow an induced tree of reduced nodes (each new node has exactly one
// neighbour already in the block, so the block's own edges form a tree), relabel the whole
// block optimally given everything else by dynamic programming over the tree, and keep the
// result if it is cheaper and within the memory limit. Chains of forced switches across
// hundreds of nodes, which single moves and small exact windows cannot make, are one move
// here.
#pragma once

#include <vector>

#include "iopddl/rng.hpp"
#include "state.hpp"

namespace iopddl {

class StopControl;

class TreeBlockSearch {
 public:
  explicit TreeBlockSearch(const Reduced& r);
  // Runs `blocks` moves of up to `size` nodes each on a feasible `state`; returns how many
  // improved it.
  int run(LocalState& state, Rng& rng, int blocks, std::size_t size, const StopControl& stop);
  // One move on the block grown from `root` (exposed for tests).
  bool improve(LocalState& state, Rng& rng, std::uint32_t root, std::size_t size);

 private:
  void grow(Rng& rng, std::uint32_t root, std::size_t size);

  const Reduced& r_;
  std::vector<std::uint32_t> block_, parent_edge_;  // insertion order; edge to the parent
  std::vector<std::uint32_t> slot_;                 // group -> index in block_ (or none)
  std::vector<std::uint32_t> touched_;              // group -> neighbours in the block
  std::vector<std::uint32_t> candidates_;
  std::vector<Total> value_;  // per block node and strategy: subtree cost
  std::vector<std::size_t> value_begin_;
  std::vector<Strategy> choice_;  // per block node and parent strategy: best own
  std::vector<std::size_t> choice_begin_;
  std::vector<Strategy> label_, before_;
};

}  // namespace iopddl
