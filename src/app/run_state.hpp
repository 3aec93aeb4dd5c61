// What the threads of a command-line solve share (the main thread, the signal thread and
// its watchdog), and the one function that prints the final line.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "iopddl/distributed.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/solve.hpp"
#include "run.hpp"
#include "xla_request.hpp"

namespace iopddl::inline v0::app {

// The final line is printed at most once, by print_final, under `print.mutex`.
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
  std::atomic<bool> checkpoint_request{false};  // SIGUSR1
  // The final line's state: printed once, by print_final under `mutex`.
  struct Printing {
    std::mutex mutex;
    bool printed = false;
    std::atomic<bool> solution{false};  // the final line is an assignment
    std::string output_error;           // why --output could not be written ("" if it was)
    // Writing --output gives up here (a FIFO nobody reads): the watchdog's deadline.
    std::optional<Clock::time_point> write_deadline;
  } print;
  // What the search ended with (set once it has ended, under print.mutex where the
  // signal thread may be printing).
  struct Ended {
    SolveStatus solve_status = SolveStatus::kNoSolution;
    std::string status = "no solution";
    std::vector<NeighbourhoodReport> neighbourhoods;
    std::uint64_t work = 0;
    bool refused = false;   // the evaluator refused the store's answer: print [] instead
    bool withheld = false;  // a request's max_cost was not beaten: print [] instead
  } end;
  // A request's soft budget weighed against cost (one process; set before the search, its
  // bound under `print.mutex` once the search has ended).
  std::optional<OverrunWeighing> weighing;
};

enum class Printed { kSolution, kEmpty, kAlready };

// The only function that prints the final line (rank 0 only), then writes --output and
// --output-proto. `why`, when given, is said on stderr first (a watchdog or a signal prints
// from its thread).
Printed print_final(Run& run, const char* why = nullptr);

// The store's answer `a` (when `has`) in a request's terms.
RequestAnswer request_answer(Run& run, const std::vector<Strategy>& a, bool has);

}  // namespace iopddl::inline v0::app
