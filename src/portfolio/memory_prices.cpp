#include "memory_prices.hpp"

#include <algorithm>

#include "../lagrange/time_prices.hpp"

namespace iopddl::inline v0 {

MemoryPrices::MemoryPrices(const Reduced& r, const MemoryIndex& index, Pricing pricing, double unit,
                           const PriceOptions& o)
    : r_(r),
      p_(r.original()),
      index_(index),
      pricing_(pricing),
      o_(o),
      beta_(r.num_members(), 0.0),
      price_(r.original().num_segments() + 1, 0.0),
      alpha_(unit) {}

void MemoryPrices::member_weights(std::vector<double>& w) const {
  w.assign(r_.num_members(), 0.0);
  if (pricing_ == Pricing::kPerMember) {
    for (std::size_t mi : index_.with_memory) w[mi] = alpha_ * beta_[mi];
    return;
  }
  member_time_weights(r_, price_, w);
}

void MemoryPrices::price(CostNetwork& net) {
  member_weights(weight_);
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g) {
    double* ug = net.unary(g);
    const Cost* c = r_.costs(g);
    for (Strategy s = 0; s < r_.strategies(g); ++s)
      ug[s] = std::min(static_cast<double>(c[s]), kInfinite);
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      const double w = weight_[mi];
      if (w == 0) continue;
      for (Strategy s = 0; s < r_.strategies(g); ++s)
        ug[s] += w * static_cast<double>(r_.member_usage(mi, s));
    }
  }
}

void MemoryPrices::update(const LocalState& state, Rng& rng) {
  if (!state.limited()) return;
  const Total limit = state.limit();
  if (pricing_ == Pricing::kPerTime) {
    std::vector<Total> diff(price_.size() + 1, 0);
    for (std::size_t mi : index_.with_memory) {
      const NodeId v = r_.member_node(mi);
      const Usage u = r_.member_usage(mi, state.at(index_.group[mi]));
      diff[p_.seg_lo(v)] += u;
      diff[p_.seg_hi(v)] -= u;
    }
    Total usage = 0;
    const double L = std::max(1.0, static_cast<double>(limit));
    for (std::size_t t = 0; t + 1 < diff.size(); ++t) {
      usage += diff[t];
      const double g = (static_cast<double>(usage) - L) / L;
      price_[t] = std::max(0.0, price_[t] + step_ * alpha_ * g * o_.time_gain);
    }
    step_ = std::max(o_.min_step, step_ * o_.step_decay);
    return;
  }
  for (std::size_t mi : index_.with_memory) {
    const NodeId v = r_.member_node(mi);
    if (state.usage().max(p_.seg_lo(v), p_.seg_hi(v)) > limit)
      beta_[mi] = beta_[mi] * o_.raise + o_.raise_add * (1.0 + rng.uniform());
    else
      beta_[mi] *= o_.decay;
  }
}

void MemoryPrices::scatter(Rng& rng) {
  for (double& b : beta_) b *= 0.5 + rng.uniform();
  for (double& p : price_) p *= 0.5 + rng.uniform();
  step_ = std::max(step_, o_.scatter_step);
}

std::vector<double> MemoryPrices::absolute() const {
  std::vector<double> w(beta_.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = alpha_ * beta_[i];
  return w;
}

void MemoryPrices::set_absolute(const std::vector<double>& w) {
  if (w.size() != beta_.size() || alpha_ <= 0) return;
  for (std::size_t i = 0; i < w.size(); ++i) beta_[i] = w[i] / alpha_;
}

}  // namespace iopddl::inline v0
