// Signals and the watchdog of a command-line run. SIGINT, SIGTERM and SIGHUP (and SIGUSR1,
// a checkpoint request) are blocked in every thread and taken by one waiting thread, which
// can print the incumbent at once whatever the solver is doing; the same thread is the
// watchdog that prints and ends a run that overran its deadline.
#pragma once

#include <signal.h>

#include "iopddl/stop.hpp"
#include "run_state.hpp"

namespace iopddl::inline v0::app {

// Blocks SIGINT, SIGTERM, SIGHUP (and SIGUSR1 when `with_usr1`) in the calling thread, so
// in every thread started after it (MPI's too), and returns that set; the mask before goes
// to `previous` when given.
sigset_t block_stop_signals(bool with_usr1, sigset_t* previous = nullptr);

// Seconds the kernel takes to free this process's memory at exit, which counts against
// the time limit.
double teardown_seconds();

// Starts the thread that takes `set`'s signals for `run` and, when `deadline` is not
// Clock::time_point::max(), fires the watchdog there (see signals.cpp). `grace`: how long a
// rank 0 that already printed gives its main thread to agree and finalise first.
void start_signal_thread(Run& run, sigset_t set, Clock::time_point deadline, Clock::duration grace);

}  // namespace iopddl::inline v0::app
