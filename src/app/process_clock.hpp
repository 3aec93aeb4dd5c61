// When the run began, as the user's clock sees it: TIMEOUT counts from there.
#pragma once

#include "iopddl/stop.hpp"

namespace iopddl::inline v0::app {

// The start of this process (from /proc, so library loading before main counts), or of
// the MPI launcher that started it (mpirun, orted, slurmstepd) when `launched` and it
// started at most kMaxLaunchSeconds before us: a user who times `mpirun ... FILE T` times
// the launch too. `fallback` (main's first instant) when /proc cannot tell.
Clock::time_point process_start(Clock::time_point fallback, bool launched);

// A launcher that started longer ago than this is a long-lived daemon, not this job's.
inline constexpr double kMaxLaunchSeconds = 5;

}  // namespace iopddl::inline v0::app
