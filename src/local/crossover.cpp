#include "crossover.hpp"

#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

Crossover::Crossover(const Reduced& r, const CrossoverOptions& o)
    : r_(r), o_(o), component_(r.num_nodes(), kNoIndex) {}

// The components of the groups where the state and the donor differ, by depth-first search
// over edges between such groups.
void Crossover::components(const LocalState& state, const std::vector<Strategy>& donor) {
  groups_.clear();
  begin_.assign(1, 0);
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g) {
    if (donor[g] == state.at(g) || component_[g] != kNoIndex) continue;
    const auto c = static_cast<std::uint32_t>(begin_.size() - 1);
    component_[g] = c;
    stack_.push_back(g);
    while (!stack_.empty()) {
      const std::uint32_t u = stack_.back();
      stack_.pop_back();
      groups_.push_back(u);
      for (std::uint32_t e : r_.incident(u)) {
        const std::uint32_t o = r_.other(e, u);
        if (donor[o] != state.at(o) && component_[o] == kNoIndex) {
          component_[o] = c;
          stack_.push_back(o);
        }
      }
    }
    begin_.push_back(groups_.size());
  }
  for (std::uint32_t g : groups_) component_[g] = kNoIndex;  // ready for the next call
}

int Crossover::run(LocalState& state, const std::vector<Strategy>& donor, Rng& rng,
                   const StopControl& stop) {
  components(state, donor);
  const std::size_t n = begin_.size() - 1;
  order_.resize(n);
  for (std::uint32_t c = 0; c < n; ++c) order_[c] = c;
  for (std::size_t i = n; i > 1; --i) std::swap(order_[i - 1], order_[rng.below(i)]);
  // A component's labels before its move are kept in stack_ (unused between calls of
  // components()), so a component not taken moves back to them. Moving to learn the cost
  // and the memory, then back, is cheap enough: in a profile of N at 60 s the crossover's
  // own functions took 0.06 % and LocalState's single-move functions (delta, move,
  // add_usage, touched; every other search uses them too) 2.1 %.
  int taken = 0;
  for (int pass = 0; pass < o_.passes && !stop.should_stop(); ++pass) {
    int now = 0;
    std::uint64_t moves = 0;  // the pass's work
    for (std::uint32_t c : order_) {
      const std::uint32_t first = groups_[begin_[c]];
      if (state.at(first) == donor[first]) continue;  // taken in an earlier pass
      const Total before = state.cost();
      moves += 2 * (begin_[c + 1] - begin_[c]);
      stack_.clear();
      for (std::size_t i = begin_[c]; i < begin_[c + 1]; ++i) {
        const std::uint32_t g = groups_[i];
        stack_.push_back(state.at(g));
        state.move(g, donor[g], state.delta(g, donor[g]));
      }
      if (state.feasible() && state.cost() < before) {
        ++now;
        continue;
      }
      for (std::size_t i = begin_[c + 1]; i-- > begin_[c];) {
        const std::uint32_t g = groups_[i];
        const Strategy back = stack_[i - begin_[c]];
        state.move(g, back, state.delta(g, back));
      }
    }
    stack_.clear();
    stop.charge(moves);
    taken += now;
    if (now == 0) break;
  }
  return taken;
}

}  // namespace iopddl::inline v0
