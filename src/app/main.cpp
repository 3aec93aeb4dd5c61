// The `iopddl` command: the contest interface (`iopddl FILE TIMEOUT`) and the subcommands
// solve, evaluate and info. Exceptions stop here, with the file and field in the message.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "info.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/io.hpp"
#include "run.hpp"

using namespace iopddl;
using namespace iopddl::app;

namespace {

const std::map<std::string, Algorithm> kAlgorithms{{"baseline", Algorithm::kBaseline},
                                                   {"portfolio", Algorithm::kPortfolio}};

const std::map<std::string, Pricing> kPricings{
    {"member", Pricing::kPerMember}, {"time", Pricing::kPerTime}, {"mixed", Pricing::kMixed}};

void add_solver_options(CLI::App& cmd, SolverOptions& o, std::string& algorithm,
                        std::string& pricing) {
  cmd.add_option("--seed", o.seed, "Seed of every random choice")->capture_default_str();
  cmd.add_option("--threads", o.threads,
                 "Worker threads (0: one per core; under MPI, per rank, and 0 means 1)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--algorithm", algorithm, "baseline or portfolio")
      ->check(CLI::IsMember({"baseline", "portfolio"}))
      ->capture_default_str();
  cmd.add_flag("--deterministic", o.deterministic,
               "Bound the search by work (--work-limit), not time: the same seed and threads "
               "(and ranks) give the same answer. --time-limit is then ignored");
  cmd.add_option("--work-limit", o.work_limit,
                 "Work budget of --deterministic: pricing rounds per worker (0: 30)")
      ->capture_default_str();
  cmd.add_option("--pricing", pricing,
                 "Memory prices: member (per input node), time (per time segment) or mixed "
                 "(workers alternate)")
      ->check(CLI::IsMember({"member", "time", "mixed"}))
      ->capture_default_str();
  cmd.add_option("--lns-windows", o.lns_windows,
                 "Windows per batch of exact re-solves around a stagnating worker's best "
                 "(0: no large-neighbourhood search)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--stale-rounds", o.stale_rounds,
                 "Pricing rounds without improvement before a worker scatters its prices")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

// Input errors (InputError) are reported once, in main.
int evaluate_command(const std::string& problem_path, const std::string& solution_path, bool json) {
  Problem p = read_problem(problem_path);
  std::vector<Strategy> a = read_solution(solution_path);
  Evaluation e = evaluate(p, a);
  std::fputs((json ? format_report_json(e) : format_report(e)).c_str(), stdout);
  return e.feasible ? kExitOk : kExitInfeasible;
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
  app.add_option("TIMEOUT", contest_timeout, "Seconds, from process start (contest mode)")
      ->check(CLI::PositiveNumber);

  RunSettings solve_settings;
  solve_settings.time_limit = 10;
  bool dump_config = false;
  auto* solve = app.add_subcommand("solve", "Solve a problem with full control of the solver");
  solve->add_option("FILE", solve_settings.problem_path, "Problem file (JSON, or gzipped JSON)")
      ->required()
      ->configurable(false);
  solve
      ->add_option("--time-limit,-t", solve_settings.time_limit,
                   "Seconds from process start (0: run until the search ends)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  solve
      ->add_option("--output,-o", solve_settings.output_path,
                   "Write a JSON result (assignment, cost, peak, improvements, settings)")
      ->configurable(false);
  solve->add_flag("--quiet,-q", solve_settings.quiet, "No progress lines");
  std::string algorithm = "portfolio", pricing = "member";
  add_solver_options(*solve, solve_settings.solver, algorithm, pricing);
#ifdef IOPDDL_WITH_MPI
  auto* cluster = solve->add_option_group("Distributed", "MPI runs and checkpoints");
  cluster
      ->add_option("--checkpoint", solve_settings.checkpoint_path,
                   "Write checkpoints to this file (periodically, at SIGUSR1 and at the end)")
      ->configurable(false);
  cluster
      ->add_option("--checkpoint-interval", solve_settings.checkpoint_seconds,
                   "Seconds between checkpoints")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cluster
      ->add_option("--resume", solve_settings.resume_path,
                   "Continue from a checkpoint of the same instance")
      ->configurable(false)
      ->check(CLI::ExistingFile);
  cluster
      ->add_option("--price-blend", solve_settings.price_blend,
                   "How far each rank moves its memory prices to the ranks' average at a "
                   "synchronisation (0: keep its own, 1: take the average)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cluster
      ->add_option("--sync-seconds", solve_settings.sync_seconds,
                   "Seconds between synchronisations of the MPI ranks")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cluster
      ->add_option("--region-iterations", solve_settings.region_iterations,
                   "TRW-S iterations of each rank's region worker per synchronisation (0: no "
                   "region workers; they need at least 2 ranks)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
#endif
  solve->set_config("--config", "", "Read options from a TOML file (as --dump-config writes)");
  solve->add_flag("--dump-config", dump_config, "Print the effective options as TOML and exit")
      ->configurable(false);

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
  std::size_t info_regions = 0;
  info->add_option("--regions", info_regions,
                   "Also show how the reduced graph splits into this many regions (MPI runs)")
      ->capture_default_str();

  GeneratorOptions gen;
  std::string gen_family = "forbidden", gen_output;
  auto* generate = app.add_subcommand(
      "generate", "Write a generated instance in contest JSON (for tests and tuning)");
  generate
      ->add_option("--family", gen_family,
                   "forbidden: many 10^18 entries that presolve folds; memory: none, "
                   "memory-dominated")
      ->check(CLI::IsMember({"forbidden", "memory"}))
      ->capture_default_str();
  generate->add_option("--nodes,-n", gen.nodes, "Number of nodes")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  generate->add_option("--seed", gen.seed, "Seed")->capture_default_str();
  generate
      ->add_option("--limit-factor", gen.limit_factor,
                   "Usage limit as a multiple of the least-memory peak")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  generate->add_option("--output,-o", gen_output, "Output file (default: stdout)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (*solve) {
      solve_settings.solver.algorithm = kAlgorithms.at(algorithm);
      solve_settings.solver.pricing = kPricings.at(pricing);
      if (dump_config) {
        std::fputs(solve->config_to_str(true, false).c_str(), stdout);
        return kExitOk;
      }
      solve_settings.settings_text = solve->config_to_str(true, false);
      return run_solve(solve_settings, process_start);
    }
    if (*eval) return evaluate_command(eval_problem, eval_solution, eval_json);
    if (*info) return info_command(info_file, info_regions);
    if (*generate) {
      gen.family = gen_family == "memory" ? Family::kMemory : Family::kForbiddenPairs;
      Problem p = generate_problem(gen);
      if (gen_output.empty()) {
        std::ostringstream text;
        write_problem_json(text, p);
        std::fputs(text.str().c_str(), stdout);
      } else {
        std::ofstream out(gen_output);
        write_problem_json(out, p);
        if (!out) {
          std::fprintf(stderr, "error: cannot write %s\n", gen_output.c_str());
          return kExitInput;
        }
      }
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
    return run_solve(contest, process_start);
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return kExitInternal;
  }
}
