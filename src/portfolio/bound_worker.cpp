#include "bound_worker.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "../exact/cbc_search.hpp"
#include "../exact/mip_model.hpp"
#include "../exact/proof_search.hpp"
#include "../local/baseline.hpp"
#include "../local/state.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

BoundWorker::BoundWorker(const Reduced& r, const CostNetwork& network, const BoundOptions& o,
                         const ExactOptions& exact)
    : r_(r),
      engine_(r, network, o),
      exact_(exact),
      o_(o),
      stall_(exact.prove_stall, static_cast<std::uint64_t>(exact.prove_stall_steps)) {}

double BoundWorker::share_now(double share, const BoundOptions& o, std::optional<double> best_at,
                              double elapsed, bool cbc_running) {
  if (o.stale_share <= share || cbc_running) return share;
  return stale(o, best_at, elapsed) ? o.stale_share : share;
}

bool BoundWorker::stale(const BoundOptions& o, std::optional<double> best_at, double elapsed) {
  return best_at && elapsed - *best_at > o.stale_after * elapsed;
}

bool BoundWorker::prove(const StopControl& stop, IncumbentStore& store, Log& log) {
  if (exact_.prove_nodes == 0 || r_.num_nodes() > static_cast<std::size_t>(exact_.prove_max_groups))
    return false;
  const auto gap = store.gap();
  if (!gap || store.proven_optimal()) return false;
  // Above the gap, a search has the unspent share of the steps' work as its budget, and
  // runs once that is twice the last such search's: doubling budgets whose sum stays
  // within the share. Once the bound has stalled the share is larger (stall_).
  WorkMeter meter;
  if (*gap > exact_.prove_gap) {
    const double share =
        stalled_ ? std::max(exact_.prove_share, exact_.prove_stalled_share) : exact_.prove_share;
    const double unspent =
        share * static_cast<double>(step_work_) - static_cast<double>(prove_work_);
    if (unspent < 1 || unspent < 2 * share_budget_) return false;  // share 0: never
    share_budget_ = unspent;
    meter.limit = static_cast<std::uint64_t>(unspent);
  }
  const StopControl own(stop, meter);
  auto [incumbent, has] = store.snapshot();
  std::vector<Strategy> x;
  if (!has || !r_.contract(incumbent, x)) return false;
  LocalState state(r_);
  state.assign(x);
  if (!state.feasible() || state.cost() >= kForbidden) return false;
  const Reparametrisation rep = engine_.best_reparametrisation();
  ProofSearch search(r_, rep, exact_.prove_lookahead);
  const std::uint64_t budget = exact_.prove_nodes << std::min(proofs_++, 30);
  const ProofSearch::Outcome out = search.run(state, budget, own);
  prove_work_ += out.work;
  if (!out.complete)
    log.info("proof search cut off after %llu search nodes",
             static_cast<unsigned long long>(out.nodes));
  if (!out.improved && !out.complete) return true;  // the best is as it was: nothing to offer
  const std::vector<Strategy> a = r_.expand(state.assignment());
  const Evaluation e = evaluate(r_.original(), a);
  if (!e.feasible) return true;  // cannot happen: the search checks memory exactly
  if (out.improved && store.offer(a, e.cost, "proof"))
    log.info("proof search: cost %s", to_string(e.cost).c_str());
  if (out.complete) {
    store.offer_bound(e.cost, "proof");  // a finished search is its own certificate
    log.info("proof search finished (%llu search nodes): cost %s is optimal",
             static_cast<unsigned long long>(out.nodes), to_string(e.cost).c_str());
  }
  return true;
}

void BoundWorker::start_cbc(IncumbentStore& store, Log& log) {
  if (cbc_tried_ || exact_.mip_nonzeros == 0 || store.proven_optimal()) return;
  cbc_tried_ = true;
  std::optional<Total> below;
  if (store.has_solution() && store.cost() < kForbidden) below = store.cost();
  CbcLimits limits;
  limits.nice = exact_.mip_nice;
  limits.max_nonzeros = static_cast<std::size_t>(exact_.mip_nonzeros);
  limits.megabytes = static_cast<std::size_t>(exact_.mip_megabytes);
  cbc_ = CbcSearch::start(r_, below, log, limits);
  cbc_running_ = cbc_ != nullptr;
}

void BoundWorker::end_cbc() {
  cbc_.reset();
  cbc_running_ = false;
}

void BoundWorker::take_cbc(IncumbentStore& store, Log& log, double wait) {
  if (!cbc_) return;
  CbcSearch::Update u = cbc_->poll(wait);
  if (u.x) {
    const std::vector<Strategy> a = r_.expand(*u.x);
    const Evaluation e = evaluate(r_.original(), a);
    if (e.feasible && store.offer(a, e.cost, "cbc"))
      log.info("CBC: cost %s", to_string(e.cost).c_str());
  }
  if (u.bound) offer_bound(store, log, *u.bound, "cbc");
  if (u.over || u.complete) {
    log.info("CBC %s after %.2f s", u.complete ? "finished" : "ended unfinished", cbc_->seconds());
    end_cbc();
  }
}

std::string BoundWorker::optimality_note(const IncumbentStore& store) {
  const std::vector<Improvement> bounds = store.bound_history();
  if (!bounds.empty() && bounds.back().source == "proof")
    return "proven optimal by a finished proof search (branch-and-bound under the memory limit)";
  if (!bounds.empty() && bounds.back().source == "cbc")
    return "proven optimal by CBC's branch-and-cut on the reduced problem (floating-point LPs, "
           "answers one cost unit apart)";
  return "proven optimal by the certified Lagrangian bound";
}

bool BoundWorker::closed(const IncumbentStore& store, double gap_limit) {
  if (store.proven_optimal()) return true;
  const auto gap = store.gap();
  return gap_limit > 0 && gap && *gap <= gap_limit;
}

bool BoundWorker::step(const StopControl& stop, IncumbentStore& store, Log& log, bool answers) {
  const std::optional<Total> upper =
      store.has_solution() ? std::optional<Total>(store.cost()) : std::nullopt;
  const Total bound = engine_.step(upper, &stop);
  step_work_ += engine_.work();
  if (const auto stalled = stall_.at(engine_.steps(), static_cast<double>(engine_.best())))
    stalled_ = *stalled;
  if (answers && engine_.labelling_fits()) offer_labelling(r_, engine_.labelling(), store, log);
  return offer_bound(store, log, bound, "lagrangian");
}

void BoundWorker::offer_labelling(const Reduced& r, const std::vector<Strategy>& x,
                                  IncumbentStore& store, Log& log) {
  const std::vector<Strategy> a = r.expand(x);
  const Evaluation e = evaluate(r.original(), a);
  if (e.feasible && store.offer(a, e.cost, "bound"))
    log.info("bound labelling: cost %s", to_string(e.cost).c_str());
}

bool BoundWorker::offer_bound(IncumbentStore& store, Log& log, Total bound, const char* source) {
  if (!store.offer_bound(bound, source)) return false;
  const auto gap = store.gap();
  if (gap)
    log.info("bound %s, gap %.4f%%", to_string(bound).c_str(), 100 * *gap);
  else
    log.info("bound %s", to_string(bound).c_str());
  return true;
}

bool BoundWorker::stop_if_closed(StopControl& stop, const IncumbentStore& store, Log& log,
                                 double gap_limit) {
  if (!closed(store, gap_limit)) return false;
  log.info(store.proven_optimal() ? "the bound meets the best cost: proven optimal"
                                  : "the gap is within --gap-limit: stopping");
  stop.request_stop();
  return true;
}

void BoundWorker::run(StopControl& stop, IncumbentStore& store, Log& log, double share,
                      double gap_limit, const std::atomic<bool>& done, std::uint64_t max_steps,
                      bool with_cbc) {
  using Seconds = std::chrono::duration<double>;
  // CBC's findings are taken by a thread of their own: a step or a proof search can take
  // many seconds, and a proof must stop the run when it comes, not after them.
  std::thread watcher;
  std::atomic<bool> quit{false};
  if (max_steps == 0) engine_.cap_lp_time();  // --steps runs keep the LP's cadence in steps
  while (!stop.should_stop() && !done.load(std::memory_order_relaxed) &&
         (max_steps == 0 || engine_.steps() < max_steps) &&
         !stop_if_closed(stop, store, log, gap_limit)) {
    const auto start = Clock::now();
    step(stop, store, log, true);
    if (with_cbc && !stop.should_stop() && !cbc_tried_) {
      start_cbc(store, log);
      if (cbc_)
        watcher = std::thread([&] {
          while (cbc_ && !quit.load(std::memory_order_relaxed)) {
            take_cbc(store, log, 0.05);
            if (!stop.should_stop()) stop_if_closed(stop, store, log, gap_limit);
          }
        });
    }
    if (!stop.should_stop()) prove(stop, store, log);
    if (stop.should_stop() || stop_if_closed(stop, store, log, gap_limit)) continue;
    const double now_share =
        share_now(share, o_, store.best_seconds(), stop.elapsed(), cbc_running_.load());
    if (now_share >= 1) continue;
    // Rests (1 / share - 1) times the step's time, waking every 10 ms to look at the stop.
    const auto rest = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         Seconds((Clock::now() - start)) * (1 / now_share - 1));
    while (Clock::now() < rest && !stop.should_stop() && !done.load(std::memory_order_relaxed))
      std::this_thread::sleep_for(std::min<Clock::duration>(
          rest - Clock::now(), std::chrono::duration_cast<Clock::duration>(Seconds(0.01))));
  }
  quit = true;
  if (watcher.joinable()) watcher.join();
  take_cbc(store, log, 0);  // what it sent by now
  if (cbc_) log.info("CBC stopped after %.2f s", cbc_->seconds());
  end_cbc();
  if (const std::string lp = engine_.lp().summary(); !lp.empty()) log.info("%s", lp.c_str());
}

BoundOutcome solve_bound(const Problem& p, const SolverOptions& o, StopControl& stop,
                         IncumbentStore& store, Log& log, std::uint64_t max_steps) {
  BoundOutcome out;
  const SolveResult base = solve_baseline(p, stop, store, log);
  out.status = base.status;
  if (base.status == SolveStatus::kInfeasible) return out;
  const Reduced r = [&] {
    try {
      return Reduced::build(p, o.presolve, &stop);
    } catch (const PresolveStopped&) {  // out of time: the identity grouping still bounds
      log.info("presolve stopped by the time limit: bounding the input as it is");
      return Reduced::build(p, false);
    }
  }();
  const CostNetwork network = CostNetwork::from_reduced(r);
  BoundWorker worker(r, network, o.bound, o.exact);
  worker.step(stop, store, log, true);  // one step at least, for a bound whatever the time left
  const std::atomic<bool> never{false};
  worker.run(stop, store, log, 1, o.gap_limit, never, max_steps, max_steps == 0);
  out.multipliers = worker.engine().multipliers();
  out.steps = worker.engine().steps();
  if (store.has_solution())
    out.status = store.proven_optimal() ? SolveStatus::kOptimal : SolveStatus::kFeasible;
  return out;
}

}  // namespace iopddl::inline v0
