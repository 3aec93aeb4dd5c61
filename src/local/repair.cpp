#include "repair.hpp"

#include <algorithm>
#include <vector>

namespace iopddl {

bool greedy_repair(LocalState& state, const MemoryIndex& index, const RepairOptions& o,
                   const StopControl& stop) {
  const Reduced& r = state.reduced();
  const Problem& p = r.original();
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
  std::vector<std::uint32_t> groups;
  const std::size_t max_steps =
      std::min<std::size_t>(static_cast<std::size_t>(o.steps_per_group) * r.num_nodes() + 100,
                            static_cast<std::size_t>(o.max_steps));
  std::size_t forced = 0;
  StopPoll poll(&stop, 16);  // a step looks at every group live at one point
  for (std::size_t step = 0; step < max_steps; ++step) {
    if (state.feasible()) return true;
    if (poll.tick()) return false;
    const std::size_t t = state.usage().first_above(limit);
    ++now;
    cands.clear();
    groups.clear();
    index.live_at(t, [&](std::uint32_t mi) {
      const std::uint32_t g = index.group[mi];
      if (stamp[g] != now) {
        stamp[g] = now;
        groups.push_back(g);
      }
    });
    for (std::uint32_t g : groups) {
      const Strategy cur = state.at(g);
      const auto d = state.deltas(g);
      for (Strategy s = 0; s < r.strategies(g); ++s) {
        if (s == cur) continue;
        Total reduction = 0;
        for (std::size_t mj = r.member_begin(g); mj < r.member_begin(g + 1); ++mj) {
          const NodeId w = r.member_node(mj);
          if (p.has_memory(w) && p.seg_lo(w) <= t && t < p.seg_hi(w))
            reduction += Total{r.member_usage(mj, cur)} - r.member_usage(mj, s);
        }
        if (reduction <= 0) continue;
        cands.push_back({static_cast<double>(d[s]) / static_cast<double>(reduction), g, s, d[s]});
      }
    }
    if (cands.empty()) return false;
    std::sort(cands.begin(), cands.end(),
              [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
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

}  // namespace iopddl
