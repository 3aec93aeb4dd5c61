#include "priced_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "../local/elimination.hpp"

namespace iopddl::inline v0 {

namespace {
constexpr double kHuge = std::numeric_limits<double>::max();
}

PricedSearch::PricedSearch(const CostNetwork& net)
    : k_(net.num_nodes()), incident_(net.num_nodes()), position_(net.num_nodes()) {
  ubegin_.assign(n() + 1, 0);
  for (std::uint32_t g = 0; g < n(); ++g) {
    k_[g] = net.strategies(g);
    ubegin_[g + 1] = ubegin_[g] + k_[g];
    incident_[g].assign(net.incident(g).begin(), net.incident(g).end());
  }
  pubegin_.assign(net.num_edges() + 1, 0);
  pvbegin_.assign(net.num_edges() + 1, 0);
  for (std::uint32_t e = 0; e < net.num_edges(); ++e) {
    eu_.push_back(net.edge_u(e));
    ev_.push_back(net.edge_v(e));
    table_.push_back(net.table(e));
    pubegin_[e + 1] = pubegin_[e] + k_[eu_[e]];
    pvbegin_[e + 1] = pvbegin_[e] + k_[ev_[e]];
  }
  // The directional order: maximum cardinality search, ties to the higher degree, so that
  // costs pile up on nodes whose neighbours come right after them (the search places
  // well-connected nodes early too).
  std::vector<std::uint32_t> by_degree(n()), slot(n());
  std::iota(by_degree.begin(), by_degree.end(), 0u);
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](std::uint32_t a, std::uint32_t b) {
    return incident_[a].size() > incident_[b].size();
  });
  for (std::uint32_t i = 0; i < n(); ++i) slot[by_degree[i]] = i;
  const std::vector<std::uint32_t> order = max_cardinality_order(net, by_degree, slot);
  for (std::uint32_t p = 0; p < n(); ++p) position_[order[p]] = p;
  open_degree_.assign(n(), 0);
  in_ac_.assign(n(), 0);
  in_dac_.assign(n(), 0);
  dirty_.assign(n(), 0);
}

void PricedSearch::touch(std::uint32_t i) {
  if (dirty_[i]) return;
  dirty_[i] = 1;
  dirty_list_.push_back(i);
}

// The directional pass takes the latest node first: its costs move into earlier nodes,
// which are then queued in turn.
void PricedSearch::queue_directional(std::uint32_t i) {
  if (in_dac_[i]) return;
  in_dac_[i] = 1;
  dac_heap_.push_back(i);
  std::push_heap(dac_heap_.begin(), dac_heap_.end(), later_first());
}

void PricedSearch::undo(const Mark& m) {
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
    for (std::uint32_t e : incident_[i]) ++open_degree_[eu_[e] == i ? ev_[e] : eu_[e]];
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
bool PricedSearch::remove(std::uint32_t i, Strategy a) {
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
bool PricedSearch::place(std::uint32_t i, Strategy a) {
  for (Strategy b = 0; b < k_[i]; ++b) {
    const std::size_t at = ubegin_[i] + b;
    if (b == a || !alive_[at]) continue;
    alive_[at] = 0;
    removed_.push_back({i, at});
    --domain_[i];
  }
  placed_[i] = static_cast<std::int32_t>(a);
  placed_trail_.push_back(i);
  for (std::uint32_t e : incident_[i]) --open_degree_[eu_[e] == i ? ev_[e] : eu_[e]];
  set(c0_, c0_ + u_[ubegin_[i] + a]);
  if (c0_ >= best_ - tolerance_) return false;
  for (std::uint32_t e : incident_[i]) {
    const bool i_is_u = eu_[e] == i;
    const std::uint32_t j = i_is_u ? ev_[e] : eu_[e];
    if (placed_[j] >= 0) continue;
    double* uj = u_.data() + ubegin_[j];
    for (Strategy b = 0; b < k_[j]; ++b) {
      if (!alive_[ubegin_[j] + b]) continue;
      set(uj[b], uj[b] + seen_from(e, i_is_u, a, b));
    }
    work_ += k_[j];
    touch(j);
    queue_directional(j);
  }
  return true;
}

// Arc consistency of node i on edge e (both ends open): each strategy's least entry over
// the other end's live strategies moves into its cost.
void PricedSearch::revise(std::uint32_t i, std::uint32_t e) {
  const bool i_is_u = eu_[e] == i;
  const std::uint32_t j = i_is_u ? ev_[e] : eu_[e];
  double* delta = i_is_u ? pu_.data() + pubegin_[e] : pv_.data() + pvbegin_[e];
  double* ui = u_.data() + ubegin_[i];
  bool changed = false;
  for (Strategy a = 0; a < k_[i]; ++a) {
    if (!alive_[ubegin_[i] + a]) continue;
    double least = kHuge;
    for (Strategy b = 0; b < k_[j]; ++b)
      if (alive_[ubegin_[j] + b]) least = std::min(least, seen_from(e, i_is_u, a, b));
    if (least <= tolerance_) continue;
    set(delta[a], delta[a] + least);
    set(ui[a], ui[a] + least);
    changed = true;
  }
  work_ += static_cast<std::uint64_t>(k_[i]) * k_[j];
  if (!changed) return;
  touch(i);
  queue_directional(i);
}

// Directional arc consistency of node i (earlier) on edge e to j (later), both open: each
// strategy a of i gets a full support, alpha_a = min_b entry(a, b) + u_j(b) moved into
// i's cost; j's costs first extend into the edge by P_b = max_a (alpha_a - entry(a, b)),
// at most u_j(b), so that every live entry stays >= 0.
void PricedSearch::directional(std::uint32_t i, std::uint32_t e) {
  const bool i_is_u = eu_[e] == i;
  const std::uint32_t j = i_is_u ? ev_[e] : eu_[e];
  double* di = i_is_u ? pu_.data() + pubegin_[e] : pv_.data() + pvbegin_[e];
  double* dj = i_is_u ? pv_.data() + pvbegin_[e] : pu_.data() + pubegin_[e];
  double* ui = u_.data() + ubegin_[i];
  double* uj = u_.data() + ubegin_[j];
  alpha_.assign(k_[i], 0);
  bool any = false;
  for (Strategy a = 0; a < k_[i]; ++a) {
    if (!alive_[ubegin_[i] + a]) continue;
    double least = kHuge;
    for (Strategy b = 0; b < k_[j]; ++b)
      if (alive_[ubegin_[j] + b]) least = std::min(least, seen_from(e, i_is_u, a, b) + uj[b]);
    alpha_[a] = least;
    any = any || least > tolerance_;
  }
  work_ += 2 * static_cast<std::uint64_t>(k_[i]) * k_[j];
  if (!any) return;
  for (Strategy b = 0; b < k_[j]; ++b) {
    if (!alive_[ubegin_[j] + b]) continue;
    double extend = 0;
    for (Strategy a = 0; a < k_[i]; ++a)
      if (alive_[ubegin_[i] + a] && alpha_[a] > tolerance_)
        extend = std::max(extend, alpha_[a] - seen_from(e, i_is_u, a, b));
    extend = std::min(extend, uj[b]);
    if (extend <= 0) continue;
    set(dj[b], dj[b] - extend);
    set(uj[b], uj[b] - extend);
  }
  for (Strategy a = 0; a < k_[i]; ++a) {
    if (!alive_[ubegin_[i] + a] || alpha_[a] <= tolerance_) continue;
    set(di[a], di[a] + alpha_[a]);
    set(ui[a], ui[a] + alpha_[a]);
  }
  touch(i);
  queue_directional(i);
}

// Node consistency of open node i: its least cost to c0, strategies that cannot be part of
// a labelling below the best removed.
bool PricedSearch::node_consistency(std::uint32_t i) {
  double* ui = u_.data() + ubegin_[i];
  double least = kHuge;
  for (Strategy a = 0; a < k_[i]; ++a)
    if (alive_[ubegin_[i] + a]) least = std::min(least, ui[a]);
  if (least > 0) {
    for (Strategy a = 0; a < k_[i]; ++a)
      if (alive_[ubegin_[i] + a]) set(ui[a], ui[a] - least);
    set(c0_, c0_ + least);
  }
  if (c0_ >= best_ - tolerance_) return false;
  for (Strategy a = 0; a < k_[i]; ++a)
    if (alive_[ubegin_[i] + a] && c0_ + ui[a] >= best_ - tolerance_ && !remove(i, a)) return false;
  return true;
}

bool PricedSearch::propagate() {
  double swept_at = -kHuge;
  for (;;) {
    while (!ac_queue_.empty() || !dirty_list_.empty()) {
      while (!ac_queue_.empty()) {
        const std::uint32_t j = ac_queue_.back();
        ac_queue_.pop_back();
        in_ac_[j] = 0;
        for (std::uint32_t e : incident_[j]) {
          const std::uint32_t i = eu_[e] == j ? ev_[e] : eu_[e];
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
      for (std::uint32_t e : incident_[j]) {
        const std::uint32_t i = eu_[e] == j ? ev_[e] : eu_[e];
        if (placed_[i] < 0 && position_[i] < position_[j]) directional(i, e);
      }
      continue;
    }
    // c0 rose: strategies of every open node may have fallen out of reach.
    if (c0_ <= swept_at) return true;
    swept_at = c0_;
    for (std::uint32_t i = 0; i < n(); ++i) {
      if (placed_[i] >= 0) continue;
      for (Strategy a = 0; a < k_[i]; ++a)
        if (alive_[ubegin_[i] + a] && c0_ + u_[ubegin_[i] + a] >= best_ - tolerance_ &&
            !remove(i, a))
          return false;
    }
    work_ += u_.size();
    if (ac_queue_.empty() && dirty_list_.empty()) return true;
  }
}

// The open node with the fewest live strategies per open neighbour (ties: the earlier in
// the directional order); n() when every node is placed.
std::uint32_t PricedSearch::choose() const {
  std::uint32_t pick = static_cast<std::uint32_t>(n());
  double score = kHuge;
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

// The branch that removes the strategy goes on in the same frame, so the recursion is as
// deep as the nodes placed, not as the strategies removed (a core's strategies number tens
// of thousands).
void PricedSearch::dfs(int discrepancies) {
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
      if (c0_ < best_ - tolerance_) {
        best_ = c0_;
        found_ = true;
        for (std::uint32_t g = 0; g < n(); ++g) best_x_[g] = static_cast<Strategy>(placed_[g]);
      }
      break;
    }
    // The least cost strategy; ties (within the tolerance) to the best labelling's.
    const double* ui = u_.data() + ubegin_[i];
    Strategy a = k_[i];
    for (Strategy s = 0; s < k_[i]; ++s) {
      if (!alive_[ubegin_[i] + s]) continue;
      if (a == k_[i] || ui[s] < ui[a] - tolerance_ ||
          (s == best_x_[i] && ui[s] <= ui[a] + tolerance_))
        a = s;
    }
    const Mark m = mark();
    if (place(i, a) && propagate()) dfs(discrepancies);
    undo(m);
    if (out_of_budget_ || !remove(i, a) || !propagate()) break;
    if (discrepancies == 0) {
      complete_ = false;  // left for a pass with a larger allowance
      break;
    }
    --discrepancies;
  }
  undo(entry);
}

PricedSearch::Outcome PricedSearch::run(const CostNetwork& net, std::vector<Strategy>& x,
                                        std::uint64_t node_limit, const StopControl& stop) {
  Outcome out;
  u_.resize(ubegin_[n()]);
  for (std::uint32_t g = 0; g < n(); ++g)
    std::copy(net.unary(g), net.unary(g) + k_[g], u_.begin() + ubegin_[g]);
  pu_.assign(pubegin_.back(), 0);
  pv_.assign(pvbegin_.back(), 0);
  alive_.assign(u_.size(), 1);
  domain_ = k_;
  placed_.assign(n(), -1);
  for (std::uint32_t i = 0; i < n(); ++i)
    open_degree_[i] = static_cast<std::uint32_t>(incident_[i].size());
  trail_.clear();
  removed_.clear();
  placed_trail_.clear();
  c0_ = 0;
  const double start = net.energy(x);
  best_ = start;
  // Relative to the costs at stake (a start with forbidden picks would make it huge).
  tolerance_ = 1e-9 * std::max(1.0, std::min(std::abs(best_), 1e15));
  best_x_ = x;
  nodes_ = 0;
  node_limit_ = node_limit;
  work_ = 0;
  found_ = false;
  out_of_budget_ = false;
  poll_ = StopPoll(&stop, 64);
  undo(mark());  // clears the queues
  for (std::uint32_t e = 0; e < eu_.size(); ++e) {
    revise(eu_[e], e);
    revise(ev_[e], e);
  }
  for (std::uint32_t i = 0; i < n(); ++i) touch(i);
  bool complete = !propagate();  // nothing below the start's energy
  const Mark root = mark();
  // Limited discrepancy passes, the allowance 0, 1, 2, 4, ... until one skips nothing.
  for (int allowance = 0; !complete && !out_of_budget_ && !poll_.now();
       allowance = allowance == 0 ? 1 : 2 * allowance) {
    complete_ = true;
    const bool alive = propagate();  // the best energy may have fallen since the last pass
    if (alive) dfs(allowance);
    undo(root);
    complete = !alive || (complete_ && !out_of_budget_);
    if (allowance > 1 << 20) break;
  }
  out.complete = complete && !out_of_budget_;
  out.nodes = nodes_;
  out.energy = start;
  if (const double energy = found_ ? net.energy(best_x_) : start; energy < start) {
    x = best_x_;
    out.improved = true;
    out.gain = start - energy;
    out.energy = energy;
  }
  return out;
}

}  // namespace iopddl::inline v0
