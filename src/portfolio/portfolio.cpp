// The portfolio that solve() and the MPI loop step: the baseline answer, presolve, exact
// mode for small cores (exact_mode.cpp), then one worker per thread (worker.hpp) with the
// bound worker beside them (bound_worker.hpp). In a timed run a stagnating worker polishes
// the best answer of all workers; in a run bounded by work (--deterministic) workers share
// nothing but the incumbent store, so it gives the same answer for the same seed and
// thread count.
#include "portfolio.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "../lagrange/network.hpp"
#include "../local/memory_index.hpp"
#include "../reduce/reduced.hpp"
#include "../util/thread_priority.hpp"
#include "bound_worker.hpp"
#include "hint.hpp"
#include "iopddl/solve.hpp"
#include "prepare.hpp"
#include "shared_best.hpp"
#include "worker.hpp"

namespace iopddl::inline v0 {

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

Portfolio::Portfolio(const Problem& p, const Reduced& r, const SolverOptions& o, Log& log,
                     int first_worker)
    : p_(p), o_(o), log_(log), first_worker_(first_worker), reduced_(r) {}

Portfolio::~Portfolio() = default;

SolveResult Portfolio::start(StopControl& stop, IncumbentStore& store) {
  const Reduced& r = reduced_;
  shared_ = std::make_unique<SharedBest>();
  // Out of time already (a huge instance's presolve took the rest): no workers to build.
  const auto out_of_time = [&] {
    workers_.clear();
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
  ready_ = true;
  if (exact.status == SolveStatus::kOptimal) adopt(exact_x_, exact_cost_);
  return exact.status == SolveStatus::kOptimal ? exact : SolveResult{SolveStatus::kFeasible, ""};
}

// The threads of a run: the bound worker's (timed runs), workers 1.. at a lower priority,
// and worker 0 on the calling thread; the bound stops once the workers have returned.
void Portfolio::run(StopControl& stop, IncumbentStore& store, std::uint64_t rounds,
                    double seconds) {
  const Clock::time_point until =
      seconds > 0 ? time_after(stop.now(), seconds) : Clock::time_point::max();
  std::vector<std::thread> pool;
  std::atomic<bool> done{false};  // the workers have returned: the bound stops too
  // CBC only in a run of one round: a distributed run's rounds would cut it off at each
  // synchronisation.
  const bool with_cbc = seconds <= 0;
  if (bound_ && !o_.deterministic)
    pool.emplace_back(
        [&] { bound_->run(stop, store, log_, o_.bound.share, o_.gap_limit, done, 0, with_cbc); });
  // The workers after the first yield to it (and to the bound): worker 0 has the price
  // level of a one-thread run, so more threads than cores must not slow it down. Once the
  // best answer is stale they pause while CBC searches (exact.mip-pause-workers).
  std::atomic<bool> paused{false};  // said once in the log
  const std::function<bool()> pause = [&] {
    const bool now = o_.exact.mip_pause_workers && bound_ && bound_->cbc_running() &&
                     BoundWorker::stale(o_.bound, store.best_seconds(), stop.elapsed());
    if (now && !paused.exchange(true))
      log_.info("the best answer is stale: workers after the first pause while CBC searches");
    return now;
  };
  for (std::size_t w = 1; w < workers_.size(); ++w)
    pool.emplace_back([&, w] {
      lower_thread_priority(o_.explorer_nice);
      workers_[w]->run(stop, store, log_, rounds, until, pause);
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

SolveResult Portfolio::result(const IncumbentStore& store) const {
  SolveResult done(store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution, "",
                   neighbourhood_reports());
  if (store.proven_optimal()) {
    done.status = SolveStatus::kOptimal;
    done.note = BoundWorker::optimality_note(store);
  }
  done.work = work();
  return done;
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

void Portfolio::post(const std::vector<Strategy>& x, Total cost) {
  for (auto& w : workers_) w->post(x, cost);
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

void Portfolio::polish_first(StopControl& stop, IncumbentStore& store) {
  if (!workers_.empty()) workers_[0]->polish_first(stop, store, log_);
}

bool Portfolio::spent() const {
  return std::all_of(workers_.begin(), workers_.end(),
                     [](const auto& w) { return w->work().spent(); });
}

int Portfolio::polishers() const {
  return static_cast<int>(
      std::count_if(workers_.begin(), workers_.end(), [](const auto& w) { return w->polisher(); }));
}

std::uint64_t Portfolio::work() const {
  std::uint64_t done = 0;
  for (const auto& w : workers_) done += w->work().done;
  return done;
}

SolveResult solve_portfolio(const Problem& p, const SolverOptions& o, StopControl& stop,
                            IncumbentStore& store, Log& log, std::span<const Strategy> hint) {
  // Before exact mode, which starts from the store's answer.
  const std::optional<Total> hint_cost = offer_hint(p, hint, store);
  const Prepared prepared = prepare(p, o.presolve, stop, store, log);
  if (!prepared.reduced) return prepared.result;
  const Reduced& r = *prepared.reduced;
  Portfolio portfolio(p, r, o, log);
  SolveResult result = portfolio.start(stop, store);
  if (result.status == SolveStatus::kOptimal || !portfolio.ready()) return result;
  const std::string hint_note =
      hint.empty() ? "" : start_from_hint(p, r, o, hint, hint_cost, portfolio, stop, store, log);
  portfolio.run(stop, store, UINT64_MAX);  // deterministic runs end when their work is spent
  if (o.deterministic) portfolio.bound_after(stop, store);
  SolveResult done = portfolio.result(store);
  if (!hint_note.empty()) done.note += (done.note.empty() ? "" : "; ") + hint_note;
  return done;
}

}  // namespace iopddl::inline v0
