// The `iopddl` command: the contest interface (`iopddl FILE TIMEOUT`) and the subcommands
// solve, evaluate and info. Exceptions stop here, with the file and field in the message.
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

#include "info.hpp"
#include "iopddl/distributed.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/io.hpp"
#include "iopddl/iopddl.hpp"
#include "process_clock.hpp"
#include "run.hpp"
#include "solve_options.hpp"
#include "xla_request.hpp"

using namespace iopddl;
using namespace iopddl::app;

namespace {

// Prints `text` on stdout; a failed write (a full disk, a closed pipe) is an error.
int print_text(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "error: cannot write to standard output: %s\n", std::strerror(errno));
    return kExitOutput;
  }
  return kExitOk;
}

// Files named by options are checked before the run: an error now costs nothing, one at
// the end would cost the run's output file (the answer is printed whatever happens).
// A file named for output that is the input itself is refused: the run would overwrite
// the instance it solves.
void check_output_path(const std::string& option, const std::string& path,
                       const std::string& input) {
  if (path.empty()) return;
  if (same_file(path, input))
    throw OptionError(option + " " + path + ": is the input file " + input +
                      "; refusing to overwrite it");
  const std::string why = cannot_write(path);
  if (!why.empty()) throw OptionError(option + " " + path + ": cannot write: " + why);
}

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
    app.add_option("FILE", file, "Problem file (contest mode)");
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
    cmd->add_option("FILE", settings.problem_path, "Problem file (JSON, or gzipped JSON)")
        ->required();
    cmd->add_option("--multipliers", multipliers,
                    "Write the memory multipliers per time segment (JSON) to this file");
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

// A decimal integer within 128 bits (a lower bound may exceed int64 with forbidden picks).
Total parse_total(const std::string& option, const std::string& text) {
  const std::optional<Total> v = iopddl::parse_total(text);
  if (!v) throw OptionError(option + ": expected a decimal integer, found '" + text + "'");
  return *v;
}

struct EvaluateCommand {
  std::string problem, solution, bound;
  bool json = false;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand(
        "evaluate", "Check a solution with the reference evaluator (exit 1 if infeasible)");
    cmd->add_option("FILE", problem, "Problem file")->required();
    cmd->add_option("SOLUTION", solution,
                    "A contest output (last line [..]) or a JSON result of `solve --output`")
        ->required();
    cmd->add_flag("--json", json, "Machine-readable report");
    cmd->add_option("--bound", bound,
                    "A lower bound on the optimum (from `iopddl bound`, or another solver): "
                    "also report the solution's gap to it");
  }
  int run() const {
    std::optional<Total> b;
    try {
      if (!bound.empty()) b = parse_total("--bound", bound);
    } catch (const OptionError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return kExitUsage;
    }
    const Problem p = read_input_file(problem, nullptr, nullptr);
    const Evaluation e = evaluate(p, read_solution(solution));
    const std::string report = json ? format_report_json(e, b) : format_report(e, b);
    const bool above = b && e.valid && *b > e.cost;  // then one of the two is wrong
    std::fputs(report.c_str(), stdout);
    return e.feasible && !above ? kExitOk : kExitInfeasible;
  }
};

struct InfoCommand {
  std::string file;
  std::uint64_t regions = 0;
  OptionTable table;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand("info", "Print instance statistics");
    cmd->add_option("FILE", file, "Problem file")->required();
    table.unsigned_integer(
        "regions", "Also show how the reduced graph splits into this many regions (MPI runs)",
        regions, 0, 65536);
    table.bind(*cmd);
  }
  int run() const {
    return print_text(instance_info(read_input_file(file, nullptr, nullptr), regions));
  }
};

// `iopddl convert IN OUT`: contest JSON to an XLA request and back.
struct ConvertCommand {
  std::string input, output, to;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand(
        "convert",
        "Convert between contest JSON and XLA's AutoShardingSolverRequest (either way; the "
        "input's kind is told by content)");
    cmd->add_option("IN", input, "Contest JSON (or gzipped) or a request (binary or text)")
        ->required();
    cmd->add_option("OUT", output, "Output file")->required();
    cmd->add_option("--to", to,
                    "json, request (binary protobuf) or textproto; default: from OUT's "
                    "extension (.json, .pb/.binpb, .textproto/.txtpb/.pbtxt)")
        ->check(CLI::IsMember({"json", "request", "textproto"}));
  }
  static bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  }
  int run() const {
    std::string kind = to;
    if (kind.empty()) {
      if (ends_with(output, ".json"))
        kind = "json";
      else if (ends_with(output, ".pb") || ends_with(output, ".binpb"))
        kind = "request";
      else if (ends_with(output, ".textproto") || ends_with(output, ".txtpb") ||
               ends_with(output, ".pbtxt"))
        kind = "textproto";
      else {
        std::fprintf(stderr,
                     "error: OUT %s: say --to json, request or textproto (the extension "
                     "does not tell)\n",
                     output.c_str());
        return kExitUsage;
      }
    }
    try {
      check_output_path("OUT", output, input);
    } catch (const OptionError& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return kExitUsage;
    }
    std::optional<XlaRequest> request;
    const Problem p = read_input_file(input, nullptr, &request);
    if (request) {
      for (const std::string& field : request->ignored)
        std::fprintf(stderr, "warning: %s: %s is not converted\n", input.c_str(), field.c_str());
      if (request->offset != 0)
        std::fprintf(stderr, "note: resharding costs were shifted by %.17g in all\n",
                     request->offset);
    }
    std::string text;
    if (kind == "json") {
      std::ostringstream out;
      write_problem_json(out, p);
      text = out.str();
    } else {
      text = write_request(p, kind == "textproto");
    }
    write_file(output, text);
    return kExitOk;
  }
};

struct GenerateCommand {
  GeneratorOptions options;
  std::string output;
  OptionTable table;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand("generate",
                             "Write a generated instance in contest JSON (for tests and tuning)");
    describe_generator_options(table, options);
    table.bind(*cmd);
    cmd->add_option("--output,-o", output, "Output file (default: stdout)");
  }
  int run() const {
    std::ostringstream text;
    write_problem_json(text, generate_problem(options));
    if (output.empty()) return print_text(text.str());
    write_file(output, text.str());
    return kExitOk;
  }
};

// SIGINT, SIGTERM, SIGHUP and SIGUSR1 are held from the first instant this program's own
// code runs (a constructor, before main; only the dynamic loader comes earlier), so that
// one that comes while the process starts waits for the run's signal thread, which prints
// the final line, instead of killing the process without one. Commands without a signal
// thread get them back at once.
sigset_t original_signal_mask;

__attribute__((constructor)) void hold_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&set, sig);
  pthread_sigmask(SIG_BLOCK, &set, &original_signal_mask);
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
  EvaluateCommand evaluate_cmd;
  BoundCommand bound;
  InfoCommand info;
  GenerateCommand generate;
  ConvertCommand convert;
  contest.add(app);
  solve.add(app);
  evaluate_cmd.add(app);
  bound.add(app);
  info.add(app);
  generate.add(app);
  convert.add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    release_stop_signals();
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (*evaluate_cmd.cmd || *info.cmd || *generate.cmd || *convert.cmd) release_stop_signals();
  // Errors at the I/O boundary are reported here, once, with the file and the element.
  try {
    if (*solve.cmd) return solve.run(process_start);
    if (*evaluate_cmd.cmd) return evaluate_cmd.run();
    if (*bound.cmd) return bound.run(process_start);
    if (*info.cmd) return info.run();
    if (*generate.cmd) return generate.run();
    if (*convert.cmd) return convert.run();
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
