// A worker's memory prices: per member (a multiplier on each input node's usage, raised
// while its interval is overloaded and decayed elsewhere) or per time segment (Lagrangian
// multipliers of the memory constraint at each segment, moved by subgradient steps), in
// multiples of the worker's price unit. They turn the reduced problem into the priced one
// that TRW-S solves: node costs plus price x usage.
#pragma once

#include <vector>

#include "../lagrange/network.hpp"
#include "../local/memory_index.hpp"
#include "../local/state.hpp"
#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"

namespace iopddl::inline v0 {

class MemoryPrices {
 public:
  // `unit`: cost per unit of usage at price 1 (the instance's unit times the worker's level).
  MemoryPrices(const Reduced& r, const MemoryIndex& index, Pricing pricing, double unit,
               const PriceOptions& options);

  // The priced problem: every unary of `net` set to the node's cost plus its members'
  // weights times their usage.
  void price(CostNetwork& net);
  // One update from a labelling: per member, raise the overloaded members' prices (with
  // random increments from `rng`) and decay the others; per time, a subgradient step.
  void update(const LocalState& state, Rng& rng);
  // Stagnation: each price scaled by U[0.5, 1.5) from `rng`, and the step reset upwards.
  void scatter(Rng& rng);

  // Absolute per-member prices (cost per unit of usage), comparable across workers whose
  // units differ: what checkpoints keep and MPI ranks blend. Setting them is ignored when
  // the size does not match.
  std::vector<double> absolute() const;
  void set_absolute(const std::vector<double>& prices);

  // Each member's price per unit of usage this round.
  const std::vector<double>& weights() const { return weight_; }

 private:
  void member_weights(std::vector<double>& w) const;

  const Reduced& r_;
  const Problem& p_;
  const MemoryIndex& index_;
  Pricing pricing_;
  PriceOptions o_;
  std::vector<double> beta_;    // per-member pricing: price multiplier per member
  std::vector<double> price_;   // per-time pricing: price per time segment
  std::vector<double> weight_;  // per member, this round
  double step_ = 1.0;
  double alpha_;
};

}  // namespace iopddl::inline v0
