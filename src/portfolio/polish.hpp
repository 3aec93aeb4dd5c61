// The polish, a worker's second sub-solver: batches of the polish neighbourhoods
// (local/neighbourhood.hpp) on a feasible state, in their fixed order or by what each has
// paid so far (polish.schedule), each improving batch followed by memory-aware 1-opt and
// handed back to the worker, which keeps and offers it.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "../local/neighbourhood.hpp"
#include "iopddl/options.hpp"
#include "polish_schedule.hpp"

namespace iopddl::inline v0 {

class Polish {
 public:
  Polish(const Reduced& r, const MemoryIndex& index, const SolverOptions& o);

  // What the worker tells a polish: whether its phase is over (leave at once), whether the
  // answer being polished was beaten elsewhere (the payoff schedule then leaves it), and
  // what to do with an improvement (named by its neighbourhood).
  struct Hooks {
    std::function<bool()> phase_over;
    std::function<bool()> beaten;
    std::function<void(const char*)> kept;
  };
  // Polishes `c.state` until no neighbourhood improves it, or the hooks or `c.stop` say stop.
  void run(const NeighbourhoodContext& c, const Hooks& hooks);

  const std::vector<std::unique_ptr<Neighbourhood>>& neighbourhoods() const { return list_; }

 private:
  void in_order(const NeighbourhoodContext& c, const Hooks& hooks);
  void by_payoff(const NeighbourhoodContext& c, const Hooks& hooks);

  const SolverOptions& o_;
  std::vector<std::unique_ptr<Neighbourhood>> list_;  // polish_neighbourhoods()
  PayoffSchedule payoff_;  // PolishSchedule::kPayoff: what each neighbourhood paid
};

}  // namespace iopddl::inline v0
