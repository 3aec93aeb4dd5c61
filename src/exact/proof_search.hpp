// Complete search of the whole reduced problem under the true memory limit, against the
// bound engine's reparametrised problem (its scaled node costs and edge tables, every
// labelling's priced value scale * L(x) = their sum + the constant, and L(x) <= cost(x)
// for every labelling within the limit): the soft arc consistency search of arc_search.hpp
// in exact integers, so its bound at every search node is valid. A placement must fit the
// limit in the cells of the window memory with the open groups at their floor; a strategy
// that does not is removed. Leaves are worth their true cost. Where the root bound is
// close to the best cost, most strategies cannot be part of a cheaper answer and the search
// is small; when it finishes, the best answer it holds is optimal.
#pragma once

#include <cstdint>
#include <vector>

#include "../lagrange/bound.hpp"
#include "../local/state.hpp"
#include "../local/window_memory.hpp"
#include "arc_search.hpp"
#include "iopddl/stop.hpp"

namespace iopddl {

class ProofSearch {
 public:
  ProofSearch(const Reduced& r, const Reparametrisation& rep);

  struct Outcome {
    bool complete = false;  // the search finished: the state's assignment is optimal
    bool improved = false;  // the state holds a cheaper assignment than it did
    // A certified lower bound of the cost: the optimum when complete, else the root's arc
    // consistency on the reparametrisation (at or above the reparametrisation's own bound).
    Total bound = 0;
    std::uint64_t nodes = 0;
  };
  // From a feasible, forbidden-free `state` (its cost the bar to beat), within `node_limit`
  // search nodes; the state ends at the best assignment found.
  Outcome run(LocalState& state, std::uint64_t node_limit, const StopControl& stop);

 private:
  const Reduced& r_;
  const Reparametrisation& rep_;
  ArcSearch<Total> search_;
  std::vector<Total> unary_;
  WindowMemory memory_;
};

}  // namespace iopddl
