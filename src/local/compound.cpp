#include "compound.hpp"

#include <algorithm>
#include <numeric>

#include "iopddl/stop.hpp"
#include "memory_index.hpp"

namespace iopddl::inline v0 {

CompoundMoves::CompoundMoves(const Reduced& r, const MemoryIndex& index, const CompoundOptions& o)
    : r_(r), relief_(index), o_(o), order_(r.num_nodes()), in_chain_(r.num_nodes(), 0) {}

bool CompoundMoves::chain(LocalState& state, std::uint32_t g) {
  const auto d = state.deltas(g);
  Strategy first = state.at(g);
  for (Strategy s = 0; s < r_.strategies(g); ++s)
    if (d[s] < d[first]) first = s;
  if (d[first] >= 0) return false;
  Total total = d[first];
  undo_.assign(1, {g, state.at(g)});
  in_chain_[g] = 1;
  state.move(g, first, d[first]);
  const Total limit = state.limit();
  // Repair moves after the first: enough for a first move whose extra usage crosses a few
  // tight points, few enough that a failing chain stays cheap to undo.
  for (int step = 0; step < o_.repair_moves && !state.feasible(); ++step) {
    const std::size_t t = state.usage().first_above(limit);
    const Total excess = state.usage().max(t, t + 1) - limit;
    // The cheapest move that clears t, else the cheapest per unit freed there, among those
    // that keep the chain improving.
    bool found = false, clears = false;
    double score = 0;
    std::uint32_t best_h = 0;
    Strategy best_s = 0;
    Total best_d = 0;
    work_ += relief_.at(
        state, t, &in_chain_, -total, [&](std::uint32_t h, Strategy s, Total dh, Total freed) {
          const bool c = freed >= excess;
          const double sc =
              c ? static_cast<double>(dh) : static_cast<double>(dh) / static_cast<double>(freed);
          if (!found || (c && !clears) || (c == clears && sc < score))
            found = true, clears = c, score = sc, best_h = h, best_s = s, best_d = dh;
        });
    if (!found) break;
    undo_.push_back({best_h, state.at(best_h)});
    in_chain_[best_h] = 1;
    state.move(best_h, best_s, best_d);
    total += best_d;
  }
  for (const auto& [h, s] : undo_) in_chain_[h] = 0;
  if (state.feasible() && total < 0) return true;
  for (std::size_t i = undo_.size(); i-- > 0;) {
    const auto [h, s] = undo_[i];
    state.move(h, s, state.delta(h, s));
  }
  return false;
}

int CompoundMoves::run(LocalState& state, Rng& rng, const StopControl& stop, std::uint64_t budget) {
  if (!state.limited() || !state.feasible()) return 0;
  work_ = 0;
  std::iota(order_.begin(), order_.end(), 0);
  for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[rng.below(i)]);
  int kept = 0;
  StopPoll poll(&stop, 256);
  std::uint64_t charged = 0;
  for (std::uint32_t g : order_) {
    if (poll.tick(work_ - charged)) break;
    charged = work_;
    if (work_ >= budget) break;
    if (chain(state, g)) ++kept;
  }
  return kept;
}

}  // namespace iopddl::inline v0
