// Certified lower bounds on the reduced problem, and so on the input (presolve keeps the
// optimum: it removes only forbidden and dominated strategies, and its sums saturate at
// 10^18, which can only lower a cost).
//
// Lagrangian relaxation of the memory limit, one multiplier per time segment:
//   L(lambda) = min_x [cost(x) + sum_t lambda_t (usage_t(x) - limit)] <= cost(x*), lambda >= 0.
// The priced minimisation is bounded by any reparametrisation of the priced network (TRW-S's
// messages define one): the sum of the node minima and the edge-table minima. The engine
// warm-starts the messages between steps and moves the multipliers first by an LP's best
// ones for the current messages (memory_lp.hpp), then, once that stalls, by projected
// subgradient steps (Polyak's rule, towards the best cost known) with the subgradient of
// the priced labelling TRW-S rounds to.
//
// Certification: the multipliers and the messages are scaled by 2^scale_bits and rounded to
// integers, and the bound is recomputed from the int64 costs in 128-bit arithmetic. Any
// integer messages and any multipliers >= 0 give a valid bound, so the value is exact
// whatever the floating-point error of the search that found them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "../reduce/reduced.hpp"
#include "ascent.hpp"
#include "iopddl/options.hpp"
#include "lp_schedule.hpp"
#include "memory_lp.hpp"
#include "network.hpp"
#include "region.hpp"

namespace iopddl::inline v0 {

class StopControl;

// The priced and reparametrised problem a certified bound is read from, in units of
// 2^-scale_bits: for every assignment x that fits the limit,
//   scale * cost(x) >= sum_g node[g][x_g] + sum_e edge[e][x_u, x_v] + constant,
// with every edge entry >= 0 and every edge table's minimum 0, so the bound is the node
// minima plus the constant. An exact search proves optimality against it (exact/).
struct Reparametrisation {
  Total scale = 1;
  std::vector<std::size_t> node_begin;  // per group: its first entry in node
  std::vector<Total> node;
  std::vector<std::size_t> edge_begin;  // per edge: its table in edge (row-major in edge_u)
  std::vector<Total> edge;
  Total constant = 0;  // minus the multipliers times the limit
  const Total* costs(std::uint32_t g) const { return node.data() + node_begin[g]; }
  const Total* table(std::uint32_t e) const { return edge.data() + edge_begin[e]; }
};

// The certified bound for multipliers `lambda` (per segment of the input, in units of
// 2^-scale_bits, each >= 0) and integer messages `msg` (same units; per edge e, k_u entries
// into edge_u then k_v into edge_v, edges in order). Exact: 128-bit sums of int64 costs.
// The multipliers must respect certify_cap(). With `out`, the reparametrised problem the
// bound is read from is kept there too.
Total certify(const Reduced& r, const std::vector<Total>& lambda, const std::vector<Total>& msg,
              int scale_bits, Reparametrisation* out = nullptr);

// A scaled bound (units of 2^-scale_bits) in cost units, rounded up: costs are integers.
Total in_cost_units(Total scaled, int scale_bits);

// The largest sum of multipliers (scaled) for which certify() cannot overflow.
Total certify_cap(const Reduced& r);

// The single-process bound: the whole problem as one region (no agreement multipliers)
// and the multipliers' ascent.
class BoundEngine {
 public:
  // `network`: the reduced problem as a cost network (the engine prices its own copy).
  BoundEngine(const Reduced& r, const CostNetwork& network, const BoundOptions& o);

  // One step: price at the multipliers, TRW-S (warm), certify; then, every bound.lp-every
  // steps, the multipliers the LP finds best for the new messages (memory_lp.hpp), or,
  // without the LP, a subgradient step towards `upper` (the best cost known, if any; capped
  // at half again the bound). Returns the certified bound at the multipliers it priced.
  Total step(std::optional<Total> upper, const StopControl* stop);

  Total best() const { return ascent_.best(); }  // the best certified bound so far
  std::uint64_t steps() const { return ascent_.steps(); }
  const std::vector<double>& multipliers() const { return ascent_.memory(); }  // per segment
  // The reparametrised problem of the best bound so far (empty before the first step).
  Reparametrisation best_reparametrisation() const;
  void set_multipliers(const std::vector<double>& lambda) { ascent_.set_memory(lambda); }
  // The last step's priced labelling (it may overload memory) and whether it fits.
  const std::vector<Strategy>& labelling() const { return region_.labels(); }
  bool labelling_fits() const { return ascent_.fits(); }
  // Who moves the memory multipliers: the LP while it gains, then subgradient steps.
  const LpSchedule& lp() const { return lp_; }
  // In a run bounded by time: the LP's solves wait beyond bound.lp-time-share of the time.
  void cap_lp_time() { lp_.cap_time(); }
  // Work units of the last step (as StopPoll counts them).
  std::uint64_t work() const { return region_.work(o_.iterations); }

 private:
  const Reduced& r_;
  BoundOptions o_;
  CopyLayout no_copies_;
  RegionBound region_;
  DualAscent ascent_;
  std::vector<Total> best_lambda_, best_msg_;  // the integers of the best bound
  LpSchedule lp_;                              // who moves the memory multipliers
};

}  // namespace iopddl::inline v0
