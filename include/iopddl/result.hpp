// What a solve ends with: its status, and what the portfolio's neighbourhoods did. The
// vocabulary of outcomes every layer shares (the status words are util/status_name.cpp's).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "iopddl/export.hpp"
#include "iopddl/types.hpp"

namespace iopddl::inline v0 {

enum class SolveStatus {
  kFeasible,    // a memory-feasible assignment is in the store
  kOptimal,     // ... and it is proven optimal
  kInfeasible,  // proven: even the least-memory assignment exceeds the limit
  kNoSolution,  // stopped before any feasible assignment was found
};

// "optimal", "feasible", "infeasible", "no solution": as the JSON result and the log say.
IOPDDL_API const char* status_name(SolveStatus status);

// An improvement of the best cost (or of the certified bound) during a solve.
struct IOPDDL_API Improvement {
  double seconds;  // since process start
  Total cost;
  std::string source;  // which solver component found it
};

// What one neighbourhood of the workers' polish cost and gained, summed over the workers
// (of this process).
struct IOPDDL_API NeighbourhoodReport {
  std::string name;
  std::uint64_t calls = 0;         // batches run
  std::uint64_t improvements = 0;  // moves that lowered the cost
  Total gain = 0;                  // cost they removed, in all
  double seconds = 0;              // time spent in the batches
};

struct IOPDDL_API SolveResult {
  SolveResult(SolveStatus s = SolveStatus::kNoSolution, std::string why = "",
              std::vector<NeighbourhoodReport> reports = {})
      : status(s), note(std::move(why)), neighbourhoods(std::move(reports)) {}
  SolveStatus status = SolveStatus::kNoSolution;
  std::string note;                                 // e.g. which component proved optimality
  std::vector<NeighbourhoodReport> neighbourhoods;  // the portfolio's (empty otherwise)
  std::uint64_t work = 0;  // work units the portfolio's workers did (of this process)
};

}  // namespace iopddl::inline v0
