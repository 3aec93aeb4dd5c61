#include "run.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "iopddl/distributed.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/io.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/log.hpp"
#include "iopddl/solve.hpp"
#include "plain_checkpoints.hpp"
#include "xla_request.hpp"

namespace iopddl::app {

std::string escape_json(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

// Everything the signal thread and the main thread share. The final line is printed at
// most once, by print_final, under `mutex`.
struct Run {
  Run(const RunSettings& s, Clock::time_point start, int rank_)
      : settings(s),
        stop(start, s.time_limit > 0 ? s.time_limit - safety_margin(s.time_limit) : 0),
        store(&stop),
        log(rank_ == 0 ? stdout : nullptr, &stop, s.quiet),
        rank(rank_) {}
  const RunSettings settings;
  StopControl stop;
  IncumbentStore store;
  Log log;
  const Problem* problem = nullptr;             // set once read, before any solution exists
  std::optional<XlaRequest> request;            // when the input is an XLA request
  int rank;                                     // MPI rank; only rank 0 prints
  const MpiSession* session = nullptr;          // the MPI session, when active
  std::atomic<int> final_status{-1};            // the run's exit status, once agreed
  std::atomic<bool> printed_solution{false};    // the final line is an assignment
  std::atomic<bool> checkpoint_request{false};  // SIGUSR1
  std::mutex mutex;
  bool printed = false;
  std::string status = "no solution";
  std::string output_error;  // why --output could not be written ("" if it was)
  // Writing --output gives up here (a FIFO nobody reads): the watchdog's deadline.
  std::optional<Clock::time_point> write_deadline;
  std::vector<NeighbourhoodReport> neighbourhoods;  // set once the search has ended
  std::uint64_t work = 0;                           // likewise
  bool refused = false;   // the evaluator refused the store's answer: print [] instead
  bool withheld = false;  // a request's max_cost was not beaten: print [] instead
  SolveStatus solve_status = SolveStatus::kNoSolution;  // set once the search has ended
};

// The answer in a request's terms (JSON for --output, protobuf for --output-proto).
RequestAnswer request_answer(Run& run, const std::vector<Strategy>& a, bool has) {
  // (A watchdog or a signal may print before the search has reported its status.)
  const SolveStatus status = has && run.solve_status == SolveStatus::kNoSolution
                                 ? SolveStatus::kFeasible
                                 : run.solve_status;
  return answer_request(*run.request, *run.problem, status, a, has, run.store.bound());
}

// The JSON result of --output (see README).
// `answer`: the answer in a request's terms, when the input is one.
std::string result_json(Run& run, const std::vector<Strategy>& a, bool has,
                        const std::optional<RequestAnswer>& answer) {
  std::ostringstream out;
  out << "{\"instance\":\"" << escape_json(run.settings.problem_path) << "\",\"status\":\""
      << run.status << "\"";
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
        << escape_json(history[i].source) << "\"}";
  out << "],\"lower_bound\":";
  const auto bound = run.store.bound();
  if (bound)
    out << to_string(*bound);
  else
    out << "null";
  out << ",\"gap\":";
  if (const auto gap = run.store.gap(); gap && std::isfinite(*gap))
    out << *gap;
  else
    out << "null";
  out << ",\"bounds\":[";
  const auto bounds = run.store.bound_history();
  for (std::size_t i = 0; i < bounds.size(); ++i)
    out << (i ? "," : "") << "{\"seconds\":" << bounds[i].seconds
        << ",\"bound\":" << to_string(bounds[i].cost) << "}";
  out << "],\"neighbourhoods\":[";
  for (std::size_t i = 0; i < run.neighbourhoods.size(); ++i) {
    const NeighbourhoodReport& n = run.neighbourhoods[i];
    out << (i ? "," : "") << "{\"name\":\"" << n.name << "\",\"calls\":" << n.calls
        << ",\"improvements\":" << n.improvements << ",\"gain\":" << to_string(n.gain)
        << ",\"seconds\":" << n.seconds << "}";
  }
  out << "],\"work_units\":" << run.work;
  if (answer) out << ",\"request\":" << answer_json(*answer);
  out << ",\"settings\":\"" << escape_json(run.settings.settings_text) << "\"}\n";
  return out.str();
}

// The only function that prints the final line. Returns whether a solution was printed.
// The final line goes out under the log's lock, and later progress lines go to stderr, so
// it stays the last line of stdout whatever other threads log. A failed --output write is
// reported after it (the answer is on stdout either way).
enum class Printed { kSolution, kEmpty, kAlready };

// `why`, when given, is said on stderr first (a watchdog or a signal prints from its thread).
// The files are written after the lock is released: a signal that comes while a FIFO's
// reader is slow ends the run at once (the final line is out by then).
Printed print_final(Run& run, const char* why = nullptr) {
  std::vector<std::pair<std::string, std::string>> files;  // (option, path) and text below
  std::vector<std::string> texts;
  bool has = false;
  {
    std::lock_guard lock(run.mutex);
    if (run.printed) return Printed::kAlready;
    run.printed = true;
    if (run.rank != 0) return run.store.has_solution() ? Printed::kSolution : Printed::kEmpty;
    if (why) std::fprintf(stderr, "warning: %s; printing the best solution so far\n", why);
    auto [a, found] = run.store.snapshot();
    has = found && !run.refused && !run.withheld;
    // The request's answer judges the store's own (max_cost, forbidden picks) and says why
    // it withholds it.
    const bool answerable = found && !run.refused;
    run.log.close([&, &a = a] {
      const std::string line = (has ? format_assignment(a) : "[]") + "\n";
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fflush(stdout);
    });
    std::optional<RequestAnswer> answer;
    if (run.request && run.problem &&
        !(run.settings.output_path.empty() && run.settings.proto_output_path.empty()))
      answer = request_answer(run, a, answerable);
    if (!run.settings.output_path.empty()) {
      files.emplace_back("--output", run.settings.output_path);
      texts.push_back(result_json(run, a, has, answer));
    }
    if (answer && !run.settings.proto_output_path.empty()) {  // (only requests: see read_input)
      files.emplace_back("--output-proto", run.settings.proto_output_path);
      texts.push_back(answer_proto(*answer));
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    try {
      write_file(files[i].second, texts[i], run.write_deadline);
    } catch (const OutputError& e) {
      run.output_error = e.what();
      std::fprintf(stderr, "error: %s %s\n", files[i].first.c_str(), e.what());
    }
  }
  run.printed_solution = has;
  return has ? Printed::kSolution : Printed::kEmpty;
}

// Seconds the kernel takes to free this process's memory at exit, which counts against
// the limit: about 85 ms per GiB resident on this kind of machine (measured with a child
// that touches 0.5-4 GiB and exits), rounded up to 0.1 s per GiB.
double teardown_seconds() {
  long pages = 0, resident = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return 0.1 * static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         static_cast<double>(1ull << 30);
}

// The watchdog: a run whose main thread has not printed its final line by `deadline` (a
// phase that overran: a huge input, a pipe that never delivers, a presolve that outgrew
// its share) prints the best solution so far from here and exits, so that `iopddl FILE T`
// ends before T whatever the input. Only a run that overruns gets here.
//
// Under MPI only rank 0 acts: it prints, then ends the whole job with MPI_Abort and the
// status of what it printed (mpirun exits with that status), since ranks stuck apart can
// no longer reach the collective end; the other ranks wait for it. A rank 0 that already
// printed gives its main thread a quarter of the margin to agree and finalise first.
[[noreturn]] void watchdog_fires(Run* run, Clock::duration grace) {
  run->stop.request_stop();
  const bool mpi = run->session != nullptr;
  if (run->rank != 0)
    for (;;) pause();
  const Printed printed = print_final(*run, "the time limit was reached before the run could end");
  if (printed == Printed::kAlready && !mpi)  // the main thread is past the final line
    for (;;) pause();
  if (printed == Printed::kAlready) std::this_thread::sleep_for(grace);
  int status = printed == Printed::kSolution ? kExitOk : kExitNoSolution;
  if (printed == Printed::kAlready)
    status = run->final_status >= 0 ? run->final_status.load()
                                    : (run->printed_solution ? kExitOk : kExitNoSolution);
  std::fflush(stdout);
  if (mpi) run->session->abort(status);
  _exit(status);
}

void signal_thread(Run* run, sigset_t set, Clock::time_point deadline, Clock::duration grace) {
  int sig = 0;
  for (;;) {
    if (deadline == Clock::time_point::max()) {
      if (sigwait(&set, &sig) != 0) return;
    } else {
      // Wakes every 20 ms: the deadline moves earlier as the process grows, since the
      // kernel frees its memory before the run counts as ended.
      const auto fire = deadline - std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(teardown_seconds()));
      const auto left = std::clamp(fire - Clock::now(), Clock::duration::zero(),
                                   Clock::duration(std::chrono::milliseconds(20)));
      if (left == Clock::duration::zero()) watchdog_fires(run, grace);
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      const timespec wait{0, static_cast<long>(ns)};
      sig = sigtimedwait(&set, nullptr, &wait);
      if (sig < 0) continue;  // EAGAIN (time to look again) or EINTR
    }
    if (sig != SIGUSR1) break;
    run->checkpoint_request = true;  // written by the checkpoints' thread, or the loop's rank 0
    run->log.info("SIGUSR1: a checkpoint will be written");
  }
  run->stop.request_stop();
  if (run->rank != 0) {
    // mpirun tears the whole job down when one rank exits: give rank 0 time to print and
    // leave first.
    std::this_thread::sleep_for(std::chrono::seconds(1));
    _exit(128 + sig);
  }
  run->log.info("stopped by signal %d: printing the best solution so far", sig);
  print_final(*run);
  std::fflush(stdout);
  // After printing (mpirun may kill the job soon): a checkpointed run keeps what it printed.
  if (!run->settings.distributed.checkpoint_path.empty() && run->problem) {
    const auto [a, has] = run->store.snapshot();
    try {
      if (has)
        refresh_checkpoint(*run->problem, run->settings.distributed.checkpoint_path, a,
                           run->store.cost(), run->store.bound(), run->stop.elapsed());
    } catch (const OutputError& e) {  // the answer is out; the checkpoint stays as it was
      std::fprintf(stderr, "warning: checkpoint not written: %s\n", e.what());
    }
  }
  _exit(128 + sig);
}

}  // namespace

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
  // SIGINT/SIGTERM/SIGHUP (and SIGUSR1) are blocked in every thread, before MPI starts any of its
  // own, and taken by one waiting thread, which can print the incumbent at once whatever
  // the solver is doing.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);  // a closed terminal or ssh session: the answer is printed all the same
  sigaddset(&set, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // After the mask: MPI's threads inherit it. Never freed: the watchdog may end the job
  // through it while the process exits.
  MpiSession& session = *new MpiSession(use_mpi(settings));
  // Never freed: the signal thread may still use it while the process exits.
  Run& run = *new Run(settings, process_start, session.rank());
  // The watchdog's deadline: half the safety margin before the limit, after the
  // solver's own stop (the margin before it) and the printing that follows.
  if (session.active()) run.session = &session;
  const double margin = settings.time_limit > 0 ? safety_margin(settings.time_limit) : 0;
  const Clock::time_point watchdog =
      settings.time_limit > 0 && !settings.solver.deterministic
          ? time_after(process_start, settings.time_limit - margin / 2)
          : Clock::time_point::max();
  if (watchdog != Clock::time_point::max()) run.write_deadline = watchdog;
  const auto grace = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(margin / 4));
  std::thread(signal_thread, &run, set, watchdog, grace).detach();
  const int status = solve_and_print(run, session);
  session.finalize();
  return status;
}

namespace {

// Reads the problem; on failure returns the exit status (the final line, if any, printed).
std::optional<int> read_input(Run& run, Problem& problem) {
  const RunSettings& settings = run.settings;
  try {
    problem = read_input_file(settings.problem_path, &run.stop, &run.request);
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
    std::lock_guard lock(run.mutex);
    run.printed = true;  // an input error prints no final line
    return kExitInput;
  }
  run.problem = &problem;
  // Checking and printing the answer grow with the instance: about 0.5 s per million nodes
  // and edges (measured on a generated instance of 500,000 nodes).
  run.stop.reserve(5e-7 * static_cast<double>(problem.num_nodes() + problem.num_edges()) +
                   2 * teardown_seconds());  // the workers about double the memory read
  run.log.info("read %zu nodes, %zu edges (%zu distinct tables), %zu time segments",
               problem.num_nodes(), problem.num_edges(), problem.num_tables(),
               problem.num_segments());
  if (!settings.proto_output_path.empty() && !run.request) {
    std::lock_guard lock(run.mutex);
    run.printed = true;  // refused before the search: no final line
    if (run.rank == 0)
      std::fprintf(stderr, "error: --output-proto: %s is not an XLA request\n",
                   settings.problem_path.c_str());
    return kExitUsage;
  }
  if (run.request) {
    const XlaRequest& q = *run.request;
    for (const std::string& field : q.ignored)
      std::fprintf(stderr, "warning: %s: %s is not used by iopddl\n", settings.problem_path.c_str(),
                   field.c_str());
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

// The statistics and the final report; false if the reference evaluator refuses the
// store's answer (a bug: the store only takes answers it checked), which is then not printed.
bool report(Run& run, const Problem& problem, const SolveResult& result) {
  run.status = status_name(result.status);
  run.solve_status = result.status;
  {
    std::lock_guard lock(run.mutex);  // the signal thread may be writing the result
    run.neighbourhoods = result.neighbourhoods;
    run.work = result.work;
  }
  if (run.settings.stats)
    run.log.info("work: %llu units", static_cast<unsigned long long>(result.work));
  if (run.settings.stats)
    for (const NeighbourhoodReport& n : result.neighbourhoods)
      run.log.info("neighbourhood %s: %llu batches, %llu improving moves, gain %s, %.2f s",
                   n.name.c_str(), static_cast<unsigned long long>(n.calls),
                   static_cast<unsigned long long>(n.improvements), to_string(n.gain).c_str(),
                   n.seconds);
  if (!run.store.has_solution() || run.rank != 0) return true;
  // The reference evaluator has the last word on what we print.
  const Evaluation e = evaluate(problem, run.store.assignment());
  if (!e.feasible) {
    std::fprintf(stderr, "internal error: the solver's answer is not feasible: %s\n",
                 e.valid ? "over the usage limit" : e.error.c_str());
    std::lock_guard lock(run.mutex);  // before a watchdog could print it
    run.refused = true;
    return false;
  }
  run.log.info("final: cost %s, peak %s / limit %s, %zu forbidden picks, status %s%s%s",
               to_string(e.cost).c_str(), to_string(e.peak_usage).c_str(),
               problem.usage_limit() ? std::to_string(*problem.usage_limit()).c_str() : "none",
               e.forbidden_picks, run.status.c_str(), result.note.empty() ? "" : ": ",
               result.note.c_str());
  if (const auto bound = run.store.bound())
    run.log.info("certified lower bound %s, gap %.4f%%", to_string(*bound).c_str(),
                 100 * relative_gap(e.cost, *bound));
  if (run.request) {
    const RequestAnswer answer = request_answer(run, run.store.assignment(), true);
    run.log.info("request: cost %.17g in its units, status %s%s%s", answer.cost,
                 status_name(answer.status), answer.message.empty() ? "" : ": ",
                 answer.message.c_str());
    if (answer.status == SolveStatus::kNoSolution) {  // max_cost not beaten: no answer, as XLA expects
      std::lock_guard lock(run.mutex);
      run.withheld = true;
      run.status = status_name(SolveStatus::kNoSolution);
    }
  }
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
      run.log.info("resumed from %s: cost %s after %.1f s", settings.distributed.resume_path.c_str(),
                   to_string(e.cost).c_str(), resume.elapsed);
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

int solve_here(Run& run, const MpiSession& session) {
  const RunSettings& settings = run.settings;
  run.log.info("iopddl %s: %s, time limit %g s, seed %llu", version(), settings.problem_path.c_str(),
               settings.time_limit, static_cast<unsigned long long>(settings.solver.seed));
  Problem problem;
  const std::optional<int> unread = read_input(run, problem);
  // Ranks go on together: one that could not read (the deadline may come on one rank
  // only) stops them all.
  if (!session.all(!unread)) {
    if (unread) return *unread;
    return print_final(run) == Printed::kSolution ? kExitOk : kExitNoSolution;
  }
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
    std::lock_guard lock(run.mutex);
    run.printed = true;
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
  return run.output_error.empty() ? kExitOk : kExitOutput;
}

}  // namespace

}  // namespace iopddl::app
