// Helpers for tests: random tiny problems, brute force and running the binary.
#pragma once

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "iopddl/evaluate.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/rng.hpp"
#include "iopddl/solve.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {
class Reduced;
}

namespace iopddl::inline v0::test {

// A clock the test moves: by hand, or by a fixed step at every reading.
class TestTime final : public TimeSource {
 public:
  explicit TestTime(std::chrono::microseconds step = {}) : step_(step) {}
  Clock::time_point now() const override {
    return Clock::time_point(Clock::duration(ticks_.fetch_add(step_.count()) + step_.count()) *
                             1000);
  }
  void advance(double seconds) { ticks_ += static_cast<long long>(seconds * 1e6); }

 private:
  std::chrono::microseconds step_;
  mutable std::atomic<long long> ticks_{0};  // microseconds since the epoch of Clock
};

struct TinySpec {
  int nodes = 5;
  int edges = 6;
  int max_strategies = 3;
  Cost max_cost = 100;
  Usage max_usage = 20;
  double forbidden_share = 0.1;  // share of edge entries set to 10^18
  double empty_interval_share = 0.2;
  bool huge_values = false;   // costs and usages near 2^62 (sums overflow int64)
  double limit_factor = 1.1;  // limit = factor * least-memory peak (<= 0: no limit)
};

Problem random_problem(Rng& rng, const TinySpec& spec);

// Every assignment, in lexicographic order (for brute force on tiny problems).
void for_each_assignment(const Problem& p,
                         const std::function<void(const std::vector<Strategy>&)>& f);
// The same for the groups of a reduced problem.
void for_each_reduced_assignment(const Reduced& r,
                                 const std::function<void(const std::vector<Strategy>&)>& f);
// A reduced assignment's cost in the reduced problem (whose sums saturate as presolve's do)
// and its usage at time segment t, summed plainly.
Total reduced_cost(const Reduced& r, const std::vector<Strategy>& x);
Total segment_usage(const Reduced& r, const std::vector<Strategy>& x, std::size_t t);

// The cheapest feasible assignment by enumeration (nullopt if none is feasible); with
// `forbidden_free`, only among assignments that pick no forbidden (10^18) entry.
std::optional<Total> brute_force_optimum(const Problem& p, bool forbidden_free = false);

// A solver run checked by the reference evaluator: when there is an answer, it must be
// feasible and the store's cost exact.
struct Outcome {
  SolveResult result;
  std::optional<Total> cost;
  std::vector<Strategy> assignment;
  std::size_t forbidden_picks = 0;
  std::optional<Total> bound;  // the store's certified bound
};
Outcome solve_checked(const Problem& p, const SolverOptions& o);
// Deterministic options for tests: bounded by `millions` of work units per worker.
SolverOptions deterministic_options(std::uint64_t millions, int threads = 2);

// Path of a file in the source tree (test data, examples).
std::string source_path(const std::string& relative);

}  // namespace iopddl::inline v0::test

namespace doctest {
template <>
struct StringMaker<iopddl::Total> {
  static String convert(iopddl::Total v) { return iopddl::to_string(v).c_str(); }
};
}  // namespace doctest
