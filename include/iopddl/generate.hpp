// Instance generator for tests and tuning: contest-format problems of the two families the
// contest's instances fall into.
#pragma once

#include <cstdint>
#include <string>

#include "iopddl/export.hpp"
#include "iopddl/problem.hpp"

namespace iopddl::inline v0 {

enum class Family {
  kForbiddenPairs,  // many 10^18 entries: follower (equality) and alias edges that presolve folds
  kMemory,          // no forbidden entries, memory-dominated: mostly edgeless nodes and hubs
  kCore,            // a dense core of `nodes` groups under many folded leaves, as A, D, G
};

struct IOPDDL_API GeneratorOptions {
  Family family = Family::kForbiddenPairs;
  std::size_t nodes = 1000;
  std::uint64_t seed = 1;
  // Usage limit = factor x the least-memory peak; in the forbidden family raised if needed
  // so that the planted forbidden-free assignment fits (with 1 % to spare).
  double limit_factor = 1.1;
  // Core family: leaves per core node (each folds into it by presolve: a functional
  // table, degree 1, memory over a few steps of its own), the core's edges per node, and
  // the share of core edges that are aliases (pairs of strategies ruled out).
  double leaves = 30;
  double core_degree = 2.3;
  double alias_share = 0.2;
  // Memory family: the share of nodes without an edge, the share of hubs (nodes with 65 or
  // more edges), the mean and the largest strategy count. The defaults are the kept-aside
  // instance R's (isolated 55 %, hubs 80 of 62,185, strategies 8.6 / 39); T is 0.72, 0.0011,
  // 8.9, 88 and U 0.77, 0.0015, 8.1, 379.
  double isolated_share = 0.55;
  double hub_share = 0.0013;
  double strategies_mean = 8.6;
  std::size_t max_strategies = 39;
};

// Node ids are 32-bit; past a few million nodes the JSON alone outgrows the input cap.
inline constexpr std::size_t kMaxGeneratedNodes = 5'000'000;

// Throws InputError naming the option when one is out of range (nodes from 1 to
// kMaxGeneratedNodes, limit_factor from 1e-6 to 1e6, leaves from 0 to 1000, core_degree
// from 0 to 20, alias_share from 0 to 1, isolated_share from 0 to 0.99, hub_share from 0 to
// 0.05, strategies_mean from 1 to 200, max_strategies from 2 to 1000).
IOPDDL_API Problem generate_problem(const GeneratorOptions& options);

}  // namespace iopddl::inline v0
