// Compound moves under the memory limit: a cost-improving move of one group that memory
// blocks, followed by a short greedy repair (at the first overloaded time point, the
// cheapest move that clears it, else the cheapest per unit of usage freed there) whose
// total cost must stay below the first move's gain. The chain is kept when it ends within
// the limit and cheaper, and undone otherwise. On a memory-bound instance (N: no forbidden
// entries, usage at the limit almost everywhere) a descended answer has few improving
// single moves left but many such trades between nodes that share no edge.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "iopddl/rng.hpp"
#include "state.hpp"

namespace iopddl {

class StopControl;
struct MemoryIndex;

class CompoundMoves {
 public:
  CompoundMoves(const Reduced& r, const MemoryIndex& index);
  // One pass over the groups in random order on a feasible `state`; returns how many
  // chains it kept (each made the state cheaper and kept it feasible).
  int run(LocalState& state, Rng& rng, const StopControl& stop);

 private:
  // One chain starting with g's most improving move; true if kept.
  bool chain(LocalState& state, std::uint32_t g);
  // The usage that moving h from `from` to `to` frees at time segment t (negative: adds).
  Total freed_at(std::uint32_t h, Strategy from, Strategy to, std::size_t t) const;

  const Reduced& r_;
  const Problem& p_;
  const MemoryIndex& index_;
  std::vector<std::uint32_t> order_, live_, seen_;
  std::uint32_t now_ = 0;
  std::vector<char> in_chain_;
  std::vector<std::pair<std::uint32_t, Strategy>> undo_;  // (group, strategy before)
};

}  // namespace iopddl
