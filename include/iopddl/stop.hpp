// When to stop: one deadline measured from process start, an external stop request (signals),
// and in deterministic mode no deadline at all (the solver bounds its own work). Solvers poll
// should_stop(); tests stop solvers by work or by request, never by sleeping.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace iopddl {

using Clock = std::chrono::steady_clock;

class StopControl {
 public:
  // `start` is the process start; `seconds` the total budget from it (<= 0: none).
  StopControl(Clock::time_point start, double seconds) : start_(start) {
    if (seconds > 0)
      end_ = start +
             std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    else
      end_ = Clock::time_point::max();
  }
  StopControl() : StopControl(Clock::now(), 0) {}
  // A phase of `parent`: stops after `seconds` from now, or when the parent stops.
  StopControl(const StopControl& parent, double seconds) : StopControl(parent.start_, 0) {
    parent_ = &parent;
    const auto phase_end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(seconds));
    end_ = std::min(parent.end_, phase_end);
  }

  // Brings the deadline `seconds` earlier (time reserved for work after the solver).
  void reserve(double seconds) {
    if (end_ != Clock::time_point::max())
      end_ -= std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }

  // Deterministic mode: the solver bounds its own work (rounds), and time no longer stops it.
  void ignore_deadline() { ignore_deadline_ = true; }

  bool should_stop() const {
    if (stop_requested()) return true;
    if (parent_ && parent_->should_stop()) return true;
    if (ignore_deadline_) return false;  // deterministic: only work and requests stop it
    return Clock::now() >= end_;
  }

 private:
  Clock::time_point start_, end_;
  std::atomic<bool> stop_{false};
  bool ignore_deadline_ = false;
  const StopControl* parent_ = nullptr;
};

}  // namespace iopddl
