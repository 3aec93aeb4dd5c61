#include "polish.hpp"

#include <algorithm>

#include "../local/descent.hpp"

namespace iopddl::inline v0 {

Polish::Polish(const Reduced& r, const MemoryIndex& index, const SolverOptions& o)
    : o_(o), list_(polish_neighbourhoods(r, index, o)), payoff_(list_.size(), o.polish.explore) {}

void Polish::run(const NeighbourhoodContext& c, const Hooks& hooks) {
  if (o_.polish.schedule == PolishSchedule::kPayoff)
    by_payoff(c, hooks);
  else
    in_order(c, hooks);
}

// Tree blocks first (cheap, wide), then exact windows (narrow, any shape), again while a
// neighbourhood after the first improves; every batch that improves is handed back at once
// (the first may remove a forbidden pick, and the batches after it can take long). While the
// best picks a forbidden entry, the windows around the bad picks are what the polish is
// for: one round, smaller batches.
void Polish::in_order(const NeighbourhoodContext& c, const Hooks& hooks) {
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 0; i < list_.size(); ++i) {
      Neighbourhood& n = *list_[i];
      while (!c.stop.should_stop() && !hooks.phase_over() && n.run(c) > 0) {
        memory_descent(c.state, c.rng, c.stop);
        hooks.kept(n.name());
        if (i > 0) again = !c.forbidden;
      }
    }
  }
}

// One batch at a time, of the neighbourhood that pays best so far.
void Polish::by_payoff(const NeighbourhoodContext& c, const Hooks& hooks) {
  std::vector<bool> dry(list_.size(), false);
  while (!c.stop.should_stop() && !hooks.phase_over()) {
    // A polisher leaves an answer that has been beaten elsewhere, for the better one.
    if (hooks.beaten()) return;
    const std::size_t i = payoff_.choose(dry, c.rng);
    if (i == payoff_.count()) return;
    Neighbourhood& n = *list_[i];
    const NeighbourhoodStats before = n.stats();
    const bool improved = n.run(c) > 0;
    // Deterministic runs judge by work, which is the same in every run; time is not.
    const double spent = o_.deterministic ? static_cast<double>(n.stats().work - before.work)
                                          : n.stats().seconds - before.seconds;
    payoff_.record(i, n.stats().gain - before.gain, spent);
    if (!improved) {
      dry[i] = true;
      continue;
    }
    std::fill(dry.begin(), dry.end(), false);  // a new state: every one may pay again
    memory_descent(c.state, c.rng, c.stop);
    hooks.kept(n.name());
  }
}

}  // namespace iopddl::inline v0
