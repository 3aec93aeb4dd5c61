// The reference evaluator: deliberately simple and independent of every fast path in the
// solver (no compressed time, no shared state). Everything the solver claims is checked here.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "iopddl/export.hpp"
#include "iopddl/problem.hpp"

namespace iopddl::inline v0 {

struct IOPDDL_API Evaluation {
  bool valid = false;  // right length and every strategy in range
  std::string error;   // why not, when !valid
  Total node_cost = 0;
  Total edge_cost = 0;
  Total cost = 0;              // node_cost + edge_cost, exact
  Total peak_usage = 0;        // maximum over time of the summed usage of live nodes
  std::int64_t peak_time = 0;  // first time point at which peak_usage is reached
  std::optional<Usage> usage_limit;
  bool feasible = false;                        // valid and peak_usage <= limit (or no limit)
  std::optional<std::int64_t> first_violation;  // first time point over the limit
  std::size_t forbidden_picks = 0;              // chosen node or edge costs >= 10^18
};

IOPDDL_API Evaluation evaluate(const Problem& problem, std::span<const Strategy> assignment);

// The nodes live at `time` (in the input's units) that use memory under `assignment`, with
// their usage, heaviest first (ties by node).
IOPDDL_API std::vector<std::pair<NodeId, Usage>> live_usages(const Problem& problem,
                                                             std::span<const Strategy> assignment,
                                                             std::int64_t time);

// Why no assignment fits the usage limit: with every node at its least usage (ties to the
// least cost), the summed usage at `time` (in the input's units) is `least_peak`, above the
// limit; that is the least limit any assignment can meet. `live` holds every node live
// then with a positive least usage, heaviest first.
struct IOPDDL_API Infeasibility {
  Total least_peak = 0;
  Usage limit = 0;
  std::int64_t time = 0;
  std::vector<std::pair<NodeId, Usage>> live;
  // One line: the peak, the time, the limit and the `named` heaviest nodes live then.
  std::string describe(std::size_t named = 5) const;
};
// nullopt when the least-memory assignment fits (or there is no limit).
IOPDDL_API std::optional<Infeasibility> explain_infeasibility(const Problem& problem);

// A human-readable multi-line report; with a lower bound on the optimum (from `iopddl bound`
// or another solver), also the solution's gap to it, and whether the bound is above the cost
// (then one of the two is wrong).
IOPDDL_API std::string format_report(const Evaluation& e,
                                     std::optional<Total> lower_bound = std::nullopt);
// The same as a JSON object (one line); the gap is null when it is not finite.
IOPDDL_API std::string format_report_json(const Evaluation& e,
                                          std::optional<Total> lower_bound = std::nullopt);

}  // namespace iopddl::inline v0
