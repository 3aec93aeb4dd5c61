#include "run.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>

#include "iopddl/evaluate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/io.hpp"
#include "iopddl/log.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::app {
namespace {

// Everything the signal thread and the main thread share. The final line is printed at
// most once, by print_final, under `mutex`.
struct Run {
  Run(const RunSettings& s, Clock::time_point start)
      : settings(s), stop(start, s.time_limit > 0 ? s.time_limit - safety_margin(s.time_limit)
                                                  : 0),
        store(&stop), log(stdout, &stop, s.quiet) {}
  const RunSettings settings;
  StopControl stop;
  IncumbentStore store;
  Log log;
  const Problem* problem = nullptr;  // set once read, before any solution exists
  std::mutex mutex;
  bool printed = false;
  std::string status = "no solution";
};

void write_result_json(Run& run, const std::vector<Strategy>& a, bool has) {
  const auto& path = run.settings.output_path;
  if (path.empty()) return;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << "{\"instance\":\"" << run.settings.problem_path << "\",\"status\":\"" << run.status
        << "\"";
    out << ",\"assignment\":" << (has ? format_assignment(a) : "[]");
    if (has && run.problem) {
      Evaluation e = evaluate(*run.problem, a);
      out << ",\"cost\":" << to_string(e.cost) << ",\"peak_usage\":" << to_string(e.peak_usage)
          << ",\"feasible\":" << (e.feasible ? "true" : "false");
    }
    out << ",\"usage_limit\":";
    if (run.problem && run.problem->usage_limit())
      out << *run.problem->usage_limit();
    else
      out << "null";
    out << ",\"elapsed_seconds\":" << run.stop.elapsed() << ",\"improvements\":[";
    auto history = run.store.history();
    for (std::size_t i = 0; i < history.size(); ++i)
      out << (i ? "," : "") << "{\"seconds\":" << history[i].seconds
          << ",\"cost\":" << to_string(history[i].cost) << ",\"source\":\""
          << history[i].source << "\"}";
    out << "],\"settings\":\"";
    for (char c : run.settings.settings_text) {
      if (c == '"' || c == '\\') out << '\\';
      if (c == '\n') out << "\\n";
      else out << c;
    }
    out << "\"}\n";
  }
  std::rename(tmp.c_str(), path.c_str());
}

// The only function that prints the final line. Returns whether a solution was printed.
bool print_final(Run& run) {
  std::lock_guard lock(run.mutex);
  if (run.printed) return false;
  run.printed = true;
  const auto [a, has] = run.store.snapshot();
  const std::string line = has ? format_assignment(a) : "[]";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  write_result_json(run, a, has);
  return has;
}

void signal_thread(Run* run, sigset_t set) {
  int sig = 0;
  if (sigwait(&set, &sig) != 0) return;
  run->stop.request_stop();
  run->log.info("stopped by signal %d: printing the best solution so far", sig);
  print_final(*run);
  std::fflush(stdout);
  _exit(128 + sig);
}

}  // namespace

double safety_margin(double time_limit) {
  // Printing 65k strategies and exiting takes a few ms; solver phases check the clock at
  // least every few ms. 0.15 s + 1.5 % keeps a wide margin (measured: see README).
  return std::min(0.15 + 0.015 * time_limit, 0.5 * time_limit);
}

int run_solve(const RunSettings& settings, Clock::time_point process_start) {
  // Never freed: the signal thread may still use it while the process exits.
  Run& run = *new Run(settings, process_start);
  // SIGINT/SIGTERM are blocked in every thread and taken by one waiting thread, which can
  // print the incumbent at once whatever the solver is doing.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(signal_thread, &run, set).detach();

  run.log.info("iopddl %s: %s, time limit %g s, seed %llu", "0.1.0",
               settings.problem_path.c_str(), settings.time_limit,
               static_cast<unsigned long long>(settings.solver.seed));
  Problem problem;
  try {
    problem = read_problem(settings.problem_path);
  } catch (const InputError& e) {
    std::lock_guard lock(run.mutex);
    run.printed = true;  // an input error prints no final line
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitInput;
  }
  run.problem = &problem;
  run.log.info("read %zu nodes, %zu edges (%zu distinct tables), %zu time segments",
               problem.num_nodes(), problem.num_edges(), problem.num_tables(),
               problem.num_segments());
  SolveResult result = solve(problem, settings.solver, run.stop, run.store, run.log);
  switch (result.status) {
    case SolveStatus::kOptimal: run.status = "optimal"; break;
    case SolveStatus::kFeasible: run.status = "feasible"; break;
    case SolveStatus::kInfeasible: run.status = "infeasible"; break;
    case SolveStatus::kNoSolution: run.status = "no solution"; break;
  }
  if (run.store.has_solution()) {
    // The reference evaluator has the last word on what we print.
    Evaluation e = evaluate(problem, run.store.assignment());
    if (!e.feasible) {
      std::fprintf(stderr, "internal error: the solver's answer is not feasible: %s\n",
                   e.valid ? "over the usage limit" : e.error.c_str());
      return kExitInternal;
    }
    run.log.info("final: cost %s, peak %s / limit %s, %zu forbidden picks, status %s%s%s",
                 to_string(e.cost).c_str(), to_string(e.peak_usage).c_str(),
                 problem.usage_limit() ? std::to_string(*problem.usage_limit()).c_str()
                                       : "none",
                 e.forbidden_picks, run.status.c_str(), result.note.empty() ? "" : ": ",
                 result.note.c_str());
  }
  return print_final(run) ? kExitOk : kExitNoSolution;
}

}  // namespace iopddl::app
