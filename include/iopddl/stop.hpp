// When to stop: one deadline measured from process start, an external stop request (signals)
// and an optional work budget (deterministic mode). Solvers poll should_stop(); tests stop
// solvers by work or by request, never by sleeping.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

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
  double remaining() const {
    if (end_ == Clock::time_point::max()) return std::numeric_limits<double>::infinity();
    return std::chrono::duration<double>(end_ - Clock::now()).count();
  }
  bool has_deadline() const { return end_ != Clock::time_point::max(); }

  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }

  // Deterministic mode: the solver bounds its own work (rounds), and time no longer stops it.
  void set_work_limit(std::uint64_t limit) { work_limit_ = limit; }
  std::uint64_t work_limit() const { return work_limit_; }
  bool work_bounded() const { return work_limit_ != 0; }

  bool should_stop() const {
    if (stop_requested()) return true;
    if (parent_ && parent_->should_stop()) return true;
    if (work_bounded()) return false;  // deterministic: only work and requests stop it
    return Clock::now() >= end_;
  }

 private:
  Clock::time_point start_, end_;
  std::atomic<bool> stop_{false};
  std::uint64_t work_limit_ = 0;
  const StopControl* parent_ = nullptr;
};

}  // namespace iopddl
