#include "frontier_command.hpp"

#include <cstdio>
#include <sstream>

#include "../plot/gnuplot.hpp"
#include "../plot/pictures.hpp"
#include "../sweep/frontier.hpp"
#include "command_support.hpp"
#include "iopddl/io.hpp"
#include "iopddl/log.hpp"
#include "option_table.hpp"
#include "run.hpp"

namespace iopddl::inline v0::app {
namespace {

// How long the files may take to write once the solves are over (a reader at a FIFO).
constexpr double kWriteGraceSeconds = 10;

// One row per limit; for a request, its costs in its own units too.
std::string frontier_csv(const std::vector<FrontierPoint>& points,
                         const std::optional<XlaRequest>& q) {
  std::ostringstream out;
  out << "limit,cost,peak,bound,gap,proven,seconds" << (q ? ",request_cost,request_bound" : "")
      << "\n";
  for (const FrontierPoint& p : points) {
    const LimitSolve& s = p.solve;
    out << p.limit << ",";
    if (s.has)
      out << to_string(s.cost) << "," << to_string(s.peak);
    else
      out << ",";
    out << "," << to_string(s.bound) << ","
        << (s.has ? request_number(relative_gap(s.cost, s.bound)) : std::string()) << ","
        << (s.proven ? "yes" : "no") << "," << request_number(p.seconds);
    if (q) {
      const auto units = [&](Total x) {
        return request_number((static_cast<double>(x) + q->offset) / q->cost_scale);
      };
      out << "," << (s.has ? units(s.cost) : std::string()) << "," << units(s.bound);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace

void FrontierCommand::add(CLI::App& app) {
  cmd = app.add_subcommand(
      "frontier",
      "The best cost at each of several memory limits, from the least peak any assignment "
      "reaches to the peak of the cheapest answer without a limit, with certified bounds (CSV; "
      "--png draws it)");
  cmd->add_option("FILE", file, "Problem file: contest JSON (or gzipped) or an XLA request")
      ->required();
  add_request_options(cmd, request);
  cmd->add_option("--points,-n", points, "Memory limits (at least 2; the last is the top)")
      ->check(CLI::Range(2, 1000));
  cmd->add_option("--time-limit,-t", time_limit, "Seconds for all the solves together")
      ->check(CLI::Range(0.01, 1e7));
  cmd->add_option("--seed", solver.seed, "Seed");
  cmd->add_option("--threads", solver.threads, "Worker threads per solve (0: the machine's cores)")
      ->check(CLI::Range(0, SolverOptions::kMaxThreads));
  cmd->add_option("--output,-o", output, "CSV file (default: stdout)");
  cmd->add_option("--png", png, "Also draw the frontier into this PNG file (gnuplot)");
  cmd->add_flag("--quiet,-q", quiet, "No progress lines");
}

int FrontierCommand::run() const {
  try {
    if (!output.empty()) check_output_path("--output", output, file);
    if (!png.empty()) check_output_path("--png", png, file);
  } catch (const OptionError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitUsage;
  }
  std::optional<XlaRequest> q;
  const Problem p = read_input_file(file, nullptr, &q, request);
  // (The time limit is the solves': reading the file does not count.)
  StopControl stop(Clock::now(), time_limit);
  Log log(quiet ? nullptr : stderr, &stop);
  if (q && (q->offset != 0 || q->cost_scale != 1))
    std::fprintf(stderr,
                 "note: %s: cost and bound are the converted problem's (offset %.17g, scale "
                 "%.17g); request_cost and request_bound are in the request's units\n",
                 file.c_str(), q->offset, q->cost_scale);
  const std::vector<FrontierPoint> front = cost_memory_frontier(p, points, solver, stop, log);
  const std::string csv = frontier_csv(front, q);
  // The solves are over: a FIFO nobody reads is given up after a grace (exit 6), not waited
  // for forever.
  const auto deadline = time_after(Clock::now(), kWriteGraceSeconds);
  if (!png.empty())
    write_file(png, render_png(frontier_script(front, "cost-memory frontier of " + file)),
               deadline);
  if (output.empty()) return print_text(csv);
  write_file(output, csv, deadline);
  return kExitOk;
}

}  // namespace iopddl::inline v0::app
