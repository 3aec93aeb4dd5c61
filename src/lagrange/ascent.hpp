// The multipliers of the Lagrangian bound and their update rules: one memory multiplier per
// time segment (>= 0) and, when the problem is split into regions, one agreement multiplier
// per copy and strategy (see region.hpp). The bound engine holds one (a single region, no
// agreement multipliers); under MPI the coordinator (rank 0) holds the only one.
//
// Memory: a projected subgradient step by Polyak's rule towards a target (the best cost
// known, capped at bound.target-above times the bound above it), the factor halving after
// bound.patience steps without a better bound. (Both holders set them from an LP first:
// lp_schedule.hpp.)
// Agreement: block coordinate ascent. Each group's reparametrised costs in its owner's
// region and in each region holding a copy are moved to their average (the multipliers add
// to the copies' costs and take from the owner's): at the messages they came from, the sum
// of the minima can only rise, since min of the average, times the parts, is at least the
// sum of the parts' minima. (A subgradient step on the copies' disagreement, tried first,
// lowered G's 20-s bound under 2 ranks from 0.999 to 0.38 of the best cost: the rounded
// labels of loopy regions are too noisy a subgradient.) Multipliers stay on the certified
// grid (units of 2^-bound.scale-bits), so every rank converts them to the same integers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../reduce/reduced.hpp"
#include "iopddl/options.hpp"
#include "region.hpp"

namespace iopddl::inline v0 {

// The scaled integers of multipliers or messages on the certified grid (a value out of
// range, or NaN, becomes 0: any integers give a valid bound).
std::vector<Total> certified_integers(const std::vector<double>& v, int scale_bits);

class DualAscent {
 public:
  DualAscent(const Reduced& r, const CopyLayout& copies, const BoundOptions& o);

  const std::vector<double>& memory() const { return memory_; }  // per segment; empty: no limit
  const std::vector<double>& agreement() const { return agreement_; }  // per copy entry
  // Onto the grid and within the cap that rules out overflow; ignored if of another size.
  void set_memory(const std::vector<double>& lambda);
  void set_agreement(const std::vector<double>& a);

  // The certified bound of the input at the current multipliers from the regions' summed
  // certify_region() values: minus the memory multipliers times the limit, divided by the
  // scale and rounded up (costs are integers), capped at 10^18 (a bound on the presolved
  // problem bounds the input's optimum over the assignments without a forbidden pick; one
  // with forbidden picks costs at least 10^18).
  Total bound(Total regions_sum) const;

  // Records `bound` (of the current multipliers) and steps the memory multipliers towards
  // `upper` (the best cost known, if any) with the subgradient of the assembled labelling:
  // `usage` its per-segment usage differences (size segments + 1).
  void step(Total bound, std::optional<Total> upper, const std::vector<Total>& usage);
  // Records `bound` and whether the labelling of `usage` fits, without moving the
  // multipliers (when an LP sets them: LpSchedule).
  void record(Total bound, const std::vector<Total>& usage);
  // The next subgradient steps start from this factor (bound.step at first).
  void set_factor(double factor) {
    factor_ = factor;
    since_best_ = 0;
  }
  // The agreement update from the regions' certified reparametrised costs (scaled, per copy
  // entry of the layout): `copy` each copy's in the region holding it, `owner` its group's
  // in the owner's region. A group with a cost at forbidden levels (10^15 and above, in
  // cost units) in any part is left alone: its average would swamp the doubles of message
  // passing, and averaging only its other strategies could lower the bound.
  void average_copies(const std::vector<Total>& copy, const std::vector<Total>& owner);

  bool fits() const { return fits_; }  // the last step's labelling within the limit
  Total best() const { return best_; }
  std::uint64_t steps() const { return steps_; }

 private:
  const Reduced& r_;
  const CopyLayout& copies_;
  BoundOptions o_;
  std::vector<double> memory_, agreement_;
  double cap_;  // the largest sum of memory multipliers certify takes (unscaled)
  Total best_;
  std::uint64_t steps_ = 0, since_best_ = 0;
  double factor_;
  bool fits_ = false;
};

}  // namespace iopddl::inline v0
