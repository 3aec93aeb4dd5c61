#include "generator_options.hpp"

#include <cstdint>
#include <limits>

namespace iopddl::inline v0::app {

void describe_generator_options(OptionTable& t, GeneratorOptions& g) {
  t.choice("family",
           "forbidden: many 10^18 entries that presolve folds; memory: none, memory-dominated; "
           "core: a dense core of --nodes groups under folded leaves (like A, D, G)",
           g.family,
           {{"forbidden", Family::kForbiddenPairs},
            {"memory", Family::kMemory},
            {"core", Family::kCore}});
  t.unsigned_integer("nodes", "Number of nodes", g.nodes, 1, kMaxGeneratedNodes);
  t.short_name("nodes", "-n");
  t.unsigned_integer("seed", "Seed", g.seed, 0, std::numeric_limits<std::uint64_t>::max());
  t.number("limit-factor", "Usage limit as a multiple of the least-memory peak", g.limit_factor,
           1e-6, 1e6, "a positive number");
  t.number("leaves", "Core family: leaves folded into each core node (on average)", g.leaves, 0,
           1000, "a number from 0 to 1000");
  t.number("core-degree", "Core family: edges per core node", g.core_degree, 0, 20,
           "a number from 0 to 20");
  t.number("alias-share", "Core family: share of core edges that rule strategy pairs out",
           g.alias_share, 0, 1, "a share from 0 to 1");
  t.number("isolated-share", "Memory family: share of nodes without an edge", g.isolated_share, 0,
           0.99, "a share from 0 to 0.99");
  t.number("hub-share", "Memory family: share of nodes with 65 or more edges", g.hub_share, 0, 0.05,
           "a share from 0 to 0.05");
  t.number("strategies-mean", "Memory family: mean strategies per node", g.strategies_mean, 1, 200,
           "a number from 1 to 200");
  t.unsigned_integer("max-strategies", "Memory family: the largest strategy count",
                     g.max_strategies, 2, 1000);
}

}  // namespace iopddl::inline v0::app
