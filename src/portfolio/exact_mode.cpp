// Exact mode: small reduced problems solved outright, by dynamic programming or by a
// complete search, before any worker starts.
#include "../exact/bucket_elimination.hpp"
#include "../local/elimination.hpp"
#include "../local/state.hpp"
#include "../local/window_search.hpp"
#include "../reduce/reduced.hpp"
#include "bound_worker.hpp"
#include "iopddl/evaluate.hpp"
#include "portfolio.hpp"

namespace iopddl::inline v0 {

// Exact mode by dynamic programming: where the tables of bucket elimination along a min-fill
// order hold at most exact.dp_entries entries (the work, known before it starts; planned
// for problems of at most exact.prove_max_groups groups, the cap of every complete search),
// the least cost with memory left aside is computed. If its minimiser fits the limit it is
// optimal; otherwise the least cost is a certified bound.
SolveResult Portfolio::solve_by_elimination(StopControl& stop, IncumbentStore& store) {
  const Reduced& r = reduced_;
  const SolveResult open{SolveStatus::kFeasible, ""};
  if (o_.exact.dp_entries == 0 ||
      r.num_nodes() > static_cast<std::size_t>(o_.exact.prove_max_groups))
    return open;
  const BucketElimination dp(r, min_fill_order(r).order);
  if (dp.entries() > o_.exact.dp_entries) return open;
  const std::optional<BucketElimination::Result> least = dp.run(stop);
  if (!least || least->cost >= kForbidden) return open;
  const std::vector<Strategy> a = r.expand(least->x);
  const Evaluation ev = evaluate(p_, a);
  if (!ev.feasible) {
    store.offer_bound(least->cost, "elimination");
    log_.info(
        "exact: the least cost without the memory limit, %s, is a bound (its minimiser "
        "overloads memory)",
        to_string(least->cost).c_str());
    return open;
  }
  log_.info(
      "exact: cost %s is optimal (dynamic programming over %zu reduced nodes, %llu "
      "table entries; its minimiser fits the memory limit)",
      to_string(ev.cost).c_str(), r.num_nodes(), static_cast<unsigned long long>(dp.entries()));
  return claim_optimal(least->x, a, ev, store, "dynamic programming");
}

// The least cost an assignment that picks a forbidden entry can have: 10^18 plus every
// negative least entry of the node costs and edge tables.
static Total forbidden_floor(const Problem& p) {
  Total floor = kForbidden;
  for (NodeId v = 0; v < p.num_nodes(); ++v)
    floor += std::min<Cost>(0, *std::min_element(p.costs(v).begin(), p.costs(v).end()));
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    const auto t = p.edge_costs(e);
    if (!t.empty()) floor += std::min<Cost>(0, *std::min_element(t.begin(), t.end()));
  }
  return floor;
}

// An exact method's answer (`x`, expanded to `a`, which the evaluator found feasible) as the
// answer and its own certificate.
SolveResult Portfolio::claim_optimal(const std::vector<Strategy>& x, const std::vector<Strategy>& a,
                                     const Evaluation& ev, IncumbentStore& store,
                                     const std::string& how) {
  exact_x_ = x;
  exact_cost_ = ev.cost;
  store.offer(a, ev.cost, "exact");
  store.offer_bound(ev.cost, "exact");
  return {SolveStatus::kOptimal, "proven optimal by " + how + " over the presolved problem"};
}

// Exact mode by search: a reduced problem of at most exact.max_nodes nodes is searched
// completely by branch-and-bound (the window search over every node) within a budget of
// search nodes. A complete search proves its answer optimal: assignments that pick a
// forbidden entry cost more than any that does not.
SolveResult Portfolio::solve_small_exactly(StopControl& stop, IncumbentStore& store) {
  const Reduced& r = reduced_;
  if (SolveResult dp = solve_by_elimination(stop, store); dp.status == SolveStatus::kOptimal)
    return dp;
  if (r.num_nodes() > static_cast<std::size_t>(o_.exact.max_nodes))
    return {SolveStatus::kFeasible, ""};
  LocalState state(r);
  std::vector<Strategy> x;
  auto [incumbent, has] = store.snapshot();
  if (!has || !r.contract(incumbent, x)) x.assign(r.num_nodes(), 0);
  state.assign(x);
  WindowSearch search(r, nullptr, o_.lns);
  const WindowSearch::Exact e =
      search.solve_exactly(state, static_cast<std::size_t>(o_.exact.search_nodes), stop);
  if (e.complete && !e.feasible) {
    // No forbidden-free assignment fits: each that fits pays a forbidden entry, and every
    // other entry it picks at least its table's least (negative ones count).
    store.offer_bound(forbidden_floor(p_), "exact");
    log_.info("exact: every assignment within the memory limit picks a forbidden entry");
    return {SolveStatus::kFeasible, ""};
  }
  if (!e.complete) return {SolveStatus::kFeasible, ""};
  const std::vector<Strategy> a = r.expand(state.assignment());
  const Evaluation ev = evaluate(p_, a);
  if (!ev.feasible) return {SolveStatus::kFeasible, ""};
  log_.info("exact: cost %s is optimal (complete branch-and-bound over %zu reduced nodes)",
            to_string(ev.cost).c_str(), r.num_nodes());
  return claim_optimal(state.assignment(), a, ev, store, "complete branch-and-bound");
}

}  // namespace iopddl::inline v0
