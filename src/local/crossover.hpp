// Partition crossover: moves a feasible state towards a donor assignment (another local
// optimum, from another basin) one connected component of their difference at a time.
//
// The groups where state and donor differ split into components joined by edges of the
// reduced graph. Edges only join neighbours, so a component's change of cost when it takes
// the donor's labels does not depend on what the other components do; only memory couples
// them. Each component whose donor labels lower the cost and keep every time point within
// the limit is taken. On N, a worker's polished best and a round answer 10-25 % above it
// differ in 70-350 components, the largest of 200-5,000 groups (a polished round answer:
// 4-25 components, the largest of 400-800), and one taken component lowered the best by
// up to 0.23 %: moves no tree block (an induced tree) or exact window (tens of groups)
// makes.
#pragma once

#include <vector>

#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

class StopControl;

class Crossover {
 public:
  explicit Crossover(const Reduced& r, const CrossoverOptions& options = {});
  // Takes the donor's labels on every component of the difference that lowers the cost
  // of the feasible `state` within the limit, in random order, in passes until one takes
  // none (a component taken frees memory another may need; at most options.passes). Returns the
  // number of components taken.
  int run(LocalState& state, const std::vector<Strategy>& donor, Rng& rng, const StopControl& stop);

 private:
  void components(const LocalState& state, const std::vector<Strategy>& donor);

  const Reduced& r_;
  CrossoverOptions o_;
  std::vector<std::uint32_t> component_;  // per group: its component (kNoIndex: no difference)
  std::vector<std::uint32_t> stack_;
  // The components in CSR form: groups_[begin_[c] .. begin_[c + 1]); tried in order_.
  std::vector<std::uint32_t> groups_;
  std::vector<std::size_t> begin_;
  std::vector<std::uint32_t> order_;
};

}  // namespace iopddl::inline v0
