// The library's public face: build a problem, solve it, read the answer. Everything a
// program that links iopddl::iopddl needs is declared here or in the headers it includes.
//
//   iopddl::ModelBuilder b("mine");
//   b.set_usage_limit(100);
//   auto x = b.add_node({10, 20}, {60, 30}, 0, 4);   // costs, usages, live over [0, 4)
//   auto y = b.add_node({5, 1}, {50, 50}, 2, 6);
//   b.add_edge(x, y, {0, 7, 7, 0});                  // row-major: x's strategy major
//   iopddl::Problem p = std::move(b).build();
//   iopddl::RunOptions o;
//   o.time_limit = 2;
//   iopddl::RunResult r = iopddl::solve(p, o);       // r.assignment, r.cost, r.status
//
// No global state: any number of solves may run at once, each on its own threads. Nothing
// is printed unless RunOptions::log names a stream.
#pragma once

#include <atomic>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "iopddl/cost_scale.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/export.hpp"
#include "iopddl/io.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/result.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

// The library's version, as "major.minor.patch".
IOPDDL_API const char* version();

// Builds a Problem element by element, checking each as it comes: a bad element throws
// InputError naming it ("node 3: ...", "edge 7 (2-5): ..."), and the builder stays usable
// (the element is not added). Nodes are numbered from 0 in the order they are added.
class IOPDDL_API ModelBuilder {
 public:
  explicit ModelBuilder(std::string name = "problem");
  // The memory limit: every time point's summed usage of live nodes at most this (nullopt:
  // none). Must be non-negative.
  void set_usage_limit(std::optional<Usage> limit);
  // A node with one strategy per entry of `costs` (at least one; `usages` as long, each
  // non-negative), live on the half-open time interval [lo, hi) (empty when lo >= hi: it
  // then uses no memory). Costs of 10^18 or more forbid the strategy.
  NodeId add_node(std::span<const Cost> costs, std::span<const Usage> usages, std::int64_t lo = 0,
                  std::int64_t hi = 0);
  NodeId add_node(std::initializer_list<Cost> costs, std::initializer_list<Usage> usages,
                  std::int64_t lo = 0, std::int64_t hi = 0) {
    return add_node(std::span<const Cost>(costs.begin(), costs.size()),
                    std::span<const Usage>(usages.begin(), usages.size()), lo, hi);
  }
  // An edge between two nodes added before it, with one cost per pair of their strategies,
  // row-major with u's strategy as the major index (strategies(u) x strategies(v) entries).
  EdgeId add_edge(NodeId u, NodeId v, std::span<const Cost> costs);
  EdgeId add_edge(NodeId u, NodeId v, std::initializer_list<Cost> costs) {
    return add_edge(u, v, std::span<const Cost>(costs.begin(), costs.size()));
  }
  std::size_t num_nodes() const { return builder_.num_nodes(); }
  std::size_t num_edges() const { return edges_; }
  Strategy strategies(NodeId v) const { return builder_.strategies(v); }
  // The problem; the builder is spent.
  Problem build() &&;

 private:
  ProblemBuilder builder_;
  std::size_t edges_ = 0;
};

// A cancellation handle: copies share one flag, so a copy kept by another thread (or a
// signal's watcher) stops the solve that was given the original. Cancelling ends the solve
// at its next poll (milliseconds); the best answer found so far is returned.
class IOPDDL_API Cancellation {
 public:
  Cancellation() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() const { flag_->store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_->load(std::memory_order_relaxed); }
  const std::atomic<bool>* flag() const { return flag_.get(); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

// A better answer than any before it in this solve.
struct IOPDDL_API Progress {
  double seconds;                        // since the solve started
  Total cost;                            // its exact cost
  std::string source;                    // which component found it
  std::span<const Strategy> assignment;  // valid during the call only
};
// Called on each improvement, from a solver thread, one call at a time and with strictly
// decreasing costs. Keep it short: the thread that found the answer waits for it. An
// exception thrown by it cancels the solve and is rethrown by solve().
using ImprovementCallback = std::function<void(const Progress&)>;
// Called on each better certified bound (Improvement: seconds, bound as `cost`, source),
// under the same rules as the improvement callback (one call at a time, with it too).
using BoundCallback = std::function<void(const Improvement&)>;

struct IOPDDL_API RunOptions {
  // Seed, threads, deterministic mode and its work limit, gap limit and every tuning value
  // (see iopddl/options.hpp and `iopddl --dump-config`).
  SolverOptions solver;
  // Seconds from the call (0 or infinity: none; then a deterministic solver, a gap limit
  // or a cancellation must end it; negative or NaN: InputError). Ignored in deterministic
  // mode, which is bounded by work.
  double time_limit = 10;
  // A warm start: one strategy per node. A feasible hint is an answer from the start; one
  // over the memory limit is repaired first. A hint of the wrong length or with a strategy
  // out of range throws InputError.
  std::vector<Strategy> hint;
  // Only answers cheaper than this count: if none is found, the status is kNoSolution.
  std::optional<Total> cost_cutoff;
  ImprovementCallback on_improvement;
  BoundCallback on_bound;
  Cancellation cancel;
  // Progress lines ("# [t] ...") go here; nullptr: silent.
  std::FILE* log = nullptr;
};

struct IOPDDL_API RunResult {
  SolveStatus status = SolveStatus::kNoSolution;
  std::string note;                       // why (e.g. what proved optimality, a hint refused)
  std::vector<Strategy> assignment;       // empty without an answer
  Total cost = 0;                         // exact; meaningful with an answer
  Total peak_usage = 0;                   // the answer's peak over time
  std::int64_t peak_time = 0;             // first time point at the peak
  std::optional<Total> bound;             // certified lower bound on the optimum
  std::optional<double> gap;              // (cost - bound) / cost
  std::vector<Improvement> improvements;  // each better answer, with its time
  std::vector<Improvement> bounds;        // each better bound, with its time
  double seconds = 0;                     // the solve's wall time
  std::uint64_t work = 0;                 // work units its workers did
  // When the status is kInfeasible: the least limit any assignment meets, where it binds.
  std::optional<Infeasibility> infeasibility;
  bool has_solution() const {
    return status == SolveStatus::kFeasible || status == SolveStatus::kOptimal;
  }
};

// Solves `problem` until the time limit, the work limit (deterministic mode), the gap
// limit, a proof of optimality or a cancellation. Every answer returned has been checked
// by the reference evaluator. Throws InputError for a bad hint; std::bad_alloc and what
// the callback throws pass through.
IOPDDL_API RunResult solve(const Problem& problem, const RunOptions& options = {});

}  // namespace iopddl::inline v0
