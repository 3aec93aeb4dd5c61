#include "window_search.hpp"

#include <algorithm>
#include <limits>

#include "elimination.hpp"
#include "iopddl/stop.hpp"
#include "memory_index.hpp"

namespace iopddl::inline v0 {

WindowSearch::WindowSearch(const Reduced& r, const MemoryIndex* index, const WindowOptions& o)
    : r_(r),
      index_(index),
      o_(o),
      size_{static_cast<std::size_t>(o.first_size), static_cast<std::size_t>(o.first_size)},
      position_(r.num_nodes(), kNoIndex) {
  budget_.limit = static_cast<std::uint64_t>(o.node_limit);
  if (index_ != nullptr) {
    varies_.assign(r.num_members(), 0);
    for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
      for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi)
        for (Strategy s = 1; s < r.strategies(g); ++s)
          if (r.member_usage(mi, s) != r.member_usage(mi, 0)) varies_[mi] = 1;
  }
}

void WindowSearch::clear_window() {
  for (std::uint32_t g : window_) position_[g] = kNoIndex;
  window_.clear();
}

void WindowSearch::grow_window(Rng& rng) {
  clear_window();
  // Windows grow around forbidden picks while there are any (most of the time), else from
  // the seed set, else from anywhere.
  std::uint32_t seed;
  if (!forbidden_.empty() && rng.uniform() < o_.at_forbidden)
    seed = forbidden_[rng.below(forbidden_.size())];
  else
    seed = static_cast<std::uint32_t>(rng.below(r_.num_nodes()));
  window_.push_back(seed);
  position_[seed] = 0;
  // Breadth-first, neighbours in random order, up to size_ nodes.
  std::vector<std::uint32_t> next;
  const std::size_t size = size_[kGraph];
  for (std::size_t head = 0; head < window_.size() && window_.size() < size; ++head) {
    next.clear();
    for (std::uint32_t e : r_.incident(window_[head])) {
      const std::uint32_t o = r_.other(e, window_[head]);
      if (position_[o] == kNoIndex) next.push_back(o);
    }
    for (std::size_t i = next.size(); i > 1; --i) std::swap(next[i - 1], next[rng.below(i)]);
    for (std::uint32_t o : next) {
      if (window_.size() >= size) break;
      if (position_[o] != kNoIndex) continue;
      position_[o] = static_cast<std::uint32_t>(window_.size());
      window_.push_back(o);
    }
  }
}

// A time point where memory binds: of a few points drawn inside random members' intervals,
// the one with the highest usage. The window is a random subset of the nodes live there
// whose usage at that point depends on their strategy.
void WindowSearch::time_window(const LocalState& state, Rng& rng) {
  clear_window();
  const Problem& p = r_.original();
  const auto& members = index_->with_memory;
  std::size_t t = 0;
  Total top = UsageTree::lowest();
  for (int draw = 0; draw < 3; ++draw) {
    const NodeId v = r_.member_node(members[rng.below(members.size())]);
    const std::size_t at = p.seg_lo(v) + rng.below(p.seg_hi(v) - p.seg_lo(v));
    const Total u = state.usage().max(at, at + 1);
    if (u > top) top = u, t = at;
  }
  std::vector<std::uint32_t> live;
  index_->live_at(t, [&](std::uint32_t mi) {
    const std::uint32_t g = index_->group[mi];
    if (!varies_[mi] || position_[g] != kNoIndex) return;
    position_[g] = 0;  // a mark until the window is chosen
    live.push_back(g);
  });
  for (std::uint32_t g : live) position_[g] = kNoIndex;
  const std::size_t size = std::min(size_[kTime], live.size());
  for (std::size_t i = 0; i < size; ++i) {  // a partial Fisher-Yates shuffle
    std::swap(live[i], live[i + rng.below(live.size() - i)]);
    position_[live[i]] = static_cast<std::uint32_t>(i);
    window_.push_back(live[i]);
  }
}

// Branch-and-bound on the window's absolute cost (partial forward checking): open_[i][s]
// is window node i's own cost and its edges to fixed nodes (fixed_) plus its edges to the
// window nodes placed so far; an edge between two open nodes counts for nothing. The bound
// of a search node is the cost of the placed part plus each open node's least open_[i][s],
// kept up to date as nodes are placed, so on dense windows an option whose neighbours
// cannot then be placed cheaply enough is cut at once. Options sorted by their own open_
// stop at the first that cannot win. Placements go through the window's memory profile, so
// memory is checked against the limit with unplaced nodes at their floor (exact pruning).
void WindowSearch::dfs(std::size_t depth, Total partial) {
  if (!budget_.complete) return;
  // A search node's work: the options it weighs, and the memory cells its parent's
  // placements touched.
  const std::uint64_t work =
      (depth < window_.size() ? r_.strategies(window_[depth]) : 1) + memory_.take_work();
  if (!budget_.enter(work)) return;
  if (depth == window_.size()) {
    if (partial < best_cost_) {
      budget_.found = true;
      best_cost_ = partial;
      best_ = chosen_;
    }
    return;
  }
  if (partial + open_.sum() >= best_cost_) return;
  const std::uint32_t g = window_[depth];
  const Strategy k = r_.strategies(g);
  std::vector<std::pair<Total, Strategy>> options(static_cast<std::size_t>(k));
  const Total* own = open_.at(depth);
  for (Strategy s = 0; s < k; ++s) options[s] = {own[s], s};
  std::sort(options.begin(), options.end());
  const Total rest = open_.sum() - open_.least(depth);
  for (auto [a, s] : options) {
    if (partial + a + rest >= best_cost_) break;
    if (a >= kForbidden) break;
    if (!memory_.place(depth, s)) continue;  // over the limit: no completion fits
    chosen_[depth] = s;
    const Total saved = open_.sum();
    open_.set_sum(rest);
    add_to_later(depth, s, +1);
    dfs(depth + 1, partial + a);
    add_to_later(depth, s, -1);
    open_.set_sum(saved);
    memory_.unplace(depth, s);
    if (!budget_.complete) return;
  }
}

// Window node i placed at s (sign +1) or taken back (-1): its edges to the window nodes
// after it add (or remove) their rows to those nodes' open costs.
void WindowSearch::add_to_later(std::size_t i, Strategy s, int sign) {
  for (const auto& [e, j] : open_.later(i)) {
    const std::uint32_t h = window_[j];
    const auto row = r_.slice(e, h, s);
    open_.add(j, r_.strategies(h), sign, [&](Strategy t) { return Total{row[t]}; });
  }
}

bool WindowSearch::search_window(LocalState& state) {
  // Each node after as many of its window neighbours as possible, from the first node:
  // open nodes then see most of their edges placed early, which the bound needs.
  window_ = max_cardinality_order(r_, window_, position_);
  const std::size_t n = window_.size();
  for (std::size_t i = 0; i < n; ++i) position_[window_[i]] = static_cast<std::uint32_t>(i);
  open_.build(r_, window_, position_);
  // Open costs start as each node's own cost plus its edges to nodes outside the window.
  Total current = 0;  // the window's absolute cost now
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = window_[i];
    Total* f = open_.at(i);
    state.outside_costs(g, position_, f);
    current += f[state.at(g)];
  }
  open_.start();
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& [e, j] : open_.later(i)) current += entry(state, e);
  best_.resize(n);
  for (std::size_t i = 0; i < n; ++i) best_[i] = state.at(window_[i]);
  // Keep the current assignment unless something is cheaper; if it is over the limit or
  // picks a forbidden entry, anything feasible and forbidden-free is.
  best_cost_ =
      state.feasible() && current < kForbidden ? current : std::numeric_limits<Total>::max();
  budget_.begin();
  chosen_ = best_;
  for (std::uint32_t g : window_) state.lift(g);
  memory_.build(state, window_);
  dfs(0, 0);
  // Place the best assignment found (or the original one) back.
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = window_[i];
    const bool placed = state.place(g, best_[i], state.delta(g, best_[i]));
    if (!placed) state.force(g, best_[i], state.delta(g, best_[i]));  // the original, infeasible
  }
  return budget_.found;
}

int WindowSearch::run(LocalState& state, Rng& rng, int windows, const StopControl& stop) {
  budget_.poll = StopPoll(&stop, 256);
  int improved = 0;
  // The nodes at a forbidden pick (own cost or an edge entry).
  forbidden_.clear();
  if (state.cost() >= kForbidden)
    for (std::uint32_t g = 0; g < r_.num_nodes(); ++g) {
      bool bad = is_forbidden(r_.costs(g)[state.at(g)]);
      for (std::uint32_t e : r_.incident(g)) bad = bad || is_forbidden(entry(state, e));
      if (bad) forbidden_.push_back(g);
    }
  const bool timed = index_ != nullptr && !index_->with_memory.empty() && state.limited();
  for (int w = 0; w < windows && !stop.should_stop(); ++w) {
    const Kind kind = timed && rng.uniform() < o_.time_share ? kTime : kGraph;
    if (kind == kTime)
      time_window(state, rng);
    else
      grow_window(rng);
    if (window_.empty()) continue;
    if (search_window(state)) ++improved;
    // Adapt the difficulty: grow after complete searches, shrink after cut-off ones.
    std::size_t& size = size_[kind];
    size = budget_.complete
               ? std::min<std::size_t>(size + 1, static_cast<std::size_t>(o_.max_size))
               : std::max<std::size_t>(size - 1, static_cast<std::size_t>(o_.min_size));
  }
  return improved;
}

WindowSearch::Exact WindowSearch::solve_exactly(LocalState& state, std::size_t node_limit,
                                                const StopControl& stop) {
  // Breadth-first through every component, so that neighbours are placed close together
  // (the search orders the window again, from the first node).
  std::vector<std::uint32_t> order;
  std::vector<char> seen(r_.num_nodes(), 0);
  for (std::uint32_t root = 0; root < r_.num_nodes(); ++root) {
    if (seen[root]) continue;
    seen[root] = 1;
    order.push_back(root);
    for (std::size_t head = order.size() - 1; head < order.size(); ++head)
      for (std::uint32_t e : r_.incident(order[head])) {
        const std::uint32_t o = r_.other(e, order[head]);
        if (!seen[o]) seen[o] = 1, order.push_back(o);
      }
  }
  return solve_window(state, order, node_limit, stop);
}

WindowSearch::Exact WindowSearch::solve_window(LocalState& state,
                                               const std::vector<std::uint32_t>& groups,
                                               std::size_t node_limit, const StopControl& stop) {
  budget_.poll = StopPoll(&stop, 256);
  clear_window();
  for (std::uint32_t g : groups) {
    position_[g] = static_cast<std::uint32_t>(window_.size());
    window_.push_back(g);
  }
  const std::uint64_t saved = budget_.limit;
  budget_.limit = node_limit;
  const bool found = search_window(state);
  budget_.limit = saved;
  return {budget_.complete, found || (state.feasible() && state.cost() < kForbidden)};
}

Cost WindowSearch::entry(const LocalState& state, std::uint32_t e) const {
  const std::uint32_t u = r_.edge_u(e), v = r_.edge_v(e);
  return r_.table(e)[static_cast<std::size_t>(state.at(u)) * r_.strategies(v) + state.at(v)];
}

}  // namespace iopddl::inline v0
