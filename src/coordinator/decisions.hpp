// The decisions of a distributed run, as pure functions over what the ranks report: when
// to stop, whose answer every rank continues from, how the memory prices move, when rank 0
// writes a checkpoint, and how the phase's time splits with the distributed bound. The MPI
// layer (src/mpi/) only gathers the reports and carries the outcome; every rank computes
// the same decision from the same reports.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "iopddl/types.hpp"

namespace iopddl::inline v0::coordinator {

// What one rank reports at the end of a phase.
struct PhaseReport {
  bool stop = false;          // past its deadline, signalled, or its bound closed the gap
  bool work_left = false;     // deterministic runs: its workers have work left
  std::optional<Total> best;  // its best cost, when it has an answer
};

// All ranks stop after this phase when any asks to, or, in a deterministic run, when no
// rank's workers have work left.
bool stop_after_phase(std::span<const PhaseReport> reports, bool deterministic);

// The rank whose answer every rank continues from: the least cost (compared exactly), ties
// to the lower rank; none when no rank has an answer.
std::optional<int> winning_rank(std::span<const PhaseReport> reports);

// Each memory price moved `blend` (0..1) of the way to the ranks' average, `sum` being the
// sum of all `ranks` ranks' prices.
std::vector<double> blended_prices(std::span<const double> mine, std::span<const double> sum,
                                   int ranks, double blend);

// Rank 0 writes a checkpoint when asked (SIGUSR1), when the period since the last one has
// passed, and as the run stops; the last two only with a checkpoint path configured.
struct CheckpointPolicy {
  bool configured = false;
  double period_seconds = 0;
};
bool checkpoint_due(const CheckpointPolicy& policy, double elapsed, double last_written,
                    bool requested, bool stopping);

// The distributed bound's rounds take `share` of each phase: rounds go on until their
// time reaches share / (1 - share) of the last search phase's (share capped at 0.9); a
// deterministic run has one round per phase. Rank 0's clock decides for all.
double bound_time_ratio(double share);
bool another_bound_round(bool deterministic, bool stopping, double seconds_in_rounds, double ratio,
                         double last_phase_seconds);
// The rank that repairs and improves the phase's assembled labelling: each in turn.
int repairing_rank(std::uint64_t phase, int ranks);

}  // namespace iopddl::inline v0::coordinator
