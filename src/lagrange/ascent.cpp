#include "ascent.hpp"

#include <algorithm>
#include <cmath>

#include "bound.hpp"

namespace iopddl {
namespace {

constexpr Total kNoBound = -(Total{1} << 126);

// Agreement multipliers stay within +-10^18 (unscaled): scaled, a group's sum over its
// copies then stays far inside 128 bits.
constexpr double kAgreementCap = 1e18;

double on_grid(double v, double scale) {
  return std::floor(v * scale) / scale;
}

// Half the mean spread (largest less least allowed entry) of the edge tables.
double half_mean_spread(const Reduced& r) {
  double spread = 0;
  std::size_t counted = 0;
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const std::size_t size =
        static_cast<std::size_t>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
    Cost lo = kForbidden, hi = 0;
    for (std::size_t i = 0; i < size; ++i) {
      if (is_forbidden(r.table(e)[i])) continue;
      lo = std::min(lo, r.table(e)[i]);
      hi = std::max(hi, r.table(e)[i]);
    }
    if (lo <= hi) spread += static_cast<double>(hi - lo), ++counted;
  }
  return counted > 0 ? std::max(1.0, spread / static_cast<double>(counted) / 2) : 1.0;
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
      edge_scale_(copies.size() > 0 ? half_mean_spread(r) : 1.0),
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

bool DualAscent::step(Total bound, std::optional<Total> upper, const std::vector<Total>& usage,
                      const std::vector<Strategy>& owners,
                      const std::vector<Strategy>& copy_labels) {
  ++steps_;
  const bool better = bound > best_;
  if (better) {
    best_ = bound;
    since_best_ = 0;
  } else {
    ++since_best_;
  }
  // The step's target: the best cost known, but at most bound.target-above times the bound
  // above it (a poor first answer, one with forbidden picks on M, made the first steps
  // throw the multipliers far off: the bound fell from 0.58 of the best cost to -0.01).
  const double above = o_.target_above * std::fabs(static_cast<double>(bound));
  Total target = bound + std::max<Total>(1, static_cast<Total>(std::min(above, 1e36)));
  if (upper && *upper < target) target = *upper;
  // The memory block's subgradient: usage_t - limit of the labelling, where it counts
  // (a multiplier at 0 with usage below the limit cannot move).
  const Total limit = r_.original().usage_limit().value_or(0);
  fits_ = true;
  Total running = 0;
  double memory_norm = 0;
  std::vector<double> sub(memory_.size(), 0.0);
  for (std::size_t t = 0; t + 1 < usage.size(); ++t) {
    running += usage[t];
    if (running > limit) fits_ = false;
    if (memory_.empty()) continue;
    sub[t] = static_cast<double>(running - limit);
    if (memory_[t] > 0 || sub[t] > 0) memory_norm += sub[t] * sub[t];
  }
  // The agreement block's: +1 at the copy's label, -1 at its owner's, where they differ.
  std::size_t disagreements = 0;
  for (std::size_t c = 0; c < copies_.size(); ++c)
    disagreements += copy_labels[c] != owners[copies_.node[c]];
  if (since_best_ >= static_cast<std::uint64_t>(o_.patience)) {
    factor_ /= 2;
    since_best_ = 0;
    if (factor_ < o_.min_step) factor_ = o_.step;
  }
  if (target <= bound) return better;
  const int blocks = (memory_norm > 0) + (disagreements > 0);
  if (blocks == 0) return better;
  const double gap = static_cast<double>(target - bound) / blocks;
  if (memory_norm > 0) {
    const double alpha = factor_ * gap / memory_norm;
    std::vector<double> next(memory_.size());
    for (std::size_t t = 0; t < memory_.size(); ++t) next[t] = memory_[t] + alpha * sub[t];
    set_memory(next);
  }
  if (disagreements > 0) {
    const double alpha =
        std::min(factor_ * gap / (2.0 * static_cast<double>(disagreements)), factor_ * edge_scale_);
    std::vector<double> next = agreement_;
    for (std::size_t c = 0; c < copies_.size(); ++c) {
      const Strategy mine = copy_labels[c], owners_label = owners[copies_.node[c]];
      if (mine == owners_label) continue;
      next[copies_.begin[c] + mine] += alpha;
      next[copies_.begin[c] + owners_label] -= alpha;
    }
    set_agreement(next);
  }
  return better;
}

}  // namespace iopddl
