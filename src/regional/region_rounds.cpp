#include "region_rounds.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "../coordinator/memory_prices.hpp"
#include "../partition/regions.hpp"
#include "../util/total_halves.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/solve.hpp"
#include "region_problem.hpp"

namespace iopddl::inline v0 {

RegionRounds::RegionRounds(const Problem& p, const Reduced& r, const SolverOptions& o,
                           std::size_t regions, std::vector<Strategy> incumbent,
                           RegionMarket market)
    : p_(p),
      r_(r),
      o_(o),
      market_(market),
      prices_(p.num_segments(), 0.0),
      nodes_(std::max<std::size_t>(1, regions)),
      x_(std::move(incumbent)) {
  usage_ = coordinator::usage_profile(p_, x_);
  room_ = coordinator::room_profile(p_);
  cost_ = evaluate(p_, x_).cost;
}

void RegionRounds::begin(std::uint64_t round) {
  round_ = round;
  const std::vector<std::uint32_t> owner = moving_owners(r_, nodes_.size(), round);
  for (auto& n : nodes_) n.clear();
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g)
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi)
      nodes_[owner[g]].push_back(r_.member_node(mi));
  for (auto& n : nodes_) std::sort(n.begin(), n.end());
}

std::vector<RegionRounds::Task> RegionRounds::assigned(std::size_t which,
                                                       std::size_t region_ranks) const {
  std::vector<Task> mine;
  const std::size_t n = nodes_.size();
  if (region_ranks > n) {
    mine.push_back({static_cast<std::uint32_t>(which % n), static_cast<std::uint32_t>(which / n)});
    return mine;
  }
  for (std::size_t i = which; region_ranks > 0 && i < n; i += region_ranks)
    mine.push_back({static_cast<std::uint32_t>(i), 0});
  return mine;
}

coordinator::RegionChange RegionRounds::improve(Task t, std::uint64_t work, double seconds,
                                                const StopControl& stop) const {
  const std::uint32_t i = t.region;
  coordinator::RegionChange change;
  change.region = i;
  const std::vector<NodeId>& nodes = nodes_[i];
  if (nodes.empty()) return change;
  const std::vector<Total> capacity =
      coordinator::allowance(p_, x_, nodes, usage_, room_, market_.overcommit);
  const RegionProblem rp = region_problem(p_, x_, nodes, capacity, prefix_);
  std::vector<Strategy> hint(rp.problem.num_nodes(), 0);
  for (std::size_t j = 0; j < nodes.size(); ++j) hint[j] = x_[nodes[j]];
  SolverOptions so = o_;
  so.threads = 1;
  so.bound.share = 0;  // the region's bound is of no use to the whole problem's
  // Worker 0 repairs and improves the hint rather than every worker adopting it: that ends
  // lower (bench/results/region_solve_start.csv: adopting and polishing first loses
  // 0.03-0.19 % on every seed measured). A hint presolve moved is adopted and polished.
  so.improve_hint = true;
  so.polish_hint = true;
  so.work_limit = std::max<std::uint64_t>(1, work);
  // each region of each round its own random stream, the same on every rank, and each copy
  so.seed =
      o_.seed * 0x9e3779b97f4a7c15ULL + round_ * 1000003ULL + i + t.copy * 0xbf58476d1ce4e5b9ULL;
  StopControl sub(stop, o_.deterministic ? 0 : seconds);
  if (o_.deterministic) sub.ignore_deadline();
  Log quiet(stderr, &sub, true);
  IncumbentStore store(&sub);
  // the region's cost under the incumbent, which the change's gain is measured from
  const std::optional<Total> start = offer_hint(rp.problem, hint, store);
  solve(rp.problem, so, sub, store, quiet, hint);
  if (!start || !store.has_solution() || store.cost() >= *start) return change;
  // the gain without the prices: the priced gain less what the change saved in priced terms
  Total gain = *start - store.cost();
  const std::vector<Strategy> y = store.assignment();
  for (std::size_t j = 0; j < nodes.size(); ++j)
    if (y[j] != hint[j]) {
      change.nodes.push_back(nodes[j]);
      change.labels.push_back(y[j]);
      gain += coordinator::priced_term(p_, prefix_, nodes[j], y[j]) -
              coordinator::priced_term(p_, prefix_, nodes[j], hint[j]);
    }
  if (gain <= 0) {  // cheaper only at the prices
    change.nodes.clear();
    change.labels.clear();
    return change;
  }
  change.gain = gain;
  return change;
}

void RegionRounds::adopt_prices(std::vector<double> prices) {
  prices_ = std::move(prices);
  const bool priced = std::any_of(prices_.begin(), prices_.end(), [](double m) { return m > 0; });
  prefix_ = priced ? coordinator::prefix_sums(prices_) : std::vector<double>{};
}

void RegionRounds::adopt(std::vector<Strategy> x, Total cost) {
  x_ = std::move(x);
  cost_ = cost;
  usage_ = coordinator::usage_profile(p_, x_);
}

coordinator::AssemblyOutcome RegionRounds::conclude(
    const std::vector<Strategy>& whole, Total cost,
    std::vector<coordinator::RegionChange> changes) {
  if (market_.price_step > 0 && p_.usage_limit()) {
    // the changes were made from the round's incumbent, before rank 0's answer may replace it
    const coordinator::Bids asked = coordinator::bids(p_, x_, changes);
    // A round whose changes add no usage keeps the last reference: with a reference of 0
    // the prices froze, and prices that left the regions no true gain then stayed for good
    // (300,000 nodes: every round from the 8th without a change).
    if (asked.reference > 0) reference_ = asked.reference;
    std::vector<double> prices = prices_;
    coordinator::step_prices(prices, asked.demand, usage_, *p_.usage_limit(), reference_,
                             market_.price_step);
    adopt_prices(std::move(prices));
  }
  if (!whole.empty() && cost < cost_) adopt(whole, cost);
  const coordinator::AssemblyOutcome a = coordinator::assemble(p_, x_, usage_, std::move(changes));
  cost_ -= a.gain;
  return a;
}

std::vector<std::int64_t> pack_changes(std::span<const coordinator::RegionChange> changes) {
  std::vector<std::int64_t> out;
  for (const coordinator::RegionChange& c : changes) {
    out.push_back(c.region);
    out.push_back(split_total(c.gain).high);
    out.push_back(low_bits(c.gain));
    out.push_back(static_cast<std::int64_t>(c.nodes.size()));
    out.insert(out.end(), c.nodes.begin(), c.nodes.end());
    out.insert(out.end(), c.labels.begin(), c.labels.end());
  }
  return out;
}

std::vector<coordinator::RegionChange> unpack_changes(std::span<const std::int64_t> message,
                                                      const Problem& p) {
  std::vector<coordinator::RegionChange> out;
  std::size_t at = 0;
  const auto bad = [](const char* what) {
    return std::invalid_argument(std::string("region change message: ") + what);
  };
  while (at < message.size()) {
    if (message.size() - at < 4) throw bad("truncated header");
    coordinator::RegionChange c;
    if (message[at] < 0 || message[at] > UINT32_MAX) throw bad("region out of range");
    c.region = static_cast<std::uint32_t>(message[at]);
    c.gain = join_total(message[at + 1], message[at + 2]);
    const std::int64_t count = message[at + 3];
    at += 4;
    if (count < 0 || static_cast<std::uint64_t>(count) > (message.size() - at) / 2)
      throw bad("count past the end");
    for (std::int64_t j = 0; j < count; ++j) {
      const std::int64_t v = message[at + static_cast<std::size_t>(j)];
      const std::int64_t s = message[at + static_cast<std::size_t>(count + j)];
      if (v < 0 || static_cast<std::uint64_t>(v) >= p.num_nodes()) throw bad("node out of range");
      if (s < 0 || s >= p.strategies(static_cast<NodeId>(v))) throw bad("label out of range");
      c.nodes.push_back(static_cast<NodeId>(v));
      c.labels.push_back(static_cast<Strategy>(s));
    }
    at += 2 * static_cast<std::size_t>(count);
    out.push_back(std::move(c));
  }
  return out;
}

std::size_t change_bytes(const coordinator::RegionChange& c) {
  return 4 * sizeof(std::int64_t) + 2 * c.nodes.size() * sizeof(std::int64_t);
}

}  // namespace iopddl::inline v0
