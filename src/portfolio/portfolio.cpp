// The solver core: exact presolve, then a portfolio of workers (threads), each pricing
// memory per member node at its own price level:
//   priced costs -> TRW-S -> rounding -> priced 1-opt -> greedy memory repair
//   -> memory-aware 1-opt -> compound moves (near the worker's best)
//   -> crossover: the answer's cheaper components taken into the worker's best,
// with the per-member prices raised where that member's interval was overloaded and
// lowered elsewhere. In a timed run a stagnating worker polishes the best answer of all
// workers; in a run bounded by work (--deterministic) workers share nothing but the
// incumbent store, so it gives the same answer for the same seed and thread count.
#include "portfolio.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#include "../exact/bucket_elimination.hpp"
#include "../exact/priced_search.hpp"
#include "../lagrange/time_prices.hpp"
#include "../lagrange/trws.hpp"
#include "../local/baseline.hpp"
#include "../local/compound.hpp"
#include "../local/crossover.hpp"
#include "../local/descent.hpp"
#include "../local/elimination.hpp"
#include "../local/memory_index.hpp"
#include "../local/neighbourhood.hpp"
#include "../local/repair.hpp"
#include "../local/state.hpp"
#include "../local/tree_block.hpp"
#include "../local/window_search.hpp"
#include "../reduce/reduced.hpp"
#include "../util/thread_priority.hpp"
#include "bound_worker.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/rng.hpp"
#include "iopddl/solve.hpp"
#include "memory_prices.hpp"
#include "polish_schedule.hpp"

namespace iopddl {

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

// `millions` of work units (--work-limit), saturating.
std::uint64_t work_units(std::uint64_t millions) {
  constexpr std::uint64_t kMillion = 1000000;
  return millions > UINT64_MAX / kMillion ? UINT64_MAX : millions * kMillion;
}

class Worker {
 public:
  // `network`: the reduced problem as a cost network; the worker prices its own copy (the
  // copies share the edge tables).
  Worker(const Reduced& r, const MemoryIndex& index, const CostNetwork& network,
         const SolverOptions& o, double price_unit, int id, Pricing pricing, SharedBest* shared,
         bool polisher)
      : o_(o),
        r_(r),
        p_(r.original()),
        index_(index),
        state_(r),
        net_(network),
        trws_(net_),
        lns_(r, &index, o.lns),
        tree_(r, &index, o.tree),
        compound_(r, index, o.compound),
        crossover_(r, o.crossover),
        payoff_(2, o.polish.explore),
        rng_(o.seed, 0, static_cast<std::uint64_t>(id)),
        improve_rng_(o.seed ^ 0x5EEDull, 0, static_cast<std::uint64_t>(id)),
        id_(id),
        prices_(r, index, pricing, price_unit, o.prices),
        shared_(shared),
        polisher_(polisher && shared != nullptr) {
    if (o.deterministic) meter_.limit = work_units(o.work_limit);
    state_.set_meter(&meter_);
    if (o.trws.search_nodes > 0 &&
        r.num_nodes() <= static_cast<std::size_t>(o.trws.search_max_groups))
      priced_search_.emplace(net_);
  }

  // Rounds until `root` says stop, `max_rounds` are done, `until` has passed (checked
  // between rounds only, so that a phase never cuts a round short) or, in a run bounded by
  // work, the worker's work is spent (checked wherever the search polls).
  void run(const StopControl& root, IncumbentStore& store, Log& log, std::uint64_t max_rounds,
           Clock::time_point until) {
    const StopControl stop(root, meter_);
    until_ = until;
    for (std::uint64_t done = 0; done < max_rounds && !stop.should_stop() && stop.now() < until;
         ++done) {
      if (polisher_ && !polishing() && !handed_over_) {
        handed_over_ = true;
        log.info("worker %d: a pricing worker polishes now; back to pricing rounds", id_);
      }
      if (polishing() && polish_shared(stop, store, log)) continue;
      round(stop, store, log);
    }
  }

  // One pricing round: price, TRW-S, round, repair, improve, offer; polish on stagnation.
  void round(const StopControl& stop, IncumbentStore& store, Log& log) {
    const bool first = rounds_++ == 0;
    prices_.price(net_);
    for (int it = 0; it < o_.trws.iterations && !stop.should_stop(); ++it) trws_.iterate(&stop);
    // Past the deadline: leave at once (rounding, re-evaluating and re-pricing cost
    // O(size) each), except to get a first labelling.
    if (stop.should_stop() && (!first || !best_x_.empty())) return;
    std::vector<Strategy> x = trws_.round();
    // TRW-S's rounding follows half-converged messages and leaves many priced 1-opt moves:
    // on N its labelling's priced energy was 1.2-1.6 times what priced 1-opt from it
    // reaches.
    net_.descend(x, o_.trws.descent_passes);
    // Pricing, rounding and each descent pass read every entry once.
    stop.charge(1 + (2 + static_cast<std::uint64_t>(o_.trws.descent_passes)) *
                        (net_.unary_size() + net_.table_size()));
    if (priced_search_) search_priced(x, stop);
    state_.assign(x);
    const bool was_feasible = state_.feasible();
    prices_.update(state_, rng_);
    // Far over the limit after the first round, leave it to the raised prices (the first
    // round is repaired whatever its excess: the worker needs a start; a polisher does not,
    // it takes answers from the store: on a generated instance of 150,000 nodes its first
    // repair took 15 s, while the bound's answer at 6 s waited for it).
    if (!was_feasible && (!first || polisher_) && far_over()) return;
    if (!was_feasible && !greedy_repair(state_, index_, o_.repair, stop)) return;
    memory_descent(state_, rng_, stop);
    // Compound moves only on answers near the worker's best (CompoundOptions).
    if (best_x_.empty() ||
        state_.cost() - best_cost_ < best_cost_ * o_.compound.within_percent / 100)
      trade(stop, rng_);
    // Stagnation is judged on what this worker found itself, not on its best: an answer
    // adopted from elsewhere (another rank) would make a price trajectory that still
    // improves look stale, and perturbing it would throw that trajectory away.
    const bool progressed = lowers(own_best_);
    const bool kept = keep_if_better(store, log, "priced");
    if (kept) best_adopted_ = false;
    // A round answer that beats this worker's earlier round answers but not its best is
    // polished too: otherwise a run whose first polished rounds were poor stays in
    // their basin (seen on N at 180 s).
    if (lowers(round_best_) && !kept && polished_) polish(stop, store, log);
    cross(stop, store, log);
    if (progressed) {
      stale_ = 0;
    } else if (++stale_ >= o_.stale_rounds) {
      if (shared_ != nullptr) {
        shared_->give(*this);
        if (!polisher_) shared_->mark_stale_polish();
      }
      polish_best(stop, store, log);
      perturb();
      stale_ = 0;
    } else if (best_cost_ >= kForbidden && stale_ % o_.stale_while_forbidden == 0) {
      polish_best(stop, store, log);  // prices untouched: only the bad picks are targeted
    }
  }

  // A polisher's turn: when the best answer of the run (the store's: any worker's, the
  // bound's fitting priced labellings, another rank's) is cheaper than the last one it
  // polished, it takes that answer and polishes it (the other workers go on pricing, so
  // the threads search different neighbourhoods instead of repeating each other's price
  // trajectories). Returns false when there is nothing new to polish: the polisher then
  // prices a round of its own.
  bool polish_shared(const StopControl& stop, IncumbentStore& store, Log& log) {
    if (!store.has_solution() || store.cost() >= polished_from_) return false;
    polished_from_ = store.cost();  // taken up once, whatever comes of it
    auto [incumbent, has] = store.snapshot();
    std::vector<Strategy> x;
    if (!has || !r_.contract(incumbent, x)) return false;
    state_.assign(x);
    if (!state_.feasible()) return false;
    // The store holds every answer this worker kept, so x is at least as cheap as its best:
    // the state is what to polish.
    adopt(state_.assignment(), state_.cost());
    polished_ = true;
    polish(stop, store, log);
    // A polish cut short by the end of a phase is taken up again in the next one.
    polished_from_ =
        phase_over(stop) ? std::numeric_limits<Total>::max() : std::min(polished_from_, best_cost_);
    return true;
  }

  // The neighbourhoods of the polish, in the order it runs them.
  std::vector<const Neighbourhood*> neighbourhoods() const {
    return {&tree_, &lns_, &compound_, &crossover_};
  }
  const std::vector<Strategy>& best() const { return best_x_; }
  // The priced branch-and-bound's statistics; calls 0 where it does not run.
  const NeighbourhoodStats& priced_search_stats() const { return priced_stats_; }
  const WorkMeter& work() const { return meter_; }
  Total best_cost() const { return best_cost_; }
  void adopt(const std::vector<Strategy>& x, Total cost) {
    if (!best_x_.empty() && best_cost_ <= cost) return;
    best_x_ = x;
    best_cost_ = cost;
    best_adopted_ = true;
  }
  std::vector<double> prices() const { return prices_.absolute(); }
  void set_prices(const std::vector<double>& w) { prices_.set_absolute(w); }

  // Repairs and improves an assignment from elsewhere (the distributed bound's assembly) under the
  // true limit; keeps it if it beats this worker's best. Returns whether it did.
  bool improve(const std::vector<Strategy>& x, const StopControl& stop, IncumbentStore& store,
               Log& log) {
    state_.assign(x);
    // Far over the limit (the regions' first rounds, before the memory multipliers have
    // risen), repair takes long and ends nowhere good: 0.77 s for S's first assembly.
    if (!state_.feasible() && far_over()) return false;
    if (!state_.feasible() && !greedy_repair(state_, index_, o_.repair, stop)) return false;
    memory_descent(state_, improve_rng_,
                   stop);  // its own stream: the worker's search goes on undisturbed
    trade(stop, improve_rng_);
    if (!keep_if_better(store, log, "assembly")) return false;
    best_adopted_ = true;
    return true;
  }

 private:
  // Branch-and-bound on the priced problem from the rounding; its statistics are reported
  // as those of a neighbourhood (the gain in priced energy).
  // It runs while it pays: after k calls in a row that lower the energy by less than
  // trws.search-min-gain of it, the next 2^k - 1 rounds go without; and its node budget
  // starts at an eighth of trws.search-nodes, doubles after a call that paid and halves
  // after one that did not. On D every call gained 5-35 %; on generated cores whose rounding
  // was already near the priced optimum, calls of 10,000 nodes took 1-5 s to gain 10^-6,
  // and the rounds they slowed missed their polish.
  void search_priced(std::vector<Strategy>& x, const StopControl& stop) {
    if (priced_skip_ > 0) {
      --priced_skip_;
      return;
    }
    PricedSearch::Outcome out;
    priced_stats_.count(stop, [&] {
      out = priced_search_->run(net_, x, priced_budget_, stop);
      return std::pair{out.improved ? 1 : 0, static_cast<Total>(std::llround(out.gain))};
    });
    const bool paid = out.gain > o_.trws.search_min_gain * std::abs(out.energy);
    priced_failures_ = paid ? 0 : std::min(priced_failures_ + 1, kMaxBackoff);
    priced_budget_ = paid ? std::min(2 * priced_budget_, o_.trws.search_nodes)
                          : std::max<std::uint64_t>(priced_budget_ / 2, 1);
    priced_skip_ = (1u << priced_failures_) - 1;
  }

  // Whether this worker acts as a polisher now: a polisher hands over once a pricing worker
  // has polished on stagnation (SolverOptions::polisher_hand_over).
  bool polishing() const {
    return polisher_ && !(o_.polisher_hand_over && shared_->stale_polish());
  }

  // Whether the phase of run() is over (MPI runs: the ranks synchronise): a polish leaves
  // then, or the rank's other threads would wait for it at the phase's end (one polish on
  // N held worker 0 and the bound for 16 s of a 20-s run).
  bool phase_over(const StopControl& stop) const { return stop.now() >= until_; }

  // Whether the state is so far over the limit that repair is left to the prices.
  bool far_over() const {
    return static_cast<double>(state_.peak()) >
           static_cast<double>(state_.limit()) * o_.prices.repair_below;
  }

  // Large-neighbourhood search on the worker's best assignment: exact re-solves of windows
  // around it, until a batch of windows brings nothing.
  void polish_best(const StopControl& stop, IncumbentStore& store, Log& log) {
    if (best_x_.empty() || o_.lns.windows <= 0) return;
    polished_ = true;
    state_.assign(best_x_);
    polish(stop, store, log);
  }

  // Polishes the feasible state, offering every improvement that beats the worker's best.
  void polish(const StopControl& stop, IncumbentStore& store, Log& log) {
    if (o_.lns.windows <= 0) return;
    // Tree blocks first (cheap, wide), then exact windows (narrow, any shape), again while
    // the windows improve; every batch that improves is offered at once (the first may
    // remove a forbidden pick, and the batches after it can take long). While the best
    // picks a forbidden entry, the windows around the bad picks are what the polish is
    // for: one round, smaller batches.
    const bool forbidden = best_cost_ >= kForbidden;
    const int blocks = forbidden ? o_.tree.blocks_while_forbidden : o_.tree.blocks;
    if (o_.polish.schedule == PolishSchedule::kPayoff) {
      tree_.set_blocks(blocks);
      polish_by_payoff(stop, store, log);
      return;
    }
    for (bool again = true; again;) {
      again = false;
      tree_.set_blocks(blocks);
      while (!stop.should_stop() && !phase_over(stop) && tree_.run(state_, rng_, stop) > 0) {
        memory_descent(state_, rng_, stop);
        keep_polished(store, log, "tree");
      }
      while (!stop.should_stop() && !phase_over(stop) && lns_.run(state_, rng_, stop) > 0) {
        memory_descent(state_, rng_, stop);
        keep_polished(store, log, "lns");
        again = !forbidden;
      }
    }
  }

  // PolishSchedule::kPayoff: one batch at a time, of the neighbourhood that pays best.
  void polish_by_payoff(const StopControl& stop, IncumbentStore& store, Log& log) {
    Neighbourhood* const list[] = {&tree_, &lns_};
    std::vector<bool> dry(2, false);
    while (!stop.should_stop() && !phase_over(stop)) {
      // A polisher leaves an answer that has been beaten elsewhere, for the better one.
      if (polishing() && store.cost() < state_.cost()) return;
      const std::size_t i = payoff_.choose(dry, rng_);
      if (i == payoff_.count()) return;
      Neighbourhood& n = *list[i];
      const NeighbourhoodStats before = n.stats();
      const bool improved = n.run(state_, rng_, stop) > 0;
      // Deterministic runs judge by work, which is the same in every run; time is not.
      const double spent = o_.deterministic ? static_cast<double>(n.stats().work - before.work)
                                            : n.stats().seconds - before.seconds;
      payoff_.record(i, n.stats().gain - before.gain, spent);
      if (!improved) {
        dry[i] = true;
        continue;
      }
      std::fill(dry.begin(), dry.end(), false);  // a new state: every one may pay again
      memory_descent(state_, rng_, stop);
      keep_polished(store, log, n.name());
    }
  }

  // Once the worker has polished a best, every feasible answer dearer than it (a round's,
  // polished or not) donates to it the components of their difference that make it cheaper
  // (crossover.hpp). The rounds' answers, 4-5 % above a polished best, are otherwise of no
  // use to it; before the first polish the best is a round answer too, and crossing into
  // it made N worse (tuning.csv: crossover).
  void cross(const StopControl& stop, IncumbentStore& store, Log& log) {
    if (!polished_ || best_x_.empty() || !state_.feasible() || state_.cost() <= best_cost_) return;
    crossover_.set_donor(state_.assignment());
    state_.assign(best_x_);
    if (crossover_.run(state_, rng_, stop) == 0) return;
    memory_descent(state_, rng_, stop);
    keep_polished(store, log, "cross");
  }

  // Stagnation: the prices have settled on a labelling that repair and 1-opt cannot improve.
  // Scatter them (each member's price scaled by a random factor) and forget the messages,
  // so the next rounds explore nearby price vectors.
  void perturb() {
    prices_.scatter(rng_);
    if (rng_.uniform() < o_.trws.reset_share) trws_.reset_messages();
  }

  // Compound moves (an improving move that memory blocks, paid for by moves that free the
  // memory), each pass followed by 1-opt, until a pass keeps none or the budget is spent.
  void trade(const StopControl& stop, Rng& rng) {
    std::uint64_t budget = static_cast<std::uint64_t>(o_.compound.budget) * net_.table_size();
    while (!stop.should_stop() && budget > 0) {
      compound_.set_budget(budget);
      const int kept = compound_.run(state_, rng, stop);
      budget -= std::min(budget, compound_.work());
      if (kept == 0) break;
      memory_descent(state_, rng, stop);
    }
  }

  // Makes the state the worker's best (and offers it) if it is feasible and beats the best.
  bool keep_if_better(IncumbentStore& store, Log& log, const char* how) {
    if (!state_.feasible() || (!best_x_.empty() && state_.cost() >= best_cost_)) return false;
    best_cost_ = state_.cost();
    best_x_ = state_.assignment();
    offer(store, log, how);
    if (shared_ != nullptr) shared_->publish(best_x_, best_cost_);
    return true;
  }

  // Whether the state is feasible and below `mark` (-1: none yet); if so, lowers the mark.
  bool lowers(Total& mark) const {
    if (!state_.feasible() || (mark >= 0 && state_.cost() >= mark)) return false;
    mark = state_.cost();
    return true;
  }

  // Polishing the worker's own best is its own progress; polishing an adopted one is not.
  void keep_polished(IncumbentStore& store, Log& log, const char* how) {
    if (keep_if_better(store, log, how) && !best_adopted_) own_best_ = best_cost_;
  }

  void offer(IncumbentStore& store, Log& log, const char* how) {
    std::vector<Strategy> a = r_.expand(best_x_);
    Evaluation e = evaluate(p_, a);
    if (!e.feasible) return;  // cannot happen: the state tracks usage exactly
    if (!store.offer(a, e.cost, std::string(how) + "-" + std::to_string(id_))) return;
    if (const auto gap = store.gap())
      log.info("worker %d (%s): cost %s, gap %.4f%%", id_, how, to_string(e.cost).c_str(),
               100 * *gap);
    else
      log.info("worker %d (%s): cost %s", id_, how, to_string(e.cost).c_str());
  }

  const SolverOptions& o_;
  const Reduced& r_;
  const Problem& p_;
  const MemoryIndex& index_;
  LocalState state_;
  CostNetwork net_;  // the priced problem: node costs plus memory prices
  Trws trws_;
  std::optional<PricedSearch> priced_search_;  // small cores only (trws.search-max-groups)
  NeighbourhoodStats priced_stats_;
  static constexpr unsigned kMaxBackoff = 6;  // at least one round in 64 tries it again
  unsigned priced_failures_ = 0, priced_skip_ = 0;
  // The next call's nodes: an eighth of trws.search-nodes at first.
  std::uint64_t priced_budget_ = std::max<std::uint64_t>(o_.trws.search_nodes / 8, 1);
  ExactWindows lns_;
  TreeBlocks tree_;
  Compound compound_;
  Crossing crossover_;
  PayoffSchedule payoff_;  // PolishSchedule::kPayoff: what tree blocks and windows paid
  Rng rng_;
  Rng improve_rng_;  // for improve(): answers from elsewhere leave rng_'s sequence alone
  int id_;
  MemoryPrices prices_;
  Total best_cost_ = 0;
  std::vector<Strategy> best_x_;
  int stale_ = 0;
  // The best cost this worker found by itself (rounds, and polishing its own best; -1: none
  // yet), and whether best_x_ came from elsewhere.
  Total own_best_ = -1;
  bool best_adopted_ = false;
  std::uint64_t rounds_ = 0;
  WorkMeter meter_;        // the work of its searches; bounded in deterministic runs
  SharedBest* shared_;     // null in deterministic runs
  bool polished_ = false;  // whether the worker has polished a best yet
  // A polisher (timed runs only) polishes the run's best answer whenever it is cheaper
  // than polished_from_, the cost of the last one it polished.
  bool polisher_;
  bool handed_over_ = false;  // a polisher that went back to pricing (polishing() false)
  Clock::time_point until_ = Clock::time_point::max();  // the end of run()'s phase
  Total polished_from_ = std::numeric_limits<Total>::max();
  Total round_best_ = -1;  // the best of its round answers before any polish (-1: none yet)
};

// Cost per unit of usage at which memory starts to matter: the spread of node costs over
// the spread of usages, summed over the reduced problem.
double memory_price_unit(const Reduced& r) {
  double cost_spread = 0, usage_spread = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    Cost lo = kForbidden, hi = -kForbidden;
    for (Strategy s = 0; s < r.strategies(g); ++s) {
      if (is_forbidden(r.costs(g)[s])) continue;
      lo = std::min(lo, r.costs(g)[s]);
      hi = std::max(hi, r.costs(g)[s]);
    }
    if (lo <= hi) cost_spread += static_cast<double>(hi - lo);
    for (std::size_t mi = r.member_begin(g); mi < r.member_begin(g + 1); ++mi) {
      Usage ulo = INT64_MAX, uhi = 0;
      for (Strategy s = 0; s < r.strategies(g); ++s) {
        ulo = std::min(ulo, r.member_usage(mi, s));
        uhi = std::max(uhi, r.member_usage(mi, s));
      }
      usage_spread += static_cast<double>(uhi - ulo);
    }
  }
  return usage_spread > 0 ? std::max(cost_spread, 1.0) / usage_spread : 0.0;
}

Portfolio::Portfolio(const Problem& p, const SolverOptions& o, Log& log, int first_worker)
    : p_(p), o_(o), log_(log), first_worker_(first_worker) {}

Portfolio::~Portfolio() = default;

SolveResult Portfolio::start(StopControl& stop, IncumbentStore& store) {
  // A feasible answer first, whatever happens next.
  SolveResult base = solve_baseline(p_, stop, store, log_);
  if (base.status == SolveStatus::kInfeasible) return base;
  try {
    reduced_ = std::make_unique<Reduced>(Reduced::build(p_, o_.presolve, &stop));
  } catch (const PresolveStopped&) {  // out of time: the baseline's answer is the answer
    log_.info("presolve stopped by the time limit");
    return {SolveStatus::kFeasible, "presolve did not finish within the time limit"};
  }
  shared_ = std::make_unique<SharedBest>();
  const Reduced& r = *reduced_;
  log_.info("presolve: %zu nodes, %zu edges left; %s", r.num_nodes(), r.num_edges(),
            r.stats().summary().c_str());
  // Out of time already (a huge instance's presolve took the rest): no workers to build.
  const auto out_of_time = [&] {
    reduced_.reset();
    return SolveResult{SolveStatus::kFeasible, "the time limit came before the search"};
  };
  if (stop.should_stop()) return out_of_time();
  index_ = std::make_unique<MemoryIndex>(r);
  network_ = std::make_unique<CostNetwork>(CostNetwork::from_reduced(r));
  const SolveResult exact = solve_small_exactly(stop, store);
  if (o_.bound.share > 0 && first_worker_ == 0 && exact.status != SolveStatus::kOptimal)
    bound_ = std::make_unique<BoundWorker>(r, *network_, o_.bound, o_.exact);
  const double unit = memory_price_unit(r);
  const int threads = std::min(
      SolverOptions::kMaxThreads,
      o_.threads > 0 ? o_.threads
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  for (int i = 0; i < threads; ++i) {
    // Each worker builds its priced network: on a huge instance that takes long enough to
    // check the time between them (an optimal answer needs no workers to be returned).
    if (stop.should_stop()) {
      if (exact.status == SolveStatus::kOptimal) break;
      return out_of_time();
    }
    const int w = first_worker_ + i;  // the global worker index sets the price level
    Pricing pricing = o_.pricing;
    if (pricing == Pricing::kMixed) pricing = w % 2 == 0 ? Pricing::kPerMember : Pricing::kPerTime;
    const std::vector<double>& scales = o_.prices.scales;
    const double scale =
        scales[static_cast<std::size_t>(o_.pricing == Pricing::kMixed ? w / 2 : w) % scales.size()];
    // The last `polishers` workers of this process polish (never the first: it keeps a
    // one-thread run's price trajectory).
    const bool polisher = i >= 1 && i >= threads - o_.polishers;
    workers_.push_back(std::make_unique<Worker>(r, *index_, *network_, o_, unit * scale, w, pricing,
                                                o_.deterministic ? nullptr : shared_.get(),
                                                polisher));
  }
  if (exact.status == SolveStatus::kOptimal) adopt(exact_x_, exact_cost_);
  return exact.status == SolveStatus::kOptimal ? exact : SolveResult{SolveStatus::kFeasible, ""};
}

// Exact mode by dynamic programming: where the tables of bucket elimination along a min-fill
// order hold at most exact.dp_entries entries (the work, known before it starts; planned
// for problems of at most exact.prove_max_groups groups, the cap of every complete search),
// the least cost with memory left aside is computed. If its minimiser fits the limit it is
// optimal; otherwise the least cost is a certified bound.
SolveResult Portfolio::solve_by_elimination(StopControl& stop, IncumbentStore& store) {
  const Reduced& r = *reduced_;
  const SolveResult open{SolveStatus::kFeasible, ""};
  if (o_.exact.dp_entries == 0 ||
      r.num_nodes() > static_cast<std::size_t>(o_.exact.prove_max_groups))
    return open;
  const BucketElimination dp(r, min_fill_order(r).order);
  if (dp.entries() > o_.exact.dp_entries) return open;
  const std::optional<BucketElimination::Result> least = dp.run(stop);
  if (!least || least->cost >= kForbidden) return open;
  const std::vector<Strategy> a = r.expand(least->x);
  const Evaluation ev = evaluate(p_, a);
  if (!ev.feasible) {
    store.offer_bound(least->cost, "elimination");
    log_.info(
        "exact: the least cost without the memory limit, %s, is a bound (its minimiser "
        "overloads memory)",
        to_string(least->cost).c_str());
    return open;
  }
  log_.info(
      "exact: cost %s is optimal (dynamic programming over %zu reduced nodes, %llu "
      "table entries; its minimiser fits the memory limit)",
      to_string(ev.cost).c_str(), r.num_nodes(), static_cast<unsigned long long>(dp.entries()));
  return claim_optimal(least->x, a, ev, store, "dynamic programming");
}

// An exact method's answer (`x`, expanded to `a`, which the evaluator found feasible) as the
// answer and its own certificate.
SolveResult Portfolio::claim_optimal(const std::vector<Strategy>& x, const std::vector<Strategy>& a,
                                     const Evaluation& ev, IncumbentStore& store,
                                     const std::string& how) {
  exact_x_ = x;
  exact_cost_ = ev.cost;
  store.offer(a, ev.cost, "exact");
  store.offer_bound(ev.cost, "exact");
  return {SolveStatus::kOptimal, "proven optimal by " + how + " over the presolved problem"};
}

// Exact mode by search: a reduced problem of at most exact.max_nodes nodes is searched
// completely by branch-and-bound (the window search over every node) within a budget of
// search nodes. A complete search proves its answer optimal: assignments that pick a
// forbidden entry cost more than any that does not.
SolveResult Portfolio::solve_small_exactly(StopControl& stop, IncumbentStore& store) {
  const Reduced& r = *reduced_;
  if (SolveResult dp = solve_by_elimination(stop, store); dp.status == SolveStatus::kOptimal)
    return dp;
  if (r.num_nodes() > static_cast<std::size_t>(o_.exact.max_nodes))
    return {SolveStatus::kFeasible, ""};
  LocalState state(r);
  std::vector<Strategy> x;
  auto [incumbent, has] = store.snapshot();
  if (!has || !r.contract(incumbent, x)) x.assign(r.num_nodes(), 0);
  state.assign(x);
  WindowSearch search(r, nullptr, o_.lns);
  const WindowSearch::Exact e =
      search.solve_exactly(state, static_cast<std::size_t>(o_.exact.search_nodes), stop);
  if (!e.complete || !e.feasible) return {SolveStatus::kFeasible, ""};
  const std::vector<Strategy> a = r.expand(state.assignment());
  const Evaluation ev = evaluate(p_, a);
  if (!ev.feasible) return {SolveStatus::kFeasible, ""};
  log_.info("exact: cost %s is optimal (complete branch-and-bound over %zu reduced nodes)",
            to_string(ev.cost).c_str(), r.num_nodes());
  return claim_optimal(state.assignment(), a, ev, store, "complete branch-and-bound");
}

void Portfolio::run(StopControl& stop, IncumbentStore& store, std::uint64_t rounds,
                    double seconds) {
  const Clock::time_point until =
      seconds > 0 ? time_after(stop.now(), seconds) : Clock::time_point::max();
  std::vector<std::thread> pool;
  std::atomic<bool> done{false};  // the workers have returned: the bound stops too
  if (bound_ && !o_.deterministic)
    pool.emplace_back([&] { bound_->run(stop, store, log_, o_.bound.share, o_.gap_limit, done); });
  // The workers after the first yield to it (and to the bound): worker 0 has the price
  // level of a one-thread run, so more threads than cores must not slow it down.
  for (std::size_t w = 1; w < workers_.size(); ++w)
    pool.emplace_back([&, w] {
      lower_thread_priority(o_.explorer_nice);
      workers_[w]->run(stop, store, log_, rounds, until);
    });
  if (!workers_.empty()) workers_[0]->run(stop, store, log_, rounds, until);
  done = true;
  for (auto& t : pool) t.join();
}

void Portfolio::bound_after(StopControl& stop, IncumbentStore& store) {
  if (!bound_) return;
  WorkMeter meter;
  meter.limit =
      static_cast<std::uint64_t>(o_.bound.share * static_cast<double>(work_units(o_.work_limit)));
  const StopControl own(stop, meter);
  while (!own.should_stop() && !BoundWorker::closed(store, o_.gap_limit)) {
    bound_->step(own, store, log_, false);
    own.charge(bound_->engine().work());
    if (!own.should_stop()) bound_->prove(own, store, log_);
  }
}

namespace {
void add_to(NeighbourhoodReport& report, const NeighbourhoodStats& s) {
  report.calls += s.calls;
  report.improvements += s.improvements;
  report.gain += s.gain;
  report.seconds += s.seconds;
}
}  // namespace

std::vector<NeighbourhoodReport> Portfolio::neighbourhood_reports() const {
  std::vector<NeighbourhoodReport> reports;
  for (const auto& w : workers_) {
    const auto list = w->neighbourhoods();
    reports.resize(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      reports[i].name = list[i]->name();
      add_to(reports[i], list[i]->stats());
    }
  }
  NeighbourhoodReport priced{"priced-search"};
  for (const auto& w : workers_) add_to(priced, w->priced_search_stats());
  if (priced.calls > 0) reports.push_back(priced);
  return reports;
}

std::pair<std::vector<Strategy>, Total> Portfolio::best() const {
  std::pair<std::vector<Strategy>, Total> result{{}, 0};
  for (const auto& w : workers_)  // in worker order, ties to the lower index: deterministic
    if (!w->best().empty() && (result.first.empty() || w->best_cost() < result.second))
      result = {w->best(), w->best_cost()};
  return result;
}

void Portfolio::adopt(const std::vector<Strategy>& x, Total cost) {
  for (auto& w : workers_) w->adopt(x, cost);
}

std::vector<double> Portfolio::bound_multipliers() const {
  return bound_ ? bound_->engine().multipliers() : std::vector<double>{};
}

void Portfolio::set_bound_multipliers(const std::vector<double>& lambda) {
  if (bound_) bound_->engine().set_multipliers(lambda);  // ignored if of another size
}

void Portfolio::drop_bound() {
  bound_.reset();
}

std::vector<double> Portfolio::prices() const {
  return workers_.empty() ? std::vector<double>{} : workers_[0]->prices();
}

void Portfolio::set_prices(const std::vector<double>& prices) {
  for (auto& w : workers_) w->set_prices(prices);
}

bool Portfolio::improve(const std::vector<Strategy>& x, StopControl& stop, IncumbentStore& store) {
  return !workers_.empty() && workers_[0]->improve(x, stop, store, log_);
}

bool Portfolio::spent() const {
  return std::all_of(workers_.begin(), workers_.end(),
                     [](const auto& w) { return w->work().spent(); });
}

std::uint64_t Portfolio::work() const {
  std::uint64_t done = 0;
  for (const auto& w : workers_) done += w->work().done;
  return done;
}

SolveResult solve_portfolio(const Problem& p, const SolverOptions& o, StopControl& stop,
                            IncumbentStore& store, Log& log, std::span<const Strategy> hint) {
  Portfolio portfolio(p, o, log);
  // Before exact mode, which starts from the store's answer.
  const std::optional<Total> hint_cost = offer_hint(p, hint, store);
  SolveResult result = portfolio.start(stop, store);
  if (result.status == SolveStatus::kInfeasible || result.status == SolveStatus::kOptimal ||
      !portfolio.ready())
    return result;
  std::string hint_note;
  if (!hint.empty()) {
    std::vector<Strategy> x;
    if (!portfolio.reduced().contract({hint.begin(), hint.end()}, x))
      hint_note = "the hint was not used: it picks a strategy that presolve proved useless";
    else if (hint_cost)
      portfolio.adopt(x, *hint_cost);
    else if (!portfolio.improve(x, stop, store))
      hint_note = "the hint, over the memory limit, repaired to no better than the first answer";
    if (!hint_note.empty()) log.info("%s", hint_note.c_str());
  }
  portfolio.run(stop, store, UINT64_MAX);  // deterministic runs end when their work is spent
  if (o.deterministic) portfolio.bound_after(stop, store);
  SolveResult done(store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution, "",
                   portfolio.neighbourhood_reports());
  if (store.proven_optimal()) {
    done.status = SolveStatus::kOptimal;
    done.note = BoundWorker::optimality_note(store);
  }
  done.work = portfolio.work();
  if (!hint_note.empty()) done.note += (done.note.empty() ? "" : "; ") + hint_note;
  return done;
}

}  // namespace iopddl
