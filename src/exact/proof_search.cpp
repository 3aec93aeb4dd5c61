#include "proof_search.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "../local/elimination.hpp"

namespace iopddl::inline v0 {

ProofSearch::ProofSearch(const Reduced& r, const Reparametrisation& rep)
    : r_(r), rep_(rep), position_(r.num_nodes(), kNoIndex) {
  order();
  open_.build(r_, order_, position_);
}

// Maximum cardinality search from the groups by decreasing degree: next the group with the
// most placed neighbours (ties: the most neighbours), so that open groups see their edges
// placed early and the bound rises.
void ProofSearch::order() {
  std::vector<std::uint32_t> groups(r_.num_nodes());
  std::iota(groups.begin(), groups.end(), 0u);
  std::stable_sort(groups.begin(), groups.end(), [&](std::uint32_t a, std::uint32_t b) {
    return r_.incident(a).size() > r_.incident(b).size();
  });
  for (std::size_t i = 0; i < groups.size(); ++i)
    position_[groups[i]] = static_cast<std::uint32_t>(i);
  order_ = max_cardinality_order(r_, groups, position_);
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

void ProofSearch::dfs(std::size_t depth, Total partial_rep, Total partial_cost) {
  if (!budget_.complete) return;
  // A search node's work: the options it weighs and the memory cells placements touched.
  const std::uint64_t work =
      (depth < order_.size() ? r_.strategies(order_[depth]) : 1) + memory_.take_work();
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
    if (cost[s] >= kForbidden) continue;
    if (!memory_.place(depth, s)) continue;  // over the limit: no completion fits
    chosen_[depth] = s;
    const Total saved = open_.sum();
    open_.set_sum(saved - open_.least(depth));
    add_to_later(depth, s, +1);
    dfs(depth + 1, partial_rep + a, partial_cost + cost[s]);
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
  budget_.poll = StopPoll(&stop, 256);
  for (std::uint32_t g : order_) state.lift(g);
  memory_.build(state, order_);
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
