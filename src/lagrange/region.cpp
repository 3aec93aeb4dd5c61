#include "region.hpp"

#include <algorithm>
#include <limits>

#include "iopddl/stop.hpp"
#include "time_prices.hpp"

namespace iopddl {

CopyLayout::CopyLayout(const Reduced& r, const Partition& part) {
  begin.push_back(0);
  for (std::uint32_t k = 0; k < part.regions.size(); ++k) {
    first.push_back(node.size());
    for (std::uint32_t b : part.regions[k].ghosts) {
      region.push_back(k);
      node.push_back(b);
      begin.push_back(begin.back() + static_cast<std::uint64_t>(r.strategies(b)));
    }
  }
  first.push_back(node.size());
}

DualState::DualState(const Reduced& r, const CopyLayout& copies, double price_unit, double gain,
                     double halving_steps)
    : r_(r),
      copies_(copies),
      unit_(price_unit),
      gain_(gain),
      halving_steps_(halving_steps),
      price_(r.original().num_segments(), 0.0),
      lambda_(copies.begin.back(), 0.0) {
  // A multiplier step of the order of an edge's cost spread.
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
  edge_scale_ = counted > 0 ? std::max(1.0, spread / static_cast<double>(counted) / 2) : 1.0;
}

std::vector<double> DualState::member_weights() const {
  std::vector<double> w;
  member_time_weights(r_, price_, w);
  return w;
}

void DualState::add_usage(const Reduced& r, const std::vector<std::uint32_t>& nodes,
                          const std::vector<Strategy>& x, std::vector<double>& diff) {
  const Problem& p = r.original();
  for (std::uint32_t g : nodes)
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      const NodeId v = r.member_node(mi);
      if (!p.has_memory(v)) continue;
      const auto u = static_cast<double>(r.member_usage(mi, x[g]));
      diff[p.seg_lo(v)] += u;
      diff[p.seg_hi(v)] -= u;
    }
}

void DualState::update(const std::vector<Strategy>& x, const std::vector<Strategy>& copy_labels,
                       const std::vector<double>& usage) {
  ++steps_;
  const double decay = 1.0 / (1.0 + static_cast<double>(steps_) / halving_steps_);
  // Memory: a projected subgradient step on each segment's relative overload.
  const auto& limit = r_.original().usage_limit();
  if (limit) {
    const double L = std::max(1.0, static_cast<double>(*limit));
    double level = 0;
    for (std::size_t t = 0; t < price_.size(); ++t) {
      level += usage[t];
      price_[t] = std::max(0.0, price_[t] + gain_ * unit_ * decay * (level - L) / L);
    }
  }
  // Agreement: where a copy disagrees with its owner, make the copy's label dearer for the
  // copy and the owner's label dearer for the owner (lambda enters them with opposite signs).
  const double eta = edge_scale_ * decay;
  for (std::size_t c = 0; c < copies_.size(); ++c) {
    const Strategy mine = copy_labels[c], owners = x[copies_.node[c]];
    if (mine == owners) continue;
    lambda_[copies_.begin[c] + mine] += eta;
    lambda_[copies_.begin[c] + owners] -= eta;
  }
}

double DualState::bound(double regions_bound) const {
  const auto& limit = r_.original().usage_limit();
  if (!limit) return regions_bound;
  double priced = 0;
  for (double pt : price_) priced += pt;
  return regions_bound - priced * static_cast<double>(*limit);
}

RegionSolver::RegionSolver(const Reduced& r, const Partition& part, const CopyLayout& copies,
                           std::uint32_t region)
    : r_(r), copies_(copies), region_(region), owned_(part.regions[region].owned) {
  const auto& ghosts = part.regions[region].ghosts;
  ghosts_ = ghosts.size();
  std::vector<std::uint32_t> local(r.num_nodes(), kNoIndex);
  for (std::uint32_t i = 0; i < owned_.size(); ++i)
    local[owned_[i]] = net_.add_node(r.strategies(owned_[i]));
  for (std::uint32_t b : ghosts) local[b] = net_.add_node(r.strategies(b));
  // Inner edges once (from their first end), cut edges with half their table.
  for (std::uint32_t g : owned_)
    for (std::uint32_t e : r.incident(g)) {
      const std::uint32_t o = r.other(e, g);
      const bool inner = part.owner[o] == region;
      if (inner && r.edge_u(e) != g) continue;
      const std::uint32_t le = net_.add_edge(local[r.edge_u(e)], local[r.edge_v(e)]);
      const std::size_t size =
          static_cast<std::size_t>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
      double* t = net_.table(le);
      for (std::size_t i = 0; i < size; ++i) {
        const double v = std::min(static_cast<double>(r.table(e)[i]), kInfinite);
        t[i] = inner ? v : 0.5 * v;
      }
    }
  net_.finish();
  base_.assign(net_.unary_size(), 0.0);
  for (std::uint32_t i = 0; i < owned_.size(); ++i)
    for (Strategy s = 0; s < r.strategies(owned_[i]); ++s)
      base_[net_.unary_begin(i) + s] =
          std::min(static_cast<double>(r.costs(owned_[i])[s]), kInfinite);
  // The copies of owned nodes held by other regions.
  std::vector<std::vector<std::uint32_t>> of(owned_.size());
  for (std::uint32_t c = 0; c < copies.size(); ++c)
    if (part.owner[copies.node[c]] == region) of[local[copies.node[c]]].push_back(c);
  copies_of_owned_begin_.assign(owned_.size() + 1, 0);
  for (std::size_t i = 0; i < owned_.size(); ++i) {
    copies_of_owned_begin_[i + 1] = copies_of_owned_begin_[i] + of[i].size();
    copies_of_owned_.insert(copies_of_owned_.end(), of[i].begin(), of[i].end());
  }
  trws_ = std::make_unique<Trws>(net_);
  x_.assign(net_.num_nodes(), 0);
}

void RegionSolver::solve(const std::vector<double>& weights, const std::vector<double>& multipliers,
                         int iterations, const StopControl* stop) {
  for (std::uint32_t i = 0; i < owned_.size(); ++i) {
    const std::uint32_t g = owned_[i];
    double* u = net_.unary(i);
    const Strategy k = r_.strategies(g);
    std::copy(base_.begin() + static_cast<long>(net_.unary_begin(i)),
              base_.begin() + static_cast<long>(net_.unary_begin(i) + k), u);
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi)
      if (weights[mi] != 0)
        for (Strategy s = 0; s < k; ++s)
          u[s] += weights[mi] * static_cast<double>(r_.member_usage(mi, s));
    for (std::size_t j = copies_of_owned_begin_[i]; j < copies_of_owned_begin_[i + 1]; ++j) {
      const double* lambda = multipliers.data() + copies_.begin[copies_of_owned_[j]];
      for (Strategy s = 0; s < k; ++s) u[s] -= lambda[s];
    }
  }
  for (std::size_t j = 0; j < ghosts_; ++j) {
    const std::size_t c = copies_.first[region_] + j;
    const auto local = static_cast<std::uint32_t>(owned_.size() + j);
    const double* lambda = multipliers.data() + copies_.begin[c];
    std::copy(lambda, lambda + net_.strategies(local), net_.unary(local));
  }
  for (int it = 0; it < iterations && !(stop && stop->should_stop()); ++it) trws_->iterate(stop);
  x_ = trws_->round();
  net_.descend(x_, 3);
  bound_ = trws_->lower_bound();
}

}  // namespace iopddl
