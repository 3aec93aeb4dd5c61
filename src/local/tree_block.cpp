#include "tree_block.hpp"

#include <algorithm>
#include <cmath>

#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

namespace {
// A price times a usage beyond this is as good as infinite (a forbidden entry is 1e18).
constexpr double kMaxPenalty = 1e30;
// The same as a cast to Total, through the cheaper 64-bit conversion when it fits.
Total penalty(double x) {
  return std::abs(x) < 9e18 ? Total{static_cast<std::int64_t>(x)} : static_cast<Total>(x);
}
}  // namespace

TreeBlockSearch::TreeBlockSearch(const Reduced& r, const MemoryIndex* index,
                                 const TreeBlockOptions& o)
    : r_(r), index_(index), o_(o), hot_(r.num_members(), 0) {
  b_.slot.assign(r.num_nodes(), kNoIndex);
  b_.touched.assign(r.num_nodes(), 0);
  Strategy most = 1;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    if (!r.incident(g).empty()) roots_.push_back(g);
    most = std::max(most, r.strategies(g));
  }
  dp_.best.resize(static_cast<std::size_t>(most));
}

void TreeBlockSearch::add(const LocalState& state, std::uint32_t g, std::uint32_t via) {
  b_.slot[g] = static_cast<std::uint32_t>(b_.nodes.size());
  b_.nodes.push_back(g);
  b_.parent_edge.push_back(via);
  // g's base: its own costs and its edges to nodes outside the block, at their strategies.
  // Only block nodes change while the block's labellings are tried, so these stay right
  // for all of them (relief groups join mid-way, with only their parent inside); the
  // parent's edge to g is now inside the block.
  const Strategy k = r_.strategies(g);
  const std::size_t at = dp_.base.size();
  dp_.base.resize(at + static_cast<std::size_t>(k));
  dp_.begin.push_back(dp_.base.size());
  state.outside_costs(g, b_.slot, dp_.base.data() + at);
  if (via != kNoIndex) {
    const std::uint32_t p = r_.other(via, g);
    const auto row = r_.slice(via, p, state.at(g));
    Total* pb = dp_.base.data() + dp_.begin[b_.slot[p]];
    for (Strategy s = 0; s < r_.strategies(p); ++s) pb[s] -= row[s];
  }
  for (std::uint32_t e : r_.incident(g)) {
    const std::uint32_t o = r_.other(e, g);
    if (b_.slot[o] != kNoIndex) continue;
    if (++b_.touched[o] == 1) b_.candidates.push_back(o);
  }
}

// Whether g can join the block keeping its edges a forest (at most one neighbour inside);
// its edge to the parent, or none.
bool TreeBlockSearch::joinable(std::uint32_t g, std::uint32_t& via) const {
  if (b_.slot[g] != kNoIndex || b_.touched[g] > 1) return false;
  via = kNoIndex;
  if (b_.touched[g] == 1)
    for (std::uint32_t e : r_.incident(g))
      if (b_.slot[r_.other(e, g)] != kNoIndex) via = e;
  return true;
}

// Random growth: a candidate joins while exactly one of its neighbours is in the block
// (b_.touched counts them); a second neighbour joining blocks it for good.
void TreeBlockSearch::grow(const LocalState& state, Rng& rng, std::uint32_t root,
                           std::size_t size) {
  // Every node touched last time is a neighbour of the last block.
  for (std::uint32_t g : b_.nodes) {
    b_.slot[g] = kNoIndex;
    for (std::uint32_t e : r_.incident(g)) b_.touched[r_.other(e, g)] = 0;
  }
  b_.nodes.clear();
  b_.parent_edge.clear();
  b_.candidates.clear();
  dp_.base.clear();
  dp_.begin.assign(1, 0);
  add(state, root, kNoIndex);
  while (b_.nodes.size() < size && !b_.candidates.empty()) {
    const std::size_t i = rng.below(b_.candidates.size());
    const std::uint32_t c = b_.candidates[i];
    b_.candidates[i] = b_.candidates.back();
    b_.candidates.pop_back();
    std::uint32_t via;
    if (b_.touched[c] == 1 && joinable(c, via)) add(state, c, via);  // not taken, closes no cycle
  }
}

// Relief for an overloaded labelling: groups live at the first overloaded time point join
// the block (as new roots, or as children of their one neighbour inside), so that the
// priced labellings can free memory there too, not only in the block's own nodes.
void TreeBlockSearch::add_relief(const LocalState& state, Rng& rng) {
  const std::size_t t = state.usage().first_above(state.limit());
  relief_.clear();
  index_->live_at(t, [&](std::uint32_t mi) { relief_.push_back(index_->group[mi]); });
  std::size_t added = 0;
  for (std::size_t i = relief_.size(); i > 0 && added < static_cast<std::size_t>(o_.relief); --i) {
    std::swap(relief_[i - 1], relief_[rng.below(i)]);
    const std::uint32_t g = relief_[i - 1];
    std::uint32_t via;
    if (!joinable(g, via)) continue;
    add(state, g, via);
    before_.push_back(state.at(g));
    ++added;
  }
}

// Index arrays of the DP over the current block.
void TreeBlockSearch::layout() {
  const std::size_t n = b_.nodes.size();
  dp_.choice_begin.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    dp_.choice_begin[i + 1] =
        dp_.choice_begin[i] +
        (b_.parent_edge[i] == kNoIndex
             ? 0
             : static_cast<std::size_t>(r_.strategies(r_.other(b_.parent_edge[i], b_.nodes[i]))));
  }
  dp_.value.resize(dp_.base.size());
  dp_.choice.resize(dp_.choice_begin[n]);
}

// Dynamic programming over the block (leaves first: children come after their parents in
// insertion order) for its best labelling given everything else, with `lambda` per unit of
// usage added to the costs of the members marked hot; into label_.
void TreeBlockSearch::solve(double lambda) {
  const std::size_t n = b_.nodes.size();
  std::copy(dp_.base.begin(), dp_.base.end(), dp_.value.begin());  // the same layout
  for (std::size_t i = 0; i < n && lambda > 0; ++i) {
    const std::uint32_t g = b_.nodes[i];
    Total* v = dp_.value.data() + dp_.begin[i];
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      if (!hot_[mi]) continue;
      for (Strategy s = 0; s < r_.strategies(g); ++s)  // capped: sums stay far inside 128 bits
        v[s] +=
            penalty(std::min(lambda * static_cast<double>(r_.member_usage(mi, s)), kMaxPenalty));
    }
  }
  for (std::size_t i = n; i-- > 0;) {
    if (b_.parent_edge[i] == kNoIndex) continue;  // a root
    const std::uint32_t g = b_.nodes[i], e = b_.parent_edge[i];
    const std::uint32_t p = r_.other(e, g);
    const Strategy kg = r_.strategies(g), kp = r_.strategies(p);
    const Total* v = dp_.value.data() + dp_.begin[i];
    Total* pv = dp_.value.data() + dp_.begin[b_.slot[p]];
    Strategy* ch = dp_.choice.data() + dp_.choice_begin[i];
    const Cost* table = r_.table(e);
    work_ += static_cast<std::uint64_t>(kg) * kp;
    // For each parent strategy, the child's best (the lowest on ties), reading the table
    // row by row: g's strategy is the row when g is the edge's first node.
    if (r_.edge_u(e) == g) {
      for (Strategy sp = 0; sp < kp; ++sp) dp_.best[sp] = v[0] + table[sp], ch[sp] = 0;
      for (Strategy s = 1; s < kg; ++s) {
        const Cost* row = table + static_cast<std::size_t>(s) * kp;
        for (Strategy sp = 0; sp < kp; ++sp)
          if (v[s] + row[sp] < dp_.best[sp]) dp_.best[sp] = v[s] + row[sp], ch[sp] = s;
      }
    } else {
      for (Strategy sp = 0; sp < kp; ++sp) {
        const Cost* row = table + static_cast<std::size_t>(sp) * kg;
        Total best = v[0] + row[0];
        Strategy arg = 0;
        for (Strategy s = 1; s < kg; ++s)
          if (v[s] + row[s] < best) best = v[s] + row[s], arg = s;
        dp_.best[sp] = best;
        ch[sp] = arg;
      }
    }
    for (Strategy sp = 0; sp < kp; ++sp) pv[sp] += dp_.best[sp];
  }
  label_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (b_.parent_edge[i] == kNoIndex) {
      const Total* v = dp_.value.data() + dp_.begin[i];
      label_[i] = static_cast<Strategy>(std::min_element(v, v + r_.strategies(b_.nodes[i])) - v);
    } else {
      const std::uint32_t p = r_.other(b_.parent_edge[i], b_.nodes[i]);
      label_[i] = dp_.choice[dp_.choice_begin[i] + label_[b_.slot[p]]];
    }
  }
}

// The block's members live at a point the state overloads become hot (priced).
void TreeBlockSearch::heat_overloaded(const LocalState& state) {
  const Problem& p = r_.original();
  over_.clear();
  state.usage().all_above(state.limit(), over_);
  for (std::size_t i = 0; i < b_.nodes.size(); ++i)
    for (std::size_t mi = r_.member_begin(b_.nodes[i]); mi < r_.member_begin(b_.nodes[i] + 1);
         ++mi) {
      const NodeId v = r_.member_node(mi);
      if (hot_[mi] || !p.has_memory(v)) continue;
      const auto t = std::lower_bound(over_.begin(), over_.end(), p.seg_lo(v));
      if (t == over_.end() || *t >= p.seg_hi(v)) continue;
      hot_[mi] = 1;
      hot_list_.push_back(mi);
    }
}

bool TreeBlockSearch::improve(LocalState& state, Rng& rng, std::uint32_t root, std::size_t size) {
  grow(state, rng, root, size);
  if (b_.nodes.size() < 2) return false;
  before_.resize(b_.nodes.size());
  for (std::size_t i = 0; i < b_.nodes.size(); ++i) before_[i] = state.at(b_.nodes[i]);
  const Total before_cost = state.cost();

  // The block's best labelling ignores memory; when it overloads some time point, the
  // members live there (hot) get a price per unit of usage, raised while the labelling
  // overloads and halved back towards the last overloading price while it costs more than
  // the current one, for at most o_.pricings labellings. The first price is the labelling's
  // gain per unit of overload.
  double lambda = 0, low = 0, high = -1;
  bool improved = false;
  for (int attempt = 0; attempt < o_.pricings; ++attempt) {
    layout();
    solve(lambda);
    const std::size_t n = b_.nodes.size();
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (label_[i] == state.at(b_.nodes[i])) continue;
      changed = true;
      state.move(b_.nodes[i], label_[i], state.delta(b_.nodes[i], label_[i]));
    }
    const bool cheaper = state.cost() < before_cost, feasible = state.feasible();
    if (changed && cheaper && feasible) {
      improved = true;
      break;
    }
    // The best labelling at no price is the current one: nothing in this block improves.
    if (!changed && lambda == 0) break;
    if (!feasible && index_ != nullptr) add_relief(state, rng);
    if (!feasible) heat_overloaded(state);
    const Total gain = before_cost - state.cost(), excess = state.peak() - state.limit();
    for (std::size_t i = b_.nodes.size(); i-- > 0;)
      if (state.at(b_.nodes[i]) != before_[i])
        state.move(b_.nodes[i], before_[i], state.delta(b_.nodes[i], before_[i]));
    if (cheaper) {  // and overloading: raise the price
      low = lambda;
      lambda = high > 0  ? (low + high) / 2
               : low > 0 ? 2 * low
                         : static_cast<double>(gain) / static_cast<double>(excess);
    } else {
      // Costlier than the current labelling: a higher price only costs more (if it also
      // overloads, or at no price, give up); lower it towards the last overloading one.
      if (lambda == 0 || !feasible) break;
      high = lambda;
      lambda = (low + high) / 2;
    }
  }
  for (std::size_t mi : hot_list_) hot_[mi] = 0;
  hot_list_.clear();
  return improved;
}

int TreeBlockSearch::run(LocalState& state, Rng& rng, int blocks, std::size_t size,
                         const StopControl& stop) {
  int improved = 0;
  if (roots_.empty()) return 0;
  for (int b = 0; b < blocks && !stop.should_stop(); ++b) {
    improved += improve(state, rng, roots_[rng.below(roots_.size())], size);
    stop.charge(work_ + b_.nodes.size());  // the DP's entries and the block's growth
    work_ = 0;
  }
  return improved;
}

}  // namespace iopddl::inline v0
