// What the workers of one process share in a timed run.
#pragma once

#include <atomic>
#include <mutex>
#include <vector>

#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

// The best reduced answer of all workers in a timed run: a stagnating worker polishes it
// rather than its own (deterministic runs leave it out: when a worker reads it would
// depend on the threads' timing). On N the worker at price level 0.15 stops improving
// after about 11 s and otherwise polishes a worse answer (tuning.csv: shared-best).
class SharedBest {
 public:
  void publish(const std::vector<Strategy>& x, Total cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (best_.empty() || cost < best_cost_) best_ = x, best_cost_ = cost;
  }
  // The worker adopts the best answer (if there is one and it beats the worker's own).
  template <class W>
  void give(W& worker) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!best_.empty()) worker.adopt(best_, best_cost_);
  }
  // Whether a pricing worker (not a polisher) has polished on stagnation.
  void mark_stale_polish() { stale_polish_.store(true, std::memory_order_relaxed); }
  bool stale_polish() const { return stale_polish_.load(std::memory_order_relaxed); }

 private:
  std::mutex mutex_;
  std::vector<Strategy> best_;
  Total best_cost_ = 0;
  std::atomic<bool> stale_polish_{false};
};

}  // namespace iopddl::inline v0
