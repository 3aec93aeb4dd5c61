// k machines simulated in one process, for measuring how region rounds scale without a
// cluster (bench/scaling.sh). A run bounded by work (--deterministic) whose k virtual ranks
// each have the budget of one (--work-limit): the rounds of whole_member.hpp, with the
// ranks' steps of a round run side by side on --simulate-threads threads (any count gives
// the same answer). Rank 0 is the whole-problem member, the
// single-process solver with one worker run in phases of --sync-rounds pricing rounds;
// ranks 1..k-1 improve their regions of the round's incumbent with the work rank 0 did in
// the phase before, as they would beside it on k machines. The answer after equal work per
// rank is what k machines give in the time one takes for its budget, and what `mpirun -np k
// --distributed-mode regions --deterministic` gives; one simulated rank is the plain
// single-process run. The log has one line per round: the cost, the region changes kept,
// the bytes the region ranks send.
#pragma once

#include <cstdint>

#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/problem.hpp"
#include "iopddl/solve.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0 {

SolveResult simulate_ranks(const Problem& p, const SolverOptions& o, const DistributedOptions& d,
                           StopControl& stop, IncumbentStore& store, Log& log);

}  // namespace iopddl::inline v0
