#include "file_commands.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "command_support.hpp"
#include "generator_options.hpp"
#include "io/json.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/generate.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/io.hpp"
#include "iopddl/iopddl.hpp"
#include "iopddl/solve.hpp"
#include "option_table.hpp"
#include "portfolio/instance_info.hpp"
#include "run.hpp"
#include "xla_request.hpp"

namespace iopddl::inline v0::app {
namespace {

// A decimal integer within 128 bits (a lower bound may exceed int64 with forbidden picks).
Total parse_total(const std::string& option, const std::string& text) {
  const std::optional<Total> v = iopddl::parse_total(text);
  if (!v) throw OptionError(option + ": expected a decimal integer, found '" + text + "'");
  return *v;
}

struct EvaluateCommand {
  std::string problem, solution, bound;
  bool json = false;
  RequestOptions request;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand(
        "evaluate", "Check a solution with the reference evaluator (exit 1 if infeasible)");
    add_request_options(cmd, request);
    cmd->add_option("FILE", problem,
                    "Problem file: contest JSON (or gzipped), or an XLA AutoShardingSolverRequest")
        ->required();
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
    std::optional<XlaRequest> q;
    Problem p = read_input_file(problem, nullptr, &q, request);
    // A soft budget is no limit: an overrun is paid for, in the request's cost below.
    if (q && soft_budget(*q)) p = p.with_usage_limit(std::nullopt);
    const std::vector<Strategy> a = read_solution(solution);
    const Evaluation e = evaluate(p, a);
    std::string report = json ? format_report_json(e, b) : format_report(e, b);
    if (q && e.valid) {  // the cost as the request counts it
      const RequestAnswer r =
          answer_request(*q, p, SolveStatus::kFeasible, a, true, std::nullopt, OverrunWeighing{});
      if (json) {
        Json d = Json::parse(report);
        d["request_cost"] = r.cost;
        d["overbudget_cost"] = r.overbudget_cost;
        report = json_line(d);
      } else {
        report += "request cost:    " + request_number(r.cost) + " in its units" +
                  (r.overbudget_cost > 0
                       ? " (overrun cost " + request_number(r.overbudget_cost) + " included)"
                       : "") +
                  "\n";
      }
    }
    const bool above = b && e.valid && *b > e.cost;  // then one of the two is wrong
    std::fputs(report.c_str(), stdout);
    return e.feasible && !above ? kExitOk : kExitInfeasible;
  }
};

struct InfoCommand {
  std::string file;
  std::uint64_t regions = 0;
  OptionTable table;
  RequestOptions request;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand("info", "Print instance statistics");
    add_request_options(cmd, request);
    cmd->add_option("FILE", file,
                    "Problem file: contest JSON (or gzipped), or an XLA AutoShardingSolverRequest")
        ->required();
    table.unsigned_integer(
        "regions", "Also show how the reduced graph splits into this many regions (MPI runs)",
        regions, 0, 65536);
    table.bind(*cmd);
  }
  int run() const {
    return print_text(instance_info(read_input_file(file, nullptr, nullptr, request), regions));
  }
};

// `iopddl convert IN OUT`: contest JSON to an XLA request and back.
struct ConvertCommand {
  std::string input, output, to;
  RequestOptions request;
  CLI::App* cmd = nullptr;
  void add(CLI::App& app) {
    cmd = app.add_subcommand(
        "convert",
        "Convert between contest JSON and XLA's AutoShardingSolverRequest (either way; the "
        "input's kind is told by content)");
    add_request_options(cmd, request);
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
    std::optional<XlaRequest> xla;
    const Problem p = read_input_file(input, nullptr, &xla, request);
    if (xla) {
      for (const std::string& field : xla->ignored)
        std::fprintf(stderr, "warning: %s: %s is not converted\n", input.c_str(), field.c_str());
      if (xla->offset != 0)
        std::fprintf(stderr, "note: resharding costs were shifted by %.17g in all\n", xla->offset);
      if (xla->cost_scale != 1)
        std::fprintf(stderr,
                     "warning: %s: costs written multiplied by %.17g and rounded "
                     "(largest relative rounding error %.3g)\n",
                     input.c_str(), xla->cost_scale, xla->max_rounding_error);
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

}  // namespace

struct FileCommands::Commands {
  EvaluateCommand evaluate;
  InfoCommand info;
  GenerateCommand generate;
  ConvertCommand convert;
};

FileCommands::FileCommands() : commands_(std::make_unique<Commands>()) {}
FileCommands::~FileCommands() = default;

void FileCommands::add(CLI::App& app) {
  commands_->evaluate.add(app);
  commands_->info.add(app);
  commands_->generate.add(app);
  commands_->convert.add(app);
}

bool FileCommands::chosen() const {
  return *commands_->evaluate.cmd || *commands_->info.cmd || *commands_->generate.cmd ||
         *commands_->convert.cmd;
}

int FileCommands::run() const {
  if (*commands_->evaluate.cmd) return commands_->evaluate.run();
  if (*commands_->info.cmd) return commands_->info.run();
  if (*commands_->generate.cmd) return commands_->generate.run();
  return commands_->convert.run();
}

}  // namespace iopddl::inline v0::app
