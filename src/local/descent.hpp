// Memory-aware 1-opt descent: improving single moves that keep every time point within the
// limit, groups in random order, each group's best such move first, until a pass moves none.
#pragma once

#include "iopddl/rng.hpp"
#include "iopddl/stop.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

// Ends at a 1-opt local optimum of `state` within the limit (or when `stop` says stop).
void memory_descent(LocalState& state, Rng& rng, const StopControl& stop);

}  // namespace iopddl::inline v0
