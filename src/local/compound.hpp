// Compound moves under the memory limit: a cost-improving move of one group that memory
// blocks, followed by a short greedy repair (at the first overloaded time point, the
// cheapest move that clears it, else the cheapest per unit of usage freed there) whose
// total cost must stay below the first move's gain. The chain is kept when it ends within
// the limit and cheaper, and undone otherwise. On a memory-bound instance (N: no forbidden
// entries, usage at the limit almost everywhere) a descended answer has few improving
// single moves left but many such trades between nodes that share no edge.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"
#include "relief.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

class StopControl;

class CompoundMoves {
 public:
  CompoundMoves(const Reduced& r, const MemoryIndex& index, const CompoundOptions& options = {});
  // One pass over the groups in random order on a feasible `state`, until `budget` units of
  // work (one unit: a strategy or a live member looked at) are spent; returns how many
  // chains it kept (each made the state cheaper and kept it feasible).
  int run(LocalState& state, Rng& rng, const StopControl& stop, std::uint64_t budget);
  std::uint64_t work() const { return work_; }  // spent by the last run()

 private:
  // One chain starting with g's most improving move; true if kept.
  bool chain(LocalState& state, std::uint32_t g);
  const Reduced& r_;
  ReliefMoves relief_;  // the inner repair's candidate moves
  CompoundOptions o_;
  std::vector<std::uint32_t> order_;
  std::uint64_t work_ = 0;
  std::vector<char> in_chain_;
  std::vector<std::pair<std::uint32_t, Strategy>> undo_;  // (group, strategy before)
};

}  // namespace iopddl::inline v0
