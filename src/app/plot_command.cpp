#include "plot_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "../plot/gnuplot.hpp"
#include "../plot/pictures.hpp"
#include "command_support.hpp"
#include "io/json.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "option_table.hpp"
#include "run.hpp"

namespace iopddl::inline v0::app {
namespace {

// The cost and bound histories of a `solve --output` result (empty for a contest output).
CostHistory read_history(const std::string& path) {
  CostHistory h;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || s[first] != '{') return h;
  const Json d = Json::parse(s, nullptr, false);
  if (d.is_discarded() || !d.is_object()) return h;
  const auto take = [&](const char* list, const char* field, auto& out) {
    if (!d.contains(list) || !d[list].is_array()) return;
    for (const Json& i : d[list])
      if (i.is_object() && i.contains("seconds") && i.contains(field) && i[field].is_number())
        out.emplace_back(i["seconds"].get<double>(), i[field].get<double>());
  };
  take("improvements", "cost", h.costs);
  take("bounds", "bound", h.bounds);
  if (d.contains("elapsed_seconds") && d["elapsed_seconds"].is_number())
    h.end = d["elapsed_seconds"].get<double>();
  return h;
}

}  // namespace

void PlotCommand::add(CLI::App& app) {
  cmd = app.add_subcommand("plot",
                           "Draw an answer's memory over time against the limit (and, for a "
                           "`solve --output` result, its cost and bound over time) as a PNG");
  cmd->add_option("FILE", file, "Problem file: contest JSON (or gzipped) or an XLA request")
      ->required();
  cmd->add_option("RESULT", result,
                  "A contest output (last line [..]) or a JSON result of `solve --output`")
      ->required();
  add_request_options(cmd, request);
  cmd->add_option("--output,-o", output, "The PNG file")->required();
  cmd->add_option("--data", data,
                  "Also write the memory profile drawn (CSV: start, end, usage per time span)");
  cmd->add_option("--named", named, "Operations named at the peak, the heaviest first")
      ->check(CLI::Range(0, 50));
}

int PlotCommand::run() const {
  try {
    check_output_path("--output", output, file);
    if (!data.empty()) check_output_path("--data", data, file);
  } catch (const OptionError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitUsage;
  }
  const Problem p = read_input_file(file, nullptr, nullptr, request);
  const std::vector<Strategy> a = read_solution(result);
  const Evaluation e = evaluate(p, a);
  if (!e.valid) throw InputError(result + ": " + e.error);
  const MemoryPicture picture = memory_picture(p, a, read_history(result), named);
  write_file(output, render_png(picture.script));
  if (!data.empty()) write_file(data, picture.profile_csv);
  return kExitOk;
}

}  // namespace iopddl::inline v0::app
