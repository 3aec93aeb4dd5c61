#include "memory_lp.hpp"

#include <algorithm>
#include <cmath>
#include <coin/ClpEventHandler.hpp>
#include <coin/ClpSimplex.hpp>
#include <coin/CoinPackedMatrix.hpp>

#include "iopddl/stop.hpp"
#include "time_prices.hpp"

namespace iopddl::inline v0 {
namespace {

// Ends a solve once the stop control says stop (looked at every simplex iteration). CLP
// keeps a clone of it, so the stop control is reached through a slot the solve fills in.
class StopHandler : public ClpEventHandler {
 public:
  explicit StopHandler(const StopControl* const* slot) : slot_(slot) {}
  int event(Event e) override {
    if (e != endOfIteration || *slot_ == nullptr) return -1;
    return (*slot_)->should_stop() ? 0 : -1;
  }
  ClpEventHandler* clone() const override { return new StopHandler(*this); }

 private:
  const StopControl* const* slot_;
};

// Rows added per round: the segments the LP's answer overloads most. Fewer rounds of
// more rows cost more per solve; 20 took S's first solve to 4 s and later ones to 0.1-0.5 s.
constexpr std::size_t kRowsPerRound = 20;

}  // namespace

struct MemoryLp::Impl {
  const Reduced& r;
  std::size_t segments = 0;
  double limit = 0;
  std::vector<std::size_t> x_begin;  // group -> its first column
  std::vector<std::uint32_t> group_of_member;
  std::vector<std::size_t> memory_members;  // members with memory
  std::vector<bool> has_row;                // per segment
  std::vector<std::uint32_t> maximal;       // maximal_segments(): the only rows needed
  std::vector<std::uint32_t> row_segment;   // memory row -> its segment
  ClpSimplex lp;
  const StopControl* stop = nullptr;  // of the solve under way (StopHandler)
  bool solved = false;
  std::size_t nonzeros = 0;

  explicit Impl(const Reduced& red) : r(red) {}

  // Each group's costs `theta` relative to its least (the memory rows' duals do not
  // change), and capped far above it: a strategy 10^12 above its group's best is never
  // worth it, and forbidden-level costs would swamp the doubles.
  std::vector<double> relative_objective(const std::vector<double>& theta) const {
    std::vector<double> objective(theta.size(), 0.0);
    const double* upper = lp.columnUpper();
    for (std::size_t g = 0; g + 1 < x_begin.size(); ++g) {
      double least = INFINITY;
      for (std::size_t c = x_begin[g]; c < x_begin[g + 1]; ++c)
        if (upper[c] > 0) least = std::min(least, theta[c]);
      for (std::size_t c = x_begin[g]; c < x_begin[g + 1]; ++c)
        objective[c] = upper[c] > 0 ? std::min(theta[c] - least, 1e12) : 0.0;
    }
    return objective;
  }

  // Segment t's row into `rows`: each group's usage there above its least over its
  // strategies, at most limit less the least usages.
  struct Rows {
    std::vector<CoinBigIndex> start{0};
    std::vector<int> column;
    std::vector<double> value, lower, upper;
  };
  void build_row(std::uint32_t t, Rows& rows, std::vector<double>& acc, std::vector<char>& touched,
                 std::vector<std::uint32_t>& groups) const {
    const Problem& p = r.original();
    groups.clear();
    for (std::size_t mi : memory_members) {
      const NodeId v = r.member_node(mi);
      if (p.seg_lo(v) > t || t >= p.seg_hi(v)) continue;
      const std::uint32_t g = group_of_member[mi];
      if (!touched[g]) {
        touched[g] = 1;
        groups.push_back(g);
      }
      for (Strategy s = 0; s < r.strategies(g); ++s)
        acc[x_begin[g] + s] += static_cast<double>(r.member_usage(mi, s));
    }
    double least_sum = 0;
    for (std::uint32_t g : groups) {
      touched[g] = 0;
      double* a = acc.data() + x_begin[g];
      const Strategy k = r.strategies(g);
      const double least = *std::min_element(a, a + k);
      least_sum += least;
      for (Strategy s = 0; s < k; ++s) {
        if (a[s] != least) {
          rows.column.push_back(static_cast<int>(x_begin[g] + s));
          rows.value.push_back(a[s] - least);
        }
        a[s] = 0;
      }
    }
    rows.start.push_back(static_cast<CoinBigIndex>(rows.column.size()));
    rows.lower.push_back(-COIN_DBL_MAX);
    rows.upper.push_back(limit - least_sum);
  }

  // The usage per segment of the LP's (fractional) solution.
  std::vector<double> usage(const double* x) const {
    const Problem& p = r.original();
    std::vector<double> diff(segments + 1, 0.0);
    for (std::size_t mi : memory_members) {
      const std::uint32_t g = group_of_member[mi];
      double v = 0;
      for (Strategy s = 0; s < r.strategies(g); ++s)
        if (x[x_begin[g] + s] > 0)
          v += x[x_begin[g] + s] * static_cast<double>(r.member_usage(mi, s));
      diff[p.seg_lo(r.member_node(mi))] += v;
      diff[p.seg_hi(r.member_node(mi))] -= v;
    }
    double running = 0;
    for (std::size_t t = 0; t < segments; ++t) diff[t] = running += diff[t];
    diff.pop_back();
    return diff;
  }

  // The rows of the (at most kRowsPerRound) maximal segments without one that the LP's
  // answer overloads most, added to the LP. Returns false when none is overloaded.
  bool add_overloaded_rows(std::vector<double>& acc, std::vector<char>& touched,
                           std::vector<std::uint32_t>& groups) {
    const std::vector<double> use = usage(lp.primalColumnSolution());
    std::vector<std::pair<double, std::uint32_t>> over;
    for (std::uint32_t t : maximal)
      if (!has_row[t] && use[t] > limit * (1 + 1e-9)) over.push_back({use[t] - limit, t});
    if (over.empty()) return false;
    std::sort(over.rbegin(), over.rend());
    Rows rows;
    for (std::size_t i = 0; i < std::min(over.size(), kRowsPerRound); ++i) {
      build_row(over[i].second, rows, acc, touched, groups);
      has_row[over[i].second] = true;
      row_segment.push_back(over[i].second);
    }
    lp.addRows(static_cast<int>(rows.lower.size()), rows.lower.data(), rows.upper.data(),
               rows.start.data(), rows.column.data(), rows.value.data());
    nonzeros += rows.column.size();
    return true;
  }
};

MemoryLp::MemoryLp(const Reduced& r, std::size_t max_nonzeros)
    : impl_(std::make_unique<Impl>(r)), max_nonzeros_(max_nonzeros) {
  const Problem& p = r.original();
  std::size_t columns = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) columns += r.strategies(g);
  if (!p.usage_limit() || columns > max_nonzeros) return;
  Impl& m = *impl_;
  m.segments = p.num_segments();
  m.limit = static_cast<double>(*p.usage_limit());
  m.has_row.assign(m.segments, false);
  m.group_of_member.resize(r.num_members());
  m.maximal = maximal_segments(p);
  std::vector<int> row, column;
  std::vector<double> value, upper;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    m.x_begin.push_back(upper.size());
    for (Strategy s = 0; s < r.strategies(g); ++s) {
      row.push_back(static_cast<int>(g));
      column.push_back(static_cast<int>(upper.size()));
      value.push_back(1.0);
      upper.push_back(is_forbidden(r.costs(g)[s]) ? 0.0 : 1.0);
    }
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      m.group_of_member[mi] = g;
      if (p.has_memory(r.member_node(mi))) m.memory_members.push_back(mi);
    }
  }
  m.x_begin.push_back(upper.size());
  const CoinPackedMatrix matrix(true, row.data(), column.data(), value.data(),
                                static_cast<CoinBigIndex>(value.size()));
  const std::vector<double> lower(upper.size(), 0.0), zero(upper.size(), 0.0),
      one(r.num_nodes(), 1.0);
  m.lp.setLogLevel(0);
  const StopHandler handler(&m.stop);
  m.lp.passInEventHandler(&handler);
  m.lp.loadProblem(matrix, lower.data(), upper.data(), zero.data(), one.data(), one.data());
  m.nonzeros = value.size();
}

MemoryLp::~MemoryLp() = default;

bool MemoryLp::ready() const {
  return impl_->segments > 0;
}
std::size_t MemoryLp::rows() const {
  return impl_->row_segment.size();
}
std::size_t MemoryLp::nonzeros() const {
  return impl_->nonzeros;
}

MemoryLp::Outcome MemoryLp::solve(const std::vector<double>& theta, const StopControl* stop) {
  Outcome out;
  Impl& m = *impl_;
  const std::size_t columns = m.x_begin.empty() ? 0 : m.x_begin.back();
  if (!ready() || theta.size() != columns) {
    out.given_up = true;
    return out;
  }
  m.lp.chgObjCoefficients(m.relative_objective(theta).data());
  m.stop = stop;
  struct Unset {  // the stop handler looks at `stop` during this solve only
    const StopControl*& slot;
    ~Unset() { slot = nullptr; }
  } unset{m.stop};
  std::vector<double> acc(columns, 0.0);
  std::vector<char> touched(m.r.num_nodes(), 0);
  std::vector<std::uint32_t> groups;
  bool primal = m.solved;  // only the costs changed: the last basis is still primal feasible
  for (;;) {
    if (primal)
      m.lp.primal();
    else
      m.lp.dual();
    if (m.lp.status() != 0) {
      // Stopped by the stop control (5), or failed: infeasible rows (no assignment fits
      // the limit), numerical trouble.
      out.given_up = m.lp.status() != 5;
      m.solved = false;
      return out;
    }
    m.solved = true;
    if (!m.add_overloaded_rows(acc, touched, groups)) break;
    if (m.nonzeros > max_nonzeros_) {
      out.given_up = true;
      return out;
    }
    primal = false;  // new rows: the basis stays dual feasible
  }
  const double* dual = m.lp.dualRowSolution();
  std::vector<double> lambda(m.segments, 0.0);
  const std::size_t first = m.r.num_nodes();  // the memory rows follow the group rows
  for (std::size_t i = 0; i < m.row_segment.size(); ++i)
    lambda[m.row_segment[i]] = std::max(0.0, -dual[first + i]);
  out.lambda = std::move(lambda);
  return out;
}

}  // namespace iopddl::inline v0
