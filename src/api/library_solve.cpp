// The library's solve: one call that owns the stop control, the incumbent store and the
// log that the command line otherwise sets up, and returns what the store holds, checked
// by the reference evaluator.
#include <cmath>
#include <exception>
#include <new>

#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "iopddl/log.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

namespace {

void check_options(const RunOptions& o) {
  const SolverOptions& s = o.solver;
  if (!(o.time_limit >= 0))  // (NaN too)
    throw InputError("time_limit: " + std::to_string(o.time_limit) +
                     " is not a number of seconds of at least 0 (0: no limit)");
  if (s.threads < 0 || s.threads > SolverOptions::kMaxThreads)
    throw InputError("threads: " + std::to_string(s.threads) + " is outside [0, " +
                     std::to_string(SolverOptions::kMaxThreads) + "]");
  if (!(s.gap_limit >= 0 && s.gap_limit <= 1)) throw InputError("gap_limit: must be within [0, 1]");
  if (s.deterministic && s.work_limit == 0)
    throw InputError("work_limit: must be positive in deterministic mode");
  if (!(s.bound.share >= 0 && s.bound.share <= 1))
    throw InputError("bound.share: must be within [0, 1]");
}

}  // namespace

namespace {

// The result of a finished solve: the store's answer judged by the reference evaluator and
// the cutoff.
RunResult judged_result(const Problem& problem, const RunOptions& o, const SolveResult& solved,
                        const IncumbentStore& store, double seconds) {
  RunResult result;
  result.status = solved.status;
  result.note = solved.note;
  result.work = solved.work;
  result.improvements = store.history();
  result.bounds = store.bound_history();
  result.bound = store.bound();
  result.seconds = seconds;
  if (!store.has_solution()) {
    if (result.status != SolveStatus::kInfeasible) result.status = SolveStatus::kNoSolution;
    if (result.status == SolveStatus::kInfeasible)
      result.infeasibility = explain_infeasibility(problem);
    return result;
  }
  std::vector<Strategy> a = store.assignment();
  const Evaluation e = evaluate(problem, a);
  if (!e.feasible)  // the store only takes answers it checked: a bug if this ever happens
    throw std::logic_error("internal error: the solver's answer is not feasible: " +
                           (e.valid ? std::string("over the usage limit") : e.error));
  if (o.cost_cutoff && e.cost >= *o.cost_cutoff) {
    result.status = SolveStatus::kNoSolution;
    result.note = "no answer cheaper than the cutoff " + to_string(*o.cost_cutoff) +
                  " (best found " + to_string(e.cost) + ")";
    return result;
  }
  result.assignment = std::move(a);
  result.cost = e.cost;
  result.peak_usage = e.peak_usage;
  result.peak_time = e.peak_time;
  result.gap = store.gap();
  return result;
}

}  // namespace

RunResult solve(const Problem& problem, const RunOptions& o) {
  check_options(o);
  if (!o.hint.empty()) {
    const Evaluation e = evaluate(problem, o.hint);
    if (!e.valid) throw InputError("hint: " + e.error);
  }
  const double limit = std::isinf(o.time_limit) ? 0 : o.time_limit;  // infinity: none
  StopControl stop(TimeSource::steady().now(), o.solver.deterministic ? 0 : limit);
  stop.watch(o.cancel.flag());
  if (o.solver.deterministic) stop.ignore_deadline();
  IncumbentStore store(&stop);
  std::exception_ptr thrown;  // by the callback; read and written under the store's listener lock
  if (o.on_improvement)
    store.set_listener([&](const Improvement& i, const std::vector<Strategy>& a) {
      if (thrown) return;
      try {
        o.on_improvement(Progress{i.seconds, i.cost, i.source, a});
      } catch (...) {
        thrown = std::current_exception();
        stop.request_stop();
      }
    });
  if (o.on_bound)
    store.set_bound_listener([&](const Improvement& b) {
      if (thrown) return;
      try {
        o.on_bound(b);
      } catch (...) {
        thrown = std::current_exception();
        stop.request_stop();
      }
    });
  Log log(o.log, &stop);
  SolveResult solved;
  try {
    solved = solve(problem, o.solver, stop, store, log, o.hint);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    // A bug in the solver: an answer found before it is still returned (checked below).
    if (!store.has_solution()) throw;
    solved = SolveResult(SolveStatus::kFeasible, std::string("internal error: ") + e.what());
  }
  if (thrown) std::rethrow_exception(thrown);
  return judged_result(problem, o, solved, store, stop.elapsed());
}

}  // namespace iopddl::inline v0
