#include "frontier.hpp"

#include <algorithm>
#include <span>

namespace iopddl::inline v0 {

std::vector<FrontierPoint> cost_memory_frontier(const Problem& problem, int points,
                                                const SolverOptions& options,
                                                const StopControl& stop, Log& log) {
  points = std::max(points, 2);
  const Total least = least_peak(problem);
  const double total = stop.seconds_left();
  const auto started = stop.now();
  LimitSolve free = solve_at_limit(problem, std::nullopt, options, stop, total / points, log);
  const double free_seconds = std::chrono::duration<double>(stop.now() - started).count();
  const Total top = free.has ? free.peak : most_peak(problem);
  std::vector<Usage> limits;
  for (int i = 0; i + 1 < points; ++i) {
    const Total at = least + (top - least) * i / (points - 1);
    if (at < top && (limits.empty() || static_cast<Total>(limits.back()) < at))
      limits.push_back(static_cast<Usage>(at));
  }
  std::vector<FrontierPoint> out;
  for (std::size_t i = 0; i < limits.size(); ++i) {
    const auto begun = stop.now();
    const double seconds = stop.seconds_left() / static_cast<double>(limits.size() - i);
    const auto hint = !out.empty() && out.back().solve.has
                          ? std::span<const Strategy>(out.back().solve.assignment)
                          : std::span<const Strategy>();
    FrontierPoint p{limits[i],
                    solve_at_limit(problem, limits[i], options, stop, seconds, log, hint), 0};
    p.seconds = std::chrono::duration<double>(stop.now() - begun).count();
    out.push_back(std::move(p));
  }
  // The top: the answer without a limit, at its own peak.
  free.limit = static_cast<Usage>(top);
  out.push_back(FrontierPoint{static_cast<Usage>(top), std::move(free), free_seconds});
  // Less memory never costs less: a bound at a higher limit holds below it too.
  for (std::size_t i = out.size() - 1; i-- > 0;)
    out[i].solve.bound = std::max(out[i].solve.bound, out[i + 1].solve.bound);
  for (FrontierPoint& p : out)
    if (p.solve.has && p.solve.bound >= p.solve.cost) p.solve.proven = true;
  return out;
}

}  // namespace iopddl::inline v0
