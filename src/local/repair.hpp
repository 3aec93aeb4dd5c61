// Greedy memory repair: at the first overloaded time point, the moves (relief.hpp) with the
// least cost per unit of usage removed there, never raising the global peak, until it fits;
// then the next overloaded point. A move that fits nowhere is forced (the best one) a
// bounded number of times: a repair that keeps forcing goes round in circles.
#pragma once

#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"
#include "memory_index.hpp"
#include "state.hpp"

namespace iopddl::inline v0 {

// Returns whether `state` ends within the limit.
bool greedy_repair(LocalState& state, const MemoryIndex& index, const RepairOptions& options,
                   const StopControl& stop);

}  // namespace iopddl::inline v0
