#include "soft_budget.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>
#include <string>

#include "iopddl/evaluate.hpp"
#include "limit_solve.hpp"

namespace iopddl::inline v0 {
namespace {

// A solve at `limit`: it bounds every answer whose peak is at most `limit` (the solve
// without a limit stands at the highest peak any answer has).
struct Point {
  Total limit;
  LimitSolve solve;
  bool exhausted = false;  // unproven and nothing left between it and the point below
};

std::string text(long double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17Lg", x);
  return buffer;
}

class SoftSearch {
 public:
  SoftSearch(const Problem& p, const SoftBudget& soft, const SolverOptions& o,
             const StopControl& stop, IncumbentStore& store, Log& log)
      : p_(p), soft_(soft), o_(o), stop_(stop), store_(store), log_(log) {}

  SoftOutcome run(std::span<const Strategy> hint) {
    const Total least = least_peak(p_), most = most_peak(p_);
    least_ = least;
    const Total first = std::max<Total>(soft_.budget, least);
    const double total = total_ = stop_.seconds_left();
    if (soft_.coeff == 0 || most <= first) {
      // No overrun costs anything, or none is possible: one solve, all of the time.
      const auto limit = soft_.coeff == 0 ? std::nullopt : std::optional<Usage>(first);
      add(0, most, solve(limit, total, hint));
    } else {
      add(0, first, solve(static_cast<Usage>(first), total * o_.soft.first_share, hint));
      add(1, most, solve(std::nullopt, total * o_.soft.top_share, best_hint()));
      while (!stop_.should_stop() && !last_ && probe()) {
      }
    }
    finish();
    return out_;
  }

 private:
  LimitSolve solve(std::optional<Usage> limit, double seconds, std::span<const Strategy> hint) {
    // Every improvement of the solve is weighed as it comes, so that the run's store (which
    // a signal prints) always holds the best answer found so far.
    LimitSolve s = solve_at_limit(p_, limit, o_, stop_, seconds, log_, hint,
                                  [&](const Improvement& i, const std::vector<Strategy>& a) {
                                    // (The penalty is never negative: a cost that cannot
                                    // win alone needs no evaluation of its peak.)
                                    if (could_win(i.cost))
                                      consider(a, i.cost, evaluate(p_, a).peak_usage);
                                  });
    ++out_.solves;
    if (s.has) {
      log_.info("soft budget: limit %s: cost %s, peak %s, objective %s%s",
                limit ? std::to_string(*limit).c_str() : "none", to_string(s.cost).c_str(),
                to_string(s.peak).c_str(),
                text(static_cast<long double>(s.cost) + overrun_penalty(soft_, s.peak)).c_str(),
                s.proven ? " (proven at this limit)" : "");
      consider(s.assignment, s.cost, s.peak);
    }
    return s;
  }

  // An answer of cost `cost` peaking at `peak`: kept if its objective is the best so far.
  bool could_win(Total cost) {
    std::lock_guard lock(mutex_);
    return !out_.has || static_cast<long double>(cost) < out_.objective;
  }

  void consider(const std::vector<Strategy>& a, Total cost, Total peak) {
    const long double f = static_cast<long double>(cost) + overrun_penalty(soft_, peak);
    std::lock_guard lock(mutex_);  // (the solvers' threads call it too)
    if (out_.has && !(f < out_.objective)) return;
    out_.has = true;
    out_.assignment = a;
    out_.cost = cost;
    out_.peak = peak;
    out_.objective = f;
    store_.offer(a, static_cast<Total>(std::llround(f)), "soft budget");
  }

  void add(std::size_t at, Total limit, LimitSolve s) {
    points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(at), Point{limit, std::move(s)});
  }

  std::span<const Strategy> best_hint() const {
    return out_.has ? std::span<const Strategy>(out_.assignment) : std::span<const Strategy>();
  }

  // The peaks range (points_[i-1].limit, hi] still open below point i, and its bound.
  struct Range {
    Total lo, hi;
    long double bound;
  };
  std::optional<Range> range(std::size_t i) const {
    const Point& q = points_[i];
    const Total lo = points_[i - 1].limit;
    if (q.solve.infeasible) return std::nullopt;  // nothing fits at all up to q's limit
    const Total hi = q.solve.proven ? q.solve.peak - 1 : q.limit;
    if (hi <= lo) return std::nullopt;
    // (A bound at a higher limit holds at a lower one too: less memory never costs less.)
    Total at_limit = 0;
    for (std::size_t j = i; j < points_.size(); ++j)
      at_limit = std::max(at_limit, points_[j].solve.bound);
    const long double bound = static_cast<long double>(at_limit) + overrun_penalty(soft_, lo + 1);
    if (out_.has && bound >= out_.objective) return std::nullopt;
    return Range{lo, hi, bound};
  }

  // Solves within the open range of least bound; false when none is left.
  bool probe() {
    std::size_t pick = 0;
    std::optional<Range> best;
    for (std::size_t i = 1; i < points_.size(); ++i) {
      const auto r = range(i);
      if (r && !points_[i].exhausted && (!best || r->bound < best->bound)) {
        best = r;
        pick = i;
      }
    }
    if (!best) return false;
    Point& q = points_[pick];
    // The middle of the range: with proven solves this ends at the exact optimum too, in
    // far fewer solves than a walk down the frontier one point at a time.
    const Total limit = best->lo + (best->hi - best->lo + 1) / 2;
    if (limit == q.limit) {  // unproven, and no limit between: nothing more to learn here
      q.exhausted = true;
      return true;
    }
    const Point& below = points_[pick - 1];
    // The last solve (by count, or because a share of what is left would be too short to
    // find anything) takes all that is left.
    double seconds = stop_.seconds_left() * o_.soft.probe_share;
    if (out_.solves + 1 >= o_.soft.max_solves || seconds < total_ * o_.soft.min_probe_share) {
      seconds = stop_.seconds_left();
      last_ = true;
    }
    const auto hint = below.solve.has ? std::span<const Strategy>(below.solve.assignment)
                                      : std::span<const Strategy>();
    LimitSolve s = solve(static_cast<Usage>(limit), seconds, hint);
    add(pick, limit, std::move(s));
    return true;
  }

  void finish() {
    // Answers peaking at most at the first limit: at least its bound, and the least peak's
    // penalty; every range still open: its own bound.
    const LimitSolve& first = points_.front().solve;
    long double bound =
        first.infeasible ? HUGE_VALL
                         : static_cast<long double>(first.bound) + overrun_penalty(soft_, least_);
    for (std::size_t i = 1; i < points_.size(); ++i)
      if (const auto r = range(i)) bound = std::min(bound, r->bound);
    if (out_.has) bound = std::min(bound, out_.objective);
    out_.bound = bound;
    out_.proven = out_.has && bound >= out_.objective;
    log_.info("soft budget: %d solves; best objective %s at peak %s (budget %s), bound %s%s",
              out_.solves, out_.has ? text(out_.objective).c_str() : "none",
              to_string(out_.peak).c_str(), std::to_string(soft_.budget).c_str(),
              text(out_.bound).c_str(), out_.proven ? ", proven optimal" : "");
  }

  const Problem& p_;
  const SoftBudget& soft_;
  const SolverOptions& o_;
  const StopControl& stop_;
  IncumbentStore& store_;
  Log& log_;
  Total least_ = 0;
  std::mutex mutex_;           // guards out_'s answer while a solve runs
  double total_ = 0;           // seconds the whole search had
  bool last_ = false;          // the last solve has run
  std::vector<Point> points_;  // by limit
  SoftOutcome out_;
};

}  // namespace

SoftOutcome solve_soft_budget(const Problem& problem, const SoftBudget& soft,
                              const SolverOptions& options, const StopControl& stop,
                              IncumbentStore& store, Log& log, std::span<const Strategy> hint) {
  return SoftSearch(problem, soft, options, stop, store, log).run(hint);
}

}  // namespace iopddl::inline v0
