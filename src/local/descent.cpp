#include "descent.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace iopddl::inline v0 {

void memory_descent(LocalState& state, Rng& rng, const StopControl& stop) {
  const Reduced& r = state.reduced();
  std::vector<std::uint32_t> order(r.num_nodes());
  std::iota(order.begin(), order.end(), 0);
  std::vector<Strategy> improving;
  bool improved = true;
  while (improved && !stop.should_stop()) {
    improved = false;
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    StopPoll poll(&stop);
    for (std::uint32_t g : order) {
      if (poll.tick()) return;
      const auto d = state.deltas(g);
      improving.clear();
      for (Strategy s = 0; s < r.strategies(g); ++s)
        if (d[s] < 0) improving.push_back(s);
      std::sort(improving.begin(), improving.end(),
                [&](Strategy a, Strategy b) { return d[a] < d[b]; });
      for (Strategy s : improving)
        if (state.try_move(g, s, d[s])) {
          improved = true;
          break;
        }
    }
  }
}

}  // namespace iopddl::inline v0
