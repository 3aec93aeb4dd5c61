// The portfolio's bound: a BoundEngine stepped beside the workers (or alone, for `iopddl
// bound`), each better certified bound offered to the incumbent store, the gap logged, and
// the run stopped once the bound meets the best cost (proven optimal) or the gap is within
// the --gap-limit. A priced labelling that fits the limit is an answer too. Once the gap is
// small, proof searches (exact/) take turns with the steps.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "../exact/cbc_search.hpp"
#include "../lagrange/bound.hpp"
#include "../lagrange/stall_window.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

class BoundWorker {
 public:
  BoundWorker(const Reduced& r, const CostNetwork& network, const BoundOptions& o,
              const ExactOptions& exact);

  // Steps until `stop` says stop, `done` is set or the engine has taken `max_steps` steps
  // (0: no limit), taking `share` of one thread's time (sleeping between steps; 1: no
  // sleep). Requests `stop` when the bound proves the best optimal or the gap reaches
  // `gap_limit` (> 0).
  // With `with_cbc`, CBC's branch-and-cut runs beside the steps from the first on (see
  // start_cbc), in a child process killed when this returns.
  void run(StopControl& stop, IncumbentStore& store, Log& log, double share, double gap_limit,
           const std::atomic<bool>& done, std::uint64_t max_steps = 0, bool with_cbc = false);
  // The share of a thread the bound takes `elapsed` seconds into the run: `share`, or
  // o.stale_share (when more) once the best answer, found at `best_at` seconds, is older
  // than o.stale_after of the run so far, unless CBC runs (`cbc_running`): its child
  // process, niced, proves small cores with the spare time the bound would take (G's
  // proofs came about 60 s later with a whole thread for the bound).
  static double share_now(double share, const BoundOptions& o, std::optional<double> best_at,
                          double elapsed, bool cbc_running);
  // Whether the best answer, found at `best_at` seconds, is older than o.stale_after of the
  // `elapsed` seconds of the run so far.
  static bool stale(const BoundOptions& o, std::optional<double> best_at, double elapsed);
  // CBC's child is searching.
  bool cbc_running() const { return cbc_running_.load(std::memory_order_relaxed); }
  // One step; returns whether the certified bound improved. With `answers`, a priced
  // labelling that fits the limit is offered to the store.
  bool step(const StopControl& stop, IncumbentStore& store, Log& log, bool answers);
  // A proof search from the store's best, when the gap is small enough or the searches
  // have had less than their share of the work (ExactOptions; a larger share once the
  // bound has stalled):
  // a cheaper answer it finds is offered, and a finished search proves the best optimal.
  // Returns whether it ran.
  bool prove(const StopControl& stop, IncumbentStore& store, Log& log);
  // Once per worker, where the reduced problem's program has at most exact.mip-nonzeros
  // columns: starts CBC's search for answers cheaper than the store's best (killed when
  // run() returns; a thread of run() takes what it sends). take_cbc offers what it sent
  // since (answers, bounds; once it has finished, the best is proven optimal), waiting at
  // most `wait` seconds for something.
  void start_cbc(IncumbentStore& store, Log& log);
  void take_cbc(IncumbentStore& store, Log& log, double wait);
  // Whether the run may stop: the best is proven optimal, or within `gap_limit` (> 0).
  static bool closed(const IncumbentStore& store, double gap_limit);
  // Requests the stop (and says why) once closed().
  static bool stop_if_closed(StopControl& stop, const IncumbentStore& store, Log& log,
                             double gap_limit);
  // Offers a priced labelling that fits the limit (expanded, checked by the evaluator) as
  // an answer.
  static void offer_labelling(const Reduced& r, const std::vector<Strategy>& x,
                              IncumbentStore& store, Log& log);
  // What proved the store's best optimal: its last bound's source.
  static std::string optimality_note(const IncumbentStore& store);
  // Offers a certified bound to the store and logs it with the gap when it is better.
  static bool offer_bound(IncumbentStore& store, Log& log, Total bound, const char* source);

  const BoundEngine& engine() const { return engine_; }
  BoundEngine& engine() { return engine_; }

 private:
  // Drops the running search (cbc_) and says so to the bound's thread (cbc_running_).
  void end_cbc();

  const Reduced& r_;
  BoundEngine engine_;
  ExactOptions exact_;
  BoundOptions o_;
  int proofs_ = 0;  // proof searches run (each doubles the next one's budget)
  bool cbc_tried_ = false;
  std::unique_ptr<CbcSearch> cbc_;        // the running search, if any
  std::atomic<bool> cbc_running_{false};  // cbc_ is set (read outside the watcher thread)
  // Work units of the steps and of the proof searches so far (ExactOptions::prove_share).
  std::uint64_t step_work_ = 0, prove_work_ = 0;
  double share_budget_ = 0;  // the budget of the last search above exact.prove-gap
  // The stall test (ExactOptions::prove_stall) and its last verdict.
  StallWindow stall_;
  bool stalled_ = false;
};

}  // namespace iopddl::inline v0
