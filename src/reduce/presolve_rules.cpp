// The presolve rules that judge strategies and tables: forbidden (to a fixpoint),
// dominated, functional (a fold), and the tables' row and column minima.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "reduced_builder.hpp"

namespace iopddl::inline v0 {

using presolve::sat_add;
using presolve::saturate;

bool ReducedBuilder::find_dead(const Reduced& r, std::vector<std::vector<char>>& dead,
                               StopPoll& stop) {
  const std::size_t n = r.num_nodes();
  dead.assign(n, {});
  for (std::uint32_t g = 0; g < n; ++g) {
    dead[g].assign(static_cast<std::size_t>(r.k_[g]), 0);
    for (Strategy s = 0; s < r.k_[g]; ++s) dead[g][s] = is_forbidden(r.costs(g)[s]);
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
      poll(stop);
      const std::uint32_t x = r.eu_[e], y = r.ev_[e];
      const Cost* t = r.table(e);
      const Strategy kx = r.k_[x], ky = r.k_[y];
      for (Strategy sx = 0; sx < kx; ++sx) {
        if (dead[x][sx]) continue;
        bool any = false;
        for (Strategy sy = 0; sy < ky && !any; ++sy)
          any = !dead[y][sy] && !is_forbidden(t[static_cast<std::size_t>(sx) * ky + sy]);
        if (!any) dead[x][sx] = changed = true;
      }
      for (Strategy sy = 0; sy < ky; ++sy) {
        if (dead[y][sy]) continue;
        bool any = false;
        for (Strategy sx = 0; sx < kx && !any; ++sx)
          any = !dead[x][sx] && !is_forbidden(t[static_cast<std::size_t>(sx) * ky + sy]);
        if (!any) dead[y][sy] = changed = true;
      }
    }
  }
  for (std::uint32_t g = 0; g < n; ++g)
    if (std::count(dead[g].begin(), dead[g].end(), 0) == 0) return false;
  return true;
}

std::size_t ReducedBuilder::find_dominated(const Reduced& r, std::vector<std::vector<char>>& gone,
                                           std::size_t budget, StopPoll& stop) {
  std::size_t pairs = budget;
  const Problem& p = *r.p_;
  std::size_t removed = 0;
  gone.assign(r.num_nodes(), {});
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    const Strategy k = r.k_[g];
    gone[g].assign(static_cast<std::size_t>(k), 0);
    if (k < 2) continue;
    const Cost* c = r.costs(g);
    // `b` dominates `a` (a != b, neither removed).
    auto dominates = [&](Strategy b, Strategy a) {
      poll(stop);
      --pairs;
      if (c[b] > c[a]) return false;
      bool strict = c[b] < c[a];
      for (std::size_t mi = r.member_begin_[g]; mi < r.member_begin_[g + 1]; ++mi) {
        if (!p.has_memory(r.member_[mi])) continue;
        const Usage ua = r.member_usage(mi, a), ub = r.member_usage(mi, b);
        if (ub > ua) return false;
        strict = strict || ub < ua;
      }
      for (std::uint32_t e : r.incident(g)) {
        const std::uint32_t o = r.other(e, g);
        for (Strategy t = 0; t < r.k_[o]; ++t) {
          if (budget == 0) return false;
          --budget;
          const Cost ea = r.slice(e, g, t)[a], eb = r.slice(e, g, t)[b];
          if (eb > ea) return false;
          strict = strict || eb < ea;
        }
      }
      return strict || b < a;
    };
    for (Strategy a = 0; a < k && pairs > 0; ++a)
      for (Strategy b = 0; b < k && !gone[g][a] && pairs > 0; ++b)
        if (b != a && !gone[g][b] && dominates(b, a)) {
          gone[g][a] = 1;
          ++removed;
        }
  }
  return removed;
}

std::size_t ReducedBuilder::move_minima(Reduced& r) {
  std::size_t changed = 0;
  for (std::uint32_t e = 0; e < r.num_edges(); ++e) {
    const std::uint32_t x = r.eu_[e], y = r.ev_[e];
    const Strategy kx = r.k_[x], ky = r.k_[y];
    Cost* t = r.table_.data() + r.table_begin_[e];
    bool any = false;
    auto shift = [&](Strategy count, Strategy len, std::size_t step, std::size_t stride,
                     Cost* costs) {
      for (Strategy i = 0; i < count; ++i) {
        Cost m = kForbidden;
        for (Strategy j = 0; j < len; ++j) m = std::min(m, t[i * step + j * stride]);
        if (m == 0 || is_forbidden(m) || is_forbidden(costs[i])) continue;
        for (Strategy j = 0; j < len; ++j) {
          Cost& v = t[i * step + j * stride];
          v = sat_add(v, -m);
        }
        costs[i] = sat_add(costs[i], m);
        any = true;
      }
    };
    shift(kx, ky, ky, 1, r.cost_.data() + r.cost_begin_[x]);
    shift(ky, kx, 1, ky, r.cost_.data() + r.cost_begin_[y]);
    changed += any;
  }
  return changed;
}

bool ReducedBuilder::functional(const Reduced& r, std::uint32_t e, bool u_to_v,
                                std::vector<Strategy>& f) {
  const std::uint32_t x = r.eu_[e], y = r.ev_[e];
  const Strategy kx = r.k_[x], ky = r.k_[y];
  const Cost* t = r.table(e);
  const Strategy kf = u_to_v ? kx : ky, kt = u_to_v ? ky : kx;
  f.assign(static_cast<std::size_t>(kf), -1);
  for (Strategy a = 0; a < kf; ++a)
    for (Strategy b = 0; b < kt; ++b) {
      const Strategy sx = u_to_v ? a : b, sy = u_to_v ? b : a;
      if (is_forbidden(t[static_cast<std::size_t>(sx) * ky + sy])) continue;
      if (f[a] != -1) return false;
      f[a] = b;
    }
  return std::find(f.begin(), f.end(), -1) == f.end();
}

}  // namespace iopddl::inline v0
