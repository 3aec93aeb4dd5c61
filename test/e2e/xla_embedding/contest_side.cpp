// The contest's reference declarations, as XLA's tree carries them (iopddl.h): the same
// namespace and class names as the library's, with another layout.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace iopddl {

using Cost = int64_t;
using Usage = int64_t;
using TimeIdx = int64_t;
using NodeIdx = int64_t;
using StrategyIdx = int64_t;
using Interval = std::pair<TimeIdx, TimeIdx>;

struct Strategy {
  Cost cost;
  Usage usage;
};
struct Node {
  Interval interval;
  std::vector<Strategy> strategies;
};
struct Edge {
  std::vector<NodeIdx> nodes;
  std::vector<Strategy> strategies;
};
struct Problem {
  std::string name;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::optional<Usage> usage_limit;
};
using Solution = std::vector<StrategyIdx>;

// The contest's evaluation (no memory check needed here).
Cost Evaluate(const Problem& problem, const Solution& solution) {
  Cost cost = 0;
  for (std::size_t v = 0; v < problem.nodes.size(); ++v)
    cost += problem.nodes[v].strategies[static_cast<std::size_t>(solution[v])].cost;
  for (const Edge& e : problem.edges) {
    const auto k = problem.nodes[static_cast<std::size_t>(e.nodes[1])].strategies.size();
    const auto i = static_cast<std::size_t>(solution[static_cast<std::size_t>(e.nodes[0])]) * k +
                   static_cast<std::size_t>(solution[static_cast<std::size_t>(e.nodes[1])]);
    cost += e.strategies[i].cost;
  }
  return cost;
}

}  // namespace iopddl

// The two-node problem of library_side.cpp in the contest's own structures, evaluated at
// `x`, `y`; the Problem is built and destroyed here, as XLA does with its own.
long long contest_side_cost(long long x, long long y) {
  iopddl::Problem p{"two-ops",
                    {{{0, 2}, {{10, 80}, {30, 40}}}, {{1, 3}, {{20, 60}, {25, 30}}}},
                    {{{0, 1}, {{0, 0}, {12, 0}, {12, 0}, {0, 0}}}},
                    100};
  return iopddl::Evaluate(p, {x, y});
}
