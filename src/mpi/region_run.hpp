// Region runs over MPI (--distributed-mode regions): the rounds of regional/whole_member.hpp
// on real ranks. Rank 0 runs the whole-problem portfolio (its threads and bound worker): in a
// timed run with polishers without a pause from the first round to the last, otherwise in
// phases (of --sync-rounds pricing rounds when deterministic). Ranks 1..k-1 improve their
// regions of the round's incumbent for --distributed-region-seconds (by the work of rank 0's
// last phase in a deterministic run, and what is left of it in a last round, which then
// gives what --simulate-ranks k gives). At a round's end the region ranks' changes are
// gathered on rank 0 (one Gatherv of int64: the changed nodes only); rank 0 assembles them
// into the better of its best and the incumbent, and broadcasts the stop decision and the
// new incumbent. With one rank this is the single-process run with checkpoints.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>

#include "../portfolio/portfolio.hpp"
#include "iopddl/incumbent.hpp"
#include "iopddl/log.hpp"
#include "iopddl/options.hpp"
#include "iopddl/stop.hpp"

namespace iopddl::inline v0::mpi {

// Called on rank 0 after each round with whether the run stops, the round's number and
// whether the portfolio is running (then its prices cannot be read); it writes checkpoints.
using AfterRound = std::function<void(bool stopping, std::uint64_t round, bool running)>;

// Runs the rounds until the deadline, a signal on any rank, or (deterministic) rank 0's
// work is spent. `portfolio` (of `p` reduced to `r`) has been started on every rank and is
// ready; rank 0's `store` holds the incumbent and gets every improvement.
void run_regions(const Problem& p, const Reduced& r, const SolverOptions& o,
                 const DistributedOptions& d, Portfolio& portfolio, MPI_Comm comm,
                 StopControl& stop, IncumbentStore& store, Log& log, const AfterRound& after_round);

}  // namespace iopddl::inline v0::mpi
