#include "bound.hpp"

#include <algorithm>
#include <cmath>

#include "iopddl/stop.hpp"
#include "time_prices.hpp"

namespace iopddl {
namespace {

constexpr Total kNoBound = -(Total{1} << 126);

// ceil(a / b) for b > 0 (C++ division truncates towards zero).
Total ceil_div(Total a, Total b) {
  const Total q = a / b;
  return q * b < a ? q + 1 : q;
}

// A double (a message or a multiplier, already scaled) as an integer: any integer gives a
// valid reparametrisation, so a value out of range (or NaN) may as well be 0.
Total to_integer(double v) {
  if (!(std::fabs(v) < 1e36)) return 0;
  return static_cast<Total>(std::nearbyint(v));
}

}  // namespace

Total certify_cap(const Reduced& r) {
  const Problem& p = r.original();
  Total usage = 0;  // every member at its largest usage
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      Usage most = 0;
      for (Strategy s = 0; s < r.strategies(g); ++s) most = std::max(most, r.member_usage(mi, s));
      usage += most;
    }
  const Total limit = p.usage_limit().value_or(0);
  // The priced usage and the limit term then stay below 2^100, the scaled costs and
  // messages below 2^(63 + 24) each: far inside 128 bits (scale_bits is at most 24).
  return (Total{1} << 100) / (1 + std::max(usage, limit));
}

Total certify(const Reduced& r, const std::vector<Total>& lambda, const std::vector<Total>& msg,
              int scale_bits, Reparametrisation* out) {
  const Problem& p = r.original();
  const Total scale = Total{1} << scale_bits;
  // Member weights: the sum of the multipliers over each member's segments.
  std::vector<Total> prefix(lambda.size() + 1, 0);
  for (std::size_t t = 0; t < lambda.size(); ++t) prefix[t + 1] = prefix[t] + lambda[t];
  std::vector<std::size_t> begin(r.num_nodes() + 1, 0);
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) begin[g + 1] = begin[g] + r.strategies(g);
  std::vector<Total> node(begin.back());
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    Total* n = node.data() + begin[g];
    for (Strategy s = 0; s < r.strategies(g); ++s) n[s] = scale * r.costs(g)[s];
    if (lambda.empty()) continue;
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      const NodeId v = r.member_node(mi);
      if (!p.has_memory(v)) continue;
      const Total w = prefix[p.seg_hi(v)] - prefix[p.seg_lo(v)];
      for (Strategy s = 0; s < r.strategies(g); ++s) n[s] += w * r.member_usage(mi, s);
    }
  }
  // Each edge: its entries minus the messages it sent, whose values the ends receive; then
  // its row minima into edge_u and the column minima of what is left into edge_v.
  std::size_t at = 0;
  std::vector<Total> column, row_least;
  if (out != nullptr) {
    out->edge_begin.assign(r.num_edges() + 1, 0);
    for (std::uint32_t e = 0; e < r.num_edges(); ++e)
      out->edge_begin[e + 1] =
          out->edge_begin[e] +
          static_cast<std::size_t>(r.strategies(r.edge_u(e))) * r.strategies(r.edge_v(e));
    out->edge.assign(out->edge_begin.back(), 0);
  }
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const std::uint32_t u = r.edge_u(e), v = r.edge_v(e);
    const Strategy ku = r.strategies(u), kv = r.strategies(v);
    const Total* to_u = msg.data() + at;
    const Total* to_v = to_u + ku;
    at += static_cast<std::size_t>(ku) + kv;
    Total* nu = node.data() + begin[u];
    Total* nv = node.data() + begin[v];
    for (Strategy a = 0; a < ku; ++a) nu[a] += to_u[a];
    for (Strategy b = 0; b < kv; ++b) nv[b] += to_v[b];
    column.assign(kv, Total{1} << 126);
    row_least.resize(ku);
    const Cost* t = r.table(e);
    for (Strategy a = 0; a < ku; ++a) {
      const Cost* row = t + static_cast<std::size_t>(a) * kv;
      Total least = Total{1} << 126;
      for (Strategy b = 0; b < kv; ++b) least = std::min(least, scale * row[b] - to_u[a] - to_v[b]);
      row_least[a] = least;
      nu[a] += least;
      for (Strategy b = 0; b < kv; ++b)
        column[b] = std::min(column[b], scale * row[b] - to_u[a] - to_v[b] - least);
    }
    for (Strategy b = 0; b < kv; ++b) nv[b] += column[b];  // the table's minimum is now 0
    if (out == nullptr) continue;
    // The entries left: each row's minimum went to u, then each column's to v.
    Total* left = out->edge.data() + out->edge_begin[e];
    for (Strategy a = 0; a < ku; ++a) {
      const Cost* row = t + static_cast<std::size_t>(a) * kv;
      for (Strategy b = 0; b < kv; ++b)
        left[static_cast<std::size_t>(a) * kv + b] =
            scale * row[b] - to_u[a] - to_v[b] - row_least[a] - column[b];
    }
  }
  Total bound = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g)
    bound += *std::min_element(node.begin() + static_cast<std::ptrdiff_t>(begin[g]),
                               node.begin() + static_cast<std::ptrdiff_t>(begin[g + 1]));
  const Total constant = lambda.empty() ? 0 : -prefix.back() * Total{p.usage_limit().value_or(0)};
  bound += constant;
  if (out != nullptr) {
    out->scale = scale;
    out->node_begin = std::move(begin);
    out->node = std::move(node);
    out->constant = constant;
  }
  return ceil_div(bound, scale);  // costs are integers
}

BoundEngine::BoundEngine(const Reduced& r, const CostNetwork& network, const BoundOptions& o)
    : r_(r),
      o_(o),
      net_(network),
      trws_(net_),
      cap_(static_cast<double>(certify_cap(r)) / std::ldexp(1.0, o.scale_bits)),
      best_(kNoBound),
      factor_(o.step) {
  if (r.original().usage_limit()) lambda_.assign(r.original().num_segments(), 0.0);
}

void BoundEngine::set_multipliers(const std::vector<double>& lambda) {
  if (lambda.size() != lambda_.size()) return;
  const double scale = std::ldexp(1.0, o_.scale_bits);
  double sum = 0;
  for (std::size_t t = 0; t < lambda.size(); ++t) {
    lambda_[t] = std::floor(std::max(0.0, lambda[t]) * scale) / scale;  // on the grid
    sum += lambda_[t];
  }
  if (sum > cap_)
    for (double& l : lambda_) l = std::floor(l * cap_ / sum * scale) / scale;
}

void BoundEngine::price() {
  if (lambda_.empty()) return;  // no limit: the network's own costs
  std::vector<double> w;
  member_time_weights(r_, lambda_, w);
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g) {
    double* u = net_.unary(g);
    for (Strategy s = 0; s < r_.strategies(g); ++s)
      u[s] = std::min(static_cast<double>(r_.costs(g)[s]), kInfinite);
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      if (w[mi] == 0) continue;
      for (Strategy s = 0; s < r_.strategies(g); ++s)
        u[s] += w[mi] * static_cast<double>(r_.member_usage(mi, s));
    }
  }
}

Reparametrisation BoundEngine::best_reparametrisation() const {
  Reparametrisation out;
  if (steps_ == 0) return out;
  certify(r_, best_lambda_, best_msg_, o_.scale_bits, &out);
  return out;
}

Total BoundEngine::certify_now() {
  const double scale = std::ldexp(1.0, o_.scale_bits);
  std::vector<Total> lambda(lambda_.size());
  for (std::size_t t = 0; t < lambda_.size(); ++t) lambda[t] = to_integer(lambda_[t] * scale);
  const std::vector<double> m = trws_.reparametrisation();
  std::vector<Total> msg(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) msg[i] = to_integer(m[i] * scale);
  // A bound on the reduced problem bounds the input's optimum over the assignments without
  // a forbidden pick (presolve removes only strategies those never need); one with forbidden
  // picks costs at least 10^18, so the bound, capped there, bounds every optimum.
  const Total bound = certify(r_, lambda, msg, o_.scale_bits);
  if (bound > best_) {
    best_lambda_ = std::move(lambda);
    best_msg_ = std::move(msg);
  }
  return std::min<Total>(bound, kForbidden);
}

Total BoundEngine::step(std::optional<Total> upper, const StopControl* stop) {
  price();
  for (int it = 0; it < o_.iterations; ++it) trws_.iterate(stop);
  const Total bound = certify_now();
  x_ = trws_.round();
  net_.descend(x_, 2);
  work_ = static_cast<std::uint64_t>(2 * o_.iterations + 6) *
          (net_.unary_size() + net_.table_size() + r_.num_members());
  ++steps_;
  if (bound > best_) {
    best_ = bound;
    since_best_ = 0;
  } else {
    ++since_best_;
  }
  // The step's target: the best cost known, but at most bound.target-above times the bound
  // above it (a
  // poor first answer, one with forbidden picks on M, made the first steps throw the
  // multipliers far off: the bound fell from 0.58 of the best cost to -0.01).
  const double above = o_.target_above * std::fabs(static_cast<double>(bound));
  Total target = bound + std::max<Total>(1, static_cast<Total>(std::min(above, 1e36)));
  if (upper && *upper < target) target = *upper;
  move_multipliers(target, bound);
  return bound;
}

// Projected subgradient step: lambda_t += factor * (target - bound) / |g|^2 * g_t with
// g_t = usage_t(x) - limit of the priced labelling, then back to >= 0 and onto the grid.
void BoundEngine::move_multipliers(Total target, Total bound) {
  const Problem& p = r_.original();
  std::vector<Total> usage(p.num_segments() + 1, 0);  // differences, then per segment
  for (std::uint32_t g = 0; g < r_.num_nodes(); ++g)
    for (std::size_t mi = r_.member_begin(g); mi < r_.member_begin(g + 1); ++mi) {
      const NodeId v = r_.member_node(mi);
      if (!p.has_memory(v)) continue;
      usage[p.seg_lo(v)] += r_.member_usage(mi, x_[g]);
      usage[p.seg_hi(v)] -= r_.member_usage(mi, x_[g]);
    }
  const Total limit = p.usage_limit().value_or(0);
  fits_ = true;
  Total running = 0;
  double norm = 0;
  std::vector<double> sub(lambda_.size(), 0.0);
  for (std::size_t t = 0; t < p.num_segments(); ++t) {
    running += usage[t];
    if (running > limit) fits_ = false;
    if (lambda_.empty()) continue;
    sub[t] = static_cast<double>(running - limit);
    if (lambda_[t] > 0 || sub[t] > 0) norm += sub[t] * sub[t];
  }
  if (since_best_ >= static_cast<std::uint64_t>(o_.patience)) {
    factor_ /= 2;
    since_best_ = 0;
    if (factor_ < o_.min_step) factor_ = o_.step;
  }
  if (lambda_.empty() || norm == 0 || target <= bound) return;
  const double alpha = factor_ * static_cast<double>(target - bound) / norm;
  std::vector<double> next(lambda_.size());
  for (std::size_t t = 0; t < lambda_.size(); ++t) next[t] = lambda_[t] + alpha * sub[t];
  set_multipliers(next);
}

}  // namespace iopddl
