// XLA's AutoShardingSolverRequest solved through the library, as XLA's auto-sharding pass
// would call a solver: the serialized request in, the response's fields out (and the
// serialized AutoShardingSolverResult of proto/auto_sharding_request.proto). Fields the
// library does not implement refuse the request by name (InputError) unless
// `ignore_unsupported_fields`; fractional costs are scaled (the result says so); a soft
// budget (overbudget_coeff) is weighed against cost; "optimal" only where it holds for the
// request as given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iopddl/export.hpp"
#include "iopddl/iopddl.hpp"

namespace iopddl::inline v0 {

struct RequestResult {
  SolveStatus status = SolveStatus::kNoSolution;
  std::vector<std::int64_t> s_val;  // one strategy per node (empty without an answer)
  double cost = 0;                  // in the request's units, the overrun penalty included
  bool is_optimal = false;
  std::vector<std::int64_t> peak_times;
  std::int64_t peak_usage = 0;
  double overbudget_cost = 0;
  std::optional<double> lower_bound;  // certified, in the request's units
  std::string message;                // what was scaled, ignored, not met
  std::string response;               // the same as a serialized AutoShardingSolverResult
};

// Solves the serialized request (binary protobuf, or text format; a message `m` of XLA's
// type: m.SerializeAsString()) within options.time_limit (or the request's own
// solver_timeout when shorter), starting from its s_hint unless options.hint is set.
// Throws InputError naming the field for a request it refuses.
IOPDDL_API RequestResult solve_request(std::string_view request, const RunOptions& options = {},
                                       bool ignore_unsupported_fields = false);

}  // namespace iopddl::inline v0
