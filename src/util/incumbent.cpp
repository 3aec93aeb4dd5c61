#include "iopddl/incumbent.hpp"

#include <limits>

#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

bool IncumbentStore::offer(const std::vector<Strategy>& a, Total cost, const std::string& source) {
  Improvement told{};
  {
    std::lock_guard lock(mutex_);
    if (has_ && (cost > cost_ || (cost == cost_ && !(a < best_)))) return false;
    const bool improved = !has_ || cost < cost_;
    has_ = true;
    cost_ = cost;
    best_ = a;
    if (!improved) return true;
    told = {clock_ ? clock_->elapsed() : 0.0, cost, source};
    history_.push_back(told);
  }
  if (listener_) {
    std::lock_guard lock(listener_mutex_);
    if (!told_ || cost < *told_) {
      told_ = cost;
      listener_(told, a);
    }
  }
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

bool IncumbentStore::offer_bound(Total bound, const std::string& source) {
  Improvement told;
  {
    std::lock_guard lock(mutex_);
    if (bound_ && bound <= *bound_) return false;
    bound_ = bound;
    told = {clock_ ? clock_->elapsed() : 0.0, bound, source};
    bound_history_.push_back(told);
  }
  if (bound_listener_) {
    std::lock_guard lock(listener_mutex_);
    if (!told_bound_ || bound > *told_bound_) {
      told_bound_ = bound;
      bound_listener_(told);
    }
  }
  return true;
}

std::optional<Total> IncumbentStore::bound() const {
  std::lock_guard lock(mutex_);
  return bound_;
}

std::optional<double> IncumbentStore::best_seconds() const {
  std::lock_guard lock(mutex_);
  if (history_.empty()) return std::nullopt;
  return history_.back().seconds;
}

std::vector<Improvement> IncumbentStore::bound_history() const {
  std::lock_guard lock(mutex_);
  return bound_history_;
}

std::optional<double> IncumbentStore::gap() const {
  std::lock_guard lock(mutex_);
  if (!has_ || !bound_) return std::nullopt;
  return relative_gap(cost_, *bound_);
}

bool IncumbentStore::proven_optimal() const {
  std::lock_guard lock(mutex_);
  return has_ && bound_ && *bound_ >= cost_;
}

double relative_gap(Total cost, Total bound) {
  if (bound >= cost) return 0;
  const double diff = static_cast<double>(cost - bound);
  const double scale = static_cast<double>(cost < 0 ? -cost : cost);
  return scale > 0 ? diff / scale : std::numeric_limits<double>::infinity();
}

}  // namespace iopddl::inline v0
