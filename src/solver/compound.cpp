#include "compound.hpp"

#include <numeric>

#include "iopddl/stop.hpp"
#include "memory_index.hpp"

namespace iopddl {

namespace {
// Repair moves after the first move of a chain. Chains kept on N at 20 s take 1-3.
constexpr int kRepairMoves = 8;
}  // namespace

CompoundMoves::CompoundMoves(const Reduced& r, const MemoryIndex& index)
    : r_(r),
      p_(r.original()),
      index_(index),
      order_(r.num_nodes()),
      seen_(r.num_nodes(), 0),
      in_chain_(r.num_nodes(), 0) {}

Total CompoundMoves::freed_at(std::uint32_t h, Strategy from, Strategy to, std::size_t t) const {
  Total freed = 0;
  for (std::size_t mi = r_.member_begin(h); mi < r_.member_begin(h + 1); ++mi) {
    const NodeId w = r_.member_node(mi);
    if (p_.has_memory(w) && p_.seg_lo(w) <= t && t < p_.seg_hi(w))
      freed += Total{r_.member_usage(mi, from)} - r_.member_usage(mi, to);
  }
  return freed;
}

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
  for (int step = 0; step < kRepairMoves && !state.feasible(); ++step) {
    const std::size_t t = state.usage().first_above(limit);
    const Total excess = state.usage().max(t, t + 1) - limit;
    live_.clear();
    ++now_;
    index_.live_at(t, [&](std::uint32_t mi) {
      const std::uint32_t h = index_.group[mi];
      if (seen_[h] == now_ || in_chain_[h]) return;
      seen_[h] = now_;
      live_.push_back(h);
    });
    // The cheapest move that clears t, else the cheapest per unit freed there, among those
    // that keep the chain improving.
    bool found = false, clears = false;
    double score = 0;
    std::uint32_t best_h = 0;
    Strategy best_s = 0;
    Total best_d = 0;
    for (std::uint32_t h : live_) {
      const Strategy cur = state.at(h);
      const auto dh = state.deltas(h);
      for (Strategy s = 0; s < r_.strategies(h); ++s) {
        if (s == cur || total + dh[s] >= 0) continue;
        const Total freed = freed_at(h, cur, s, t);
        if (freed <= 0) continue;
        const bool c = freed >= excess;
        const double sc = c ? static_cast<double>(dh[s])
                            : static_cast<double>(dh[s]) / static_cast<double>(freed);
        if (!found || (c && !clears) || (c == clears && sc < score)) {
          found = true, clears = c, score = sc, best_h = h, best_s = s, best_d = dh[s];
        }
      }
    }
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

int CompoundMoves::run(LocalState& state, Rng& rng, const StopControl& stop) {
  if (!state.limited() || !state.feasible()) return 0;
  std::iota(order_.begin(), order_.end(), 0);
  for (std::size_t i = order_.size(); i > 1; --i) std::swap(order_[i - 1], order_[rng.below(i)]);
  int kept = 0;
  std::size_t visited = 0;
  for (std::uint32_t g : order_) {
    if ((++visited & 255) == 0 && stop.should_stop()) break;
    if (chain(state, g)) ++kept;
  }
  return kept;
}

}  // namespace iopddl
