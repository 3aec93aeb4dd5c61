// A worker's pricing step, the sub-solver its rounds start with: memory prices on its own
// copy of the cost network, TRW-S (messages kept between rounds), rounding, priced 1-opt
// and, on small cores, the priced branch-and-bound from the rounding.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../exact/priced_search.hpp"
#include "../lagrange/network.hpp"
#include "../lagrange/trws.hpp"
#include "../local/memory_index.hpp"
#include "../local/neighbourhood.hpp"
#include "../local/state.hpp"
#include "iopddl/options.hpp"
#include "iopddl/rng.hpp"
#include "iopddl/stop.hpp"
#include "memory_prices.hpp"

namespace iopddl::inline v0 {

class PricedLabelling {
 public:
  // `network`: the reduced problem as a cost network; this prices its own copy (the copies
  // share the edge tables).
  PricedLabelling(const Reduced& r, const MemoryIndex& index, const CostNetwork& network,
                  const SolverOptions& o, double price_unit, Pricing pricing);

  // Prices the network and runs trws.iterations of TRW-S (until `stop`).
  void iterate(const StopControl& stop);
  // The labelling of the last iterations: rounded, improved by priced 1-opt and, where it
  // runs, by the priced branch-and-bound; its work charged to `stop`.
  std::vector<Strategy> labelling(const StopControl& stop);
  // The prices after the round's answer `state` (raised where it overloads memory).
  void update(const LocalState& state, Rng& rng) { prices_.update(state, rng); }
  // Stagnation: the prices scattered, and sometimes the messages forgotten.
  void scatter(Rng& rng);

  std::uint64_t table_size() const { return net_.table_size(); }
  // The priced branch-and-bound's statistics; calls 0 where it does not run.
  const NeighbourhoodStats& search_stats() const { return stats_; }
  std::vector<double> prices() const { return prices_.absolute(); }
  void set_prices(const std::vector<double>& w) { prices_.set_absolute(w); }

 private:
  // Branch-and-bound on the priced problem from the rounding; its statistics are reported
  // as those of a neighbourhood (the gain in priced energy).
  // It runs while it pays: after k calls in a row that lower the energy by less than
  // trws.search-min-gain of it, the next 2^k - 1 rounds go without; and its node budget
  // starts at an eighth of trws.search-nodes, doubles after a call that paid and halves
  // after one that did not. On D every call gained 5-35 %; on generated cores whose rounding
  // was already near the priced optimum, calls of 10,000 nodes took 1-5 s to gain 10^-6,
  // and the rounds they slowed missed their polish.
  void search(std::vector<Strategy>& x, const StopControl& stop);

  const SolverOptions& o_;
  CostNetwork net_;  // the priced problem: node costs plus memory prices
  Trws trws_;
  MemoryPrices prices_;
  std::optional<PricedSearch> search_;  // small cores only (trws.search-max-groups)
  NeighbourhoodStats stats_;
  static constexpr unsigned kMaxBackoff = 6;  // at least one round in 64 tries it again
  unsigned failures_ = 0, skip_ = 0;
  // The next call's nodes: an eighth of trws.search-nodes at first.
  std::uint64_t budget_ = std::max<std::uint64_t>(o_.trws.search_nodes / 8, 1);
};

}  // namespace iopddl::inline v0
