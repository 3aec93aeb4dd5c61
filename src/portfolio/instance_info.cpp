// `iopddl info`: what the instance is and what presolve, elimination and the regions make
// of it (the portfolio layer, since it reads every layer below).
#include "instance_info.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "../exact/bucket_elimination.hpp"
#include "../local/elimination.hpp"
#include "../partition/regions.hpp"
#include "../reduce/reduced.hpp"
#include "iopddl/evaluate.hpp"
#include "iopddl/solve.hpp"

namespace iopddl::inline v0 {

constexpr std::size_t kEliminationMaxNodes = 5000;

namespace {

// Lines of text, each added from a printf format.
class Lines {
 public:
  template <class... Args>
  void add(const char* fmt, Args... args) {
    char line[256];
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
    out += '\n';
  }
  std::string out;
};

// The instance as given: sizes, tables, forbidden entries, degrees, time and memory.
void input_lines(const Problem& p, Lines& lines) {
  std::string& out = lines.out;
  const auto add = [&](const char* fmt, auto... args) { lines.add(fmt, args...); };
  const std::size_t n = p.num_nodes();
  std::size_t max_k = 0;
  for (NodeId v = 0; v < n; ++v) max_k = std::max<std::size_t>(max_k, p.strategies(v));
  add("name                 %s", p.name().c_str());
  add("nodes                %zu", n);
  add("edges                %zu", p.num_edges());
  add("strategies           %zu (mean %.2f, max %zu)", p.num_strategies_total(),
      n ? static_cast<double>(p.num_strategies_total()) / static_cast<double>(n) : 0.0, max_k);
  std::size_t entries = 0, forbidden = 0, node_forbidden = 0, table_entries = 0;
  for (EdgeId e = 0; e < p.num_edges(); ++e) {
    auto t = p.edge_costs(e);
    entries += t.size();
    forbidden += static_cast<std::size_t>(std::count_if(t.begin(), t.end(), is_forbidden));
  }
  for (std::uint32_t t = 0; t < p.num_tables(); ++t) table_entries += p.table(t).size();
  for (NodeId v = 0; v < n; ++v)
    for (Cost c : p.costs(v)) node_forbidden += is_forbidden(c);
  add("distinct edge tables %zu (%zu entries stored for %zu)", p.num_tables(), table_entries,
      entries);
  add("forbidden entries    %.2f %% of edge entries, %zu node strategies",
      entries ? 100.0 * static_cast<double>(forbidden) / static_cast<double>(entries) : 0.0,
      node_forbidden);
  const std::size_t buckets[] = {0, 1, 2, 3, 4, 8, 16, 64, SIZE_MAX};
  const char* names[] = {"0", "1", "2", "3", "4", "5-8", "9-16", "17-64", "65+"};
  std::size_t hist[9] = {};
  for (NodeId v = 0; v < n; ++v) {
    std::size_t b = 0;
    while (p.degree(v) > buckets[b]) ++b;
    ++hist[b];
  }
  out += "degree histogram    ";
  for (int b = 0; b < 9; ++b)
    if (hist[b]) out += " " + std::string(names[b]) + ":" + std::to_string(hist[b]);
  out += '\n';
  add("time segments        %zu", p.num_segments());
  Evaluation least = evaluate(p, least_memory_assignment(p));
  if (p.usage_limit()) {
    add("usage limit          %lld", static_cast<long long>(*p.usage_limit()));
    add("min-usage peak       %s (%.4f of the limit)%s", to_string(least.peak_usage).c_str(),
        *p.usage_limit()
            ? static_cast<double>(least.peak_usage) / static_cast<double>(*p.usage_limit())
            : 0.0,
        least.feasible ? "" : ": INFEASIBLE");
  } else {
    add("usage limit          none");
    add("min-usage peak       %s", to_string(least.peak_usage).c_str());
  }
}

// What presolve makes of it, and the core's hardness for exact search.
void presolve_lines(const Problem& p, std::size_t regions, Lines& lines) {
  std::string& out = lines.out;
  const auto add = [&](const char* fmt, auto... args) { lines.add(fmt, args...); };
  Reduced r = Reduced::build(p);
  std::size_t strategies = 0, max_rk = 0;
  for (std::uint32_t g = 0; g < r.num_nodes(); ++g) {
    strategies += static_cast<std::size_t>(r.strategies(g));
    max_rk = std::max<std::size_t>(max_rk, r.strategies(g));
  }
  // What each presolve rule did, one line each.
  const PresolveStats& s = r.stats();
  if (s.infeasible_forbidden) {
    add("presolve             %s", s.summary().c_str());
  } else {
    add("presolve             %zu rounds", s.rounds);
    add("  forbidden          %zu strategies removed (and propagated)", s.dead_strategies);
    add("  folded             %zu nodes into a neighbour's group", s.folded_nodes);
    add("  parallel edges     %zu summed into another", s.parallel_edges);
    add("  internal edges     %zu moved into node costs", s.internal_edges);
    add("  dominated          %zu strategies removed", s.dominated_strategies);
    add("  table minima       %zu edge tables' row/column minima moved into node costs",
        s.minima_moved);
  }
  add("reduced              %zu nodes, %zu edges, %zu strategies (max %zu)", r.num_nodes(),
      r.num_edges(), strategies, max_rk);
  // The core's hardness for exact search; min-fill on a large reduced graph takes long.
  if (r.num_nodes() > 0 && r.num_nodes() <= kEliminationMaxNodes) {
    const Elimination el = min_fill_order(r);
    add("elimination width    %zu (min-fill order; largest bag 2^%.1f strategy tuples)", el.width,
        el.log2_bag);
    // What exact mode's dynamic programming would store (exact.dp-entries gates it).
    const std::uint64_t dp = BucketElimination(r, el.order).entries();
    add("dynamic programming  %s table entries",
        dp == UINT64_MAX ? "more than 2^64" : std::to_string(dp).c_str());
  }
  if (regions > 0) out += make_regions(r, regions).summary();
}

}  // namespace

std::string instance_info(const Problem& p, std::size_t regions) {
  Lines lines;
  input_lines(p, lines);
  presolve_lines(p, regions, lines);
  return lines.out;
}

}  // namespace iopddl::inline v0
