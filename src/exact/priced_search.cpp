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

PricedSearch::PricedSearch(const CostNetwork& net) {
  g_.k.resize(net.num_nodes());
  g_.incident.resize(net.num_nodes());
  g_.position.resize(net.num_nodes());
  g_.ubegin.assign(n() + 1, 0);
  for (std::uint32_t g = 0; g < n(); ++g) {
    g_.k[g] = net.strategies(g);
    g_.ubegin[g + 1] = g_.ubegin[g] + g_.k[g];
    g_.incident[g].assign(net.incident(g).begin(), net.incident(g).end());
  }
  g_.pubegin.assign(net.num_edges() + 1, 0);
  g_.pvbegin.assign(net.num_edges() + 1, 0);
  for (std::uint32_t e = 0; e < net.num_edges(); ++e) {
    g_.eu.push_back(net.edge_u(e));
    g_.ev.push_back(net.edge_v(e));
    g_.table.push_back(net.table(e));
    g_.pubegin[e + 1] = g_.pubegin[e] + g_.k[g_.eu[e]];
    g_.pvbegin[e + 1] = g_.pvbegin[e] + g_.k[g_.ev[e]];
  }
  // The directional order: maximum cardinality search, ties to the higher degree, so that
  // costs pile up on nodes whose neighbours come right after them (the search places
  // well-connected nodes early too).
  std::vector<std::uint32_t> by_degree(n()), slot(n());
  std::iota(by_degree.begin(), by_degree.end(), 0u);
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](std::uint32_t a, std::uint32_t b) {
    return g_.incident[a].size() > g_.incident[b].size();
  });
  for (std::uint32_t i = 0; i < n(); ++i) slot[by_degree[i]] = i;
  const std::vector<std::uint32_t> order = max_cardinality_order(net, by_degree, slot);
  for (std::uint32_t p = 0; p < n(); ++p) g_.position[order[p]] = p;
  d_.open_degree.assign(n(), 0);
  q_.in_ac.assign(n(), 0);
  q_.in_dac.assign(n(), 0);
  q_.dirty.assign(n(), 0);
}

void PricedSearch::touch(std::uint32_t i) {
  if (q_.dirty[i]) return;
  q_.dirty[i] = 1;
  q_.dirty_list.push_back(i);
}

// The directional pass takes the latest node first: its costs move into earlier nodes,
// which are then queued in turn.
void PricedSearch::queue_directional(std::uint32_t i) {
  if (q_.in_dac[i]) return;
  q_.in_dac[i] = 1;
  q_.dac_heap.push_back(i);
  std::push_heap(q_.dac_heap.begin(), q_.dac_heap.end(), later_first());
}

void PricedSearch::undo(const Mark& m) {
  while (trail_.cells.size() > m.trail) {
    *trail_.cells.back().first = trail_.cells.back().second;
    trail_.cells.pop_back();
  }
  while (trail_.removed.size() > m.removed) {
    d_.alive[trail_.removed.back().second] = 1;
    ++d_.domain[trail_.removed.back().first];
    trail_.removed.pop_back();
  }
  while (trail_.placed.size() > m.placed) {
    const std::uint32_t i = trail_.placed.back();
    d_.placed[i] = -1;
    for (std::uint32_t e : g_.incident[i]) ++d_.open_degree[g_.eu[e] == i ? g_.ev[e] : g_.eu[e]];
    trail_.placed.pop_back();
  }
  // A flag is set exactly while its node is in the queue: clearing the queues' nodes
  // clears them all (undo runs twice per search node).
  for (std::uint32_t i : q_.ac) q_.in_ac[i] = 0;
  for (std::uint32_t i : q_.dac_heap) q_.in_dac[i] = 0;
  for (std::uint32_t i : q_.dirty_list) q_.dirty[i] = 0;
  q_.ac.clear();
  q_.dac_heap.clear();
  q_.dirty_list.clear();
}

// Strategy a of node i removed; its neighbours' strategies may have lost their support.
bool PricedSearch::remove(std::uint32_t i, Strategy a) {
  const std::size_t at = g_.ubegin[i] + a;
  if (!d_.alive[at]) return true;
  d_.alive[at] = 0;
  trail_.removed.push_back({i, at});
  if (--d_.domain[i] == 0) return false;
  if (!q_.in_ac[i]) {
    q_.in_ac[i] = 1;
    q_.ac.push_back(i);
  }
  touch(i);
  return true;
}

// Node i placed at a: its cost goes to c0, each edge to an open neighbour moves its row at
// a into the neighbour's costs (the edge is then spent).
bool PricedSearch::place(std::uint32_t i, Strategy a) {
  for (Strategy b = 0; b < g_.k[i]; ++b) {
    const std::size_t at = g_.ubegin[i] + b;
    if (b == a || !d_.alive[at]) continue;
    d_.alive[at] = 0;
    trail_.removed.push_back({i, at});
    --d_.domain[i];
  }
  d_.placed[i] = static_cast<std::int32_t>(a);
  trail_.placed.push_back(i);
  for (std::uint32_t e : g_.incident[i]) --d_.open_degree[g_.eu[e] == i ? g_.ev[e] : g_.eu[e]];
  set(c_.c0, c_.c0 + c_.u[g_.ubegin[i] + a]);
  if (c_.c0 >= best_ - tolerance_) return false;
  for (std::uint32_t e : g_.incident[i]) {
    const bool i_is_u = g_.eu[e] == i;
    const std::uint32_t j = i_is_u ? g_.ev[e] : g_.eu[e];
    if (d_.placed[j] >= 0) continue;
    double* uj = c_.u.data() + g_.ubegin[j];
    for (Strategy b = 0; b < g_.k[j]; ++b) {
      if (!d_.alive[g_.ubegin[j] + b]) continue;
      set(uj[b], uj[b] + seen_from(e, i_is_u, a, b));
    }
    run_.work += g_.k[j];
    touch(j);
    queue_directional(j);
  }
  return true;
}

// Arc consistency of node i on edge e (both ends open): each strategy's least entry over
// the other end's live strategies moves into its cost.
void PricedSearch::revise(std::uint32_t i, std::uint32_t e) {
  const bool i_is_u = g_.eu[e] == i;
  const std::uint32_t j = i_is_u ? g_.ev[e] : g_.eu[e];
  double* delta = i_is_u ? c_.pu.data() + g_.pubegin[e] : c_.pv.data() + g_.pvbegin[e];
  double* ui = c_.u.data() + g_.ubegin[i];
  bool changed = false;
  for (Strategy a = 0; a < g_.k[i]; ++a) {
    if (!d_.alive[g_.ubegin[i] + a]) continue;
    double least = kHuge;
    for (Strategy b = 0; b < g_.k[j]; ++b)
      if (d_.alive[g_.ubegin[j] + b]) least = std::min(least, seen_from(e, i_is_u, a, b));
    if (least <= tolerance_) continue;
    set(delta[a], delta[a] + least);
    set(ui[a], ui[a] + least);
    changed = true;
  }
  run_.work += static_cast<std::uint64_t>(g_.k[i]) * g_.k[j];
  if (!changed) return;
  touch(i);
  queue_directional(i);
}

// Directional arc consistency of node i (earlier) on edge e to j (later), both open: each
// strategy a of i gets a full support, alpha_a = min_b entry(a, b) + u_j(b) moved into
// i's cost; j's costs first extend into the edge by P_b = max_a (alpha_a - entry(a, b)),
// at most u_j(b), so that every live entry stays >= 0.
void PricedSearch::directional(std::uint32_t i, std::uint32_t e) {
  const bool i_is_u = g_.eu[e] == i;
  const std::uint32_t j = i_is_u ? g_.ev[e] : g_.eu[e];
  double* di = i_is_u ? c_.pu.data() + g_.pubegin[e] : c_.pv.data() + g_.pvbegin[e];
  double* dj = i_is_u ? c_.pv.data() + g_.pvbegin[e] : c_.pu.data() + g_.pubegin[e];
  double* ui = c_.u.data() + g_.ubegin[i];
  double* uj = c_.u.data() + g_.ubegin[j];
  alpha_.assign(g_.k[i], 0);
  bool any = false;
  for (Strategy a = 0; a < g_.k[i]; ++a) {
    if (!d_.alive[g_.ubegin[i] + a]) continue;
    double least = kHuge;
    for (Strategy b = 0; b < g_.k[j]; ++b)
      if (d_.alive[g_.ubegin[j] + b]) least = std::min(least, seen_from(e, i_is_u, a, b) + uj[b]);
    alpha_[a] = least;
    any = any || least > tolerance_;
  }
  run_.work += 2 * static_cast<std::uint64_t>(g_.k[i]) * g_.k[j];
  if (!any) return;
  for (Strategy b = 0; b < g_.k[j]; ++b) {
    if (!d_.alive[g_.ubegin[j] + b]) continue;
    double extend = 0;
    for (Strategy a = 0; a < g_.k[i]; ++a)
      if (d_.alive[g_.ubegin[i] + a] && alpha_[a] > tolerance_)
        extend = std::max(extend, alpha_[a] - seen_from(e, i_is_u, a, b));
    extend = std::min(extend, uj[b]);
    if (extend <= 0) continue;
    set(dj[b], dj[b] - extend);
    set(uj[b], uj[b] - extend);
  }
  for (Strategy a = 0; a < g_.k[i]; ++a) {
    if (!d_.alive[g_.ubegin[i] + a] || alpha_[a] <= tolerance_) continue;
    set(di[a], di[a] + alpha_[a]);
    set(ui[a], ui[a] + alpha_[a]);
  }
  touch(i);
  queue_directional(i);
}

// Node consistency of open node i: its least cost to c0, strategies that cannot be part of
// a labelling below the best removed.
bool PricedSearch::node_consistency(std::uint32_t i) {
  double* ui = c_.u.data() + g_.ubegin[i];
  double least = kHuge;
  for (Strategy a = 0; a < g_.k[i]; ++a)
    if (d_.alive[g_.ubegin[i] + a]) least = std::min(least, ui[a]);
  if (least > 0) {
    for (Strategy a = 0; a < g_.k[i]; ++a)
      if (d_.alive[g_.ubegin[i] + a]) set(ui[a], ui[a] - least);
    set(c_.c0, c_.c0 + least);
  }
  if (c_.c0 >= best_ - tolerance_) return false;
  for (Strategy a = 0; a < g_.k[i]; ++a)
    if (d_.alive[g_.ubegin[i] + a] && c_.c0 + ui[a] >= best_ - tolerance_ && !remove(i, a))
      return false;
  return true;
}

bool PricedSearch::propagate() {
  double swept_at = -kHuge;
  for (;;) {
    while (!q_.ac.empty() || !q_.dirty_list.empty()) {
      while (!q_.ac.empty()) {
        const std::uint32_t j = q_.ac.back();
        q_.ac.pop_back();
        q_.in_ac[j] = 0;
        for (std::uint32_t e : g_.incident[j]) {
          const std::uint32_t i = g_.eu[e] == j ? g_.ev[e] : g_.eu[e];
          if (d_.placed[i] < 0) revise(i, e);
        }
      }
      while (!q_.dirty_list.empty()) {
        const std::uint32_t i = q_.dirty_list.back();
        q_.dirty_list.pop_back();
        q_.dirty[i] = 0;
        if (d_.placed[i] < 0 && !node_consistency(i)) return false;
      }
    }
    if (!q_.dac_heap.empty()) {
      std::pop_heap(q_.dac_heap.begin(), q_.dac_heap.end(), later_first());
      const std::uint32_t j = q_.dac_heap.back();
      q_.dac_heap.pop_back();
      q_.in_dac[j] = 0;
      if (d_.placed[j] >= 0) continue;
      for (std::uint32_t e : g_.incident[j]) {
        const std::uint32_t i = g_.eu[e] == j ? g_.ev[e] : g_.eu[e];
        if (d_.placed[i] < 0 && g_.position[i] < g_.position[j]) directional(i, e);
      }
      continue;
    }
    // c0 rose: strategies of every open node may have fallen out of reach.
    if (c_.c0 <= swept_at) return true;
    swept_at = c_.c0;
    for (std::uint32_t i = 0; i < n(); ++i) {
      if (d_.placed[i] >= 0) continue;
      for (Strategy a = 0; a < g_.k[i]; ++a)
        if (d_.alive[g_.ubegin[i] + a] && c_.c0 + c_.u[g_.ubegin[i] + a] >= best_ - tolerance_ &&
            !remove(i, a))
          return false;
    }
    run_.work += c_.u.size();
    if (q_.ac.empty() && q_.dirty_list.empty()) return true;
  }
}

// The open node with the fewest live strategies per open neighbour (ties: the earlier in
// the directional order); n() when every node is placed.
std::uint32_t PricedSearch::choose() const {
  std::uint32_t pick = static_cast<std::uint32_t>(n());
  double score = kHuge;
  for (std::uint32_t i = 0; i < n(); ++i) {
    if (d_.placed[i] >= 0) continue;
    const double s = static_cast<double>(d_.domain[i]) / (1 + d_.open_degree[i]);
    if (s < score || (s == score && g_.position[i] < g_.position[pick])) {
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
    run_.work += n();
    if (++run_.nodes > run_.node_limit || poll_.tick(run_.work)) {
      run_.out_of_budget = true;
      break;
    }
    run_.work = 0;
    const std::uint32_t i = choose();
    if (i == n()) {
      if (c_.c0 < best_ - tolerance_) {
        best_ = c_.c0;
        run_.found = true;
        for (std::uint32_t g = 0; g < n(); ++g) best_x_[g] = static_cast<Strategy>(d_.placed[g]);
      }
      break;
    }
    // The least cost strategy; ties (within the tolerance) to the best labelling's.
    const double* ui = c_.u.data() + g_.ubegin[i];
    Strategy a = g_.k[i];
    for (Strategy s = 0; s < g_.k[i]; ++s) {
      if (!d_.alive[g_.ubegin[i] + s]) continue;
      if (a == g_.k[i] || ui[s] < ui[a] - tolerance_ ||
          (s == best_x_[i] && ui[s] <= ui[a] + tolerance_))
        a = s;
    }
    const Mark m = mark();
    if (place(i, a) && propagate()) dfs(discrepancies);
    undo(m);
    if (run_.out_of_budget || !remove(i, a) || !propagate()) break;
    if (discrepancies == 0) {
      run_.complete = false;  // left for a pass with a larger allowance
      break;
    }
    --discrepancies;
  }
  undo(entry);
}

PricedSearch::Outcome PricedSearch::run(const CostNetwork& net, std::vector<Strategy>& x,
                                        std::uint64_t node_limit, const StopControl& stop) {
  Outcome out;
  c_.u.resize(g_.ubegin[n()]);
  for (std::uint32_t g = 0; g < n(); ++g)
    std::copy(net.unary(g), net.unary(g) + g_.k[g], c_.u.begin() + g_.ubegin[g]);
  c_.pu.assign(g_.pubegin.back(), 0);
  c_.pv.assign(g_.pvbegin.back(), 0);
  d_.alive.assign(c_.u.size(), 1);
  d_.domain = g_.k;
  d_.placed.assign(n(), -1);
  for (std::uint32_t i = 0; i < n(); ++i)
    d_.open_degree[i] = static_cast<std::uint32_t>(g_.incident[i].size());
  trail_.cells.clear();
  trail_.removed.clear();
  trail_.placed.clear();
  c_.c0 = 0;
  const double start = net.energy(x);
  best_ = start;
  // Relative to the costs at stake (a start with forbidden picks would make it huge).
  tolerance_ = 1e-9 * std::max(1.0, std::min(std::abs(best_), 1e15));
  best_x_ = x;
  run_.nodes = 0;
  run_.node_limit = node_limit;
  run_.work = 0;
  run_.found = false;
  run_.out_of_budget = false;
  poll_ = StopPoll(&stop, 64);
  undo(mark());  // clears the queues
  for (std::uint32_t e = 0; e < g_.eu.size(); ++e) {
    revise(g_.eu[e], e);
    revise(g_.ev[e], e);
  }
  for (std::uint32_t i = 0; i < n(); ++i) touch(i);
  bool complete = !propagate();  // nothing below the start's energy
  const Mark root = mark();
  // Limited discrepancy passes, the allowance 0, 1, 2, 4, ... until one skips nothing.
  for (int allowance = 0; !complete && !run_.out_of_budget && !poll_.now();
       allowance = allowance == 0 ? 1 : 2 * allowance) {
    run_.complete = true;
    const bool alive = propagate();  // the best energy may have fallen since the last pass
    if (alive) dfs(allowance);
    undo(root);
    complete = !alive || (run_.complete && !run_.out_of_budget);
    if (allowance > 1 << 20) break;
  }
  out.complete = complete && !run_.out_of_budget;
  out.nodes = run_.nodes;
  out.energy = start;
  if (const double energy = run_.found ? net.energy(best_x_) : start; energy < start) {
    x = best_x_;
    out.improved = true;
    out.gain = start - energy;
    out.energy = energy;
  }
  return out;
}

}  // namespace iopddl::inline v0
