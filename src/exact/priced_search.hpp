// Branch-and-bound on a priced cost network (memory priced into the node costs, so no
// memory limit): the inner optimiser of the pricing rounds on small reduced cores.
//
// TRW-S's rounding is a heuristic: on D's core (228 groups) the priced optimum at a
// worker's prices was 3-16 % below the energy of TRW-S's rounding after priced 1-opt, and
// repairing the optimum gave cheaper answers at every round measured (bench/results/
// exact_cores.md). The search (arc_search.hpp: soft arc consistency, binary branching,
// limited discrepancy passes) finds that optimum, or a labelling at least as good as the
// one it starts from, within a node limit.
//
// Doubles, with a tolerance for the reparametrisation's rounding: a heuristic optimiser, its
// claims are not certified (the proofs use ProofSearch, the same search in integers).
#pragma once

#include <cstdint>
#include <vector>

#include "../lagrange/network.hpp"
#include "arc_search.hpp"
#include "iopddl/stop.hpp"

namespace iopddl {

class PricedSearch {
 public:
  // The graph and edge tables of `net` (the copies of one network share them): the node
  // costs are read at each run, as the prices change.
  explicit PricedSearch(const CostNetwork& net);

  struct Outcome {
    bool complete = false;  // the search finished: x is optimal (up to the tolerance)
    bool improved = false;  // x changed to a labelling of lower energy
    double gain = 0;        // by this much
    double energy = 0;      // x's energy at the end
    std::uint64_t nodes = 0;
  };
  // From labelling x of `net` (its energy the bar to beat), within `node_limit` search
  // nodes; x ends at the least energy labelling found.
  Outcome run(const CostNetwork& net, std::vector<Strategy>& x, std::uint64_t node_limit,
              const StopControl& stop);

 private:
  ArcSearch<double> search_;
  std::vector<double> unary_;
};

}  // namespace iopddl
