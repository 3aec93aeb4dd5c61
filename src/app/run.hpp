// Running a solve or a bound from the command line: settings and exit statuses.
#pragma once

#include <string>

#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"
#include "xla_request.hpp"

namespace iopddl::inline v0::app {

// Exit statuses (documented in the README).
enum ExitCode : int {
  kExitOk = 0,          // solve: feasible answer printed; evaluate: solution feasible
  kExitInfeasible = 1,  // evaluate: solution invalid or over the memory limit
  kExitUsage = 2,       // bad command line
  kExitInput = 3,       // unreadable or malformed input file
  kExitNoSolution = 4,  // solve: no feasible assignment found ("[]" printed)
  kExitInternal = 5,    // a bug: please report
  kExitOutput = 6,      // a file named by an option could not be written (answer still printed)
};

struct RunSettings {
  std::string problem_path;
  double time_limit = 0;          // seconds from process start; <= 0: no limit
  std::string output_path;        // JSON result ("" = none)
  std::string proto_output_path;  // an XLA request's answer as protobuf ("" = none)
  bool contest = false;           // `iopddl FILE TIMEOUT`: stdout always ends with a final line
  bool quiet = false;
  bool stats = false;             // progress lines with what each neighbourhood cost and gained
  std::uint64_t bound_steps = 0;  // `iopddl bound`: multiplier steps at most (0: no limit)
  std::string bound_solution;     // `iopddl bound`: a known answer, the steps' target ("": none)
  SolverOptions solver;
  DistributedOptions distributed;  // used by builds with MPI
  std::string settings_text;       // effective options, copied into the JSON result
  RequestOptions request;          // how an XLA request is read
};

// Whether this run goes through MPI: launched by mpirun/srun, or checkpoints asked for.
bool use_mpi(const RunSettings& settings);

// Seconds kept back from the time limit for printing and exiting (see README).
double safety_margin(double time_limit);

// Reads the problem, solves it and prints the final line (rank 0 only); returns the exit
// status. Initialises and finalises MPI itself when use_mpi(settings).
int run_solve(const RunSettings& settings, Clock::time_point process_start);

// `iopddl bound`: the certified lower bound for the whole budget; prints it as the last
// line (and writes the multipliers as JSON to `multipliers_path` unless empty).
int run_bound(const RunSettings& settings, const std::string& multipliers_path,
              Clock::time_point process_start);

}  // namespace iopddl::inline v0::app
