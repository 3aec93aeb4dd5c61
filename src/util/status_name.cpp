// The status names shared by the log, the JSON result and the library (no solver code, so
// that readers and their fuzz targets link without it).
#include "iopddl/result.hpp"

namespace iopddl::inline v0 {

const char* status_name(SolveStatus status) {
  switch (status) {
    case SolveStatus::kOptimal:
      return "optimal";
    case SolveStatus::kFeasible:
      return "feasible";
    case SolveStatus::kInfeasible:
      return "infeasible";
    case SolveStatus::kNoSolution:
      break;
  }
  return "no solution";
}

}  // namespace iopddl::inline v0
