// Instance generator for tests and tuning: contest-format problems of the two families the
// contest's instances fall into.
#pragma once

#include <cstdint>
#include <string>

#include "iopddl/problem.hpp"

namespace iopddl {

enum class Family {
  kForbiddenPairs,  // many 10^18 entries: follower (equality) and alias edges that presolve folds
  kMemory,          // no forbidden entries, memory-dominated, barely reducible
};

struct GeneratorOptions {
  Family family = Family::kForbiddenPairs;
  std::size_t nodes = 1000;
  std::uint64_t seed = 1;
  // Usage limit = factor x the least-memory peak; in the forbidden family raised if needed
  // so that the planted forbidden-free assignment fits (with 1 % to spare).
  double limit_factor = 1.1;
};

Problem generate_problem(const GeneratorOptions& options);

}  // namespace iopddl
