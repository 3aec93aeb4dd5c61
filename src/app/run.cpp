// A command-line solve: read the input, solve (in one process or under MPI), report, and
// print the final line; the exit status says what was printed.
#include "run.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "../regional/simulate.hpp"
#include "iopddl/distributed.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "plain_checkpoints.hpp"
#include "run_state.hpp"
#include "signals.hpp"

namespace iopddl::inline v0::app {

double safety_margin(double time_limit) {
  // Printing 65k strategies and exiting takes a few ms; solver phases check the clock at
  // least every few ms. 0.15 s + 1.5 % keeps a wide margin (measured: see README).
  return std::min(0.15 + 0.015 * time_limit, 0.5 * time_limit);
}

bool use_mpi(const RunSettings&) {
  return built_with_mpi() && launched_by_mpi();  // checkpoints alone need no MPI
}

namespace {
int solve_and_print(Run& run, const MpiSession& session);
}

int run_solve(const RunSettings& settings, Clock::time_point process_start) {
  // Before MPI starts any thread of its own: they inherit the mask.
  const sigset_t set = block_stop_signals(true);
  // Never freed: the watchdog may end the job through it while the process exits.
  MpiSession& session = *new MpiSession(use_mpi(settings));
  // Never freed: the signal thread may still use it while the process exits.
  Run& run = *new Run(settings, process_start, session.rank());
  if (session.active()) run.session = &session;
  // The watchdog's deadline: half the safety margin before the limit, after the
  // solver's own stop (the margin before it) and the printing that follows.
  const double margin = settings.time_limit > 0 ? safety_margin(settings.time_limit) : 0;
  const Clock::time_point watchdog =
      settings.time_limit > 0 && !settings.solver.deterministic
          ? time_after(process_start, settings.time_limit - margin / 2)
          : Clock::time_point::max();
  if (watchdog != Clock::time_point::max()) run.print.write_deadline = watchdog;
  const auto grace =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(margin / 4));
  start_signal_thread(run, set, watchdog, grace);
  const int status = solve_and_print(run, session);
  session.finalize();
  return status;
}

namespace {

std::optional<int> take_input(Run& run, const Problem& problem);

// Reads the problem; on failure returns the exit status (the final line, if any, printed).
std::optional<int> read_input(Run& run, Problem& problem) {
  const RunSettings& settings = run.settings;
  // --deterministic ignores --time-limit from the start: a slow read on a loaded machine
  // must not turn the same run into an error (a request's own flag is known only once read).
  if (settings.solver.deterministic) run.stop.ignore_deadline();
  try {
    problem = read_input_file(settings.problem_path, &run.stop, &run.request, settings.request);
  } catch (const ReadStopped& e) {  // the deadline (or a signal, which prints by itself)
    std::fprintf(stderr, "error: %s: the time limit was reached while reading it\n",
                 settings.problem_path.c_str());
    print_final(run);
    return kExitNoSolution;
  } catch (const InputError& e) {
    if (run.rank == 0) std::fprintf(stderr, "error: %s\n", e.what());
    if (settings.contest) {  // the contest reads the last line: [] says "no answer"
      print_final(run);
      return kExitInput;
    }
    std::lock_guard lock(run.print.mutex);
    run.print.printed = true;  // an input error prints no final line
    return kExitInput;
  }
  return take_input(run, problem);
}

// What follows reading (or receiving) the problem: the time kept for the end, the request's
// settings; on a refusal returns the exit status.
std::optional<int> take_input(Run& run, const Problem& problem) {
  const RunSettings& settings = run.settings;
  run.problem = &problem;
  // Checking and printing the answer grow with the instance: about 0.5 s per million nodes
  // and edges (measured on a generated instance of 500,000 nodes).
  run.stop.reserve(5e-7 * static_cast<double>(problem.num_nodes() + problem.num_edges()) +
                   2 * teardown_seconds());  // the workers about double the memory read
  run.log.info("read %zu nodes, %zu edges (%zu distinct tables), %zu time segments",
               problem.num_nodes(), problem.num_edges(), problem.num_tables(),
               problem.num_segments());
  if (!settings.proto_output_path.empty() && !run.request) {
    std::lock_guard lock(run.print.mutex);
    run.print.printed = true;  // refused before the search: no final line
    if (run.rank == 0)
      std::fprintf(stderr, "error: --output-proto: %s is not an XLA request\n",
                   settings.problem_path.c_str());
    return kExitUsage;
  }
  if (run.request) {
    const XlaRequest& q = *run.request;
    for (const std::string& field : q.ignored)
      std::fprintf(stderr, "warning: %s: %s is not used by iopddl: the answer leaves it out\n",
                   settings.problem_path.c_str(), field.c_str());
    if (q.cost_scale != 1 && run.rank == 0)
      std::fprintf(stderr,
                   "warning: %s: costs solved multiplied by %.17g and rounded "
                   "(largest relative rounding error %.3g); the request's answer (--output, "
                   "--output-proto) is in its own units\n",
                   settings.problem_path.c_str(), q.cost_scale, q.max_rounding_error);
    // The request's own timeout, when shorter than the command line's.
    if (q.timeout_seconds && (settings.time_limit <= 0 || *q.timeout_seconds < settings.time_limit))
      run.stop.reserve(settings.time_limit > 0 ? settings.time_limit - *q.timeout_seconds : 0);
    run.log.info("XLA request%s%s: offset %.17g, budget %s%s, %zu hint entries",
                 q.name.empty() ? "" : " ", q.name.c_str(), q.offset,
                 q.budget ? std::to_string(*q.budget).c_str() : "none",
                 q.overbudget_coeff ? " (soft)" : "", q.hint.size());
  }
  if (settings.solver.deterministic || (run.request && run.request->deterministic))
    run.stop.ignore_deadline();  // rounds bound it, not time
  return std::nullopt;
}

// The status to print and its note. A proof is only of the problem solved: a request whose
// costs were rounded, or whose soft budget became the hard limit, is not proven optimal.
std::string settle_status(Run& run, const Problem& problem, const SolveResult& result) {
  run.end.status = status_name(result.status);
  run.end.solve_status = result.status;
  if (result.status != SolveStatus::kOptimal || !run.request) return result.note;
  if (run.request->max_rounding_error > 0) {
    run.end.status = status_name(SolveStatus::kFeasible);
    return "optimal for the rounded costs only (" + result.note + ")";
  }
  if (soft_budget(*run.request) && !run.weighing) {
    run.end.status = status_name(SolveStatus::kFeasible);
    return "optimal under the hard limit " + std::to_string(problem.usage_limit().value_or(0)) +
           " only, not for the soft budget (" + result.note + ")";
  }
  return result.note;
}

// The work and each neighbourhood's statistics, kept for the result document and logged
// with --stats.
void report_statistics(Run& run, const SolveResult& result) {
  {
    std::lock_guard lock(run.print.mutex);  // the signal thread may be writing the result
    run.end.neighbourhoods = result.neighbourhoods;
    run.end.work = result.work;
  }
  if (!run.settings.stats) return;
  run.log.info("work: %llu units", static_cast<unsigned long long>(result.work));
  for (const NeighbourhoodReport& n : result.neighbourhoods)
    run.log.info("neighbourhood %s: %llu batches, %llu improving moves, gain %s, %.2f s",
                 n.name.c_str(), static_cast<unsigned long long>(n.calls),
                 static_cast<unsigned long long>(n.improvements), to_string(n.gain).c_str(),
                 n.seconds);
}

// The answer in the request's terms; one that does not beat the request's max_cost is
// withheld, as XLA expects.
void report_request_answer(Run& run) {
  const RequestAnswer answer = request_answer(run, run.store.assignment(), true);
  run.log.info("request: cost %.17g in its units, status %s%s%s", answer.cost,
               status_name(answer.status), answer.message.empty() ? "" : ": ",
               answer.message.c_str());
  if (answer.status != SolveStatus::kNoSolution) return;
  std::lock_guard lock(run.print.mutex);
  run.end.withheld = true;
  run.end.status = status_name(SolveStatus::kNoSolution);
}

// The statistics and the final report; false if the reference evaluator refuses the
// store's answer (a bug: the store only takes answers it checked), which is then not printed.
bool report(Run& run, const Problem& problem, const SolveResult& result) {
  const std::string note = settle_status(run, problem, result);
  report_statistics(run, result);
  if (!run.store.has_solution() || run.rank != 0) return true;
  // The reference evaluator has the last word on what we print.
  const Evaluation e = evaluate(problem, run.store.assignment());
  if (!e.feasible) {
    std::fprintf(stderr, "internal error: the solver's answer is not feasible: %s\n",
                 e.valid ? "over the usage limit" : e.error.c_str());
    std::lock_guard lock(run.print.mutex);  // before a watchdog could print it
    run.end.refused = true;
    return false;
  }
  run.log.info("final: cost %s, peak %s / limit %s, %zu forbidden picks, status %s%s%s",
               to_string(e.cost).c_str(), to_string(e.peak_usage).c_str(),
               problem.usage_limit() ? std::to_string(*problem.usage_limit()).c_str() : "none",
               e.forbidden_picks, run.end.status.c_str(), note.empty() ? "" : ": ", note.c_str());
  if (const auto bound = run.store.bound()) {
    const auto history = run.store.bound_history();  // (the last entry is the bound's)
    run.log.info("certified lower bound %s (by %s), gap %.4f%%", to_string(*bound).c_str(),
                 history.empty() ? "?" : history.back().source.c_str(),
                 100 * relative_gap(e.cost, *bound));
  }
  if (run.request) report_request_answer(run);
  return true;
}

int solve_here(Run& run, const MpiSession& session);

// The final checkpoint outside the distributed loop's own: "" once written (or not asked
// for), else why not.
std::string final_checkpoint(Run& run, const Problem& problem) {
  const std::string& path = run.settings.distributed.checkpoint_path;
  const auto [a, has] = run.store.snapshot();
  if (path.empty() || !has) return "";
  try {
    if (refresh_checkpoint(problem, path, a, run.store.cost(), run.store.bound(),
                           run.stop.elapsed()))
      run.log.info("checkpoint written to %s", path.c_str());
    return "";
  } catch (const OutputError& e) {
    return e.what();
  }
}

// The solve in one process, with its checkpoints (builds with MPI) and a request's hint.
// Returns why the final checkpoint could not be written ("" if it was, or none was asked).
std::string solve_plain(Run& run, const Problem& problem, SolveResult& result) {
  const RunSettings& settings = run.settings;
  SolverOptions o = settings.solver;
  std::vector<Strategy> hint;
  if (run.request) {
    o.deterministic = o.deterministic || run.request->deterministic;
    hint = run.request->hint;
  }
  if (!settings.distributed.resume_path.empty()) {
    const ResumePoint resume = read_resume_point(problem, settings.distributed.resume_path);
    if (!resume.assignment.empty()) {
      const Evaluation e = evaluate(problem, resume.assignment);
      if (e.feasible) run.store.offer(resume.assignment, e.cost, "checkpoint");
      hint = resume.assignment;
      run.log.info("resumed from %s: cost %s after %.1f s",
                   settings.distributed.resume_path.c_str(), to_string(e.cost).c_str(),
                   resume.elapsed);
    }
    if (resume.bound) {
      run.store.offer_bound(*resume.bound, "checkpoint");  // certified by the run that wrote it
      run.log.info("resumed the certified bound %s", to_string(*resume.bound).c_str());
    }
  }
  std::optional<PlainCheckpoints> checkpoints;
  if (built_with_mpi())  // (checkpoints exist where MPI does)
    checkpoints.emplace(problem, run.store, run.stop, run.log, settings.distributed,
                        run.checkpoint_request);
  if (run.weighing) {
    const SoftBudget budget = *soft_budget(*run.request);
    const SoftOutcome soft =
        solve_soft_budget(problem, budget, o, run.stop, run.store, run.log, hint);
    {
      std::lock_guard lock(run.print.mutex);
      run.weighing->bound = soft.bound;
    }
    result.status = soft.proven ? SolveStatus::kOptimal
                    : soft.has  ? SolveStatus::kFeasible
                                : SolveStatus::kNoSolution;
    result.note = "soft budget: cost " + to_string(soft.cost) + " and overrun penalty " +
                  std::to_string(static_cast<double>(overrun_penalty(budget, soft.peak))) +
                  " in the problem's units, " + std::to_string(soft.solves) + " solves";
  } else if (settings.distributed.simulate_ranks > 0)
    result = simulate_ranks(problem, o, settings.distributed, run.stop, run.store, run.log);
  else
    result = solve(problem, o, run.stop, run.store, run.log, hint);
  return checkpoints ? checkpoints->write_final() : "";
}

// Every rank ends with rank 0's status (the one that says what was printed), so mpirun and
// batch systems report the run as it went.
int solve_and_print(Run& run, const MpiSession& session) {
  const int status = session.agree_status(solve_here(run, session));
  run.final_status = status;
  return status;
}

// The problem on every rank. Under mpirun rank 0 reads a contest file and sends it to the
// others (one read of the file per job, not one per rank); an XLA request, whose reading
// also sets the run's terms, is read by every rank. Ranks go on together: one that could
// not take the problem (the deadline may come on one rank only) stops them all, and the
// exit status is returned.
std::optional<int> obtain_input(Run& run, const MpiSession& session, Problem& problem) {
  const bool shared = session.active() && session.size() > 1;
  std::optional<int> unread;
  if (!shared || run.rank == 0) unread = read_input(run, problem);
  if (shared && session.all(!unread)) {
    if (session.from_rank0(run.request ? 1 : 0) == 0) {
      const std::size_t bytes = session.share_problem(problem);
      if (run.rank != 0) unread = take_input(run, problem);
      run.log.info("problem sent to %d ranks (%.1f MB each)", session.size() - 1,
                   static_cast<double>(bytes) / 1e6);
    } else if (run.rank != 0) {
      unread = read_input(run, problem);
    }
  }
  if (session.all(!unread)) return std::nullopt;
  if (unread) return *unread;
  return print_final(run) == Printed::kSolution ? kExitOk : kExitNoSolution;
}

// A request's soft budget: one process weighs overruns against cost on the problem without
// its hard limit; a distributed run answers under that limit, and says so.
void weigh_overruns(Run& run, const MpiSession& session, Problem& problem) {
  if (!run.request || !soft_budget(*run.request)) return;
  if (session.active() || run.settings.distributed.simulate_ranks > 0) {
    if (run.rank == 0)
      std::fprintf(stderr,
                   "warning: %s: overbudget_coeff: a distributed run answers the soft budget "
                   "under the hard limit %lld (one process, without mpirun, weighs overruns "
                   "against cost)\n",
                   run.settings.problem_path.c_str(),
                   static_cast<long long>(problem.usage_limit().value_or(0)));
    return;
  }
  problem = problem.with_usage_limit(std::nullopt);
  run.weighing.emplace();
}

int solve_here(Run& run, const MpiSession& session) {
  const RunSettings& settings = run.settings;
  run.log.info("iopddl %s: %s, time limit %g s, seed %llu", version(),
               settings.problem_path.c_str(), settings.time_limit,
               static_cast<unsigned long long>(settings.solver.seed));
  Problem problem;
  if (const std::optional<int> stopped = obtain_input(run, session, problem)) return *stopped;
  weigh_overruns(run, session, problem);
  SolveResult result;
  std::string checkpoint_error;  // why the last checkpoint could not be written
  std::string internal_error;    // a bug or exhausted memory in the solver
  try {
    if (session.active()) {
      result = solve_distributed(session, problem, settings.solver, settings.distributed, run.stop,
                                 run.store, run.log, run.checkpoint_request, &checkpoint_error);
      // (also when the loop never ran: proven optimal before it)
      if (run.rank == 0 && checkpoint_error.empty())
        checkpoint_error = final_checkpoint(run, problem);
    } else {
      checkpoint_error = solve_plain(run, problem, result);
    }
  } catch (const InputError& e) {  // a bad --resume file, refused before the search
    std::lock_guard lock(run.print.mutex);
    run.print.printed = true;
    if (run.rank == 0) std::fprintf(stderr, "error: %s\n", e.what());
    return kExitInput;
  } catch (const std::exception& e) {
    // Whatever failed, an answer found before it is still printed (and checked first).
    internal_error = e.what();
    std::fprintf(stderr, "internal error: %s\n", e.what());
    result.status = run.store.has_solution() ? SolveStatus::kFeasible : SolveStatus::kNoSolution;
  }
  if (!report(run, problem, result)) {
    print_final(run);  // [] rather than an answer the evaluator refuses
    return kExitInternal;
  }
  const bool found = print_final(run) == Printed::kSolution;
  if (!internal_error.empty()) return kExitInternal;
  if (!found) return kExitNoSolution;
  if (!checkpoint_error.empty()) {
    std::fprintf(stderr, "error: --checkpoint %s\n", checkpoint_error.c_str());
    return kExitOutput;
  }
  return run.print.output_error.empty() ? kExitOk : kExitOutput;
}

}  // namespace

}  // namespace iopddl::inline v0::app
