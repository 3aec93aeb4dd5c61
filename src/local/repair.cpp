#include "repair.hpp"

#include <algorithm>
#include <vector>

#include "relief.hpp"

namespace iopddl::inline v0 {

bool greedy_repair(LocalState& state, const MemoryIndex& index, const RepairOptions& o,
                   const StopControl& stop) {
  const Reduced& r = state.reduced();
  const Total limit = state.limit();
  std::vector<std::uint32_t> stamp(r.num_nodes(), 0);
  std::uint32_t now = 0;
  struct Candidate {
    double score;
    std::uint32_t g;
    Strategy s;
    Total d;
  };
  std::vector<Candidate> cands;
  ReliefMoves relief(index);
  const std::size_t max_steps =
      std::min<std::size_t>(static_cast<std::size_t>(o.steps_per_group) * r.num_nodes() + 100,
                            static_cast<std::size_t>(o.max_steps));
  std::size_t forced = 0;
  std::uint64_t work = 0;    // the previous step's
  StopPoll poll(&stop, 16);  // a step looks at every group live at one point
  for (std::size_t step = 0; step < max_steps; ++step) {
    if (state.feasible()) return true;
    if (poll.tick(1 + work)) return false;
    const std::size_t t = state.usage().first_above(limit);
    cands.clear();
    work =
        relief.at(state, t, nullptr, ReliefMoves::kAnyCost,
                  [&](std::uint32_t g, Strategy s, Total d, Total freed) {
                    cands.push_back({static_cast<double>(d) / static_cast<double>(freed), g, s, d});
                  });
    if (cands.empty()) return false;
    std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
      return a.score != b.score ? a.score < b.score : a.g != b.g ? a.g < b.g : a.s < b.s;
    });
    // Take moves in order of score until t is within the limit: one group moves at most
    // once per step, with its cost change recomputed (a neighbour may have moved).
    bool moved = false;
    ++now;
    for (const Candidate& c : cands) {
      if (stamp[c.g] == now) continue;
      if (!state.try_move(c.g, c.s, state.delta(c.g, c.s))) continue;
      moved = true;
      stamp[c.g] = now;
      if (state.usage().max(t, t + 1) <= limit) break;
    }
    // No move fits without raising the peak elsewhere: force the best one, but a repair
    // that keeps forcing is going round in circles (it happens far over the limit, in the
    // first rounds, before the prices have risen): give up and leave it to the prices.
    if (!moved) {
      if (++forced > static_cast<std::size_t>(o.forced_moves)) return false;
      state.move(cands[0].g, cands[0].s, state.delta(cands[0].g, cands[0].s));
    }
  }
  return state.feasible();
}

}  // namespace iopddl::inline v0
