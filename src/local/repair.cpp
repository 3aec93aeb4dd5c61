#include "repair.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "repair_moves.hpp"

namespace iopddl::inline v0 {

bool greedy_repair(LocalState& state, const MemoryIndex& index, const RepairOptions& o,
                   const StopControl& stop) {
  const Reduced& r = state.reduced();
  const Total limit = state.limit();
  std::vector<std::uint32_t> stamp(r.num_nodes(), 0);
  std::uint32_t now = 0;
  RepairMoves moves(r, index);
  const auto by_share =
      static_cast<std::size_t>(o.steps_share * static_cast<double>(r.num_nodes()));
  const std::size_t max_steps =
      std::min<std::size_t>(static_cast<std::size_t>(o.steps_per_group) * r.num_nodes() + 100,
                            std::max(static_cast<std::size_t>(o.max_steps), by_share));
  std::size_t forced = 0;
  std::uint64_t work = 0;    // the previous step's
  StopPoll poll(&stop, 16);  // a step looks at every group live at one point
  for (std::size_t step = 0; step < max_steps; ++step) {
    if (state.feasible()) return true;
    if (poll.tick(1 + work)) return false;
    const std::size_t t = state.usage().first_above(limit);
    const std::set<ReliefMove>& cands = moves.at(state, t, work);
    if (cands.empty()) return false;
    // Take moves in order of score until t is within the limit: one group moves at most
    // once per step, with its cost change recomputed (a neighbour may have moved).
    bool moved = false;
    ++now;
    for (const ReliefMove& c : cands) {
      if (stamp[c.g] == now) continue;
      if (!state.try_move(c.g, c.s, state.delta(c.g, c.s))) continue;
      moved = true;
      stamp[c.g] = now;
      moves.moved(c.g);
      if (state.usage().max(t, t + 1) <= limit) break;
    }
    // No move fits without raising the peak elsewhere: force the best one, but a repair
    // that keeps forcing is going round in circles (it happens far over the limit, in the
    // first rounds, before the prices have risen): give up and leave it to the prices.
    if (!moved) {
      if (++forced > static_cast<std::size_t>(o.forced_moves)) return false;
      const ReliefMove best = *cands.begin();
      state.move(best.g, best.s, state.delta(best.g, best.s));
      moves.moved(best.g);
    }
  }
  return state.feasible();
}

}  // namespace iopddl::inline v0
