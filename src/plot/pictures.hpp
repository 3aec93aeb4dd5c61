// The pictures users get (`iopddl plot`, `iopddl frontier --png`, Python's Result.plot):
// gnuplot scripts with their data inline, rendered by render_png (gnuplot.hpp).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../sweep/frontier.hpp"
#include "iopddl/problem.hpp"

namespace iopddl::inline v0 {

// The summed usage of the live nodes on each segment of compressed time.
std::vector<Total> usage_by_segment(const Problem& problem, std::span<const Strategy> assignment);

// A run's best cost and certified bound over time, each as (seconds, value) at every
// improvement; `end` the run's length (both lines go on to it).
struct CostHistory {
  std::vector<std::pair<double, double>> costs, bounds;
  double end = 0;
};

// An answer's memory over time against the limit, the peak marked and its `named` heaviest
// live nodes named (by `node_names` where given); below it, when `history` has costs, cost
// and bound over time.
struct MemoryPicture {
  std::string script;       // for render_png
  std::string profile_csv;  // start,end,usage: the spans drawn
};
MemoryPicture memory_picture(const Problem& problem, std::span<const Strategy> assignment,
                             CostHistory history, int named,
                             const std::vector<std::string>& node_names = {});

// Cost and certified bound against the memory limit.
std::string frontier_script(const std::vector<FrontierPoint>& points, const std::string& title);

}  // namespace iopddl::inline v0
