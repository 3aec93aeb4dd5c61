// The incumbent store: the best memory-feasible assignment found so far (in the input's node
// numbering), shared by all workers and read by the signal handler thread. Ties are broken
// by the assignment itself, so the result does not depend on the order of arrival. It also
// keeps the best certified lower bound on the optimum, so that the gap between the two is
// read in one place.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "iopddl/result.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

class StopControl;

class IncumbentStore {
 public:
  explicit IncumbentStore(const StopControl* clock) : clock_(clock) {}
  // Offers a memory-feasible assignment with its exact cost; returns true if it is kept.
  bool offer(const std::vector<Strategy>& assignment, Total cost, const std::string& source);
  bool has_solution() const;
  // Called after each offer that lowers the best cost, outside the store's lock, one call at
  // a time and with strictly decreasing costs (an improvement overtaken by a better one
  // before its call is skipped). Set it before the solve starts; it must not throw.
  using Listener = std::function<void(const Improvement&, const std::vector<Strategy>&)>;
  void set_listener(Listener listener) { listener_ = std::move(listener); }
  Total cost() const;  // meaningful only if has_solution()
  std::vector<Strategy> assignment() const;
  std::vector<Improvement> history() const;
  // When the best cost was found (seconds since process start; nullopt without an answer).
  std::optional<double> best_seconds() const;

  // Called after each offer that raises the bound, outside the store's lock, one call at a
  // time (with the improvement listener's calls too) and with strictly increasing bounds.
  // Set it before the solve starts; it must not throw.
  using BoundListener = std::function<void(const Improvement&)>;
  void set_bound_listener(BoundListener listener) { bound_listener_ = std::move(listener); }
  // A certified lower bound on the optimum; returns true if it beats the best so far.
  bool offer_bound(Total bound, const std::string& source);
  std::optional<Total> bound() const;
  std::vector<Improvement> bound_history() const;  // each better bound, with its time
  // (cost - bound) / |cost| of the best cost and bound (0 once the bound meets the cost;
  // nullopt without both).
  std::optional<double> gap() const;
  // Whether the bound meets the best cost: the best is then proven optimal.
  bool proven_optimal() const;
  // The best assignment and whether there is one, read together.
  std::pair<std::vector<Strategy>, bool> snapshot() const {
    std::lock_guard lock(mutex_);
    return {best_, has_};
  }

 private:
  const StopControl* clock_;
  mutable std::mutex mutex_;
  bool has_ = false;
  Total cost_ = 0;
  std::vector<Strategy> best_;
  std::vector<Improvement> history_;
  Listener listener_;
  std::mutex listener_mutex_;  // held while the listener runs
  std::optional<Total> told_;  // the last cost the listener was told
  std::optional<Total> bound_;
  BoundListener bound_listener_;
  std::optional<Total> told_bound_;  // the last bound the bound listener was told
  std::vector<Improvement> bound_history_;
};

// The gap of `cost` to `bound`, as IncumbentStore::gap() defines it.
double relative_gap(Total cost, Total bound);

}  // namespace iopddl::inline v0
