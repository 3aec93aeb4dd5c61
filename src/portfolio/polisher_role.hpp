// A worker's part as a polisher (timed runs with more than one thread: the last `polishers`
// workers, never worker 0). A polisher polishes the run's best answer whenever that is
// cheaper than the last one it took up, and takes a polish that the end of an MPI phase cut
// short up again in the next; with polisher-hand-over, once a pricing worker has polished on
// stagnation, it goes back to pricing rounds of its own.
#pragma once

#include <algorithm>
#include <limits>

#include "iopddl/types.hpp"
#include "shared_best.hpp"

namespace iopddl::inline v0 {

class PolisherRole {
 public:
  PolisherRole(bool polisher, const SharedBest* shared, bool hand_over)
      : polisher_(polisher && shared != nullptr), shared_(shared), hand_over_(hand_over) {}

  bool is_polisher() const { return polisher_; }
  // Whether it polishes the store's best now (never for a pricing worker, nor once handed over).
  bool active() const { return polisher_ && !(hand_over_ && shared_->stale_polish()); }
  // True the first time a polisher finds itself handed over (so that it says so once).
  bool handed_over_now() {
    if (!polisher_ || active() || handed_over_) return false;
    handed_over_ = true;
    return true;
  }
  // Whether the store's best, at `cost`, is new to it: then it is taken up, whatever comes of it.
  bool take_up(Total cost) {
    if (cost >= from_) return false;
    from_ = cost;
    return true;
  }
  // After its polish (of an answer now at `best`): one cut short by a phase's end is taken up
  // again in the next.
  void polished(bool cut_short, Total best) {
    from_ = cut_short ? std::numeric_limits<Total>::max() : std::min(from_, best);
  }

 private:
  bool polisher_;
  const SharedBest* shared_;
  bool hand_over_;
  bool handed_over_ = false;
  Total from_ = std::numeric_limits<Total>::max();  // the cost of the last answer taken up
};

}  // namespace iopddl::inline v0
