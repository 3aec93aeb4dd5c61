#include "pictures.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "gnuplot.hpp"
#include "iopddl/evaluate.hpp"

namespace iopddl::inline v0 {

std::vector<Total> usage_by_segment(const Problem& p, std::span<const Strategy> a) {
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

namespace {

// The heaviest operations live at the peak, one per line, for a gnuplot label.
std::string peak_names(const Problem& p, std::span<const Strategy> a, const Evaluation& e,
                       int named, const std::vector<std::string>& node_names) {
  std::vector<std::pair<NodeId, Usage>> live = live_usages(p, a, e.peak_time);
  live.resize(std::min(live.size(), static_cast<std::size_t>(std::max(named, 0))));
  std::string names;
  for (const auto& [v, u] : live) {
    std::string who = v < node_names.size() ? node_names[v] : "node " + std::to_string(v);
    for (char& c : who)  // (inside a double-quoted gnuplot string)
      if (c == '"' || c == '\\' || c == '\n') c = ' ';
    names += (names.empty() ? "" : "\\n") + who + " (" + std::to_string(u) + ")";
  }
  return names;
}

// The second panel: cost and bound over time, in the range that shows the end game: from
// the lowest of the bound and the final cost, with room above for the approach (the first
// answers can be far costlier).
void history_panel(const CostHistory& h, std::ostringstream& s) {
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

}  // namespace

MemoryPicture memory_picture(const Problem& p, std::span<const Strategy> a, CostHistory h,
                             int named, const std::vector<std::string>& node_names) {
  for (auto* line : {&h.costs, &h.bounds})  // both go on to the end of the run
    if (!line->empty() && line->back().first < h.end)
      line->emplace_back(h.end, line->back().second);
  const std::vector<Total> used = usage_by_segment(p, a);
  const Evaluation e = evaluate(p, a);
  const auto& times = p.times();

  std::ostringstream csv;
  csv << "start,end,usage\n";
  for (std::size_t i = 0; i < used.size(); ++i)
    csv << times[i] << "," << times[i + 1] << "," << to_string(used[i]) << "\n";

  const bool history = !h.costs.empty();
  std::ostringstream s;
  s << "set terminal png noenhanced size 1000," << (history ? 900 : 560) << "\n";
  if (history) s << "set multiplot layout 2,1\n";
  s << "set title "
    << gnuplot_string(used.empty() ? std::string("memory over time: no node is ever live")
                                   : "memory over time: peak " + to_string(e.peak_usage) +
                                         " at time " + std::to_string(e.peak_time))
    << "\nset xlabel 'time'\nset ylabel 'memory'\nset grid\nset key top right\n"
    << "set format y '%.3g'\n$usage << EOD\n";
  for (std::size_t i = 0; i < used.size(); ++i) s << times[i] << " " << to_string(used[i]) << "\n";
  if (!used.empty()) s << times.back() << " " << to_string(used.back()) << "\n";
  if (used.empty()) s << "0 0\n1 0\n";  // (no time at all: a flat line at 0, not an error)
  s << "EOD\n";
  if (!used.empty()) {
    s << "set label 1 " << gnuplot_string("peak") << " at " << e.peak_time << ","
      << to_string(e.peak_usage) << " point pt 7 ps 1.5 offset 1,0.5\n";
    const std::string names = peak_names(p, a, e, named, node_names);
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
  if (history) history_panel(h, s);
  return {s.str(), csv.str()};
}

std::string frontier_script(const std::vector<FrontierPoint>& points, const std::string& title) {
  std::ostringstream s;
  s << "set terminal png noenhanced size 960,600\n"
    << "set title " << gnuplot_string(title) << "\n"
    << "set xlabel 'memory limit'\nset ylabel 'cost'\nset key top right\nset grid\n"
    << "set format x '%.3g'\nset format y '%.4g'\n$points << EOD\n";
  for (const FrontierPoint& p : points)
    if (p.solve.has)
      s << p.limit << " " << to_string(p.solve.cost) << " " << to_string(p.solve.bound) << "\n";
  s << "EOD\n"
    << "plot $points using 1:2 with linespoints lw 2 pt 7 title 'best cost found', "
       "$points using 1:3 with lines dt 2 lw 2 title 'certified lower bound'\n";
  return s.str();
}

}  // namespace iopddl::inline v0
