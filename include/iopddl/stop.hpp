// When to stop: one deadline measured from process start, an external stop request (signals),
// and in deterministic mode no deadline at all (the solver bounds its own work). Solvers poll
// should_stop(); tests stop solvers by work or by request, never by sleeping.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>

namespace iopddl::inline v0 {

using Clock = std::chrono::steady_clock;

// `t` plus `seconds`, saturating: a span past the clock's range (1e10 s, 1e300 s) or NaN
// gives time_point::max(), "never", instead of overflowing into the past.
inline Clock::time_point time_after(Clock::time_point t, double seconds) {
  if (t == Clock::time_point::max()) return t;
  const double room = std::chrono::duration<double>(Clock::time_point::max() - t).count();
  if (!(seconds < 0.5 * room)) return Clock::time_point::max();
  if (seconds <= 0) return t;
  return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Where a stop control reads the time: the steady clock, or a test's own clock, so that
// timeout paths are tested at exact points without sleeping.
class TimeSource {
 public:
  virtual ~TimeSource() = default;
  virtual Clock::time_point now() const = 0;
  // The steady clock (the default of every stop control).
  static const TimeSource& steady();
};

// The work one thread of a deterministic run has done and may do, in the units its loops
// tick (StopPoll::tick): message entries, delta evaluations, search nodes. Owned by that
// thread, never shared: the same seed gives the same work at every step, so a run
// bounded by it stops at the same point of its search every time.
struct WorkMeter {
  std::uint64_t done = 0;
  std::uint64_t limit = UINT64_MAX;
  bool spent() const { return done >= limit; }
};

class StopControl {
 public:
  // `start` is the process start; `seconds` the total budget from it (<= 0: none; a budget
  // past the clock's range is none too). `time` must outlive the stop control.
  StopControl(Clock::time_point start, double seconds,
              const TimeSource& time = TimeSource::steady())
      : time_(&time),
        start_(start),
        end_(seconds > 0 ? time_after(start, seconds) : Clock::time_point::max()) {}
  StopControl() : StopControl(TimeSource::steady().now(), 0) {}
  // A phase of `parent`: stops after `seconds` from now, or when the parent stops.
  StopControl(const StopControl& parent, double seconds)
      : StopControl(parent.start_, 0, *parent.time_) {
    parent_ = &parent;
    end_ = std::min(parent.end_, time_after(now(), seconds));
  }

  // One thread's view of `parent` in a run bounded by work: stops when the parent stops or
  // when `meter` (which must outlive it) is spent. Only that thread may use it.
  StopControl(const StopControl& parent, WorkMeter& meter)
      : StopControl(parent.start_, 0, *parent.time_) {
    parent_ = &parent;  // whose deadline (or none) it keeps
    meter_ = &meter;
  }

  Clock::time_point now() const { return time_->now(); }

  // Counts `units` of work on the meter, if this stop control has one, and on those of the
  // views it is nested in: work done within a view is work of the enclosing view too (else
  // a search with a meter of its own inside a bounded phase never spends the phase).
  void charge(std::uint64_t units) const {
    for (const StopControl* s = this; s != nullptr; s = s->parent_)
      if (s->meter_ != nullptr) s->meter_->done += units;
  }
  // The work counted on the meter so far (0 without one).
  std::uint64_t work_done() const { return meter_ != nullptr ? meter_->done : 0; }

  // Brings the deadline `seconds` earlier (time reserved for work after the solver).
  void reserve(double seconds) {
    if (end_ == Clock::time_point::max() || !(seconds > 0)) return;
    const double left = std::chrono::duration<double>(end_ - start_).count();
    end_ = seconds >= left ? start_
                           : end_ - std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(seconds));
  }

  double elapsed() const { return std::chrono::duration<double>(now() - start_).count(); }
  // Seconds until the deadline (0 once past it; infinity without one, or when the deadline
  // is ignored). A nested view's deadline is already the earlier of its own and its parent's.
  double seconds_left() const {
    if (ignore_deadline_ || end_ == Clock::time_point::max())
      return std::numeric_limits<double>::infinity();
    return std::max(0.0, std::chrono::duration<double>(end_ - now()).count());
  }

  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  // Also stops once `*flag` is true (a library caller's cancellation; it must outlive this).
  void watch(const std::atomic<bool>* flag) { watched_ = flag; }
  bool stop_requested() const { return stop_.load(std::memory_order_relaxed); }

  // Deterministic mode: the solver bounds its own work (rounds), and time no longer stops it.
  void ignore_deadline() { ignore_deadline_ = true; }

  bool should_stop() const {
    if (stop_requested()) return true;
    if (watched_ != nullptr && watched_->load(std::memory_order_relaxed)) return true;
    if (parent_ && parent_->should_stop()) return true;
    if (meter_ != nullptr && meter_->spent()) return true;
    if (ignore_deadline_) return false;  // deterministic: only work and requests stop it
    return now() >= end_;
  }

 private:
  const TimeSource* time_;
  Clock::time_point start_, end_;
  std::atomic<bool> stop_{false};
  bool ignore_deadline_ = false;
  const StopControl* parent_ = nullptr;
  WorkMeter* meter_ = nullptr;  // a thread's own, in a run bounded by work
  const std::atomic<bool>* watched_ = nullptr;
};

// The one place long loops poll a stop control: tick(units) once per step, with the work
// of the step (charged to the stop control's meter, if any), and every `period` ticks it
// asks whether to stop (reading the clock costs about as much as 100 cheap steps).
class StopPoll {
 public:
  explicit StopPoll(const StopControl* stop, std::uint32_t period = 1024)
      : stop_(stop), period_(period) {}
  bool tick(std::uint64_t units = 1) {
    if (stop_ == nullptr) return false;
    stop_->charge(units);
    return ++count_ % period_ == 0 && stop_->should_stop();
  }
  bool now() const { return stop_ != nullptr && stop_->should_stop(); }

 private:
  const StopControl* stop_;
  std::uint32_t period_;
  std::uint32_t count_ = 0;
};

}  // namespace iopddl::inline v0
