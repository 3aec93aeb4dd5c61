#include "tree_block.hpp"

#include <algorithm>
#include <limits>

#include "iopddl/stop.hpp"

namespace iopddl {

namespace {
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
}

TreeBlockSearch::TreeBlockSearch(const Reduced& r)
    : r_(r), slot_(r.num_nodes(), kNone), touched_(r.num_nodes(), 0) {}

// Random growth: a candidate joins while exactly one of its neighbours is in the block
// (touched_ counts them); a second neighbour joining blocks it for good.
void TreeBlockSearch::grow(Rng& rng, std::uint32_t root, std::size_t size) {
  // Every node touched last time is a neighbour of the last block.
  for (std::uint32_t g : block_) {
    slot_[g] = kNone;
    for (std::uint32_t e : r_.incident(g)) touched_[r_.other(e, g)] = 0;
  }
  block_.clear();
  parent_edge_.clear();
  candidates_.clear();
  auto add = [&](std::uint32_t g, std::uint32_t via) {
    slot_[g] = static_cast<std::uint32_t>(block_.size());
    block_.push_back(g);
    parent_edge_.push_back(via);
    for (std::uint32_t e : r_.incident(g)) {
      const std::uint32_t o = r_.other(e, g);
      if (slot_[o] != kNone) continue;
      if (++touched_[o] == 1) candidates_.push_back(o);
    }
  };
  add(root, kNone);
  while (block_.size() < size && !candidates_.empty()) {
    const std::size_t i = rng.below(candidates_.size());
    const std::uint32_t c = candidates_[i];
    candidates_[i] = candidates_.back();
    candidates_.pop_back();
    if (slot_[c] != kNone || touched_[c] != 1) continue;  // taken, or now closes a cycle
    std::uint32_t via = kNone;
    for (std::uint32_t e : r_.incident(c))
      if (slot_[r_.other(e, c)] != kNone) via = e;
    add(c, via);
  }
}

bool TreeBlockSearch::improve(LocalState& state, Rng& rng, std::uint32_t root, std::size_t size) {
  grow(rng, root, size);
  const std::size_t n = block_.size();
  if (n < 2) return false;
  // Subtree values, leaves first (reverse insertion order: children come after parents).
  value_begin_.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    value_begin_[i + 1] = value_begin_[i] + static_cast<std::size_t>(r_.strategies(block_[i]));
  value_.assign(value_begin_[n], 0);
  choice_begin_.assign(n + 1, 0);
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint32_t p = r_.other(parent_edge_[i], block_[i]);
    choice_begin_[i + 1] = static_cast<std::size_t>(r_.strategies(p));
  }
  for (std::size_t i = 0; i < n; ++i) choice_begin_[i + 1] += choice_begin_[i];
  choice_.assign(choice_begin_[n], 0);
  for (std::size_t i = 0; i < n; ++i) {  // own costs and edges to nodes outside the block
    const std::uint32_t g = block_[i];
    Total* v = value_.data() + value_begin_[i];
    for (Strategy s = 0; s < r_.strategies(g); ++s) v[s] += r_.costs(g)[s];
    for (std::uint32_t e : r_.incident(g)) {
      const std::uint32_t o = r_.other(e, g);
      if (slot_[o] != kNone) continue;
      const auto row = r_.slice(e, g, state.at(o));
      for (Strategy s = 0; s < r_.strategies(g); ++s) v[s] += row[s];
    }
  }
  for (std::size_t i = n; i-- > 1;) {
    const std::uint32_t g = block_[i], e = parent_edge_[i];
    const std::uint32_t p = r_.other(e, g);
    const Total* v = value_.data() + value_begin_[i];
    Total* pv = value_.data() + value_begin_[slot_[p]];
    Strategy* ch = choice_.data() + choice_begin_[i];
    for (Strategy sp = 0; sp < r_.strategies(p); ++sp) {
      const auto row = r_.slice(e, g, sp);
      Total best = v[0] + row[0];
      Strategy arg = 0;
      for (Strategy s = 1; s < r_.strategies(g); ++s)
        if (v[s] + row[s] < best) best = v[s] + row[s], arg = s;
      pv[sp] += best;
      ch[sp] = arg;
    }
  }
  label_.resize(n);
  const Total* rv = value_.data();
  label_[0] = static_cast<Strategy>(std::min_element(rv, rv + r_.strategies(block_[0])) - rv);
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint32_t p = r_.other(parent_edge_[i], block_[i]);
    label_[i] = choice_[choice_begin_[i] + label_[slot_[p]]];
  }
  // Apply; undo unless cheaper and within the limit.
  const Total before_cost = state.cost();
  before_.resize(n);
  bool changed = false;
  for (std::size_t i = 0; i < n; ++i) {
    before_[i] = state.at(block_[i]);
    if (label_[i] == before_[i]) continue;
    changed = true;
    state.move(block_[i], label_[i], state.delta(block_[i], label_[i]));
  }
  if (!changed) return false;
  if (state.cost() < before_cost && state.feasible()) return true;
  for (std::size_t i = n; i-- > 0;)
    if (state.at(block_[i]) != before_[i])
      state.move(block_[i], before_[i], state.delta(block_[i], before_[i]));
  return false;
}

int TreeBlockSearch::run(LocalState& state, Rng& rng, int blocks, std::size_t size,
                         const StopControl& stop) {
  int improved = 0;
  for (int b = 0; b < blocks && !stop.should_stop(); ++b)
    improved += improve(state, rng, static_cast<std::uint32_t>(rng.below(r_.num_nodes())), size);
  return improved;
}

}  // namespace iopddl
