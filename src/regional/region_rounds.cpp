#include "region_rounds.hpp"

#include <cstdio>

#include "../partition/regions.hpp"
#include "iopddl/solve.hpp"
#include "region_problem.hpp"

namespace iopddl {

RegionRounds::RegionRounds(const Problem& p, const Reduced& r, const SolverOptions& o,
                           std::size_t regions, std::vector<Strategy> incumbent)
    : p_(p), r_(r), o_(o), nodes_(std::max<std::size_t>(1, regions)), x_(std::move(incumbent)) {
  usage_ = coordinator::usage_profile(p_, x_);
  room_ = coordinator::room_profile(p_);
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

coordinator::RegionChange RegionRounds::improve(std::uint32_t i, std::uint64_t work,
                                                const StopControl& stop) const {
  coordinator::RegionChange change;
  change.region = i;
  const std::vector<NodeId>& nodes = nodes_[i];
  if (nodes.empty()) return change;
  const std::vector<Total> capacity = coordinator::allowance(p_, x_, nodes, usage_, room_);
  const RegionProblem rp = region_problem(p_, x_, nodes, capacity);
  std::vector<Strategy> hint(rp.problem.num_nodes(), 0);
  for (std::size_t j = 0; j < nodes.size(); ++j) hint[j] = x_[nodes[j]];
  SolverOptions so = o_;
  so.threads = 1;
  so.bound.share = 0;
  so.polish_hint = true;  // the region's bound is of no use to the whole problem's
  so.work_limit = std::max<std::uint64_t>(1, work);
  // each region of each round its own random stream, the same on every rank
  so.seed = o_.seed * 0x9e3779b97f4a7c15ULL + round_ * 1000003ULL + i;
  StopControl sub(stop, o_.deterministic ? 0 : 1e18);
  if (o_.deterministic) sub.ignore_deadline();
  Log quiet(stderr, &sub, true);
  IncumbentStore store(&sub);
  const std::optional<Total> start = offer_hint(rp.problem, hint, store);
  solve(rp.problem, so, sub, store, quiet, hint);
  if (!start || !store.has_solution() || store.cost() >= *start) return change;
  change.gain = *start - store.cost();
  const std::vector<Strategy> y = store.assignment();
  for (std::size_t j = 0; j < nodes.size(); ++j)
    if (y[j] != hint[j]) {
      change.nodes.push_back(nodes[j]);
      change.labels.push_back(y[j]);
    }
  return change;
}

void RegionRounds::adopt(std::vector<Strategy> x) {
  x_ = std::move(x);
  usage_ = coordinator::usage_profile(p_, x_);
}

coordinator::AssemblyOutcome RegionRounds::assemble(
    std::vector<coordinator::RegionChange> changes) {
  return coordinator::assemble(p_, x_, usage_, std::move(changes));
}

std::size_t change_bytes(const coordinator::RegionChange& c) {
  return 4 + 16 + 8 + c.nodes.size() * (sizeof(NodeId) + sizeof(Strategy));
}

}  // namespace iopddl
