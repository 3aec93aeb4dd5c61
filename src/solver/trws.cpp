#include "trws.hpp"

#include <algorithm>
#include <limits>

#include "iopddl/stop.hpp"

namespace iopddl {

namespace {
constexpr double kInf = 1e18;
}

Trws::Trws(const Reduced& r) : r_(r) {
  const std::size_t n = r.num_nodes();
  ubegin_.assign(n + 1, 0);
  for (std::uint32_t g = 0; g < n; ++g) ubegin_[g + 1] = ubegin_[g] + r.strategies(g);
  unary_.assign(ubegin_[n], 0.0);
  tbegin_.assign(r.num_edges() + 1, 0);
  mbegin_.assign(r.num_edges() + 1, 0);
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const std::size_t ku = r.strategies(r.edge_u(e)), kv = r.strategies(r.edge_v(e));
    tbegin_[e + 1] = tbegin_[e] + ku * kv;
    mbegin_[e + 1] = mbegin_[e] + ku + kv;
  }
  table_.resize(tbegin_.back());
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const Cost* t = r.table(e);
    for (std::size_t i = 0; i < tbegin_[e + 1] - tbegin_[e]; ++i)
      table_[tbegin_[e] + i] = std::min(static_cast<double>(t[i]), kInf);
  }
  msg_.assign(mbegin_.back(), 0.0);
  gamma_.resize(n);
  for (std::uint32_t g = 0; g < n; ++g) {
    std::size_t before = 0, after = 0;
    for (std::uint32_t e : r.incident(g)) (r.other(e, g) < g ? before : after)++;
    gamma_[g] = 1.0 / static_cast<double>(std::max<std::size_t>({before, after, 1}));
  }
}

void Trws::reset_messages() {
  std::fill(msg_.begin(), msg_.end(), 0.0);
}

void Trws::pass(bool forward, const StopControl* stop) {
  const auto n = static_cast<std::int64_t>(r_.num_nodes());
  std::vector<double> belief, out;
  for (std::int64_t step = 0; step < n; ++step) {
    if (stop && (step & 4095) == 4095 && stop->should_stop()) return;
    const auto i = static_cast<std::uint32_t>(forward ? step : n - 1 - step);
    const Strategy ki = r_.strategies(i);
    belief.assign(unary_.begin() + static_cast<long>(ubegin_[i]),
                  unary_.begin() + static_cast<long>(ubegin_[i + 1]));
    for (std::uint32_t e : r_.incident(i)) {
      const double* in =
          msg_.data() + mbegin_[e] + (r_.edge_u(e) == i ? 0 : r_.strategies(r_.edge_u(e)));
      for (Strategy s = 0; s < ki; ++s) belief[s] += in[s];
    }
    const double g = gamma_[i];
    for (std::uint32_t e : r_.incident(i)) {
      const std::uint32_t j = r_.other(e, i);
      if (forward ? j < i : j > i) continue;
      const bool i_is_u = r_.edge_u(e) == i;
      const Strategy kj = r_.strategies(j);
      const std::size_t ku = r_.strategies(r_.edge_u(e));
      double* to_i = msg_.data() + mbegin_[e] + (i_is_u ? 0 : ku);
      double* to_j = msg_.data() + mbegin_[e] + (i_is_u ? ku : 0);
      const double* t = table_.data() + tbegin_[e];
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

void Trws::iterate(const StopControl* stop) {
  pass(true, stop);
  pass(false, stop);
}

std::vector<Strategy> Trws::round() const {
  const std::size_t n = r_.num_nodes();
  std::vector<Strategy> x(n, 0);
  std::vector<double> score;
  for (std::uint32_t i = 0; i < n; ++i) {
    const Strategy ki = r_.strategies(i);
    score.assign(unary_.begin() + static_cast<long>(ubegin_[i]),
                 unary_.begin() + static_cast<long>(ubegin_[i + 1]));
    for (std::uint32_t e : r_.incident(i)) {
      const std::uint32_t j = r_.other(e, i);
      const bool i_is_u = r_.edge_u(e) == i;
      if (j < i) {  // labelled: the exact pairwise cost
        const double* t = table_.data() + tbegin_[e];
        const Strategy kj = r_.strategies(j);
        for (Strategy s = 0; s < ki; ++s)
          score[s] += i_is_u ? t[static_cast<std::size_t>(s) * kj + x[j]]
                             : t[static_cast<std::size_t>(x[j]) * ki + s];
      } else {
        const double* in = msg_.data() + mbegin_[e] + (i_is_u ? 0 : r_.strategies(r_.edge_u(e)));
        for (Strategy s = 0; s < ki; ++s) score[s] += in[s];
      }
    }
    x[i] = static_cast<Strategy>(std::min_element(score.begin(), score.end()) - score.begin());
  }
  return x;
}

}  // namespace iopddl
