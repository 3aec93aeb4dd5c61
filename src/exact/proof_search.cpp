#include "proof_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace iopddl::inline v0 {

ProofSearch::ProofSearch(const Reduced& r, const Reparametrisation& rep, bool lookahead,
                         bool knapsack)
    : r_(r),
      rep_(rep),
      position_(r.num_nodes(), kNoIndex),
      lookahead_(lookahead),
      knapsack_(knapsack) {
  order();
  open_.build(r_, order_, position_);
  const std::size_t n = order_.size();
  open_floor_.assign(n + 1, 0);
  for (std::size_t i = n; i-- > 0;) {
    Total sum = 0;
    for (const auto& [e, j] : open_.later(i)) {
      const std::size_t entries =
          static_cast<std::size_t>(r_.strategies(r_.edge_u(e))) * r_.strategies(r_.edge_v(e));
      sum += *std::min_element(r_.table(e), r_.table(e) + entries);
    }
    open_floor_[i] = open_floor_[i + 1] + sum;
  }
}

// The groups whose choice matters most first: by decreasing spread of their reparametrised
// costs (over the strategies not forbidden outright; ties: the most neighbours). The
// multipliers and messages put each group's stake in the whole problem, memory included,
// into those costs, so the bound rises and the lookahead prunes from the first levels
// (core 25 seed 1: not finished in 30 s in maximum cardinality order, 225 nodes in this;
// bench/results/proof_order.csv).
void ProofSearch::order() {
  std::vector<Total> spread(r_.num_nodes(), 0);
  for (std::uint32_t g = 0; g < r_.num_nodes() && !rep_.node.empty(); ++g) {
    Total lo = std::numeric_limits<Total>::max(), hi = std::numeric_limits<Total>::min();
    for (Strategy s = 0; s < r_.strategies(g); ++s) {
      if (r_.costs(g)[s] >= kForbidden) continue;
      lo = std::min(lo, rep_.costs(g)[s]);
      hi = std::max(hi, rep_.costs(g)[s]);
    }
    if (hi > lo) spread[g] = hi - lo;
  }
  order_.resize(r_.num_nodes());
  std::iota(order_.begin(), order_.end(), 0u);
  std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (spread[a] != spread[b]) return spread[a] > spread[b];
    return r_.incident(a).size() > r_.incident(b).size();
  });
  for (std::size_t i = 0; i < order_.size(); ++i)
    position_[order_[i]] = static_cast<std::uint32_t>(i);
}

// Position i placed at s (sign +1) or taken back (-1): its edges to later positions add
// (or remove) their reparametrised and true costs there; the open minima follow.
void ProofSearch::add_to_later(std::size_t i, Strategy s, int sign) {
  for (const auto& [e, j] : open_.later(i)) {
    const std::uint32_t h = order_[j];
    const Strategy kh = r_.strategies(h);
    Total* cost = true_.data() + open_.offset(j);
    const auto row = r_.slice(e, h, s);
    // The reparametrised table is laid out as the reduced one: row-major in edge_u.
    const Total* rep = rep_.table(e);
    const bool h_is_u = r_.edge_u(e) == h;
    const std::size_t stride = h_is_u ? r_.strategies(r_.edge_v(e)) : 1;
    const Total* base = h_is_u ? rep + s : rep + static_cast<std::size_t>(s) * kh;
    open_.add(j, kh, sign, [&](Strategy t) {
      cost[t] += sign * Total{row[t]};
      return base[static_cast<std::size_t>(t) * stride];
    });
  }
}

void ProofSearch::put_out(std::size_t entry) {
  dead_[entry] = 1;
  killed_.push_back(static_cast<std::uint32_t>(entry));
}

bool ProofSearch::lookahead(std::size_t depth, Total partial_rep, Total partial_cost) {
  const std::size_t open = order_.size() - depth;
  fit_.clear();
  fit_begin_.assign(1, 0);
  for (int kind = 0; kind < 2; ++kind) {
    cheapest_[kind].resize(open);
    least_[kind].resize(open);
  }
  Total rep = partial_rep + rep_.constant;
  Total cost = partial_cost + open_floor_[depth];
  const Span last = span_[open_.offset(depth - 1) + chosen_[depth - 1]];
  for (std::size_t o = 0; o < open; ++o) {
    const std::size_t j = depth + o;
    const Strategy k = r_.strategies(order_[j]);
    const Total* priced = open_.at(j);
    const Total* own = true_.data() + open_.offset(j);
    lookahead_work_ += k;
    Total least[2] = {std::numeric_limits<Total>::max(), std::numeric_limits<Total>::max()};
    const char* dead = dead_.data() + open_.offset(j);
    const Span* span = span_.data() + open_.offset(j);
    for (Strategy t = 0; t < k; ++t) {
      if (dead[t]) continue;
      // The lookahead one level up saw it fit; only the last placement's cells changed.
      const bool moved = depth == 1 || (span[t].lo < last.hi && last.lo < span[t].hi);
      if (own[t] >= kForbidden || (moved && !memory_.fits(j, t))) {
        put_out(open_.offset(j) + t);  // deeper on this path usage and edges only grow
        continue;
      }
      fit_.push_back(t);
      const Total value[2] = {priced[t], own[t]};
      for (int kind = 0; kind < 2; ++kind)
        if (value[kind] < least[kind]) {
          least[kind] = value[kind];
          cheapest_[kind][o] = t;
        }
    }
    fit_begin_.push_back(fit_.size());
    if (fit_.size() == fit_begin_[o]) return false;  // nothing fits
    least_[0][o] = least[0];
    least_[1][o] = least[1];
    rep += least[0];
    cost += least[1];
  }
  if (rep > bar_ || cost >= best_cost_) return false;
  for (int kind = 0; kind < 2; ++kind) cell_extra_[kind].assign(open, 0);
  if (knapsack_ && memory_.limited()) {
    Total extra = 0;
    if (!memory_extra(depth, false, extra)) return false;
    cost += extra;
    if (cost >= best_cost_ || !memory_extra(depth, true, extra)) return false;
    rep += extra;
    if (rep > bar_) return false;
  }
  // Reduced-cost fixing: a strategy whose own excess over its group's least, added to the
  // bound without its group's knapsack, passes the bar cannot be part of a better answer
  // below; it is put out for this subtree.
  for (std::size_t o = 0; o < open; ++o) {
    const std::size_t j = depth + o;
    const Total rep_rest = rep - cell_extra_[0][o] - least_[0][o];
    const Total cost_rest = cost - cell_extra_[1][o] - least_[1][o];
    const Total* priced = open_.at(j);
    const Total* own = true_.data() + open_.offset(j);
    for (std::size_t f = fit_begin_[o]; f < fit_begin_[o + 1]; ++f) {
      const Strategy t = fit_[f];
      if (rep_rest + priced[t] > bar_ || cost_rest + own[t] >= best_cost_)
        put_out(open_.offset(j) + t);
    }
  }
  return true;
}

namespace {
// Group (o)'s usage above its floor in cell c at one strategy: its run there, if any.
Total add_in(std::span<const WindowMemory::Run> runs, std::uint32_t c) {
  for (const auto& run : runs)
    if (run.lo <= c && c < run.hi) return run.add;
  return 0;
}
}  // namespace

bool ProofSearch::memory_extra(std::size_t depth, bool priced, Total& extra) {
  extra = 0;
  const int kind = priced ? 0 : 1;
  const std::size_t open = order_.size() - depth;
  const auto value = [&](std::size_t o, Strategy t) {
    const std::size_t j = depth + o;
    return (priced ? open_.at(j)[t] : true_[open_.offset(j) + t]) - least_[kind][o];
  };
  // Each cell's demand beyond its floors with every open group at its cheapest.
  demand_.assign(memory_.cells(), 0);
  std::uint64_t work = memory_.cells();
  for (std::size_t o = 0; o < open; ++o)
    for (const auto& run : memory_.runs(depth + o, cheapest_[kind][o])) {
      work += run.hi - run.lo;
      for (std::uint32_t c = run.lo; c < run.hi; ++c) demand_[c] += run.add;
    }
  // Each open group to the cell of its cheapest strategy's runs that is most over.
  charged_.clear();
  for (std::size_t o = 0; o < open; ++o) {
    Total most = 0;
    std::uint32_t cell = 0;
    for (const auto& run : memory_.runs(depth + o, cheapest_[kind][o])) {
      work += run.hi - run.lo;
      for (std::uint32_t c = run.lo; c < run.hi; ++c)
        if (const Total over = demand_[c] - memory_.room(c); over > most) {
          most = over;
          cell = c;
        }
    }
    if (most > 0) charged_.push_back({cell, static_cast<std::uint32_t>(o)});
  }
  std::sort(charged_.begin(), charged_.end());
  for (std::size_t a = 0; a < charged_.size();) {
    const std::uint32_t c = charged_[a].first;
    std::size_t b = a;
    while (b < charged_.size() && charged_[b].first == c) ++b;
    // The multiple-choice knapsack of cell c: from every group at its cheapest (usage
    // `need` in all), give back usage along each group's lower convex hull, the cheapest
    // steps first, until it fits the room; the price of the last step is the dual's best.
    const long double room = static_cast<long double>(memory_.room(c));
    long double need = 0;
    Total least_need = 0;  // exact: whether the groups can fit at all
    steps_.clear();
    fit_add_.resize(fit_.size());
    for (std::size_t m = a; m < b; ++m) {
      const std::size_t o = charged_[m].second;
      points_.clear();
      Total least_add = std::numeric_limits<Total>::max();
      for (std::size_t f = fit_begin_[o]; f < fit_begin_[o + 1]; ++f) {
        const Strategy t = fit_[f];
        fit_add_[f] = add_in(memory_.runs(depth + o, t), c);
        least_add = std::min(least_add, fit_add_[f]);
        points_.push_back(
            {static_cast<long double>(fit_add_[f]), static_cast<long double>(value(o, t))});
      }
      least_need += least_add;
      work += points_.size();
      std::sort(points_.begin(), points_.end());
      // Lower hull from the least usage to the cheapest point (value 0), left to right.
      std::size_t h = 0;
      for (const auto& p : points_) {
        if (h > 0 && p.second >= points_[h - 1].second) continue;  // dominated
        while (h >= 2) {
          const auto& p1 = points_[h - 2];
          const auto& p2 = points_[h - 1];
          // p2 above the segment p1-p: not on the lower hull.
          if ((p2.second - p1.second) * (p.first - p1.first) >=
              (p.second - p1.second) * (p2.first - p1.first))
            --h;
          else
            break;
        }
        points_[h++] = p;
      }
      need += points_[h - 1].first;
      for (std::size_t q = h - 1; q > 0; --q) {
        const long double give = points_[q].first - points_[q - 1].first;
        steps_.push_back({(points_[q - 1].second - points_[q].second) / give, give});
      }
    }
    if (least_need > memory_.room(c)) return false;  // the cell cannot hold its groups at all
    const long double over = need - room;
    if (over > 0) {
      std::sort(steps_.begin(), steps_.end());
      long double price = 0, given = 0;
      for (const auto& [slope, give] : steps_) {
        price = slope;
        given += give;
        if (given >= over) break;
      }
      // The dual at that price: sum of each group's least value + price x usage, less
      // price x room; weak duality makes it a bound at any price, rounding aside.
      long double dual = -price * room, size = price * room;
      for (std::size_t m = a; m < b; ++m) {
        const std::size_t o = charged_[m].second;
        long double best = std::numeric_limits<long double>::max();
        for (std::size_t f = fit_begin_[o]; f < fit_begin_[o + 1]; ++f) {
          const long double v = static_cast<long double>(value(o, fit_[f])) +
                                price * static_cast<long double>(fit_add_[f]);
          best = std::min(best, v);
        }
        dual += best;
        size += std::abs(best);
      }
      const long double sure = dual - 1e-12L * size - 2;  // rounding's margin
      if (sure > 0) {
        extra += static_cast<Total>(sure);
        for (std::size_t m = a; m < b; ++m)
          cell_extra_[kind][charged_[m].second] = static_cast<Total>(sure);
      }
    }
    a = b;
  }
  memory_.charge(work);
  return true;
}

void ProofSearch::dfs(std::size_t depth, Total partial_rep, Total partial_cost) {
  if (!budget_.complete) return;
  // A search node's work: the options it weighs and the memory cells placements touched.
  const std::uint64_t work = (depth < order_.size() ? r_.strategies(order_[depth]) : 1) +
                             memory_.take_work() + std::exchange(lookahead_work_, 0);
  if (!budget_.enter(work)) return;
  if (depth == order_.size()) {
    if (partial_cost < best_cost_) {
      budget_.found = true;
      best_cost_ = partial_cost;
      bar_ = rep_.scale * (best_cost_ - 1);
      best_ = chosen_;
    }
    return;
  }
  const Strategy k = r_.strategies(order_[depth]);
  const Total* open = open_.at(depth);
  const Total* cost = true_.data() + open_.offset(depth);
  std::vector<std::pair<Total, Strategy>> options(static_cast<std::size_t>(k));
  for (Strategy s = 0; s < k; ++s) options[s] = {open[s], s};
  std::sort(options.begin(), options.end());
  const Total rest = open_.sum() - open_.least(depth) + rep_.constant;
  for (auto [a, s] : options) {
    if (partial_rep + a + rest > bar_) break;  // nothing below cannot beat the best
    if (cost[s] >= kForbidden || dead_[open_.offset(depth) + s]) continue;
    if (!memory_.place(depth, s)) continue;  // over the limit: no completion fits
    chosen_[depth] = s;
    const Total saved = open_.sum();
    open_.set_sum(saved - open_.least(depth));
    add_to_later(depth, s, +1);
    const std::size_t killed = killed_.size();
    if (!lookahead_ || depth + 1 == order_.size() ||
        lookahead(depth + 1, partial_rep + a, partial_cost + cost[s]))
      dfs(depth + 1, partial_rep + a, partial_cost + cost[s]);
    for (std::size_t q = killed; q < killed_.size(); ++q) dead_[killed_[q]] = 0;
    killed_.resize(killed);
    add_to_later(depth, s, -1);
    open_.set_sum(saved);
    memory_.unplace(depth, s);
    if (!budget_.complete) return;
  }
}

ProofSearch::Outcome ProofSearch::run(LocalState& state, std::uint64_t node_limit,
                                      const StopControl& stop) {
  Outcome out;
  if (!state.feasible() || state.cost() >= kForbidden || rep_.node.empty()) return out;
  const std::size_t n = order_.size();
  true_.assign(open_.entries(), 0);
  dead_.assign(open_.entries(), 0);
  killed_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = order_[i];
    for (Strategy s = 0; s < r_.strategies(g); ++s) {
      open_.at(i)[s] = rep_.costs(g)[s];
      true_[open_.offset(i) + s] = r_.costs(g)[s];
    }
  }
  open_.start();
  best_cost_ = state.cost();
  bar_ = rep_.scale * (best_cost_ - 1);
  best_.resize(n);
  for (std::size_t i = 0; i < n; ++i) best_[i] = state.at(order_[i]);
  chosen_ = best_;
  budget_.limit = node_limit;
  budget_.begin();
  // A lookahead node reads every open group's strategies (0.6 ms on 1,459 groups): poll
  // the deadline every 16 of them.
  budget_.poll = StopPoll(&stop, lookahead_ ? 16 : 256);
  for (std::uint32_t g : order_) state.lift(g);
  memory_.build(state, order_);
  span_.assign(open_.entries(), Span{});
  for (std::size_t i = 0; i < n; ++i)
    for (Strategy s = 0; s < r_.strategies(order_[i]); ++s)
      if (const auto runs = memory_.runs(i, s); !runs.empty())
        span_[open_.offset(i) + s] = {runs.front().lo, runs.back().hi};
  dfs(0, 0, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t g = order_[i];
    if (!state.place(g, best_[i], state.delta(g, best_[i])))
      state.force(g, best_[i], state.delta(g, best_[i]));  // cannot happen: best_ fits
  }
  out.complete = budget_.complete;
  out.improved = budget_.found;
  out.nodes = budget_.nodes;
  out.work = budget_.work;
  return out;
}

}  // namespace iopddl::inline v0
