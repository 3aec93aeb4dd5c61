// The `iopddl` command: the contest interface (`iopddl FILE TIMEOUT`) and the subcommands
// solve, evaluate and info. Exceptions stop here, with the file and field in the message.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

#include "info.hpp"
#include "solve_options.hpp"
#include "iopddl/distributed.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/io.hpp"
#include "run.hpp"

using namespace iopddl;
using namespace iopddl::app;

namespace {

// Input errors (InputError) are reported once, in main.
int evaluate_command(const std::string& problem_path, const std::string& solution_path, bool json) {
  Problem p = read_problem(problem_path);
  std::vector<Strategy> a = read_solution(solution_path);
  Evaluation e = evaluate(p, a);
  std::fputs((json ? format_report_json(e) : format_report(e)).c_str(), stdout);
  return e.feasible ? kExitOk : kExitInfeasible;
}

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
void check_output_paths(const RunSettings& s) {
  const auto check = [](const std::string& option, const std::string& path) {
    if (path.empty()) return;
    const std::string why = cannot_write(path);
    if (!why.empty()) throw OptionError(option + " " + path + ": cannot write: " + why);
  };
  check("--output", s.output_path);
  check("--checkpoint", s.distributed.checkpoint_path);
}

void cap_threads(SolverOptions& o) {
  if (o.threads <= SolverOptions::kMaxThreads) return;
  std::fprintf(stderr, "warning: --threads %d is more than %d: using %d\n", o.threads,
               SolverOptions::kMaxThreads, SolverOptions::kMaxThreads);
  o.threads = SolverOptions::kMaxThreads;
}

int info_command(const std::string& path, std::size_t regions) {
  Problem p = read_problem(path);
  std::fputs(instance_info(p, regions).c_str(), stdout);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  const auto process_start = Clock::now();
  CLI::App app{
      "iopddl: a solver for the IOPDDL auto-sharding problem.\n"
      "  iopddl FILE TIMEOUT   the contest interface: solve FILE (JSON, optionally gzipped)\n"
      "                        within TIMEOUT seconds; progress lines start with '#', the\n"
      "                        last line is [s0, s1, ...] (or [] if nothing was found)."};
  app.require_subcommand(0, 1);

  std::string contest_file;
  double contest_timeout = 0;
  app.add_option("FILE", contest_file, "Problem file (contest mode)");
  app.add_option_function<std::string>(
      "TIMEOUT",
      [&](const std::string& text) {
        try {
          contest_timeout = parse_number("TIMEOUT", text, 0, std::numeric_limits<double>::max(),
                                         "a finite number of seconds");
        } catch (const OptionError& e) {
          throw CLI::ValidationError(e.what());
        }
        if (contest_timeout <= 0)
          throw CLI::ValidationError("TIMEOUT: expected a positive number of seconds, found " + text);
      },
      "Seconds, from process start (contest mode)");

  RunSettings solve_settings;
  solve_settings.time_limit = 10;
  bool dump_config = false;
  std::string config_path;
  auto* solve = app.add_subcommand("solve", "Solve a problem with full control of the solver");
  solve->add_option("FILE", solve_settings.problem_path, "Problem file (JSON, or gzipped JSON)")
      ->required();
  solve->add_option("--output,-o", solve_settings.output_path,
                    "Write a JSON result (assignment, cost, peak, improvements, settings)");
  OptionTable table;
  describe_solve_options(table, solve_settings);
  table.bind(*solve);
  if (built_with_mpi()) {  // checkpoints exist only where MPI does
    auto* cluster = solve->add_option_group("Checkpoints", "MPI runs and checkpoints");
    cluster->add_option("--checkpoint", solve_settings.distributed.checkpoint_path,
                        "Write checkpoints to this file (periodically, at SIGUSR1 and at the end)");
    cluster
        ->add_option("--resume", solve_settings.distributed.resume_path,
                     "Continue from a checkpoint of the same instance")
        ->check(CLI::ExistingFile);
  }
  solve->add_option("--config", config_path,
                    "Read options from a config file (the format --dump-config prints); options "
                    "given on the command line win");
  solve->add_flag("--dump-config", dump_config, "Print the effective options and exit");

  std::string eval_problem, eval_solution;
  bool eval_json = false;
  auto* eval = app.add_subcommand(
      "evaluate", "Check a solution with the reference evaluator (exit 1 if infeasible)");
  eval->add_option("FILE", eval_problem, "Problem file")->required();
  eval->add_option("SOLUTION", eval_solution,
                   "A contest output (last line [..]) or a JSON result of `solve --output`")
      ->required();
  eval->add_flag("--json", eval_json, "Machine-readable report");

  std::string info_file;
  auto* info = app.add_subcommand("info", "Print instance statistics");
  info->add_option("FILE", info_file, "Problem file")->required();
  std::uint64_t info_regions = 0;
  OptionTable info_table;
  info_table.unsigned_integer(
      "regions", "Also show how the reduced graph splits into this many regions (MPI runs)",
      info_regions, 0, 65536);
  info_table.bind(*info);

  GeneratorOptions gen;
  std::string gen_output;
  auto* generate = app.add_subcommand(
      "generate", "Write a generated instance in contest JSON (for tests and tuning)");
  OptionTable gen_table;
  describe_generator_options(gen_table, gen);
  gen_table.bind(*generate);
  generate->add_option("--output,-o", gen_output, "Output file (default: stdout)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (*solve) {
      try {
        if (!config_path.empty()) table.read_config(config_path);
        check_solve_options(solve_settings);
        check_output_paths(solve_settings);
      } catch (const OptionError& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
      }
      cap_threads(solve_settings.solver);
      solve_settings.settings_text = table.dump();
      if (dump_config) return print_text(solve_settings.settings_text);
      return run_solve(solve_settings, process_start);
    }
    if (*eval) return evaluate_command(eval_problem, eval_solution, eval_json);
    if (*info) return info_command(info_file, info_regions);
    if (*generate) {
      Problem p = generate_problem(gen);
      std::ostringstream text;
      write_problem_json(text, p);
      if (gen_output.empty()) return print_text(text.str());
      write_file(gen_output, text.str());
      return kExitOk;
    }
    if (contest_file.empty() || contest_timeout <= 0) {
      std::fputs(app.help().c_str(), stderr);
      std::fputs("error: expected FILE TIMEOUT or a subcommand\n", stderr);
      return kExitUsage;
    }
    RunSettings contest;
    contest.problem_path = contest_file;
    contest.time_limit = contest_timeout;
    contest.settings_text = "time-limit=" + std::to_string(contest_timeout) + "\n";
    return run_solve(contest, process_start);
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
