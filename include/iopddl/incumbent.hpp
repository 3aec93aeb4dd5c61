// The incumbent store: the best memory-feasible assignment found so far (in the input's node
// numbering), shared by all workers and read by the signal handler thread. Ties are broken
// by the assignment itself, so the result does not depend on the order of arrival.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "iopddl/types.hpp"

namespace iopddl {

class StopControl;

struct Improvement {
  double seconds;  // since process start
  Total cost;
  std::string source;  // which solver component found it
};

class IncumbentStore {
 public:
  explicit IncumbentStore(const StopControl* clock) : clock_(clock) {}
  // Offers a memory-feasible assignment with its exact cost; returns true if it is kept.
  bool offer(const std::vector<Strategy>& assignment, Total cost, const std::string& source);
  bool has_solution() const;
  Total cost() const;  // meaningful only if has_solution()
  std::vector<Strategy> assignment() const;
  std::vector<Improvement> history() const;
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
};

}  // namespace iopddl
