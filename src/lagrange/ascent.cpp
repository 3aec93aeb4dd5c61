#include "ascent.hpp"

#include <algorithm>
#include <cmath>

#include "bound.hpp"

namespace iopddl::inline v0 {
namespace {

constexpr Total kNoBound = -(Total{1} << 126);

// Agreement multipliers stay within +-10^15 (unscaled), below the forbidden levels that
// average_copies leaves alone; scaled, a group's sum over its copies stays far inside 128
// bits.
constexpr double kAgreementCap = 1e15;

double on_grid(double v, double scale) {
  return std::floor(v * scale) / scale;
}

}  // namespace

std::vector<Total> certified_integers(const std::vector<double>& v, int scale_bits) {
  const double scale = std::ldexp(1.0, scale_bits);
  std::vector<Total> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double x = v[i] * scale;
    out[i] = std::fabs(x) < 1e36 ? static_cast<Total>(std::nearbyint(x)) : 0;
  }
  return out;
}

DualAscent::DualAscent(const Reduced& r, const CopyLayout& copies, const BoundOptions& o)
    : r_(r),
      copies_(copies),
      o_(o),
      agreement_(copies.begin.back(), 0.0),
      cap_(static_cast<double>(certify_cap(r)) / std::ldexp(1.0, o.scale_bits)),
      best_(kNoBound),
      factor_(o.step) {
  if (r.original().usage_limit()) memory_.assign(r.original().num_segments(), 0.0);
}

void DualAscent::set_memory(const std::vector<double>& lambda) {
  if (lambda.size() != memory_.size()) return;
  const double scale = std::ldexp(1.0, o_.scale_bits);
  double sum = 0;
  for (std::size_t t = 0; t < lambda.size(); ++t) {
    memory_[t] = on_grid(std::max(0.0, lambda[t]), scale);
    sum += memory_[t];
  }
  if (sum > cap_)
    for (double& l : memory_) l = on_grid(l * cap_ / sum, scale);
}

void DualAscent::set_agreement(const std::vector<double>& a) {
  if (a.size() != agreement_.size()) return;
  const double scale = std::ldexp(1.0, o_.scale_bits);
  for (std::size_t i = 0; i < a.size(); ++i)
    agreement_[i] =
        std::isfinite(a[i]) ? on_grid(std::clamp(a[i], -kAgreementCap, kAgreementCap), scale) : 0.0;
}

Total DualAscent::bound(Total regions_sum) const {
  Total priced = 0;
  for (Total l : certified_integers(memory_, o_.scale_bits)) priced += l;
  const Total limit = r_.original().usage_limit().value_or(0);
  return std::min<Total>(in_cost_units(regions_sum - priced * limit, o_.scale_bits), kForbidden);
}

void DualAscent::record(Total bound, const std::vector<Total>& usage) {
  ++steps_;
  if (bound > best_) {
    best_ = bound;
    since_best_ = 0;
  } else {
    ++since_best_;
  }
  const Total limit = r_.original().usage_limit().value_or(0);
  fits_ = true;
  Total running = 0;
  for (std::size_t t = 0; t + 1 < usage.size(); ++t)
    if ((running += usage[t]) > limit) fits_ = false;
}

void DualAscent::step(Total bound, std::optional<Total> upper, const std::vector<Total>& usage) {
  record(bound, usage);
  // The step's target: the best cost known, but at most bound.target-above times the bound
  // above it (a poor first answer, one with forbidden picks on M, made the first steps
  // throw the multipliers far off: the bound fell from 0.58 of the best cost to -0.01).
  const double above = o_.target_above * std::fabs(static_cast<double>(bound));
  Total target = bound + std::max<Total>(1, static_cast<Total>(std::min(above, 1e36)));
  if (upper && *upper < target) target = *upper;
  // The subgradient: usage_t - limit of the labelling, where it counts (a multiplier at 0
  // with usage below the limit cannot move).
  const Total limit = r_.original().usage_limit().value_or(0);
  Total running = 0;
  double norm = 0;
  std::vector<double> sub(memory_.size(), 0.0);
  for (std::size_t t = 0; t < memory_.size(); ++t) {
    running += usage[t];
    sub[t] = static_cast<double>(running - limit);
    if (memory_[t] > 0 || sub[t] > 0) norm += sub[t] * sub[t];
  }
  if (since_best_ >= static_cast<std::uint64_t>(o_.patience)) {
    factor_ /= 2;
    since_best_ = 0;
    if (factor_ < o_.min_step) factor_ = o_.step;
  }
  if (memory_.empty() || norm == 0 || target <= bound) return;
  const double alpha = factor_ * static_cast<double>(target - bound) / norm;
  std::vector<double> next(memory_.size());
  for (std::size_t t = 0; t < memory_.size(); ++t) next[t] = memory_[t] + alpha * sub[t];
  set_memory(next);
}

void DualAscent::average_copies(const std::vector<Total>& copy, const std::vector<Total>& owner) {
  // In the certified units: every part but the owner's to the floor of the average, the
  // owner's to the rest (at least the average), so the sum of the parts' minima falls by
  // at most one unit per copy where it does not rise.
  const double scale = std::ldexp(1.0, o_.scale_bits);
  const Total forbidden = static_cast<Total>(1e15 * scale);
  std::vector<Total> a = certified_integers(agreement_, o_.scale_bits);
  const auto huge = [forbidden](Total v) { return v >= forbidden || v <= -forbidden; };
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g) {
    const std::span<const std::uint32_t> of = copies_.of(g);
    if (of.empty()) continue;
    const Strategy k = r_.strategies(g);
    const Total* mine = owner.data() + copies_.begin[of.front()];
    // A group with a forbidden-level cost in any part keeps its multipliers: averaging
    // only its other strategies could lower the bound.
    bool skip = std::any_of(mine, mine + k, huge);
    for (std::uint32_t c : of)
      skip = skip ||
             std::any_of(copy.data() + copies_.begin[c], copy.data() + copies_.begin[c] + k, huge);
    if (skip) continue;
    const Total parts = copies_.parts(g);
    for (Strategy s = 0; s < k; ++s) {
      Total sum = mine[s];
      for (std::uint32_t c : of) sum += copy[copies_.begin[c] + s];
      Total average = sum / parts;
      if (average * parts > sum) --average;  // the floor
      for (std::uint32_t c : of) a[copies_.begin[c] + s] += average - copy[copies_.begin[c] + s];
    }
  }
  std::vector<double> next(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) next[i] = static_cast<double>(a[i]) / scale;
  set_agreement(next);
}

}  // namespace iopddl::inline v0
