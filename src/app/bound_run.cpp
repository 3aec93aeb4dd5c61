// `iopddl bound FILE`: the whole budget on the certified lower bound. Progress lines start
// with '#'; the last line is the bound (an integer), or "infeasible" when the instance is
// proven infeasible. SIGINT/SIGTERM/SIGHUP end the ascent early, and the best bound so far
// is printed all the same (exit 128+N); a time limit (or signal) that comes while the input
// is read leaves nothing to print (exit 4, or 128+N).
#include <signal.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>

#include "io/json.hpp"
#include "iopddl/distributed.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/io.hpp"
#include "iopddl/log.hpp"
#include "iopddl/solve.hpp"
#include "run.hpp"
#include "signals.hpp"
#include "xla_request.hpp"

namespace iopddl::inline v0::app {
namespace {

struct BoundRun {
  BoundRun(Clock::time_point start, double limit) : stop(start, limit) {}
  StopControl stop;
  std::atomic<int> signal{0};
};

void wait_for_signal(BoundRun* run, sigset_t set) {
  int sig = 0;
  if (sigwait(&set, &sig) != 0) return;
  run->signal = sig;
  run->stop.request_stop();
}

std::string multipliers_json(const std::string& instance, Total bound,
                             const std::vector<double>& multipliers) {
  Json document;
  document["instance"] = instance;
  document["lower_bound"] = bound;
  document["multipliers_per_segment"] = multipliers;
  return json_line(document);
}

int bound_and_print(const RunSettings& settings, const std::string& multipliers_path,
                    const MpiSession& session, BoundRun& run, const Problem& problem);

}  // namespace

int run_bound(const RunSettings& settings, const std::string& multipliers_path,
              Clock::time_point process_start) {
  const sigset_t set = block_stop_signals(false);
  // Under mpirun every process bounds a region (after the mask: MPI's threads inherit it);
  // only rank 0 prints.
  const MpiSession session(built_with_mpi() && launched_by_mpi());
  const bool printer = session.rank() == 0;
  // Never freed: the signal thread may still use it while the process exits.
  BoundRun& run = *new BoundRun(process_start, settings.time_limit);
  std::thread(wait_for_signal, &run, set).detach();
  if (settings.time_limit > 0) run.stop.reserve(safety_margin(settings.time_limit));
  Problem problem;
  bool read = true;
  try {
    problem = read_input_file(settings.problem_path, &run.stop, nullptr, settings.request);
  } catch (const ReadStopped&) {  // the time limit, or a signal: no bound to print
    if (printer)
      std::fprintf(stderr, "error: %s: the %s came while reading it\n",
                   settings.problem_path.c_str(), run.signal ? "signal" : "time limit");
    read = false;
  }
  // Ranks go on together (the deadline may come while one rank reads), and every rank
  // ends with rank 0's status.
  if (!session.all(read))
    return session.agree_status(run.signal ? 128 + run.signal : kExitNoSolution);
  return session.agree_status(bound_and_print(settings, multipliers_path, session, run, problem));
}

namespace {

int bound_and_print(const RunSettings& settings, const std::string& multipliers_path,
                    const MpiSession& session, BoundRun& run, const Problem& problem) {
  const bool printer = session.rank() == 0;
  Log log(stdout, &run.stop, settings.quiet || !printer);
  log.info("read %zu nodes, %zu edges, %zu time segments", problem.num_nodes(), problem.num_edges(),
           problem.num_segments());
  IncumbentStore store(&run.stop);
  if (!settings.bound_solution.empty()) {
    const std::vector<Strategy> a = read_solution(settings.bound_solution);
    const Evaluation e = evaluate(problem, a);
    if (!e.feasible)
      throw InputError(settings.bound_solution + ": not a feasible answer of " +
                       settings.problem_path + ": " +
                       (e.valid ? "peak usage " + to_string(e.peak_usage) + " above the limit " +
                                      to_string(*e.usage_limit)
                                : e.error));
    store.offer(a, e.cost, "--solution");
    log.info("--solution: cost %s, the steps' target", to_string(e.cost).c_str());
  }
  const BoundOutcome out =
      session.active()
          ? bound_distributed(session, problem, settings.solver, settings.bound_steps, run.stop,
                              store, log)
          : solve_bound(problem, settings.solver, run.stop, store, log, settings.bound_steps);
  const int exit_signal = run.signal.load();
  if (!printer) return exit_signal ? 128 + exit_signal : kExitOk;
  if (out.status == SolveStatus::kInfeasible) {
    log.info("proven infeasible: even the least-memory assignment exceeds the limit");
    std::printf("infeasible\n");
    std::fflush(stdout);
    return exit_signal ? 128 + exit_signal : kExitNoSolution;
  }
  const Total bound = store.bound().value_or(0);  // a step always runs
  if (store.has_solution())
    log.info("certified lower bound %s after %llu steps; best cost found %s, gap %.4f%%%s",
             to_string(bound).c_str(), static_cast<unsigned long long>(out.steps),
             to_string(store.cost()).c_str(), 100 * relative_gap(store.cost(), bound),
             store.proven_optimal() ? " (proven optimal)" : "");
  int status = kExitOk;
  if (!multipliers_path.empty()) {
    try {
      write_file(multipliers_path, multipliers_json(settings.problem_path, bound, out.multipliers));
    } catch (const OutputError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      status = kExitOutput;
    }
  }
  std::printf("%s\n", to_string(bound).c_str());
  if (std::fflush(stdout) != 0) status = kExitOutput;
  return exit_signal ? 128 + exit_signal : status;
}

}  // namespace
}  // namespace iopddl::inline v0::app
