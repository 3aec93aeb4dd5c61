// A warm start (a hint: an assignment of the input's nodes) taken into a started portfolio.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "portfolio.hpp"

namespace iopddl::inline v0 {

// The workers start from `hint` (of `p`, reduced to `r`; `hint_cost` its cost when it was
// offered to the store as it is). Strategies that presolve removed as dominated are
// replaced by their nearest and the result re-evaluated; a hint that fits is adopted (and
// polished first with o.polish_hint), or with o.improve_hint improved by worker 0 unless
// presolve moved it; one over the limit is repaired by worker 0. Returns a note when a hint
// over the limit was of no use ("" otherwise).
std::string start_from_hint(const Problem& p, const Reduced& r, const SolverOptions& o,
                            std::span<const Strategy> hint, std::optional<Total> hint_cost,
                            Portfolio& portfolio, StopControl& stop, IncumbentStore& store,
                            Log& log);

}  // namespace iopddl::inline v0
