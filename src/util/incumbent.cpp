#include "iopddl/incumbent.hpp"

#include "iopddl/stop.hpp"

namespace iopddl {

bool IncumbentStore::offer(const std::vector<Strategy>& a, Total cost, const std::string& source) {
  std::lock_guard lock(mutex_);
  if (has_ && (cost > cost_ || (cost == cost_ && !(a < best_)))) return false;
  const bool improved = !has_ || cost < cost_;
  has_ = true;
  cost_ = cost;
  best_ = a;
  if (improved) history_.push_back({clock_ ? clock_->elapsed() : 0.0, cost, source});
  return true;
}

bool IncumbentStore::has_solution() const {
  std::lock_guard lock(mutex_);
  return has_;
}

Total IncumbentStore::cost() const {
  std::lock_guard lock(mutex_);
  return cost_;
}

std::vector<Strategy> IncumbentStore::assignment() const {
  std::lock_guard lock(mutex_);
  return best_;
}

std::vector<Improvement> IncumbentStore::history() const {
  std::lock_guard lock(mutex_);
  return history_;
}

}  // namespace iopddl
