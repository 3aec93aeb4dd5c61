#include "arc_search.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>

namespace iopddl {

namespace {
// Above any cost the searches meet (doubles: their largest; integers: scaled costs stay
// below 2^107, see lagrange/bound.cpp).
template <class Value>
constexpr Value huge() {
  if constexpr (std::is_floating_point_v<Value>)
    return std::numeric_limits<Value>::max();
  else
    return Value{1} << 120;
}
}  // namespace

template <class Value>
ArcSearch<Value>::ArcSearch(ArcGraph<Value> graph) : g_(std::move(graph)), position_(n()) {
  ubegin_.assign(n() + 1, 0);
  for (std::uint32_t i = 0; i < n(); ++i) ubegin_[i + 1] = ubegin_[i] + g_.k[i];
  const std::size_t m = g_.eu.size();
  pubegin_.assign(m + 1, 0);
  pvbegin_.assign(m + 1, 0);
  for (std::uint32_t e = 0; e < m; ++e) {
    pubegin_[e + 1] = pubegin_[e] + g_.k[g_.eu[e]];
    pvbegin_[e + 1] = pvbegin_[e] + g_.k[g_.ev[e]];
  }
  // The directional order: maximum cardinality search from the node of highest degree, so
  // that costs pile up on nodes whose neighbours come right after them (the search places
  // well-connected nodes early too).
  std::vector<std::uint32_t> seen(n(), 0);
  std::vector<char> done(n(), 0);
  for (std::uint32_t p = 0; p < n(); ++p) {
    std::uint32_t pick = 0;
    bool any = false;
    for (std::uint32_t i = 0; i < n(); ++i) {
      if (done[i]) continue;
      if (!any || seen[i] > seen[pick] ||
          (seen[i] == seen[pick] && g_.incident[i].size() > g_.incident[pick].size())) {
        pick = i;
        any = true;
      }
    }
    done[pick] = 1;
    position_[pick] = p;
    for (std::uint32_t e : g_.incident[pick]) ++seen[other(e, pick)];
  }
  open_degree_.assign(n(), 0);
  in_ac_.assign(n(), 0);
  in_dac_.assign(n(), 0);
  dirty_.assign(n(), 0);
}

template <class Value>
void ArcSearch<Value>::touch(std::uint32_t i) {
  if (dirty_[i]) return;
  dirty_[i] = 1;
  dirty_list_.push_back(i);
}

// The directional pass takes the latest node first: its costs move into earlier nodes,
// which are then queued in turn.
template <class Value>
void ArcSearch<Value>::queue_directional(std::uint32_t i) {
  if (in_dac_[i]) return;
  in_dac_[i] = 1;
  dac_heap_.push_back(i);
  std::push_heap(dac_heap_.begin(), dac_heap_.end(), later_first());
}

template <class Value>
void ArcSearch<Value>::undo(const Mark& m) {
  while (trail_.size() > m.trail) {
    *trail_.back().first = trail_.back().second;
    trail_.pop_back();
  }
  while (removed_.size() > m.removed) {
    alive_[removed_.back().second] = 1;
    ++domain_[removed_.back().first];
    removed_.pop_back();
  }
  while (placed_trail_.size() > m.placed) {
    const std::uint32_t i = placed_trail_.back();
    placed_[i] = -1;
    for (std::uint32_t e : g_.incident[i]) ++open_degree_[other(e, i)];
    placed_trail_.pop_back();
  }
  // A flag is set exactly while its node is in the queue: clearing the queues' nodes
  // clears them all (undo runs twice per search node).
  for (std::uint32_t i : ac_queue_) in_ac_[i] = 0;
  for (std::uint32_t i : dac_heap_) in_dac_[i] = 0;
  for (std::uint32_t i : dirty_list_) dirty_[i] = 0;
  ac_queue_.clear();
  dac_heap_.clear();
  dirty_list_.clear();
}

// Strategy a of node i removed; its neighbours' strategies may have lost their support.
template <class Value>
bool ArcSearch<Value>::remove(std::uint32_t i, Strategy a) {
  const std::size_t at = ubegin_[i] + a;
  if (!alive_[at]) return true;
  alive_[at] = 0;
  removed_.push_back({i, at});
  if (--domain_[i] == 0) return false;
  if (!in_ac_[i]) {
    in_ac_[i] = 1;
    ac_queue_.push_back(i);
  }
  touch(i);
  return true;
}

// Node i placed at a: its cost goes to c0, each edge to an open neighbour moves its row at
// a into the neighbour's costs (the edge is then spent).
template <class Value>
bool ArcSearch<Value>::place(std::uint32_t i, Strategy a) {
  for (Strategy b = 0; b < g_.k[i]; ++b) {
    const std::size_t at = ubegin_[i] + b;
    if (b == a || !alive_[at]) continue;
    alive_[at] = 0;
    removed_.push_back({i, at});
    --domain_[i];
  }
  placed_[i] = static_cast<std::int32_t>(a);
  placed_trail_.push_back(i);
  for (std::uint32_t e : g_.incident[i]) --open_degree_[other(e, i)];
  set(c0_, c0_ + u_[ubegin_[i] + a]);
  if (c0_ >= bar_) return false;
  for (std::uint32_t e : g_.incident[i]) {
    const bool i_is_u = g_.eu[e] == i;
    const std::uint32_t j = other(e, i);
    if (placed_[j] >= 0) continue;
    Value* uj = u_.data() + ubegin_[j];
    for (Strategy b = 0; b < g_.k[j]; ++b) {
      if (!alive_[ubegin_[j] + b]) continue;
      set(uj[b], uj[b] + seen_from(e, i_is_u, a, b));
    }
    work_ += g_.k[j];
    touch(j);
    queue_directional(j);
  }
  return true;
}

// Arc consistency of node i on edge e (both ends open): each strategy's least entry over
// the other end's live strategies moves into its cost.
template <class Value>
void ArcSearch<Value>::revise(std::uint32_t i, std::uint32_t e) {
  const bool i_is_u = g_.eu[e] == i;
  const std::uint32_t j = other(e, i);
  Value* delta = i_is_u ? pu_.data() + pubegin_[e] : pv_.data() + pvbegin_[e];
  Value* ui = u_.data() + ubegin_[i];
  bool changed = false;
  for (Strategy a = 0; a < g_.k[i]; ++a) {
    if (!alive_[ubegin_[i] + a]) continue;
    Value least = huge<Value>();
    for (Strategy b = 0; b < g_.k[j]; ++b)
      if (alive_[ubegin_[j] + b]) least = std::min(least, seen_from(e, i_is_u, a, b));
    // Negative entries (a start's tables may have them) move too: c0 is a bound only while
    // every live entry is >= 0.
    if (least <= tolerance_ && least >= -tolerance_) continue;
    set(delta[a], delta[a] + least);
    set(ui[a], ui[a] + least);
    changed = true;
  }
  work_ += static_cast<std::uint64_t>(g_.k[i]) * g_.k[j];
  if (!changed) return;
  touch(i);
  queue_directional(i);
}

// Directional arc consistency of node i (earlier) on edge e to j (later), both open: each
// strategy a of i gets a full support, alpha_a = min_b entry(a, b) + u_j(b) moved into
// i's cost; j's costs first extend into the edge by P_b = max_a (alpha_a - entry(a, b)),
// at most u_j(b), so that every live entry stays >= 0.
template <class Value>
void ArcSearch<Value>::directional(std::uint32_t i, std::uint32_t e) {
  const bool i_is_u = g_.eu[e] == i;
  const std::uint32_t j = other(e, i);
  Value* di = i_is_u ? pu_.data() + pubegin_[e] : pv_.data() + pvbegin_[e];
  Value* dj = i_is_u ? pv_.data() + pvbegin_[e] : pu_.data() + pubegin_[e];
  Value* ui = u_.data() + ubegin_[i];
  Value* uj = u_.data() + ubegin_[j];
  alpha_.assign(g_.k[i], 0);
  bool any = false;
  for (Strategy a = 0; a < g_.k[i]; ++a) {
    if (!alive_[ubegin_[i] + a]) continue;
    Value least = huge<Value>();
    for (Strategy b = 0; b < g_.k[j]; ++b)
      if (alive_[ubegin_[j] + b]) least = std::min(least, seen_from(e, i_is_u, a, b) + uj[b]);
    alpha_[a] = least;
    any = any || least > tolerance_;
  }
  work_ += 2 * static_cast<std::uint64_t>(g_.k[i]) * g_.k[j];
  if (!any) return;
  for (Strategy b = 0; b < g_.k[j]; ++b) {
    if (!alive_[ubegin_[j] + b]) continue;
    Value extend = 0;
    for (Strategy a = 0; a < g_.k[i]; ++a)
      if (alive_[ubegin_[i] + a] && alpha_[a] > tolerance_)
        extend = std::max(extend, alpha_[a] - seen_from(e, i_is_u, a, b));
    extend = std::min(extend, uj[b]);
    if (extend <= 0) continue;
    set(dj[b], dj[b] - extend);
    set(uj[b], uj[b] - extend);
  }
  for (Strategy a = 0; a < g_.k[i]; ++a) {
    if (!alive_[ubegin_[i] + a] || alpha_[a] <= tolerance_) continue;
    set(di[a], di[a] + alpha_[a]);
    set(ui[a], ui[a] + alpha_[a]);
  }
  touch(i);
  queue_directional(i);
}

// Node consistency of open node i: its least cost to c0, strategies that cannot be part of
// a labelling below the bar removed.
template <class Value>
bool ArcSearch<Value>::node_consistency(std::uint32_t i) {
  Value* ui = u_.data() + ubegin_[i];
  Value least = huge<Value>();
  for (Strategy a = 0; a < g_.k[i]; ++a)
    if (alive_[ubegin_[i] + a]) least = std::min(least, ui[a]);
  if (least > 0) {
    for (Strategy a = 0; a < g_.k[i]; ++a)
      if (alive_[ubegin_[i] + a]) set(ui[a], ui[a] - least);
    set(c0_, c0_ + least);
  }
  if (c0_ >= bar_) return false;
  for (Strategy a = 0; a < g_.k[i]; ++a)
    if (alive_[ubegin_[i] + a] && c0_ + ui[a] >= bar_ && !remove(i, a)) return false;
  return true;
}

template <class Value>
bool ArcSearch<Value>::propagate() {
  bool swept = false;
  Value swept_at = 0;
  for (;;) {
    while (!ac_queue_.empty() || !dirty_list_.empty()) {
      while (!ac_queue_.empty()) {
        const std::uint32_t j = ac_queue_.back();
        ac_queue_.pop_back();
        in_ac_[j] = 0;
        for (std::uint32_t e : g_.incident[j]) {
          const std::uint32_t i = other(e, j);
          if (placed_[i] < 0) revise(i, e);
        }
      }
      while (!dirty_list_.empty()) {
        const std::uint32_t i = dirty_list_.back();
        dirty_list_.pop_back();
        dirty_[i] = 0;
        if (placed_[i] < 0 && !node_consistency(i)) return false;
      }
    }
    if (!dac_heap_.empty()) {
      std::pop_heap(dac_heap_.begin(), dac_heap_.end(), later_first());
      const std::uint32_t j = dac_heap_.back();
      dac_heap_.pop_back();
      in_dac_[j] = 0;
      if (placed_[j] >= 0) continue;
      for (std::uint32_t e : g_.incident[j]) {
        const std::uint32_t i = other(e, j);
        if (placed_[i] < 0 && position_[i] < position_[j]) directional(i, e);
      }
      continue;
    }
    // c0 rose: strategies of every open node may have fallen out of reach.
    if (swept && c0_ <= swept_at) return true;
    swept = true;
    swept_at = c0_;
    for (std::uint32_t i = 0; i < n(); ++i) {
      if (placed_[i] >= 0) continue;
      for (Strategy a = 0; a < g_.k[i]; ++a)
        if (alive_[ubegin_[i] + a] && c0_ + u_[ubegin_[i] + a] >= bar_ && !remove(i, a))
          return false;
    }
    work_ += u_.size();
    if (ac_queue_.empty() && dirty_list_.empty()) return true;
  }
}

// The open node with the fewest live strategies per open neighbour (ties: the earlier in
// the directional order); n() when every node is placed.
template <class Value>
std::uint32_t ArcSearch<Value>::choose() const {
  std::uint32_t pick = static_cast<std::uint32_t>(n());
  double score = std::numeric_limits<double>::max();
  for (std::uint32_t i = 0; i < n(); ++i) {
    if (placed_[i] >= 0) continue;
    const double s = static_cast<double>(domain_[i]) / (1 + open_degree_[i]);
    if (s < score || (s == score && position_[i] < position_[pick])) {
      score = s;
      pick = i;
    }
  }
  return pick;
}

// Open node i's live strategy of least cost; ties (within the tolerance) to the best
// labelling's.
template <class Value>
Strategy ArcSearch<Value>::least_cost(std::uint32_t i) const {
  const Value* ui = u_.data() + ubegin_[i];
  const Strategy best = (*best_x_)[i];
  Strategy a = g_.k[i];
  for (Strategy s = 0; s < g_.k[i]; ++s) {
    if (!alive_[ubegin_[i] + s]) continue;
    if (a == g_.k[i] || ui[s] < ui[a] - tolerance_ || (s == best && ui[s] <= ui[a] + tolerance_))
      a = s;
  }
  return a;
}

// The branch that removes the strategy goes on in the same frame, so the recursion is as
// deep as the nodes placed, not as the strategies removed (a core's strategies number tens
// of thousands).
template <class Value>
void ArcSearch<Value>::dfs(int discrepancies) {
  const Mark entry = mark();
  for (;;) {
    work_ += n();
    if (++nodes_ > node_limit_ || poll_.tick(work_)) {
      out_of_budget_ = true;
      break;
    }
    work_ = 0;
    const std::uint32_t i = choose();
    if (i == n()) {
      for (std::uint32_t g = 0; g < n(); ++g) leaf_x_[g] = static_cast<Strategy>(placed_[g]);
      if (const std::optional<Value> bar = hooks_->leaf(leaf_x_, c0_)) {
        bar_ = *bar;
        found_ = true;
        *best_x_ = leaf_x_;
      }
      break;
    }
    const Strategy a = least_cost(i);
    if (!hooks_->fits(i, a)) {  // in no completion: not a discrepancy
      if (!remove(i, a) || !propagate()) break;
      continue;
    }
    const Mark m = mark();
    if (place(i, a) && propagate()) dfs(discrepancies);
    undo(m);
    hooks_->release(i, a);
    if (out_of_budget_ || !remove(i, a) || !propagate()) break;
    if (discrepancies == 0) {
      complete_ = false;  // left for a pass with a larger allowance
      break;
    }
    --discrepancies;
  }
  undo(entry);
}

template <class Value>
typename ArcSearch<Value>::Outcome ArcSearch<Value>::run(const std::vector<Value>& unary,
                                                         std::vector<Strategy>& best, Value bar,
                                                         Value tolerance, Hooks& hooks,
                                                         std::uint64_t node_limit,
                                                         const StopControl& stop) {
  Outcome out;
  u_ = unary;
  pu_.assign(pubegin_.back(), 0);
  pv_.assign(pvbegin_.back(), 0);
  alive_.assign(u_.size(), 1);
  domain_ = g_.k;
  placed_.assign(n(), -1);
  for (std::uint32_t i = 0; i < n(); ++i)
    open_degree_[i] = static_cast<std::uint32_t>(g_.incident[i].size());
  trail_.clear();
  removed_.clear();
  placed_trail_.clear();
  c0_ = 0;
  bar_ = bar;
  tolerance_ = tolerance;
  hooks_ = &hooks;
  best_x_ = &best;
  leaf_x_.resize(n());
  nodes_ = 0;
  node_limit_ = node_limit;
  work_ = 0;
  found_ = false;
  out_of_budget_ = false;
  poll_ = StopPoll(&stop, 64);
  undo(mark());  // clears the queues
  for (std::uint32_t e = 0; e < g_.eu.size(); ++e) {
    revise(g_.eu[e], e);
    revise(g_.ev[e], e);
  }
  // Every node's least cost into c0, negative ones too (a reparametrisation's may be),
  // before anything is pruned: c0 bounds the labellings only once every node cost and
  // live entry is >= 0.
  for (std::uint32_t i = 0; i < n(); ++i) {
    Value* ui = u_.data() + ubegin_[i];
    const Value least = *std::min_element(ui, ui + g_.k[i]);
    for (Strategy a = 0; a < g_.k[i]; ++a) ui[a] -= least;
    c0_ += least;
    touch(i);
  }
  bool complete = !propagate();  // nothing below the bar
  out.root = complete ? bar : c0_;
  const Mark root = mark();
  // Limited discrepancy passes, the allowance 0, 1, 2, 4, ... until one skips nothing.
  for (int allowance = 0; !complete && !out_of_budget_ && !poll_.now();
       allowance = allowance == 0 ? 1 : 2 * allowance) {
    complete_ = true;
    const bool alive = propagate();  // the bar may have fallen since the last pass
    if (alive) dfs(allowance);
    undo(root);
    complete = !alive || (complete_ && !out_of_budget_);
    if (allowance > 1 << 20) break;
  }
  out.complete = complete && !out_of_budget_;
  out.found = found_;
  out.nodes = nodes_;
  return out;
}

template class ArcSearch<double>;
template class ArcSearch<Total>;

}  // namespace iopddl
