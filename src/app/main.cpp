// The `iopddl` command: the contest interface (`iopddl FILE TIMEOUT`) and the subcommands
// solve and bound; file_commands.cpp has evaluate, info, convert and generate. Exceptions stop
// here, with the file and field in the message.
#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>

#include "command_support.hpp"
#include "file_commands.hpp"
#include "frontier_command.hpp"
#include "iopddl/distributed.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/io.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "plot_command.hpp"
#include "process_clock.hpp"
#include "run.hpp"
#include "signals.hpp"
#include "solve_options.hpp"
#include "xla_request.hpp"

using namespace iopddl;
using namespace iopddl::app;

namespace {

void check_output_paths(const RunSettings& s) {
  const auto check = [&](const std::string& option, const std::string& path) {
    check_output_path(option, path, s.problem_path);
  };
  check("--output", s.output_path);
  check("--output-proto", s.proto_output_path);
  check("--checkpoint", s.distributed.checkpoint_path);
}

void cap_threads(SolverOptions& o) {
  if (o.threads <= SolverOptions::kMaxThreads) return;
  std::fprintf(stderr, "warning: --threads %d is more than %d: using %d\n", o.threads,
               SolverOptions::kMaxThreads, SolverOptions::kMaxThreads);
  o.threads = SolverOptions::kMaxThreads;
}

// Each command adds its options to the parser, then runs once the command line is parsed.

// `iopddl FILE TIMEOUT`, exactly as the contest ran it.
struct ContestCommand {
  std::string file;
  double timeout = 0;
  void add(CLI::App& app) {
    app.add_option("FILE", file, "Problem file: contest JSON (or gzipped) or an XLA request");
    app.add_option_function<std::string>(
        "TIMEOUT",
        [this](const std::string& text) {
          try {
            timeout = parse_number("TIMEOUT", text, 0, std::numeric_limits<double>::max(),
                                   "a finite number of seconds");
          } catch (const OptionError& e) {
            throw CLI::ValidationError(e.what());
          }
          if (timeout <= 0)
            throw CLI::ValidationError("TIMEOUT: expected a positive number of seconds, found " +
                                       text);
        },
        "Seconds, from process start (contest mode)");
  }
  int run(const CLI::App& app, Clock::time_point start) const {
    if (file.empty() || timeout <= 0) {
      std::fputs(app.help().c_str(), stderr);
      std::fputs("error: expected FILE TIMEOUT or a subcommand\n", stderr);
      return kExitUsage;
    }
    RunSettings contest;
    contest.contest = true;
    contest.problem_path = file;
    contest.time_limit = timeout;
    contest.settings_text = "time-limit=" + std::to_string(timeout) + "\n";
    return run_solve(contest, start);
  }
};

struct SolveCommand {
  RunSettings settings;
  OptionTable table;
  bool dump_config = false;
  std::string config_path;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    settings.time_limit = 10;
    cmd = app.add_subcommand("solve", "Solve a problem with full control of the solver");
    cmd->add_option("FILE", settings.problem_path,
                    "Problem file: contest JSON (or gzipped), or an XLA AutoShardingSolverRequest "
                    "(binary or text format)")
        ->required();
    cmd->add_option("--output,-o", settings.output_path,
                    "Write a JSON result (assignment, cost, peak, improvements, settings)");
    cmd->add_option("--output-proto", settings.proto_output_path,
                    "For a request: write the answer as an AutoShardingSolverResult message "
                    "(proto/auto_sharding_request.proto)");
    add_request_options(cmd, settings.request);
    describe_solve_options(table, settings);
    table.bind(*cmd);
    if (built_with_mpi()) {  // checkpoints exist only where MPI does
      auto* cluster = cmd->add_option_group("Checkpoints", "MPI runs and checkpoints");
      cluster->add_option("--checkpoint", settings.distributed.checkpoint_path,
                          "Write checkpoints to this file (periodically, at SIGUSR1 and at the "
                          "end)");
      cluster
          ->add_option("--resume", settings.distributed.resume_path,
                       "Continue from a checkpoint of the same instance")
          ->check(CLI::ExistingFile);
    }
    cmd->add_option("--config", config_path,
                    "Read options from a config file (the format --dump-config prints); options "
                    "given on the command line win");
    cmd->add_flag("--dump-config", dump_config, "Print the effective options and exit");
  }
  int run(Clock::time_point start) {
    try {
      if (!config_path.empty()) table.read_config(config_path);
      check_solve_options(settings);
      check_output_paths(settings);
    } catch (const OptionError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return kExitUsage;
    }
    cap_threads(settings.solver);
    settings.settings_text = table.dump();
    if (dump_config) return print_text(settings.settings_text);
    return run_solve(settings, start);
  }
};

// `iopddl bound FILE`: the whole budget on the certified lower bound.
struct BoundCommand {
  RunSettings settings;
  std::string multipliers;
  std::string config_path;
  bool dump_config = false;
  OptionTable table;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    settings.time_limit = 10;
    cmd = app.add_subcommand("bound",
                             "Spend the whole budget on a certified lower bound of the optimum "
                             "(last line: the bound)");
    cmd->add_option("FILE", settings.problem_path,
                    "Problem file: contest JSON (or gzipped), or an XLA AutoShardingSolverRequest")
        ->required();
    add_request_options(cmd, settings.request);
    cmd->add_option("--multipliers", multipliers,
                    "Write the memory multipliers per time segment (JSON) to this file");
    cmd->add_option("--solution", settings.bound_solution,
                    "A known answer (a contest output or a `solve --output` result): its cost, "
                    "checked by the reference evaluator, is the multiplier steps' first target");
    describe_bound_options(table, settings);
    table.bind(*cmd);
    cmd->add_option("--config", config_path, "Read options from a config file");
    cmd->add_flag("--dump-config", dump_config, "Print the effective options and exit");
  }
  int run(Clock::time_point start) {
    try {
      if (!config_path.empty()) table.read_config(config_path);
      check_output_path("--multipliers", multipliers, settings.problem_path);
    } catch (const OptionError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return kExitUsage;
    }
    if (dump_config) return print_text(table.dump());
    return run_bound(settings, multipliers, start);
  }
};

// SIGINT, SIGTERM, SIGHUP and SIGUSR1 are held from the first instant this program's own
// code runs (a constructor, before main; only the dynamic loader comes earlier), so that
// one that comes while the process starts waits for the run's signal thread, which prints
// the final line, instead of killing the process without one. Commands without a signal
// thread get them back at once.
sigset_t original_signal_mask;

__attribute__((constructor)) void hold_stop_signals() {
  block_stop_signals(true, &original_signal_mask);
}

void release_stop_signals() {
  pthread_sigmask(SIG_SETMASK, &original_signal_mask, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  const auto process_start = app::process_start(Clock::now(), launched_by_mpi());
  CLI::App app{
      "iopddl: a solver for the IOPDDL auto-sharding problem.\n"
      "  iopddl FILE TIMEOUT   the contest interface: solve FILE (JSON, optionally gzipped,\n"
      "                        or an XLA AutoShardingSolverRequest)\n"
      "                        within TIMEOUT seconds; progress lines start with '#', the\n"
      "                        last line is [s0, s1, ...] (or [] if nothing was found)."};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("iopddl ") + iopddl::version());
  ContestCommand contest;
  SolveCommand solve;
  FileCommands files;
  BoundCommand bound;
  FrontierCommand frontier;
  PlotCommand plot;
  contest.add(app);
  solve.add(app);
  files.add(app);
  bound.add(app);
  frontier.add(app);
  plot.add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    release_stop_signals();
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (files.chosen() || *frontier.cmd || *plot.cmd) release_stop_signals();
  // Errors at the I/O boundary are reported here, once, with the file and the element.
  try {
    if (*solve.cmd) return solve.run(process_start);
    if (*bound.cmd) return bound.run(process_start);
    if (*frontier.cmd) return frontier.run();
    if (*plot.cmd) return plot.run();
    if (files.chosen()) return files.run();
    return contest.run(app, process_start);
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitInput;
  } catch (const OutputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitOutput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return kExitInternal;
  }
}
