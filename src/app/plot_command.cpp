#include "plot_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "command_support.hpp"
#include "gnuplot.hpp"
#include "io/json.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/io.hpp"
#include "option_table.hpp"
#include "run.hpp"

namespace iopddl::app {
namespace {

// The summed usage on each segment of compressed time.
std::vector<Total> usage_by_segment(const Problem& p, const std::vector<Strategy>& a) {
  std::vector<Total> diff(p.num_segments() + 1, 0);
  for (NodeId v = 0; v < p.num_nodes(); ++v) {
    diff[p.seg_lo(v)] += p.usages(v)[a[v]];
    diff[p.seg_hi(v)] -= p.usages(v)[a[v]];
  }
  std::vector<Total> out(p.num_segments(), 0);
  Total running = 0;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = running += diff[i];
  return out;
}

// The cost and bound histories of a `solve --output` result (empty for a contest output).
struct History {
  std::vector<std::pair<double, double>> costs, bounds;
  double end = 0;  // the run's elapsed seconds: both lines go on to it
};
History read_history(const std::string& path) {
  History h;
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
  for (auto* line : {&h.costs, &h.bounds})
    if (!line->empty() && line->back().first < h.end)
      line->emplace_back(h.end, line->back().second);
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
  const std::vector<Total> used = usage_by_segment(p, a);
  const auto& times = p.times();
  std::size_t peak = 0;
  for (std::size_t i = 0; i < used.size(); ++i)
    if (used[i] > used[peak]) peak = i;
  // The heaviest operations live at the peak.
  std::vector<std::pair<Usage, NodeId>> live;
  if (!used.empty())
    for (NodeId v = 0; v < p.num_nodes(); ++v)
      if (p.seg_lo(v) <= peak && peak < p.seg_hi(v) && p.usages(v)[a[v]] > 0)
        live.emplace_back(p.usages(v)[a[v]], v);
  std::sort(live.begin(), live.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  live.resize(std::min(live.size(), static_cast<std::size_t>(named)));

  std::ostringstream csv;
  csv << "start,end,usage\n";
  for (std::size_t i = 0; i < used.size(); ++i)
    csv << times[i] << "," << times[i + 1] << "," << to_string(used[i]) << "\n";

  const History h = read_history(result);
  const bool history = !h.costs.empty();
  std::ostringstream s;
  s << "set terminal png size 1000," << (history ? 900 : 560) << "\n";
  if (history) s << "set multiplot layout 2,1\n";
  s << "set title "
    << gnuplot_string("memory over time: peak " + to_string(e.peak_usage) + " at time " +
                      std::to_string(e.peak_time))
    << "\nset xlabel 'time'\nset ylabel 'memory'\nset grid\nset key top right\n"
    << "set format y '%.3g'\n$usage << EOD\n";
  for (std::size_t i = 0; i < used.size(); ++i) s << times[i] << " " << to_string(used[i]) << "\n";
  if (!used.empty()) s << times.back() << " " << to_string(used.back()) << "\n";
  s << "EOD\n";
  std::string names;
  for (const auto& [u, v] : live)
    names += (names.empty() ? "" : "\\n") + std::string("node ") + std::to_string(v) + " (" +
             std::to_string(u) + ")";
  if (!used.empty()) {
    s << "set label 1 " << gnuplot_string("peak") << " at " << times[peak] << ","
      << to_string(used[peak]) << " point pt 7 ps 1.5 offset 1,0.5\n";
    if (!names.empty())
      s << "set label 2 \"heaviest live at the peak:\\n"
        << names << "\" at graph 0.02,0.95 "
        << "left front\n";
  }
  s << "plot $usage using 1:2 with steps lw 2 title 'usage'";
  if (p.usage_limit())
    s << ", " << *p.usage_limit() << " with lines dt 2 lw 2 lc rgb 'red' title 'limit "
      << *p.usage_limit() << "'";
  s << "\n";
  if (history) {
    // The range that shows the end game: from the lowest of the bound and the final cost,
    // with room above for the approach (the first answers can be far costlier).
    const double last = h.costs.back().second;
    double low = last;
    for (const auto& b : h.bounds) low = std::min(low, b.second);
    const double room = last > low ? 3 * (last - low) : 0.02 * std::abs(last) + 1;
    s << "unset label\nset title 'cost and certified lower bound over time'\n"
      << "set xlabel 'seconds'\nset ylabel 'cost'\nset format y '%.6g'\n"
      << "set yrange [" << low - 0.1 * room << ":" << last + room << "]\n$costs << EOD\n";
    for (const auto& [t, c] : h.costs) s << t << " " << c << "\n";
    s << "EOD\n$bounds << EOD\n";
    for (const auto& [t, b] : h.bounds) s << t << " " << b << "\n";
    s << "EOD\nplot $costs using 1:2 with steps lw 2 title 'best cost'";
    if (!h.bounds.empty()) s << ", $bounds using 1:2 with steps lw 2 dt 2 title 'bound'";
    s << "\nunset multiplot\n";
  }
  write_file(output, render_png(s.str()));
  if (!data.empty()) write_file(data, csv.str());
  return kExitOk;
}

}  // namespace iopddl::app
