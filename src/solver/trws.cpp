#include "trws.hpp"

#include <algorithm>
#include <limits>

#include "iopddl/stop.hpp"

namespace iopddl {

namespace {
constexpr double kInf = 1e18;
}

Trws::Trws(const CostNetwork& net) : net_(net) {
  const std::size_t n = net.num_nodes();
  mbegin_.assign(net.num_edges() + 1, 0);
  for (std::uint32_t e = 0; e < net.num_edges(); ++e)
    mbegin_[e + 1] = mbegin_[e] + net.strategies(net.edge_u(e)) + net.strategies(net.edge_v(e));
  msg_.assign(mbegin_.back(), 0.0);
  gamma_.resize(n);
  for (std::uint32_t g = 0; g < n; ++g) {
    std::size_t before = 0, after = 0;
    for (std::uint32_t e : net.incident(g)) (net.other(e, g) < g ? before : after)++;
    gamma_[g] = 1.0 / static_cast<double>(std::max<std::size_t>({before, after, 1}));
  }
}

void Trws::reset_messages() {
  std::fill(msg_.begin(), msg_.end(), 0.0);
}

void Trws::pass(bool forward, const StopControl* stop) {
  const auto n = static_cast<std::int64_t>(net_.num_nodes());
  std::vector<double> belief, out;
  for (std::int64_t step = 0; step < n; ++step) {
    if (stop && (step & 4095) == 4095 && stop->should_stop()) return;
    const auto i = static_cast<std::uint32_t>(forward ? step : n - 1 - step);
    const Strategy ki = net_.strategies(i);
    belief.resize(static_cast<std::size_t>(ki));
    node_belief(i, belief.data());
    const double g = gamma_[i];
    for (std::uint32_t e : net_.incident(i)) {
      const std::uint32_t j = net_.other(e, i);
      if (forward ? j < i : j > i) continue;
      const bool i_is_u = net_.edge_u(e) == i;
      const Strategy kj = net_.strategies(j);
      const std::size_t ku = net_.strategies(net_.edge_u(e));
      double* to_i = msg_.data() + mbegin_[e] + (i_is_u ? 0 : ku);
      double* to_j = msg_.data() + mbegin_[e] + (i_is_u ? ku : 0);
      const double* t = net_.table(e);
      // a(s_i) = gamma * belief(s_i) - message into i along e
      out.assign(static_cast<std::size_t>(kj), std::numeric_limits<double>::infinity());
      if (i_is_u) {
        for (Strategy si = 0; si < ki; ++si) {
          const double a = g * belief[si] - to_i[si];
          const double* row = t + static_cast<std::size_t>(si) * kj;
          for (Strategy sj = 0; sj < kj; ++sj) out[sj] = std::min(out[sj], a + row[sj]);
        }
      } else {
        for (Strategy sj = 0; sj < kj; ++sj) {
          const double* row = t + static_cast<std::size_t>(sj) * ki;
          double m = std::numeric_limits<double>::infinity();
          for (Strategy si = 0; si < ki; ++si) m = std::min(m, g * belief[si] - to_i[si] + row[si]);
          out[sj] = m;
        }
      }
      double m = *std::min_element(out.begin(), out.end());
      if (!(m < kInf * 4)) m = 0;
      for (Strategy sj = 0; sj < kj; ++sj) to_j[sj] = std::min(out[sj] - m, kInf);
    }
  }
}

void Trws::node_belief(std::uint32_t i, double* out) const {
  const Strategy k = net_.strategies(i);
  std::copy(net_.unary(i), net_.unary(i) + k, out);
  for (std::uint32_t e : net_.incident(i)) {
    const double* m = in(e, i);
    for (Strategy s = 0; s < k; ++s) out[s] += m[s];
  }
}

void Trws::iterate(const StopControl* stop) {
  pass(true, stop);
  pass(false, stop);
}

std::vector<Strategy> Trws::round() const {
  const std::size_t n = net_.num_nodes();
  std::vector<Strategy> x(n, 0);
  std::vector<double> score;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Strategy ki = net_.strategies(i);
    score.assign(net_.unary(i), net_.unary(i) + ki);
    for (std::uint32_t e : net_.incident(i)) {
      const std::uint32_t j = net_.other(e, i);
      const bool i_is_u = net_.edge_u(e) == i;
      if (j < i) {  // labelled: the exact pairwise cost
        const double* t = net_.table(e);
        const Strategy kj = net_.strategies(j);
        for (Strategy s = 0; s < ki; ++s)
          score[s] += i_is_u ? t[static_cast<std::size_t>(s) * kj + x[j]]
                             : t[static_cast<std::size_t>(x[j]) * ki + s];
      } else {
        const double* m = in(e, i);
        for (Strategy s = 0; s < ki; ++s) score[s] += m[s];
      }
    }
    x[i] = static_cast<Strategy>(std::min_element(score.begin(), score.end()) - score.begin());
  }
  return x;
}

double Trws::lower_bound() const {
  // The reparametrisation: node costs plus incoming messages, edge tables minus the
  // messages they sent. Then each table's row minima are pushed into its first end and its
  // column minima into its second end (a block step of the local LP's dual, which never
  // lowers the bound); the bound is the sum of the node minima and the table minima.
  std::vector<double> node(net_.unary_size());
  for (std::uint32_t i = 0; i < net_.num_nodes(); ++i)
    node_belief(i, node.data() + net_.unary_begin(i));
  double bound = 0;
  std::vector<double> t;
  for (std::uint32_t e = 0; e < net_.num_edges(); ++e) {
    const std::uint32_t u = net_.edge_u(e), v = net_.edge_v(e);
    const Strategy ku = net_.strategies(u), kv = net_.strategies(v);
    const double *mu = in(e, u), *mv = in(e, v);
    t.assign(net_.table(e), net_.table(e) + static_cast<std::size_t>(ku) * kv);
    for (Strategy a = 0; a < ku; ++a)
      for (Strategy b = 0; b < kv; ++b) t[static_cast<std::size_t>(a) * kv + b] -= mu[a] + mv[b];
    double* nu = node.data() + net_.unary_begin(u);
    double* nv = node.data() + net_.unary_begin(v);
    for (Strategy a = 0; a < ku; ++a) {
      double* row = t.data() + static_cast<std::size_t>(a) * kv;
      const double r = *std::min_element(row, row + kv);
      for (Strategy b = 0; b < kv; ++b) row[b] -= r;
      nu[a] += r;
    }
    for (Strategy b = 0; b < kv; ++b) {
      double r = std::numeric_limits<double>::infinity();
      for (Strategy a = 0; a < ku; ++a) r = std::min(r, t[static_cast<std::size_t>(a) * kv + b]);
      nv[b] += r;  // the table's minimum is now 0
    }
  }
  for (std::uint32_t i = 0; i < net_.num_nodes(); ++i) {
    const double* b = node.data() + net_.unary_begin(i);
    bound += *std::min_element(b, b + net_.strategies(i));
  }
  return bound;
}

}  // namespace iopddl
