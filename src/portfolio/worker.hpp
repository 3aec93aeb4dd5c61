// A worker of the portfolio (one per thread), pricing memory at its own price level:
//   priced costs -> TRW-S -> rounding -> priced 1-opt -> greedy memory repair
//   -> memory-aware 1-opt -> compound moves (near the worker's best)
//   -> crossover: the answer's cheaper components taken into the worker's best,
// with the per-member prices raised where that member's interval was overloaded and
// lowered elsewhere. In a timed run a stagnating worker polishes the best answer of all
// workers; in a run bounded by work (--deterministic) workers share nothing but the
// incumbent store, so it gives the same answer for the same seed and thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "../local/memory_index.hpp"
#include "../local/neighbourhood.hpp"
#include "../local/state.hpp"
#include "../reduce/reduced.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/rng.hpp"
#include "iopddl/stop.hpp"
#include "polish.hpp"
#include "polisher_role.hpp"
#include "priced_labelling.hpp"
#include "shared_best.hpp"

namespace iopddl::inline v0 {

// What another thread left for a worker's next round: the cheapest assignment posted.
class Inbox {
 public:
  void post(const std::vector<Strategy>& x, Total cost) {
    std::lock_guard lock(mutex_);
    if (!posted_ || cost < posted_->second) posted_.emplace(x, cost);
  }
  std::optional<std::pair<std::vector<Strategy>, Total>> take() {
    std::optional<std::pair<std::vector<Strategy>, Total>> out;
    std::lock_guard lock(mutex_);
    out.swap(posted_);
    return out;
  }

 private:
  std::mutex mutex_;
  std::optional<std::pair<std::vector<Strategy>, Total>> posted_;
};

// `millions` of work units (--work-limit), saturating.
std::uint64_t work_units(std::uint64_t millions);

class Worker {
 public:
  // `network`: the reduced problem as a cost network; the worker prices its own copy (the
  // copies share the edge tables).
  Worker(const Reduced& r, const MemoryIndex& index, const CostNetwork& network,
         const SolverOptions& o, double price_unit, int id, Pricing pricing, SharedBest* shared,
         bool polisher)
      : o_(o),
        r_(r),
        index_(index),
        state_(r),
        steps_{PricedLabelling(r, index, network, o, price_unit, pricing), Polish(r, index, o),
               Compound(r, index, o.compound), Crossing(r, o.crossover)},
        rng_(o.seed, 0, static_cast<std::uint64_t>(id)),
        improve_rng_(o.seed ^ 0x5EEDull, 0, static_cast<std::uint64_t>(id)),
        id_(id),
        shared_(shared),
        role_(polisher, shared, o.polisher_hand_over) {
    if (o.deterministic) meter_.limit = work_units(o.work_limit);
    state_.set_meter(&meter_);
  }

  // Rounds until `root` says stop, `max_rounds` are done, `until` has passed (checked
  // between rounds only, so that a phase never cuts a round short) or, in a run bounded by
  // work, the worker's work is spent (checked wherever the search polls). While `pause`
  // (when given) says so, the worker sleeps between rounds, polling it.
  void run(const StopControl& root, IncumbentStore& store, Log& log, std::uint64_t max_rounds,
           Clock::time_point until, const std::function<bool()>& pause = {});

  // One pricing round: price, TRW-S, round, repair, improve, offer; polish on stagnation.
  void round(const StopControl& stop, IncumbentStore& store, Log& log);

  // A polisher's turn: when the best answer of the run (the store's: any worker's, the
  // bound's fitting priced labellings, another rank's) is cheaper than the last one it
  // polished, it takes that answer and polishes it (the other workers go on pricing, so
  // the threads search different neighbourhoods instead of repeating each other's price
  // trajectories). Returns false when there is nothing new to polish: the polisher then
  // prices a round of its own.
  bool polish_shared(const StopControl& stop, IncumbentStore& store, Log& log);

  // The neighbourhoods of the polish, in the order it runs them.
  std::vector<const Neighbourhood*> neighbourhoods() const;
  const std::vector<Strategy>& best() const { return best_.x; }
  // The priced branch-and-bound's statistics; calls 0 where it does not run.
  const NeighbourhoodStats& priced_search_stats() const { return steps_.pricing.search_stats(); }
  const WorkMeter& work() const { return meter_; }
  bool polisher() const { return role_.is_polisher(); }
  Total best_cost() const { return best_.cost; }
  void adopt(const std::vector<Strategy>& x, Total cost);
  // adopt() from another thread while the worker runs: taken at its next round.
  void post(const std::vector<Strategy>& x, Total cost);
  std::vector<double> prices() const { return steps_.pricing.prices(); }
  void set_prices(const std::vector<double>& w) { steps_.pricing.set_prices(w); }

  // Polishes the worker's best (an adopted warm start) before any round, its work on the
  // worker's meter.
  void polish_first(const StopControl& root, IncumbentStore& store, Log& log);
  // Repairs and improves an assignment from elsewhere (the distributed bound's assembly) under the
  // true limit; keeps it if it beats this worker's best. Returns whether it did.
  bool improve(const std::vector<Strategy>& x, const StopControl& stop, IncumbentStore& store,
               Log& log);

 private:
  // Whether this worker acts as a polisher now: a polisher hands over once a pricing worker
  // has polished on stagnation (SolverOptions::polisher_hand_over).
  bool polishing() const;

  // Whether the phase of run() is over (MPI runs: the ranks synchronise): a polish leaves
  // then, or the rank's other threads would wait for it at the phase's end (one polish on
  // N held worker 0 and the bound for 16 s of a 20-s run).
  bool phase_over(const StopControl& stop) const { return stop.now() >= until_; }

  // Whether the state is so far over the limit that repair is left to the prices.
  bool far_over() const;

  // Large-neighbourhood search on the worker's best assignment: exact re-solves of windows
  // around it, until a batch of windows brings nothing.
  void polish_best(const StopControl& stop, IncumbentStore& store, Log& log);

  // Polishes the feasible state, offering every improvement that beats the worker's best.
  void polish(const StopControl& stop, IncumbentStore& store, Log& log);

  // Once the worker has polished a best, every feasible answer dearer than it (a round's,
  // polished or not) donates to it the components of their difference that make it cheaper
  // (crossover.hpp). The rounds' answers, 4-5 % above a polished best, are otherwise of no
  // use to it; before the first polish the best is a round answer too, and crossing into
  // it made N worse (tuning.csv: crossover).
  void cross(const StopControl& stop, IncumbentStore& store, Log& log);

  // Stagnation: the prices have settled on a labelling that repair and 1-opt cannot improve.
  // Scatter them (each member's price scaled by a random factor) and forget the messages,
  // so the next rounds explore nearby price vectors.
  void perturb();

  // Compound moves (an improving move that memory blocks, paid for by moves that free the
  // memory), each pass followed by 1-opt, until a pass keeps none or the budget is spent.
  void trade(const StopControl& stop, Rng& rng);

  // Makes the state the worker's best (and offers it) if it is feasible and beats the best.
  bool keep_if_better(IncumbentStore& store, Log& log, const char* how);

  // Whether the state is feasible and below `mark` (-1: none yet); if so, lowers the mark.
  bool lowers(Total& mark) const;

  // Polishing the worker's own best is its own progress; polishing an adopted one is not.
  void keep_polished(IncumbentStore& store, Log& log, const char* how);

  void offer(IncumbentStore& store, Log& log, const char* how);

  const SolverOptions& o_;
  const Reduced& r_;
  const MemoryIndex& index_;
  LocalState state_;
  // The searches: a round's first step, the stagnating worker's (and the polisher's)
  // second, compound moves and crossover.
  struct Steps {
    PricedLabelling pricing;
    Polish polish;
    Compound compound;
    Crossing crossover;
  } steps_;
  Rng rng_;
  Rng improve_rng_;  // for improve(): answers from elsewhere leave rng_'s sequence alone
  int id_;
  // The worker's best answer, and what it knows of where it came from.
  struct Best {
    std::vector<Strategy> x;
    Total cost = 0;
    // The best cost this worker found by itself (rounds, and polishing its own best; -1:
    // none yet), and whether x came from elsewhere.
    Total own = -1;
    bool adopted = false;
    Total round = -1;  // the best of its round answers before any polish (-1: none yet)
  } best_;
  struct Progress {
    int stale = 0;  // rounds without a better best
    std::uint64_t rounds = 0;
    bool polished = false;  // whether the worker has polished a best yet
  } progress_;
  WorkMeter meter_;     // the work of its searches; bounded in deterministic runs
  SharedBest* shared_;  // null in deterministic runs
  PolisherRole role_;   // a polisher's part (timed runs only)
  Inbox inbox_;         // what post() left for the next round
  Clock::time_point until_ = Clock::time_point::max();  // the end of run()'s phase
};

}  // namespace iopddl::inline v0
